"""``--json``: every command's summary as one JSON object on stdout, for scripts and notebooks.

The text a command prints for people (its summary line, its tables, its problems) says what it did; with
``--json`` the same content comes as one object instead, built here the same way for every command::

    {"command": "nuggets validate",        # as typed after argue-eval
     "counts": {...},                      # the figures of the summary line (the API Result's counts)
     "tables": [{"title", "columns", "rows", "notes"}],   # each table the text shows, cells as shown
     "notes": [{"kind": "warning", "text": "..."}],       # every note and warning, in order
     ...}                                  # the command's own fields: its outputs, problems, changes

Notes and warnings still go to stderr as they arise (a person watching a long run sees them); stdout holds the
one JSON object and nothing else, so ``--json`` is refused where stdout already carries data (``-o -``).
``verbosity_options`` gives every command the flag (a command with its own ``--json``, such as ``inspect``,
keeps it) and turns the mode on for the command's run; commands ask ``json_mode()`` and hand their content to
``emit``.
"""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping
from os import PathLike
from typing import Any

import click

from ..errors import OptionError
from ..tables import Table, dumps_json, table_document

__all__ = ["emit", "summary_line", "format_or_json", "json_mode", "set_json_mode", "refuse_stdout_data", "note_documents", "jsonable"]

_MODE = {"json": False}


def json_mode() -> bool:
    """Whether the running command was given ``--json``."""
    return _MODE["json"]


def set_json_mode(on: bool) -> None:
    _MODE["json"] = bool(on)


def refuse_stdout_data(output: Any, what: str = "-o") -> None:
    """``--json`` prints its object on stdout: a command told to write its data there too (``-o -``) cannot."""
    if json_mode() and str(output) == "-":
        raise OptionError("--json", f"prints the summary on stdout, which {what} - already fills with the data: "
                                    f"give {what} a file")


def jsonable(value: Any) -> Any:
    """``value`` as JSON can hold it: paths and other objects as text, tuples and sets as lists, dataclasses
    and named tuples as objects, NaN and infinities as ``null`` (JSON has neither)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Table):
        return table_document(value)
    if isinstance(value, Mapping):
        return {str(key): jsonable(item) for key, item in value.items()}
    if hasattr(value, "_asdict"):
        return jsonable(value._asdict())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return jsonable(dataclasses.asdict(value))
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [jsonable(item) for item in value]
        return sorted(items, key=str) if isinstance(value, (set, frozenset)) else items
    if isinstance(value, PathLike):
        return str(value)
    if hasattr(value, "item"):  # a numpy scalar
        return jsonable(value.item())
    return str(value)


def note_documents(notes: Iterable[Any]) -> list[dict[str, str]]:
    """Notes (the API's ``Note`` records, or plain texts) as ``{"kind", "text"}`` objects."""
    documents = []
    for note in notes:
        if hasattr(note, "label") and hasattr(note, "text"):
            documents.append({"kind": note.label, "text": note.text})
        else:
            text = str(note)
            kind, _, rest = text.partition(": ")
            if rest and kind in ("note", "warning", "error"):
                documents.append({"kind": kind, "text": rest})
            else:
                documents.append({"kind": "note", "text": text})
    return documents


def emit(result: Any = None, *, tables: Iterable[Table | dict[str, Any]] = (), notes: Iterable[Any] | None = None,
         **fields: Any) -> None:
    """Print the running command's summary as one JSON object on stdout (see the module docstring): the
    ``Result``'s counts, runs, topics, notes and unjudged warnings when one is given, then ``tables`` and the
    command's own ``fields`` (``None`` values left out)."""
    context = click.get_current_context(silent=True)
    path = context.command_path.split(" ", 1)[1] if context is not None and " " in context.command_path else ""
    document: dict[str, Any] = {"command": path}
    if result is not None:  # an API Result, or another job's result with some of its fields
        document["counts"] = jsonable(getattr(result, "counts", {}))
        for name in ("runs", "topics"):
            if getattr(result, name, None):
                document[name] = jsonable(getattr(result, name))
    shown = [jsonable(table) for table in tables]  # a Table, or a dict of the same keys whose cells are values
    if shown:
        document["tables"] = shown
    document.update({name: jsonable(value) for name, value in fields.items() if value is not None})
    given = list(notes) if notes is not None else list(getattr(result, "notes", ()))
    document["notes"] = note_documents(given)
    if result is not None and getattr(result, "unjudged", None):
        document["unjudged"] = jsonable(result.unjudged)
    click.echo(dumps_json(document), nl=False)


def summary_line(line: str, result: Any = None, *, err: bool = True, notes: Iterable[Any] | None = None,
                 **fields: Any) -> None:
    """A command's closing summary: the line for people (on stderr unless ``err`` is false), or with ``--json``
    the object ``emit`` builds from ``result`` and ``fields``, the line under ``summary``."""
    if json_mode():
        emit(result, summary=line, notes=notes, **fields)
    else:
        click.echo(line, err=err)


def format_or_json(value: str, parameter: str = "output_format") -> str:
    """A command with ``--format text|tsv|...|json``: ``--json`` is ``--format json``; with another format given
    too, the two contradict each other and are refused."""
    if not json_mode():
        return value
    context = click.get_current_context(silent=True)
    given = context is not None and context.get_parameter_source(parameter) is click.core.ParameterSource.COMMANDLINE
    if given and value != "json":
        raise OptionError("--json", f"contradicts --format {value}: give one of them")
    return "json"
