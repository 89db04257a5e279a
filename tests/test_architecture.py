"""The layer borders of docs/architecture.md, checked on the real import statements of every module.

Two tables give every top-level module and package of ``argue_eval/`` the names of ours it imports (besides
itself): ``BORDERS``, the widest a row may ever import (the borders of docs/architecture.md's layer table), and
``MAY_IMPORT``, what it imports today, no wider than the code needs and within its borders. Any import that
its ``MAY_IMPORT`` row does not name fails, and so does click unless the row names it; so does a pair that a
row names but no code uses (the test prints them), a row wider than its border, a top-level name without a
row (a new module cannot arrive without a rule), and a row that docs/architecture.md's layer table does not
name. A registry's target string (``"argue_eval.judges.lexical:LexicalJudge"``) is an import like any other,
and must name a module of ours that defines the attribute. No module imports another's private names.
"""
from __future__ import annotations

import ast
import fnmatch
import re
from pathlib import Path

from helpers import names_defined_in

PACKAGE = Path(__file__).resolve().parent.parent / "argue_eval"
ARCHITECTURE_DOC = PACKAGE.parent / "docs" / "architecture.md"

FOUNDATION = ("model", "errors", "reading", "writing", "progress", "csvsafe", "passages", "extras", "gc_tuning", "java",
              "redact", "registry", "stopping")
"""The bottom: the standard library, third-party packages and each other."""
PURE = ("model", "errors", "progress", "passages", "extras", "gc_tuning", "redact", "registry", "stopping")
"""The part of the bottom the engines may use: they never read or write a file (no ``reading``, ``writing``)."""
RECORDS = ("formats", "tracks", "validate", "repair", "language", "collection", "search")
ENGINES = ("family", "judges", "argue", "measures", "stats")
BELOW_INPUTS = (*FOUNDATION, *RECORDS, *ENGINES, "organizer")
BELOW_INTERFACES = (*BELOW_INPUTS, "inputs", "api", "tables", "views", "report")

BORDERS: dict[str, tuple[str, ...]] = {
    # foundation
    **{name: FOUNDATION for name in FOUNDATION},
    # records: file shapes, track presets, run checks, documents by id, search (above collection: it indexes it)
    "formats": FOUNDATION,
    "tracks": FOUNDATION,
    "collection": FOUNDATION,
    "search": (*FOUNDATION, "collection"),
    "language": FOUNDATION,  # a report's language (py3langid), for validate's report-language check
    "validate": (*FOUNDATION, "formats", "tracks", "collection", "language"),
    "repair": (*FOUNDATION, "formats", "tracks", "collection", "validate"),  # validate --fix: validate's limits
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
"""Top-level name -> the names of ours (and ``click``) it may ever import. ``__init__`` is the package itself."""

MAY_IMPORT: dict[str, tuple[str, ...]] = {
    # foundation
    "model": ("errors",),
    "errors": ("model",),
    "reading": ("errors",),
    "writing": ("errors",),
    "progress": (),
    "csvsafe": (),
    "passages": ("model",),
    "extras": ("errors",),
    "gc_tuning": (),
    "java": ("errors",),
    "redact": (),
    "registry": ("errors",),
    "stopping": ("errors",),
    # records
    "formats": ("errors", "model", "progress", "reading", "registry", "writing"),
    "tracks": ("errors",),
    "collection": ("errors", "java", "model", "progress", "reading", "writing"),
    "search": ("collection", "errors", "extras", "java", "model", "passages", "progress", "reading", "stopping",
               "writing"),
    "language": (),
    "validate": ("collection", "errors", "formats", "language", "model", "progress", "reading", "tracks"),
    "repair": ("collection", "csvsafe", "errors", "formats", "model", "reading", "tracks", "validate", "writing"),
    # engines
    "family": ("errors", "model"),
    "judges": ("errors", "extras", "gc_tuning", "model", "passages", "progress", "redact", "registry", "search",
               "stopping"),
    "argue": ("errors", "family", "gc_tuning", "judges", "model", "progress"),
    "measures": ("argue", "errors", "family", "judges", "model", "registry", "search"),
    "stats": ("errors", "model"),
    # above the engines
    "organizer": ("argue", "csvsafe", "errors", "formats", "judges", "model", "progress", "reading", "stats", "writing"),
    "inputs": ("argue", "errors", "formats", "judges", "measures", "model", "organizer", "reading", "stats"),
    "api": ("__init__", "argue", "collection", "csvsafe", "errors", "formats", "gc_tuning", "inputs", "java", "judges",
            "measures", "model", "organizer", "passages", "progress", "reading", "redact", "repair", "search", "stats",
            "tracks", "validate", "writing"),
    "tables": ("errors",),
    "views": ("errors", "model", "stats", "tables", "writing"),
    "report": ("collection", "errors", "extras", "measures", "model", "stats", "views", "writing"),
    "workbench": ("argue", "collection", "errors", "formats", "inputs", "judges", "model", "organizer", "passages",
                  "reading", "search", "stats", "writing"),
    "cli": ("__init__", "click", "commands", "errors", "formats", "reading", "registry", "stopping"),
    "commands": ("api", "argue", "click", "errors", "formats", "inputs", "judges", "model", "organizer", "progress",
                 "reading", "redact", "report", "search", "tables", "tracks", "validate", "views", "workbench",
                 "writing"),
    "__init__": ("api",),
}
"""Top-level name -> the names of ours (and ``click``) it imports today: within its ``BORDERS`` row, and no wider
than the code needs (``test_no_row_names_an_import_that_no_code_makes`` lists the pairs no code uses)."""

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


TARGET = re.compile(r"argue_eval((?:\.\w+)+):(\w+)")
"""A registry's lazy target (``"argue_eval.judges.lexical:LexicalJudge"``, ``argue_eval.registry``): an import."""


def imported_names(path: Path, package: Path | None = None) -> list[tuple[int, str]]:
    """``(line, target)`` of every import in ``path`` (at run time or under TYPE_CHECKING) and of every registry
    target string in it, targets relative to the package (``__init__`` for the package itself, ``click`` as is)."""
    package_parts = list(path.relative_to(package or PACKAGE).with_suffix("").parts[:-1])
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
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and (match := TARGET.fullmatch(node.value)):
            out.append((node.lineno, match.group(1)[1:]))
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
    """A typo in a table (``"measure"``) would allow nothing and forbid nothing: every name must be a row."""
    for table in (BORDERS, MAY_IMPORT):
        assert sorted({name for names in table.values() for name in names} - set(table) - {"click"}) == []


def test_every_row_stays_within_its_border():
    """``MAY_IMPORT`` may be narrower than the borders, never wider: an import that a border forbids cannot be
    made legal by adding it to the row."""
    assert sorted(BORDERS) == sorted(MAY_IMPORT)
    assert {row: sorted(set(names) - set(BORDERS[row])) for row, names in MAY_IMPORT.items()
            if set(names) - set(BORDERS[row])} == {}


def pairs_allowed_but_unused(package: Path | None = None, table: dict[str, tuple[str, ...]] | None = None) -> list[str]:
    """``row -> name`` for every pair of ``table`` (``MAY_IMPORT``) that no module of the row imports."""
    package, table = package or PACKAGE, table if table is not None else MAY_IMPORT
    used: dict[str, set[str]] = {}
    for path in package.rglob("*.py"):
        layer = layer_of(".".join(path.relative_to(package).with_suffix("").parts))
        for _, target in imported_names(path, package):
            used.setdefault(layer, set()).add(layer_of(target))
    return [f"{row} -> {name}" for row, names in table.items() for name in names if name not in used.get(row, ())]


def test_no_row_names_an_import_that_no_code_makes():
    """Each ``MAY_IMPORT`` row is no wider than the code needs: the pairs it names that no code uses are printed
    (drop them from the row)."""
    unused = pairs_allowed_but_unused()
    print("MAY_IMPORT pairs allowed but unused:", *unused or ["none"], sep="\n  ")
    assert unused == []


def test_the_unused_pair_check_can_fail(tmp_path):
    """stats imports model only, inside a function: its row's errors is unused; argue uses its whole row, a registry
    target included."""
    (tmp_path / "stats").mkdir()
    (tmp_path / "stats" / "a.py").write_text("def f():\n    from ..model import Report\n")
    (tmp_path / "argue").mkdir()
    (tmp_path / "argue" / "b.py").write_text('from ..family import Family\nF = "argue_eval.judges.lexical:LexicalJudge"\n')
    table = {"stats": ("model", "errors"), "argue": ("family", "judges")}
    assert pairs_allowed_but_unused(tmp_path, table) == ["stats -> errors"]


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
                                           "from argue_eval.inputs import load_inputs\n"
                                           'READERS = {"runs": "argue_eval.formats.runs:FORMATS"}\n'
                                           'NOTE = "argue_eval.formats is not a target"\n')
    monkeypatch.setattr(__import__(__name__), "PACKAGE", fake)
    assert violations() == [
        "argue_eval/stats/bad.py:1: stats.bad imports formats.scores",
        "argue_eval/stats/bad.py:2: stats.bad imports click",
        "argue_eval/stats/bad.py:3: stats.bad imports inputs",
        "argue_eval/stats/bad.py:4: stats.bad imports formats.runs",  # a registry's target is an import
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


def _module_file(package: Path, dotted: str) -> Path | None:
    """The file of ``argue_eval.<dotted>`` under ``package`` (a module or a package's ``__init__.py``), if any."""
    base = package.joinpath(*dotted.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def unresolved_targets(package: Path | None = None) -> list[str]:
    """``file:line: target`` for every registry target string that names no module of ours, or an attribute
    its module does not define (a typo there fails only when someone asks for that name)."""
    package = package or PACKAGE
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and (match := TARGET.fullmatch(node.value)):
                target = _module_file(package, match.group(1)[1:])
                if target is None or match.group(2) not in names_defined_in(target):
                    found.append(f"argue_eval/{path.relative_to(package)}:{node.lineno}: {node.value}")
    return found


def test_every_registry_target_names_a_module_and_attribute_of_ours():
    assert unresolved_targets() == []


def test_the_target_check_can_fail(tmp_path):
    (tmp_path / "judges").mkdir()
    (tmp_path / "judges" / "lexical.py").write_text("class LexicalJudge:\n    pass\n\n\nfrom .base import X\n")
    (tmp_path / "judges" / "registry.py").write_text(
        'A = {"lexical": "argue_eval.judges.lexical:LexicalJudge", "x": "argue_eval.judges.lexical:X",\n'
        '     "typo": "argue_eval.judges.lexical:LexicalJugde", "gone": "argue_eval.judges.semantic:SemanticJudge"}\n')
    assert unresolved_targets(tmp_path) == ["argue_eval/judges/registry.py:2: argue_eval.judges.lexical:LexicalJugde",
                                            "argue_eval/judges/registry.py:2: argue_eval.judges.semantic:SemanticJudge"]


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_imports(package: Path | None = None) -> list[str]:
    """``file:line: module imports X`` for every private name (``_x``) one module takes from another: imported
    (``from .judgments import _parse``), or read off an imported module (``judgments._parse``). A private module
    (``formats/_fields.py``) is its package's: modules inside that package may import it, others may not."""
    package = package or PACKAGE
    return [found for path in sorted(package.rglob("*.py")) for found in _private_imports_in(path, package)]


def _private_imports_in(path: Path, package: Path) -> list[str]:
    parts = path.relative_to(package).with_suffix("").parts
    module = ".".join(parts)
    home = ".".join(parts[:-1])  # the package the module is in ("" at the top)
    modules: set[str] = set()  # local names bound to modules of ours (for attribute reads)
    found = []

    def cross(line: int, imported: str, what: str) -> None:
        found.append(f"argue_eval/{path.relative_to(package)}:{line}: {module} imports {what} {imported}")

    def check_module(line: int, dotted: str) -> None:
        components = dotted.split(".")
        for index, component in enumerate(components):
            owner = ".".join(components[:index])
            if _private(component) and home != owner and not home.startswith(f"{owner}.") and owner != module:
                cross(line, dotted, "the private module")
                return

    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if (dotted := _ours(alias.name)) and dotted != "click":
                    check_module(node.lineno, dotted)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                source = _ours(node.module or "")
            else:
                base = list(parts[:-1])[: len(parts) - 1 - (node.level - 1)]
                source = ".".join([*base, node.module] if node.module else base)
            if source is None or source == "click":
                continue
            check_module(node.lineno, source)
            for alias in node.names:
                submodule = f"{source}.{alias.name}" if source else alias.name
                if _module_file(package, submodule) is not None:
                    modules.add(alias.asname or alias.name)
                    check_module(node.lineno, submodule)
                elif _private(alias.name):
                    cross(node.lineno, submodule, "the private name")
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules
                and _private(node.attr)):
            cross(node.lineno, f"{node.value.id}.{node.attr}", "the private name")
    return found


def test_no_module_imports_another_modules_private_names():
    assert private_imports() == []


def test_the_private_name_check_can_fail(tmp_path):
    """Across modules: a private function imported or read off the module, a private module from outside its
    package. Within: a package's own private module, and a module's own private names, are fine."""
    for package in ("formats", "commands"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "formats" / "_fields.py").write_text("def type_name(x):\n    return x\n")
    (tmp_path / "commands" / "_paths.py").write_text("")
    (tmp_path / "formats" / "judgments.py").write_text("def _parse(x):\n    return x\n")
    (tmp_path / "formats" / "runs.py").write_text("from ._fields import type_name\nfrom . import _fields\n"
                                                   "def _own():\n    return _own\n")
    (tmp_path / "formats" / "autoargue.py").write_text("from .judgments import _parse\nfrom . import judgments\n"
                                                        "x = judgments._parse\n")
    (tmp_path / "cli.py").write_text("from .formats._fields import type_name\nfrom .commands import _paths\n")
    assert private_imports(tmp_path) == [
        "argue_eval/cli.py:1: cli imports the private module formats._fields",
        "argue_eval/cli.py:2: cli imports the private module commands._paths",
        "argue_eval/formats/autoargue.py:1: formats.autoargue imports the private name formats.judgments._parse",
        "argue_eval/formats/autoargue.py:3: formats.autoargue imports the private name judgments._parse",
    ]


KNOWN_CYCLES: dict[tuple[str, ...], str] = {
    ("errors", "model"): "model's checks raise errors' types; errors names model's types for type checkers only",
    ("__init__", "api", "api.*"): "the package re-exports argue_eval.score lazily; API modules write the package's "
                                  "__version__ into manifests and profiles",
    ("formats", "formats.qrels", "formats.ranked"): "formats.ranked reads report runs as rankings through the "
                                                      "package's readers (load_rankings), which list it in MODULES",
}
"""The import cycles among our modules (counting imports inside functions and registry targets), each as the
modules (``fnmatch`` patterns) it stays within and why it is there; any other cycle fails (the formats circle
autoargue -> judgments -> runs -> autoargue is gone), and so does an entry whose cycle is gone."""


def import_cycles(package: Path | None = None) -> list[tuple[str, ...]]:
    """The strongly connected components of more than one module in the import graph, each sorted, in order."""
    package = package or PACKAGE
    graph: dict[str, set[str]] = {}
    for path in package.rglob("*.py"):
        parts = path.relative_to(package).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" and len(parts) > 1 else parts)
        graph.setdefault(name, set())
        for _, target in imported_names(path, package):
            if target != "click" and target != name:
                graph[name].add(target)
    for targets in graph.values():  # a target that is a name inside a module stands for that module
        for target in list(targets):
            module = target
            while module not in graph and "." in module:
                module = module.rsplit(".", 1)[0]
            targets.discard(target)
            if module in graph:
                targets.add(module)
    return sorted(tuple(sorted(component)) for component in components(graph) if len(component) > 1)


def components(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` (Tarjan's algorithm), each one before the components that
    import it: a component's imports are all in the components listed before it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            found.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def unexplained_cycles(cycles: list[tuple[str, ...]]) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    """(the cycles no ``KNOWN_CYCLES`` entry covers, the entries that cover no cycle)."""
    def covers(entry: tuple[str, ...], cycle: tuple[str, ...]) -> bool:
        return all(any(fnmatch.fnmatchcase(member, pattern) for pattern in entry) for member in cycle)

    return ([cycle for cycle in cycles if not any(covers(entry, cycle) for entry in KNOWN_CYCLES)],
            [entry for entry in KNOWN_CYCLES if not any(covers(entry, cycle) for cycle in cycles)])


def test_no_import_cycle_but_the_known_ones():
    assert unexplained_cycles(import_cycles()) == ([], [])


def test_a_cycle_outside_the_known_ones_is_named_and_so_is_a_known_one_gone():
    found = [("__init__", "api", "api.calibrate", "api.judge"), ("formats.judgments", "formats.runs")]
    assert unexplained_cycles(found) == ([("formats.judgments", "formats.runs")],
                                         [("errors", "model"), ("formats", "formats.qrels", "formats.ranked")])


def test_the_cycle_check_sees_a_circle_through_a_function_level_import(tmp_path):
    """The formats circle as it was: autoargue -> judgments at the top, judgments -> runs, and runs -> autoargue
    inside a function; and a registry target in a package's __init__ that its module imports back."""
    (tmp_path / "formats").mkdir()
    (tmp_path / "formats" / "__init__.py").write_text('MODULES = {"runs": "argue_eval.formats.ranked:FORMATS"}\n')
    (tmp_path / "formats" / "autoargue.py").write_text("from .judgments import parse\n")
    (tmp_path / "formats" / "judgments.py").write_text("from .runs import parse_report\n")
    (tmp_path / "formats" / "runs.py").write_text("def parse():\n    from .autoargue import parse_line\n")
    (tmp_path / "formats" / "ranked.py").write_text("def load():\n    from . import read_reports\n")
    assert import_cycles(tmp_path) == [("formats", "formats.ranked"),
                                       ("formats.autoargue", "formats.judgments", "formats.runs")]


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


# --- the layer picture of docs/architecture.md, drawn from the imports ----------------------------------------

ROLES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("interfaces", ("cli", "commands", "workbench"),
     "click: parse options, call the API, print; beside it the assessors' web app"),
    ("API", ("api", "__init__", "views", "tables", "report"),
     "one function per job (calc, score, judge, evaluate, ...); terminal tables, the static HTML report"),
    ("inputs", ("inputs",), "what a command or API call names (paths or records) -> records"),
    ("organizer", ("organizer",), "pooling, qrels, nugget tools, assessment files, judge calibration"),
    ("statistics", ("stats",), "intervals, tests, agreement, on matrices"),
    ("scores", ("measures", "argue", "family"), "the families and measure names; ARGUE whole; a family's shape"),
    ("judgments", ("judges",), "protocol, backends, runner, the SQLite cache"),
    ("records", RECORDS, "file shapes <-> the canonical model, run checks, track presets, documents, search"),
    ("foundation", FOUNDATION, "canonical records, located errors, untrusted input, atomic outputs, registry"),
)
"""The roles of docs/architecture.md's picture, top to bottom: files -> records -> judgments -> scores ->
statistics and reports. Every top-level name has one, and nothing imports a role above its own (but within a
cycle that ``KNOWN_CYCLES`` explains)."""

PICTURE_START = "<!-- the layer picture: drawn from the imports by tools/architecture_graph.py -->"
PICTURE_WIDTH = 116


def top_level_imports(package: Path | None = None) -> dict[str, set[str]]:
    """Top-level name -> the top-level names of ours (and ``click``) its modules import, itself left out: the real
    imports (at run time, under TYPE_CHECKING, and registry targets), the same scan the border test reads."""
    package = package or PACKAGE
    graph: dict[str, set[str]] = {name: set() for name in top_level_names(package)}
    for path in package.rglob("*.py"):
        layer = layer_of(".".join(path.relative_to(package).with_suffix("").parts))
        graph.setdefault(layer, set()).update(layer_of(target) for _, target in imported_names(path, package))
        graph[layer].discard(layer)
    return graph


def import_levels(graph: dict[str, set[str]]) -> dict[str, int]:
    """Name -> its level: 0 for a name that imports nothing of ours, else one above the highest name it imports
    (the names of one cycle share a level)."""
    ours = {name: targets - {"click"} for name, targets in graph.items()}
    level: dict[str, int] = {}
    for component in components(ours):  # imports first
        below = [level[target] for name in component for target in ours[name] if target not in component]
        level.update(dict.fromkeys(component, 1 + max(below, default=-1)))
    return level


def role_of(name: str) -> str:
    roles = [role for role, names, _ in ROLES if name in names]
    assert len(roles) == 1, f"{name}: roles {roles}"
    return roles[0]


def layer_picture(package: Path | None = None) -> str:
    """The picture of docs/architecture.md: every top-level name by level, top to bottom, with its role and
    everything of ours it imports (``*``: an import back, within a cycle; ``click`` last)."""
    package = package or PACKAGE
    graph = top_level_imports(package)
    level = import_levels(graph)
    cycle = {name: set(component) for component in components({n: t - {"click"} for n, t in graph.items()})
             for name in component}

    def label(name: str) -> str:
        return f"{name}.py" if (package / f"{name}.py").is_file() else f"{name}/"

    lines = ["roles, top to bottom:"]
    lines += [f"  {role:<11} {text}".rstrip() for role, _, text in ROLES]
    lines += ["", "level  role        module          imports (every name of ours its code imports; * back, in a cycle)"]
    for name in sorted(graph, key=lambda name: (-level[name], ROLES.index(next(r for r in ROLES if r[0] == role_of(name))),
                                                name)):
        imports = [f"{target}{'*' if target in cycle[name] else ''}" for target in sorted(graph[name] - {"click"})]
        imports += ["click"] if "click" in graph[name] else []
        head = f"{level[name]:>5}  {role_of(name):<11} {label(name):<15} "
        row = head
        for word in imports or ["-"]:
            if len(row) + len(word) + 1 > PICTURE_WIDTH and row.strip() != head.strip():
                lines.append(row.rstrip())
                row = " " * len(head)
            row += word + " "
        lines.append(row.rstrip())
    return "\n".join(lines) + "\n"


def drawn_picture(doc: Path = ARCHITECTURE_DOC) -> str | None:
    """The picture as docs/architecture.md draws it: the ```text block after ``PICTURE_START``."""
    text = doc.read_text(encoding="utf-8")
    match = re.search(re.escape(PICTURE_START) + r"\n```text\n(.*?)^```", text, re.S | re.M)
    return match.group(1) if match else None


def test_the_architecture_picture_is_drawn_from_the_imports():
    """docs/architecture.md's layer picture is the code's: every name at its level, with its role and every import
    it makes. When an import changes, `python tools/architecture_graph.py` redraws it."""
    assert drawn_picture() == layer_picture(), "docs/architecture.md's picture is not the code's: run tools/architecture_graph.py"


def test_every_name_has_one_role_and_imports_no_role_above_its_own():
    graph = top_level_imports()
    order = [role for role, _, _ in ROLES]
    cycle = {name: set(component) for component in components({n: t - {"click"} for n, t in graph.items()})
             for name in component}
    assert sorted(name for _, names, _ in ROLES for name in names) == sorted(graph)  # each once, none missing
    upward = [f"{name} ({role_of(name)}) -> {target} ({role_of(target)})" for name, targets in sorted(graph.items())
              for target in sorted(targets - {"click"}) if target not in cycle[name]
              and order.index(role_of(target)) < order.index(role_of(name))]
    assert upward == []


def test_the_picture_shows_levels_roles_and_the_imports_it_finds(tmp_path, monkeypatch):
    """A package worked by hand: model imports nothing (level 0), errors imports model (1), formats imports
    errors at the top and model in a function (2), api and the package import each other (a cycle: both level 3,
    each import marked back) and api names a registry target in formats; cli imports click and api (4)."""
    (tmp_path / "formats").mkdir()
    (tmp_path / "formats" / "__init__.py").write_text("from ..errors import E\n\n\ndef f():\n    from ..model import M\n")
    (tmp_path / "model.py").write_text("")
    (tmp_path / "errors.py").write_text("from .model import M\n")
    (tmp_path / "api").mkdir()
    (tmp_path / "api" / "run.py").write_text('from .. import __version__\nT = "argue_eval.formats.x:READ"\n')
    (tmp_path / "__init__.py").write_text("from .api import run\n")
    (tmp_path / "cli.py").write_text("import click\nfrom argue_eval.api import run\n")
    monkeypatch.setattr(__import__(__name__), "ROLES", (
        ("top", ("cli",), "the shell"), ("API", ("api", "__init__"), "jobs"), ("bottom", ("formats", "model", "errors"), "")))
    assert import_levels(top_level_imports(tmp_path)) == {"model": 0, "errors": 1, "formats": 2, "api": 3, "__init__": 3,
                                                          "cli": 4}
    assert layer_picture(tmp_path).splitlines() == [
        "roles, top to bottom:",
        "  top         the shell",
        "  API         jobs",
        "  bottom",
        "",
        "level  role        module          imports (every name of ours its code imports; * back, in a cycle)",
        "    4  top         cli.py          api click",
        "    3  API         __init__.py     api*",
        "    3  API         api/            __init__* formats",
        "    2  bottom      formats/        errors model",
        "    1  bottom      errors.py       model",
        "    0  bottom      model.py        -",
    ]


def redrawn(text: str, picture: str) -> str:
    """``text`` (docs/architecture.md) with the picture after ``PICTURE_START`` replaced by ``picture``."""
    pattern = re.compile(re.escape(PICTURE_START) + r"\n```text\n.*?^```", re.S | re.M)
    if not pattern.search(text):
        raise ValueError(f"no picture block after {PICTURE_START!r}")
    return pattern.sub(lambda _: f"{PICTURE_START}\n```text\n{picture}```", text, count=1)


def test_redrawing_replaces_the_picture_and_nothing_else(tmp_path):
    doc = f"# A\n\n{PICTURE_START}\n```text\nold\npicture\n```\n\n```text\nanother block\n```\n"
    assert redrawn(doc, "new\n") == f"# A\n\n{PICTURE_START}\n```text\nnew\n```\n\n```text\nanother block\n```\n"
    (tmp_path / "a.md").write_text(redrawn(doc, "new\n"), encoding="utf-8")
    assert drawn_picture(tmp_path / "a.md") == "new\n"
    try:
        redrawn("# A\n```text\nold\n```\n", "new\n")
    except ValueError as error:
        assert "no picture block" in str(error)
    else:
        raise AssertionError("a doc without the picture's marker was rewritten")
