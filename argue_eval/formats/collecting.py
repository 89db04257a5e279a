"""Reading a file while collecting its problems, so that ``validate`` commands report every one at once.

The readers (``argue_eval.formats``) stop at the first bad line, which is right for scoring but tedious for
someone fixing a requests file or a nugget bank by hand. Here each line of a JSON Lines file goes through its
format's careful parser, which records problems instead of raising. (Under the validators' ``--lenient``,
``reading.set_lenient``, a file that is not JSON Lines is repaired and read on; the repair is a problem too.)
"""
from __future__ import annotations

from collections.abc import Callable, Collection
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
    line_formats: Collection[str],
) -> tuple[list[T], list[Problem]]:
    """The records of a ``kind`` file and every schema problem found, line by line.

    ``parse(obj, format_name, path, line, problems)`` is the parser of the JSON Lines formats named in
    ``line_formats`` (it returns ``None`` for a line it cannot use). A file in any other format (a TSV, an
    XML file, a directory of JSON files) is read strictly by its format's reader and its first problem is
    collected. Under ``--lenient`` a JSON file that is not JSON Lines is read too, and what was repaired is
    one warning among the problems (tools that expect JSON Lines refuse such a file).
    """
    from ..reading import iter_jsonl
    from . import resolve

    spec = resolve(path, kind, format)
    problems: list[Problem] = []
    if spec.name not in line_formats:
        try:
            return list(spec.read(Path(path))), problems
        except InputError as error:
            return [], [error.problem]

    def repaired(repair: str) -> None:
        problems.append(Problem(str(path), None, None, f"not JSON Lines ({repair}); read with --lenient, but tools "
                                "that expect JSON Lines refuse it", "warning"))

    records = []
    for lineno, obj in iter_jsonl(path, on_repair=repaired):
        record = parse(obj, spec.name, str(path), lineno, problems)
        if record is not None:
            records.append(record)
    return records, problems
