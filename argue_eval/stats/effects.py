"""Effect sizes for system pairs: the mean difference with its own BCa interval, and paired Cohen's d.

A p-value says whether a difference is distinguishable from noise, not whether it matters; the interval of the
mean difference says how large it plausibly is, in the metric's own units. It is the BCa interval of
``mean(a) - mean(b)`` over the same topic resamples as the systems' own intervals, so it equals
``scipy.stats.bootstrap((a, b), lambda x, y, axis: x.mean(axis) - y.mean(axis), paired=True, method='BCa')``
with the same seed (tested). Paired Cohen's d (often written d_z) is the mean difference over the standard
deviation of the per-topic differences (ddof = 1): a unit-free size that can be compared across metrics.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .bootstrap import DEFAULT_CONFIDENCE, Intervals, TopicBootstrap, bca_interval

_BLOCK = 512


@dataclass
class Effects:
    """Per pair: mean difference (a - b), its BCa interval (with method per pair), Cohen's d (NaN if undefined)."""

    diff: np.ndarray
    interval: Intervals
    cohen_d: np.ndarray
    notes: list[str]


def cohens_d_paired(differences: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """mean(d) / sd(d, ddof=1) per row; NaN (with a note) for fewer than two topics or constant differences."""
    differences = np.atleast_2d(np.asarray(differences, dtype=np.float64))
    n = differences.shape[-1]
    notes: list[str] = []
    if n < 2:
        rows = differences.shape[0]
        return np.full(rows, np.nan), (["Cohen's d needs at least two topics; left out"] if rows else [])
    mean = differences.mean(axis=-1)
    sd = differences.std(axis=-1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        d = np.where(sd > 0, mean / sd, np.nan)
    if (sd == 0).any():
        notes.append("Cohen's d is undefined (left out) for pairs whose per-topic differences are all equal")
    return d, notes


def paired_effects(
    values: np.ndarray,
    pairs: list[tuple[int, int]],
    bootstrap: TopicBootstrap | None,
    confidence: float = DEFAULT_CONFIDENCE,
    system_means: np.ndarray | None = None,
) -> Effects:
    """Mean difference, its BCa interval and Cohen's d for each ``(a, b)`` pair of rows of ``values``.

    ``system_means`` may pass the already computed bootstrap means of every system (systems x resamples) so
    that they are not recomputed; ``bootstrap`` is ``None`` when there are fewer than two topics.
    """
    values = np.atleast_2d(np.asarray(values, dtype=np.float64))
    index_a = np.array([a for a, _ in pairs], dtype=np.int64)
    index_b = np.array([b for _, b in pairs], dtype=np.int64)
    means = values.mean(axis=-1)
    diff = means[index_a] - means[index_b]
    cohen_d, notes = cohens_d_paired(values[index_a] - values[index_b])
    count = len(pairs)
    low = np.full(count, np.nan)
    high = np.full(count, np.nan)
    method = np.full(count, "undefined", dtype=object)
    if bootstrap is not None and values.shape[-1] >= 2 and count:
        boot = system_means if system_means is not None else bootstrap.means(values)
        jack = bootstrap.jackknife_means(values)
        for start in range(0, count, _BLOCK):
            block = slice(start, start + _BLOCK)
            a, b = index_a[block], index_b[block]
            part = bca_interval(diff[block], boot[a] - boot[b], jack[a] - jack[b], confidence)
            low[block], high[block], method[block] = part.low, part.high, part.method
    return Effects(diff, Intervals(low, high, method), cohen_d, notes)
