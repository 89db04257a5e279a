"""Progress bars show on a terminal only (or when forced), and never change what is iterated."""
from __future__ import annotations

import io
import sys

from argue_eval import progress as progress_module
from argue_eval.progress import progress, progress_bar, progress_enabled


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_bars_are_off_when_stderr_is_not_a_terminal(monkeypatch):
    monkeypatch.delenv("ARGUE_EVAL_PROGRESS", raising=False)
    stderr = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stderr)
    assert progress_enabled() is False
    assert list(progress(range(5), desc="work")) == [0, 1, 2, 3, 4]
    bar = progress_bar("work", total=3)
    bar.update(3)
    bar.close()
    assert stderr.getvalue() == ""


def test_bars_follow_the_terminal_and_the_environment(monkeypatch):
    monkeypatch.delenv("ARGUE_EVAL_PROGRESS", raising=False)
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert progress_enabled() is True
    assert list(progress(range(3), desc="work")) == [0, 1, 2]
    assert "work" in terminal.getvalue()  # tqdm drew on the terminal
    monkeypatch.setenv("ARGUE_EVAL_PROGRESS", "0")
    assert progress_enabled() is False  # forced off even on a terminal
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    monkeypatch.setenv("ARGUE_EVAL_PROGRESS", "1")
    assert progress_module.progress_enabled() is True  # forced on in a pipe
