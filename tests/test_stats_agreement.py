"""Agreement between two evaluations: tau-b with ties, tau_AP from its definition, intervals, swaps, top-k."""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from argue_eval.stats.agreement import (
    agreement,
    kendall_tau_b,
    pearson_rows,
    spearman_rows,
    tau_ap,
    tau_ap_rows,
    tau_ap_symmetric,
    tau_b_rows,
)


def _tau_ap_by_definition(reference, order):
    """Yilmaz et al. 2008: 2/(N-1) * sum_{i=2..N} C(i)/(i-1) - 1 for the list ``order`` (best first); a pair tied
    in the reference counts half."""
    total = 0.0
    for position in range(1, len(order)):
        lower = order[position]
        correct = sum(1.0 if reference[upper] > reference[lower] else 0.5 if reference[upper] == reference[lower] else 0.0
                      for upper in order[:position])
        total += correct / position
    return 2 / (len(order) - 1) * total - 1


def test_kendall_tau_b_with_ties_by_hand():
    # x = (1, 2, 2, 3), y = (1, 3, 2, 2). Pairs: (1,2) (1,3) (1,4) concordant; (2,4) discordant; (2,3) tied in x;
    # (3,4) tied in y. tau_b = (3 - 1) / sqrt((6 - 1) * (6 - 1)) = 0.4
    x, y = np.array([1.0, 2, 2, 3]), np.array([1.0, 3, 2, 2])
    assert kendall_tau_b(x, y) == pytest.approx(0.4)
    assert tau_b_rows(x, y)[0] == pytest.approx(0.4)


def test_tau_ap_by_hand_weighs_the_top():
    # Reference A ranks s1 > s2 > s3 > s4. Each B below swaps one adjacent pair (Kendall tau = 2/3 for all three):
    #   top swap    s2 s1 s3 s4: C(2)/1 = 0, C(3)/2 = 1, C(4)/3 = 1 -> 2/3 * 2 - 1 = 1/3
    #   middle swap s1 s3 s2 s4: 1 + 1/2 + 1 = 2.5 -> 2/3 * 2.5 - 1 = 2/3
    #   bottom swap s1 s2 s4 s3: 1 + 1 + 2/3 -> 2/3 * 8/3 - 1 = 7/9
    reference = np.array([4.0, 3, 2, 1])
    top = np.array([3.0, 4, 2, 1])
    middle = np.array([4.0, 2, 3, 1])
    bottom = np.array([4.0, 3, 1, 2])
    assert tau_ap(reference, top) == pytest.approx(1 / 3)
    assert tau_ap(reference, middle) == pytest.approx(2 / 3)
    assert tau_ap(reference, bottom) == pytest.approx(7 / 9)
    assert kendall_tau_b(reference, top) == kendall_tau_b(reference, bottom) == pytest.approx(2 / 3)
    assert tau_ap(reference, reference) == 1.0 and tau_ap(reference, -reference) == pytest.approx(-1.0)


def test_tau_ap_is_asymmetric_and_the_symmetric_variant_averages():
    a = np.array([5.0, 4, 3, 2, 1])
    b = np.array([2.0, 5, 4, 3, 1])
    forward = _tau_ap_by_definition(a, [1, 2, 3, 0, 4])  # B's order, judged by A
    backward = _tau_ap_by_definition(b, [0, 1, 2, 3, 4])  # A's order, judged by B
    assert tau_ap(a, b) == pytest.approx(forward)
    assert tau_ap(b, a) == pytest.approx(backward)
    assert forward != pytest.approx(backward)
    assert tau_ap_symmetric(a, b) == pytest.approx((forward + backward) / 2)


def test_tau_ap_ties_equal_the_average_over_all_tie_breaks():
    rng = np.random.default_rng(0)
    for _ in range(60):
        n = int(rng.integers(2, 7))
        reference = rng.integers(0, 3, n).astype(float)
        estimate = rng.integers(0, 3, n).astype(float)
        orders = [order for order in itertools.permutations(range(n))
                  if all(estimate[order[k]] >= estimate[order[k + 1]] for k in range(n - 1))]
        expected = np.mean([_tau_ap_by_definition(reference, order) for order in orders])
        assert tau_ap(reference, estimate) == pytest.approx(expected, abs=1e-12)
    assert tau_ap(np.array([3.0, 2, 1]), np.array([1.0, 1, 1])) == pytest.approx(0.0)


def test_row_statistics_equal_scipy():
    rng = np.random.default_rng(1)
    x = rng.integers(0, 6, (40, 9)).astype(float)
    y = rng.integers(0, 6, (40, 9)).astype(float)
    tau, rho, r = tau_b_rows(x, y), spearman_rows(x, y), pearson_rows(x, y)
    for k in range(40):
        assert tau[k] == pytest.approx(stats.kendalltau(x[k], y[k]).statistic, abs=1e-12)
        assert rho[k] == pytest.approx(stats.spearmanr(x[k], y[k]).statistic, abs=1e-12)
        assert r[k] == pytest.approx(stats.pearsonr(x[k], y[k]).statistic, abs=1e-12)
    assert np.isnan(tau_b_rows(np.ones(4), np.arange(4.0))[0])
    assert np.isnan(tau_ap_rows(np.ones((1, 1)), np.ones((1, 1)))).all()  # one system: undefined (NaN)


def _frames(seed=3, systems=8, topics=15, noise=0.05):
    rng = np.random.default_rng(seed)
    truth = np.linspace(0.2, 0.7, systems)[:, None] + rng.normal(0, 0.15, (systems, topics))
    other = truth + rng.normal(0, noise, (systems, topics))
    runs = [f"r{k}" for k in range(systems)]
    cols = [f"t{k}" for k in range(topics)]
    return pd.DataFrame(truth, index=runs, columns=cols), pd.DataFrame(other, index=runs, columns=cols)


def test_agreement_point_values_intervals_and_swaps():
    a, b = _frames()
    result = agreement(a, b, resamples=800, seed=1, top_k=(4,))
    means_a, means_b = a.mean(axis=1).to_numpy(), b.mean(axis=1).to_numpy()
    assert result.statistic("kendall_tau_b").value == pytest.approx(stats.kendalltau(means_a, means_b).statistic)
    assert result.statistic("spearman").value == pytest.approx(stats.spearmanr(means_a, means_b).statistic)
    assert result.statistic("pearson").value == pytest.approx(stats.pearsonr(means_a, means_b).statistic)
    assert result.statistic("tau_ap").value == pytest.approx(tau_ap(means_a, means_b))
    for item in result.statistics:
        assert item.ci_low <= item.value + 1e-12 and item.value - 1e-12 <= item.ci_high, item
    swapped = {(s["a"], s["b"]) for s in result.swaps}
    expected = {(a.index[i], a.index[j]) for i in range(8) for j in range(8)
                if means_a[i] > means_a[j] and means_b[i] < means_b[j]}
    assert swapped == expected
    concordant = 28 - len(expected)  # no ties: tau = (C - D) / 28
    assert result.statistic("kendall_tau_b").value == pytest.approx((concordant - len(expected)) / 28)
    (top,) = result.top_k
    assert top["k"] == 4 and top["systems"] == list(a.mean(axis=1).sort_values(ascending=False).index[:4])
    doc = result.to_dict()
    for key in ("n_systems", "kendall_tau_b", "tau_ap", "spearman", "pearson", "swapped_pairs"):
        assert key in doc
    assert doc["n_systems"] == 8 and doc["kendall_tau_b_ci"] == [result.statistic("kendall_tau_b").ci_low,
                                                                 result.statistic("kendall_tau_b").ci_high]


def test_agreement_is_deterministic():
    a, b = _frames(seed=4)
    first = agreement(a, b, resamples=300, seed=2).to_dict()
    assert first == agreement(a, b, resamples=300, seed=2).to_dict()


def test_per_topic_agreement_and_difficulty():
    a = pd.DataFrame([[0.1, 0.5, 0.3], [0.2, 0.5, 0.1], [0.3, 0.5, 0.2]], index=["x", "y", "z"], columns=["t1", "t2", "t3"])
    b = pd.DataFrame([[0.1, 0.4, 0.1], [0.3, 0.6, 0.2], [0.2, 0.5, 0.3]], index=["x", "y", "z"], columns=["t1", "t2", "t3"])
    result = agreement(a, b, resamples=100, seed=0, top_k=())
    per_topic = {item["request_id"]: item["kendall_tau_b"] for item in result.per_topic}
    # t1: A orders x<y<z, B orders x<z<y: pairs (x,y) (x,z) concordant, (y,z) discordant -> 1/3
    # t2: A is constant -> undefined; t3: A (0.3, 0.1, 0.2) vs B (0.1, 0.2, 0.3): (x,y) -, (x,z) -, (y,z) + -> -1/3
    assert per_topic["t1"] == pytest.approx(1 / 3) and per_topic["t2"] is None and per_topic["t3"] == pytest.approx(-1 / 3)
    assert result.per_topic_summary["n_undefined"] == 1 and result.per_topic_summary["mean"] == pytest.approx(0.0)
    assert any("per-topic tau-b undefined for 1 topic" in note and "t2" in note for note in result.notes)


def test_degenerate_inputs_are_flagged_not_nan():
    a = pd.DataFrame([[0.5, 0.5], [0.5, 0.5]], index=["x", "y"], columns=["t1", "t2"])
    b = pd.DataFrame([[0.1, 0.2], [0.3, 0.4]], index=["x", "y"], columns=["t1", "t2"])
    result = agreement(a, b, resamples=50, seed=0)
    doc = result.to_dict()
    assert doc["kendall_tau_b"] is None and doc["kendall_tau_b_ci"] is None
    assert any("same mean under A" in note for note in doc["notes"])
    assert any("only 2 shared topic(s)" in note for note in doc["notes"])
    one_topic = agreement(b[["t1"]], b[["t1"]] * 2, resamples=50, seed=0)
    assert one_topic.statistic("kendall_tau_b").value == 1.0
    assert one_topic.statistic("kendall_tau_b").ci_low is None
    assert "no interval" in one_topic.statistic("kendall_tau_b").note


def test_only_shared_systems_and_topics_are_compared():
    a, b = _frames(systems=5, topics=6)
    b = b.drop(index="r0").drop(columns="t5")
    result = agreement(a, b, resamples=100, seed=0, top_k=())
    assert result.runs == ["r1", "r2", "r3", "r4"] and len(result.topics) == 5
    assert any("only in A left out: r0" in note for note in result.notes)
    assert any("topic(s) only in A left out" in note and "t5" in note for note in result.notes)


def test_tau_ap_rows_mixes_tied_and_untied_rows():
    rng = np.random.default_rng(7)
    reference = rng.integers(0, 4, (30, 6)).astype(float)
    estimate = rng.integers(0, 4, (30, 6)).astype(float)
    estimate[::2] += rng.random((15, 6))  # even rows: no ties in the estimate
    together = tau_ap_rows(reference, estimate)
    one_by_one = [tau_ap(reference[k], estimate[k]) for k in range(30)]
    assert together == pytest.approx(one_by_one, abs=1e-12)


def test_bootstrap_bias_is_explained_and_bca_is_available():
    # independent per-cell noise: resampled topics add noise, so resampled tau is lower than the estimate
    rng = np.random.default_rng(0)
    base = rng.uniform(0.2, 0.6, 30)[:, None] + rng.normal(0, 0.1, (30, 20))
    a = pd.DataFrame(base)
    b = pd.DataFrame(base + rng.normal(0, 0.05, base.shape))
    result = agreement(a, b, resamples=1000, seed=0, top_k=())
    tau = result.statistic("kendall_tau_b")
    assert tau.ci_method == "percentile" and tau.bootstrap_mean < tau.value
    if not tau.ci_low <= tau.value <= tau.ci_high:
        assert "outside its interval" in tau.note
    bca = agreement(a, b, resamples=1000, seed=0, top_k=(), interval="bca").statistic("kendall_tau_b")
    assert bca.ci_method == "bca" and bca.value == tau.value
    with pytest.raises(ValueError, match="unknown interval"):
        agreement(a, b, interval="basic")
