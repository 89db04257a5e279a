"""What an assessor is asked: the flowchart's open questions for one topic, from that assessor's answers.

The list is ``argue.questions.list_questions`` over the topic's reports, with the topic's current nugget
bank and a lookup holding the prior judgments and this assessor's own answers, in ``stop`` mode: only the
questions the flowchart certainly reaches. Answering one can open the next (a sentence found not to be a
negative assertion opens "requires a citation?"), which the next page load lists. Items are deduplicated
and named exactly as ``assess export`` names them (``organizer.assessment.item_id_for``), so a sentence
citing the same document in ten runs is one item, and a workbench item and a pool item with the same id
are the same question.

An item belongs to a stage (``stages.STAGE_OF_KIND``); the sentence stage shows the ``answers`` items of
one (sentence, cited document) pair together, as one group: the bank's answers that document attests,
to tick.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..argue.api import Evaluation
from ..argue.questions import KIND_ORDER, PendingQuestion, list_questions
from ..judges.imported import ImportedJudgments
from ..model import Judgment, JudgmentKey, make_key, normalize_text
from ..organizer.assessment import PROMPTS, item_id_for
from .stages import STAGE_OF_KIND
from .store import Store, order_key, verdict_judgment

__all__ = ["Item", "Group", "TopicItems", "topic_items", "find_group", "key_of_row"]


@dataclass
class Item:
    """One question as the workbench shows it."""

    item_id: str
    key: JudgmentKey
    stage: str
    sentence: str
    run_id: str
    sentence_index: int
    previous: str | None
    following: str | None
    earlier: tuple[str, ...]
    nugget_question: str | None
    answer: str | None
    occurrences: int
    order: list[Any]
    value: bool | None = None
    """This assessor's answer (``None``: not answered yet)."""
    rationale: str | None = None
    suggestion: tuple[bool, str, str | None] | None = None

    @property
    def kind(self) -> str:
        return self.key.kind

    @property
    def prompt(self) -> str:
        return PROMPTS[self.key.kind]


@dataclass
class Group:
    """What one page asks: one item, or every ``answers`` item of one (sentence, cited document) pair."""

    group_id: str
    stage: str
    items: list[Item]
    order: list[Any]

    @property
    def first(self) -> Item:
        return self.items[0]

    @property
    def answered(self) -> bool:
        return all(item.value is not None for item in self.items)


@dataclass
class TopicItems:
    """One assessor's items on one topic: every group of a stage in flowchart order, answered or open."""

    request_id: str
    groups: dict[str, list[Group]] = field(default_factory=dict)
    evaluation: Evaluation | None = None

    def stage(self, stage: str) -> list[Group]:
        return self.groups.get(stage, [])

    def counts(self, stage: str) -> tuple[int, int]:
        """(answered, open) items of a stage."""
        done = sum(1 for g in self.stage(stage) for i in g.items if i.value is not None)
        open_ = sum(1 for g in self.stage(stage) for i in g.items if i.value is None)
        return done, open_


def key_of_row(row: dict[str, Any]) -> JudgmentKey:
    return make_key(row["kind"], row["request_id"], normalize_text(row["sentence"]), row["doc_id"], row["nugget_id"],
                    row["answer"], row["run_id"], row["sentence_index"])


def _lookup(store: Store, bank: Any, own: Iterable[Judgment]) -> ImportedJudgments:
    lookup = ImportedJudgments([bank])
    prior = [j for j in store.prior_judgments() if j.request_id == bank.request_id]
    if prior:
        lookup.add_judgments(prior, "<prior judgments>")
    lookup.add_judgments(list(own), "<assessor>")
    return lookup


def _item(question: PendingQuestion) -> Item:
    key = question.key
    return Item(
        item_id=item_id_for(key), key=key, stage=STAGE_OF_KIND[key.kind], sentence=question.sentence,
        run_id=question.run_id, sentence_index=question.sentence_index, previous=question.previous,
        following=question.following, earlier=question.earlier,
        nugget_question=question.nugget.question if question.nugget is not None else None,
        answer=question.unit.text if question.unit is not None else None, occurrences=question.occurrences,
        order=[key.request_id, question.run_id, question.sentence_index, KIND_ORDER[key.kind], key.doc_id or "",
               key.nugget_id or "", key.answer or ""],
    )


def _answered_item(row: dict[str, Any], reports: dict[str, Any], questions: dict[str, str]) -> Item:
    key = key_of_row(row)
    order = row["ord"]
    report = reports.get(order[1])
    index = order[2]
    sentences = report.sentences if report is not None else []
    nugget_question = questions.get(row["nugget_id"]) if row["nugget_id"] is not None else None
    return Item(
        item_id=row["item_id"], key=key, stage=row["stage"], sentence=row["sentence"], run_id=order[1],
        sentence_index=index,
        previous=sentences[index - 1].text if 0 < index <= len(sentences) else None,
        following=sentences[index + 1].text if index + 1 < len(sentences) else None,
        earlier=tuple(s.text for s in sentences[:index]) if row["kind"] == "first_instance" else (),
        nugget_question=nugget_question, answer=row["answer"], occurrences=1, order=order,
        value=row["value"], rationale=row["rationale"],
    )


def topic_items(store: Store, request_id: str, user: str) -> TopicItems:
    """Every item of ``user`` on ``request_id``: what they answered, and what the flowchart asks next."""
    bank = store.topic_nuggets(request_id)
    request = store.request(request_id)
    evaluation = Evaluation.build([bank], store.policies(), [request] if request is not None else None)
    rows = store.verdict_rows(request_id=request_id, user=user, role="assessor")
    own = [verdict_judgment(row) for row in rows]
    lookup = _lookup(store, bank, own)
    reports = store.reports(request_id)
    pending = list_questions(reports, evaluation, lookup, unknown="stop", show_progress=False)
    by_run = {report.run_id: report for report in reports}
    questions = store.nugget_questions(request_id)
    items: dict[str, Item] = {}
    for row in rows:
        items[row["item_id"]] = _answered_item(row, by_run, questions)
    for question in pending:
        item = _item(question)
        items.setdefault(item.item_id, item)
    suggestions = store.suggestions([item.item_id for item in items.values() if item.value is None])
    for item in items.values():
        if item.value is None:
            item.suggestion = suggestions.get(item.item_id)
    result = TopicItems(request_id, evaluation=evaluation)
    grouped: dict[str, Group] = {}
    for item in sorted(items.values(), key=lambda i: order_key(i.order)):
        if item.kind == "answers":
            group_id = "g" + item_id_for(make_key("attested", request_id, item.key.sentence, item.key.doc_id))[1:]
        else:
            group_id = item.item_id
        group = grouped.get(group_id)
        if group is None:
            group = grouped[group_id] = Group(group_id, item.stage, [], item.order)
            result.groups.setdefault(item.stage, []).append(group)
        group.items.append(item)
    return result


def find_group(items: TopicItems, stage: str, group_id: str | None) -> tuple[Group | None, int]:
    """The group to show: ``group_id`` if given and present, else the first open one (else the last)."""
    groups = items.stage(stage)
    if group_id:
        for k, group in enumerate(groups):
            if group.group_id == group_id:
                return group, k
    for k, group in enumerate(groups):
        if not group.answered:
            return group, k
    return None, len(groups)
