"""The layer borders of docs/architecture.md, checked on the real import statements of every module."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "argue_eval"

# module prefix (relative to argue_eval) -> prefixes it must not import (at run time or under TYPE_CHECKING)
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "model": ("formats", "judges", "argue", "measures", "stats", "inputs", "api", "commands", "cli", "click"),
    "errors": ("formats", "judges", "argue", "measures", "stats", "inputs", "api", "commands", "cli", "click"),
    "passages": ("formats", "search", "judges", "argue", "measures", "stats", "inputs", "api", "commands", "cli",
                 "click"),
    "extras": ("formats", "search", "judges", "argue", "measures", "stats", "inputs", "api", "commands", "cli",
               "click"),
    "formats": ("argue", "judges", "measures", "stats", "inputs", "api", "commands", "cli", "click"),
    "search": ("formats", "argue", "judges", "measures", "stats", "inputs", "api", "commands", "cli", "click"),
    "judges": ("formats", "argue", "measures", "stats", "inputs", "api", "commands", "cli", "click"),
    "argue": ("formats", "measures", "stats", "inputs", "api", "commands", "cli", "click"),
    "measures": ("formats", "stats", "inputs", "api", "commands", "cli", "click"),
    "stats": ("formats", "argue", "judges", "measures", "inputs", "api", "commands", "cli", "click"),
    "organizer": ("inputs", "api", "commands", "cli", "click"),
    "inputs": ("api", "commands", "cli", "click"),
    "api": ("commands", "cli", "click"),
    "views": ("commands", "cli", "click"),
    "report": ("commands", "cli", "click"),
}

# The assessment workbench sits beside the CLI: only the commands import it; it imports no command.
FORBIDDEN = {layer: (*rules, "workbench") for layer, rules in FORBIDDEN.items()}
FORBIDDEN["workbench"] = ("commands", "cli", "click")


ALLOWED: dict[tuple[str, str], str] = {
    ("argue", "measures.argue"): "ARGUE's own measure family: the scoring engine counts and aggregates with it",
}
"""(module layer, imported module) pairs that cross a border on purpose, each with its reason."""


def imported_names(path: Path) -> list[tuple[int, str]]:
    """``(line, target)`` of every import in ``path``, targets relative to the package (``click`` as is)."""
    relative = path.relative_to(PACKAGE).with_suffix("")
    package_parts = list(relative.parts[:-1]) if relative.name != "__init__" else list(relative.parts[:-1])
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                name = alias.name
                if name.startswith("argue_eval."):
                    out.append((node.lineno, name[len("argue_eval."):]))
                elif name.split(".")[0] == "click":
                    out.append((node.lineno, "click"))
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level == 0:
                if module.startswith("argue_eval."):
                    out.append((node.lineno, module[len("argue_eval."):]))
                elif module.split(".")[0] == "click":
                    out.append((node.lineno, "click"))
                continue
            base = package_parts[: len(package_parts) - (node.level - 1)] if node.level > 1 else package_parts
            target = ".".join([*base, module] if module else base)
            if not module:  # "from . import x" / "from .. import x"
                for alias in node.names:
                    out.append((node.lineno, ".".join([*base, alias.name])))
            else:
                out.append((node.lineno, target))
    return out


def layer_of(target: str) -> str:
    return target.split(".")[0]


def violations() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        rules = next((FORBIDDEN[prefix] for prefix in FORBIDDEN if layer_of(module) == prefix), ())
        for line, target in imported_names(path):
            if layer_of(target) in rules and (layer_of(module), target) not in ALLOWED:
                found.append(f"argue_eval/{path.relative_to(PACKAGE)}:{line}: {module} imports {target}")
    return found


def test_no_module_imports_across_a_forbidden_border():
    assert violations() == []


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
