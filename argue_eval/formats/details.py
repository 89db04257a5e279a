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


def read_details(path: str | PathLike[str]) -> Iterator[dict[str, Any]]:
    """Yield the details records of ``path`` (gzipped or not), each checked for its run, topic, sentences and
    nuggets; a file with none is an error (a report built on it would show nothing, as if nothing was scored)."""
    records = 0
    for lineno, record in iter_jsonl(path):
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
