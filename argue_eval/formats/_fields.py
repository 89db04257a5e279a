"""Field checks shared by the requests, nuggets and runs readers.

Every reader has two callers with different needs: ordinary reading wants the first schema error raised
as an ``InputError`` (``FILE:LINE: field: message``), while ``validate`` wants every problem of a line
collected so a participant can fix them all at once. ``Fields`` serves both: with ``problems=None`` it
raises on the first error, with a list it appends ``Problem`` records and lets the parser go on with
what is still usable.

Messages name the field by path (``sentences[3].citations[1]``) and say what was expected and what was
found, because the person reading them is fixing a file, not our code.
"""
from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from ..errors import MISSING, InputError, Problem, id_control_character, type_name
from ..reading import iter_jsonl


class LossyWriteWarning(UserWarning):
    """A writer had to drop or change data the target format cannot express (``convert`` prints these)."""


def warn_lossy(message: str) -> None:
    """Tell the caller (``convert`` prints it on stderr) that the output lost something of the input."""
    warnings.warn(message, LossyWriteWarning, stacklevel=3)


class Fields:
    """Located checks for one record (one line of a JSONL file, or one JSON file).

    ``errors`` counts the errors seen so far, so a parser can tell whether what it built is trustworthy.
    """

    __slots__ = ("path", "line", "problems", "errors")

    def __init__(self, path: str, line: int | None, problems: list[Problem] | None = None):
        self.path = str(path)
        self.line = line
        self.problems = problems
        self.errors = 0

    # -- reporting -------------------------------------------------------------------------------------
    def error(self, field: str | None, message: str) -> None:
        """Record an error; raises ``InputError`` at once in strict mode (no problem list)."""
        if self.problems is None:
            raise InputError(self.path, self.line, field, message)
        self.errors += 1
        self.problems.append(Problem(self.path, self.line, field, message, "error"))

    def warning(self, field: str | None, message: str) -> None:
        """Record a warning; strict reading ignores warnings (the data is usable as read)."""
        if self.problems is not None:
            self.problems.append(Problem(self.path, self.line, field, message, "warning"))

    # -- typed getters (each returns a usable value or the default, after reporting) -------------------
    def ident(self, obj: dict[str, Any], key: str, prefix: str = "", required: bool = True) -> str | None:
        """A string id. JSON numbers are accepted as their decimal text (a warning), never the reverse.

        Ids such as ``2024-105741`` must stay text; a number in the file cannot have had leading zeros or
        a dash, so turning it into text loses nothing. Anything else (null, bool, array) is an error.
        """
        value = obj.get(key, MISSING)
        field = prefix + key
        if value is MISSING:
            if required:
                self.error(field, f"missing required field {key!r} (expected a string id)")
            return None
        return self.ident_value(value, field)

    def ident_value(self, value: Any, field: str) -> str | None:
        if type(value) is str:
            if not value.strip():
                self.error(field, "expected a non-empty string id, found an empty string")
                return None
            bad = id_control_character(value)
            if bad is not None:
                self.error(field, f"id contains the control character {bad}; ids must be printable text")
                return None
            return value
        if type(value) is int:
            self.warning(field, f"id given as a number ({value}); ids should be JSON strings, read as {str(value)!r}")
            return str(value)
        self.error(field, f"expected a string id, found {type_name(value)}")
        return None

    def text(self, obj: dict[str, Any], key: str, prefix: str = "", required: bool = False, default: str = "") -> str:
        """A string field; missing gives ``default`` (an error when ``required``)."""
        value = obj.get(key, MISSING)
        field = prefix + key
        if value is MISSING or (value is None and not required):
            if required:
                self.error(field, f"missing required field {key!r} (expected a string)")
            return default
        if type(value) is not str:
            self.error(field, f"expected a string, found {type_name(value)}")
            return default
        return value

    def optional_text(self, obj: dict[str, Any], key: str, prefix: str = "") -> str | None:
        value = obj.get(key)
        if value is None:
            return None
        if type(value) is not str:
            self.error(prefix + key, f"expected a string or null, found {type_name(value)}")
            return None
        return value

    def _items(self, value: Any, field: str, what: str) -> list[Any]:
        """``value`` when it is a list; none for ``None``, and none after an error for anything else."""
        if value is None:
            return []
        if type(value) is not list:
            self.error(field, f"expected a list of {what}, found {type_name(value)}")
            return []
        return value

    def id_list(self, value: Any, field: str, what: str = "document ids", key: str | None = None) -> tuple[str, ...]:
        """A list of string ids (numbers read as text with a warning); bad items are reported and dropped.

        With ``key``, an item may also be an object holding the id under that key (Auto-ARGUE references
        ``{"doc_id": ...}``).
        """
        out: list[str] = []
        for index, item in enumerate(self._items(value, field, what)):
            if type(item) is str and item.strip() and id_control_character(item) is None:
                out.append(item)
                continue
            where = f"{field}[{index}]"  # ident_value below says what is wrong with it (a control character too)
            if key is not None and type(item) is dict:
                if key not in item:
                    self.error(where, f"expected a reference object with a {key!r} field")
                    continue
                item, where = item[key], f"{where}.{key}"
            ident = self.ident_value(item, where)
            if ident is not None:
                out.append(ident)
        return tuple(out)

    def collection_list(self, value: Any, field: str) -> tuple[str, ...]:
        """Collection ids: a list, or (tolerated with a warning) one id given as a plain string."""
        if type(value) is str and value:
            self.warning(field, f"expected a list of collection ids, found one string; read as [{value!r}]")
            return (value,)
        return self.id_list(value, field, "collection ids")

    def str_list(self, value: Any, field: str, what: str = "strings") -> tuple[str, ...]:
        """A list of strings (no number coercion: these are texts, not ids)."""
        out: list[str] = []
        for index, item in enumerate(self._items(value, field, what)):
            if type(item) is str:
                out.append(item)
            else:
                self.error(f"{field}[{index}]", f"expected a string, found {type_name(item)}")
        return tuple(out)

    def mapping(self, value: Any, field: str, what: str = "an object") -> dict[str, Any] | None:
        if type(value) is dict:
            return value
        self.error(field, f"expected {what}, found {type_name(value)}")
        return None

    def array(self, value: Any, field: str, what: str = "an array") -> list[Any] | None:
        if type(value) is list:
            return value
        self.error(field, f"expected {what}, found {type_name(value)}")
        return None

    def required_array(self, obj: dict[str, Any], key: str, what: str) -> list[Any] | None:
        """``obj[key]`` when it is a list; one error (missing, or not a list) naming ``what`` was expected."""
        if key not in obj:
            self.error(key, f"missing required field {key!r} (expected {what})")
            return None
        return self.array(obj[key], key, what)

    def required_mapping(self, obj: dict[str, Any], key: str, what: str) -> dict[str, Any] | None:
        """``obj[key]`` when it is an object; one error (missing, or not an object) naming ``what`` was expected."""
        if key not in obj:
            self.error(key, f"missing required field {key!r} (expected {what})")
            return None
        return self.mapping(obj[key], key, what)

    def choice(self, value: Any, field: str, choices: Iterable[str], default: Any) -> Any:
        choices = tuple(choices)
        if value in choices and type(value) is str:
            return value
        self.error(field, f"expected one of {', '.join(repr(c) for c in choices)}, found {type_name(value)}")
        return default


def is_number(value: Any) -> bool:
    """A JSON number (``bool`` is not one, though Python says it is an ``int``)."""
    return type(value) is float or type(value) is int


def unknown(obj: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """The fields of ``obj`` that the format's model does not hold, in file order (kept for round trips)."""
    return {key: value for key, value in obj.items() if key not in known}


Record = TypeVar("Record")


def jsonl_reader(parser: Callable[[dict[str, Any], Fields], Record | None], format_name: str) -> Callable[[Path], Iterator[Record]]:
    """A streaming reader for a JSON Lines format whose lines ``parser`` turns into records, strictly.

    Strict ``Fields`` (no problem list) raise ``InputError`` at the first schema error, so the parser
    never returns ``None`` here; one line is parsed at a time, so a huge file is never held whole.
    """

    def read(path: Path) -> Iterator[Record]:
        name = str(path)
        for lineno, obj in iter_jsonl(path):
            yield parser(obj, Fields(name, lineno))  # type: ignore[misc]  # strict: never None

    read.__name__ = f"read_{format_name.replace('-', '_')}"
    read.__doc__ = f"Stream the records of a {format_name} file (JSONL, .gz ok), one line at a time."
    return read
