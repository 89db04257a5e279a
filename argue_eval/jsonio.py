"""Streaming JSON Lines input and atomic output.

Participant files are untrusted and often subtly broken: pretty-printed objects, objects glued together
without newlines, a byte-order mark, bad UTF-8, a last line cut short by a failed upload. The fast path
parses each line with orjson; only when a line fails do we run the slower diagnosis that names the
problem, so a well-formed 1 GB file costs one pass and a broken one gets a precise message.
"""
from __future__ import annotations

import gzip
import io
import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import orjson

from .errors import InputError

BOM = b"\xef\xbb\xbf"


def open_binary(path: str | os.PathLike[str]) -> IO[bytes]:
    """Open a file for binary reading, transparently un-gzipping ``*.gz``."""
    path = Path(path)
    try:
        if path.suffix == ".gz":
            return gzip.open(path, "rb")
        return open(path, "rb")
    except FileNotFoundError:
        raise InputError(path, None, None, "no such file") from None
    except IsADirectoryError:
        raise InputError(path, None, None, "is a directory, expected a file") from None
    except PermissionError:
        raise InputError(path, None, None, "permission denied") from None


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
            except orjson.JSONDecodeError:
                raise _diagnose(path, lineno, raw, handle) from None
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
    except orjson.JSONDecodeError:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            line = data[: err.start].count(b"\n") + 1
            raise InputError(path, line, None, "invalid UTF-8 (the file must be UTF-8 encoded)") from None
        try:
            json.loads(text)
        except json.JSONDecodeError as err:
            raise InputError(path, err.lineno, None, f"invalid JSON: {err.msg} (column {err.colno})") from None
        raise InputError(path, None, None, "invalid JSON") from None


_BOM_MESSAGE = (
    "file starts with a UTF-8 byte-order mark (BOM); JSON Lines must not have one: save the file as UTF-8 without BOM"
)


def _json_type(value: Any) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number"
    )


def _diagnose(path: str | os.PathLike[str], lineno: int, raw: bytes, handle: IO[bytes]) -> InputError:
    """Explain why ``raw`` (line ``lineno``) is not one JSON object, in the terms a user can act on."""
    if lineno == 1 and raw.startswith(BOM):
        return InputError(path, lineno, None, _BOM_MESSAGE)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        return InputError(
            path, lineno, None, f"invalid UTF-8 at byte {err.start + 1} of the line (the file must be UTF-8 encoded)"
        )
    stripped = text.strip()
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
    return InputError(path, lineno, None, f"invalid JSON: unexpected text after the object at column {end + 1}")


@contextmanager
def atomic_writer(path: str | os.PathLike[str], mode: str = "w", encoding: str | None = "utf-8") -> Iterator[IO[Any]]:
    """Write to a temporary file beside ``path`` and move it into place only when the block succeeds.

    A crash or a user error half way leaves the previous file (or none), never a truncated output that a
    later step could mistake for a complete one.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.chmod(tmp_name, 0o666 & ~_current_umask())  # mkstemp makes 0600 files; outputs get the usual mode
    kwargs: dict[str, Any] = {} if "b" in mode else {"encoding": encoding, "newline": "\n"}
    try:
        with io.open(fd, mode, **kwargs) as handle:
            yield handle
        os.replace(tmp_name, target)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise


def _current_umask() -> int:
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
