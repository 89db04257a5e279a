"""Every flowchart question a set of reports needs and a judgment lookup cannot answer, deduplicated.

This is the one list both the human assessment loop (``assess export``) and the judge runner work from,
so an assessor and a model are asked exactly the same questions. It runs the flowchart itself over every
report (``evaluate_report``), so a question is listed only where the flowchart reaches it:

* ``unknown="both"`` (assessors): where an unanswered question decides the path, the questions of both
  branches are listed, each with the ``gates`` it depends on, so one round of assessment is enough;
* ``unknown="stop"`` (judges): only the questions the flowchart certainly reaches. A judge answers these,
  and the next call lists what the answers opened up: relevance and attestation and the nugget answers of
  relevant citations first; then, for uncited sentences, negative assertion, then nugget agreement or
  requires-citation, then first instance. At most three rounds.

Questions are deduplicated by judgment identity (``JudgmentKey``): a sentence citing the same document in
ten runs is one question, with ``occurrences`` = 10. The order is stable (topic, run, sentence, kind,
document, nugget, answer in natural order), so outputs built from it are byte-identical across reruns.

The judge runner plans with ``TopicRounds`` instead: one topic's reports, listed once, then round after round
only the sentences whose answers can open another question (``OPENING_KINDS``), as ``Question`` records in
the order ``list_questions`` gives. A sentence's path depends on its own answers alone, so a topic's rounds
never wait on another topic's, and a share of a topic's sentences (``share``: one shard of a round spread over
machines) is judged through all its rounds without the others.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..gc_tuning import paused_gc
from ..judges.base import JudgmentLookup, Question, attached_documents
from ..model import JUDGMENT_KINDS, Document, JudgmentKey, Nugget, Report, natural_key
from ..progress import progress
from .api import Evaluation
from .flowchart import Asker, Missing, evaluate_report
from .topic import Unit

__all__ = ["PendingQuestion", "list_questions", "TopicRounds", "count_by_kind", "KIND_ORDER", "OPENING_KINDS"]

KIND_ORDER = {kind: i for i, kind in enumerate(JUDGMENT_KINDS)}

OPENING_KINDS: frozenset[str] = frozenset({"relevant", "negative", "requires_citation"})
"""The kinds whose answer can open another question (``evaluate_report``): relevance opens the answers
questions of a citation; negative assertion opens nugget agreement or requires-citation, which opens first
instance. Answers, attestation, nugget agreement and first instance end their path: after a round that
asked only those, listing again finds nothing new."""


@dataclass(slots=True)
class PendingQuestion:
    """One unanswered question with the context an assessor or a judge needs, from its first occurrence."""

    key: JudgmentKey
    sentence: str
    """The sentence as its first report spells it (the key holds the normalized form)."""
    run_id: str
    sentence_index: int
    unit: Unit | None
    nugget: Nugget | None
    previous: str | None
    following: str | None
    earlier: tuple[str, ...] = ()
    """The report's earlier sentences (``first_instance`` only)."""
    cited_doc_ids: tuple[str, ...] = ()
    """Documents the report cites anywhere (``requires_citation`` only)."""
    occurrences: int = 1
    gates: set[JudgmentKey] = field(default_factory=set)
    """Unanswered questions this one is only needed under (``unknown="both"``); empty when always needed."""
    order: tuple[Any, ...] = ()

    @property
    def kind(self) -> str:
        return self.key.kind

    def question(self, evaluation: Evaluation, found: Mapping[str, Document] | None = None,
                 cited_memo: dict[tuple[str, ...], tuple[Document, ...]] | None = None) -> Question:
        """The ``Question`` a judge answers; its documents attached from ``found`` when given (as
        ``judges.asking.with_documents`` attaches them, ``cited_memo`` as there), else by the runner later."""
        key = self.key
        document, cited = (None, ()) if found is None else attached_documents(
            key.kind, key.doc_id, self.cited_doc_ids, found, cited_memo)
        return Question(
            key,
            self.sentence,
            request=evaluation.requests.get(key.request_id),
            nugget=self.nugget,
            answer=self.unit.text if self.unit is not None else None,
            earlier_sentences=self.earlier,
            document=document,
            cited_doc_ids=self.cited_doc_ids,
            cited_documents=cited,
        )


def list_questions(
    reports: Iterable[Report],
    evaluation: Evaluation,
    known: JudgmentLookup,
    unknown: Literal["both", "stop"] = "stop",
    *,
    show_progress: bool = True,
) -> list[PendingQuestion]:
    """The questions ``reports`` need that ``known`` cannot answer, deduplicated and in a stable order."""
    with paused_gc():
        return _list_questions(reports, evaluation, known, unknown, show_progress)


def _list_questions(reports: Iterable[Report], evaluation: Evaluation, known: JudgmentLookup,
                    unknown: Literal["both", "stop"], show_progress: bool) -> list[PendingQuestion]:
    ask = Asker(known)
    items: dict[JudgmentKey, PendingQuestion] = {}
    stream = progress(reports, "listing questions", unit="report") if show_progress else reports
    for report in stream:
        topic = evaluation.topics.get(report.request_id)
        if topic is None:
            continue
        sink: list[Missing] = []
        evaluate_report(report, topic, ask, evaluation.policies, unknown=unknown, on_missing=sink.append)
        cited: tuple[str, ...] | None = None
        for missing in sink:
            item = items.get(missing.key)
            if item is not None:
                item.occurrences += 1
                item.gates &= set(missing.gates)  # needed unconditionally somewhere: no condition
                continue
            key = missing.key
            index = missing.sentence_index
            sentences = report.sentences
            if key.kind == "requires_citation" and cited is None:
                cited = tuple(dict.fromkeys(doc for s in sentences for doc in s.citations))
            unit = missing.unit
            items[key] = PendingQuestion(
                key,
                sentences[index].text,
                report.run_id,
                index,
                unit,
                topic.nuggets[unit.nugget_index].nugget if unit is not None else None,
                sentences[index - 1].text if index > 0 else None,
                sentences[index + 1].text if index + 1 < len(sentences) else None,
                tuple(s.text for s in sentences[:index]) if key.kind == "first_instance" else (),
                (cited or ()) if key.kind == "requires_citation" else (),
                gates=set(missing.gates),
                order=(natural_key(report.request_id), natural_key(report.run_id), index, KIND_ORDER[key.kind],
                       key.doc_id or "", key.nugget_id or "", key.answer or ""),
            )
    return sorted(items.values(), key=lambda item: item.order)


class TopicRounds:
    """The judge runner's plan for one topic: its reports' questions, round after round (``unknown="stop"``).

    ``next_round(known)`` lists the questions the flowchart certainly reaches that ``known`` cannot answer,
    deduplicated by key, as ``Question`` records in ``list_questions``' order (by run in natural order,
    sentence, kind, document, nugget, answer of a question's first occurrence in the reports as given),
    and keeps only the sentences that wait on an answer that can open another question: the next call runs
    the flowchart over those alone (a sentence's path depends on its own answers, and the lookup only gains
    answers, so a complete sentence stays complete), and none after a round whose questions open nothing.
    The plan is for one runner, which answers (or fails) every question of a round before the next.

    ``share``: for each report, the indices of the sentences this plan judges (``None``: all); the judge
    runner's ``--shard`` gives each machine its sentences, whose every round is then its own. ``forget()``
    drops the reports once the topic is judged.
    """

    def __init__(self, request_id: str, reports: Sequence[Report], evaluation: Evaluation,
                 share: Sequence[Container[int] | None] | None = None):
        self.request_id = request_id
        self.evaluation = evaluation
        self.topic = evaluation.topics[request_id]
        # each report with the sentences to run (``None``: all), in the order given: a question's first
        # occurrence names its sentence and its place in the order
        self._open: list[tuple[Report, Container[int] | None]] = [
            (report, None if share is None else share[k]) for k, report in enumerate(reports)]

    def __bool__(self) -> bool:
        return bool(self._open)

    def forget(self) -> None:
        self._open = []

    def next_round(self, known: JudgmentLookup) -> list[Question]:
        """The open questions of this topic's open sentences (see the class docstring); ``[]`` when done."""
        if not self._open:
            return []
        with paused_gc():
            return self._next_round(known)

    def _next_round(self, known: JudgmentLookup) -> list[Question]:
        ask = Asker(known)
        topic, policies, nuggets = self.topic, self.evaluation.policies, self.topic.nuggets
        request = self.evaluation.requests.get(self.request_id)
        found: dict[JudgmentKey, tuple[tuple[Any, ...], Question]] = {}  # key -> (sort key, question)
        still_open: list[tuple[Report, Container[int] | None]] = []
        for report, only in self._open:
            sink: list[Missing] = []
            evaluate_report(report, topic, ask, policies, unknown="stop", on_missing=sink.append, only=only)
            if not sink:
                continue
            waiting = frozenset(m.sentence_index for m in sink if m.key.kind in OPENING_KINDS)
            if waiting:
                still_open.append((report, waiting))
            sentences = report.sentences
            run = natural_key(report.run_id)
            cited: tuple[str, ...] | None = None
            for missing in sink:
                key = missing.key
                if key in found:
                    continue
                kind, index, unit = key.kind, missing.sentence_index, missing.unit
                if kind == "requires_citation" and cited is None:
                    cited = tuple(dict.fromkeys(doc for s in sentences for doc in s.citations))
                question = Question(
                    key, sentences[index].text, request=request,
                    nugget=nuggets[unit.nugget_index].nugget if unit is not None else None,
                    answer=unit.text if unit is not None else None,
                    earlier_sentences=tuple(s.text for s in sentences[:index]) if kind == "first_instance" else (),
                    cited_doc_ids=(cited or ()) if kind == "requires_citation" else ())
                found[key] = ((run, index, KIND_ORDER[kind], key.doc_id or "", key.nugget_id or "", key.answer or ""),
                              question)
        self._open = still_open
        return [question for _, question in sorted(found.values(), key=lambda item: item[0])]


def count_by_kind(questions: Iterable[PendingQuestion]) -> dict[str, int]:
    """Questions per kind, in flowchart order (kinds with none left out)."""
    counts = Counter(q.key.kind for q in questions)
    return {kind: counts[kind] for kind in JUDGMENT_KINDS if counts[kind]}
