"""``/t/TOPIC/citations?doc=D``: a document read once for every sentence (of every run) that cites it.

The citation stage asks about (sentence, cited document) pairs one at a time, in report order, so a document
cited by many sentences is opened again for each. Here the document is on the right once and each sentence
that cites it is a row on the left with its own yes/no; the keys act on the row marked current (``y``/``n``
choose for it and go to the next row without a choice, ``j``/``k`` move), and ``Enter`` saves every row given
a choice on this page, in one transaction; rows left without a choice stay open. The answers are the same
items, recorded as the one-at-a-time page records them (``actions.record_answers``: what was shown, the
suggestion shown), so nothing downstream tells the two flows apart but the reads they cost.
"""
from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlencode

from starlette.responses import Response

from ..actions import Answer, Conflict, display_text, record_answers
from ..highlights import bound_marks, pane
from ..items import Group, TopicItems
from ..stages import Stage
from ..web import Visit

__all__ = ["document_groups", "document_page", "save_document_page", "documents_in_order"]


def document_groups(items: TopicItems, stage: str, doc_id: str) -> list[Group]:
    """The stage's yes/no items about ``doc_id`` (one per sentence citing it), in report order."""
    return [g for g in items.stage(stage) if len(g.items) == 1 and g.first.kind != "answers"
            and g.first.key.doc_id == doc_id]


def documents_in_order(items: TopicItems, stage: str) -> list[tuple[str, int, int]]:
    """``(doc_id, open, all)`` for each document the stage asks about, in the order it is first asked."""
    out: dict[str, list[int]] = {}
    for group in items.stage(stage):
        doc_id = group.first.key.doc_id
        if doc_id and len(group.items) == 1 and group.first.kind != "answers":
            counts = out.setdefault(doc_id, [0, 0])
            counts[0] += not group.answered
            counts[1] += 1
    return [(doc_id, counts[0], counts[1]) for doc_id, counts in out.items()]


def document_page(visit: Visit, stage: Stage, items: TopicItems, doc_id: str, context: dict[str, Any]) -> Response:
    store, viewer = visit.store, visit.viewer
    assert viewer is not None
    groups = document_groups(items, stage.name, doc_id)
    document = store.document(doc_id)
    if not groups or document is None:
        return visit.refuse(404, f"No sentence of this stage cites {doc_id}.")
    text = display_text(document.text)
    order = documents_in_order(items, stage.name)
    following = next((d for d, open_, _ in order if open_ and d != doc_id), None)
    context.update(pane(text, bound_marks(store.nugget_rows(visit.topic), doc_id,
                                          store.selections_by(viewer.name, doc_id))))
    return visit.render("by_document.html", **context, rows=groups, document=document, doc_text=text,
                        doc_id=doc_id, next_document=following,
                        documents_open=sum(1 for _, open_, _ in order if open_))


def save_document_page(visit: Visit, stage: Stage, items: TopicItems, fields: dict[str, str]) -> Response:
    """Record the rows given a choice (``value_ITEM`` yes/no), all or none; back to the document while rows of it
    are open, else to the next document with open rows, else to the stage."""
    viewer = visit.viewer
    assert viewer is not None
    doc_id = fields.get("doc_id", "")
    here = f"/t/{quote(visit.topic)}/{stage.name}"
    page = f"{here}?{urlencode({'doc': doc_id})}"
    answers = []
    for group in document_groups(items, stage.name, doc_id):
        item = group.first
        choice = fields.get(f"value_{item.item_id}")
        if choice not in ("yes", "no") or f"seen_{item.item_id}" not in fields:
            continue  # not chosen, or not on the page that was posted: still open
        seen_text, shown = fields[f"seen_{item.item_id}"], fields.get(f"suggested_{item.item_id}", "")
        answers.append(Answer(item, choice == "yes", None if seen_text == "" else seen_text == "yes",
                              None if shown not in ("yes", "no") else shown == "yes"))
    if not answers:
        return visit.redirect(page, "Nothing chosen: y or n for a sentence, then Enter.")
    try:
        with visit.store.transaction():  # the answers and the document read for them: one commit
            record_answers(visit.store, viewer.name, "assessor", answers, None)
            visit.store.note_read(viewer.name, visit.topic, doc_id, stage.name)
    except Conflict as error:
        return visit.redirect(page, f"Not saved: {error}")
    refreshed = visit.workbench.items(visit.topic, viewer.name)
    message = f"{len(answers)} answer(s) about {doc_id} saved."
    if any(not g.answered for g in document_groups(refreshed, stage.name, doc_id)):
        return visit.redirect(page, message)
    following = next((d for d, open_, _ in documents_in_order(refreshed, stage.name) if open_), None)
    return visit.redirect(f"{here}?{urlencode({'doc': following})}" if following else here, message)
