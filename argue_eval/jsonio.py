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
import re
import shutil
import socket
import stat
import sys
import tempfile
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
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


MAX_LINE_MIB = 64
"""Default cap on one line's length, in MiB (``argue-eval --max-line-mib``): far above any real record."""
_max_line_bytes = MAX_LINE_MIB * 1024 * 1024


def set_max_line_bytes(limit: int) -> None:
    """Set the line-length cap every reader applies (the CLI's ``--max-line-mib``)."""
    global _max_line_bytes
    if limit < 1:
        raise ValueError("the line-length cap must be positive")
    _max_line_bytes = int(limit)


def max_line_bytes() -> int:
    return _max_line_bytes


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


def text_lines(path: str | os.PathLike[str]) -> Iterator[str]:
    """The lines of a UTF-8 text file (a BOM dropped, line ends kept, capped like ``iter_lines``) for
    ``csv.reader``, which accepts any iterable of lines; bad UTF-8 is a located error."""
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
    repaired. Strict (off) is the default, and ``validate`` never reads leniently."""
    global _lenient
    _lenient = bool(on)
    if not on:
        _warned.clear()


def is_lenient() -> bool:
    return _lenient


def iter_jsonl(path: str | os.PathLike[str]) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_number, object)`` for every non-blank line; raise ``InputError`` naming the fault.

    Line numbers are 1-based, as editors and ``FILE:LINE`` messages count them. Each value must be a
    JSON object: readers index fields by name and a bare list or number means the file is not JSON Lines.
    In lenient mode (:func:`set_lenient`) a line that is not one object makes the rest of the file be read
    by :func:`lenient_objects` (objects numbered by the line they start on), with one warning.
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
                yield from _rest_leniently(path, lineno)
                return
            if not isinstance(value, dict):
                if _lenient and isinstance(value, list) and lineno == _first_content_line(path):
                    yield from _rest_leniently(path, lineno)
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


def _rest_leniently(path: str | os.PathLike[str], from_line: int) -> Iterator[tuple[int, Any]]:
    """The objects starting on or after ``from_line`` (earlier lines were whole objects, already read)."""
    objects, repair = lenient_objects(path)
    if repair:
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


_TEMP_SUFFIX = ".tmp"


def temp_tag() -> str:
    """``HOST-PID``: who owns a temporary file, so a later run can tell a dead writer's leftovers from a live one's."""
    host = re.sub(r"[^A-Za-z0-9_-]", "_", socket.gethostname())[:40] or "host"
    return f"{host}-{os.getpid()}"


def temp_file_beside(path: str | os.PathLike[str]) -> Path:
    """Create an empty temporary file in ``path``'s directory (made if needed) with the usual mode bits.

    Writing there and then ``os.replace``-ing it over ``path`` is atomic (same file system). ``mkstemp``
    makes 0600 files; outputs get the mode the umask gives any new file, so shared outputs stay readable.
    The name ``.NAME.HOST-PID.XXXXXXXX.tmp`` says whose it is: ``remove_stale_temps`` deletes those whose
    process is gone (a writer killed with SIGKILL cannot clean up after itself).
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temps(target)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.{temp_tag()}.", suffix=_TEMP_SUFFIX, dir=target.parent)
    os.close(fd)
    os.chmod(name, 0o666 & ~current_umask())
    return Path(name)


def remove_stale_temps(path: str | os.PathLike[str]) -> list[Path]:
    """Delete the temporary files of ``path`` left by writers of this host that no longer run; return them.

    Only names of our own pattern are touched, and only when their process id is dead on this host, so a
    concurrent writer (here or on another machine sharing the directory) never loses its file.
    """
    target = Path(path)
    host = temp_tag().rsplit("-", 1)[0]
    pattern = re.compile(re.escape(f".{target.name}.{host}-") + r"(\d+)\.[^.]+" + re.escape(_TEMP_SUFFIX))
    removed: list[Path] = []
    try:
        names = os.listdir(target.parent)
    except OSError:
        return removed
    for name in names:
        match = pattern.fullmatch(name)
        if match is None or _pid_alive(int(match.group(1))):
            continue
        stale = target.parent / name
        try:
            if stale.is_dir() and not stale.is_symlink():  # a staging directory (NuggetBank v3 output)
                shutil.rmtree(stale)
            else:
                stale.unlink()
        except OSError:
            continue
        removed.append(stale)
    return removed


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # another user's process, or a pid we cannot ask about: leave its file alone
    return True


STDOUT = "-"
"""The output name that means standard output, for every command that writes a file."""


def is_stdout(path: str | os.PathLike[str] | None) -> bool:
    return path is not None and os.fspath(path) == STDOUT


def _write_error(target: str | os.PathLike[str], error: OSError) -> Exception:
    if isinstance(error, BrokenPipeError) and target == "<stdout>":
        return error  # ``argue-eval ... -o - | head``: the reader is done, not an error (the CLI exits quietly)
    return InputError(target, None, None, f"cannot write the output: {error.strerror or error}")


def _writes_in_place(target: Path) -> bool:
    """Whether ``target`` must be written directly instead of replaced: a device, FIFO, socket, ``/dev/*``.

    Renaming a temporary file over ``/dev/null`` or a FIFO would replace the special file with a regular one
    (and, run as root, break the machine); ``/dev/stdout`` and friends name an already open stream.
    """
    text = os.fspath(target)
    if text.startswith(("/dev/", "/proc/")):
        return True
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


class _Output:
    """The handle an ``atomic_writer`` block writes to.

    The file behind it is opened only at the first write (a command that fails while still reading its inputs
    leaves nothing behind, not even a temporary file), and a failing write (disk full, ``/dev/full``, a closed
    pipe's peer gone) becomes an ``InputError`` naming the output instead of a traceback or a silent success.
    """

    def __init__(self, label: str, opener, owned: bool = True):
        self._label = label
        self._opener = opener
        self._owned = owned
        self._file: IO[Any] | None = None

    @property
    def opened(self) -> bool:
        return self._file is not None

    def _handle(self) -> IO[Any]:
        if self._file is None:
            try:
                self._file = self._opener()
            except OSError as error:
                raise _write_error(self._label, error) from None
        return self._file

    def write(self, data: Any) -> int:
        try:
            return self._handle().write(data)
        except OSError as error:
            raise _write_error(self._label, error) from None

    def writelines(self, lines: Iterable[Any]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if self._file is not None:
            try:
                self._file.flush()
            except OSError as error:
                raise _write_error(self._label, error) from None

    def finish(self, sync: bool = False) -> None:
        """Open (an empty output is still an output), flush, optionally fsync, and close what we own."""
        handle = self._handle()
        try:
            handle.flush()
            if sync:
                os.fsync(handle.fileno())
            if self._owned:
                handle.close()
        except OSError as error:
            raise _write_error(self._label, error) from None

    def discard(self) -> None:
        if self._file is not None and self._owned:
            try:
                self._file.close()
            except OSError:
                pass

    def __getattr__(self, name: str) -> Any:  # anything else a writer may use (fileno, encoding, ...)
        return getattr(self._handle(), name)


_pending_commit: ContextVar[list[tuple[Path, Path]] | None] = ContextVar("_pending_commit", default=None)


@contextmanager
def commit_together() -> Iterator[None]:
    """Make every ``atomic_writer`` inside the block hold its finished temporary file until the block ends,
    then move them all into place at once; if the block fails, none is.

    A command with several outputs (``pool``: the pool, its tables and the assessor package) thus leaves the
    old set or the new set, not a new pool beside an old package. (The renames themselves are consecutive
    system calls, microseconds apart, after every file is fully written and synced.)
    """
    outer = _pending_commit.get()
    if outer is not None:  # nested: the outermost block commits
        yield
        return
    pending: list[tuple[Path, Path]] = []
    token = _pending_commit.set(pending)
    try:
        yield
    except BaseException:
        for tmp, _ in pending:
            tmp.unlink(missing_ok=True)
        raise
    finally:
        _pending_commit.reset(token)
    for tmp, target in pending:
        os.replace(tmp, target)


@contextmanager
def atomic_writer(path: str | os.PathLike[str], mode: str = "w", encoding: str | None = "utf-8") -> Iterator[IO[Any]]:
    """Write to a temporary file beside ``path`` and move it into place only when the block succeeds.

    A crash or a user error half way leaves the previous file (or none), never a truncated output that a
    later step could mistake for a complete one. An output path that cannot be written (a directory, a
    missing or read-only place) is an ``InputError`` naming it, as is a write that fails (disk full).

    ``-`` is standard output. A symbolic link is written through: its target is replaced atomically, the
    link stays. A path that is not a regular file (``/dev/null``, ``/dev/stdout``, a FIFO, a terminal) is
    written directly, never replaced. The temporary file is created at the first write, and temporary
    files that killed writers left beside ``path`` are removed.
    """
    text_kwargs: dict[str, Any] = {} if "b" in mode else {"encoding": encoding, "newline": "\n"}
    if is_stdout(path):
        stream = _stdout_stream(binary="b" in mode)
        output = _Output("<stdout>", lambda: stream, owned=False)
        yield output  # type: ignore[misc]
        output.finish()
        return
    given = Path(path)
    if given.is_dir():
        raise InputError(given, None, None, "is a directory; give the output a file name")
    target = Path(os.path.realpath(given)) if given.is_symlink() else given
    if _writes_in_place(given) or _writes_in_place(target):
        output = _Output(str(given), lambda: open(given, mode, **text_kwargs))
        try:
            yield output  # type: ignore[misc]
            output.finish()
        except BaseException:
            output.discard()
            raise
        return
    if target.is_dir():
        raise InputError(given, None, None, f"is a link to a directory ({target}); give the output a file name")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        if not os.access(target.parent, os.W_OK):
            raise PermissionError(13, "Permission denied")
    except OSError as error:
        raise InputError(given, None, None, f"cannot write the output here: {error.strerror or error}") from None
    remove_stale_temps(target)
    created: list[Path] = []

    def opener() -> IO[Any]:
        tmp = temp_file_beside(target)
        created.append(tmp)
        return open(tmp, mode, **text_kwargs)

    output = _Output(str(given), opener)
    try:
        yield output  # type: ignore[misc]
        output.finish(sync=True)
        pending = _pending_commit.get()
        if pending is not None:
            pending.append((created[0], target))
        else:
            os.replace(created[0], target)
    except BaseException:
        output.discard()
        for tmp in created:
            tmp.unlink(missing_ok=True)
        raise


def _stdout_stream(binary: bool) -> IO[Any]:
    """The current standard output (looked up at call time, so click's test runner can capture it)."""
    return sys.stdout.buffer if binary else sys.stdout


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
