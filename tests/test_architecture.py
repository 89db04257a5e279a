"""The layer borders of docs/architecture.md, checked on the real import statements of every module.

One table, ``MAY_IMPORT``, gives every top-level module and package of ``argue_eval/`` the names of ours it may
import (besides itself); any other name of ours is forbidden, and so is click unless the row names it. A
top-level name without a row fails the test (a new module cannot arrive without a rule), and so does a row that
docs/architecture.md's layer table does not name.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "argue_eval"
ARCHITECTURE_DOC = PACKAGE.parent / "docs" / "architecture.md"

FOUNDATION = ("model", "errors", "reading", "writing", "progress", "csvsafe", "passages", "extras", "gc_tuning", "java",
              "redact", "stopping")
"""The bottom: the standard library, third-party packages and each other."""
PURE = ("model", "errors", "progress", "passages", "extras", "gc_tuning", "redact", "stopping")
"""The part of the bottom the engines may use: they never read or write a file (no ``reading``, ``writing``)."""
RECORDS = ("formats", "tracks", "validate", "collection", "search")
ENGINES = ("family", "judges", "argue", "measures", "stats")
BELOW_INPUTS = (*FOUNDATION, *RECORDS, *ENGINES, "organizer")
BELOW_INTERFACES = (*BELOW_INPUTS, "inputs", "api", "tables", "views", "report")

MAY_IMPORT: dict[str, tuple[str, ...]] = {
    # foundation
    **{name: FOUNDATION for name in FOUNDATION},
    # records: file shapes, track presets, run checks, documents by id, search (above collection: it indexes it)
    "formats": FOUNDATION,
    "tracks": FOUNDATION,
    "collection": FOUNDATION,
    "search": (*FOUNDATION, "collection"),
    "validate": (*FOUNDATION, "formats", "tracks", "collection"),
    # engines: records in memory -> judgments -> scores -> statistics; no file, no format
    "family": PURE,  # the common shape of a measure family, below ARGUE and the other families
    "judges": (*PURE, "search"),  # the semantic judge's encoder is dense search's
    "argue": (*PURE, "judges", "family"),  # ARGUE whole: flowchart, counting, its family; no other measure
    "measures": (*PURE, "family", "judges", "argue", "search"),  # the registry names ARGUE; ICAT's passage retrieval
    "stats": PURE,
    # the organizers' tools (pooling, qrels, nugget tools, assessment files): read and write their own files
    "organizer": (*FOUNDATION, *RECORDS, *ENGINES),
    # what a command or API call names -> records
    "inputs": BELOW_INPUTS,
    # the Python API; terminal tables and the HTML report, which read no file (their callers do)
    "api": (*BELOW_INPUTS, "inputs", "__init__"),  # the version, for manifests
    "tables": FOUNDATION,
    "views": (*(n for n in FOUNDATION if n != "reading"), "stats", "measures", "tables"),
    "report": (*(n for n in FOUNDATION if n != "reading"), "collection", "stats", "measures", "tables", "views"),
    # the assessors' web app, beside the CLI: nothing below imports it
    "workbench": (*BELOW_INTERFACES, "__init__"),
    # the interfaces on top
    "cli": (*BELOW_INTERFACES, "workbench", "commands", "click", "__init__"),
    "commands": (*BELOW_INTERFACES, "workbench", "cli", "click", "__init__"),
    "__init__": ("api",),  # the version, and ``argue_eval.score`` re-exported lazily
}
"""Top-level name -> the names of ours (and ``click``) it may import. ``__init__`` is the package itself."""

ROOT_NAMES = frozenset({"__version__", "score", "ScoreResult"})
"""What ``from argue_eval import X`` (or ``from .. import X`` at the top) takes from the package itself."""


def _ours(dotted: str) -> str | None:
    """``argue_eval.x.y`` -> ``x.y``; ``argue_eval`` -> ``""``; ``click...`` -> ``click``; anything else -> None."""
    if dotted == "argue_eval" or dotted.startswith("argue_eval."):
        return dotted[len("argue_eval."):]
    return "click" if dotted.split(".")[0] == "click" else None


def _from_package(package: str, name: str) -> str:
    """What ``from <package> import <name>`` imports: the submodule ``package.name`` when there is one, else
    the package (the package itself is ``__init__``)."""
    submodule = PACKAGE.joinpath(*package.split("."), name) if package else PACKAGE / name
    if submodule.with_suffix(".py").is_file() or (submodule / "__init__.py").is_file():
        return f"{package}.{name}" if package else name
    return package or ("__init__" if name in ROOT_NAMES else name)


def imported_names(path: Path) -> list[tuple[int, str]]:
    """``(line, target)`` of every import in ``path`` (at run time or under TYPE_CHECKING), targets relative
    to the package (``__init__`` for the package itself, ``click`` as is)."""
    package_parts = list(path.relative_to(PACKAGE).with_suffix("").parts[:-1])
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, target or "__init__") for alias in node.names
                    if (target := _ours(alias.name)) is not None]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                module = _ours(node.module or "")
            else:
                base = package_parts[: len(package_parts) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            if module == "click":
                out.append((node.lineno, module))
            elif module is not None:
                out += [(node.lineno, _from_package(module, alias.name)) for alias in node.names]
    return out


def layer_of(target: str) -> str:
    return target.split(".")[0]


def top_level_names(package: Path) -> set[str]:
    """Every top-level module and package of ``package`` (``__init__`` is the package itself)."""
    return ({path.stem for path in package.glob("*.py")}
            | {path.name for path in package.iterdir() if (path / "__init__.py").is_file()})


def names_without_a_rule(package: Path | None = None) -> list[str]:
    return sorted(top_level_names(package or PACKAGE) - set(MAY_IMPORT))


def violations() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        allowed = {layer_of(module), *MAY_IMPORT.get(layer_of(module), ())}
        for line, target in imported_names(path):
            if layer_of(target) not in allowed:
                found.append(f"argue_eval/{path.relative_to(PACKAGE)}:{line}: {module} imports {target}")
    return found


def test_no_module_imports_across_a_forbidden_border():
    assert violations() == []


def test_every_top_level_module_and_package_has_a_rule():
    assert names_without_a_rule() == []
    assert sorted(set(MAY_IMPORT) - top_level_names(PACKAGE)) == []  # no rule for a name gone


def test_every_rule_names_only_real_layers():
    """A typo in the table (``"measure"``) would allow nothing and forbid nothing: every name must be a row."""
    assert sorted({name for names in MAY_IMPORT.values() for name in names} - set(MAY_IMPORT) - {"click"}) == []


def test_the_architecture_page_names_every_rule():
    """docs/architecture.md's layer table says in words what MAY_IMPORT says: each row's name is in it."""
    table = [line for line in ARCHITECTURE_DOC.read_text(encoding="utf-8").splitlines() if line.startswith("| `")]
    named = {match for line in table for match in re.findall(r"`([a-z_]+)(?:\.py|/)`", line.split("|")[1])}
    assert sorted(set(MAY_IMPORT) - named) == []


def test_the_checker_sees_relative_and_absolute_imports(tmp_path, monkeypatch):
    """The rule must be able to fail: a fake stats module that reads score files and one that imports click."""
    fake = tmp_path / "argue_eval"
    (fake / "stats").mkdir(parents=True)
    (fake / "stats" / "bad.py").write_text("from ..formats.scores import read_scores\nimport click\n"
                                           "from argue_eval.inputs import load_inputs\n")
    monkeypatch.setattr(__import__(__name__), "PACKAGE", fake)
    assert violations() == [
        "argue_eval/stats/bad.py:1: stats.bad imports formats.scores",
        "argue_eval/stats/bad.py:2: stats.bad imports click",
        "argue_eval/stats/bad.py:3: stats.bad imports inputs",
    ]


def test_each_border_of_the_table_can_fail(tmp_path, monkeypatch):
    """One crossing per kind of border, each worked out from the table by hand: the engines read no file
    (judges -> reading), collection is below search, nothing below the workbench imports it (api, and the root
    package's lazy import of it), the report reads no input (report -> inputs, and -> reading through
    ``from .. import``), ARGUE imports no other measure (argue -> measures), and what is allowed (search ->
    collection, argue -> family, measures -> argue, commands -> workbench and click, api -> the version) is not
    reported."""
    fake = tmp_path / "argue_eval"
    for package in ("judges", "collection", "api", "report", "search", "argue", "commands", "measures"):
        (fake / package).mkdir(parents=True)
    (fake / "measures" / "icat.py").write_text("from ..argue.counting import FAMILY\n")
    (fake / "family.py").write_text("")
    (fake / "judges" / "bad.py").write_text("from ..reading import iter_jsonl\n")
    (fake / "collection" / "bad.py").write_text("from ..search.lucene import LuceneSearcher\n")
    (fake / "api" / "bad.py").write_text("from .. import __version__\nfrom ..workbench import app\n")
    (fake / "report" / "bad.py").write_text("import argue_eval.inputs\nfrom .. import reading\n")
    (fake / "search" / "good.py").write_text("from ..collection.base import BaseDocumentStore\n")
    (fake / "argue" / "mixed.py").write_text("from ..family import Family\nfrom ..measures import icat\n")
    (fake / "commands" / "good.py").write_text("import click\nfrom argue_eval.workbench.app import create_app\n")
    (fake / "__init__.py").write_text("from .workbench import app\n")
    monkeypatch.setattr(__import__(__name__), "PACKAGE", fake)
    assert violations() == [
        "argue_eval/__init__.py:1: __init__ imports workbench",
        "argue_eval/api/bad.py:2: api.bad imports workbench",
        "argue_eval/argue/mixed.py:2: argue.mixed imports measures.icat",  # argue.mixed -> family is allowed
        "argue_eval/collection/bad.py:1: collection.bad imports search.lucene",
        "argue_eval/judges/bad.py:1: judges.bad imports reading",
        "argue_eval/report/bad.py:1: report.bad imports inputs",
        "argue_eval/report/bad.py:2: report.bad imports reading",
    ]


def test_a_new_top_level_module_without_a_rule_fails(tmp_path):
    """A module added beside the others (``fresh.py``) or a package (``newpkg/``) has no row: both are named;
    a directory that is no package (``assets/``, no ``__init__.py``) is not."""
    (tmp_path / "model.py").write_text("")
    (tmp_path / "fresh.py").write_text("")
    (tmp_path / "newpkg").mkdir()
    (tmp_path / "newpkg" / "__init__.py").write_text("")
    (tmp_path / "assets").mkdir()
    assert names_without_a_rule(tmp_path) == ["fresh", "newpkg"]


COMMAND_FUNCTION_LINES = 60
"""The most lines a function under ``argue_eval/commands/`` may have, from ``def`` to its end, docstring included:
a command parses its options, calls the API (``api/``, ``organizer/``) and renders the result; the work is there."""

LONG_COMMAND_FUNCTIONS: dict[str, str] = {}
"""``module:function`` -> why it may be longer (none today)."""


def long_functions(root: Path, most: int = COMMAND_FUNCTION_LINES) -> list[str]:
    """``file:function (N lines)`` for every function under ``root`` longer than ``most`` lines (decorators aside)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                name = f"{path.relative_to(root).with_suffix('')}:{node.name}"
                if lines > most and name not in LONG_COMMAND_FUNCTIONS:
                    found.append(f"{name} ({lines} lines)")
    return found


def test_no_command_function_is_longer_than_60_lines():
    assert long_functions(PACKAGE / "commands") == []


def test_the_command_length_check_can_fail(tmp_path):
    """A function of 61 lines (``def``, a docstring, 58 statements, ``return``) is named; one of 60 is not, nor a
    61-line one whose decorators make the difference (they do not count)."""
    body, shorter = ("".join(f"    x{i} = {i}\n" for i in range(first, 58)) for first in (0, 1))
    (tmp_path / "cmd.py").write_text(
        f'def long():\n    """Doc."""\n{body}    return x0\n\n\n'
        f'def fits():\n    """Doc."""\n{shorter}    return x1\n\n\n'
        f'@decorator\n@decorator\ndef decorated():\n    """Doc."""\n{shorter}    return x1\n'
    )
    assert long_functions(tmp_path) == ["cmd:long (61 lines)"]


def positional_policies(root: Path) -> list[str]:
    """Calls of ``Policies`` with positional arguments under ``root`` (the field order is no interface)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args:
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
                if name == "Policies":
                    found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_policies_are_built_by_keyword():
    assert positional_policies(PACKAGE) == []


def test_the_policies_check_sees_a_positional_call(tmp_path):
    (tmp_path / "bad.py").write_text('p = Policies("qrels")\nq = policies.Policies(relevance="qrels")\n'
                                     'r = policies.Policies("nuggets", "all")\n')
    assert positional_policies(tmp_path) == ["bad.py:1", "bad.py:3"]


TESTS = Path(__file__).resolve().parent


def imports_between_test_modules(root: Path = TESTS) -> list[str]:
    """``(file:line)`` of every import of a ``test_*`` module by another module under ``root``."""
    found = []
    for path in sorted(root.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(name.split(".")[-1].startswith("test_") for name in names):
                found.append(f"{path.name}:{node.lineno}")
    return found


def test_no_test_module_imports_another():
    """Shared test helpers live in tests/helpers.py (or conftest.py fixtures), not in other test modules."""
    assert imports_between_test_modules() == []


def test_the_test_import_check_can_fail(tmp_path):
    (tmp_path / "test_a.py").write_text("import json\nfrom test_b import thing\nfrom helpers import bank\n"
                                        "import test_c\n")
    assert imports_between_test_modules(tmp_path) == ["test_a.py:2", "test_a.py:4"]
