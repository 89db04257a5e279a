"""tools/_venv.sh installs only when it must: the stamp in .venv says what is installed (issue 33 item 6).

``.ci/run`` runs tools/test.sh (extras ``all,test``) and then tools/demo.sh (the core): the demo must not run pip
again for what the first install already holds. ``ensure_venv`` runs here in a folder whose ``.venv/bin/python``
is a stand-in that logs its arguments, so no pip ever runs.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the files ``ensure_venv`` reads, with a stand-in interpreter in ``.venv`` that logs each call."""
    for name in ("setup.cfg", "pyproject.toml"):
        shutil.copy(REPO / name, tmp_path / name)
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text('#!/bin/sh\necho "$*" >> "$(dirname "$0")/../calls.log"\n')
    python.chmod(0o755)
    return tmp_path


def _checksum(project: Path) -> str:
    data = (project / "setup.cfg").read_bytes() + (project / "pyproject.toml").read_bytes()
    return subprocess.run(["cksum"], input=data, capture_output=True, check=True).stdout.split()[0].decode()


def _ensure(project: Path, extras: str, stamp: list[str]) -> list[str]:
    """The pip installs ``ensure_venv EXTRAS`` runs with these stamp lines (``{sum}``: the files' checksum)."""
    (project / ".venv" / ".argue-eval-installed").write_text(
        "".join(line.format(sum=_checksum(project)) + "\n" for line in stamp))
    (project / ".venv" / "calls.log").unlink(missing_ok=True)
    result = subprocess.run(["bash", "-c", f'source "{REPO}/tools/_venv.sh" && ensure_venv "{extras}"'],
                            cwd=project, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    log = project / ".venv" / "calls.log"
    calls = log.read_text().splitlines() if log.exists() else []
    return [call for call in calls if call.startswith("-m pip install")]


def test_the_demo_after_the_test_extras_installs_nothing(project: Path) -> None:
    assert _ensure(project, "", ["{sum} all,test"]) == []
    assert _ensure(project, "test", ["{sum} all,test"]) == []
    assert _ensure(project, "all,test", ["{sum} test", "{sum} all,test"]) == []


def test_missing_extras_or_changed_files_install_again(project: Path) -> None:
    assert _ensure(project, "all,test", ["{sum} test"])[-1] == "-m pip install -e .[all,test]"
    assert _ensure(project, "test", ["{sum} testing"])[-1] == "-m pip install -e .[test]"
    assert _ensure(project, "", ["1 all,test"])[-1] == "-m pip install -e ."
    assert _ensure(project, "", []) == ["-m pip install --upgrade pip", "-m pip install -e ."]
    stamp = (project / ".venv" / ".argue-eval-installed").read_text()
    assert stamp == f"{_checksum(project)} \n"  # what it installed is recorded, for the next run
