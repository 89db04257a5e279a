"""``/adjudicate`` (admins): the items assessors disagree on, changed a judge's suggestion on, or loaded from
``agree-judgments --disagreements``, with every answer side by side; the admin's decision is recorded as the
adjudicated answer."""
from __future__ import annotations

from typing import Any
from urllib.parse import quote

from starlette.responses import Response

from ..actions import Answer, Conflict, display_text, record_answers
from ..exporting import adjudication_queue, key_of
from ..items import Item
from ..web import View, Visit

__all__ = ["AdjudicationPage"]


class AdjudicationPage(View):
    what = "Adjudication"

    def get(self, visit: Visit) -> Response:
        return self._page(visit, adjudication_queue(visit.store), visit.query.get("item"))

    def post(self, visit: Visit) -> Response:
        assert visit.viewer is not None
        queue = adjudication_queue(visit.store)
        wanted = visit.query.get("item") or visit.field("item_id")
        entry = _entry(queue, wanted)
        choice = visit.field("value")
        if entry is None or visit.field("item_id") != entry["item_id"] or choice not in ("yes", "no"):
            return self._page(visit, queue, wanted)
        row = entry["row"]
        item = Item(entry["item_id"], key_of(entry), "adjudication", row["sentence"], row.get("run_id") or "",
                    row.get("sentence_index") or 0, None, None, (), None, row.get("answer"), 1, row["ord"])
        seen = visit.field("seen")
        try:
            record_answers(visit.store, visit.viewer.name, "adjudication",
                           [Answer(item, choice == "yes", None if seen == "" else seen == "yes")],
                           visit.field("rationale").strip() or None)
        except Conflict as conflict:
            return visit.redirect(f"/adjudicate?item={quote(entry['item_id'])}", f"Not saved: {conflict}")
        return visit.redirect("/adjudicate", f"Decision on {entry['item_id']} recorded.")

    @staticmethod
    def _page(visit: Visit, queue: list[dict[str, Any]], wanted: str | None) -> Response:
        entry = _entry(queue, wanted)
        row = entry["row"] if entry is not None else {}
        document = visit.store.document(row["doc_id"]) if row.get("doc_id") else None
        question = visit.store.nugget_question(row["nugget_id"]) if row.get("nugget_id") else None
        return visit.render("adjudicate.html", queue=queue, entry=entry, document=document,
                            doc_text=display_text(document.text) if document is not None else "",
                            nugget_question=question, open_count=sum(1 for e in queue if e["decision"] is None))


def _entry(queue: list[dict[str, Any]], wanted: str | None) -> dict[str, Any] | None:
    """The item asked for, else the first open one."""
    entry = next((e for e in queue if e["item_id"] == wanted), None)
    return entry if entry is not None else next((e for e in queue if e["decision"] is None), None)
