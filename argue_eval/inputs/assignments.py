"""nuggetizer assignment files (castorini/nuggetizer's ``assign`` output) for the nuggetizer scores: every
answer of every file, one per run and topic.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from os import PathLike
from typing import Any

from ..errors import ArgueError

__all__ = ["read_assignment_files"]


def read_assignment_files(assignments: Iterable[str | PathLike[str]] | Iterable[Any]) -> Iterator[Any]:
    """The answers of the assignment files (paths) or ``AssignedAnswer`` records, in order; a run's second
    answer for one topic is an error naming both lines (raised when reached, as the files stream)."""
    from ..formats.assignments import read_assignments

    seen: dict[tuple[str, str], str] = {}
    for item in assignments:
        for answer in (read_assignments(item) if isinstance(item, (str, PathLike)) else [item]):
            key = (answer.run_id, answer.request_id)
            if key in seen:
                raise ArgueError(f"{answer.path}:{answer.line}: qid: run {answer.run_id!r} has a second answer for "
                                 f"topic {answer.request_id!r} (first at {seen[key]})")
            seen[key] = f"{answer.path}:{answer.line}"
            yield answer
