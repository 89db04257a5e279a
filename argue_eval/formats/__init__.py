"""Readers, writers and auto-detection for every file shape the kit understands.

Use ``read_reports``/``read_nuggets``/... when you know the kind of file, ``detect`` when you do not. The
format is found from the file's content (never its name) unless the caller names one with ``format=``.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from os import PathLike
from pathlib import Path
from typing import Any

from ..errors import InputError, OptionError
from ..model import Judgment, QrelsRow, RankedRow, Report, Request, TopicNuggets
from ..registry import Registry
from ._fields import LossyWriteWarning
from .base import KINDS, FormatSpec, Kind, Probe

__all__ = [
    "FormatSpec",
    "LossyWriteWarning",
    "Probe",
    "KINDS",
    "MODULES",
    "all_formats",
    "get_format",
    "detect",
    "resolve",
    "read",
    "write",
    "read_requests",
    "read_nuggets",
    "read_reports",
    "read_ranked",
    "read_qrels",
    "read_judgments",
]

MODULES: Registry[list[FormatSpec]] = Registry("format module", {
    "requests": "argue_eval.formats.requests:FORMATS",
    "nuggets": "argue_eval.formats.nuggets:FORMATS",
    "runs": "argue_eval.formats.runs:FORMATS",
    "ranked": "argue_eval.formats.ranked:FORMATS",
    "qrels": "argue_eval.formats.qrels:FORMATS",
    "judgments": "argue_eval.formats.judgments:FORMATS",
    "autoargue": "argue_eval.formats.autoargue:FORMATS",
}, option="--format")
"""The modules that register formats, each by its ``FORMATS`` list (a format is registered there, once)."""


@cache
def all_formats() -> tuple[FormatSpec, ...]:
    """Every registered format, most specific first (by priority, then registration order)."""
    specs: list[FormatSpec] = [spec for name in MODULES for spec in MODULES.get(name)]
    order = {id(spec): index for index, spec in enumerate(specs)}
    return tuple(sorted(specs, key=lambda spec: (-spec.priority, order[id(spec)])))


def get_format(name: str, kind: Kind | None = None, option: str = "--format") -> FormatSpec:
    """The format called ``name`` (or one of its aliases), optionally restricted to one kind.

    ``option`` is the command-line option the name came from, so an unknown name is blamed on it.
    """
    matches = [
        spec
        for spec in all_formats()
        if (name == spec.name or name in spec.aliases) and (kind is None or spec.kind == kind)
    ]
    if not matches:
        known = sorted({spec.name for spec in all_formats() if kind is None or spec.kind == kind})
        what = f"{kind} format" if kind else "format"
        raise InputError(option, None, None, f"unknown {what} {name!r}; known: {', '.join(known)}")
    return matches[0]


def detect(path: str | PathLike[str], kind: Kind | None = None) -> FormatSpec:
    """Recognize the format of ``path`` from its content; raise ``InputError`` when nothing matches."""
    path = Path(path)
    if not path.exists():
        raise InputError(path, None, None, "no such file or directory")
    probe = Probe(path)
    if not probe.is_dir and probe.first_line is None:
        raise InputError(path, None, None, "file is empty")
    for spec in all_formats():
        if kind is not None and spec.kind != kind:
            continue
        if spec.sniff(probe):
            return spec
    expected = f"a known {kind} format" if kind else "a known format"
    names = ", ".join(sorted({s.name for s in all_formats() if kind is None or s.kind == kind}))
    if kind is not None:
        other = next((spec for spec in all_formats() if spec.kind != kind and spec.sniff(probe)), None)
        if other is not None:
            raise InputError(
                path, 1 if not probe.is_dir else None, None,
                f"cannot recognize the file as {expected} ({names}); it looks like a {other.kind} file "
                f"({other.name} format)",
            )
    if not probe.is_dir and probe.first_object is None and (probe.first_line or "").lstrip().startswith(("{", "[")):
        # Looks like JSON but the first line is not one object (pretty-printed, glued, truncated, bad UTF-8):
        # the JSONL reader's diagnosis names the actual fault, which helps more than "cannot recognize".
        from ..reading import iter_jsonl

        for _ in iter_jsonl(path):
            break
    if probe.is_dir:
        if kind in (None, "runs", "judgments", "ranked"):  # options that take several files
            hint = f"give the files in it (e.g. {Path(path) / '*.jsonl'})"
        else:  # --nuggets, --requests, --qrels take one file: a glob would make the others runs
            hint = f"give the {kind} file in it ({Path(path) / 'FILE'}), not the directory"
        raise InputError(path, None, None, f"is a directory, not {expected} ({names}); {hint}")
    if _looks_like_pool(probe):
        raise InputError(
            path, None, None, f"cannot recognize the file as {expected} ({names}); it looks like a document pool "
            "{topic: [doc_id, ...]}, which no command reads: `argue-eval pool` writes pools as qrels lines "
            "(topic 0 doc_id -1), which `qrels` and `retrieval` read",
        )
    raise InputError(
        path, 1 if not probe.is_dir else None, None,
        f"cannot recognize the file as {expected} ({names}); if it is one of them, name its format "
        "with the command's format option, where it has one",
    )


def _looks_like_pool(probe: Probe) -> bool:
    """``{topic: [doc_id, ...]}`` (lists of strings without spaces): a pool or a run kept as JSON."""
    obj = probe.first_object if probe.first_object is not None else probe.whole_json
    lists = list(obj.values())[:20] if isinstance(obj, dict) else []
    return bool(lists) and all(isinstance(v, list) and v and all(isinstance(d, str) and d and " " not in d for d in v)
                               for v in lists)


def resolve(path: str | PathLike[str], kind: Kind | None = None, format: str | None = None) -> FormatSpec:
    """The named format if given (checked against ``kind``), else the detected one.

    Some names exist for several kinds (``rag24`` is both a topics and a run format); without ``kind``
    the file's detected kind decides which one is meant, and when that cannot tell, the caller must say.
    """
    if not format:
        return detect(path, kind)
    if kind is not None:
        return get_format(format, kind)
    kinds = sorted({spec.kind for spec in all_formats() if format == spec.name or format in spec.aliases})
    if len(kinds) > 1:
        try:
            detected: FormatSpec | None = detect(path)
        except InputError:
            detected = None
        if detected is None or detected.kind not in kinds:
            raise OptionError("--format", f"{format!r} names a format of several kinds ({', '.join(kinds)}); add --kind to say which",
            )
        return get_format(format, detected.kind)
    return get_format(format)


def read(path: str | PathLike[str], kind: Kind | None = None, format: str | None = None) -> tuple[FormatSpec, Iterator[Any]]:
    """Detect (or take) the format of ``path`` and return it with a generator of canonical records."""
    spec = resolve(path, kind, format)
    return spec, spec.read(Path(path))


def write(records: Iterable[Any], path: str | PathLike[str], format: str, kind: Kind | None = None) -> int:
    """Write canonical records in the named format, atomically; return the number of records written."""
    spec = get_format(format, kind, option="--to")
    if spec.write is None:
        raise OptionError("--to", f"format {spec.name!r} can be read but not written")
    return spec.write(records, Path(path))


def read_requests(path: str | PathLike[str], format: str | None = None) -> Iterator[Request]:
    """Requests in file order; a repeated request id is an error (as ``requests validate`` calls it), since
    scoring or pooling with either copy would silently depend on which one a caller kept."""
    first: dict[str, int | None] = {}
    for request in read(path, "requests", format)[1]:
        line = request.source.line if request.source is not None else None
        if request.request_id in first:
            raise InputError(path, line, "request_id", f"request id {request.request_id!r} is used again (first on "
                             f"line {first[request.request_id]}); `argue-eval requests validate` lists every problem")
        first[request.request_id] = line
        yield request


def read_nuggets(path: str | PathLike[str], format: str | None = None) -> Iterator[TopicNuggets]:
    """Nugget topics in file order; a repeated topic, or a nugget id repeated within a topic, is an error (as
    ``nuggets validate`` calls them): scoring would count the nugget twice."""
    first: dict[str, int | None] = {}
    for topic in read(path, "nuggets", format)[1]:
        line = topic.source.line if topic.source is not None else None
        where = topic.source.path if topic.source is not None else path
        if topic.request_id in first:
            raise InputError(where, line, "request_id", f"topic {topic.request_id!r} appears again (first on line "
                             f"{first[topic.request_id]}); `argue-eval nuggets validate` lists every problem")
        first[topic.request_id] = line
        ids: dict[str, int] = {}
        for index, nugget in enumerate(topic.nuggets):
            if nugget.nugget_id in ids:
                raise InputError(where, line, f"nuggets[{index}].nugget_id", f"nugget {nugget.nugget_id!r} repeats the "
                                 f"id of nuggets[{ids[nugget.nugget_id]}]; `argue-eval nuggets validate` lists every problem")
            ids[nugget.nugget_id] = index
        yield topic


def read_reports(path: str | PathLike[str], format: str | None = None) -> Iterator[Report]:
    return read(path, "runs", format)[1]


def read_ranked(path: str | PathLike[str], format: str | None = None) -> Iterator[RankedRow]:
    return read(path, "ranked", format)[1]


def read_qrels(path: str | PathLike[str], format: str | None = None) -> Iterator[QrelsRow]:
    return read(path, "qrels", format)[1]


def read_judgments(path: str | PathLike[str], format: str | None = None) -> Iterator[Judgment]:
    return read(path, "judgments", format)[1]
