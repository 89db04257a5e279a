"""Leaderboard statistics for one measure: BCa intervals and significance, as the report shows them.

Which pairs differ significantly is decided by ``argue_eval.stats.pairwise.pairwise_significance``, the
function ``argue-eval compare`` (``stats.comparison.compare``) calls, with the same defaults (randomized
Tukey HSD over all pairs; paired randomization test with Holm against a baseline), seed and resamples, so
the page and ``compare`` agree pair by pair. Without a baseline the decisions are shown as letter groups
(``pairwise.letter_groups``: runs that share a letter are not significantly different) and, per run, the
runs it is significantly better than (``compare``'s ``better_than``); against a baseline as ``+``/``-``
marks with the adjusted p-value. The intervals come from the same ``mean_intervals`` call as ``compare``'s.
Only the pairs' effect sizes are left out: a round of 100 runs has 4,950 pairs.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..stats.bootstrap import mean_intervals
from ..stats.comparison import leaderboard_order
from ..stats.matrix import ScoreMatrix, to_array
from ..stats.pairwise import letter_groups, pairwise_significance


@dataclass
class MeasureStats:
    """Per run (in ``runs`` order): mean, interval, rank, and significance: marks against a baseline or letter groups."""

    runs: list[str]
    mean: np.ndarray
    low: np.ndarray
    high: np.ndarray
    rank: list[int]
    marks: list[str]
    """Against a baseline: ``+``/``-`` (significantly above/below), ``baseline``, or ``""``."""
    groups: list[str]
    """Without a baseline: letter groups (``a``, ``ab``, ...); runs sharing a letter do not differ significantly."""
    p_adjusted: list[float | None] = field(default_factory=list)
    better: list[list[int]] = field(default_factory=list)
    """Without a baseline: per run, the runs (indices into ``runs``) it is significantly better than."""
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

        where = {run: k for k, run in enumerate(order)}
        better = [sorted(where[self.runs[j]] for j in beaten) for beaten in self.better] if self.better else []

        return {
            "mean": clean(self.mean),
            "low": clean(self.low),
            "high": clean(self.high),
            "rank": take(self.rank, None),
            "mark": take(self.marks, ""),
            "group": take(self.groups, ""),
            "p": clean(self.p_adjusted) if self.p_adjusted else [],
            "better": take(better, []),
        }


def leaderboard_stats(matrix: ScoreMatrix, baseline: str | None, resamples: int, seed: int, confidence: float,
                      alpha: float, ranges: np.ndarray | None = None, test: str | None = None,
                      correction: str | None = None) -> MeasureStats:
    """Intervals and significance of one measure's matrix, decided as ``compare`` decides them.

    ``ranges``: the Tukey HSD null distribution of this matrix if already drawn (``tukey_ranges_many``).
    ``test``/``correction``: as for ``compare`` (``None``: the shared defaults).
    """
    runs = matrix.runs
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
    if len(runs) < 2:
        return MeasureStats(runs, means, bca.low, bca.high, rank, [], [], [], [], notes)
    base = None if baseline is None else runs.index(baseline)
    tested = pairwise_significance(values, order, base, test, correction, alpha, resamples, seed, confidence, ranges)
    notes.extend(tested.notes)
    if base is not None:
        p_adjusted: list[float | None] = [None] * len(runs)
        for (a, _), p_value in zip(tested.pairs, tested.p_adjusted):
            p_adjusted[a] = float(p_value)
        return MeasureStats(runs, means, bca.low, bca.high, rank, tested.marks(len(runs), base), [], p_adjusted, [],
                            notes)
    letters = letter_groups(order, tested.significance_matrix(len(runs)))
    return MeasureStats(runs, means, bca.low, bca.high, rank, [], [letters[k] for k in range(len(runs))], [],
                        tested.better_than(len(runs)), notes)
