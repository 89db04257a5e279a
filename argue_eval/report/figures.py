"""The overview paper's figures, drawn with matplotlib (the ``figures`` extra) as PNG, SVG and PDF.

Every figure is drawn from data in memory (score matrices, comparisons, the analyses' DataFrames), never from a
file, on matplotlib's headless Agg canvas (no display, no pyplot state), in one fixed style: DejaVu Sans (shipped
with matplotlib, so no system font is looked up), fixed sizes and a fixed SVG hash salt, and file metadata
without dates or versions. A rerun with the same inputs therefore writes the same bytes, in all three formats
(``tests/test_report_figures.py`` checks that). Colours are Okabe and Ito's, distinguishable with any colour
vision.

The figures (``FIGURES`` names them, in the order the HTML report shows them):

* ``leaderboard``: each run's mean with its interval, best first, with its significance letters (the report's
  and ``compare``'s decision);
* ``topics``: per topic the spread of the runs' scores (a box with every run as a dot), hardest topic first;
* ``run-RUN``: one run per topic against the median, best and worst of all runs (the TREC convention);
* ``people``: each run's mean under the people's judgments against under the judge's (with Kendall's tau);
* ``power``: discriminative power curves: every pair's adjusted p-value, sorted, per measure, with alpha;
* ``swaps``: the swap rate between disjoint topic sets as a function of their size, per measure;
* ``reusability``: each run's score change when its team is left out of the pool and the bank.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..extras import require_modules

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure
    from numpy.typing import ArrayLike

__all__ = ["FORMATS", "FIGURES", "STYLE", "FigureFile", "require_matplotlib", "figure_name", "leaderboard_figure",
           "topics_figure", "run_figure", "people_figure", "power_figure", "swaps_figure", "reusability_figure",
           "save_figure"]

FORMATS: tuple[str, ...] = ("png", "svg", "pdf")
FIGURES: tuple[str, ...] = ("leaderboard", "topics", "people", "power", "swaps", "reusability", "run-RUN")
COLOURS = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")
"""Okabe and Ito's palette (blue, orange, green, vermilion, purple, sky blue, yellow, black)."""
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
LINES = ("-", "--", "-.", ":")
"""Each curve also has its own marker and line style: two measures with the same curve stay told apart."""


def _curve_style(k: int) -> dict[str, Any]:
    return {"color": COLOURS[k % len(COLOURS)], "marker": MARKERS[k % len(MARKERS)],
            "linestyle": LINES[k % len(LINES)], "markersize": 4, "linewidth": 1.2}
STYLE: dict[str, Any] = {
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
    "axes.axisbelow": True,
    "svg.hashsalt": "argue-eval",
    "svg.fonttype": "path",
    "pdf.fonttype": 42,
    "savefig.dpi": 150,
    "figure.dpi": 100,
    "path.simplify": False,
}
"""matplotlib settings of every figure (applied per figure, so nothing leaks into a caller's plots)."""
_METADATA = {
    "png": {"Software": "argue-eval"},
    "svg": {"Creator": "argue-eval", "Date": None},
    "pdf": {"Creator": "argue-eval", "Producer": "argue-eval", "CreationDate": None, "ModDate": None},
}


def require_matplotlib() -> None:
    """A clear error naming the extra when matplotlib is not installed (before any work)."""
    require_modules("figures", "figures", ["matplotlib"])


@contextmanager
def _style():
    import matplotlib

    with matplotlib.rc_context(cast(Any, STYLE)):  # keys checked by matplotlib at run time
        yield


def _locator(**kwargs: Any) -> Any:
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(**kwargs)


def _figure(width: float, height: float) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure


@dataclass
class FigureFile:
    """One written figure: its name, title and the files (one per format) it was written to."""

    name: str
    title: str
    files: list[Path] = field(default_factory=list)
    png: bytes | None = None
    """The PNG's bytes, when one was written (for the HTML report to embed without reading the file back)."""


def figure_name(run: str) -> str:
    """``run-RUN`` made safe as a file name (anything but letters, digits, ``.``, ``_`` and ``-`` becomes ``_``)."""
    return "run-" + re.sub(r"[^A-Za-z0-9._-]", "_", run)


def save_figure(figure: Figure, directory: str | PathLike[str], name: str, title: str,
                formats: Sequence[str] = FORMATS) -> FigureFile:
    """Write ``figure`` as ``DIR/NAME.FORMAT`` for each format, each atomically, with fixed metadata."""
    import io

    from ..writing import atomic_writer

    out = FigureFile(name, title)
    with _style():
        for kind in formats:
            buffer = io.BytesIO()
            figure.savefig(buffer, format=kind, metadata=_METADATA[kind])
            path = Path(directory) / f"{name}.{kind}"
            with atomic_writer(path, "wb") as handle:
                handle.write(buffer.getvalue())
            out.files.append(path)
            if kind == "png":
                out.png = buffer.getvalue()
    return out


def _tall(count: int) -> float:
    return max(2.2, 0.6 + 0.24 * count)


def leaderboard_figure(runs: Sequence[str], mean: ArrayLike, low: ArrayLike, high: ArrayLike,
                       groups: Sequence[str], measure: str, interval: str = "95% BCa interval") -> Figure:
    """Runs best first (the order given), each mean with its interval and its letters on the right."""
    with _style():
        figure = _figure(6.4, _tall(len(runs)))
        axes = figure.add_subplot()
        y = np.arange(len(runs))[::-1]
        means = np.asarray(mean, dtype=float)
        errors = np.vstack([means - np.asarray(low, dtype=float), np.asarray(high, dtype=float) - means])
        errors = np.where(np.isfinite(errors), np.maximum(errors, 0), 0)
        axes.errorbar(means, y, xerr=errors, fmt="o", color=COLOURS[0], ecolor=COLOURS[0], capsize=3, markersize=4)
        axes.set_yticks(y, list(runs))
        axes.set_xlabel(f"{measure} (mean over topics, {interval})")
        lettered = any(group and group != "baseline" and set(group) - {"+", "-"} for group in groups)
        axes.set_title(f"Leaderboard: {measure}" + ("\nruns that share a letter are not significantly different"
                                                     if lettered else ""))
        if any(groups):
            right = axes.secondary_yaxis("right")
            right.set_yticks(y, list(groups))
            right.tick_params(length=0)
        axes.margins(y=0.5 / max(len(runs), 1))
    return figure


def topics_figure(values: pd.DataFrame, measure: str) -> Figure:
    """Per topic (hardest, i.e. lowest median, first) a box of the runs' scores and every run as a dot."""
    topics = list(values.columns)
    matrix = values.to_numpy(dtype=float)
    order = sorted(range(len(topics)), key=lambda t: (float(np.median(matrix[:, t])), topics[t]))
    with _style():
        figure = _figure(max(4.0, 1.2 + 0.28 * len(topics)), 3.6)
        axes = figure.add_subplot()
        data = [matrix[:, t] for t in order]
        axes.boxplot(data, positions=np.arange(len(order)), widths=0.6, showfliers=False,
                     medianprops={"color": COLOURS[3]}, boxprops={"color": "#555555"}, whiskerprops={"color": "#555555"},
                     capprops={"color": "#555555"})
        for position, column in enumerate(data):
            offsets = np.linspace(-0.18, 0.18, len(column)) if len(column) > 1 else np.zeros(1)
            axes.scatter(position + offsets, column, s=8, color=COLOURS[0], alpha=0.7, linewidths=0, zorder=3)
        axes.set_xticks(np.arange(len(order)), [topics[t] for t in order], rotation=90 if len(order) > 12 else 0)
        axes.set_xlabel("topic (lowest median first)")
        axes.set_ylabel(measure)
        axes.set_title(f"Per topic: {measure} of every run")
    return figure


def run_figure(values: pd.DataFrame, run: str, measure: str, field_values: pd.DataFrame | None = None) -> Figure:
    """``run``'s score per topic as bars, with the median (line), best and worst (markers) over ``field_values``
    (every run of the round; ``values`` by default) on each topic."""
    field_frame = values if field_values is None else field_values
    topics = list(field_frame.columns)
    mine = values.loc[run].reindex(topics).to_numpy(dtype=float)
    everyone = field_frame.to_numpy(dtype=float)
    x = np.arange(len(topics))
    with _style():
        figure = _figure(max(5.6, 2.4 + 0.3 * len(topics)), 3.6)
        axes = figure.add_subplot()
        axes.bar(x, np.nan_to_num(mine), width=0.7, color=COLOURS[5], label=run)
        axes.plot(x, np.median(everyone, axis=0), "_", color=COLOURS[3], markersize=14, markeredgewidth=2,
                  label="median of all runs")
        axes.plot(x, everyone.max(axis=0), "v", color=COLOURS[2], markersize=5, label="best")
        axes.plot(x, everyone.min(axis=0), "^", color="#555555", markersize=5, label="worst")
        axes.set_xticks(x, topics, rotation=90 if len(topics) > 12 else 0)
        top = float(np.nanmax(everyone)) if everyone.size and np.isfinite(everyone).any() else 1.0
        axes.set_ylim(-0.04 * (top or 1.0), 1.06 * (top or 1.0))  # the markers at 0 and at the top stay visible
        axes.set_xlabel("topic")
        axes.set_ylabel(measure)
        axes.set_title(f"{run}\n{measure} per topic against all runs")
        axes.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=7, frameon=False)
    return figure


def people_figure(runs: Sequence[str], people: ArrayLike, judge: ArrayLike, measure: str,
                  judge_label: str, tau: float | None, people_label: str = "the people's judgments") -> Figure:
    """Each run's mean under the people's judgments (x) against under the judge's (y), with the diagonal."""
    x = np.asarray(people, dtype=float)
    y = np.asarray(judge, dtype=float)
    with _style():
        figure = _figure(4.6, 4.2)
        axes = figure.add_subplot()
        finite = np.concatenate([x[np.isfinite(x)], y[np.isfinite(y)]])
        low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        pad = 0.05 * (high - low or 1.0)
        axes.plot([low - pad, high + pad], [low - pad, high + pad], color="#999999", linewidth=0.8, zorder=1)
        axes.scatter(x, y, s=16, color=COLOURS[0], zorder=3)
        if len(runs) <= 30:
            for run, a, b in zip(runs, x, y):
                axes.annotate(run, (a, b), xytext=(3, 3), textcoords="offset points", fontsize=6)
        axes.set_xlabel(f"{measure}, people ({people_label})")
        axes.set_ylabel(f"{measure}, judge ({judge_label})")
        axes.set_title("Judge against people" + (f" (Kendall's tau-b {tau:.3f})" if tau is not None else ""))
        axes.set_aspect("equal", adjustable="datalim")
    return figure


def power_figure(curves: pd.DataFrame, alpha: float) -> Figure:
    """Per measure, the adjusted p-value of every run pair sorted ascending (Sakai's ASL curves)."""
    with _style():
        figure = _figure(5.6, 3.6)
        axes = figure.add_subplot()
        for k, (metric, part) in enumerate(curves.groupby("metric", sort=False)):
            p = part["p_adjusted"].to_numpy(dtype=float)
            share = int(np.count_nonzero(p <= alpha))
            style = _curve_style(k)
            if len(p) > 30:
                style["marker"] = None
            axes.plot(part["position"].to_numpy(), p, label=f"{metric} ({share}/{len(p)} pairs significant)", **style)
        axes.axhline(alpha, color="#555555", linestyle="--", linewidth=0.8)
        axes.xaxis.set_major_locator(_locator(integer=True))
        axes.set_xlabel("run pairs, sorted by adjusted p-value")
        axes.set_ylabel("adjusted p-value")
        axes.set_title(f"Discriminative power (alpha = {alpha})")
        axes.legend(fontsize=7, frameon=False)
    return figure


def swaps_figure(rates: pd.DataFrame) -> Figure:
    """Per measure, the swap rate against the size of the two disjoint topic sets."""
    whole = rates[rates["bin_low"].isna()]
    with _style():
        figure = _figure(5.2, 3.4)
        axes = figure.add_subplot()
        for k, (metric, part) in enumerate(whole.groupby("metric", sort=False)):
            axes.plot(part["topics"].to_numpy(), part["swap_rate"].to_numpy(dtype=float), label=str(metric),
                      **_curve_style(k))
        axes.xaxis.set_major_locator(_locator(integer=True))
        axes.set_xlabel("topics in each of the two disjoint sets")
        axes.set_ylabel("swap rate (share of run pairs)")
        axes.set_ylim(bottom=0)
        axes.set_title("Swap rate by topic-set size (Voorhees and Buckley)")
        axes.legend(fontsize=7, frameon=False)
    return figure


def reusability_figure(changes: pd.DataFrame, metric: str) -> Figure:
    """Each run's change in ``metric`` when its team is left out, as horizontal bars (largest fall first),
    with the change of rank written beside each bar."""
    part = changes[changes["metric"] == metric].copy()
    part = part.sort_values(["change", "run_id"], kind="stable")
    with _style():
        figure = _figure(6.4, _tall(len(part)))
        axes = figure.add_subplot()
        y = np.arange(len(part))[::-1]
        change = part["change"].to_numpy(dtype=float)
        axes.barh(y, change, color=[COLOURS[3] if c < 0 else COLOURS[0] for c in change], height=0.6)
        axes.set_yticks(y, [run if run == team else f"{run} ({team})" for run, team in zip(part["run_id"], part["team"])])
        axes.xaxis.set_major_locator(_locator(nbins=5))
        axes.axvline(0, color="#555555", linewidth=0.8)
        for position, (value, rank) in enumerate(zip(change, part["rank_change"])):
            axes.annotate(f"rank {int(rank):+d}", (value, y[position]), xytext=(4 if value >= 0 else -4, 0),
                          textcoords="offset points", va="center", ha="left" if value >= 0 else "right", fontsize=7)
        axes.set_xlabel(f"change in {metric}, the run's team left out")
        axes.set_title("Reusability: leave one team out\n(the pool and the bank without its own documents)")
        axes.margins(x=0.25, y=0.5 / max(len(part), 1))
    return figure


def figure_titles() -> Mapping[str, str]:
    """What each figure shows, for the report's figure list."""
    return {"leaderboard": "Leaderboard with intervals and significance groups",
            "topics": "Per-topic scores of every run", "people": "Judge against people",
            "power": "Discriminative power", "swaps": "Swap rate by topic-set size",
            "reusability": "Leave one team out"}
