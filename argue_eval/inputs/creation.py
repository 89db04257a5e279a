"""What ``nuggets create`` reads: the requests, each topic's documents (a pool file, or the documents runs
rank or cite) and their texts; and the two banks ``nuggets compare`` sets side by side.

A pool file is the ``pool`` command's output (qrels-shaped ``topic 0 doc_id -1`` lines, in the order to
assess); runs are pooled by depth as ``pool --depth K`` pools them (ranked runs by rank, report runs by first
citation). Either way a topic's documents keep that order, which is the order the model reads them in.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import InputError, few_items
from ..model import Request
from ..organizer.nugget_create import TopicDocuments

__all__ = ["pool_documents", "run_documents", "creation_topics", "CreationInputs", "describe_missing", "read_bank"]


def pool_documents(pool: str | os.PathLike[str] | Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """Each topic's documents in pool order (a document listed twice counts once), from a pool file (any
    qrels-shaped file) or a mapping ``{topic: [doc_id, ...]}``."""
    if isinstance(pool, Mapping):
        return {topic: list(dict.fromkeys(doc_ids)) for topic, doc_ids in pool.items()}
    from ..formats import read_qrels

    topics: dict[str, dict[str, None]] = {}
    for row in read_qrels(pool):
        topics.setdefault(row.request_id, {})[row.doc_id] = None
    return {topic: list(doc_ids) for topic, doc_ids in topics.items()}


def run_documents(runs: Sequence[str | os.PathLike[str]], depth: int | None) -> dict[str, list[str]]:
    """Each topic's documents pooled by depth from ranked or report runs, as ``pool --depth`` orders them."""
    from ..organizer.pooling import pool_files

    return {topic: list(doc_ids) for topic, doc_ids in pool_files(list(runs), "depth", depth).topics.items()}


class CreationInputs(NamedTuple):
    """The topics to build banks for, and what was left out (for the notes)."""

    topics: list[TopicDocuments]
    without_documents: list[str]
    """Requests the pool gives no document (no bank is made for them)."""
    outside_requests: list[str]
    """Pool topics that are not requests (left out)."""
    missing_documents: list[str]
    """Pooled documents the collection does not have (left out of their batches)."""


def creation_topics(requests: Any, topic_documents: Mapping[str, Sequence[str]], store: Any,
                    max_documents: int | None = None) -> CreationInputs:
    """Per request (in the requests' order), its documents with their texts: the first ``max_documents`` of
    the pool's for that topic; ``store`` is the open collection. A request file without requests is an error."""
    from .scoring import read_request_list

    request_list: list[Request] = read_request_list(requests) or []
    if not request_list:
        where = requests if isinstance(requests, (str, os.PathLike)) else "--requests"
        raise InputError(str(where), None, None, "holds no request: nothing to create nuggets for")
    wanted = {request.request_id for request in request_list}
    topics, without, missing = [], [], []
    for request in request_list:
        doc_ids = list(topic_documents.get(request.request_id, ()))[:max_documents]
        found = store.get_many(doc_ids) if doc_ids else {}
        missing += [doc_id for doc_id in doc_ids if doc_id not in found]
        documents = [found[doc_id] for doc_id in doc_ids if doc_id in found]
        if documents:
            topics.append(TopicDocuments(request, documents))
        else:
            without.append(request.request_id)
    outside = [topic for topic in topic_documents if topic not in wanted]
    return CreationInputs(topics, without, outside, missing)


def describe_missing(missing: Sequence[str]) -> str:
    return f"{len(missing)} pooled document(s) are not in the collection and are left out: {few_items(list(missing))}"


def read_bank(bank: Any) -> list[Any]:
    """A nugget bank from a path (any nugget format) or ``TopicNuggets`` records (``nuggets compare``)."""
    from .scoring import read_nugget_list

    if isinstance(bank, (str, os.PathLike)) and not Path(bank).exists():
        raise InputError(str(bank), None, None, "no such file or directory")
    return read_nugget_list(bank)

