"""``/``: the viewer's topics (an admin's: every topic) with each stage's progress."""
from __future__ import annotations

from typing import Any

from starlette.responses import Response

from ..exporting import adjudication_queue
from ..stages import ASSESSMENT_STAGES
from ..web import View, Visit

__all__ = ["TopicsPage"]


class TopicsPage(View):
    def get(self, visit: Visit) -> Response:
        store, viewer = visit.store, visit.viewer
        assert viewer is not None
        requests = store.requests()
        topics = list(requests) if viewer.admin else store.assigned(viewer.name)
        rows: list[dict[str, Any]] = []
        for topic in topics:
            items = visit.workbench.items(topic, viewer.name)
            rows.append({"topic": topic, "title": requests[topic].title,
                         "counts": {stage.name: items.counts(stage.name) for stage in ASSESSMENT_STAGES},
                         "nuggets": len(store.topic_nuggets(topic).nuggets), "pool": len(store.pool(topic)),
                         "assessors": store.assessors(topic)})
        queue = len([e for e in adjudication_queue(store) if e["decision"] is None]) if viewer.admin else 0
        if viewer.admin:  # every assessor's answers so far
            done = store.answer_counts()
            for row in rows:
                row["answered"] = sorted(done.get(row["topic"], {}).items())
        return visit.render("dashboard.html", rows=rows, queue=queue)
