"""Leaderboard statistics for one measure: BCa intervals and significance, as the report shows them.

Against a baseline this is exactly ``argue_eval.stats.comparison.compare`` (paired randomization test,
Holm), so the report and ``argue-eval compare --baseline`` agree number for number. Without a baseline a
round of 100 runs has 4,950 pairs, too many for per-pair bootstrap effects, so the report runs the
randomized Tukey HSD over all pairs (family-wise, no further correction) and shows its result as groups:
runs that share a letter are not significantly different. The intervals come from the same
``mean_intervals`` call, seed and resamples as ``compare``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..stats.bootstrap import mean_intervals
from ..stats.comparison import compare, leaderboard_order
from ..stats.matrix import ScoreMatrix, to_array
from ..stats.significance import tukey_hsd


@dataclass
class MeasureStats:
    """Per run (in ``runs`` order): mean, interval, rank, and a significance mark or Tukey group letters."""

    runs: list[str]
    mean: np.ndarray
    low: np.ndarray
    high: np.ndarray
    rank: list[int]
    marks: list[str]
    """Against a baseline: ``+``/``-`` (significantly above/below), ``baseline``, or ``""``."""
    groups: list[str]
    """Without a baseline: Tukey HSD group letters (``a``, ``ab``, ...)."""
    p_adjusted: list[float | None] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_json(self, order: list[str]) -> dict[str, Any]:
        """Lists aligned with ``order`` (the report's run list); NaN as ``None``."""
        position = {run: k for k, run in enumerate(self.runs)}
        pick = [position.get(run) for run in order]  # None: the run has no value of this measure

        def clean(values: Any) -> list[float | None]:
            return [None if k is None or values[k] is None or not np.isfinite(values[k])
                    else float(f"{float(values[k]):.6g}") for k in pick]

        def take(values: list, empty: Any) -> list:
            return [empty if k is None else values[k] for k in pick] if values else []

        return {
            "mean": clean(self.mean),
            "low": clean(self.low),
            "high": clean(self.high),
            "rank": take(self.rank, None),
            "mark": take(self.marks, ""),
            "group": take(self.groups, ""),
            "p": clean(self.p_adjusted) if self.p_adjusted else [],
        }


def group_letters(order: list[int], significant: np.ndarray) -> dict[int, str]:
    """Letters for runs in leaderboard ``order`` from a symmetric ``significant`` matrix (systems x systems).

    A group is a maximal run of consecutive leaderboard positions in which no pair differs significantly;
    each run gets the letters of the groups it belongs to. This is the "underline" display of papers: with
    means in order, runs sharing a letter cannot be told apart at the chosen level.
    """
    n = len(order)
    ranked = np.triu(np.asarray(significant, dtype=bool)[np.ix_(order, order)], 1)
    # first[p]: the first later position significantly different from position p (n if none)
    first = np.where(ranked.any(axis=1), ranked.argmax(axis=1), n)
    # end[p]: the last position q such that no pair within p..q differs; end[p] = min(first[p] - 1, end[p + 1])
    end = [0] * n
    for position in range(n - 1, -1, -1):
        end[position] = int(first[position]) - 1 if position == n - 1 else min(int(first[position]) - 1, end[position + 1])
    spans: list[tuple[int, int]] = []
    last_end = -1
    for start in range(n):
        if end[start] > last_end:  # not inside the previous group
            spans.append((start, end[start]))
            last_end = end[start]
    letters: dict[int, str] = {index: "" for index in order}
    for number, (first_position, last_position) in enumerate(spans):
        letter = _letter(number)
        for position in range(first_position, last_position + 1):
            letters[order[position]] += letter
    return letters


def _letter(number: int) -> str:
    """a..z, then a1..z1, ...: a short label for group ``number``."""
    return chr(ord("a") + number % 26) + (str(number // 26) if number >= 26 else "")


def leaderboard_stats(matrix: ScoreMatrix, baseline: str | None, resamples: int, seed: int, confidence: float,
                      alpha: float, ranges: np.ndarray | None = None) -> MeasureStats:
    """Intervals and significance of one measure's matrix (see the module docstring for which test).

    ``ranges``: the Tukey HSD null distribution of this matrix if already drawn (``tukey_ranges_many``).
    """
    runs = matrix.runs
    if baseline is not None:
        result = compare(matrix, baseline=baseline, resamples=resamples, seed=seed, confidence=confidence, alpha=alpha)
        systems = result.systems.set_index("run_id").loc[runs]
        p_adjusted = [None if run == baseline else float(systems.at[run, "p_adjusted"]) for run in runs]
        return MeasureStats(runs, systems["mean"].to_numpy(float), systems["ci_low"].to_numpy(float),
                            systems["ci_high"].to_numpy(float), [int(r) for r in systems["rank"]],
                            [str(mark) for mark in systems["vs_baseline"]], [], p_adjusted, list(result.notes))
    values = to_array(matrix)
    means = values.mean(axis=-1)
    order = leaderboard_order(means, runs)
    rank = [0] * len(runs)
    for position, index in enumerate(order):
        rank[index] = position + 1
    notes = list(matrix.notes)
    if values.shape[1] < 3:
        notes.append(f"only {values.shape[1]} topic(s): intervals and tests are unreliable (fewer than 3 topics)")
    bca, _ = mean_intervals(values, resamples, confidence, seed)
    notes.extend(bca.notes(runs))
    groups: list[str] = []
    if len(runs) >= 2 and values.shape[1] >= 2:
        pairs = [(order[p], order[q]) for p in range(len(runs)) for q in range(p + 1, len(runs))]
        test = tukey_hsd(values, pairs, resamples, seed, ranges=ranges)
        notes.extend(test.notes)
        significant = np.zeros((len(runs), len(runs)), dtype=bool)
        for (a, b), p_value, diff in zip(pairs, test.p_value, test.diff):
            if np.isfinite(p_value) and p_value <= alpha and diff != 0:
                significant[a, b] = significant[b, a] = True
        letters = group_letters(order, significant)
        groups = [letters[k] for k in range(len(runs))]
    return MeasureStats(runs, means, bca.low, bca.high, rank, [], groups, [], notes)
