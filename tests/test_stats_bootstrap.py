"""BCa and percentile intervals: equal to scipy.stats.bootstrap given the same seed, and sane on degenerate data."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from argue_eval.stats.bootstrap import (
    CONSTANT,
    PERCENTILE_FALLBACK,
    UNDEFINED,
    TopicBootstrap,
    bca_interval,
    estimate_percentile,
    mean_intervals,
    resample_counts,
    resample_indices,
)
from argue_eval.stats.effects import cohens_d_paired, paired_effects


def _scipy_interval(sample, seed, resamples, method, confidence=0.95):
    result = stats.bootstrap((sample,), np.mean, n_resamples=resamples, rng=np.random.default_rng(seed),
                             method=method, confidence_level=confidence)
    return result.confidence_interval.low, result.confidence_interval.high


@pytest.mark.parametrize("seed, n_topics", [(0, 20), (7, 37), (123, 5)])
def test_bca_and_percentile_equal_scipy_for_every_system(seed: int, n_topics: int):
    rng = np.random.default_rng(seed + 1000)
    values = np.vstack([rng.random(n_topics), rng.beta(0.5, 2, n_topics), rng.normal(0.4, 0.2, n_topics),
                        rng.exponential(0.3, n_topics)])
    bca, pct = mean_intervals(values, resamples=2000, confidence=0.9, seed=seed)
    for row, sample in enumerate(values):
        low, high = _scipy_interval(sample, seed, 2000, "BCa", 0.9)
        assert bca.low[row] == pytest.approx(low, abs=1e-12)
        assert bca.high[row] == pytest.approx(high, abs=1e-12)
        assert bca.method[row] == "bca"
        low, high = _scipy_interval(sample, seed, 2000, "percentile", 0.9)
        assert pct.low[row] == pytest.approx(low, abs=1e-12)
        assert pct.high[row] == pytest.approx(high, abs=1e-12)


def test_resamples_are_the_ones_scipy_draws():
    # scipy.stats.bootstrap draws rng.integers(0, n, (B, n)) once; the means must be those of exactly these rows
    values = np.array([[0.1, 0.5, 0.9, 0.3]])
    indices = resample_indices(4, 50, seed=3)
    scipy_dist = stats.bootstrap((values[0],), np.mean, n_resamples=50, rng=np.random.default_rng(3)).bootstrap_distribution
    assert np.allclose(values[0][indices].mean(axis=1), scipy_dist, atol=1e-15)
    counts = resample_counts(indices, 4)
    assert counts.shape == (4, 50) and counts.sum(axis=0).tolist() == [4.0] * 50  # (topics, resamples)
    assert np.allclose(TopicBootstrap(4, 50, 3).means(values)[0], scipy_dist, atol=1e-15)


def test_difference_interval_equals_scipy_paired_bootstrap():
    rng = np.random.default_rng(5)
    values = rng.random((3, 25))
    bootstrap = TopicBootstrap(25, 3000, seed=11)
    effects = paired_effects(values, [(0, 1), (2, 0)], bootstrap)

    def diff(x, y, axis=-1):
        return x.mean(axis=axis) - y.mean(axis=axis)

    for k, (a, b) in enumerate([(0, 1), (2, 0)]):
        ref = stats.bootstrap((values[a], values[b]), diff, paired=True, n_resamples=3000,
                              rng=np.random.default_rng(11), method="BCa")
        assert effects.interval.low[k] == pytest.approx(ref.confidence_interval.low, abs=1e-12)
        assert effects.interval.high[k] == pytest.approx(ref.confidence_interval.high, abs=1e-12)
        assert effects.diff[k] == pytest.approx(values[a].mean() - values[b].mean(), abs=1e-15)


def test_cohens_d_by_hand():
    # d = [1, 2, 3]: mean 2, sd (ddof 1) = sqrt(((1-2)^2 + 0 + (3-2)^2) / 2) = 1, so d = 2
    d, notes = cohens_d_paired(np.array([[1.0, 2.0, 3.0], [0.5, 0.5, 0.5]]))
    assert d[0] == pytest.approx(2.0)
    assert np.isnan(d[1]) and "undefined" in notes[0]


def test_constant_system_gets_zero_width_interval_not_nan():
    values = np.array([[0.4] * 10, np.linspace(0, 1, 10)])
    bca, pct = mean_intervals(values, resamples=500, seed=1)
    assert (bca.low[0], bca.high[0], bca.method[0]) == (0.4, 0.4, CONSTANT)
    assert pct.method[0] == CONSTANT and pct.low[0] == pct.high[0] == pytest.approx(0.4)
    assert bca.method[1] == "bca" and bca.low[1] < 0.5 < bca.high[1]
    assert "zero width" in bca.notes(["flat", "ramp"])[0] and bca.notes(["flat", "ramp"])[0].startswith("flat")


def test_one_topic_gives_no_interval_and_says_why():
    bca, pct = mean_intervals(np.array([[0.3], [0.7]]), resamples=100, seed=0)
    assert list(bca.method) == [UNDEFINED, UNDEFINED] and np.isnan(bca.low).all()
    assert "at least two topics" in bca.notes(["a", "b"])[0]


def test_undefined_acceleration_falls_back_to_percentile():
    # jackknife values all equal -> acceleration 0/0 -> BCa undefined; the percentile interval is used instead
    theta_b = np.array([[0.0, 1.0, 2.0, 3.0, 4.0]])
    result = bca_interval(np.array([2.0]), theta_b, np.array([[1.0, 1.0, 1.0]]), confidence=0.5)
    # percentile at 0.25 and 0.75 of [0..4] with the linear rule: 1.0 and 3.0
    assert result.method[0] == PERCENTILE_FALLBACK
    assert (result.low[0], result.high[0]) == (1.0, 3.0)


def test_rounding_ties_count_as_ties():
    # two bootstrap values equal the estimate up to one ulp: counted as ties (half below) rather than above
    estimate = 0.3
    theta_b = np.array([[0.1, np.nextafter(0.3, 1), np.nextafter(0.3, 1), 0.5]])  # sorted, as bca_interval passes
    assert estimate_percentile(np.array([estimate]), theta_b, np.array([1e-12]))[0] == pytest.approx((1 + 3) / 8)
    assert estimate_percentile(np.array([estimate]), theta_b, np.array([0.0]))[0] == pytest.approx((1 + 1) / 8)


def test_same_seed_same_bits_other_seed_other_interval():
    values = np.random.default_rng(0).random((5, 30))
    first = mean_intervals(values, resamples=1000, seed=4)[0]
    second = mean_intervals(values, resamples=1000, seed=4)[0]
    other = mean_intervals(values, resamples=1000, seed=5)[0]
    assert first.low.tobytes() == second.low.tobytes() and first.high.tobytes() == second.high.tobytes()
    assert first.low.tobytes() != other.low.tobytes()
