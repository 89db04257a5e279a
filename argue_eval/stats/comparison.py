"""A leaderboard with intervals and significance: what ``argue-eval compare`` computes, as a Python API.

One call runs the whole protocol on a systems x topics matrix with one seed: BCa (and percentile) intervals of
each system's mean, the chosen paired test for the compared pairs (each system against a baseline, or all
pairs), multiple-comparison control over exactly that family, and effect sizes (mean difference with its BCa
interval, paired Cohen's d). Systems are ranked by mean (ties by run id); pairs are listed as (better-ranked,
worse-ranked), or (system, baseline) against a baseline, so ``diff = mean(a) - mean(b)``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..errors import OptionError
from ..model import natural_key
from .bootstrap import (
    DEFAULT_CONFIDENCE,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    Intervals,
    TopicBootstrap,
    mean_intervals,
)
from .effects import Effects, paired_effects
from .matrix import ScoreMatrix, as_matrix, to_array
from .pairwise import PairwiseResult, pairwise_significance, resolve_test


@dataclass
class Comparison:
    """Result of ``compare``: ``systems`` and ``pairs`` DataFrames plus settings and notes; ``to_dict`` is the JSON."""

    metric: str
    test: str
    correction: str
    alpha: float
    confidence: float
    resamples: int
    seed: int
    missing: str
    baseline: str | None
    topics: list[str]
    systems: pd.DataFrame
    pairs: pd.DataFrame
    test_resamples: int
    exact: bool
    pair_intervals: str = "unadjusted"
    """``simultaneous`` (Tukey HSD: adjusted like its p-values) or ``unadjusted`` (each pair's own BCa interval)."""
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "test": self.test,
            "correction": self.correction,
            "alpha": self.alpha,
            "confidence": self.confidence,
            "resamples": self.resamples,
            "seed": self.seed,
            "missing": self.missing,
            "baseline": self.baseline,
            "n_systems": int(len(self.systems)),
            "n_topics": len(self.topics),
            "test_resamples": self.test_resamples,
            "exact": self.exact,
            "pair_intervals": self.pair_intervals,
            "systems": [clean_record(row) for row in self.systems.to_dict(orient="records")],
            "pairs": [clean_record(row) for row in self.pairs.to_dict(orient="records")],
            "notes": list(self.notes),
        }


def _clean(value: Any) -> Any:
    """JSON-safe scalar: numpy types to Python, NaN to None (the notes say why)."""
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return None if not np.isfinite(value) else float(value)
    if isinstance(value, list):
        return [_clean(item) for item in value]
    return value


def clean_record(row: dict[str, Any]) -> dict[str, Any]:
    return {key: _clean(value) for key, value in row.items()}


def leaderboard_order(means: np.ndarray, runs: list[str]) -> list[int]:
    """Indices in leaderboard order: higher mean first, equal means by run id (natural order)."""
    return sorted(range(len(runs)), key=lambda k: (-means[k], natural_key(runs[k])))


def compare(
    data: ScoreMatrix | pd.DataFrame,
    baseline: str | None = None,
    test: str | None = None,
    correction: str | None = None,
    alpha: float = 0.05,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    confidence: float = DEFAULT_CONFIDENCE,
) -> Comparison:
    """Leaderboard, paired tests, corrected p-values and effect sizes for a systems x topics matrix.

    Which pairs are significant is decided by ``pairwise.pairwise_significance``, the function the HTML report
    calls too: ``test`` defaults to the randomized Tukey HSD over all pairs and to the paired randomization test
    against a baseline (``pairwise.DEFAULT_TESTS``), ``correction`` to none for Tukey HSD and Holm for the
    randomization and t tests; asking for a correction on top of Tukey HSD is a ``ValueError``.

    The steps: check the options; intervals of each system's mean; the compared pairs with their test and
    correction (``pairwise_significance``); the pairs' effects and intervals; the leaderboard rows. Notes are
    collected in that order, each kept once.
    """
    matrix = as_matrix(data)
    test, correction = _check_options(test, correction, baseline, matrix.runs)
    runs = matrix.runs
    values = to_array(matrix)
    systems, n = values.shape
    notes = list(matrix.notes)
    if n < 3:
        notes.append(f"only {n} topic(s): intervals and tests are unreliable (fewer than 3 topics)")
    if systems < 2:
        notes.append("only one system: nothing to compare")

    means = values.mean(axis=-1)
    order = leaderboard_order(means, runs)
    bootstrap = TopicBootstrap(n, resamples, seed) if n >= 2 else None
    bca, pct = mean_intervals(values, resamples, confidence, seed, bootstrap)
    notes.extend(bca.notes(runs))
    system_boot = bootstrap.means(values) if bootstrap is not None else None

    tested = pairwise_significance(values, order, None if baseline is None else runs.index(baseline), test,
                                   correction, alpha, resamples, seed, confidence)
    notes.extend(tested.notes)
    effects = paired_effects(values, tested.pairs, bootstrap, confidence, system_boot)
    notes.extend(effects.notes)
    pair_frame, pair_intervals = _pair_table(runs, effects, tested, confidence, notes)
    systems_frame = _system_table(matrix, means, order, bca, pct, effects, tested, baseline)

    return Comparison(
        metric=matrix.metric,
        test=test,
        correction=correction,
        alpha=alpha,
        confidence=confidence,
        resamples=resamples,
        seed=seed,
        missing=matrix.missing_policy,
        baseline=baseline,
        topics=matrix.topics,
        systems=systems_frame,
        pairs=pair_frame,
        test_resamples=tested.resamples,
        exact=tested.exact,
        pair_intervals=pair_intervals,
        notes=list(dict.fromkeys(notes)),  # each note once, in order
    )


def _check_options(test: str | None, correction: str | None, baseline: str | None,
                   runs: list[str]) -> tuple[str, str]:
    """The test and correction to use (``pairwise.resolve_test``); a ``ValueError`` for options that do not fit."""
    test, correction = resolve_test(test, correction, baseline is not None)
    if baseline is not None and baseline not in runs:
        raise OptionError("--baseline", f"{baseline!r} is not among the runs: {', '.join(runs)}")
    return test, correction


def _pair_table(runs: list[str], effects: Effects, tested: PairwiseResult, confidence: float,
                notes: list[str]) -> tuple[pd.DataFrame, str]:
    """The pairs' DataFrame and whether its intervals are ``simultaneous`` (Tukey HSD) or ``unadjusted``."""
    pairs, correction = tested.pairs, tested.correction
    pair_labels = [f"{runs[a]} vs {runs[b]}" for a, b in pairs]
    level = f"{confidence:.0%}"
    ci_low, ci_high = effects.interval.low, effects.interval.high
    ci_method = effects.interval.method.astype(str) if len(pairs) else np.zeros(0, dtype=str)
    pair_intervals = "unadjusted"
    critical = tested.critical
    if critical is not None:
        # intervals that agree with the family-wise p-values: simultaneous over all pairs, from the same permutations;
        # they replace the bootstrap's, so a note on the bootstrap's width would describe no interval shown
        ci_low, ci_high = effects.diff - critical, effects.diff + critical
        ci_method = np.full(len(pairs), "tukey-simultaneous")
        pair_intervals = "simultaneous"
        notes.append(f"pair intervals are simultaneous {level} Tukey HSD intervals, diff +- {critical:.4g} (the {level} "
                     "quantile of the permutation range distribution), so they agree with the family-wise p-values")
    else:  # the pairs' own bootstrap intervals are shown: say where one is degenerate
        notes.extend(f"difference {note}" for note in effects.interval.notes(pair_labels))
        if pairs and correction != "none" and len(pairs) > 1:
            notes.append(f"pair intervals (ci_low, ci_high) are {level} BCa intervals of each pair alone, not adjusted "
                         f"for the {len(pairs)} comparisons, while p_adjusted is ({correction}): an interval may "
                         "exclude 0 where p_adjusted is not significant")
    frame = pd.DataFrame({
        "a": [runs[a] for a, _ in pairs],
        "b": [runs[b] for _, b in pairs],
        "diff": effects.diff,
        "ci_low": ci_low,
        "ci_high": ci_high,
        "ci_method": ci_method,
        "cohen_d": effects.cohen_d,
        "statistic": tested.statistic,
        "p_value": tested.p_value,
        "p_adjusted": tested.p_adjusted,
        "significant": tested.significant.astype(bool),
    })
    return frame, pair_intervals


def _system_table(matrix: ScoreMatrix, means: np.ndarray, order: list[int], bca: Intervals, pct: Intervals,
                  effects: Effects, tested: PairwiseResult, baseline: str | None) -> pd.DataFrame:
    """The leaderboard: one row per system in rank order with its mean, intervals and how it compares.

    Against a baseline a row says ``+``/``-`` (significantly better/worse) with the difference; without one
    it lists the systems it is significantly better than, in rank order. Both come from ``tested``
    (``PairwiseResult.marks`` and ``better_than``), as in the HTML report.
    """
    runs = matrix.runs
    n = matrix.values.shape[1]
    rank_of = {index: position + 1 for position, index in enumerate(order)}
    missing_counts = matrix.missing_counts()
    rows = []
    for index in order:
        row: dict[str, Any] = {
            "rank": rank_of[index],
            "run_id": runs[index],
            "mean": float(means[index]),
            "ci_low": float(bca.low[index]),
            "ci_high": float(bca.high[index]),
            "ci_method": str(bca.method[index]),
            "pct_low": float(pct.low[index]),
            "pct_high": float(pct.high[index]),
            "n_topics": n,
            "n_missing": missing_counts.get(runs[index], 0),
        }
        rows.append(row)
    if baseline is not None:
        marks = tested.marks(len(runs), runs.index(baseline))
        by_run = {runs[a]: k for k, (a, _) in enumerate(tested.pairs)}
        for row in rows:
            k = by_run.get(row["run_id"])
            if k is None:
                row.update(vs_baseline="baseline", diff=0.0, p_adjusted=float("nan"))
                continue
            row.update(vs_baseline=marks[runs.index(row["run_id"])], diff=float(effects.diff[k]),
                       p_adjusted=float(tested.p_adjusted[k]))
    else:
        beaten = tested.better_than(len(runs))
        for row, index in zip(rows, order):
            row["better_than"] = [runs[loser] for loser in sorted(beaten[index], key=rank_of.__getitem__)]
    return pd.DataFrame(rows)
