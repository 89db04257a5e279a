"""``/t/TOPIC/report``: one report of the topic as a whole (``?run=``, else the first), each sentence with its
citations and what the viewer answered about it so far: whether each cited document supports it, the nugget
answers it gives, and the uncited sentence's questions. Each open question links to its page, so the view is
also a way into the stages. It changes nothing."""
from __future__ import annotations

from typing import Any

from starlette.responses import Response

from ...model import normalize_text
from ..items import TopicItems
from ..web import View, Visit

__all__ = ["ReportPage"]


class ReportPage(View):
    what = "The report view"

    def get(self, visit: Visit) -> Response:
        store, viewer, topic = visit.store, visit.viewer, visit.topic
        assert viewer is not None
        reports = store.reports(topic)
        if not reports:
            return visit.refuse(404, f"Topic {topic} has no report.")
        wanted = visit.query.get("run")
        report = next((r for r in reports if r.run_id == wanted), reports[0])
        items = visit.workbench.items(topic, viewer.name)
        return visit.render("report.html", topic=topic, request_record=store.request(topic), report=report,
                            runs=[r.run_id for r in reports], rows=_rows(items, report.run_id,
                                                                          [s.text for s in report.sentences]))


def _rows(items: TopicItems, run_id: str, sentences: list[str]) -> list[dict[str, Any]]:
    """Per sentence of the report: its items (answered or open), each with the stage and group that asks it.
    Items are shared across runs (the same sentence citing the same document is one item), so a sentence's
    items are those asked about its text, and, for the uncited questions, about its place in this report."""
    by_sentence: dict[str, list[dict[str, Any]]] = {}
    for stage, groups in items.groups.items():
        for group in groups:
            for item in group.items:
                if item.key.run_id not in (None, run_id):
                    continue  # a question about another report's position
                by_sentence.setdefault(normalize_text(item.sentence), []).append(
                    {"item": item, "stage": stage, "group": group.group_id})
    return [{"index": k, "text": text, "items": by_sentence.get(normalize_text(text), [])}
            for k, text in enumerate(sentences)]
