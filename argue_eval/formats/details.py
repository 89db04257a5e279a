"""``score --details`` JSON Lines: one record per scored report (sentence outcomes, flowchart paths, nuggets).

The HTML report reads these back. Each line is checked for the fields the report relies on, so a wrong
file fails with ``FILE:LINE: field: message`` instead of a page that silently shows nothing.
"""
from __future__ import annotations

from collections.abc import Iterator
from os import PathLike
from typing import Any

from ..errors import InputError
from ..reading import iter_jsonl

_REQUIRED: tuple[tuple[str, type, str], ...] = (
    ("run_id", str, "a string"),
    ("request_id", str, "a string"),
    ("sentences", list, "a list"),
    ("nuggets", list, "a list"),
)


def read_details(path: str | PathLike[str], notes: list[str] | None = None) -> Iterator[dict[str, Any]]:
    """Yield the details records of ``path`` (gzipped or not), each checked for its run, topic, sentences and
    nuggets; a file with none is an error (a report built on it would show nothing, as if nothing was scored).

    Another measure's details file (``icat``, ``longrecall``, ... ``--details``: a ``{measure, settings}`` record
    first) holds no flowchart outcomes for the report's sentence and nugget views: it is read to its end (so a
    broken one still fails, located) and yields nothing, with a note in ``notes`` saying so; its scores reach the
    report through ``--scores``."""
    records = 0
    lines = iter_jsonl(path)
    for lineno, record in lines:
        measure = record.get("measure") if lineno == 1 or not records else None
        if isinstance(measure, str) and measure != "argue" and isinstance(record.get("settings"), dict):
            count = sum(1 for _ in lines)
            if notes is not None:
                notes.append(f"{path}: {measure} details ({count} record(s)) hold no ARGUE sentence outcomes: the "
                             f"report's sentence and nugget views come from `score --details`; give the {measure} "
                             "scores with --scores to rank by them")
            return

        for name, kind, noun in _REQUIRED:
            if name not in record:
                raise InputError(path, lineno, name, "missing (is this a `score --details` file?)")
            if not isinstance(record[name], kind):
                raise InputError(path, lineno, name, f"must be {noun}")
        for k, sentence in enumerate(record["sentences"]):
            if not isinstance(sentence, dict) or not isinstance(sentence.get("text"), str):
                raise InputError(path, lineno, f"sentences[{k}]", "must be an object with a text")
        records += 1
        yield record
    if not records:
        raise InputError(path, None, None, "no details records (the file is empty); expected the output of "
                         "`argue-eval score --details`")
