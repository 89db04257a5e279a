"""How ``pytest -n`` (tools/test.sh) spreads the suite over its workers: tests that share a costly setup go to one.

pytest-xdist's default sends tests to the workers one by one, so a setup that several tests share would be
paid in every worker that runs one of them: a module-scoped fixture (a Chromium, a model), the session's
llama.cpp server (conftest's ``llama_server``), or ranx's numba kernels, which a fresh install compiles on
first use (about a minute of CPU, in each process that gets there first; numba's disk cache spares later
runs). :class:`SharedSetupScheduling` is xdist's scope scheduler with these units of work, each found from the
test's id and its file's source, so nothing depends on pytest's internals:

* ``ranx``: every test whose id names ranx (``test_pool.py::test_rrf_scores_match_ranx``, the ``[ranx]``
  engine cases of ``test_retrieval.py``);
* ``fixture:NAME``: every test of a file that asks for ``NAME``, a session-scoped fixture of ``conftest.py``;
* the file: every test of a file that defines a module- or session-scoped fixture;
* otherwise the test alone (so the 68 help examples, say, run side by side).

xdist hands out the largest units first, and the ranx unit before all (its compile is the longest), so it
starts at once on one worker while the other takes the rest. (``xdist_group`` marks with ``--dist loadgroup`` would say the same, but with pytest 9.2 and
pytest-xdist 3.8 they silently group nothing: pytest-xdist issue #1386.)
"""
from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from xdist.scheduler import LoadScopeScheduling

TESTS = Path(__file__).resolve().parent


def unit_of(nodeid: str, root: Path) -> str:
    """The unit of work of the test ``nodeid`` (``tests/test_x.py::test_y[param]``, relative to ``root``)."""
    path, _, name = nodeid.partition("::")
    if "ranx" in name:
        return "ranx"
    asks_for, shares_module_setup = _file_facts(root / path)
    shared = sorted(asks_for & _session_fixtures(TESTS / "conftest.py"))
    if shared:
        return f"fixture:{shared[0]}"
    return path if shares_module_setup else nodeid


class SharedSetupScheduling(LoadScopeScheduling):
    """xdist's ``loadscope`` scheduling with :func:`unit_of` as the scope, and the ranx unit handed out first."""

    def _split_scope(self, nodeid: str) -> str:
        return unit_of(nodeid, self.config.rootpath)

    def _assign_work_unit(self, node) -> None:  # noqa: ANN001  (xdist's WorkerController)
        # On a fresh install the ranx unit is the longest (its compile, one process, minutes on a busy machine):
        # started first, it runs beside everything else instead of after it.
        if "ranx" in self.workqueue:
            self.workqueue.move_to_end("ranx", last=False)
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
def _file_facts(path: Path) -> tuple[frozenset[str], bool]:
    """The parameter names of the functions in ``path`` (the fixtures they ask for), and whether it defines a
    module- or session-scoped fixture. A file that cannot be read or parsed counts as neither."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return frozenset(), False
    functions = [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    names = frozenset(arg.arg for node in functions for arg in node.args.args)
    return names, any(_fixture_scope(node) in ("module", "session") for node in functions)


@cache
def _session_fixtures(conftest: Path) -> frozenset[str]:
    """The names of the session-scoped fixtures that ``conftest`` defines."""
    tree = ast.parse(conftest.read_text(encoding="utf-8"))
    return frozenset(node.name for node in tree.body if _fixture_scope(node) == "session")
