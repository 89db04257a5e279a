"""Nugget banks for organizers: check one, summarize it, merge two, add assessors' answer-document bindings, and
propose documents for the answers no document attests; ``write_nuggets`` and ``write_proposals`` write the results.

What ``argue-eval nuggets validate|stats|merge|bind`` does minus the printing; ``organizer.nugget_tools`` and
``organizer.bind_propose`` hold the rules. (``nuggets create`` and ``nuggets compare`` are ``api.create`` and
``api.nugget_compare``.)
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from os import PathLike
from pathlib import Path
from typing import Any

from .requests import problems_result
from .result import Note, Result

__all__ = ["validate_nuggets", "nugget_stats", "merge_nuggets", "bind_nuggets", "propose_bindings", "write_nuggets",
           "write_proposals", "check_nugget_format"]

PathArg = str | PathLike[str]


def validate_nuggets(path: PathArg, *, collection: Any = None, requests: Any = None, format: str | None = None,
                     strict: bool = False) -> Result:
    """Every problem of a nugget bank (``organizer.nugget_tools.NUGGET_CHECKS``): errors are what the scorer cannot
    use or would score wrongly, warnings what it scores by a documented rule. ``collection`` (a spec or an open
    store): every bound document must exist; ``requests`` (a file or records): topics and requests correspond;
    ``strict``: every warning an error. ``details``: the problems, located; ``counts``: ``topics``, ``nuggets``,
    ``errors``, ``warnings``; ``data``: the topics read."""
    from ..organizer.nugget_tools import read_topics_collecting, validate_topics

    topics, problems = read_topics_collecting(path, format)
    request_ids = None
    if requests is not None:
        from ..formats import read_requests

        records = read_requests(requests) if isinstance(requests, (str, PathLike)) else requests
        request_ids = [request.request_id for request in records]
    store = None
    if collection is not None and isinstance(collection, (str, PathLike)):
        from ..collection import open_collection

        store = open_collection(collection)
    try:
        problems += validate_topics(topics, str(path), store if store is not None else collection, request_ids)
    finally:
        if store is not None:
            store.close()
    nuggets = sum(len(topic.nuggets) for topic in topics)
    result = problems_result("nuggets validate", problems, strict, topics, topics=len(topics), nuggets=nuggets)
    merged = sum(getattr(topic.source, "merged", 0) for topic in topics)
    if merged:  # formats without ids: a repeated question is one nugget (ARGUE scores questions)
        result.counts["merged_items"] = merged
        result.notes.append(Note(f"{nuggets + merged} items are {nuggets} nuggets: {merged} item(s) repeat a question "
                                 "of an earlier item of their topic and were merged into its nugget (answers merged, "
                                 "documents unioned; ARGUE scores questions, not items)"))
    return result


def nugget_stats(nuggets: Any, *, format: str | None = None) -> Result:
    """A per-topic summary of a bank (a path or ``TopicNuggets``; ``organizer.nugget_tools.STATS_COLUMNS``):
    questions, answers, bindings, documents, importance and negative counts, unbound questions and the two means,
    then an ``all`` row; the rows are that table."""
    from ..formats import read_nuggets
    from ..organizer.nugget_tools import STATS_COLUMNS, topic_stats

    topics = read_nuggets(nuggets, format) if isinstance(nuggets, (str, PathLike)) else nuggets
    rows = [tuple(row) for row in topic_stats(topics)]
    return Result("nuggets stats", rows, topics=[str(row[0]) for row in rows[:-1]], columns=tuple(STATS_COLUMNS))


def _bank(nuggets: Any) -> Any:
    from ..formats import read_nuggets

    return read_nuggets(nuggets) if isinstance(nuggets, (str, PathLike)) else nuggets


def merge_nuggets(first: Any, second: Any) -> Result:
    """Two banks (paths in any nugget format, or ``TopicNuggets``) merged: questions matched after normalization,
    answers merged the same way, bindings unioned. ``data``: the merged topics; the notes: each importance or
    aggregator disagreement (kind ``conflict``; the first bank's value is kept) and each nugget of the second bank
    renamed because its id was taken (kind ``renamed``)."""
    from ..organizer.nugget_tools import merge_banks

    report = merge_banks(_bank(first), _bank(second))
    notes = [Note(line, kind="conflict") for line in report.conflicts]
    notes += [Note(line, kind="renamed") for line in report.renamed]
    return Result("nuggets merge", topics=[topic.request_id for topic in report.topics], notes=notes,
                  counts={"topics": len(report.topics), "conflicts": len(report.conflicts),
                          "renamed": len(report.renamed)}, data=report.topics)


def bind_nuggets(nuggets: Any, bindings: PathArg, *, allow_new_answers: bool = True) -> Result:
    """A bank with an assessor file's answer-document bindings added (JSONL or CSV/TSV with ``request_id,
    nugget_id`` or ``question``, ``answer, doc_id``; with an ``accept`` column only the rows it marks yes). An
    answer the nugget does not have is added (a note) or, without ``allow_new_answers``, an error. ``data``: the
    topics; ``counts``: ``added`` bindings and ``new_answers``."""
    from ..organizer.nugget_tools import bind, read_bindings

    report = bind(_bank(nuggets), read_bindings(bindings), str(bindings), allow_new_answers=allow_new_answers)
    return Result("nuggets bind", topics=[topic.request_id for topic in report.topics],
                  notes=[Note(line) for line in report.new_answers],
                  counts={"added": report.added, "new_answers": len(report.new_answers)}, data=report.topics)


def propose_bindings(nuggets: Any, collection: PathArg, *, retriever: str = "bm25", judge: Any = None,
                     judge_options: Mapping[str, Mapping[str, Any]] | None = None, depth: int = 5) -> Result:
    """Candidate documents for every answer of the bank bound to no document: each searched for in a JSONL
    ``collection`` (``retriever`` ``bm25`` or ``dense`` over passages; question and answer as the query), read by
    ``judge`` when one is given (else ranked by search score), ``depth`` per answer. The rows are the assessor
    sheet (``organizer.bind_propose.PROPOSAL_COLUMNS``); ``counts``: ``unbound`` answers, ``candidates``, and the
    ``answers`` that have one; ``data``: the proposals."""
    from ..errors import ArgueError, OptionError
    from ..organizer.bind_propose import PROPOSAL_COLUMNS, proposal_rows, unbound_answers
    from ..organizer.bind_propose import propose_bindings as propose
    from ..progress import progress
    from ..search import iter_collection
    from ..search.passages import ICAT_PASSAGES, PassageIndex

    topics = list(_bank(nuggets))
    unbound = sum(1 for _ in unbound_answers(topics))
    if str(collection).startswith("irds:") or Path(collection).is_dir():
        raise OptionError("--collection", f"{collection}: --propose indexes a JSONL collection in memory; export "
                          "ir_datasets or Lucene collections to JSONL first")
    backend = None
    if judge is not None:
        from .measure_judges import open_measure_judge

        backend = open_measure_judge(judge, judge_options)
    proposals = []
    if unbound:
        documents = list(progress(iter_collection(Path(collection)), desc="reading collection", unit="doc"))
        if not documents:
            raise ArgueError(f"{collection}: the collection holds no document")
        index = PassageIndex(documents, retriever, ICAT_PASSAGES.words, stride=ICAT_PASSAGES.stride)
        try:
            proposals = propose(topics, index, backend, depth)
        finally:
            if backend is not None:
                backend.close()
    answers = len({(p.request_id, p.nugget_id, p.answer) for p in proposals})
    return Result("nuggets bind --propose", list(proposal_rows(proposals)), topics=[t.request_id for t in topics],
                  counts={"unbound": unbound, "candidates": len(proposals), "answers": answers},
                  columns=tuple(PROPOSAL_COLUMNS), data=proposals)


def check_nugget_format(to: str) -> None:
    """Refuse a ``to`` that names no nugget format we write (``--to``), before any work is done or paid for."""
    from ..formats import get_format

    get_format(to, "nuggets", "--to")


def write_nuggets(topics: Result | Iterable[Any], output: PathArg, to: str = "argue") -> int:
    """A bank (a ``Result`` whose ``data`` are its topics, or ``TopicNuggets``) in the nugget format ``to``
    (``argue``, ``autoargue-v3``), atomically; the number of topics."""
    from ..formats import write

    return write(topics.data if isinstance(topics, Result) else topics, output, to, "nuggets")


def write_proposals(result: Result, output: PathArg) -> None:
    """The assessor sheet of ``propose_bindings`` as CSV, atomically (every cell guarded against spreadsheet
    formulas)."""
    from .. import csvsafe
    from ..writing import atomic_writer

    with atomic_writer(output) as handle:
        writer = csvsafe.writer(handle)
        writer.writerow(result.columns)
        for row in result.rows:
            writer.writerow([csvsafe.cell(value) for value in row])
