"""The overview figures (report.figures, report.figure_set): what each draws, and the same bytes on a rerun."""
from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("matplotlib", reason="needs the figures extra (matplotlib)")

from argue_eval.report.figure_set import figure_entries, write_figures  # noqa: E402
from argue_eval.report.figures import figure_name, leaderboard_figure, run_figure, swaps_figure  # noqa: E402
from argue_eval.stats.matrix import from_frame  # noqa: E402

# Three runs on four topics. Per topic the median of (A, B, C) is t1 0.5, t2 0.4, t3 0.6, t4 0.2.
VALUES = pd.DataFrame([[0.9, 0.8, 0.7, 0.6], [0.5, 0.4, 0.6, 0.2], [0.1, 0.0, 0.3, 0.1]],
                      index=["A", "B", "C"], columns=["t1", "t2", "t3", "t4"])


def test_run_figure_draws_the_run_against_the_median_best_and_worst():
    figure = run_figure(VALUES, "C", "f1")
    axes = figure.axes[0]
    assert [bar.get_height() for bar in axes.patches] == pytest.approx([0.1, 0.0, 0.3, 0.1])
    median, best, worst = axes.lines[:3]
    assert list(median.get_ydata()) == pytest.approx([0.5, 0.4, 0.6, 0.2])
    assert list(best.get_ydata()) == pytest.approx([0.9, 0.8, 0.7, 0.6])
    assert list(worst.get_ydata()) == pytest.approx([0.1, 0.0, 0.3, 0.1])
    assert [tick.get_text() for tick in axes.get_xticklabels()] == ["t1", "t2", "t3", "t4"]
    # a packet's run against the whole round: the field is every run even where the page shows one
    alone = run_figure(VALUES.loc[["C"]], "C", "f1", field_values=VALUES)
    assert list(alone.axes[0].lines[0].get_ydata()) == pytest.approx([0.5, 0.4, 0.6, 0.2])


def test_leaderboard_figure_puts_the_best_on_top_with_its_letters():
    figure = leaderboard_figure(["A", "B"], np.array([0.75, 0.425]), np.array([0.6, 0.3]), np.array([0.9, 0.5]),
                                ["a", "b"], "f1")
    axes = figure.axes[0]
    labels = {tick.get_text(): tick.get_position()[1] for tick in axes.get_yticklabels()}
    assert labels["A"] > labels["B"]  # best first, from the top
    assert "share a letter" in axes.get_title()
    right = {tick.get_text(): tick.get_position()[1] for tick in axes.child_axes[0].get_yticklabels()}
    assert right == {"a": labels["A"], "b": labels["B"]}  # each run's letters on its own row


def test_swaps_figure_plots_each_measures_curve():
    rates = pd.DataFrame({"metric": ["f1", "f1", "cov", "cov"], "topics": [1, 2, 1, 2], "bin_low": [np.nan] * 4,
                          "swap_rate": [0.4, 0.2, 0.5, 0.3]})
    axes = swaps_figure(rates).axes[0]
    assert [list(line.get_ydata()) for line in axes.lines] == [[0.4, 0.2], [0.5, 0.3]]


def digest(directory: Path) -> dict[str, str]:
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in sorted(directory.iterdir())}


def test_a_rerun_writes_the_same_bytes_in_every_format(tmp_path: Path):
    matrices = {"f1": from_frame(VALUES, "f1"), "nugget_coverage": from_frame(VALUES * 0.5, "nugget_coverage")}
    reuse = pd.DataFrame({"team": ["A", "B", "C"], "run_id": ["A", "B", "C"], "metric": ["f1"] * 3,
                          "change": [-0.1, 0.0, 0.05], "rank_change": [1, 0, 0]})
    first = write_figures(tmp_path / "one", matrices, "f1", reusability=reuse)
    write_figures(tmp_path / "two", matrices, "f1", reusability=reuse)
    names = [figure.name for figure in first]
    assert names == ["leaderboard", "topics", "power", "swaps", "reusability", "run-A", "run-B", "run-C"]
    one, two = digest(tmp_path / "one"), digest(tmp_path / "two")
    assert len(one) == 8 * 3 and one == two
    assert (tmp_path / "one" / "leaderboard.png").read_bytes().startswith(b"\x89PNG")
    assert (tmp_path / "one" / "leaderboard.pdf").read_bytes().startswith(b"%PDF")
    svg = (tmp_path / "one" / "leaderboard.svg").read_text()
    assert "<dc:date>" not in svg and "argue-eval" in svg  # no date; the creator is the kit, not a version
    entries = figure_entries(first, tmp_path / "page.html", embed=1)
    assert entries[0]["files"] == ["one/leaderboard.png", "one/leaderboard.svg", "one/leaderboard.pdf"]
    assert entries[0]["png"].startswith("data:image/png;base64,") and "png" not in entries[1]


def test_run_figure_names_are_safe_file_names():
    assert figure_name("team/run 1:x") == "run-team_run_1_x"


def test_without_matplotlib_the_figures_extra_is_named(monkeypatch: pytest.MonkeyPatch):
    import importlib.util

    from argue_eval.errors import MissingDependencyError
    from argue_eval.report.figures import require_matplotlib

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    with pytest.raises(MissingDependencyError, match=r"pip install 'argue-eval\[figures\]'"):
        require_matplotlib()
