"""What the retrieval measures read: ranked lists (TREC ranked runs, or the documents report runs cite, in
order of first citation) and the relevance they are measured by (TREC qrels, diversity qrels with subtopics,
or grades derived from a nugget bank's bindings).

A document ranked twice in a topic is an error, as in trec_eval; ``measures.retrieval`` does the arithmetic.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import Any

from ..formats.ranked import Rankings, load_rankings, rankings_from_ranked
from ..measures.retrieval import SubtopicQrels, collapse_subtopics

__all__ = ["ranked_run_rankings", "load_runs", "read_subtopic_qrels", "read_relevance"]


def ranked_run_rankings(path: str | PathLike[str]) -> list[Rankings]:
    """One :class:`Rankings` per tag of a TREC ranked run, in trec_eval order. A document listed twice for
    a topic is an error, as in trec_eval (``duplicate docs``)."""
    return rankings_from_ranked(path, repeats="error")


def load_runs(paths: Sequence[str | PathLike[str]], format: str | None = None) -> list[Rankings]:
    """Ranked runs and report runs (cited documents in order of first citation), detected per file, sorted
    by run name; the same run name in two files becomes ``name@file`` (as in pooling)."""
    return load_rankings(paths, format, repeats="error")


def read_subtopic_qrels(path: str | PathLike[str]) -> SubtopicQrels:
    """Diversity qrels (``topic subtopic doc grade``): ``{topic: {subtopic: {doc_id: grade}}}``. A (topic,
    subtopic, document) judged twice is an error naming both lines."""
    from ..errors import InputError
    from ..formats.qrels import iter_qrels_lines

    result: dict[str, dict[str, dict[str, int]]] = {}
    seen: dict[tuple[str, str, str], int] = {}
    for lineno, row in iter_qrels_lines(Path(path)):
        subtopic = str(row.iteration)
        key = (row.request_id, subtopic, row.doc_id)
        if key in seen:
            raise InputError(path, lineno, None, f"topic {row.request_id!r}, subtopic {subtopic!r}: document "
                             f"{row.doc_id!r} is judged twice (first at line {seen[key]})")
        seen[key] = lineno
        result.setdefault(row.request_id, {}).setdefault(subtopic, {})[row.doc_id] = row.relevance
    return result


def read_relevance(qrels: Any = None, nuggets: Any = None, on_duplicate: str = "error",
                   diversity: bool = False) -> tuple[Mapping[str, Mapping[str, int]], SubtopicQrels | None]:
    """The grades ``{topic: {doc_id: grade}}`` the runs are measured by, and the subtopic qrels (diversity
    only): from TREC qrels (a path; ``on_duplicate`` for a document judged twice), diversity qrels (each
    document's highest grade over its subtopics), or a nugget bank (a path or ``TopicNuggets``: grade = the
    nuggets a document attests)."""
    if diversity:
        subtopics = read_subtopic_qrels(qrels)
        return collapse_subtopics(subtopics), subtopics
    if qrels is not None:
        from ..organizer.qrels import read_qrels

        return read_qrels(qrels, on_duplicate), None  # type: ignore[arg-type]
    from ..organizer.qrels import qrels_from_nuggets
    from .scoring import read_nugget_list

    return qrels_from_nuggets(read_nugget_list(nuggets)), None
