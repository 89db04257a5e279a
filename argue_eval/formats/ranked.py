"""TREC 6-column ranked runs (``qid Q0 docno rank score tag``), format ``trec-run``.

Ranked runs feed pooling and the retrieval measures. Like trec_eval we split on any whitespace, ignore the
second column, and keep the rank column only as given: the order that counts is score descending, then
docno descending (trec_eval's tie order), which ``trec_order`` makes explicit. This module also holds the
line handling shared with the qrels reader (``formats/qrels.py``), since both are the same kind of file.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from collections.abc import Iterable, Iterator
from operator import itemgetter
from os import PathLike
from pathlib import Path
from typing import Any

from ..errors import ArgueError, InputError
from ..jsonio import BOM, atomic_writer, open_binary
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
        for lineno, raw in enumerate(handle, 1):
            if lineno == 1 and raw.startswith(BOM):
                raw = raw[len(BOM):]
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                raise InputError(path, lineno, None, f"invalid UTF-8 at byte {err.start + 1} of the line") from None
            fields = line.split()
            if not fields:
                continue
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
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


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
    check_lines(lines, 6, path, ("query id", "Q0", "document id", None, None, "run tag"))
    with atomic_writer(path) as handle:
        handle.writelines(lines)
    return len(lines)


def check_lines(lines: list[str], columns: int, path: str | PathLike[str], what: tuple[str | None, ...]) -> None:
    """Make sure every line about to be written reads back as ``columns`` fields: no id may be empty or
    contain whitespace. One cheap pass over all lines; the slow search for the culprit runs only on failure."""
    spaces = columns - 1
    if all(len(line.split()) == columns and line.count(" ") == spaces for line in lines):
        return
    for line in lines:
        if len(line.split()) == columns and line.count(" ") == spaces:
            continue
        parts = line[:-1].split(" ")
        if len(parts) == columns:
            for part, label in zip(parts, what):
                if label is not None:
                    check_token(part, label, path)
        raise ArgueError(f"{path}: cannot write {line.rstrip()!r}: TREC files need non-empty ids without whitespace")


def _sniff_trec_run(probe: Probe) -> bool:
    fields = sniff_columns(probe.first_line, 6)
    return fields is not None and is_int(fields[3]) and is_float(fields[4])


def read_rankings(path: str | PathLike[str]) -> dict[str, dict[str, list[tuple[str, float]]]]:
    """Read a whole ranked run as ``{tag: {qid: [(docno, score), ...]}}`` in file order, in one fast pass.

    Pooling reads a hundred runs of tens of thousands of lines each; building a ``RankedRow`` per line
    costs more than the pooling itself. This reader splits every line and checks column counts, scores
    and ranks with ``map`` (C loops); when anything is off (a blank line, a wrong column count, a bad
    number) it hands over to the line-by-line reader, which skips blank lines and raises the same located
    errors as ``read_trec_run``.
    """
    with open_binary(path) as handle:
        data = handle.read()
    if data.startswith(BOM):
        data = data[len(BOM):]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise InputError(path, line, None, "invalid UTF-8 (the file must be UTF-8 encoded)") from None
    fields = list(map(str.split, text.splitlines()))
    scores: list[float] | None = None
    if all(length == 6 for length in map(len, fields)):
        try:
            scores = list(map(float, map(itemgetter(4), fields)))
        except ValueError:
            scores = None
        if scores is not None and not (
            all(map(math.isfinite, scores))
            and all(rank.isdecimal() or _is_signed_int(rank) for rank in map(itemgetter(3), fields))
        ):
            scores = None
    if scores is None:  # something is off: the careful reader skips blank lines or raises the located error
        rows = list(read_trec_run(Path(path)))
        fields = [[row.query_id, "Q0", row.doc_id, "", "", row.run_id] for row in rows]
        scores = [row.score for row in rows]
    runs: dict[str, dict[str, list[tuple[str, float]]]] = {}
    last_tag: str | None = None
    last_qid: str | None = None
    topics: dict[str, list[tuple[str, float]]] = {}
    ranking: list[tuple[str, float]] = []
    for (qid, _q0, docno, _rank, _score, tag), score in zip(fields, scores):
        if tag != last_tag:
            topics = runs.setdefault(tag, {})
            last_tag, last_qid = tag, None
        if qid != last_qid:
            ranking = topics.setdefault(qid, [])
            last_qid = qid
        ranking.append((docno, score))
    return runs


def _is_signed_int(text: str) -> bool:
    return text[:1] in ("+", "-") and text[1:].isdecimal()


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


def read_ranked_columns(path: str | PathLike[str]) -> RankedColumns:
    """Read a ranked run into columns with pandas' C parser (ids as strings, scores through Python's
    ``float`` so they equal ``read_trec_run``'s exactly). Anything pandas would read differently from
    our reader (a missing or extra column, a quote, a bad number, a blank-only file) falls back to the
    line-by-line reader, which raises the located error; the result is always what ``read_trec_run`` reads.
    """
    import csv

    import numpy as np
    import pandas as pd

    frame = None
    try:
        frame = pd.read_csv(
            path, sep=r"\s+", header=None, names=_COLUMN_NAMES, dtype=object, na_filter=False,
            quoting=csv.QUOTE_NONE, engine="c", encoding="utf-8-sig", skip_blank_lines=True, low_memory=False,
        )
    except (ValueError, UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError):
        frame = None
    if frame is not None and isinstance(frame.index, pd.RangeIndex):
        qid, docno, rank, score, tag = (frame[name].to_numpy() for name in ("qid", "docno", "rank", "score", "tag"))
        try:
            scores = np.fromiter(map(float, score), dtype=np.float64, count=len(score))
        except (TypeError, ValueError):
            scores = None
        if (
            scores is not None
            and np.isfinite(scores).all()
            and not (tag == "").any()
            and (all(map(str.isdecimal, rank)) or all(text.isdecimal() or _is_signed_int(text) for text in rank))
        ):
            return RankedColumns(qid, docno, scores, tag)
    rows = list(read_trec_run(Path(path)))
    return RankedColumns(
        np.array([row.query_id for row in rows], dtype=object),
        np.array([row.doc_id for row in rows], dtype=object),
        np.array([row.score for row in rows], dtype=np.float64),
        np.array([row.run_id for row in rows], dtype=object),
    )


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
