"""Shared test fixtures. Keep this file small: fixtures that only one test module needs live in that module."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="session", autouse=True)
def index_cache(tmp_path_factory: pytest.TempPathFactory):
    """Collection indexes go to the cache directory, never beside a collection (issue 34): here one for the test
    session, set in the environment so that the commands the tests run in subprocesses use it too, not ~/.cache."""
    if "ARGUE_EVAL_CACHE" not in os.environ:
        os.environ["ARGUE_EVAL_CACHE"] = str(tmp_path_factory.mktemp("argue-eval-cache"))
    yield


@pytest.fixture
def fixtures() -> Path:
    """Directory of small hand-made files shipped with the tests (one subfolder per format family)."""
    return FIXTURES


@pytest.fixture
def docs(tmp_path: Path, fixtures: Path) -> Path:
    """A private copy of the small fixture collection (its offset index goes to the session's cache directory)."""
    target = tmp_path / "docs.jsonl"
    shutil.copy(fixtures / "collection" / "docs.jsonl", target)
    return target


@pytest.fixture
def repo() -> Path:
    """The repository root (for the shipped sample track under topics/, nuggets/, runs/, qrels/)."""
    return REPO


@pytest.fixture
def sample_track(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The working folder is a fresh copy of the sample track (``helpers.copy_sample_track``), as a new user has
    it after a clone: the commands' relative paths (``runs/sample/...``) resolve, and what they write stays here."""
    from helpers import copy_sample_track

    monkeypatch.chdir(copy_sample_track(tmp_path))
    monkeypatch.setenv("ARGUE_EVAL_PROGRESS", "0")
    return tmp_path


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory):
    """The base URL of one llama.cpp server (SmolLM2-135M, loopback) shared by every real-server LLM test."""
    from llama_server import serve

    yield from serve(tmp_path_factory.mktemp("llama") / "server.log")


@pytest.hookimpl(optionalhook=True)  # a pytest-xdist hook: unknown where xdist is not installed
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """Under ``pytest -n`` (tools/test.sh), tests that share a costly setup run in one worker: a module's
    fixtures, the llama.cpp server, ranx's compiled kernels (tests/scheduling.py). An explicit ``--dist``
    other than the default ``load`` keeps xdist's own scheduling."""
    if config.getvalue("dist") != "load":
        return None
    from scheduling import SharedSetupScheduling

    return SharedSetupScheduling(config, log)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """With ``ARGUE_EVAL_FORBID_SKIPS=1`` (set by ``.ci/run``) a skipped test fails the run.

    The tests of optional backends (torch, faiss, Pyserini/Java) skip when their extra is missing, which is
    right for a plain ``tools/test.sh`` but would let CI, which installs every extra, go green without
    running them if an install or the Java lookup silently broke.
    """
    if os.environ.get("ARGUE_EVAL_FORBID_SKIPS") != "1":
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if skipped:
        reporter.ensure_newline()
        reporter.write_line(
            f"ARGUE_EVAL_FORBID_SKIPS=1 but {len(skipped)} test(s) were skipped: "
            + "; ".join(f"{report.nodeid} ({report.longrepr[2] if isinstance(report.longrepr, tuple) else ''})"
                        for report in skipped[:10]),
            red=True,
        )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
