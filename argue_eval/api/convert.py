"""``convert``: a requests, nuggets, run, qrels or judgments file rewritten in another format of its kind, and the
two things an Auto-ARGUE judgments file holds besides its judgments (the judged run, the cited documents' texts).

What ``argue-eval convert`` does minus the printing. What the target format cannot hold is said as it is written
(a ``formats.LossyWriteWarning``); what it cannot express at all stops the conversion, leaving no output.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from ..errors import InputError, OptionError
from ..formats.base import FormatSpec

__all__ = ["convert", "Conversion", "COLLECTION_FORMAT"]

Writer = Callable[[Iterable[Any], Path], int]

COLLECTION_FORMAT = "jsonl"
"""The one format a collection is written in (``{doc_id, text}`` lines), for ``kind="collection"``."""


@dataclass
class Conversion:
    """What was converted: from ``source`` (``kind, format``) to ``target`` (``format``, or ``collection, jsonl``),
    ``written`` records (``unit``), with notes and warnings to show (in that order, before the summary line)."""

    source: str
    target: str
    written: int
    unit: str = "records"
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def convert(path: str | PathLike[str], to: str | None, output: str | PathLike[str], *, kind: str | None = None,
            format: str | None = None, nuggets: str | PathLike[str] | None = None) -> Conversion:
    """Convert ``path`` (its format detected, or named by ``format``; its kind by ``kind``) to the format ``to`` of
    the same kind, written atomically to ``output``.

    An Auto-ARGUE judgments file converts to canonical judgments with ``nuggets`` (the bank it was judged with);
    ``kind="runs"`` takes out its run and ``kind="collection"`` its cited documents as a JSONL collection (``to``
    ``None`` or ``"jsonl"``, the one collection format). ``to`` is required for every other kind.
    """
    from ..formats import resolve
    from ..progress import progress

    path = str(path)
    if kind == "collection":
        return _cited_documents(path, to or COLLECTION_FORMAT, output, format, nuggets)
    if to is None:
        raise OptionError("--to", "missing --to FORMAT: the format to write")
    source = resolve(path, kind, format)  # type: ignore[arg-type]
    spec, write = _target(path, to, source)
    if (source.kind, source.name) == ("judgments", "autoargue"):
        return _autoargue_judgments(path, spec.name, write, output, nuggets)
    if nuggets is not None:
        raise OptionError("--nuggets", f"only converting Auto-ARGUE judgments uses a nugget bank; {path} "
                         f"is a {source.kind} file ({source.name} format)")
    records = progress(source.read(Path(path)), desc=f"convert {Path(path).name}", unit=" rec")
    return Conversion(f"{source.kind}, {source.name}", spec.name, write(records, Path(output)))


def _target(path: str, to: str, source: FormatSpec) -> tuple[FormatSpec, Writer]:
    """The writable format ``to`` of ``source``'s kind and its writer, or an error that says what ``to`` is."""
    from ..formats import all_formats, get_format

    writable = ", ".join(sorted(s.name for s in all_formats() if s.kind == source.kind and s.write is not None))
    try:
        spec = get_format(to, source.kind)
    except InputError:
        if to == COLLECTION_FORMAT:
            raise OptionError("--to", f"{path} is a {source.kind} file; {to!r} writes a collection, "
                             "which --kind collection takes out of an Auto-ARGUE judgments file") from None
        others = sorted({s.kind for s in all_formats() if to in (s.name, *s.aliases)})
        if others:
            raise OptionError("--to", f"{path} is a {source.kind} file; {to!r} is a {'/'.join(others)} format "
                                      "(convert keeps the kind)") from None
        raise OptionError("--to", f"unknown {source.kind} format {to!r}; writable {source.kind} formats: "
                                  f"{writable}") from None
    if spec.write is None:
        raise OptionError("--to", f"{source.kind} format {spec.name!r} can be read but not written; "
                         f"writable {source.kind} formats: {writable}")
    return spec, spec.write


def _autoargue_judgments(path: str, target: str, write: Writer, output: str | PathLike[str],
                         nuggets: str | PathLike[str] | None) -> Conversion:
    """Auto-ARGUE judgments -> canonical judgments, every answer kept (``formats.autoargue.convert_judgments``)."""
    from ..formats import read_nuggets
    from ..formats.autoargue import convert_judgments

    if nuggets is None:
        raise OptionError("--nuggets", f"{path} holds Auto-ARGUE judgments; converting them needs the nugget bank they were judged with "
            "(--nuggets N): a SENTENCE_ANSWERS_QUESTION judgment lists only the answers it matched, by text, and the "
            "bank gives their nugget ids and the cited document's other answers, which were answered no",
        )
    conversion = convert_judgments(path, list(read_nuggets(nuggets)))
    count = write(conversion.judgments, Path(output))
    return Conversion("judgments, autoargue", target, count, notes=list(conversion.summary()),
                      warnings=list(conversion.losses()))


def _cited_documents(path: str, to: str, output: str | PathLike[str], format: str | None,
                     nuggets: str | PathLike[str] | None) -> Conversion:
    """The documents an Auto-ARGUE file cites, with their texts, as a JSONL collection."""
    from ..collection.jsonl import write_documents
    from ..formats import resolve
    from ..formats.autoargue import DocumentExtraction, iter_cited_documents

    if nuggets is not None:
        raise OptionError("--nuggets", "--kind collection does not use a nugget bank")
    if to != COLLECTION_FORMAT:
        raise OptionError("--to", f"a collection is written as {COLLECTION_FORMAT!r} (one {{doc_id, text}} "
                         f"per line); {to!r} is not a collection format")
    source = resolve(path, None, format)
    if (source.kind, source.name) != ("judgments", "autoargue"):
        raise InputError(path, None, None, f"--kind collection takes the cited documents' texts out of an Auto-ARGUE "
                         f"judgments file; this is a {source.kind} file ({source.name} format), which holds no texts")
    seen = DocumentExtraction()
    count = write_documents(iter_cited_documents(path, seen), output)
    warnings = []
    if seen.without_text:
        shown = ", ".join(seen.without_text[:5]) + (", ..." if len(seen.without_text) > 5 else "")
        warnings.append(f"{path}: {len(seen.without_text)} cited document(s) come with no text and are not in the "
                        f"collection: {shown}")
    return Conversion("judgments, autoargue", f"collection, {COLLECTION_FORMAT}", count,
                      f"documents from {seen.citations} citations", warnings=warnings)
