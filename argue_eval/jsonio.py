"""Streaming JSON Lines input and atomic output.

Participant files are untrusted and often subtly broken: pretty-printed objects, objects glued together
without newlines, a byte-order mark, bad UTF-8, a last line cut short by a failed upload. The fast path
parses each line with orjson; only when a line fails do we run the slower diagnosis that names the
problem, so a well-formed 1 GB file costs one pass and a broken one gets a precise message.
"""
from __future__ import annotations

import gzip
import json
import os
import tempfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import orjson

from .errors import InputError

BOM = b"\xef\xbb\xbf"


def open_binary(path: str | os.PathLike[str]) -> IO[bytes]:
    """Open a file for binary reading, transparently un-gzipping ``*.gz``.

    A ``.gz`` file that is not gzip, or is cut short, fails while it is being read, far from here; the
    handle turns those failures into an ``InputError`` naming the file instead of a traceback.
    """
    path = Path(path)
    try:
        if path.suffix == ".gz":
            return _CheckedGzipFile(path)
        return open(path, "rb")
    except FileNotFoundError:
        raise InputError(path, None, None, "no such file") from None
    except IsADirectoryError:
        raise InputError(path, None, None, "is a directory, expected a file") from None
    except PermissionError:
        raise InputError(path, None, None, "permission denied") from None


class _CheckedGzipFile(gzip.GzipFile):
    """A gzip reader whose decompression errors (not gzip, corrupt, truncated) are ``InputError``s."""

    def __init__(self, path: Path):
        self._argue_path = path
        super().__init__(path, "rb")

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


def iter_jsonl(path: str | os.PathLike[str]) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_number, object)`` for every non-blank line; raise ``InputError`` naming the fault.

    Line numbers are 1-based, as editors and ``FILE:LINE`` messages count them. Each value must be a
    JSON object: readers index fields by name and a bare list or number means the file is not JSON Lines.
    """
    with open_binary(path) as handle:
        for lineno, raw in enumerate(handle, 1):
            if not raw.strip():
                continue
            try:
                value = orjson.loads(raw)
            except orjson.JSONDecodeError as error:
                raise diagnose_line(path, lineno, raw, handle, error) from None
            if not isinstance(value, dict):
                raise InputError(
                    path, lineno, None, f"expected a JSON object on each line, found {_json_type(value)}"
                )
            yield lineno, value


def read_json(path: str | os.PathLike[str]) -> Any:
    """Read a whole (possibly pretty-printed) JSON document, e.g. one Auto-ARGUE NuggetBank v3 file."""
    with open_binary(path) as handle:
        data = handle.read()
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
        # Python accepts what JSON does not (NaN, Infinity, 1e400, lone surrogates): orjson says which.
        raise InputError(path, strict.lineno, None, _strict_message(text, strict)) from None


_BOM_MESSAGE = (
    "file starts with a UTF-8 byte-order mark (BOM); JSON Lines must not have one: save the file as UTF-8 without BOM"
)


def _json_type(value: Any) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number"
    )


def _strict_message(text: str, error: orjson.JSONDecodeError) -> str:
    """orjson's complaint about text that Python's lenient parser accepts, in the user's terms."""
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
                "JSON Lines needs exactly one object per line",
            )
        return InputError(path, lineno, None, f"invalid JSON: {err.msg} (column {err.colno})")
    rest = stripped[end:].lstrip()
    if rest.startswith(("{", "[")):
        return InputError(
            path,
            lineno,
            None,
            "several JSON objects on one line (concatenated without newlines); JSON Lines needs one object per line",
        )
    if rest:
        return InputError(path, lineno, None, f"invalid JSON: unexpected text after the object at column {end + 1}")
    return InputError(path, lineno, None, _strict_message(text, error))


def temp_file_beside(path: str | os.PathLike[str]) -> Path:
    """Create an empty temporary file in ``path``'s directory (made if needed) with the usual mode bits.

    Writing there and then ``os.replace``-ing it over ``path`` is atomic (same file system). ``mkstemp``
    makes 0600 files; outputs get the mode the umask gives any new file, so shared outputs stay readable.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    os.chmod(name, 0o666 & ~current_umask())
    return Path(name)


@contextmanager
def atomic_writer(path: str | os.PathLike[str], mode: str = "w", encoding: str | None = "utf-8") -> Iterator[IO[Any]]:
    """Write to a temporary file beside ``path`` and move it into place only when the block succeeds.

    A crash or a user error half way leaves the previous file (or none), never a truncated output that a
    later step could mistake for a complete one. An output path that cannot be written (a directory, a
    missing or read-only place) is an ``InputError`` before anything is read.
    """
    target = Path(path)
    if target.is_dir():
        raise InputError(target, None, None, "is a directory; give the output a file name")
    try:
        tmp = temp_file_beside(target)
    except OSError as error:
        raise InputError(target, None, None, f"cannot write the output here: {error.strerror or error}") from None
    kwargs: dict[str, Any] = {} if "b" in mode else {"encoding": encoding, "newline": "\n"}
    try:
        with open(tmp, mode, **kwargs) as handle:
            yield handle
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def current_umask() -> int:
    """The process umask (reading it means setting it, so it is set straight back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def dumps_line(value: Any) -> str:
    """One canonical JSON line: UTF-8 text, no ASCII escaping, keys in the order given, newline-terminated."""
    return orjson.dumps(value).decode("utf-8") + "\n"


def write_jsonl(path: str | os.PathLike[str], values: Any) -> int:
    """Atomically write an iterable of JSON-able objects as JSON Lines; return the number of lines."""
    count = 0
    with atomic_writer(path) as handle:
        for value in values:
            handle.write(dumps_line(value))
            count += 1
    return count


def write_json(path: str | os.PathLike[str], value: Any) -> None:
    """Atomically write one JSON document, indented for people (manifests, summaries)."""
    with atomic_writer(path) as handle:
        handle.write(orjson.dumps(value, option=orjson.OPT_INDENT_2).decode("utf-8") + "\n")
