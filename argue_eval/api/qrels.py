"""Qrels for organizers: built from assessor files, derived from a nugget bank, merged, summarized; ``write_qrels``
writes one.

What ``argue-eval qrels`` does minus the printing: ``organizer.qrels`` holds the rules (duplicates, the pool's
unjudged documents, conflicts). Each function returns a ``Result`` whose rows are the qrels lines (``request_id,
doc_id, relevance, iteration``, in canonical order) and whose ``data`` is the qrels (topic -> document -> grade),
with the notes the command prints.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from os import PathLike
from typing import Any

from .result import Note, Result

__all__ = ["build_qrels", "qrels_from_nuggets", "merge_qrels", "qrels_stats", "write_qrels"]

QRELS_COLUMNS = ("request_id", "doc_id", "relevance", "iteration")

PathArg = str | PathLike[str]


def _qrels_result(job: str, qrels: Mapping[str, Mapping[str, int]], notes: list[Note] | None = None,
                  **counts: Any) -> Result:
    from ..organizer.qrels import qrels_rows

    rows = list(qrels_rows(qrels))
    return Result(job, rows, topics=list(dict.fromkeys(row.request_id for row in rows)),
                  counts={"judgments": len(rows), "topics": len(qrels), **counts}, notes=notes or [],
                  columns=QRELS_COLUMNS, data=qrels)


def build_qrels(assessments: Sequence[PathArg], *, pool: PathArg | None = None, unjudged: str = "error",
                on_duplicate: str = "error") -> Result:
    """Qrels from assessor files (the package of ``pool --package`` with its relevance column filled, or TREC qrels
    lines). With ``pool``, pooled documents nobody judged are an error (``unjudged="error"``), left out (``drop``)
    or judged 0 (``nonrelevant``), and judgments outside the pool are kept; the notes warn of both."""
    from ..organizer.qrels import build_qrels as build
    from ..organizer.qrels import read_assessments, read_qrels

    pooled = read_qrels(pool) if pool else None
    files = [read_assessments(path, on_duplicate) for path in assessments]  # type: ignore[arg-type]
    built = build(pooled, files, unjudged, on_duplicate)  # type: ignore[arg-type]
    notes = []
    if built.outside:
        shown = ", ".join(f"{t}/{d}" for t, d in built.outside[:10])
        notes.append(Note(f"{len(built.outside)} judged document(s) are not in the pool (kept): {shown}", True))
    if built.unjudged:
        what = "left out" if unjudged == "drop" else "judged 0"
        notes.append(Note(f"{len(built.unjudged)} pooled document(s) were not judged ({what})", True))
    return _qrels_result("qrels build", built.qrels, notes, outside=len(built.outside), unjudged=len(built.unjudged))


def qrels_from_nuggets(nuggets: Any, *, grade: str = "count", format: str | None = None) -> Result:
    """Qrels from a nugget bank (a path, or ``TopicNuggets``): a document is relevant to a topic when it attests
    an answer of one of its nuggets; ``grade`` ``count`` (nuggets it attests) or ``weighted`` (vital 2, okay 1)."""
    from ..formats import read_nuggets
    from ..organizer.qrels import qrels_from_nuggets as derive

    topics = read_nuggets(nuggets, format) if isinstance(nuggets, (str, PathLike)) else nuggets
    return _qrels_result("qrels from-nuggets", derive(topics, grade))  # type: ignore[arg-type]


def merge_qrels(files: Sequence[PathArg], *, on_duplicate: str = "error") -> Result:
    """Qrels files merged: one grade for a pair in several files agrees; different grades are a conflict, an error
    unless ``on_duplicate`` is ``max`` or ``last`` (the later file wins). Each resolved conflict is a note of kind
    ``conflict`` (``topic T document D: G in FILE, ... -> G``); ``details`` has them as records."""
    from ..organizer.qrels import merge_qrels as merge

    merged = merge(files, on_duplicate)  # type: ignore[arg-type]
    notes, details = [], []
    for topic, doc_id, grades in merged.conflicts:
        listed = ", ".join(f"{grade} in {path}" for path, grade in grades)
        kept = merged.qrels[topic][doc_id]
        notes.append(Note(f"topic {topic} document {doc_id}: {listed} -> {kept}", kind="conflict"))
        details.append({"request_id": topic, "doc_id": doc_id, "grades": [[str(path), grade] for path, grade in grades],
                        "kept": kept})
    result = _qrels_result("qrels merge", merged.qrels, notes, conflicts=len(merged.conflicts))
    result.details = details
    return result


def qrels_stats(qrels: PathArg | Mapping[str, Mapping[str, int]], *, on_duplicate: str = "error") -> Result:
    """A per-topic summary of qrels (a path or topic -> document -> grade): judged documents, relevant ones (grade
    > 0) and the number at each grade, then an ``all`` row of sums; the rows are that table (``columns`` its
    header)."""
    from ..organizer.qrels import qrels_stats as stats
    from ..organizer.qrels import read_qrels

    judged = read_qrels(qrels, on_duplicate) if isinstance(qrels, (str, PathLike)) else qrels  # type: ignore[arg-type]
    header, rows = stats(judged)
    return Result("qrels stats", [tuple(row) for row in rows], topics=[str(row[0]) for row in rows[:-1]],
                  columns=tuple(header), data=judged)


def write_qrels(result: Result, output: PathArg) -> int:
    """A qrels ``Result``'s qrels as TREC qrels, atomically, in canonical order (``-``: standard output); the
    number of lines."""
    from ..organizer.qrels import write_qrels as write

    return write(result.data, output)
