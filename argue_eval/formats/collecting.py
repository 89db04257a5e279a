"""Reading a file while collecting its problems, so that ``validate`` commands report every one at once.

The readers (``argue_eval.formats``) stop at the first bad line, which is right for scoring but tedious for
someone fixing a requests file or a nugget bank by hand. Here each line of a JSON Lines file goes through its
format's careful parser, which records problems instead of raising. (Not to be confused with the readers'
``--lenient`` mode, ``reading.set_lenient``, which repairs what it can and reads on.)
"""
from __future__ import annotations

from collections.abc import Callable
from os import PathLike
from pathlib import Path
from typing import Any, TypeVar

from ..errors import InputError, Problem
from .base import Kind

T = TypeVar("T")


def read_collecting(
    path: str | PathLike[str],
    kind: Kind,
    format: str | None,
    parse: Callable[[dict[str, Any], str, str, int, list[Problem]], T | None],
    whole_file_formats: tuple[str, ...] = (),
) -> tuple[list[T], list[Problem]]:
    """The records of a ``kind`` file and every schema problem found, line by line.

    ``parse(obj, format_name, path, line, problems)`` is the format's parser for one JSON line (it returns
    ``None`` for a line it cannot use). Formats in ``whole_file_formats`` are not one object per line (a
    TSV, a directory of JSON files): they are read strictly and their first problem is collected.
    """
    from ..reading import iter_jsonl
    from . import resolve

    spec = resolve(path, kind, format)
    problems: list[Problem] = []
    if spec.name in whole_file_formats:
        try:
            return list(spec.read(Path(path))), problems
        except InputError as error:
            return [], [error.problem]
    records = []
    for lineno, obj in iter_jsonl(path):
        record = parse(obj, spec.name, str(path), lineno, problems)
        if record is not None:
            records.append(record)
    return records, problems
