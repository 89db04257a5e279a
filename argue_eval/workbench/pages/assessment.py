"""``/t/TOPIC/STAGE`` for a stage that asks judgments: one group of items at a time (the first open one, or the
one named by ``?g=``), the cited document or the report beside it; a POST records the answers of the group
shown (``actions.record_answers``) and goes on to the next open group."""
from __future__ import annotations

from typing import Any
from urllib.parse import quote

from starlette.responses import Response

from ..actions import Answer, BankError, Conflict, bank_action, display_text, record_answers
from ..items import Group, Item, TopicItems, find_group
from ..stages import Stage
from ..store import Store
from ..web import View, Visit

__all__ = ["AssessmentPage", "NoSuchStage"]


class AssessmentPage(View):
    def __init__(self, stage: Stage):
        self.stage = stage

    def get(self, visit: Visit) -> Response:
        store, topic, viewer = visit.store, visit.topic, visit.viewer
        assert viewer is not None
        items = visit.workbench.items(topic, viewer.name)
        groups = items.stage(self.stage.name)
        group, index = find_group(items, self.stage.name, visit.query.get("g"))
        done, open_ = items.counts(self.stage.name)
        context: dict[str, Any] = {
            "topic": topic, "stage": self.stage, "request_record": store.request(topic), "done": done, "open": open_,
            "total": done + open_, "index": index, "count": len(groups), "group": group,
            "previous": groups[index - 1].group_id if 0 < index <= len(groups) else None,
            "next": groups[index + 1].group_id if group is not None and index + 1 < len(groups) else None}
        if group is not None:
            item = group.first
            document = store.document(item.key.doc_id) if item.key.doc_id else None
            context.update(item=item, document=document,
                           doc_text=display_text(document.text) if document is not None else "",
                           report=_report_of(store, item), bank=_bank_choices(store, topic),
                           relevance_note=_relevance_note(items, item))
        return visit.render("stage.html", **context)

    def post(self, visit: Visit) -> Response:
        viewer, topic, stage = visit.viewer, visit.topic, self.stage.name
        assert viewer is not None
        fields = visit.fields()
        items, ticked = visit.values("item"), [] if fields.get("none") else visit.values("yes")
        group = next((g for g in visit.workbench.items(topic, viewer.name).stage(stage)
                      if g.group_id == fields.get("group")), None)
        here = f"/t/{quote(topic)}/{stage}"
        if group is None:
            return visit.redirect(here, "That item is no longer asked (the bank or an earlier answer changed); "
                                  "here is the next one.")
        rationale = (fields.get("rationale") or "").strip()[:2000] or None
        try:
            if fields.get("action") == "another":
                return self._another_answer(visit, group, fields, here)
            answers = []
            for item in group.items:
                if item.item_id not in items:
                    continue  # opened after the page was drawn: asked next time
                if len(group.items) > 1 or item.kind == "answers":
                    value = item.item_id in ticked
                else:
                    choice = fields.get("value")
                    if choice not in ("yes", "no"):
                        return visit.redirect(f"{here}?g={quote(group.group_id)}", "Choose yes or no.")
                    value = choice == "yes"
                seen_text = fields.get(f"seen_{item.item_id}", "")
                seen = None if seen_text == "" else seen_text == "yes"
                answers.append(Answer(item, value, seen))
            record_answers(visit.store, viewer.name, "assessor", answers, rationale)
        except (Conflict, BankError) as error:
            return visit.redirect(f"{here}?g={quote(group.group_id)}", f"Not saved: {error}")
        return visit.redirect(here)

    def _another_answer(self, visit: Visit, group: Group, fields: dict[str, str], here: str) -> Response:
        """"Another acceptable answer": added to a nugget of the bank, bound to the cited document, and recorded
        as given by this sentence."""
        assert visit.viewer is not None
        item = group.first
        form = {"action": "add_answer", "nugget_id": fields.get("nugget_id", ""), "answer": fields.get("answer", ""),
                "doc_id": item.key.doc_id or "", "start": fields.get("start", ""), "end": fields.get("end", ""),
                **({"quote": fields["quote"]} if fields.get("quote") else {})}
        message = bank_action(visit.store, visit.topic, visit.viewer.name, form)
        refreshed = visit.workbench.items(visit.topic, visit.viewer.name)
        added = [i for g in refreshed.stage(self.stage.name) for i in g.items
                 if i.kind == "answers" and i.value is None and i.key.sentence == item.key.sentence
                 and i.key.doc_id == item.key.doc_id and i.key.nugget_id == form["nugget_id"]]
        record_answers(visit.store, visit.viewer.name, "assessor", [Answer(i, True, None) for i in added])
        return visit.redirect(f"{here}?g={quote(group.group_id)}", f"{message}; recorded as given by this sentence")


class NoSuchStage(View):
    """``/t/TOPIC/OTHER``: a stage that does not exist (after the topic's permission is checked, as for a stage)."""

    def get(self, visit: Visit) -> Response:
        return visit.refuse(404, "No such page.")

    post = get


def _report_of(store: Store, item: Item) -> list[tuple[int, str, tuple[str, ...]]]:
    for report in store.reports(item.key.request_id):
        if report.run_id == item.run_id:
            return [(k, s.text, s.citations) for k, s in enumerate(report.sentences)]
    return []


def _bank_choices(store: Store, topic: str) -> list[tuple[str, str]]:
    return [(n["nugget_id"], n["question"]) for n in store.nugget_rows(topic) if not n["negative"]]


def _relevance_note(items: TopicItems, item: Item) -> str | None:
    """Under relevance from the bank, what the citation stage says instead of asking "relevant?"."""
    evaluation = items.evaluation
    if evaluation is None or evaluation.policies.relevance != "nuggets" or item.key.doc_id is None:
        return None
    topic = evaluation.topics.get(item.key.request_id)
    if topic is not None and item.key.doc_id in topic.relevant_docs:
        return "Relevant: the nugget bank binds an answer to this document."
    return "Not relevant by the nugget bank: no answer is bound to this document (yet)."
