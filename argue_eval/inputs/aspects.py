"""ICAT's aspects per topic, from what the user gives: nugget questions bound to their answers' documents
(ICAT-M), subtopics of TREC diversity qrels bound to their relevant documents, or the requests' own
``aspects`` field (ICAT-S). Generated aspects (ICAT-A) come from the LLM, in ``api.icat``.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..measures.icat import Aspect
from ..model import Request, natural_key
from .facts import read_nugget_topics
from .scoring import read_qrels_rows

__all__ = ["nugget_aspects", "qrels_aspects", "request_aspects"]


def nugget_aspects(nuggets: Any) -> dict[str, list[Aspect]]:
    """Each non-negative nugget an aspect (its question), bound to the documents of its answers."""
    return {request_id: [Aspect(n.nugget_id, n.question, frozenset(d for a in n.answers for d in a.doc_ids),
                                tuple(a.text for a in n.answers))
                         for n in topic.nuggets if not n.negative]
            for request_id, topic in read_nugget_topics(nuggets).items()}


def qrels_aspects(qrels: Any) -> dict[str, list[Aspect]]:
    """Each subtopic of diversity qrels (``topic subtopic doc relevance``; the second column) an aspect
    ``TOPIC/SUBTOPIC``, bound to its documents with relevance > 0; subtopics in natural order."""
    subtopics: dict[str, dict[str, set[str]]] = {}
    for row in read_qrels_rows(qrels) or ():
        docs = subtopics.setdefault(row.request_id, {}).setdefault(row.iteration, set())
        if row.relevance > 0:
            docs.add(row.doc_id)
    return {topic: [Aspect(f"{topic}/{sub}", f"subtopic {sub}", frozenset(docs))
                    for sub, docs in sorted(subs.items(), key=lambda item: natural_key(item[0]))]
            for topic, subs in subtopics.items()}


def request_aspects(requests: Iterable[Request]) -> dict[str, list[Aspect]]:
    """The requests' ``aspects`` field: ``TOPIC-a1``, ``TOPIC-a2``, ... (no documents: aligned by a judge)."""
    return {r.request_id: [Aspect(f"{r.request_id}-a{i + 1}", text) for i, text in enumerate(r.aspects)]
            for r in requests}
