"""Run -> name mappings: which system a run belongs to (``compare --system``), which team submitted it
(``--team``), from ``RUN=NAME`` options and from mapping files.

A mapping file has one run per line, ``RUN NAME`` separated by a tab or spaces (a name may contain spaces
after the first separator); blank lines and lines starting with ``#`` are skipped. A run given twice with two
names is a located error (which name holds would depend on the order of the lines); with one name it is kept.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from os import PathLike

from ..errors import InputError, OptionError, id_control_character
from ..reading import text_lines

__all__ = ["read_mapping", "parse_pairs", "merge_mappings"]


def read_mapping(path: str | PathLike[str]) -> dict[str, str]:
    """The mapping in a ``RUN NAME`` file (see the module docstring)."""
    out: dict[str, str] = {}
    where: dict[str, int] = {}
    for lineno, line in enumerate(text_lines(path), 1):
        text = line.rstrip("\r\n")
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        parts = text.strip().split(None, 1)
        if len(parts) != 2 or not parts[1].strip():
            raise InputError(path, lineno, None, f"expected `RUN NAME` (two fields), found {text.strip()!r}")
        run, name = parts[0], parts[1].strip()
        bad = id_control_character(name)
        if bad:
            raise InputError(path, lineno, "name", f"control character {bad} in the name")
        if run in out and out[run] != name:
            raise InputError(path, lineno, "run", f"run {run!r} mapped to {name!r} here and to {out[run]!r} on line "
                             f"{where[run]}")
        out[run], where[run] = name, lineno
    if not out:
        raise InputError(path, None, None, "no `RUN NAME` lines (the mapping is empty)")
    return out


def parse_pairs(items: Iterable[str], option: str) -> dict[str, str]:
    """``RUN=NAME`` option values as a mapping; a value without ``=``, or a run given two names, is an
    ``OptionError`` naming ``option``."""
    out: dict[str, str] = {}
    for item in items:
        run, sep, name = item.partition("=")
        if not sep or not run.strip() or not name.strip():
            raise OptionError(option, f"expected RUN=NAME, found {item!r}")
        run, name = run.strip(), name.strip()
        if run in out and out[run] != name:
            raise OptionError(option, f"run {run!r} given two names: {out[run]!r} and {name!r}")
        out[run] = name
    return out


def merge_mappings(pairs: Mapping[str, str], files: Iterable[str | PathLike[str]], option: str) -> dict[str, str]:
    """The files' mappings, then the ``RUN=NAME`` pairs over them (an option given on the command line is the
    more specific); a run two files name differently is an ``OptionError``."""
    out: dict[str, str] = {}
    for path in files:
        for run, name in read_mapping(path).items():
            if run in out and out[run] != name:
                raise OptionError(option, f"run {run!r} is {out[run]!r} in one mapping file and {name!r} in {path}")
            out[run] = name
    out.update(pairs)
    return out

