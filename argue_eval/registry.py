"""Named things imported only when asked for: the one registry of commands, judges, measures and formats.

The CLI's commands (``cli.COMMANDS``), the judge backends (``judges.registry.BACKENDS``), the measure families
(``measures.FAMILIES``) and the format modules (``formats.MODULES``) are each a :class:`Registry`: a name
stands for a target written ``"module:attribute"`` (``"argue_eval.judges.lexical:LexicalJudge"``), which is
imported by :meth:`Registry.get` and not before. Listing the names (``--help``, the choices an error offers,
``available()``) imports nothing, so it never loads torch, a JVM or pandas, and a new entry is one line. A
name's one-line summary (``argue-eval --help``'s list of commands) is the first line of its target's docstring,
read from the module's source without importing it: the docstring is the one place it is written.

A target is an import all the same: ``tests/test_architecture.py`` reads every target string in the package
as an import by the module that holds it (checked against the layer table), and checks that each names a
module of ours that defines the attribute.
"""
from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import io
import tokenize
from collections.abc import Iterator, Mapping
from typing import Any, Generic, TypeVar

from .errors import unknown_name

__all__ = ["Registry", "docstring_first_line"]

T = TypeVar("T")


class Registry(Generic[T]):
    """Names -> ``"module:attribute"`` targets, in the order given; :meth:`get` imports one.

    ``what`` names an entry in messages (``"judge"``, ``"measure family"``); ``option`` is what an unknown
    name is blamed on (the command-line option it came from, as ``errors.OptionError`` prints it).
    """

    def __init__(self, what: str, entries: Mapping[str, str], option: str):
        self.what = what
        self.option = option
        self._targets: dict[str, str] = {}
        for name, target in entries.items():
            module, _, attribute = target.partition(":")
            if not module or not attribute.isidentifier():
                raise ValueError(f"{what} {name!r}: target {target!r} is not 'module:attribute'")
            self._targets[name] = target

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
        """The first line of the docstring of the function or class ``name`` stands for, read from its module's
        source without importing the module (``""`` when it has none, or its module is not there)."""
        module, _, attribute = self.target(name).partition(":")
        spec = importlib.util.find_spec(module)
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            return ""
        with open(spec.origin, encoding="utf-8") as handle:
            return docstring_first_line(handle.read(), attribute)

    def get(self, name: str) -> T:
        """The object ``name`` stands for, its module imported now (once: Python keeps it)."""
        module, _, attribute = self.target(name).partition(":")
        value: Any = getattr(importlib.import_module(module), attribute)
        return value

    def available(self) -> list[str]:
        """The names whose module is present, in registration order, found without importing any of them."""
        return [name for name, target in self._targets.items()
                if importlib.util.find_spec(target.partition(":")[0]) is not None]


def docstring_first_line(source: str, name: str) -> str:
    """The first line of the docstring of the top-level ``def name`` or ``class name`` in ``source`` (``""`` when
    there is none). Only the tokens from that definition to its docstring are read, so listing every command
    costs milliseconds, not a parse of every module."""
    lines = source.splitlines(keepends=True)
    starts = [index for index, line in enumerate(lines)
              if line.startswith((f"def {name}(", f"async def {name}(", f"class {name}(", f"class {name}:"))]
    if not starts:
        return ""
    depth, after_colon = 0, False
    for token in tokenize.generate_tokens(io.StringIO("".join(lines[starts[0]:])).readline):
        if after_colon:
            if token.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.NL, tokenize.COMMENT):
                continue
            if token.type != tokenize.STRING:
                return ""
            text = inspect.cleandoc(ast.literal_eval(token.string))
            return text.splitlines()[0].strip() if text else ""
        if token.type == tokenize.OP and token.string in "([{":
            depth += 1
        elif token.type == tokenize.OP and token.string in ")]}":
            depth -= 1
        elif token.type == tokenize.OP and token.string == ":" and depth == 0:
            after_colon = True
    return ""
