"""Named things imported only when asked for: the one registry of commands, judges, measures and formats.

The CLI's commands (``cli.COMMANDS``), the judge backends (``judges.registry.BACKENDS``), the measure families
(``measures.FAMILIES``) and the format modules (``formats.MODULES``) are each a :class:`Registry`: a name
stands for a target written ``"module:attribute"`` (``"argue_eval.judges.lexical:LexicalJudge"``), which is
imported by :meth:`Registry.get` and not before. Listing the names (``--help``, the choices an error offers,
``available()``) imports nothing, so it never loads torch, a JVM or pandas, and a new entry is one line.

A target is an import all the same: ``tests/test_architecture.py`` reads every target string in the package
as an import by the module that holds it (checked against the layer table), and checks that each names a
module of ours that defines the attribute.
"""
from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterator, Mapping
from typing import Any, Generic, TypeVar

from .errors import unknown_name

__all__ = ["Registry"]

T = TypeVar("T")


class Registry(Generic[T]):
    """Names -> ``"module:attribute"`` targets, in the order given; :meth:`get` imports one.

    ``what`` names an entry in messages (``"judge"``, ``"measure family"``); ``option`` is what an unknown
    name is blamed on (the command-line option it came from, as ``errors.OptionError`` prints it). An entry
    may be ``(target, summary)``: a line that listings show without importing the target (``--help``).
    """

    def __init__(self, what: str, entries: Mapping[str, str | tuple[str, str]], option: str):
        self.what = what
        self.option = option
        self._targets: dict[str, str] = {}
        self._summaries: dict[str, str] = {}
        for name, entry in entries.items():
            target, summary = (entry, "") if isinstance(entry, str) else entry
            module, _, attribute = target.partition(":")
            if not module or not attribute.isidentifier():
                raise ValueError(f"{what} {name!r}: target {target!r} is not 'module:attribute'")
            self._targets[name] = target
            self._summaries[name] = summary

    def __contains__(self, name: object) -> bool:
        return name in self._targets

    def __iter__(self) -> Iterator[str]:
        return iter(self._targets)

    def __len__(self) -> int:
        return len(self._targets)

    def __repr__(self) -> str:
        return f"Registry({self.what!r}, {list(self._targets)})"

    def names(self) -> list[str]:
        """Every name, in registration order."""
        return list(self._targets)

    def target(self, name: str) -> str:
        """The ``"module:attribute"`` that ``name`` stands for; an unknown name is an ``OptionError`` that lists
        the known ones."""
        try:
            return self._targets[name]
        except KeyError:
            raise unknown_name(self.option, self.what, name, self._targets) from None

    def summary(self, name: str) -> str:
        """The one-line summary given with ``name`` (``""`` when none was)."""
        self.target(name)
        return self._summaries[name]

    def get(self, name: str) -> T:
        """The object ``name`` stands for, its module imported now (once: Python keeps it)."""
        module, _, attribute = self.target(name).partition(":")
        value: Any = getattr(importlib.import_module(module), attribute)
        return value

    def available(self) -> list[str]:
        """The names whose module is present, in registration order, found without importing any of them."""
        return [name for name, target in self._targets.items()
                if importlib.util.find_spec(target.partition(":")[0]) is not None]
