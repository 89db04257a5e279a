"""TREC 6-column ranked runs (``qid Q0 docno rank score tag``), format ``trec-run``.

Ranked runs feed pooling and the retrieval measures. Like trec_eval we split on any whitespace, ignore the
second column, and keep the rank column only as given: the order that counts is score descending, then
docno descending (trec_eval's tie order), which ``trec_order`` makes explicit. This module also holds the
line handling shared with the qrels reader (``formats/qrels.py``), since both are the same kind of file.
"""
from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

from ..errors import ArgueError, InputError, control_character
from ..jsonio import BOM, atomic_writer, iter_lines, open_binary, read_capped
from ..model import RankedRow
from .base import FormatSpec, Probe

RANKED_LAYOUT = "qid Q0 docno rank score tag"


# --- line handling shared with formats/qrels.py --------------------------------------------------------


def iter_fields(path: str | PathLike[str], columns: int, layout: str) -> Iterator[tuple[int, list[str]]]:
    """Yield ``(line_number, fields)`` for every non-blank line; each line must have exactly ``columns`` fields.

    ``layout`` (e.g. ``"qid Q0 docno rank score tag"``) is quoted in the error so the user sees the
    expected shape next to what was found.
    """
    with open_binary(path) as handle:
        for lineno, raw in iter_lines(handle, path):
            if lineno == 1 and raw.startswith(BOM):
                raw = raw[len(BOM):]
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                raise InputError(path, lineno, None, f"invalid UTF-8 at byte {err.start + 1} of the line") from None
            fields = line.split()
            if not fields:
                continue
            bad = control_character(line)
            if bad is not None:
                raise InputError(path, lineno, None, f"control character {bad} in the line; ids must be printable text")
            if len(fields) != columns:
                raise column_error(path, lineno, line, len(fields), columns, layout)
            yield lineno, fields


def column_error(path: str | PathLike[str], lineno: int, line: str, found: int, columns: int, layout: str) -> InputError:
    """The error for a line with the wrong number of columns (with a hint when the file is JSON)."""
    hint = " (the file looks like JSON, not a TREC file)" if line.lstrip().startswith(("{", "[")) else ""
    return InputError(
        path, lineno, None, f"expected {columns} whitespace-separated columns `{layout}`, found {found}{hint}"
    )


def parse_int(path: str | PathLike[str], lineno: int, field: str, text: str) -> int:
    """An integer column, with a located error naming the column and the text found."""
    try:
        return int(text)
    except ValueError:
        raise InputError(path, lineno, field, f"expected an integer, found {text!r}") from None


def parse_score(path: str | PathLike[str], lineno: int, field: str, text: str) -> float:
    """A finite float column (trec_eval reads scores with ``atof``; NaN would leave the ranking undefined)."""
    try:
        value = float(text)
    except ValueError:
        raise InputError(path, lineno, field, f"expected a number, found {text!r}") from None
    if not math.isfinite(value):
        raise InputError(path, lineno, field, f"expected a finite number, found {text!r}")
    return value


_WHITESPACE = re.compile(r"\s")


def check_token(value: str, what: str, path: str | PathLike[str]) -> str:
    """Refuse to write an id that would split into two columns (TREC files are whitespace-separated)."""
    if not isinstance(value, str) or not value or _WHITESPACE.search(value):
        raise ArgueError(f"{path}: cannot write {what} {value!r}: TREC files need non-empty ids without whitespace")
    return value


def sniff_columns(first_line: str | None, columns: int) -> list[str] | None:
    """The first line's fields when it has ``columns`` of them and does not look like JSON, else ``None``."""
    if first_line is None or first_line.lstrip().startswith(("{", "[")):
        return None
    fields = first_line.split()
    return fields if len(fields) == columns else None


def is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def is_float(text: str) -> bool:
    """Whether ``text`` parses as a float, NaN and infinity included: detection should recognize a run
    whose first score is ``nan`` so that the reader can say what is wrong with it."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def format_score(value: float) -> str:
    """Shortest round-trip text of a score, so a written run rereads to exactly the same floats."""
    value = float(value)
    if value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(value)


# --- ranked runs -----------------------------------------------------------------------------------------


def read_trec_run(path: Path) -> Iterator[RankedRow]:
    """Stream the rows of a ranked run in file order (no sorting: see ``trec_order``)."""
    for lineno, (qid, _q0, docno, rank, score, tag) in iter_fields(path, 6, RANKED_LAYOUT):
        yield RankedRow(
            qid, docno, parse_int(path, lineno, "rank", rank), parse_score(path, lineno, "score", score), tag
        )


def write_trec_run(rows: Iterable[RankedRow], path: Path) -> int:
    """Write rows as given (callers order them); ``Q0`` in the second column, scores in full precision."""
    lines = [
        f"{row.query_id} Q0 {row.doc_id} {int(row.rank)} {format_score(row.score)} {row.run_id}\n" for row in rows
    ]
    text = check_lines(lines, 6, path, ("query id", "Q0", "document id", None, None, "run tag"))
    with atomic_writer(path) as handle:
        handle.write(text)
    return len(lines)


def check_lines(lines: list[str], columns: int, path: str | PathLike[str], what: tuple[str | None, ...]) -> str:
    """Make sure lines about to be written read back as ``columns`` fields (no id empty or with whitespace)
    and return them joined.

    The lines are built as ``columns`` fields joined by single spaces plus ``\\n``, so the template alone
    gives every line ``columns - 1`` spaces and one newline: the whole text passes when its totals match
    that and it has no other whitespace and no empty field. That is a handful of C-level scans; the slow
    search for the culprit runs only on failure."""
    text = "".join(lines)
    n = len(lines)
    if (
        text.count(" ") == (columns - 1) * n
        and text.count("\n") == n
        and "\t" not in text
        and "\r" not in text
        and not has_other_whitespace(text)
        and "  " not in text
        and " \n" not in text
        and "\n " not in text
        and not text.startswith(" ")
    ):
        return text
    for line in lines:
        if len(line.split()) == columns and line.count(" ") == columns - 1 and line.count("\n") == 1 and "\r" not in line:
            continue
        parts = line[:-1].split(" ")
        if len(parts) == columns:
            for part, label in zip(parts, what):
                if label is not None:
                    check_token(part, label, path)
        raise ArgueError(f"{path}: cannot write {line.rstrip()!r}: TREC files need non-empty ids without whitespace")
    raise ArgueError(f"{path}: cannot write these lines: TREC files need non-empty ids without whitespace")


def _sniff_trec_run(probe: Probe) -> bool:
    fields = sniff_columns(probe.first_line, 6)
    return fields is not None and is_int(fields[3]) and is_float(fields[4])


@dataclass(frozen=True)
class RankedColumns:
    """A ranked run as columns (numpy arrays, file order): what vectorized code (pooling) wants."""

    qid: Any
    docno: Any
    score: Any
    tag: Any

    def __len__(self) -> int:
        return len(self.qid)


_COLUMN_NAMES = ["qid", "q0", "docno", "rank", "score", "tag"]
_TEXT_COLUMNS = {"qid": object, "q0": object, "docno": object, "tag": object}

_ASCII_OTHER_WHITESPACE = "\x0b\x0c\x1c\x1d\x1e\x1f"
OTHER_WHITESPACE = (
    _ASCII_OTHER_WHITESPACE + "\x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
)
"""Every character ``str.split()`` splits on besides space, tab, CR and LF (a test checks the list).

pandas' whitespace separator knows only spaces and tabs, and a lone CR ends a line for it; our line reader
splits lines on LF and fields with ``str.split()``. A file holding any of these characters is left to
the line reader, so both readers always agree on where fields and lines end."""


_ASCII_ALLOWED = bytes(b for b in range(128) if b >= 0x20 and b != 0x7F) + b"\t\n\r"
"""The ASCII bytes a well-formed run may hold; ``data.translate(None, _ASCII_ALLOWED)`` keeps only the others."""


def has_other_whitespace(text: str) -> bool:
    """True when ``text`` holds whitespace other than space, tab and LF, or a CR that does not end a line."""
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        return True
    return any(char in text for char in (_ASCII_OTHER_WHITESPACE if text.isascii() else OTHER_WHITESPACE))


def _exact_float_option() -> dict[str, str]:
    """The ``read_csv`` option that makes pandas parse a float exactly as Python's ``float()`` does.

    Before pandas 3.1 the C parser's default converter may differ from ``float()`` in the last bit for
    long inputs, and ``float_precision="round_trip"`` calls Python's own conversion; from 3.1 on, every
    mode uses one correctly rounded converter (so it equals ``float()``) and the option is deprecated."""
    import pandas as pd

    version = tuple(int(part) for part in re.findall(r"\d+", pd.__version__)[:2])
    return {} if version >= (3, 1) else {"float_precision": "round_trip"}


def read_ranked_columns(path: str | PathLike[str]) -> RankedColumns:
    """Read a ranked run into columns, in one vectorized pass with pandas' C parser.

    Ids stay strings; ranks and scores are parsed in C (exactly as ``int()`` and ``float()`` parse them,
    see ``_exact_float_option``), with no Python object per number. Anything the line reader would read
    differently or refuse (a missing or extra column, a bad or non-finite number, a rank that is not an
    integer, unusual whitespace, invalid UTF-8, an empty file) is handed to ``read_trec_run``, which
    raises the located error, so the result always equals what ``read_trec_run`` reads.
    """
    import numpy as np

    columns = _parse_columns(path)
    if columns is not None:
        return columns
    rows = list(read_trec_run(Path(path)))
    return RankedColumns(
        np.array([row.query_id for row in rows], dtype=object),
        np.array([row.doc_id for row in rows], dtype=object),
        np.array([row.score for row in rows], dtype=np.float64),
        np.array([row.run_id for row in rows], dtype=object),
    )


def _parse_columns(path: str | PathLike[str]) -> RankedColumns | None:
    """The columns of a well-formed run via pandas, or ``None`` when the careful reader must decide."""
    import csv
    import io

    import numpy as np
    import pandas as pd

    with open_binary(path) as handle:
        data = read_capped(handle, path)
    try:
        if data.isascii():  # the usual run: the byte checks below, in C, instead of a regex over the text
            if data.translate(None, _ASCII_ALLOWED):  # a control byte (tab, CR, LF excepted) or DEL
                return None
            if b"\r" in data and data.count(b"\r") != data.count(b"\r\n") or b"\x0b" in data or b"\x0c" in data:
                return None
        else:
            text = data.decode("utf-8-sig")
            if has_other_whitespace(text) or control_character(text) is not None:
                return None
        # One space between columns, no tab, no space at a line's ends (what every run writer writes): a
        # single-character separator, which pandas' C tokenizer splits about twice as fast as whitespace runs.
        single = not (b"\t" in data or b"  " in data or b" \n" in data or b"\n " in data or data.startswith(b" ")
                      or b" \r" in data)
        frame = pd.read_csv(
            io.BytesIO(data), sep=" " if single else r"\s+", header=None, names=_COLUMN_NAMES, dtype=_TEXT_COLUMNS,
            na_filter=False, quoting=csv.QUOTE_NONE, engine="c", encoding="utf-8-sig", low_memory=False,
            **_exact_float_option(),
        )
    except (ValueError, UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError):
        return None
    # Extra columns on every line become an index; a short line leaves the tag empty; a rank or score
    # pandas could not read as a number leaves its column non-numeric (bool would be "True").
    if not isinstance(frame.index, pd.RangeIndex) or not len(frame):
        return None
    if frame["rank"].dtype.kind not in "iu" or frame["score"].dtype.kind not in "if":
        return None
    scores = frame["score"].to_numpy(dtype=np.float64)
    tag = frame["tag"].to_numpy()
    if not np.isfinite(scores).all() or (tag == "").any():
        return None
    return RankedColumns(frame["qid"].to_numpy(), frame["docno"].to_numpy(), scores, tag)


def trec_order(ranking: Iterable[tuple[str, float]]) -> list[tuple[str, float]]:
    """Sort ``(docno, score)`` pairs the way trec_eval ranks them: score descending, then docno descending.

    trec_eval ignores the rank column; its tie order is lexicographic descending docno. Making that order
    explicit before anything else sees the run (ranx, pooling) keeps every tool agreeing on the ranking.
    """
    return sorted(ranking, key=lambda pair: (pair[1], pair[0]), reverse=True)


FORMATS: list[FormatSpec] = [
    FormatSpec(
        name="trec-run",
        kind="ranked",
        description="TREC ranked run: `qid Q0 docno rank score tag`, whitespace-separated",
        sniff=_sniff_trec_run,
        read=read_trec_run,
        write=write_trec_run,
        aliases=("trec-ranked",),
    )
]
