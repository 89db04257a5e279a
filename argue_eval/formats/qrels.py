"""TREC qrels (``qid iteration docno relevance``), format ``trec-qrels``.

The reader streams rows as written, duplicates included: whether a repeated (topic, document) pair is an
error or resolved (``max``/``last``) is a policy of the caller (``argue_eval.organizer.qrels``), not of the
file format. Relevance must be an integer (negative values such as -1 for "unjudged/spam" are kept).
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from os import PathLike
from pathlib import Path

from ..errors import InputError
from ..model import QrelsRow
from ..writing import atomic_writer
from .base import FormatSpec, Probe
from .ranked import check_lines, is_int, iter_fields, parse_int, sniff_columns

QRELS_LAYOUT = "qid iteration docno relevance"


def read_trec_qrels(path: Path) -> Iterator[QrelsRow]:
    """Stream qrels rows in file order."""
    for _, row in iter_qrels_lines(path):
        yield row


def iter_qrels_lines(path: Path) -> Iterator[tuple[int, QrelsRow]]:
    """Like ``read_trec_qrels`` but with each row's line number, for callers that report duplicates by line."""
    for lineno, (qid, iteration, docno, relevance) in iter_fields(path, 4, QRELS_LAYOUT):
        yield lineno, QrelsRow(qid, docno, parse_grade(path, lineno, relevance), iteration)


MAX_GRADE = 1000
"""Largest absolute relevance grade read: real scales are -2..4; beyond 1000 the exponential gain 2^grade of
nDCG is no longer a finite float, and a 26-digit "grade" is a corrupt file, not an assessment."""


def parse_grade(path: str | PathLike[str], lineno: int, text: str | int) -> int:
    """A relevance grade: an integer within +-``MAX_GRADE``, or a located error."""
    grade = parse_int(path, lineno, "relevance", text) if isinstance(text, str) else int(text)
    if abs(grade) > MAX_GRADE:
        shown = text if len(str(text)) <= 30 else f"{str(text)[:27]}..."
        raise InputError(path, lineno, "relevance", f"grade {shown} is out of range (expected an integer from "
                         f"-{MAX_GRADE} to {MAX_GRADE})")
    return grade


def write_trec_qrels(rows: Iterable[QrelsRow], path: Path) -> int:
    """Write rows in the order given (callers sort them); the iteration column defaults to ``0``."""
    lines = [
        f"{row.request_id} {row.iteration if row.iteration not in (None, '') else '0'} {row.doc_id} {int(row.relevance)}\n"
        for row in rows
    ]
    text = check_lines(lines, 4, path, ("query id", "iteration", "document id", None))
    with atomic_writer(path) as handle:
        handle.write(text)
    return len(lines)


def _sniff_trec_qrels(probe: Probe) -> bool:
    fields = sniff_columns(probe.first_line, 4)
    return fields is not None and is_int(fields[3])


FORMATS: list[FormatSpec] = [
    FormatSpec(
        name="trec-qrels",
        kind="qrels",
        description="TREC qrels: `qid iteration docno relevance`, whitespace-separated",
        sniff=_sniff_trec_qrels,
        read=read_trec_qrels,
        write=write_trec_qrels,
        aliases=("qrels",),
    )
]
