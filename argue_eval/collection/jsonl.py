"""A JSONL collection with a persistent offset index: documents read by seeking, never loaded whole.

A track collection has millions of documents (gigabytes of JSONL) while a judging run needs a few
thousand of them, so we scan the file once, record each document's byte offset and length in an SQLite
index (``<collection>-<hash>.argue-idx`` in the cache directory, ``cache_root``: never written into the
collection's folder unless asked), and afterwards read one line per lookup with ``pread``. The lookup
process holds the SQLite page cache and one line at a time, not the collection.

Why SQLite: it is in the standard library, its B-tree answers an id lookup in microseconds from disk
without loading the index, it stores variable-length string ids as they are (``#`` and all), and the
file format is not executable (no pickle). The index is built into a temporary file and moved into
place, so an interrupted build never leaves a half index behind.

Staleness: the index records the collection's size, modification time (ns) and a fingerprint of its
content (a hash of the first and last 64 KiB and 16 blocks spread over the file); if any differs the
index is rebuilt. Every lookup also checks that the line it read carries the requested id, so an edit
that slipped past those checks gives an error asking for a rebuild, never a wrong document.
"""
from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal

import orjson

from ..errors import ArgueError, InputError, Problem, id_control_character
from ..model import Document
from ..progress import progress
from ..reading import diagnose_line, is_stream, iter_lines
from ..writing import temp_file_beside, write_jsonl
from .base import ID_FIELDS, TEXT_FIELDS, BaseDocumentStore, document_from_record, pick_field

INDEX_SUFFIX = ".argue-idx"
INDEX_VERSION = "1"
"""Bump when the index layout changes: older indexes are then rebuilt instead of misread."""
MAX_STORED_WARNINGS = 1000
"""Skipped lines beyond this many are counted but not itemized in the index."""
_BATCH = 50_000
_SQL_VARIABLES = 500

OnBadLine = Literal["error", "skip"]

_COMPRESSED_MAGIC = {
    b"\x1f\x8b": ("gzip", "gunzip -k"),
    b"BZh": ("bzip2", "bunzip2 -k"),
    b"\xfd7zXZ\x00": ("xz", "unxz -k"),
    b"\x28\xb5\x2f\xfd": ("zstd", "unzstd"),
}


def cache_root(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """Where indexes go when they cannot sit beside the collection: ``cache_dir``, else ``$ARGUE_EVAL_CACHE``,
    else ``~/.cache/argue-eval``."""
    if cache_dir is not None:
        return Path(cache_dir).expanduser()
    env = os.environ.get("ARGUE_EVAL_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "argue-eval"


def index_locations(path: Path, cache_dir: str | os.PathLike[str] | None = None) -> tuple[Path, Path]:
    """The two places an index for ``path`` may live: beside it, and in the cache (named by the absolute path)."""
    absolute = path.resolve()
    digest = hashlib.sha256(str(absolute).encode("utf-8")).hexdigest()[:16]
    beside = absolute.with_name(absolute.name + INDEX_SUFFIX)
    cached = cache_root(cache_dir) / "collections" / f"{absolute.name}-{digest}{INDEX_SUFFIX}"
    return beside, cached


@dataclass(frozen=True)
class SourceState:
    """What the index remembers about the collection file to notice that it changed."""

    size: int
    mtime_ns: int
    fingerprint: str


def source_state(path: Path) -> SourceState:
    """Size, mtime and a sampled content hash of ``path`` (reads at most ~200 KiB, whatever the file size)."""
    stat = path.stat()
    size = stat.st_size
    digest = hashlib.blake2b(str(size).encode(), digest_size=16)
    with open(path, "rb") as handle:
        spans = [(0, 65536), (max(0, size - 65536), 65536)]
        spans += [(size * k // 17, 4096) for k in range(1, 17)]
        for offset, length in spans:
            handle.seek(offset)
            digest.update(handle.read(length))
    return SourceState(size, stat.st_mtime_ns, digest.hexdigest())


@dataclass
class IndexInfo:
    """The outcome of making sure an index exists: where it is, what it holds, and whether we built it now."""

    index_path: Path
    count: int
    built: bool
    seconds: float = 0.0
    id_field: str = "doc_id"
    text_field: str = "text"
    skipped_count: int = 0
    warnings: list[Problem] = field(default_factory=list)


def check_collection_file(path: Path) -> None:
    """Raise ``InputError`` unless ``path`` is a readable, uncompressed regular file."""
    if not path.exists():
        raise InputError(path, None, None, "no such file or directory")
    if path.is_dir():
        raise InputError(path, None, None, "is a directory; a JSONL collection must be given as the file itself")
    if is_stream(path):  # <(zcat docs.jsonl.gz), /dev/stdin: read once, and then there is nothing to seek in
        raise InputError(path, None, None, "is a pipe or device, not a file: a JSONL collection is looked up by "
                         "byte offset, so give it as a file (decompress or copy it to one first)")
    try:
        with open(path, "rb") as handle:
            head = handle.read(6)
    except PermissionError:
        raise InputError(path, None, None, "permission denied") from None
    for magic, (name, command) in _COMPRESSED_MAGIC.items():
        if head.startswith(magic):
            raise InputError(
                path, None, None,
                f"{name}-compressed collections cannot be read by seeking; decompress it once "
                f"({command} {path}) and use the uncompressed .jsonl file",
            )


def _read_meta(index_path: Path) -> dict[str, str] | None:
    """The index's metadata table, or ``None`` when the file is absent, unreadable or not our index."""
    if not index_path.is_file():
        return None
    try:
        connection = sqlite3.connect(_readonly_uri(index_path), uri=True)
        try:
            return dict(connection.execute("SELECT key, value FROM meta").fetchall())
        finally:
            connection.close()
    except sqlite3.Error:
        return None


def _readonly_uri(index_path: Path) -> str:
    # immutable: we never modify an index in place (rebuilds replace the file), so SQLite may skip locking.
    return index_path.resolve().as_uri() + "?mode=ro&immutable=1"


def _is_fresh(meta: dict[str, str] | None, state: SourceState, on_bad_line: OnBadLine) -> bool:
    return (
        meta is not None
        and meta.get("version") == INDEX_VERSION
        and meta.get("source_size") == str(state.size)
        and meta.get("source_mtime_ns") == str(state.mtime_ns)
        and meta.get("source_fingerprint") == state.fingerprint
        and meta.get("on_bad_line") == on_bad_line
    )


def _info_from_meta(index_path: Path, meta: dict[str, str], built: bool, seconds: float = 0.0) -> IndexInfo:
    info = IndexInfo(
        index_path, int(meta["count"]), built, seconds, meta["id_field"], meta["text_field"], int(meta["skipped_count"])
    )
    if info.skipped_count:
        connection = sqlite3.connect(_readonly_uri(index_path), uri=True)
        try:
            rows = connection.execute("SELECT path, line, field, message FROM skipped ORDER BY line").fetchall()
        finally:
            connection.close()
        info.warnings = [Problem(path, line, fld, message, "warning") for path, line, fld, message in rows]
    return info


def ensure_index(
    path: str | os.PathLike[str],
    cache_dir: str | os.PathLike[str] | None = None,
    *,
    rebuild: bool = False,
    on_bad_line: OnBadLine = "error",
    beside: bool = False,
) -> IndexInfo:
    """Find a fresh index for the collection at ``path`` or build one; return what it holds.

    A fresh index beside the file wins (one its owner shipped with it), then one in the cache. A new index goes
    into the cache (``cache_root``: ``cache_dir``, ``$ARGUE_EVAL_CACHE`` or ``~/.cache/argue-eval``), never into the
    collection's folder, which is often someone else's data, unless ``beside`` asks for it (``collection index
    --beside``: a collection you own and ship with its index). ``on_bad_line="error"`` (the default) stops at the first
    malformed line, line without an id or text, or duplicate id, with its location; ``"skip"`` leaves
    such lines out (keeping the first of duplicate ids) and records each as a warning in the index.
    """
    path = Path(path)
    check_collection_file(path)
    if on_bad_line not in ("error", "skip"):
        raise ValueError(f"on_bad_line must be 'error' or 'skip', not {on_bad_line!r}")
    state = source_state(path)
    locations = index_locations(path, cache_dir)
    if not rebuild:
        for index_path in locations:
            meta = _read_meta(index_path)
            if _is_fresh(meta, state, on_bad_line):
                assert meta is not None
                return _info_from_meta(index_path, meta, built=False)
    errors = []
    for index_path in (locations if beside else locations[1:]):
        try:
            index_path.parent.mkdir(parents=True, exist_ok=True)
            started = time.perf_counter()
            _build(path, index_path, state, on_bad_line)
        except OSError as error:  # e.g. a read-only directory: try the next location
            errors.append(f"{index_path}: {error.strerror or error}")
            continue
        except sqlite3.OperationalError as error:  # e.g. disk full
            errors.append(f"{index_path}: {error}")
            continue
        meta = _read_meta(index_path)
        assert meta is not None
        return _info_from_meta(index_path, meta, built=True, seconds=time.perf_counter() - started)
    raise ArgueError(f"{path}: cannot write a collection index ({'; '.join(errors)}); set ARGUE_EVAL_CACHE to a writable directory")


class _BadLine(Exception):
    def __init__(self, problem: Problem):
        self.problem = problem


def _build(path: Path, index_path: Path, state: SourceState, on_bad_line: OnBadLine) -> None:
    """Scan the collection once and write the index atomically (temporary file, then rename)."""
    tmp = temp_file_beside(index_path)  # readable by all whom the umask allows: a shared collection's index
    try:
        connection = sqlite3.connect(tmp)
        try:
            _fill(connection, path, state, on_bad_line)
        finally:
            connection.close()
        os.replace(tmp, index_path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _fill(connection: sqlite3.Connection, path: Path, state: SourceState, on_bad_line: OnBadLine) -> None:
    connection.execute("PRAGMA journal_mode=OFF")
    connection.execute("PRAGMA synchronous=OFF")
    connection.execute("PRAGMA cache_size=-65536")  # 64 MiB while building; readers use the default
    connection.execute("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    connection.execute("CREATE TABLE skipped(path TEXT, line INTEGER, field TEXT, message TEXT)")
    # Rows go to an unordered temporary table first and are copied in id order at the end: a sorted bulk
    # insert into the B-tree is much faster than random inserts once the collection outgrows the cache.
    connection.execute("CREATE TEMP TABLE staging(doc_id TEXT, offset INTEGER, length INTEGER, line INTEGER)")
    skipped: list[Problem] = []
    skipped_count = 0
    fields: dict[str, str] = {}
    batch: list[tuple[str, int, int, int]] = []
    staged = 0
    with open(path, "rb") as handle:
        for lineno, offset, raw in progress(_lines(handle, path), desc=f"indexing {path.name}", unit=" lines"):
            try:
                doc_id = _doc_id(path, lineno, raw, handle, fields)
            except _BadLine as bad:
                if on_bad_line == "error":
                    raise InputError(bad.problem.path, bad.problem.line, bad.problem.field, bad.problem.message) from None
                skipped_count += 1
                if len(skipped) < MAX_STORED_WARNINGS:
                    skipped.append(bad.problem)
                continue
            batch.append((doc_id, offset, len(raw), lineno))
            if len(batch) >= _BATCH:
                connection.executemany("INSERT INTO staging VALUES (?, ?, ?, ?)", batch)
                staged += len(batch)
                batch.clear()
    connection.executemany("INSERT INTO staging VALUES (?, ?, ?, ?)", batch)
    staged += len(batch)
    if staged == 0:
        raise InputError(path, None, None, "the collection has no documents")
    connection.execute("CREATE TABLE docs(doc_id TEXT PRIMARY KEY, offset INTEGER, length INTEGER) WITHOUT ROWID")
    if on_bad_line == "error":
        try:
            connection.execute("INSERT INTO docs SELECT doc_id, offset, length FROM staging ORDER BY doc_id")
        except sqlite3.IntegrityError:
            first = _duplicates(connection, path, limit=1)[0]
            raise InputError(first.path, first.line, first.field, first.message) from None
        count = staged
    else:
        # ORDER BY line within an id: the first occurrence is inserted, later ones are ignored.
        connection.execute("INSERT OR IGNORE INTO docs SELECT doc_id, offset, length FROM staging ORDER BY doc_id, line")
        count = connection.execute("SELECT COUNT(*) FROM docs").fetchone()[0]
        if count < staged:
            skipped_count += staged - count
            skipped.extend(_duplicates(connection, path, limit=MAX_STORED_WARNINGS, severity="warning"))
            skipped = sorted(skipped, key=lambda problem: problem.line or 0)[:MAX_STORED_WARNINGS]
    connection.executemany(
        "INSERT INTO skipped VALUES (?, ?, ?, ?)", [(p.path, p.line, p.field, p.message) for p in skipped]
    )
    meta = {
        "version": INDEX_VERSION,
        "source_path": str(path.resolve()),
        "source_size": str(state.size),
        "source_mtime_ns": str(state.mtime_ns),
        "source_fingerprint": state.fingerprint,
        "on_bad_line": on_bad_line,
        "count": str(count),
        "skipped_count": str(skipped_count),
        "id_field": fields.get("id", "doc_id"),
        "text_field": fields.get("text", "text"),
    }
    connection.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
    connection.execute("DROP TABLE staging")
    connection.commit()


def _lines(handle: IO[bytes], path: Path) -> Iterator[tuple[int, int, bytes]]:
    """``(line number, byte offset, raw line)`` for every non-blank line."""
    offset = 0
    for lineno, raw in iter_lines(handle, path):
        if raw.strip():
            yield lineno, offset, raw
        offset += len(raw)


def _doc_id(path: Path, lineno: int, raw: bytes, handle: IO[bytes], fields: dict[str, str]) -> str:
    """The document id on this line, checking the line is a JSON object with the collection's id and text fields.

    The id and text field names are taken from the first document (``fields`` remembers them), so a
    collection that mixes ``doc_id`` and ``id`` is reported rather than half-indexed.
    """
    try:
        record = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        problem = diagnose_line(path, lineno, raw, handle, error).problem
        raise _BadLine(Problem(str(path), lineno, None, problem.message)) from None
    if not isinstance(record, dict):
        raise _BadLine(Problem(str(path), lineno, None, "expected a JSON object (one document per line)"))
    if not fields:
        id_field = pick_field(record, ID_FIELDS)
        if id_field is None:
            raise _BadLine(Problem(str(path), lineno, None, f"no document id field (expected one of {', '.join(ID_FIELDS)})"))
        text_field = pick_field(record, TEXT_FIELDS)
        if text_field is None:
            raise _BadLine(Problem(str(path), lineno, None, f"no document text field (expected one of {', '.join(TEXT_FIELDS)})"))
        fields["id"], fields["text"], fields["line"] = id_field, text_field, str(lineno)
    id_field, text_field = fields["id"], fields["text"]
    doc_id = record.get(id_field)
    if doc_id is None:
        raise _BadLine(Problem(
            str(path), lineno, id_field,
            f"missing document id (this collection's id field is {id_field!r}, as on line {fields['line']})",
        ))
    if isinstance(doc_id, bool) or not isinstance(doc_id, (str, int)):
        raise _BadLine(Problem(str(path), lineno, id_field, f"expected a string document id, found {type(doc_id).__name__}"))
    doc_id = str(doc_id)
    if not doc_id.strip():
        raise _BadLine(Problem(str(path), lineno, id_field, "empty document id"))
    bad = id_control_character(doc_id)
    if bad is not None:
        raise _BadLine(Problem(str(path), lineno, id_field, f"id contains the control character {bad}; ids must be "
                               "printable text"))
    text = record.get(text_field)
    if not isinstance(text, str):
        what = "missing" if text is None else f"expected a string, found {type(text).__name__}"
        raise _BadLine(Problem(
            str(path), lineno, text_field,
            f"{what} (this collection's text field is {text_field!r}, as on line {fields['line']})",
        ))
    return doc_id


def _duplicates(connection: sqlite3.Connection, path: Path, limit: int, severity: str = "error") -> list[Problem]:
    """Located problems for repeated ids: one per later occurrence, naming the line of the first."""
    rows = connection.execute(
        "SELECT doc_id, line FROM staging WHERE doc_id IN "
        "(SELECT doc_id FROM staging GROUP BY doc_id HAVING COUNT(*) > 1) ORDER BY line"
    ).fetchall()
    first_line: dict[str, int] = {}
    problems = []
    for doc_id, line in rows:
        if doc_id in first_line:
            problems.append(Problem(
                str(path), line, None, f"duplicate document id {doc_id!r} (first on line {first_line[doc_id]})",
                severity,  # type: ignore[arg-type]
            ))
            if len(problems) >= limit:
                break
        else:
            first_line[doc_id] = line
    return problems


def _pread(fd: int, length: int, offset: int) -> bytes:
    """``os.pread`` where the platform has it (POSIX); elsewhere seek and read (callers hold the store's lock)."""
    if hasattr(os, "pread"):
        return os.pread(fd, length, offset)
    os.lseek(fd, offset, os.SEEK_SET)
    return os.read(fd, length)


class JsonlDocumentStore(BaseDocumentStore):
    """Documents of a JSONL collection, read by seeking through the offset index (built on first use).

    Thread-safe: one lock guards the SQLite connection and the file reads (``os.pread`` where available).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        cache_dir: str | os.PathLike[str] | None = None,
        *,
        rebuild: bool = False,
        on_bad_line: OnBadLine = "error",
    ):
        super().__init__()
        self.path = Path(path)
        self.index = ensure_index(self.path, cache_dir, rebuild=rebuild, on_bad_line=on_bad_line)
        self.warnings: list[Problem] = self.index.warnings
        """Lines left out of the index (only with ``on_bad_line="skip"``); at most 1000 are itemized."""
        self.description = f"JSONL collection {self.path}"
        self._id_field = self.index.id_field
        self._text_field = self.index.text_field
        self._lock = threading.Lock()
        self._connection: sqlite3.Connection | None = sqlite3.connect(
            _readonly_uri(self.index.index_path), uri=True, check_same_thread=False
        )
        self._fd: int | None = os.open(self.path, os.O_RDONLY | getattr(os, "O_BINARY", 0))

    def __len__(self) -> int:
        return self.index.count

    def _live(self) -> tuple[sqlite3.Connection, int]:
        if self._connection is None or self._fd is None:
            raise ArgueError(f"{self.description}: the document store is closed")
        return self._connection, self._fd

    def _read(self, fd: int, doc_id: str, offset: int, length: int) -> Document:
        raw = _pread(fd, length, offset)
        try:
            record: Any = orjson.loads(raw)
            found = str(record[self._id_field])
        except (orjson.JSONDecodeError, KeyError, TypeError):
            found = None
        if found != doc_id:
            raise ArgueError(
                f"{self.path}: the collection changed since it was indexed (byte {offset} no longer holds "
                f"document {doc_id!r}); rebuild the index with: argue-eval collection index --rebuild {self.path}"
            )
        return document_from_record(record, self._id_field, self._text_field)

    def _fetch(self, doc_id: str) -> Document | None:
        with self._lock:
            connection, fd = self._live()
            row = connection.execute("SELECT offset, length FROM docs WHERE doc_id = ?", (doc_id,)).fetchone()
            return None if row is None else self._read(fd, doc_id, row[0], row[1])

    def _fetch_many(self, doc_ids: list[str]) -> dict[str, Document]:
        with self._lock:
            connection, fd = self._live()
            rows: list[tuple[str, int, int]] = []
            for start in range(0, len(doc_ids), _SQL_VARIABLES):
                chunk = doc_ids[start : start + _SQL_VARIABLES]
                marks = ", ".join("?" * len(chunk))
                rows.extend(connection.execute(f"SELECT doc_id, offset, length FROM docs WHERE doc_id IN ({marks})", chunk))
            rows.sort(key=lambda row: row[1])  # file order: sequential reads are kinder to disks
            return {doc_id: self._read(fd, doc_id, offset, length) for doc_id, offset, length in rows}

    def _contains(self, doc_id: str) -> bool:
        with self._lock:
            connection, _ = self._live()
            return connection.execute("SELECT 1 FROM docs WHERE doc_id = ?", (doc_id,)).fetchone() is not None

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None


def write_documents(documents: Iterable[Document], path: str | os.PathLike[str]) -> int:
    """Atomically write a JSONL collection, one ``{"doc_id", "title"?, "text"}`` per document (``title`` only
    when it is not empty), in the order given; return the number of documents. It opens as ``--collection``."""
    def lines() -> Iterator[dict[str, str]]:
        for document in documents:
            line = {"doc_id": document.doc_id}
            if document.title:
                line["title"] = document.title
            line["text"] = document.text
            yield line

    return write_jsonl(path, lines())


def summarize_collection(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """What ``inspect`` says of a JSONL document collection, or ``None`` when ``path`` is not one (its first line
    is not a JSON object with an id field of ``ID_FIELDS`` and a text field of ``TEXT_FIELDS``).

    Streams the file once: ``documents`` (lines), ``distinct_ids``, ``with_title``, ``characters`` (of the texts,
    summed), and the fields the lookups use. A later line that is not such a document is a located error, as
    indexing would report it."""
    source = Path(path)
    if not source.is_file() or is_stream(source):
        return None
    fields: tuple[str, str] | None = None
    documents = with_title = characters = 0
    ids: set[str] = set()
    with open(source, "rb") as handle:
        for lineno, raw in iter_lines(handle, source):
            if not raw.strip():
                continue
            try:
                record = orjson.loads(raw)
            except orjson.JSONDecodeError:
                if fields is None:
                    return None
                raise InputError(source, lineno, None, "not a JSON object: a collection has one document per line") from None
            if fields is None:
                id_field = pick_field(record, ID_FIELDS) if isinstance(record, dict) else None
                text_field = pick_field(record, TEXT_FIELDS) if isinstance(record, dict) else None
                if id_field is None or text_field is None:
                    return None
                fields = (id_field, text_field)
            if not isinstance(record, dict) or fields[0] not in record or not isinstance(record.get(fields[1]), str):
                raise InputError(source, lineno, fields[0] if isinstance(record, dict) else None,
                                 f"not a document: expected a JSON object with {fields[0]!r} and a text {fields[1]!r}")
            documents += 1
            ids.add(str(record[fields[0]]))
            characters += len(record[fields[1]])
            with_title += isinstance(record.get("title"), str) and bool(record["title"])
    if fields is None:
        return None
    return {"path": str(path), "kind": "collection", "format": "jsonl", "documents": documents,
            "distinct_ids": len(ids), "with_title": with_title, "characters": characters,
            "id_field": fields[0], "text_field": fields[1]}
