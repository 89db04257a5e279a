"""Errors and located problems.

Every complaint about a user's file must say where (file, line, field) and what was expected, so that a
participant can fix a run without reading our code. ``Problem`` is that located complaint; ``InputError``
raises one. The CLI turns any ``ArgueError`` into a one-line message and exit code 2, never a traceback.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from os import PathLike
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from .model import JudgmentKey, Report

Severity = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Problem:
    """One located complaint about an input file, printed as ``FILE:LINE: field: message``."""

    path: str
    line: int | None
    field: str | None
    message: str
    severity: Severity = "error"

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        what = self.message if self.severity == "error" else f"warning: {self.message}"
        return f"{where}: {self.field}: {what}" if self.field else f"{where}: {what}"


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def control_character(text: str) -> str | None:
    """The first control character in ``text`` (tab, CR and LF excepted) as ``U+XXXX``, or ``None``.

    Ids and TREC lines with NUL or escape bytes are corrupt or hostile: written into a pool or a terminal they
    truncate fields or rewrite the screen, so readers refuse them.
    """
    match = _CONTROL.search(text)
    return None if match is None else f"U+{ord(match.group()):04X}"


_TERMINAL_UNSAFE = re.compile(r"\x1b(?!\[A)|[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` with every control character (tab, CR and LF excepted) written out as ``\\xNN``, for a terminal.

    An id, a file name or a server's message echoed raw could carry an escape sequence that retitles the
    window, rewrites the screen or (OSC 52) the clipboard. The one sequence let through is ``ESC [ A``
    (cursor up), which progress bars use to redraw themselves.
    """
    return _TERMINAL_UNSAFE.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


_ID_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def id_control_character(text: str) -> str | None:
    """The first control character in an id, tab, CR and LF included, as ``U+XXXX``, or ``None``.

    An id is one field of one line of every table the kit writes (TSV scores, TREC runs and qrels), so a tab or
    a line break in it is refused when it is read, as the other control characters are."""
    match = _ID_CONTROL.search(text)
    return None if match is None else f"U+{ord(match.group()):04X}"


MISSING = object()
"""A field absent from its JSON object (``obj.get(key, MISSING)``), told apart from an explicit null."""


def type_name(value: Any) -> str:
    """How a JSON value is described in messages ("a number", "an array", ...)."""
    if value is MISSING:
        return "nothing"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"a number ({value!r})"
    if isinstance(value, str):
        return f"a string ({_short(value)})"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _short(text: str, width: int = 40) -> str:
    return repr(text if len(text) <= width else text[: width - 3] + "...")


class ArgueError(Exception):
    """Base of every error that is the user's to fix; the CLI prints it and exits with ``exit_code``."""

    exit_code = 2


class InputError(ArgueError):
    """An input file is unusable; carries the located ``Problem``."""

    def __init__(self, path: str | PathLike[str], line: int | None, field: str | None, message: str):
        self.problem = Problem(str(path), line, field, message)
        super().__init__(str(self.problem))

    @property
    def path(self) -> str:
        return self.problem.path

    @property
    def line(self) -> int | None:
        return self.problem.line


def few_items(items: list[str], limit: int = 10) -> str:
    """The first ``limit`` items joined with commas, and how many more there are (for one-line notes)."""
    shown = ", ".join(items[:limit])
    return shown + (f", ... ({len(items) - limit} more)" if len(items) > limit else "")


def second_report_error(report: Report, first: Any) -> InputError:
    """A run's second report for one topic (``first``: where the first one is, if known): the scorer refuses
    it, and the judge commands refuse it before judging, with this one message."""
    return InputError(str(report.source or "run"), None, "request_id",
                      f"run {report.run_id} has a second report for topic {report.request_id}"
                      + (f" (the first is at {first})" if first is not None else ""))


class OptionError(InputError, ValueError):
    """A bad value for an option, or a name that no registry knows (a judge, a measure family, a test, a track).

    One type whatever the layer that finds it, printed ``--flag: message`` with exit code 2 (an ``InputError``
    located at the option instead of a file); the Python API's callers, who pass the same values as keyword
    arguments, can also catch it as a ``ValueError``.
    """

    def __init__(self, option: str, message: str):
        self.option = option
        super().__init__(option, None, None, message)


def unknown_name(option: str, what: str, name: object, known: Iterable[str]) -> OptionError:
    """The error for a name that is not in a registry: which registry, and the names it knows."""
    return OptionError(option, f"unknown {what} {name!r}; known: {', '.join(known)}")


class MissingDependencyError(ArgueError):
    """An optional backend was asked for but its extra is not installed."""

    def __init__(self, feature: str, extra: str, detail: str = ""):
        message = (
            f"{feature} needs the optional '{extra}' dependencies, which are not installed; "
            f"install them with: pip install 'argue-eval[{extra}]'"
        )
        super().__init__(f"{message} ({detail})" if detail else message)


def contradiction(path: str, line: int | None, earlier_line: int | None, key: JudgmentKey, earlier: bool,
                  value: bool, judge: str) -> InputError:
    """The error for one judge answering the same question both ways in one file, naming both lines: a later
    file may override an earlier one, but inside one file neither line can be trusted over the other."""
    return InputError(
        path, line, "value",
        f"contradicts line {earlier_line}: the same {key.kind} judgment ({_describe(key)}) is {_yes(earlier)} "
        f"there and {_yes(value)} here, both by judge {judge!r}",
    )


def _yes(value: bool) -> str:
    return "yes" if value else "no"


def _describe(key: JudgmentKey) -> str:
    parts = [f"request {key.request_id}", f"sentence {key.sentence[:60]!r}"]
    if key.doc_id is not None:
        parts.append(f"doc {key.doc_id}")
    if key.nugget_id is not None:
        parts.append(f"nugget {key.nugget_id}")
    if key.answer is not None:
        parts.append(f"answer {key.answer!r}")
    if key.run_id is not None:
        parts.append(f"run {key.run_id} sentence {key.sentence_index}")
    return ", ".join(parts)
