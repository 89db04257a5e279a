"""Reading untrusted input files: streamed JSON Lines and JSON with precise diagnostics, gzip, line caps.

Participant files are untrusted and often subtly broken: pretty-printed objects, objects glued together
without newlines, a byte-order mark, bad UTF-8, a last line cut short by a failed upload. The fast path
parses each line with orjson; only when a line fails do we run the slower diagnosis that names the
problem, so a well-formed 1 GB file costs one pass and a broken one gets a precise message. Writing is
``argue_eval.writing``.
"""
from __future__ import annotations

import gzip
import io
import json
import os
import re
import stat
import sys
import zlib
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import IO, Any, cast

import orjson

from .errors import InputError

BOM = b"\xef\xbb\xbf"
GZIP_MAGIC = b"\x1f\x8b"


def open_binary(path: str | os.PathLike[str]) -> IO[bytes]:
    """Open a file for binary reading, transparently un-gzipping ``*.gz``.

    A ``.gz`` file that is not gzip, or is cut short, fails while it is being read, far from here; the
    handle turns those failures into an ``InputError`` naming the file instead of a traceback. A pipe or
    device (``--run <(zcat run.gz)``, ``/dev/stdin``) is read once into memory (``spooled``), so detecting
    its format and then reading it both see the whole stream.
    """
    path = Path(path)
    content = spooled(path)
    if content is not None:  # gzip is told by its magic number here: a pipe's name has no .gz
        if content[:2] == GZIP_MAGIC:
            return cast(IO[bytes], _CheckedGzipFile(path, io.BytesIO(content)))
        return io.BytesIO(content)
    try:
        if path.suffix == ".gz":
            return cast(IO[bytes], _CheckedGzipFile(path))  # typeshed's GzipFile is a BufferedIOBase, not an IO
        return open(path, "rb")
    except FileNotFoundError:
        raise InputError(path, None, None, "no such file") from None
    except IsADirectoryError:
        raise InputError(path, None, None, "is a directory, expected a file") from None
    except PermissionError:
        raise InputError(path, None, None, "permission denied") from None
    except OSError as error:  # a name too long, a symbolic link that loops, an I/O error
        raise InputError(path, None, None, f"cannot be read: {error.strerror or error}") from None


_spool: dict[tuple[int, int], bytes] = {}


def spooled(path: str | os.PathLike[str]) -> bytes | None:
    """The whole content of a pipe, FIFO or character device (``None`` for a regular file or a directory), read
    at its first use and kept for the next ones (by device and inode, so another pipe is read afresh).

    A stream can be read only once: format detection read its first lines and the reader then found the rest,
    or nothing. Lines are capped as everywhere (``--max-line-mib``). ``forget_spooled`` empties the store
    (each command starts with it empty).
    """
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    if stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode):
        return None
    key = (info.st_dev, info.st_ino)
    if key not in _spool:
        try:
            with open(path, "rb") as handle:
                _spool[key] = read_capped(handle, path)
        except OSError as error:
            raise InputError(path, None, None, f"cannot be read: {error.strerror or error}") from None
    return _spool[key]


def forget_spooled() -> None:
    """Drop the streams ``spooled`` holds."""
    _spool.clear()


def is_stream(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a pipe, FIFO, socket or device rather than a file one can seek in."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


class _CheckedGzipFile(gzip.GzipFile):
    """A gzip reader whose decompression errors (not gzip, corrupt, truncated) are ``InputError``s."""

    def __init__(self, path: Path, content: IO[bytes] | None = None):
        self._argue_path = path
        if content is None:
            super().__init__(path, "rb")
        else:
            super().__init__(os.fspath(path), "rb", fileobj=content)

    def _failed(self, error: Exception) -> InputError:
        return InputError(self._argue_path, None, None, f"cannot decompress this .gz file ({error}); is it gzip, and complete?")

    def read(self, size: int | None = -1) -> bytes:
        try:
            return super().read(size)
        except (OSError, EOFError, zlib.error) as error:
            raise self._failed(error) from None

    def read1(self, size: int = -1) -> bytes:
        try:
            return super().read1(size)
        except (OSError, EOFError, zlib.error) as error:
            raise self._failed(error) from None

    def readline(self, size: int | None = -1) -> bytes:
        try:
            return super().readline(size)
        except (OSError, EOFError, zlib.error) as error:
            raise self._failed(error) from None


MAX_LINE_MIB = 64
"""Default cap on one line's length, in MiB (``argue-eval --max-line-mib``): far above any real record."""
_max_line_bytes = MAX_LINE_MIB * 1024 * 1024


def set_max_line_bytes(limit: int) -> None:
    """Set the line-length cap every reader applies (the CLI's ``--max-line-mib``)."""
    global _max_line_bytes
    if limit < 1:
        raise ValueError("the line-length cap must be positive")
    _max_line_bytes = int(limit)


def _line_too_long(path: str | os.PathLike[str], lineno: int) -> InputError:
    limit = _max_line_bytes
    size = f"{limit // (1024 * 1024)} MiB" if limit >= 1024 * 1024 else f"{limit} bytes"
    return InputError(
        path, lineno, None,
        f"line longer than {size} (a file without line breaks, or not a text file?); "
        "raise the cap with argue-eval --max-line-mib N if the line is genuine",
    )


def iter_lines(handle: IO[bytes], path: str | os.PathLike[str]) -> Iterator[tuple[int, bytes]]:
    """``(line_number, raw_line)`` for each line of an open binary file, refusing a line over the cap
    (the cap counts the line's bytes without its newline).

    Reading never holds more than one capped line: a gzip bomb that expands to gigabytes without a newline
    is a located error, not a ``MemoryError``.
    """
    limit = _max_line_bytes
    lineno = 0
    while True:
        raw = handle.readline(limit + 1)
        if not raw:
            return
        lineno += 1
        if len(raw) > limit and not raw.endswith(b"\n"):
            raise _line_too_long(path, lineno)
        yield lineno, raw


def text_lines(path: str | os.PathLike[str]) -> Generator[str, None, None]:
    """The lines of a UTF-8 text file (a BOM dropped, line ends kept, capped like ``iter_lines``) for
    ``csv.reader``, which accepts any iterable of lines; bad UTF-8 is a located error. A generator, so a
    reader that stops early can close it (``contextlib.closing``) and the file closes at once."""
    with open_binary(path) as handle:
        for lineno, raw in iter_lines(handle, path):
            if lineno == 1 and raw.startswith(BOM):
                raw = raw[len(BOM):]
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError as err:
                raise InputError(path, lineno, None, f"invalid UTF-8 at byte {err.start + 1} of the line "
                                 "(save the file as UTF-8)") from None


def read_capped(handle: IO[bytes], path: str | os.PathLike[str]) -> bytes:
    """The whole content of an open binary file, refusing (with its line number) a line over the cap."""
    limit = _max_line_bytes
    chunks: list[bytes] = []
    lineno = 1
    run = 0  # bytes since the last newline
    while True:
        chunk = handle.read(1024 * 1024)
        if not chunk:
            return b"".join(chunks)
        last = chunk.rfind(b"\n")
        if last < 0:
            run += len(chunk)
        else:
            first = chunk.find(b"\n")
            if run + first > limit:
                raise _line_too_long(path, lineno)
            # a line between the chunk's first and last newline is no longer than that stretch: split only when it could be too long
            if last - first > limit and _longest_line(chunk[first + 1: last + 1]) > limit:
                for offset, line in enumerate(chunk[first + 1: last + 1].split(b"\n")):
                    if len(line) > limit:
                        raise _line_too_long(path, lineno + 1 + offset)
            lineno += chunk.count(b"\n")
            run = len(chunk) - last - 1
        if run > limit:
            raise _line_too_long(path, lineno)
        chunks.append(chunk)


def _longest_line(data: bytes) -> int:
    return max(map(len, data.split(b"\n"))) if data else 0


_lenient = False
_warned: set[str] = set()
LENIENT_HINT = "; read it anyway with --lenient"


def set_lenient(on: bool) -> None:
    """Read JSON Lines leniently (the CLI's ``--lenient``): pretty-printed objects, objects concatenated
    without newlines and a JSON array of records are accepted, with one warning per file saying what was
    repaired. Strict (off) is the default; the validators report the repair as one of the file's problems
    (``iter_jsonl(on_repair=...)``)."""
    global _lenient
    _lenient = bool(on)
    if not on:
        _warned.clear()


def is_lenient() -> bool:
    return _lenient


def iter_jsonl(path: str | os.PathLike[str], on_repair: Callable[[str], None] | None = None) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_number, object)`` for every non-blank line; raise ``InputError`` naming the fault.

    Line numbers are 1-based, as editors and ``FILE:LINE`` messages count them. Each value must be a
    JSON object: readers index fields by name and a bare list or number means the file is not JSON Lines.
    In lenient mode (:func:`set_lenient`) a line that is not one object makes the rest of the file be read
    by :func:`lenient_objects` (objects numbered by the line they start on), with one warning, or, with
    ``on_repair``, a call saying what was repaired instead (a validator counts it among the file's problems).
    """
    with open_binary(path) as handle:
        for lineno, raw in iter_lines(handle, path):
            if not raw.strip():
                continue
            try:
                value = orjson.loads(raw)
            except orjson.JSONDecodeError as error:
                problem = diagnose_line(path, lineno, raw, handle, error)
                if not _lenient or not _repairable(problem):
                    raise problem from None
                yield from _rest_leniently(path, lineno, on_repair)
                return
            if not isinstance(value, dict):
                if _lenient and isinstance(value, list) and lineno == _first_content_line(path):
                    yield from _rest_leniently(path, lineno, on_repair)
                    return
                hint = LENIENT_HINT if isinstance(value, list) else ""
                raise InputError(
                    path, lineno, None, f"expected a JSON object on each line, found {_json_type(value)}{hint}"
                )
            yield lineno, value


_REPAIRABLE = ("looks pretty-printed", "concatenated without newlines")


def _repairable(problem: InputError) -> bool:
    return any(text in str(problem) for text in _REPAIRABLE)


def _first_content_line(path: str | os.PathLike[str]) -> int:
    with open_binary(path) as handle:
        for lineno, raw in iter_lines(handle, path):
            if raw.strip():
                return lineno
    return 0


def _rest_leniently(path: str | os.PathLike[str], from_line: int,
                    on_repair: Callable[[str], None] | None = None) -> Iterator[tuple[int, Any]]:
    """The objects starting on or after ``from_line`` (earlier lines were whole objects, already read)."""
    objects, repair = lenient_objects(path)
    if repair and on_repair is not None:
        on_repair(repair)
    elif repair:
        warn_once(path, f"read leniently: {repair}")
    for lineno, value in objects:
        if lineno >= from_line:
            yield lineno, value


def warn_once(path: str | os.PathLike[str], message: str) -> None:
    """``FILE: warning: message`` on stderr, once per file and message."""
    key = f"{os.fspath(path)}\0{message}"
    if key not in _warned:
        _warned.add(key)
        sys.stderr.write(f"{os.fspath(path)}: warning: {message}\n")


def lenient_objects(path: str | os.PathLike[str]) -> tuple[list[tuple[int, dict[str, Any]]], str | None]:
    """Every JSON object of a file that holds JSON Lines, pretty-printed objects, objects concatenated
    without newlines, or one JSON array of objects; each with the line it starts on; and what was repaired
    (``None`` for well-formed JSON Lines). Anything else is a located ``InputError``.

    The whole file is read (capped like every reader): files that need repairing are small hand-made ones.
    """
    with open_binary(path) as handle:
        data = read_capped(handle, path)
    if data.startswith(BOM):
        data = data[len(BOM):]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(path, data[: err.start].count(b"\n") + 1, None, "invalid UTF-8 (the file must be UTF-8 encoded)") from None
    decoder = json.JSONDecoder()
    objects: list[tuple[int, dict[str, Any]]] = []
    multi_line = same_line = 0
    pos, line, last_line = 0, 1, 0
    length = len(text)
    while True:
        match = re.compile(r"\s*").match(text, pos)
        assert match is not None
        line += text.count("\n", pos, match.end())
        pos = match.end()
        if pos >= length:
            break
        try:
            value, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as err:
            raise InputError(path, err.lineno, None, f"invalid JSON: {err.msg} (column {err.colno})") from None
        except RecursionError:
            raise InputError(path, line, None, _TOO_DEEP) from None
        spans = text.count("\n", pos, end)
        if isinstance(value, list) and not objects and text[end:].strip() == "":
            return _array_records(path, value, line), f"a JSON array of {len(value)} records"
        if not isinstance(value, dict):
            raise InputError(path, line, None, f"expected a JSON object, found {_json_type(value)}")
        if spans:
            multi_line += 1
        if line == last_line:
            same_line += 1
        objects.append((line, value))
        last_line = line + spans
        line += spans
        pos = end
    repairs = []
    if multi_line:
        repairs.append(f"{multi_line} pretty-printed object{'s' if multi_line != 1 else ''} (over several lines)")
    if same_line:
        repairs.append(f"{same_line} object{'s' if same_line != 1 else ''} concatenated to the one before without a newline")
    return objects, ("; ".join(repairs) + f"; {len(objects)} records") if repairs else None


def _array_records(path: str | os.PathLike[str], values: list[Any], line: int) -> list[tuple[int, dict[str, Any]]]:
    for index, value in enumerate(values):
        if not isinstance(value, dict):
            raise InputError(path, line, f"[{index}]", f"expected a JSON object, found {_json_type(value)}")
    return [(line, value) for value in values]


def read_json(path: str | os.PathLike[str]) -> Any:
    """Read a whole (possibly pretty-printed) JSON document, e.g. one Auto-ARGUE NuggetBank v3 file."""
    with open_binary(path) as handle:
        data = read_capped(handle, path)
    if data.startswith(BOM):
        raise InputError(path, 1, None, _BOM_MESSAGE)
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as strict:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            line = data[: err.start].count(b"\n") + 1
            raise InputError(path, line, None, "invalid UTF-8 (the file must be UTF-8 encoded)") from None
        try:
            json.loads(text)
        except json.JSONDecodeError as err:  # the standard library words most syntax errors more plainly
            raise InputError(path, err.lineno, None, f"invalid JSON: {err.msg} (column {err.colno})") from None
        except RecursionError:
            raise InputError(path, strict.lineno, None, _TOO_DEEP) from None
        # Python accepts what JSON does not (NaN, Infinity, 1e400, lone surrogates): orjson says which.
        raise InputError(path, strict.lineno, None, _strict_message(text, strict)) from None


_BOM_MESSAGE = (
    "file starts with a UTF-8 byte-order mark (BOM); JSON Lines must not have one: save the file as UTF-8 without BOM"
)


_TOO_DEEP = "invalid JSON: arrays or objects nested too deeply (more than 1024 levels); no format we read nests so"


def _json_type(value: Any) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number"
    )


def _strict_message(text: str, error: orjson.JSONDecodeError) -> str:
    """orjson's complaint about text that Python's lenient parser accepts, in the user's terms."""
    if "recursion" in error.msg.lower() or "depth limit" in error.msg.lower():
        return _TOO_DEEP
    if text[error.pos:].lstrip("-").startswith(("NaN", "Infinity")):
        return f"invalid JSON: NaN and Infinity are not JSON numbers (column {error.colno}); write a number or null"
    return f"invalid JSON: {error.msg} (column {error.colno})"


def diagnose_line(
    path: str | os.PathLike[str], lineno: int, raw: bytes, handle: IO[bytes], error: orjson.JSONDecodeError
) -> InputError:
    """Explain why ``raw`` (line ``lineno``, which orjson refused with ``error``) is not one JSON object.

    Only called on failure, so it may be slow: it re-parses the line with the standard library, whose
    partial parse tells a pretty-printed object from a glued or truncated one.
    """
    if lineno == 1 and raw.startswith(BOM):
        return InputError(path, lineno, None, _BOM_MESSAGE)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        return InputError(
            path, lineno, None, f"invalid UTF-8 at byte {err.start + 1} of the line (the file must be UTF-8 encoded)"
        )
    stripped = text.strip()
    if not stripped.startswith(("{", "[")):
        return InputError(path, lineno, None, f"invalid JSON: this line is not a JSON object ({stripped[:30]!r})")
    decoder = json.JSONDecoder()
    try:
        _, end = decoder.raw_decode(stripped)
    except RecursionError:
        return InputError(path, lineno, None, _TOO_DEEP)
    except json.JSONDecodeError as err:
        # The text ends before the value does: past the end, or inside a string that never closes.
        ran_out = err.pos >= len(stripped) or err.msg.startswith("Unterminated string")
        if ran_out or stripped in ("{", "["):
            ends_file = not raw.endswith(b"\n") and not handle.read(1)
            if ends_file:
                return InputError(
                    path, lineno, None, "truncated last line: the JSON object is cut off before it ends"
                )
            return InputError(
                path,
                lineno,
                None,
                "the JSON object starting here does not end on this line: the file looks pretty-printed; "
                "JSON Lines needs exactly one object per line" + LENIENT_HINT,
            )
        return InputError(path, lineno, None, f"invalid JSON: {err.msg} (column {err.colno})")
    rest = stripped[end:].lstrip()
    if rest.startswith(("{", "[")):
        return InputError(
            path,
            lineno,
            None,
            "several JSON objects on one line (concatenated without newlines); JSON Lines needs one object per line"
            + LENIENT_HINT,
        )
    if rest:
        return InputError(path, lineno, None, f"invalid JSON: unexpected text after the object at column {end + 1}")
    return InputError(path, lineno, None, _strict_message(text, error))
