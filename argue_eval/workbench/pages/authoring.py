"""``/t/TOPIC/nuggets``: the nugget bank of a topic beside its pooled documents, one at a time, and a search
of the collection; every edit of the bank is one ``actions.bank_action``."""
from __future__ import annotations

from urllib.parse import quote, urlencode

from starlette.responses import Response

from ..actions import BankError, bank_action, display_text
from ..stages import Stage
from ..web import View, Visit

__all__ = ["AuthoringPage"]


class AuthoringPage(View):
    def __init__(self, stage: Stage):
        self.stage = stage

    def get(self, visit: Visit) -> Response:
        store, topic, viewer = visit.store, visit.topic, visit.viewer
        assert viewer is not None
        pool = store.pool(topic)
        query = visit.query.get("q", "")
        doc_id = visit.query.get("doc")
        hits = visit.workbench.searcher.search(query, 10) if query else []
        if doc_id is None and pool:
            seen = store.seen(topic, viewer.name)
            doc_id = next((d for d in pool if d not in seen), pool[0])
        document = store.document(doc_id) if doc_id else None
        if doc_id and document is not None and doc_id in pool:
            store.mark_seen(topic, doc_id, viewer.name)
        position = pool.index(doc_id) if doc_id in pool else None
        return visit.render(
            "nuggets.html", stage=self.stage, topic=topic, request_record=store.request(topic),
            nuggets=store.nugget_rows(topic), pool=pool, position=position, doc_id=doc_id,
            document=document, doc_text=display_text(document.text) if document is not None else "",
            query=query, hits=hits, seen_count=len(store.seen(topic, viewer.name)),
            history=store.history(topic)[-15:][::-1],
        )

    def post(self, visit: Visit) -> Response:
        assert visit.viewer is not None
        fields = visit.fields()
        fields["answer_ids"] = ",".join(visit.values("answer_id_split"))
        back = f"/t/{quote(visit.topic)}/{self.stage.name}" + (
            f"?{urlencode({'doc': fields['back_doc']})}" if fields.get("back_doc") else "")
        try:
            message = bank_action(visit.store, visit.topic, visit.viewer.name, fields)
        except BankError as error:
            return visit.redirect(back, f"Not saved: {error}")
        return visit.redirect(back, message)
