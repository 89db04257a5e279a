"""Bootstrap confidence intervals over topics: BCa (the default) and percentile, vectorized across rows.

Why not call ``scipy.stats.bootstrap`` once per system? It is the reference we must agree with, but a TREC round
has ~100 systems and ~5,000 system pairs, and each call redraws and regathers its resamples. Here the resamples
are drawn once, exactly as scipy draws them (``Generator.integers(0, n, (resamples, n))`` from
``np.random.default_rng(seed)``), turned into per-topic counts, and every system's bootstrap means come out of
one matrix product. The BCa arithmetic then follows scipy's ``_bca_interval`` step by step (bias correction
``z0`` from the share of bootstrap values below the estimate, acceleration ``a`` from the jackknife, adjusted
quantile levels, the same 'linear' quantile rule), for all rows at once. ``tests/test_stats_bootstrap.py``
checks the intervals equal scipy's to 1e-12 given the same seed; ``bench/bench_stats.py`` measures the speed.

One deliberate difference: a bootstrap value that equals the estimate up to rounding (a resample that is a
permutation of the topics, common with discrete scores) counts as equal, not as above or below by one ulp, so
the bias correction does not depend on floating-point summation order. Degenerate rows never give NaN: a
constant distribution gives a zero-width interval, a BCa that is undefined falls back to the percentile
interval, and fewer than two topics gives no interval; each row says which happened in ``method``.
"""
from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy.special import ndtr, ndtri

DEFAULT_RESAMPLES = 10_000
DEFAULT_CONFIDENCE = 0.95
DEFAULT_SEED = 0

# Interval methods reported per row.
BCA = "bca"
PERCENTILE = "percentile"
PERCENTILE_FALLBACK = "percentile (BCa undefined)"
CONSTANT = "constant"
UNDEFINED = "undefined"

METHOD_NOTES = {
    PERCENTILE_FALLBACK: "BCa was undefined (zero jackknife variance or an estimate outside the bootstrap "
                         "distribution), so the percentile interval is given",
    CONSTANT: "every bootstrap value is the same, so the interval has zero width",
    UNDEFINED: "no interval: a bootstrap needs at least two topics (with defined values)",
}


# Below this many multiply-adds a BLAS product is faster on one thread: waking the thread pool costs more than
# it saves, and on a busy machine (CI, a shared server) far more; bench/bench_stats.py times the BCa step that
# depends on it. Needs threadpoolctl (installed with scikit-learn); without it this is a no-op.
_SINGLE_THREAD_MACS = 200_000_000


@lru_cache(maxsize=1)
def _threadpool_controller():
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return None
    return ThreadpoolController()


def _blas_threads_for(macs: int) -> AbstractContextManager:
    """One BLAS thread for a small product, the library's default for a large one."""
    controller = _threadpool_controller() if macs < _SINGLE_THREAD_MACS else None
    return controller.limit(limits=1, user_api="blas") if controller is not None else nullcontext()


def resample_indices(n_topics: int, resamples: int, seed: int) -> np.ndarray:
    """Topic indices of each resample, drawn exactly as ``scipy.stats.bootstrap`` draws them for one sample.

    ``scipy.stats.bootstrap((x,), ..., n_resamples=B, rng=np.random.default_rng(seed))`` (one batch) draws
    ``rng.integers(0, n, (B, n))``; so does this, so the two see identical resamples. With ``paired=True``
    scipy resamples the indices the same way.
    """
    return np.random.default_rng(seed).integers(0, n_topics, size=(resamples, n_topics))


def resample_counts(indices: np.ndarray, n_topics: int, overwrite: bool = False) -> np.ndarray:
    """How often each topic occurs in each resample, shape (topics, resamples), as float64 for a matrix product.

    ``overwrite=True`` reuses ``indices`` as scratch space (one large temporary fewer).
    """
    resamples = indices.shape[0]
    flat = indices if overwrite else indices.copy()
    flat *= resamples
    flat += np.arange(resamples)[:, None]
    counts = np.bincount(flat.ravel(), minlength=resamples * n_topics).reshape(n_topics, resamples)
    return counts.astype(np.float64)


class TopicBootstrap:
    """One set of topic resamples shared by every statistic of a comparison (so intervals are paired).

    ``means(X)`` gives the bootstrap distribution of the row means of ``X`` (rows: systems or pairs,
    columns: topics); ``jackknife_means(X)`` the leave-one-topic-out means used for the BCa acceleration.
    """

    def __init__(self, n_topics: int, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED):
        if resamples < 1:
            raise ValueError("resamples must be at least 1")
        self.n_topics = n_topics
        self.resamples = resamples
        self.seed = seed
        # the indices are only needed as counts; computing those in place saves a large temporary
        self._counts_t = resample_counts(resample_indices(n_topics, resamples, seed), n_topics, overwrite=True)

    def means(self, values: np.ndarray) -> np.ndarray:
        """Bootstrap means, shape (rows, resamples): resample b's mean is sum(count_bt * x_t) / n."""
        values = np.asarray(values, dtype=np.float64)
        with _blas_threads_for(values.shape[0] * values.shape[-1] * self.resamples):
            means = values @ self._counts_t
        means /= self.n_topics
        return means

    def jackknife_means(self, values: np.ndarray) -> np.ndarray:
        """Leave-one-topic-out means, shape (rows, topics)."""
        values = np.asarray(values, dtype=np.float64)
        n = values.shape[-1]
        return (values.sum(axis=-1, keepdims=True) - values) / (n - 1)


@dataclass
class Intervals:
    """Per-row interval ends and how each was obtained (``bca``, ``percentile``, a fallback, ``constant``...)."""

    low: np.ndarray
    high: np.ndarray
    method: np.ndarray

    def notes(self, labels: list[str] | None = None) -> list[str]:
        """One sentence per kind of degenerate row, naming the rows (by ``labels``) it concerns."""
        out = []
        for method, note in METHOD_NOTES.items():
            rows = np.flatnonzero(self.method == method)
            if rows.size:
                names = [labels[i] for i in rows] if labels else [str(i) for i in rows]
                shown = ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")
                out.append(f"{shown}: {note}")
        return out


def _quantile_linear(sorted_values: np.ndarray, p: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
    """Row-wise quantile of already sorted rows at row-specific levels ``p``: scipy's/numpy's 'linear' rule.

    ``rows`` selects which rows of ``sorted_values`` the levels belong to (default: all), without copying them.
    """
    count = sorted_values.shape[-1]
    jg = p * count + (1 - p)
    jp1 = jg // 1
    j = jp1 - 1
    g = jg % 1
    g = np.where(j < 0, 0.0, g)
    j = np.clip(j, 0, count - 1).astype(np.int64)
    jp1 = np.clip(jp1, 0, count - 1).astype(np.int64)
    if rows is None:
        rows = np.arange(sorted_values.shape[0])
    return (1 - g) * sorted_values[rows, j] + g * sorted_values[rows, jp1]


def tie_tolerance(theta_hat: np.ndarray, sorted_b: np.ndarray, n_topics: int) -> np.ndarray:
    """Rounding slack of a bootstrap value: a few ulps per summed topic, relative to the values' scale.

    ``sorted_b`` holds each row's bootstrap values in ascending order (its ends bound the magnitudes)."""
    ends = np.nan_to_num(np.abs(sorted_b[:, [0, -1]])).max(axis=-1)
    scale = np.maximum(np.nan_to_num(np.abs(theta_hat)), ends)
    return 8 * np.finfo(np.float64).eps * max(n_topics, 8) * scale


def estimate_percentile(theta_hat: np.ndarray, sorted_b: np.ndarray, tol: np.ndarray) -> np.ndarray:
    """Share of each row's bootstrap values below its estimate, values within ``tol`` of it counting half (scipy's
    ``_percentile_of_score`` with a tolerance); BCa's bias correction is ``z0 = ndtri(share)``. ``sorted_b``
    holds each row's bootstrap values in ascending order: two binary searches per row, not two full scans."""
    below = np.empty(sorted_b.shape[0])
    at_or_below = np.empty(sorted_b.shape[0])
    for row, (values, target, slack) in enumerate(zip(sorted_b, theta_hat, tol)):
        below[row] = np.searchsorted(values, target - slack, side="left")
        at_or_below[row] = np.searchsorted(values, target + slack, side="right")
    return (below + at_or_below) / (2 * sorted_b.shape[-1])


def bca_interval(
    theta_hat: np.ndarray,
    theta_b: np.ndarray,
    theta_jack: np.ndarray,
    confidence: float = DEFAULT_CONFIDENCE,
    sorted_b: np.ndarray | None = None,
) -> Intervals:
    """BCa intervals for many rows at once (Efron & Tibshirani 1993, 14.3 and eq. 15.36, as scipy computes them).

    ``theta_hat`` (rows,) is the statistic on the data, ``theta_b`` (rows, resamples) on each bootstrap
    resample and ``theta_jack`` (rows, n) on each leave-one-out sample. Rows with non-finite values get the
    percentile interval of their finite bootstrap values (or none), flagged in ``method``. ``sorted_b`` may
    pass ``np.sort(theta_b, axis=-1)`` when the caller already has it.
    """
    theta_hat = np.asarray(theta_hat, dtype=np.float64)
    theta_b = np.atleast_2d(np.asarray(theta_b, dtype=np.float64))
    theta_jack = np.atleast_2d(np.asarray(theta_jack, dtype=np.float64))
    rows, resamples = theta_b.shape
    n = theta_jack.shape[-1]
    low = np.full(rows, np.nan)
    high = np.full(rows, np.nan)
    method = np.full(rows, BCA, dtype=object)
    if n < 2 or resamples < 1:
        method[:] = UNDEFINED
        return Intervals(low, high, method)
    alpha = (1 - confidence) / 2

    if sorted_b is None:
        sorted_b = np.sort(theta_b, axis=-1)
    # NaN sorts last and -inf first, so a sorted row is all finite iff both of its ends are
    finite = (np.isfinite(theta_hat) & np.isfinite(sorted_b[:, 0]) & np.isfinite(sorted_b[:, -1])
              & np.isfinite(theta_jack).all(axis=-1))
    tol = tie_tolerance(theta_hat, sorted_b, n)

    z0 = ndtri(estimate_percentile(np.nan_to_num(theta_hat), sorted_b, tol))

    # Acceleration from the jackknife, in scipy's order of operations.
    jack_mean = theta_jack.mean(axis=-1, keepdims=True)
    u = (n - 1) * (jack_mean - theta_jack)
    num = np.sum(u**3, axis=-1) / n**3
    den = np.sum(u**2, axis=-1) / n**2
    with np.errstate(divide="ignore", invalid="ignore"):
        a_hat = 1 / 6 * num / den ** (3 / 2)
        z_alpha = float(ndtri(alpha))
        num1 = z0 + z_alpha
        alpha_1 = ndtr(z0 + num1 / (1 - a_hat * num1))
        num2 = z0 - z_alpha
        alpha_2 = ndtr(z0 + num2 / (1 - a_hat * num2))

    constant = finite & (sorted_b[:, -1] - sorted_b[:, 0] <= tol)
    usable = finite & ~constant & np.isfinite(alpha_1) & np.isfinite(alpha_2)
    if usable.any():
        rows_usable = np.flatnonzero(usable)
        low[usable] = _quantile_linear(sorted_b, alpha_1[usable], rows_usable)
        high[usable] = _quantile_linear(sorted_b, alpha_2[usable], rows_usable)
    low[constant] = theta_hat[constant]
    high[constant] = theta_hat[constant]
    method[constant] = CONSTANT
    for row in np.flatnonzero(~usable & ~constant):
        low[row], high[row], method[row] = _percentile_row(theta_b[row], alpha)
        if method[row] == PERCENTILE:
            method[row] = PERCENTILE_FALLBACK
    return Intervals(low, high, method)


def _percentile_row(values: np.ndarray, alpha: float) -> tuple[float, float, str]:
    """Percentile interval of one row's finite values; ``undefined`` when fewer than two are finite."""
    values = np.sort(values[np.isfinite(values)])
    if values.size < 2:
        return np.nan, np.nan, UNDEFINED
    if values[-1] == values[0]:
        return float(values[0]), float(values[0]), CONSTANT
    ends = _quantile_linear(np.vstack([values, values]), np.array([alpha, 1 - alpha]))
    return float(ends[0]), float(ends[1]), PERCENTILE


def percentile_interval(
    theta_b: np.ndarray, confidence: float = DEFAULT_CONFIDENCE, sorted_b: np.ndarray | None = None
) -> Intervals:
    """Percentile intervals for many rows: the (1-c)/2 and (1+c)/2 quantiles of each bootstrap distribution."""
    theta_b = np.atleast_2d(np.asarray(theta_b, dtype=np.float64))
    rows = theta_b.shape[0]
    alpha = (1 - confidence) / 2
    low = np.full(rows, np.nan)
    high = np.full(rows, np.nan)
    method = np.full(rows, PERCENTILE, dtype=object)
    if sorted_b is None:
        sorted_b = np.sort(theta_b, axis=-1)
    finite = np.isfinite(sorted_b[:, 0]) & np.isfinite(sorted_b[:, -1]) if sorted_b.shape[-1] else np.zeros(rows, bool)
    if finite.any():
        rows_finite = np.flatnonzero(finite)
        low[finite] = _quantile_linear(sorted_b, np.full(rows_finite.size, alpha), rows_finite)
        high[finite] = _quantile_linear(sorted_b, np.full(rows_finite.size, 1 - alpha), rows_finite)
        first, last = sorted_b[rows_finite, 0], sorted_b[rows_finite, -1]
        constant = last - first <= 1e-12 * np.maximum(np.abs(first), np.abs(last))
        rows_constant = rows_finite[constant]
        method[rows_constant] = CONSTANT
        high[rows_constant] = low[rows_constant]
    for row in np.flatnonzero(~finite):
        low[row], high[row], method[row] = _percentile_row(theta_b[row], alpha)
    if theta_b.shape[-1] < 1:
        method[:] = UNDEFINED
    return Intervals(low, high, method)


def mean_intervals(
    values: np.ndarray,
    resamples: int = DEFAULT_RESAMPLES,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: int = DEFAULT_SEED,
    bootstrap: TopicBootstrap | None = None,
) -> tuple[Intervals, Intervals]:
    """BCa and percentile intervals of each row's mean over topics (rows: systems), from one set of resamples.

    Equal to ``scipy.stats.bootstrap((row,), np.mean, n_resamples=resamples, rng=np.random.default_rng(seed),
    method='BCa')`` (and ``method='percentile'``) for every row.
    """
    values = np.atleast_2d(np.asarray(values, dtype=np.float64))
    n = values.shape[-1]
    if n < 2:
        undefined = Intervals(np.full(values.shape[0], np.nan), np.full(values.shape[0], np.nan),
                              np.full(values.shape[0], UNDEFINED, dtype=object))
        return undefined, Intervals(undefined.low.copy(), undefined.high.copy(), undefined.method.copy())
    bootstrap = bootstrap or TopicBootstrap(n, resamples, seed)
    theta_b = bootstrap.means(values)
    theta_b.sort(axis=-1)  # in place: every later step only needs the values, not their resample order
    theta_hat = values.mean(axis=-1)
    bca = bca_interval(theta_hat, theta_b, bootstrap.jackknife_means(values), confidence, theta_b)
    return bca, percentile_interval(theta_b, confidence, theta_b)
