"""The contract every file format implements, so detection, ``inspect`` and ``convert`` stay generic.

A format module (``requests.py``, ``nuggets.py``, ``runs.py``, ``ranked.py``, ``qrels.py``,
``judgments.py``, ``autoargue.py``) exposes ``FORMATS: list[FormatSpec]``, its one registration of each
format (``formats.MODULES`` names the modules). Readers are generators of canonical records
(``argue_eval.model``) so that a 1 GB run is never held in memory; writers take any iterable of the same
records and write atomically. A format whose records are JSON objects also registers its careful parser
(``FormatSpec.parse``): the reader of a JSON Lines format is built from it (``jsonl_format``), and the
validators run the same parser on each line to collect every problem (``parse_record``).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

import orjson

from ..errors import InputError, Problem, type_name, unknown_name
from ..reading import BOM, is_lenient, iter_lines, lenient_objects, open_binary, read_capped
from ._fields import Fields, jsonl_reader

RecordParser = Callable[[dict[str, Any], Fields], Any]
"""A careful parser of one JSON object: the record, or ``None`` when nothing usable is left (problems collected)."""

Kind = Literal["requests", "nuggets", "runs", "ranked", "qrels", "judgments"]
KINDS: tuple[str, ...] = ("requests", "nuggets", "runs", "ranked", "qrels", "judgments")


@dataclass
class Probe:
    """What detection may look at: the path, whether it is a directory, and the file's first record.

    Built once per file and shared by every format's ``sniff``; properties read lazily and only the
    start of the file, so sniffing a huge run is cheap.
    """

    path: Path

    @cached_property
    def is_dir(self) -> bool:
        return self.path.is_dir()

    @cached_property
    def first_line(self) -> str | None:
        """The first non-blank line, decoded leniently (BOM dropped), or ``None`` for an empty file or a directory."""
        if self.is_dir:
            return None
        with open_binary(self.path) as handle:
            for _, raw in iter_lines(handle, self.path):
                if raw.strip():
                    if raw.startswith(BOM):
                        raw = raw[len(BOM):]
                    return raw.decode("utf-8", errors="replace").rstrip("\r\n")
        return None

    @cached_property
    def first_object(self) -> dict[str, Any] | None:
        """The first line parsed as a JSON object, or ``None`` when it is not one (TSV, pretty-printed JSON)."""
        line = self.first_line
        if line is None or not line.lstrip().startswith(("{", "[")):
            return None
        try:
            value = orjson.loads(line)
        except orjson.JSONDecodeError:
            value = None
        if isinstance(value, dict):
            return value
        if is_lenient() and self.path.stat().st_size <= 64 * 1024 * 1024:
            # --lenient: the first record of a pretty-printed, concatenated or array file decides the format.
            try:
                objects, _ = lenient_objects(self.path)
            except InputError:
                return None
            return objects[0][1] if objects else None
        return None

    @cached_property
    def whole_json(self) -> Any:
        """The whole file parsed as one JSON document (for pretty-printed single-object files), else ``None``.

        Only attempted for files up to 64 MiB: a one-document JSON file larger than that is not a format we read.
        """
        if self.is_dir or self.path.stat().st_size > 64 * 1024 * 1024:
            return None
        with open_binary(self.path) as handle:
            data = read_capped(handle, self.path)
        if data.startswith(BOM):
            data = data[len(BOM):]
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            return None


@dataclass(frozen=True)
class FormatSpec:
    """One file format: how to recognize it, read it into canonical records and (optionally) write it."""

    name: str
    """Stable name used by ``--format`` and ``convert --to`` (e.g. ``neuclir24``, ``ragtime``, ``argue``)."""
    kind: Kind
    description: str
    sniff: Callable[[Probe], bool]
    read: Callable[[Path], Iterator[Any]]
    write: Callable[[Iterable[Any], Path], int] | None = None
    priority: int = 0
    """Formats with a higher priority are sniffed first (put the more specific shape first)."""
    aliases: tuple[str, ...] = field(default_factory=tuple)
    request_id_field: str = "request_id"
    """Where a record keeps its request (topic) id, as a dotted path: a located message about a record names it."""
    run_id_field: str = "run_id"
    """Runs: where a report keeps its run id (dotted path)."""
    sentences_field: str = "sentences"
    """Runs: where a report keeps its list of sentences (dotted path)."""
    parse: RecordParser | None = None
    """The careful parser of one record, for formats whose records are JSON objects (a line of a JSON Lines
    file, one file of a NuggetBank v3 directory): what ``parse_record`` runs."""

    def parse_record(self, obj: Any, path: str, line: int | None, problems: list[Problem] | None = None) -> Any:
        """One record (a parsed JSON value) read by this format's careful parser.

        Strict with ``problems=None`` (the first schema error raises ``InputError``); otherwise every problem
        is appended and the record returned while it is still usable, else ``None``. A format without a
        parser is a programming error (``ValueError``).
        """
        if self.parse is None:
            raise ValueError(f"the {self.kind} format {self.name!r} has no record parser")
        fields = Fields(path, line, problems)
        if type(obj) is not dict:
            fields.error(None, f"expected a JSON object, found {type_name(obj)}")
            return None
        return self.parse(obj, fields)


def jsonl_format(name: str, kind: Kind, description: str, sniff: Callable[[Probe], bool], parse: RecordParser,
                 write: Callable[[Iterable[Any], Path], int] | None = None, **options: Any) -> FormatSpec:
    """A JSON Lines format registered once: its reader streams the lines through ``parse``, the parser the
    validators run too (``options``: ``priority``, ``aliases`` and the ``*_field`` locations)."""
    return FormatSpec(name, kind, description, sniff, jsonl_reader(parse, name), write, parse=parse, **options)


def parse_named(formats: Iterable[FormatSpec], what: str, format_name: str, obj: Any, path: str, line: int | None,
                problems: list[Problem] | None) -> Any:
    """``obj`` read by the parser of the format called ``format_name`` among ``formats`` (a module's ``FORMATS``:
    what ``parse_request``, ``parse_topic`` and ``parse_report`` do). An unknown name is a programming error
    (``OptionError``, a ``ValueError``) naming the formats that have a parser."""
    parsing = {spec.name: spec for spec in formats if spec.parse is not None}
    spec = parsing.get(format_name)
    if spec is None:
        raise unknown_name("--format", f"{what} format", format_name, parsing)
    return spec.parse_record(obj, path, line, problems)
