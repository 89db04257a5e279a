"""``assess init``: fill a workbench database from a round's files; run again to add runs or documents.

Everything is added, nothing replaced: a report already stored keeps its first text (answers refer to its
sentences; a changed copy is counted and named), a nugget id already in the bank keeps the authors'
edits, and answers given in the workbench are never touched. The pool is the ``pool`` command's output
(qrels-shaped lines, in pool order) when given, else the documents the reports cite, in citation order;
the texts of pooled and cited documents are copied from the collection, so serving needs no collection.
The files are read through ``inputs``, as ``score`` reads them (so another round's database serves as
``--nuggets``, ``--judgments`` or ``--suggest`` too).
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError, OptionError, few_items
from ..inputs import iter_reports, read_judgment_records, read_nugget_list, read_qrels_rows, read_request_list
from ..model import TopicNuggets, natural_key
from ..organizer.assessment import item_id_for
from ..reading import iter_jsonl
from .store import Store

__all__ = ["InitSummary", "init_store"]


@dataclass
class InitSummary:
    requests: int = 0
    reports_added: int = 0
    reports_kept: int = 0
    reports_changed: list[str] = field(default_factory=list)
    reports_other_topics: int = 0
    pooled_added: int = 0
    documents_added: int = 0
    documents_missing: list[str] = field(default_factory=list)
    nuggets_added: int = 0
    nuggets_kept: int = 0
    prior: int = 0
    suggestions: int = 0
    disagreements: int = 0
    notes: list[str] = field(default_factory=list)


def init_store(
    db: str,
    requests: str,
    collection: str | None,
    runs: Sequence[str] = (),
    pool: str | None = None,
    nuggets: str | None = None,
    judgments: Sequence[str] = (),
    suggest: Sequence[str] = (),
    disagreements: Sequence[str] = (),
    relevance: str | None = None,
) -> InitSummary:
    """Create or extend the workbench database ``db``; see the module docstring."""
    summary = InitSummary()
    request_list = read_request_list(requests) or []
    if not request_list:
        raise InputError(requests, None, None, "no requests in the file")
    wanted = {r.request_id for r in request_list}
    reports = list(iter_reports(list(runs))) if runs else []
    pool_rows = (read_qrels_rows(pool) or []) if pool else []
    bank = read_nugget_list(nuggets) if nuggets else []
    if relevance is not None and relevance not in ("nuggets", "judgments"):
        raise OptionError("--relevance", f"expected nuggets or judgments, found {relevance!r}")
    store = Store.open(db, create=True)
    try:
        stored = json.loads(store.meta("policies") or "null")
        if stored is not None and relevance is not None and stored.get("relevance") != relevance:
            raise OptionError("--relevance", f"the workbench was made with --relevance {stored.get('relevance')}; "
                              "changing it would change the questions already answered")
        with store.transaction():
            if stored is None:
                store.set_meta("policies", json.dumps({"relevance": relevance or "nuggets"}, sort_keys=True))
            if collection:  # what `serve` searches
                store.set_meta("collection", json.dumps(str(collection)))
            for request in request_list:
                store.add_request(request)
            summary.requests = len(request_list)
            for report in reports:
                if report.request_id not in wanted:
                    summary.reports_other_topics += 1
                    continue
                state = store.add_report(report)
                if state == "added":
                    summary.reports_added += 1
                elif state == "same":
                    summary.reports_kept += 1
                else:
                    summary.reports_changed.append(f"{report.run_id}/{report.request_id}")
            # the pool: the pool file's documents, else the documents the stored reports cite
            if pool_rows:
                for row in pool_rows:
                    if row.request_id in wanted:
                        summary.pooled_added += store.add_pooled(row.request_id, row.doc_id, "pool")
        cited: dict[str, list[str]] = {}
        for report in store.reports():
            for sentence in report.sentences:
                for doc_id in sentence.citations:
                    cited.setdefault(report.request_id, []).append(doc_id)
        with store.transaction():
            if not pool_rows:
                for request_id in sorted(cited, key=natural_key):
                    for doc_id in dict.fromkeys(cited[request_id]):
                        summary.pooled_added += store.add_pooled(request_id, doc_id, "cited")
        needed = {doc for docs in cited.values() for doc in docs}
        needed |= store.pooled_doc_ids()
        absent = sorted(needed - store.document_ids(), key=natural_key)
        if absent:
            summary.documents_missing = _copy_documents(store, collection, absent, summary)
        _add_nuggets(store, bank, wanted, summary)
        topics = [store.topic_nuggets(t) for t in sorted(wanted, key=natural_key)]
        with store.transaction():
            for path in judgments:
                for judgment in read_judgment_records(path, topics):
                    if judgment.request_id in wanted:
                        store.add_prior(item_id_for(judgment.key), judgment)
                        summary.prior += 1
            for path in suggest:
                for judgment in read_judgment_records(path, topics):
                    if judgment.request_id in wanted:
                        store.add_suggestion(item_id_for(judgment.key), judgment)
                        summary.suggestions += 1
            for path in disagreements:
                for line, obj in iter_jsonl(path):
                    _check_disagreement(path, line, obj)
                    if obj["request_id"] in wanted:
                        store.add_adjudication_item(obj["item_id"], str(path), obj)
                        summary.disagreements += 1
    finally:
        store.close()
    if summary.reports_changed:
        summary.notes.append(f"{len(summary.reports_changed)} report(s) differ from the copy already stored and were "
                             f"not replaced (answers refer to the stored text): {few_items(summary.reports_changed)}")
    if summary.reports_other_topics:
        summary.notes.append(f"{summary.reports_other_topics} report(s) for topics not in the requests were left out")
    if summary.documents_missing:
        summary.notes.append(f"{len(summary.documents_missing)} pooled or cited document(s) are not in the collection "
                             f"(shown as missing): {few_items(summary.documents_missing)}")
    return summary


_DISAGREEMENT_FIELDS = ("item_id", "kind", "request_id", "sentence", "a", "b")


def _check_disagreement(path: str, line: int, obj: Any) -> None:
    if not isinstance(obj, dict):
        raise InputError(path, line, None, "expected an object (a line of `agree-judgments --disagreements`)")
    for name in _DISAGREEMENT_FIELDS:
        if name not in obj:
            raise InputError(path, line, name, "missing: not a line of `agree-judgments --disagreements`")
    for side in ("a", "b"):
        if not isinstance(obj[side], dict) or not isinstance(obj[side].get("value"), bool):
            raise InputError(path, line, side, "expected {value: true|false, judge: ...}")


def _copy_documents(store: Store, collection: str | None, doc_ids: list[str], summary: InitSummary) -> list[str]:
    if collection is None:
        return doc_ids
    from ..collection import open_collection

    missing = []
    documents = open_collection(collection)
    try:
        with store.transaction():
            for doc_id in doc_ids:
                document = documents.lookup(doc_id)
                if document is None:
                    missing.append(doc_id)
                    continue
                summary.documents_added += store.add_document(document)
    finally:
        documents.close()
    return missing


def _add_nuggets(store: Store, bank: list[TopicNuggets], wanted: set[str], summary: InitSummary) -> None:
    known = store.nugget_ids()
    with store.transaction():
        for topic in bank:
            if topic.request_id not in wanted:
                continue
            for nugget in topic.nuggets:
                if nugget.nugget_id in known:
                    summary.nuggets_kept += 1
                    continue
                store.insert_nugget(nugget)
                store.log_history(topic.request_id, nugget.nugget_id, "init", "import",
                                  {"question": nugget.question, "answers": [a.text for a in nugget.answers]})
                known.add(nugget.nugget_id)
                summary.nuggets_added += 1
