"""CSV cells that are safe to open in a spreadsheet, and read back exactly.

Every CSV the kit writes (``pool --package``, ``assess export``) holds text from untrusted runs: document ids,
sentences, titles. A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula (CSV
injection), and a leading tab or carriage return hides such a start from naive guards. So every cell is
quoted, and a cell from input that starts with one of those characters gets a leading apostrophe (the
spreadsheet convention for "this is text"). ``unguard`` removes exactly one such apostrophe on reading; a cell
that already started with apostrophes before a formula character gets one more on writing, so the round trip
gives back the original text.
"""
from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any

_FORMULA = re.compile(r"'*[=+\-@\t\r]")
_GUARDED = re.compile(r"'+[=+\-@\t\r]")


def guard(text: str) -> str:
    """``text`` with a leading apostrophe when a spreadsheet could read it as a formula."""
    return "'" + text if _FORMULA.match(text) else text


def unguard(text: str) -> str:
    """The text ``guard`` was given (one guarding apostrophe removed), whether or not a spreadsheet kept it."""
    return text[1:] if _GUARDED.match(text) else text


def writer(handle: IO[str]) -> Any:
    """A ``csv.writer`` quoting every cell (a quoted cell keeps its CR, LF and leading characters intact)."""
    return csv.writer(handle, quoting=csv.QUOTE_ALL, lineterminator="\n")


def cell(value: Any) -> str:
    """A guarded cell for any value from input: ``None`` is empty; numbers are written as they are."""
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return guard(str(value))


LONGEST_CELL = 2**31 - 1
"""The longest cell the kit's CSV readers take: a cited document's whole text (``pool --package --collection``,
``assess export --collection``) is one cell, far beyond the csv module's default 131,072 characters. Lines
are still capped by ``argue-eval --max-line-mib``."""


@contextmanager
def long_cells() -> Iterator[None]:
    """Read CSV cells up to ``LONGEST_CELL`` characters inside the block: whatever the kit's CSV writers put in a
    cell, its readers take back. (The csv module's limit is global, so it is restored afterwards.)"""
    limit = csv.field_size_limit(LONGEST_CELL)
    try:
        yield
    finally:
        csv.field_size_limit(limit)
