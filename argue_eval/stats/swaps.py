"""How often a conclusion flips with the topics: the swap rate between disjoint topic sets (Voorhees and Buckley).

Voorhees and Buckley (2002, "The effect of topic set size on retrieval experiment error", SIGIR) split the topics
into two disjoint sets of ``c`` topics and count, over every pair of runs, how often the two sets disagree on
which run is better: a *swap*. The swap rate as a function of ``c`` says how many topics a conclusion needs
before it stops depending on which topics were drawn; binned by the size of the difference in the first set, it
says how large a difference must be to be trusted at that topic count (their error-rate curves).

Here, for each ``c`` from 1 to half the topics: two disjoint sets, ordered (the first set is the one whose
difference is binned), every such split when there are at most ``trials`` of them (exact), else ``trials``
random ones (``np.random.default_rng(seed).permutation`` per trial: the first ``c`` topics, then the next
``c``). For every run pair, ``d1`` and ``d2`` are its mean differences on the two sets; a swap is ``d1 * d2 <
0``; a pair tied in either set is no swap (there is no order to flip), and ``ties`` counts those.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..errors import OptionError
from .bootstrap import DEFAULT_SEED
from .matrix import ScoreMatrix, as_matrix, to_array

__all__ = ["swap_rates", "splits", "DEFAULT_TRIALS"]

DEFAULT_TRIALS = 1000
_EPS = 1e-12
"""A mean difference within this of 0 is a tie (sums of the same scores in another order are not exactly equal)."""


def split_count(n: int, c: int) -> int:
    """Ordered pairs of disjoint ``c``-topic sets from ``n`` topics: C(n, c) C(n - c, c)."""
    return math.comb(n, c) * math.comb(n - c, c)


def splits(n: int, c: int, trials: int, seed: int) -> tuple[np.ndarray, np.ndarray, bool]:
    """Topic indices of the two sets per trial, shapes ``(k, c)`` and ``(k, c)``, and whether they are every
    split (``k = split_count(n, c) <= trials``) or ``trials`` random ones."""
    if split_count(n, c) <= trials:
        first, second = [], []
        for one in itertools.combinations(range(n), c):
            rest = [t for t in range(n) if t not in one]
            for two in itertools.combinations(rest, c):
                first.append(one)
                second.append(two)
        return np.array(first, dtype=np.int64), np.array(second, dtype=np.int64), True
    rng = np.random.default_rng(seed)
    order = np.array([rng.permutation(n) for _ in range(trials)], dtype=np.int64)
    return order[:, :c], order[:, c:2 * c], False


def swap_rates(data: ScoreMatrix | pd.DataFrame, topic_counts: Sequence[int] | None = None,
               trials: int = DEFAULT_TRIALS, seed: int = DEFAULT_SEED, bin_width: float | None = None) -> pd.DataFrame:
    """The swap rate per topic-set size ``c`` (by default every ``c`` from 1 to half the topics).

    Rows: ``metric, topics (c), trials, exact, comparisons (pairs x trials), swaps, ties, swap_rate``; with
    ``bin_width`` also one row per bin of ``|d1|`` (``bin_low``, ``bin_high``; the whole-``c`` row has them
    NaN), so each ``c`` can be read as Voorhees and Buckley's error rate for differences of that size.
    """
    matrix = as_matrix(data)
    values = to_array(matrix)
    runs, n = values.shape
    if trials < 1:
        raise OptionError("--trials", f"must be at least 1, found {trials}")
    if bin_width is not None and not bin_width > 0:
        raise OptionError("--bin-width", f"must be more than 0, found {bin_width}")
    counts = list(topic_counts) if topic_counts is not None else list(range(1, n // 2 + 1))
    for c in counts:
        if not 1 <= c <= n // 2:
            raise OptionError("--topics", f"a topic-set size must be between 1 and half the {n} topics "
                              f"({n // 2}), found {c}")
    left, right = np.triu_indices(runs, k=1)
    differences = values[left] - values[right]  # (pairs, topics)
    rows = []
    for c in counts:
        first, second, exact = splits(n, c, trials, seed + c)
        d1 = differences @ _indicator(first, n).T  # (pairs, k): a product, not a (pairs, k, c) gather
        d2 = differences @ _indicator(second, n).T
        tied = (np.abs(d1) <= _EPS) | (np.abs(d2) <= _EPS)
        swapped = (d1 * d2 < 0) & ~tied
        base = {"metric": matrix.metric, "topics": c, "trials": first.shape[0], "exact": exact}
        rows.append({**base, "bin_low": float("nan"), "bin_high": float("nan"), **_rate(swapped, tied)})
        if bin_width is not None and swapped.size:
            bins = np.floor(np.abs(d1) / bin_width + _EPS).astype(np.int64)
            for b in np.unique(bins):
                inside = bins == b
                rows.append({**base, "bin_low": b * bin_width, "bin_high": (b + 1) * bin_width,
                             **_rate(swapped[inside], tied[inside])})
    return pd.DataFrame(rows, columns=["metric", "topics", "trials", "exact", "bin_low", "bin_high", "comparisons",
                                       "swaps", "ties", "swap_rate"])


def _indicator(sets: np.ndarray, n: int) -> np.ndarray:
    """Row k weighs the topics of set k by 1 / c, so ``differences @ out.T`` is each set's mean difference."""
    out = np.zeros((sets.shape[0], n))
    np.put_along_axis(out, sets, 1.0 / sets.shape[1], axis=1)
    return out


def _rate(swapped: np.ndarray, tied: np.ndarray) -> dict[str, float | int]:
    comparisons = int(swapped.size)
    swaps = int(swapped.sum())
    return {"comparisons": comparisons, "swaps": swaps, "ties": int(tied.sum()),
            "swap_rate": swaps / comparisons if comparisons else float("nan")}
