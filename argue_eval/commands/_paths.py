"""File options by role, and the one check every command runs before its body: an output never destroys an input.

A command's file options are typed by what the command does with them: ``InputPath`` (read), ``OutputPath``
(written: ``-o``, ``--details``, ``--package``, ...) and ``UpdatedPath`` (read and written in place: the
judgment cache, the file ``requests new`` appends to). ``check_paths`` reads those roles off the command's
parameters (``cli.py`` runs it before every command's callback), so a new command gets the check by typing
its options, not by calling anything:

- an output that resolves to one of the command's inputs (same device and inode; through a symbolic link or
  a hard link; a directory output holding an input, an output inside an input directory) is refused;
- two outputs on one file (``score -o x --details x``; ``pool``'s default ``OUT.runs.tsv`` named again) and
  two outputs on standard output are refused;
- the judgment cache may be neither an input nor an output;
- an output through a dangling or planted symbolic link is refused (``writing.refuse_unsafe_output``);

all with exit status 2 before any file is read. Devices, FIFOs and ``-`` are streams, never replaced, and
are not compared.
"""
from __future__ import annotations

import errno
import functools
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from ..errors import InputError, OptionError

__all__ = ["CheckedPath", "InputPath", "OutputPath", "UpdatedPath", "check_paths", "add_path_check", "default_cache_path", "file_role"]


class CheckedPath(click.Path):
    """A ``click.Path`` that refuses, at the flag, a name no file system takes and a symbolic link that loops (the
    index and cache directories the kit keeps; the base of the typed file options below)."""

    def __init__(self, *, exists: bool = False, file_okay: bool = True, dir_okay: bool = True,
                 readable: bool = False, path_type: Any = None):
        super().__init__(exists=exists, file_okay=file_okay, dir_okay=dir_okay, readable=readable,
                         path_type=path_type)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """A name no file system takes, or a symbolic link that loops, is refused at the flag: every later
        look at the path (exists? a directory?) would fail with an OSError."""
        if isinstance(value, (str, os.PathLike)) and os.fspath(value) != "-":
            try:
                os.stat(value)
            except OSError as error:
                if error.errno == errno.ENAMETOOLONG:
                    longest = max(len(os.fsencode(part)) for part in Path(value).parts)
                    self.fail(f"{os.fspath(value)!r}: the name is too long for the file system (a part of {longest} "
                              "bytes; most file systems take at most 255)", param, ctx)
                if error.errno == errno.ELOOP:
                    self.fail(f"{os.fspath(value)!r} is a symbolic link that loops back on itself", param, ctx)
            except ValueError:  # a NUL byte in the name
                self.fail(f"{os.fspath(value)!r} is not a usable file name", param, ctx)
            if not self.file_okay and os.path.lexists(value) and not os.path.isdir(value):
                # a directory option (an index, a cache) is replaced whole: never over a FIFO, a device or a link
                # to nothing, which a rename would swap out or fail on after the work was done
                what = "a symbolic link to nothing" if os.path.islink(value) else "not a directory"
                self.fail(f"{os.fspath(value)!r} is {what}; give a directory, or a name not yet taken", param, ctx)
        return super().convert(value, param, ctx)


class _RolePath(CheckedPath):
    """A ``CheckedPath`` that says what the command does with the file (``role``). ``folder``: the value may be a
    directory read or written as a whole (a NuggetBank v3, a Lucene index), so an output inside an input folder,
    or an output folder holding an input, is refused too."""

    role = ""

    def __init__(self, *, folder: bool = False, **kwargs: Any):
        super().__init__(**kwargs)
        self.folder = folder


class InputPath(_RolePath):
    """A file (or directory, or collection spec such as ``irds:ID``) the command reads. ``nonempty``: a file with
    nothing but white space in it is refused at the flag (a table of nothing would look like a result)."""

    role = "input"

    def __init__(self, *, nonempty: bool = False, **kwargs: Any):
        super().__init__(**kwargs)
        self.nonempty = nonempty

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        value = super().convert(value, param, ctx)
        if self.nonempty and not _has_content(value):
            self.fail(f"{os.fspath(value)!r} is empty", param, ctx)
        return value


class OutputPath(_RolePath):
    """A file the command writes (``-`` is standard output).

    ``companions`` are the files written beside it, by suffix (``{".manifest.json": None}``: judge's
    manifest), each with the option that, when given, writes it elsewhere instead (``pool``'s ``.runs.tsv``
    and ``--contributions``).
    """

    role = "output"

    def __init__(self, *, companions: dict[str, str | None] | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.companions = dict(companions or {})


class UpdatedPath(_RolePath):
    """A file the command both reads and writes (the judgment cache, ``requests new``'s file): it may be no
    other input or output. ``default`` is the path used when the option is not given, unless the flag
    ``disabled_by`` is."""

    role = "updated"

    def __init__(self, *, default: Callable[[], str] | None = None, disabled_by: str | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.default = default
        self.disabled_by = disabled_by


def default_cache_path() -> str:
    """The judgment cache a command uses when ``--cache`` is not given (looked up only when needed)."""
    from ..judges.cache import DEFAULT_CACHE_PATH

    return str(DEFAULT_CACHE_PATH)


def _has_content(path: Any) -> bool:
    """Whether ``path`` holds anything but white space (a directory, a missing file: yes, for the reader to
    judge; a pipe is read once and kept, see ``reading.spooled``)."""
    from ..errors import InputError
    from ..reading import open_binary

    try:
        if os.path.isdir(path) or not os.path.exists(path):
            return True
        with open_binary(path) as handle:
            while chunk := handle.read(1 << 16):
                if chunk.strip():
                    return True
    except (InputError, OSError):
        return True  # unreadable: the reader says why
    return False


def file_role(param: click.Parameter) -> str | None:
    """``input``, ``output``, ``updated``, or ``None`` for a parameter that is not a file."""
    return getattr(param.type, "role", None) or None


@dataclass(frozen=True)
class _Named:
    """One file a command was given: which option names it and what was typed."""

    flag: str
    value: str
    folder: bool = False


def _flag(param: click.Parameter) -> str:
    if isinstance(param, click.Option):
        return param.opts[0]  # as the command declares it: -o for most outputs
    return (param.metavar or param.name or "PATH").strip("[]. ").upper()


def _values(value: Any) -> Iterator[str]:
    if value is None:
        return
    if isinstance(value, (tuple, list)):
        for item in value:
            yield from _values(item)
        return
    yield os.fspath(value)


def _files(ctx: click.Context) -> tuple[list[_Named], list[_Named], list[_Named]]:
    """The inputs, outputs (companions included) and updated files of the invocation ``ctx``."""
    inputs: list[_Named] = []
    outputs: list[_Named] = []
    updated: list[_Named] = []
    for param in ctx.command.params:
        kind = param.type
        role = file_role(param)
        if role is None or param.name is None:
            continue
        flag = _flag(param)
        values = list(_values(ctx.params.get(param.name)))
        if isinstance(kind, UpdatedPath) and not values and kind.default is not None:
            if not (kind.disabled_by and ctx.params.get(kind.disabled_by)):
                values = [kind.default()]
        for value in values:
            named = _Named(flag, value, getattr(kind, "folder", False))
            if role == "input":
                inputs.append(named)
            elif role == "updated":
                updated.append(named)
            else:
                outputs.append(named)
                if value != "-" and isinstance(kind, OutputPath):
                    outputs += [_Named(f"{flag}'s {suffix.lstrip('.')} file", value + suffix)
                                for suffix, instead in kind.companions.items()
                                if instead is None or ctx.params.get(instead) is None]
    return inputs, outputs, updated


def _identity(path: str) -> tuple[Any, ...] | None:
    """What makes two names one file: device and inode when it exists, else the fully resolved path; ``None``
    for a stream (device, FIFO, socket), which is written in place and never replaced."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return ("path", os.path.realpath(path))
    if not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)):
        return None
    return ("inode", info.st_dev, info.st_ino)


def _is_dir(path: str) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _inside(inner: str, outer: str) -> bool:
    """Whether ``inner`` lies under the directory ``outer`` (both resolved)."""
    inner_real, outer_real = os.path.realpath(inner), os.path.realpath(outer)
    return inner_real != outer_real and os.path.commonpath([inner_real, outer_real]) == outer_real


def _exists(path: str) -> bool:
    try:
        os.stat(path)
    except (OSError, ValueError):
        return False
    return True


def check_paths(ctx: click.Context) -> None:
    """Refuse, before any work, an invocation whose outputs would destroy its inputs or each other."""
    from ..writing import refuse_unsafe_output

    inputs, outputs, updated = _files(ctx)
    to_stdout = [named.flag for named in outputs if named.value == "-"]
    if len(to_stdout) > 1:
        raise OptionError(", ".join(to_stdout), "only one output can go to standard output ('-')")
    files = [named for named in outputs if named.value != "-"]
    for named in files + updated:
        refuse_unsafe_output(named.value)
    identities = {named: _identity(named.value) for named in [*inputs, *files, *updated]}
    # an input that does not exist cannot be destroyed (and may be no file at all: irds:ID, auto)
    existing_inputs = [named for named in inputs if _exists(named.value)]
    for output in files:
        for source in [*existing_inputs, *updated]:
            if identities[output] is not None and identities[output] == identities[source]:
                alias = "" if output.value == source.value else f" under another name ({source.value})"
                raise InputError(output.value, None, None, f"is also an input ({source.flag}){alias}; {output.flag} "
                                 "would destroy it: write the output to another file")
        for source in existing_inputs:
            if source.folder and _is_dir(source.value) and _inside(output.value, source.value):
                raise InputError(output.value, None, None, f"{output.flag} lies inside the input directory "
                                 f"{source.flag} ({source.value}): writing it would change that input; write the "
                                 "output elsewhere")
            if output.folder and _is_dir(output.value) and _inside(source.value, output.value):
                raise InputError(output.value, None, None, f"{output.flag} is a directory that holds the input "
                                 f"{source.flag} ({source.value}): replacing it would destroy that input; write "
                                 "the output elsewhere")
    seen: dict[tuple[Any, ...], _Named] = {}
    for named in files:
        identity = identities[named]
        if identity is None:
            continue
        if identity in seen:
            raise InputError(named.value, None, None, f"{seen[identity].flag} and {named.flag} name the same file: "
                             "one output would overwrite the other; give each its own file")
        seen[identity] = named
    for cache in updated:
        for source in existing_inputs:
            if identities[cache] is not None and identities[cache] == identities[source]:
                raise InputError(cache.value, None, None, f"is also an input ({source.flag}); {cache.flag} is "
                                 "read and written in place, so it must be a file of its own")


def add_path_check(command: click.Command) -> None:
    """Run ``check_paths`` before ``command``'s callback (every subcommand's, for a group); once per command."""
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            add_path_check(sub)
        return
    callback = command.callback
    if callback is None or getattr(callback, "paths_checked", False):
        return

    @functools.wraps(callback)
    def checked(*args: Any, **kwargs: Any) -> Any:
        check_paths(click.get_current_context())
        return callback(*args, **kwargs)

    checked.paths_checked = True  # type: ignore[attr-defined]
    command.callback = checked
