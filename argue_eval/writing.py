"""Writing outputs atomically: a temporary file beside the target, renamed over it when complete.

An interrupted command never leaves a half-written output: every writer goes through ``atomic_writer``
(or ``write_jsonl``/``write_json``), and ``commit_together`` replaces several outputs of one command as a
set. ``-`` is standard output; devices and FIFOs are written in place. Reading is ``argue_eval.reading``.
"""
from __future__ import annotations

import errno
import os
import re
import shutil
import socket
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import IO, Any

import orjson

from .errors import InputError

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
    refuse_unsafe_output(given)
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
        keep_mode_and_owner(created[0], target)
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


def keep_mode_and_owner(new: str | os.PathLike[str], old: str | os.PathLike[str]) -> None:
    """Give ``new`` (a finished temporary file or directory about to replace ``old``) ``old``'s mode bits, and its
    owner and group where this process may set them (as root; a group the user belongs to).

    Replacing a file by renaming a new one over it would otherwise turn a private 0600 output into the umask's
    0644 and hand another user's file to whoever ran the command. A new output (no ``old``) keeps the mode
    the umask gives it.
    """
    try:
        before = os.stat(old)
        now = os.stat(new)
    except OSError:
        return
    if (before.st_uid, before.st_gid) != (now.st_uid, now.st_gid):
        for uid in (before.st_uid, -1):  # the owner only as root; the group alone where we belong to it
            try:
                os.chown(new, uid, before.st_gid)
                break
            except OSError:
                continue
    try:
        os.chmod(new, stat.S_IMODE(before.st_mode))  # after chown, which may clear set-id bits
    except OSError:
        pass


def refuse_unsafe_output(path: str | os.PathLike[str]) -> None:
    """Refuse to write through a symbolic link that could not be meant, with a message that says why.

    - a dangling link (the output itself, or a directory on its way): writing would create its target, and
      its missing parent directories, wherever the link points;
    - a link in a world-writable sticky directory (``/tmp``) owned neither by this user nor by the directory's
      owner: another user planted it, and following it could overwrite a file of their choosing. This is the
      rule the kernel applies with ``fs.protected_symlinks`` (which does not protect every system, nor root
      on every kernel).
    """
    if is_stdout(path):
        return
    given = Path(os.path.abspath(path))
    for link in [*reversed(given.parents), given]:
        try:
            if not stat.S_ISLNK(os.lstat(link).st_mode):
                continue
        except OSError as error:
            if error.errno == errno.ENAMETOOLONG:
                longest = max(len(os.fsencode(part)) for part in given.parts)
                raise InputError(path, None, None, f"cannot be created: the name is too long for the file system "
                                 f"(a part of {longest} bytes; most file systems take at most 255)") from None
            break  # the rest of the path does not exist yet: no link there
        what = "the output" if link == given else "a directory of the output's path"
        try:
            os.stat(link)
        except OSError as error:
            if error.errno == errno.ELOOP:
                raise InputError(path, None, None, f"{what} ({link}) is a symbolic link that loops back on itself; "
                                 "not writing through it") from None
            target = os.readlink(link)
            raise InputError(path, None, None, f"{what} ({link}) is a dangling symbolic link (to {target}, which "
                             "does not exist); not writing or creating directories through it: remove the link or "
                             "create its target first") from None
        _refuse_planted_link(path, link)


def _refuse_planted_link(path: str | os.PathLike[str], link: Path) -> None:
    """The ``fs.protected_symlinks`` rule for one link on the output's path (see ``refuse_unsafe_output``)."""
    try:
        folder = os.stat(link.parent)
        owner = os.lstat(link).st_uid
    except OSError:
        return
    if planted_link(folder.st_mode, folder.st_uid, owner, os.geteuid()):
        raise InputError(path, None, None, f"{link} is a symbolic link in the world-writable sticky directory "
                         f"{link.parent} and belongs to another user (uid {owner}), neither you nor the "
                         "directory's owner: following it could overwrite a file of that user's choosing (the "
                         "rule of the kernel's fs.protected_symlinks); write to a path you own")


def planted_link(folder_mode: int, folder_owner: int, link_owner: int, user: int) -> bool:
    """Whether a symlink owned by ``link_owner`` in a folder (mode, owner) is one the kernel's
    ``fs.protected_symlinks`` would not let ``user`` follow: a world-writable sticky folder, a link owned by
    neither the user nor the folder's owner."""
    sticky_shared = bool(folder_mode & stat.S_ISVTX) and bool(folder_mode & stat.S_IWOTH)
    return sticky_shared and link_owner not in (user, folder_owner)


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
