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

from ..errors import unknown_name
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
from .multiple import CORRECTIONS, adjust
from .significance import TESTS, paired_t_test, randomization_test, tukey_hsd


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
            "systems": [_clean_record(row) for row in self.systems.to_dict(orient="records")],
            "pairs": [_clean_record(row) for row in self.pairs.to_dict(orient="records")],
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


def _clean_record(row: dict[str, Any]) -> dict[str, Any]:
    return {key: _clean(value) for key, value in row.items()}


def leaderboard_order(means: np.ndarray, runs: list[str]) -> list[int]:
    """Indices in leaderboard order: higher mean first, equal means by run id (natural order)."""
    return sorted(range(len(runs)), key=lambda k: (-means[k], natural_key(runs[k])))


def compare(
    data: ScoreMatrix | pd.DataFrame,
    baseline: str | None = None,
    test: str = "randomization",
    correction: str | None = None,
    alpha: float = 0.05,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    confidence: float = DEFAULT_CONFIDENCE,
) -> Comparison:
    """Leaderboard, paired tests, corrected p-values and effect sizes for a systems x topics matrix.

    ``correction`` defaults to Holm for the randomization and t tests and to none for Tukey HSD (which already
    controls the family-wise error); asking for a correction on top of Tukey HSD is a ``ValueError``.

    The steps, each its own function below: check the options; intervals of each system's mean; the
    compared pairs; the paired test; the multiple-comparison correction; the pairs' effects and intervals;
    the leaderboard rows. Notes are collected in that order, each kept once.
    """
    matrix = as_matrix(data)
    correction = _check_options(test, correction, baseline, matrix.runs)
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

    pairs = _compared_pairs(order, runs, baseline)
    tested = _paired_test(values, pairs, test, resamples, seed, confidence, notes)
    p_adjusted, significant = _correct(tested, len(pairs), test, correction, alpha, notes)
    effects = paired_effects(values, pairs, bootstrap, confidence, system_boot)
    notes.extend(effects.notes)
    pair_frame, pair_intervals = _pair_table(runs, pairs, effects, tested, p_adjusted, significant, confidence,
                                             correction, notes)
    systems_frame = _system_table(matrix, values, means, order, bca, pct, pairs, effects, p_adjusted, significant,
                                  baseline)

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


def _check_options(test: str, correction: str | None, baseline: str | None, runs: list[str]) -> str:
    """The correction to apply (its default for ``test`` when None); a ``ValueError`` for options that do not fit."""
    if test not in TESTS:
        raise unknown_name("--test", "test", test, TESTS)
    if correction is None:
        correction = "none" if test == "tukey" else "holm"
    if correction not in CORRECTIONS:
        raise unknown_name("--correction", "correction", correction, CORRECTIONS)
    if test == "tukey" and correction != "none":
        raise ValueError("the randomized Tukey HSD already controls the family-wise error over all pairs; use correction 'none'")
    if baseline is not None and baseline not in runs:
        raise ValueError(f"baseline {baseline!r} is not among the runs: {', '.join(runs)}")
    return correction


def _compared_pairs(order: list[int], runs: list[str], baseline: str | None) -> list[tuple[int, int]]:
    """(system, baseline) for every other system in leaderboard order, or every (better-ranked, worse-ranked) pair."""
    if baseline is not None:
        base = runs.index(baseline)
        return [(index, base) for index in order if index != base]
    return [(order[p], order[q]) for p in range(len(order)) for q in range(p + 1, len(order))]


@dataclass
class _Tested:
    """The paired test's outcome for every compared pair."""

    p_value: np.ndarray
    statistic: np.ndarray
    exact: bool = False
    resamples: int = 0
    critical: float | None = None
    """Tukey HSD only: the half-width of the simultaneous intervals."""


def _paired_test(values: np.ndarray, pairs: list[tuple[int, int]], test: str, resamples: int, seed: int,
                 confidence: float, notes: list[str]) -> _Tested:
    """Run ``test`` on the compared pairs (rows of ``values``), adding its notes."""
    if not pairs:
        return _Tested(np.zeros(0), np.zeros(0))
    index_a = np.array([a for a, _ in pairs], dtype=np.int64)
    index_b = np.array([b for _, b in pairs], dtype=np.int64)
    if test == "randomization":
        randomized = randomization_test(values[index_a] - values[index_b], resamples, seed)
        notes.extend(randomized.notes)
        if randomized.exact:
            notes.append(f"randomization test exact: all 2^{values.shape[1]} = {randomized.resamples} sign "
                         "assignments enumerated")
        return _Tested(randomized.p_value, randomized.statistic, randomized.exact, randomized.resamples)
    if test == "t":
        t_test = paired_t_test(values[index_a], values[index_b])
        notes.extend(t_test.notes)
        return _Tested(t_test.p_value, t_test.statistic)
    tukey = tukey_hsd(values, pairs, resamples, seed, confidence)
    notes.extend(tukey.notes)
    return _Tested(tukey.p_value, tukey.statistic, False, tukey.resamples, tukey.critical)


def _correct(tested: _Tested, pair_count: int, test: str, correction: str, alpha: float,
             notes: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Adjusted p-values over the compared pairs and which pairs are significant at ``alpha``.

    A note says when the randomization test cannot reach significance under the correction at all (its
    smallest p-value times the family size exceeds alpha), and when pairs without a p-value are left out.
    """
    if test == "randomization" and pair_count and correction in ("holm", "bonferroni"):
        floor = 2 / tested.resamples if tested.exact else 2 / (tested.resamples + 1)
        if floor * pair_count > alpha:
            needed = int(np.ceil(2 * pair_count / alpha))
            notes.append(
                f"the smallest p-value this randomization test can give is {floor:.2g} ({tested.resamples} sign vectors"
                f"{', all of them' if tested.exact else ''}); times the {pair_count} compared pairs it exceeds alpha = {alpha}, "
                f"so no pair can be significant under {correction}: use --correction bh, --test tukey"
                + ("" if tested.exact else f", or --resamples {needed} or more"))
    p_value = tested.p_value
    p_adjusted = adjust(p_value, correction)
    if np.isnan(p_value).any():
        notes.append(f"{int(np.isnan(p_value).sum())} pair(s) have no p-value (see above); they are left out of the "
                     "multiple-comparison family and not marked significant")
    significant = np.where(np.isnan(p_adjusted), False, p_adjusted <= alpha)
    return p_adjusted, significant


def _pair_table(runs: list[str], pairs: list[tuple[int, int]], effects: Effects, tested: _Tested,
                p_adjusted: np.ndarray, significant: np.ndarray, confidence: float, correction: str,
                notes: list[str]) -> tuple[pd.DataFrame, str]:
    """The pairs' DataFrame and whether its intervals are ``simultaneous`` (Tukey HSD) or ``unadjusted``."""
    pair_labels = [f"{runs[a]} vs {runs[b]}" for a, b in pairs]
    notes.extend(f"difference {note}" for note in effects.interval.notes(pair_labels))
    level = f"{confidence:.0%}"
    ci_low, ci_high = effects.interval.low, effects.interval.high
    ci_method = effects.interval.method.astype(str) if len(pairs) else np.zeros(0, dtype=str)
    pair_intervals = "unadjusted"
    critical = tested.critical
    if critical is not None:
        # intervals that agree with the family-wise p-values: simultaneous over all pairs, from the same permutations
        ci_low, ci_high = effects.diff - critical, effects.diff + critical
        ci_method = np.full(len(pairs), "tukey-simultaneous")
        pair_intervals = "simultaneous"
        notes.append(f"pair intervals are simultaneous {level} Tukey HSD intervals, diff +- {critical:.4g} (the {level} "
                     "quantile of the permutation range distribution), so they agree with the family-wise p-values")
    elif pairs and correction != "none" and len(pairs) > 1:
        notes.append(f"pair intervals (ci_low, ci_high) are {level} BCa intervals of each pair alone, not adjusted for "
                     f"the {len(pairs)} comparisons, while p_adjusted is ({correction}): an interval may exclude 0 "
                     "where p_adjusted is not significant")
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
        "p_adjusted": p_adjusted,
        "significant": significant.astype(bool),
    })
    return frame, pair_intervals


def _system_table(matrix: ScoreMatrix, values: np.ndarray, means: np.ndarray, order: list[int], bca: Intervals,
                  pct: Intervals, pairs: list[tuple[int, int]], effects: Effects, p_adjusted: np.ndarray,
                  significant: np.ndarray, baseline: str | None) -> pd.DataFrame:
    """The leaderboard: one row per system in rank order with its mean, intervals and how it compares.

    Against a baseline a row says ``+``/``-`` (significantly better/worse) with the difference; without one
    it lists the systems it is significantly better than, in rank order.
    """
    runs = matrix.runs
    n = values.shape[1]
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
        by_run = {runs[a]: k for k, (a, _) in enumerate(pairs)}
        for row in rows:
            k = by_run.get(row["run_id"])
            if k is None:
                row.update(vs_baseline="baseline", diff=0.0, p_adjusted=float("nan"))
                continue
            mark = ("+" if effects.diff[k] > 0 else "-") if significant[k] else ""
            row.update(vs_baseline=mark, diff=float(effects.diff[k]), p_adjusted=float(p_adjusted[k]))
    else:
        position = {run: k for k, run in enumerate(runs)}
        beaten: dict[int, list[str]] = {index: [] for index in order}
        for k, (a, b) in enumerate(pairs):
            if significant[k]:
                winner, loser = (a, b) if effects.diff[k] > 0 else (b, a)
                if effects.diff[k] != 0:
                    beaten[winner].append(runs[loser])
        for row, index in zip(rows, order):
            row["better_than"] = sorted(beaten[index], key=lambda run: rank_of[position[run]])
    return pd.DataFrame(rows)
