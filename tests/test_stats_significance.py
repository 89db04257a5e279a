"""Paired randomization test, t-test and randomized Tukey HSD: hand-computed values and equality with scipy."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from argue_eval.stats.significance import (
    all_pairs,
    paired_t_test,
    randomization_test,
    sign_flips,
    tukey_hsd,
    tukey_ranges,
)


def _mean_diff(x, y, axis=-1):
    return np.mean(x - y, axis=axis)


def test_exact_randomization_p_value_by_enumeration():
    # d = (0.2, -0.1, 0.4, 0.3): observed sum 0.8. Flipping a subset S of the magnitudes {0.1, 0.2, 0.3, 0.4}
    # (total 1.0) gives a sum of +-(1.0 - 2*sum(S)); |.| >= 0.8 iff sum(S) <= 0.1 or sum(S) >= 0.9:
    # S = {}, {0.1}, {0.2, 0.3, 0.4}, {0.1, 0.2, 0.3, 0.4} -> 4 of the 2^4 = 16 sign vectors: p = 0.25.
    result = randomization_test(np.array([[0.2, -0.1, 0.4, 0.3]]), resamples=10_000, seed=0)
    assert result.exact and result.resamples == 16
    assert result.p_value[0] == pytest.approx(0.25, abs=1e-15)
    assert result.diff[0] == pytest.approx(0.2)


def test_all_positive_differences_give_two_of_two_to_the_n():
    # every difference positive: only the all-plus and all-minus vectors reach |sum| -> p = 2 / 2^5 = 0.0625
    result = randomization_test(np.array([[0.2, 0.1, 0.1, 0.2, 0.4]]), resamples=100)
    assert result.p_value[0] == pytest.approx(0.0625)


def test_identical_systems_have_p_one():
    assert randomization_test(np.zeros((1, 12)), resamples=500, seed=1).p_value[0] == 1.0


def test_exact_enumeration_switches_at_two_to_the_n():
    signs, exact = sign_flips(10, resamples=1024)
    assert exact and signs.shape == (1024, 10) and len({tuple(row) for row in signs}) == 1024
    signs, exact = sign_flips(10, resamples=1023, seed=3)
    assert not exact and signs.shape == (1023, 10) and set(np.unique(signs)) == {-1.0, 1.0}


@pytest.mark.parametrize("n_topics, resamples", [(9, 10_000), (30, 999)])
def test_p_values_equal_scipy_permutation_test(n_topics: int, resamples: int):
    rng = np.random.default_rng(n_topics)
    values = rng.random((4, n_topics))
    pairs = all_pairs(4)
    result = randomization_test(np.array([values[a] - values[b] for a, b in pairs]), resamples=resamples, seed=42)
    for k, (a, b) in enumerate(pairs):
        ref = stats.permutation_test((values[a], values[b]), _mean_diff, permutation_type="samples",
                                     n_resamples=resamples, rng=np.random.default_rng(42))
        assert result.p_value[k] == ref.pvalue
        assert result.diff[k] == pytest.approx(ref.statistic, abs=1e-15)


def test_same_seed_same_p_values_other_seed_differs():
    d = np.random.default_rng(0).normal(0.05, 0.2, (20, 40))
    first = randomization_test(d, resamples=2000, seed=9).p_value
    assert first.tobytes() == randomization_test(d, resamples=2000, seed=9).p_value.tobytes()
    assert first.tobytes() != randomization_test(d, resamples=2000, seed=10).p_value.tobytes()


def test_t_test_equals_scipy_and_by_hand():
    a = np.array([[0.5, 0.6, 0.7, 0.4, 0.8]])
    b = np.array([[0.3, 0.5, 0.6, 0.2, 0.4]])
    # d = (0.2, 0.1, 0.1, 0.2, 0.4): mean 0.2, sd = sqrt(0.06 / 4) = 0.122474..., t = 0.2 / (sd / sqrt 5) = 3.6515
    result = paired_t_test(a, b)
    assert result.statistic[0] == pytest.approx(3.6514837, rel=1e-6)
    assert result.p_value[0] == pytest.approx(stats.ttest_rel(a[0], b[0]).pvalue, abs=1e-15)


def test_t_test_degenerate_cases_are_explained():
    a = np.array([[0.5, 0.5, 0.5], [0.5, 0.6, 0.7]])
    b = np.array([[0.5, 0.5, 0.5], [0.4, 0.5, 0.6]])
    result = paired_t_test(a, b)
    assert np.isnan(result.p_value[0]) and result.p_value[1] == 0.0
    assert any("identical scores" in note for note in result.notes)
    assert any("same amount" in note for note in result.notes)
    single = paired_t_test(np.array([[0.5]]), np.array([[0.4]]))
    assert np.isnan(single.p_value[0]) and "at least two topics" in single.notes[0]


def test_tukey_hsd_by_hand():
    # 3 systems, 2 topics; only system 2 scores (3 on both topics). Permuting each topic across systems puts
    # the two 3s on the same system with probability 1/3 (means 3, 0, 0: range 3) and on different ones with
    # probability 2/3 (means 1.5, 1.5, 0: range 1.5). So the pair (2, 0), |diff| = 3, has p = P(range >= 3) = 1/3,
    # and the pair (1, 0), diff 0, has p = 1.
    values = np.array([[0.0, 0.0], [0.0, 0.0], [3.0, 3.0]])
    ranges = tukey_ranges(values, resamples=30_000, seed=2)
    assert set(np.round(ranges, 12)) == {1.5, 3.0}
    result = tukey_hsd(values, [(2, 0), (1, 0)], resamples=30_000, seed=2)
    assert result.p_value[0] == pytest.approx(1 / 3, abs=0.01)
    assert result.p_value[1] == 1.0
    assert result.diff.tolist() == [3.0, 0.0]


def test_tukey_two_systems_matches_the_randomization_distribution():
    # with two systems, permuting a topic = flipping the sign of its difference, and the range is |mean diff|:
    # d = (1, 2, 3) -> sums +-1 +-2 +-3 in {6, 4, 2, 0, 0, -2, -4, -6}; |sum| >= 6 in 2 of 8 -> p = 0.25
    values = np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])
    result = tukey_hsd(values, [(0, 1)], resamples=40_000, seed=0)
    assert result.p_value[0] == pytest.approx(0.25, abs=0.01)


def test_tukey_p_values_shrink_as_the_difference_grows():
    # every pair is judged against the same null distribution of ranges, so a larger |diff| never gets a larger p
    rng = np.random.default_rng(1)
    values = rng.normal(0.5, 0.1, (6, 25)) + np.linspace(0, 0.1, 6)[:, None]
    pairs = all_pairs(6)
    result = tukey_hsd(values, pairs, resamples=3000, seed=1)
    order = np.argsort(np.abs(result.diff))
    assert (np.diff(result.p_value[order]) <= 0).all()
    assert result.p_value.min() < result.p_value.max()


def test_tukey_ranges_many_equals_one_call_per_matrix():
    from argue_eval.stats.significance import tukey_ranges_many

    rng = np.random.default_rng(5)
    matrices = [rng.random((6, 9)), rng.random((6, 9)), np.zeros((6, 9))]
    shared = tukey_ranges_many(matrices, resamples=1200, seed=4)  # 1200 > one block of 500: several blocks
    for values, ranges in zip(matrices, shared):
        assert np.array_equal(ranges, tukey_ranges(values, resamples=1200, seed=4))
    assert not shared[2].any()  # constant scores: every permuted range is 0
    with pytest.raises(ValueError):
        tukey_ranges_many([np.zeros((2, 3)), np.zeros((3, 3))])
