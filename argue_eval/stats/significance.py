"""Paired significance tests between systems over shared topics: randomization, t, randomized Tukey HSD.

All three take a complete systems x topics array (``argue_eval.stats.matrix``) and test many pairs at once.

* Paired randomization (sign-flip permutation) test of the mean difference, two-sided. Under the null the
  sign of each topic's difference is exchangeable, so the null distribution is the mean of ``s_t * d_t`` over
  sign vectors ``s``: all ``2^n`` of them when ``2^n <= resamples`` (exact), otherwise ``resamples`` random
  ones. One sign matrix serves every pair, so all pairs cost one matrix product. The random signs, the
  tolerance for ties and the p-value (twice the smaller one-sided p-value, with the +1 correction of a Monte
  Carlo test) follow ``scipy.stats.permutation_test(..., permutation_type='samples')`` exactly, so with the
  same seed both give the same p-values (tested).
* Paired t-test: ``scipy.stats.ttest_rel``, vectorized over pairs.
* Randomized Tukey HSD (Carterette 2012, "Multiple testing in statistical analysis of systems-based
  information retrieval experiments"): permute the scores of each topic across systems, record the largest
  minus the smallest system mean; a pair's p-value is the share of permutations whose range reaches the
  pair's absolute mean difference. It controls the family-wise error over all pairs by construction.
"""
from __future__ import annotations

import itertools
import warnings
from dataclasses import dataclass

import numpy as np

from .bootstrap import DEFAULT_RESAMPLES, DEFAULT_SEED

TESTS: tuple[str, ...] = ("randomization", "t", "tukey")
# Rows of the sign matrix or permutations processed per block: bounds memory (block x pairs floats), and is a
# constant so that the random stream, hence every p-value, does not depend on the machine.
_PAIR_BLOCK = 256
_TUKEY_BLOCK = 500


def all_pairs(n_systems: int) -> list[tuple[int, int]]:
    """Every unordered pair ``(i, j)`` with ``i < j``, in lexicographic order."""
    return list(itertools.combinations(range(n_systems), 2))


def sign_flips(n_topics: int, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED) -> tuple[np.ndarray, bool]:
    """The sign vectors of the randomization test, shape (k, n_topics), and whether they are all 2^n of them.

    Random signs are drawn as scipy draws them for ``permutation_type='samples'`` with
    ``rng=np.random.default_rng(seed)``: each topic's pair (a, b) is shuffled by ``Generator.permuted``, and a
    swapped pair flips the sign of the difference.
    """
    if 2**n_topics <= resamples:
        codes = np.arange(2**n_topics)[:, None] >> np.arange(n_topics)[None, :]
        return np.where(codes & 1, -1.0, 1.0), True
    rng = np.random.default_rng(seed)
    shuffled = rng.permuted(np.tile(np.arange(2), (resamples, n_topics, 1)), axis=-1)
    return np.where(shuffled[..., 0] == 0, 1.0, -1.0), False


@dataclass
class TestResult:
    """Per-pair outcome of one test: the mean difference (a - b), its p-value (NaN = undefined) and details."""

    diff: np.ndarray
    p_value: np.ndarray
    statistic: np.ndarray
    exact: bool
    resamples: int
    notes: list[str]
    critical: float | None = None
    """Tukey HSD only: the half-width of the simultaneous intervals, ``diff +- critical`` (see ``tukey_hsd``)."""


def randomization_test(
    differences: np.ndarray, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED
) -> TestResult:
    """Two-sided paired randomization test of mean(d) = 0 for each row of ``differences`` (pairs x topics)."""
    differences = np.atleast_2d(np.asarray(differences, dtype=np.float64))
    pairs, n = differences.shape
    signs, exact = sign_flips(n, resamples, seed)
    count = signs.shape[0]
    observed = differences.mean(axis=-1)
    gamma = np.abs(np.finfo(np.float64).eps * 100 * observed)
    less = np.zeros(pairs, dtype=np.int64)
    greater = np.zeros(pairs, dtype=np.int64)
    signs_t = np.ascontiguousarray(signs.T) / n
    for start in range(0, pairs, _PAIR_BLOCK):
        block = slice(start, start + _PAIR_BLOCK)
        null = differences[block] @ signs_t
        obs = observed[block, None]
        tol = gamma[block, None]
        less[block] = np.count_nonzero(null <= obs + tol, axis=-1)
        greater[block] = np.count_nonzero(null >= obs - tol, axis=-1)
    adjustment = 0 if exact else 1
    p_less = (less + adjustment) / (count + adjustment)
    p_greater = (greater + adjustment) / (count + adjustment)
    p_value = np.clip(np.minimum(p_less, p_greater) * 2, 0.0, 1.0)
    notes = []
    if n < 3:
        notes.append(f"only {n} topic(s): a randomization test over {count} sign vectors cannot reach small p-values")
    return TestResult(observed, p_value, observed, exact, count, notes)


def paired_t_test(a: np.ndarray, b: np.ndarray) -> TestResult:
    """Paired t-test (``scipy.stats.ttest_rel``) of each row of ``a`` against the same row of ``b``.

    Undefined cases (fewer than two topics; all differences equal to zero) give NaN p-values with a note;
    constant non-zero differences give t = +-inf and p = 0, also noted.
    """
    from scipy import stats

    a = np.atleast_2d(np.asarray(a, dtype=np.float64))
    b = np.atleast_2d(np.asarray(b, dtype=np.float64))
    n = a.shape[-1]
    diff = (a - b).mean(axis=-1)
    notes: list[str] = []
    if n < 2:
        notes.append("a paired t-test needs at least two topics; p-values undefined")
        nan = np.full(a.shape[0], np.nan)
        return TestResult(diff, nan, nan.copy(), False, 0, notes)
    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)  # degenerate rows are handled and noted below
        result = stats.ttest_rel(a, b, axis=-1)
    statistic = np.asarray(result.statistic, dtype=np.float64).reshape(-1)
    p_value = np.asarray(result.pvalue, dtype=np.float64).reshape(-1)
    sd = (a - b).std(axis=-1, ddof=1)
    zero = sd == 0
    p_value = np.where(zero & (diff == 0), np.nan, p_value)
    p_value = np.where(zero & (diff != 0), 0.0, p_value)
    statistic = np.where(zero & (diff == 0), np.nan, statistic)
    if (zero & (diff == 0)).any():
        notes.append("t-test undefined where two systems have identical scores on every topic (p-value left out)")
    if (zero & (diff != 0)).any():
        notes.append("t-test degenerate where two systems differ by the same amount on every topic (t infinite, p = 0)")
    if n < 3:
        notes.append(f"only {n} topics: the t-test has {n - 1} degree(s) of freedom")
    return TestResult(diff, p_value, statistic, False, 0, notes)


def tukey_ranges(values: np.ndarray, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED) -> np.ndarray:
    """Null distribution of the randomized Tukey HSD: max minus min system mean after permuting each topic.

    Each permutation shuffles, independently for every topic, which system got which score for that topic.
    """
    return tukey_ranges_many([values], resamples, seed)[0]


def tukey_ranges_many(matrices: list[np.ndarray], resamples: int = DEFAULT_RESAMPLES,
                      seed: int = DEFAULT_SEED) -> list[np.ndarray]:
    """``tukey_ranges`` of several same-shape matrices (e.g. several measures of one round) from one set of permutations.

    The permutations depend only on the shape and the seed, so drawing them once gives, for every matrix,
    exactly what ``tukey_ranges(matrix, resamples, seed)`` gives, for a fraction of the cost.
    """
    stacked = [np.atleast_2d(np.asarray(values, dtype=np.float64)) for values in matrices]
    if not stacked:
        return []
    systems, n = stacked[0].shape
    if any(values.shape != (systems, n) for values in stacked):
        raise ValueError("tukey_ranges_many needs matrices of one shape")
    flat = [np.ascontiguousarray(values.T).ravel() for values in stacked]  # topic-major: [t * systems + s]
    offsets = (np.arange(n, dtype=np.int64) * systems)[None, :, None]
    rng = np.random.default_rng(seed)
    ranges = [np.empty(resamples) for _ in stacked]
    identity = np.broadcast_to(np.arange(systems), (min(_TUKEY_BLOCK, resamples), n, systems))
    for start in range(0, resamples, _TUKEY_BLOCK):
        size = min(_TUKEY_BLOCK, resamples - start)
        index = rng.permuted(identity[:size], axis=-1) + offsets  # (size, topics, systems) into the flat scores
        for values, out in zip(flat, ranges):
            means = values[index].sum(axis=1) / n
            out[start : start + size] = means.max(axis=-1) - means.min(axis=-1)
    return ranges


def tukey_hsd(
    values: np.ndarray, pairs: list[tuple[int, int]], resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
    confidence: float = 0.95, ranges: np.ndarray | None = None,
) -> TestResult:
    """Randomized Tukey HSD p-values for ``pairs`` of rows of ``values`` (systems x topics).

    p = (1 + number of permutations whose range of system means >= |mean_a - mean_b|) / (1 + resamples), with
    the same relative tolerance for ties as the randomization test: the observed assignment is one of the
    permutations, so a Monte Carlo p-value is never below 1/(B+1) (never a misleading 0).

    ``critical`` is the ``confidence`` quantile of the same range distribution (its ceil(confidence (B+1))-th
    smallest value): ``diff +- critical`` are simultaneous intervals for every pair difference, the intervals
    that belong with these family-wise p-values. ``ranges`` may pass this matrix's null distribution already
    drawn (``tukey_ranges_many``), with the same ``resamples`` and ``seed``.
    """
    values = np.atleast_2d(np.asarray(values, dtype=np.float64))
    means = values.mean(axis=-1)
    index_a = np.array([a for a, _ in pairs], dtype=np.int64)
    index_b = np.array([b for _, b in pairs], dtype=np.int64)
    diff = means[index_a] - means[index_b] if pairs else np.zeros(0)
    notes: list[str] = []
    if values.shape[0] < 2 or not pairs:
        return TestResult(diff, np.zeros(0), np.zeros(0), False, 0, notes)
    ranges = np.sort(tukey_ranges(values, resamples, seed) if ranges is None else ranges)
    observed = np.abs(diff)
    threshold = observed - np.abs(np.finfo(np.float64).eps * 100 * observed)
    reaching = resamples - np.searchsorted(ranges, threshold, side="left")
    p_value = (reaching + 1) / (resamples + 1)
    if values.shape[1] < 3:
        notes.append(f"only {values.shape[1]} topic(s): the randomized Tukey HSD has little power")
    rank = min(int(np.ceil(confidence * (resamples + 1))), resamples)
    critical = float(ranges[rank - 1])
    return TestResult(diff, p_value, observed, False, resamples, notes, critical)
