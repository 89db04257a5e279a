"""How ``pytest -n`` (tools/test.sh) spreads the suite over its workers: tests that share a costly setup go to one.

pytest-xdist's default sends tests to the workers one by one, so a setup that several tests share would be
paid in every worker that runs one of them: a module-scoped fixture (a Chromium, a model), the session's
llama.cpp server (conftest's ``llama_server``), or ranx's numba kernels, which a fresh install compiles on
first use (about a minute of CPU, in each process that gets there first; numba's disk cache spares later
runs). :class:`SharedSetupScheduling` is xdist's scope scheduler with these units of work, each found from the
test's id and its file's source, so nothing depends on pytest's internals:

* ``ranx``: every test whose id names ranx (``test_pool.py::test_rrf_scores_match_ranx``, the ``[ranx]``
  engine cases of ``test_retrieval.py``);
* ``fixture:NAME``: every test that asks for ``NAME``, a session-scoped fixture of ``conftest.py`` (every test
  of its file when a fixture or helper of the file asks for it; otherwise only the test functions that do, so
  that a file's other tests, such as the lexical and semantic ones of ``test_stop_signals.py``, do not queue
  behind the server's);
* the file: every test of a file that defines a module- or session-scoped fixture;
* otherwise the test alone (so the 68 help examples, say, run side by side).

xdist hands out the units with the most tests first, and :class:`SharedSetupScheduling` the ranx unit before all
(its compile is the longest), so it starts at once on one worker while the other takes the rest. Of the units of
one test, those marked ``slow`` (``@pytest.mark.slow`` on the function, or in the file's ``pytestmark``: the help
examples, the stop-signal and indexed-ICAT tests) go before the others: a long test handed out last would keep
one worker busy while the other idles, where many short ones at the end let both finish together. (``xdist_group`` marks with ``--dist loadgroup`` would say the same, but with pytest 9.2 and
pytest-xdist 3.8 they silently group nothing: pytest-xdist issue #1386.)
"""
from __future__ import annotations

import ast
from collections.abc import Callable
from functools import cache
from pathlib import Path

from xdist.scheduler import LoadScopeScheduling

TESTS = Path(__file__).resolve().parent


def unit_of(nodeid: str, root: Path) -> str:
    """The unit of work of the test ``nodeid`` (``tests/test_x.py::test_y[param]``, relative to ``root``)."""
    path, _, name = nodeid.partition("::")
    if "ranx" in name:
        return "ranx"
    tests_ask_for, others_ask_for, shares_module_setup = _file_facts(root / path)
    function = name.rpartition("::")[2].partition("[")[0]
    asks_for = others_ask_for | tests_ask_for.get(function, frozenset())
    shared = sorted(asks_for & _session_fixtures(TESTS / "conftest.py"))
    if shared:
        return f"fixture:{shared[0]}"
    return path if shares_module_setup else nodeid


def is_slow(nodeid: str, root: Path) -> bool:
    """Whether the test ``nodeid`` is marked ``slow``: its function's decorator, or its file's ``pytestmark``."""
    path, _, name = nodeid.partition("::")
    function = name.rpartition("::")[2].partition("[")[0]
    slow_functions, slow_file = _slow_marks(root / path)
    return slow_file or function in slow_functions


def hand_out_order(units: dict[str, dict[str, bool]], slow: Callable[[str], bool]) -> list[str]:
    """The order in which to hand out ``units`` (unit -> its tests, in xdist's order, most tests first): the ranx
    unit, then the units of several tests (as xdist ordered them), then the single tests marked slow
    (``slow(nodeid)``), then the other single tests."""
    def rank(unit: str) -> int:
        if unit == "ranx":
            return 0
        if len(units[unit]) > 1:
            return 1
        return 2 if slow(next(iter(units[unit]))) else 3

    return sorted(units, key=rank)  # stable: within a rank, xdist's order


class SharedSetupScheduling(LoadScopeScheduling):
    """xdist's ``loadscope`` scheduling with :func:`unit_of` as the scope, handed out in :func:`hand_out_order`."""

    _ordered = False

    def _split_scope(self, nodeid: str) -> str:
        return unit_of(nodeid, self.config.rootpath)

    def _assign_work_unit(self, node) -> None:  # noqa: ANN001  (xdist's WorkerController)
        # On a fresh install the ranx unit is the longest (its compile, one process, minutes on a busy machine):
        # started first, it runs beside everything else instead of after it. The slow single tests follow the
        # shared-setup units, so that the last tests handed out are short ones. The queue is complete at the
        # first assignment (xdist fills it once, when every worker has collected).
        if not self._ordered:
            self._ordered = True
            root = self.config.rootpath
            for unit in hand_out_order(self.workqueue, lambda nodeid: is_slow(nodeid, root)):
                self.workqueue.move_to_end(unit)
        super()._assign_work_unit(node)


def _fixture_scope(node: ast.AST) -> str | None:
    """The scope of a ``@pytest.fixture(scope=...)`` definition (``None`` for anything else, or the default)."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    for decorator in node.decorator_list:
        if isinstance(decorator, ast.Call) and ast.unparse(decorator.func) in ("pytest.fixture", "fixture"):
            for keyword in decorator.keywords:
                if keyword.arg == "scope" and isinstance(keyword.value, ast.Constant):
                    return str(keyword.value.value)
    return None


@cache
def _file_facts(path: Path) -> tuple[dict[str, frozenset[str]], frozenset[str], bool]:
    """The parameter names (the fixtures they ask for) of each test function of ``path`` and of its other
    functions together, and whether it defines a module- or session-scoped fixture. A file that cannot be read
    or parsed asks for nothing and shares nothing."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return {}, frozenset(), False
    functions = [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    tests: dict[str, frozenset[str]] = {}
    others: set[str] = set()
    for node in functions:
        names = {arg.arg for arg in node.args.args}
        if node.name.startswith("test") and _fixture_scope(node) is None and not _is_fixture(node):
            tests[node.name] = tests.get(node.name, frozenset()) | names
        else:
            others |= names
    return tests, frozenset(others), any(_fixture_scope(node) in ("module", "session") for node in functions)


def _is_fixture(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether ``node`` is decorated ``@pytest.fixture`` (with or without arguments)."""
    return any(ast.unparse(decorator.func if isinstance(decorator, ast.Call) else decorator)
               in ("pytest.fixture", "fixture") for decorator in node.decorator_list)


def _is_slow_mark(node: ast.expr) -> bool:
    """Whether ``node`` is ``pytest.mark.slow`` (or a list or tuple holding it, as ``pytestmark`` may be)."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return any(_is_slow_mark(element) for element in node.elts)
    return ast.unparse(node) in ("pytest.mark.slow", "mark.slow")


@cache
def _slow_marks(path: Path) -> tuple[frozenset[str], bool]:
    """The names of the functions of ``path`` marked ``slow``, and whether its ``pytestmark`` marks the whole file
    so. A file that cannot be read or parsed has neither."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return frozenset(), False
    functions = frozenset(node.name for node in ast.walk(tree)
                          if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                          and any(_is_slow_mark(decorator) for decorator in node.decorator_list))
    whole = any(isinstance(node, ast.Assign) and any(ast.unparse(target) == "pytestmark" for target in node.targets)
                and _is_slow_mark(node.value) for node in tree.body)
    return functions, whole


@cache
def _session_fixtures(conftest: Path) -> frozenset[str]:
    """The names of the session-scoped fixtures that ``conftest`` defines."""
    tree = ast.parse(conftest.read_text(encoding="utf-8"))
    return frozenset(node.name for node in tree.body if _fixture_scope(node) == "session")
