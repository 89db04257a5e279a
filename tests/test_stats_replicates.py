"""Judge replicates (stats.replicates): the two-stage bootstrap, rank stability and variance components, by hand."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from argue_eval.errors import ArgueError
from argue_eval.stats.matrix import from_frame
from argue_eval.stats.replicates import (
    analyze_replicates,
    rank_stability,
    stack,
    two_stage_means,
    two_stage_weights,
    variance_components,
)

# One run, two topics, two replicates: replicate r1 scores (0.2, 0.6), r2 (0.4, 0.8).
ONE_RUN = np.array([[[0.2, 0.6]], [[0.4, 0.8]]])  # (replicates, runs, topics)


def test_variance_components_of_a_shift_worked_by_hand():
    # m = 0.5, topic means 0.3 and 0.7, replicate means 0.4 and 0.6, every residual x - m_t - m_r + m = 0.
    # MS_topic = 2 (0.04 + 0.04) / 1 = 0.16, MS_judge = 2 (0.01 + 0.01) / 1 = 0.04, MS_residual = 0:
    # topic = 0.16 / 2 = 0.08, judge = 0.04 / 2 = 0.02, judge share = 0.02 / 0.10 = 0.2.
    parts = variance_components(ONE_RUN[:, 0, :])
    assert parts["var_topic"] == pytest.approx(0.08)
    assert parts["var_judge"] == pytest.approx(0.02)
    assert parts["var_residual"] == pytest.approx(0.0)
    assert parts["judge_share"] == pytest.approx(0.2)


def test_variance_components_of_pure_noise_and_of_a_constant():
    # r1 (0, 1), r2 (1, 0): every mean is 0.5, residuals +-0.5, MS_residual = 4 x 0.25 / 1 = 1; MS_topic and
    # MS_judge are 0, so their components (0 - 1) / 2 are negative and set to 0: all the variance is the judge's.
    parts = variance_components(np.array([[0.0, 1.0], [1.0, 0.0]]))
    assert (parts["var_topic"], parts["var_judge"], parts["var_residual"]) == (0.0, 0.0, pytest.approx(1.0))
    assert parts["judge_share"] == pytest.approx(1.0)
    assert np.isnan(variance_components(np.full((3, 4), 0.5))["judge_share"])


def test_two_stage_weights_count_the_draws():
    # One resample: both topic slots draw topic 2 (index 1); slot 1 draws replicates (r1, r2), slot 2 (r2, r2).
    # Cells drawn: r1t2 once, r2t2 three times, of 4 draws: weights (r1t1, r1t2, r2t1, r2t2) = (0, 1/4, 0, 3/4).
    weights = two_stage_weights(np.array([[1, 1]]), np.array([[[0, 1], [1, 1]]]), replicates=2, topics=2)
    assert weights.tolist() == [[0.0, 0.25, 0.0, 0.75]]
    cells = ONE_RUN.transpose(0, 2, 1).reshape(4, 1)
    assert (weights @ cells)[0, 0] == pytest.approx(0.25 * 0.6 + 0.75 * 0.8)  # 0.75


def test_two_stage_bootstrap_variance_equals_the_formula():
    # A slot draws topic t (prob 1/T), then the mean of R replicate draws there: mean m_t, variance v_t / R with
    # v_t the replicates' population variance. So Var(slot) = mean_t (m_t - m)^2 + mean_t v_t / R
    # = (0.04 + 0.04) / 2 + (0.01 + 0.01) / 2 / 2 = 0.045, and the mean of T = 2 slots has variance 0.0225
    # (sd 0.15); topics alone would give mean_t (m_t - m)^2 / T = 0.02 (sd 0.1414).
    boot = two_stage_means(ONE_RUN, resamples=200_000, seed=3)
    assert boot.shape == (1, 200_000)
    assert boot.mean() == pytest.approx(0.5, abs=0.002)
    assert boot.std() == pytest.approx(0.15, rel=0.01)
    again = two_stage_means(ONE_RUN, resamples=1000, seed=3)
    assert np.array_equal(again, two_stage_means(ONE_RUN, resamples=1000, seed=3))  # seeded


def test_identical_replicates_give_the_topic_bootstrap():
    values = np.array([[[0.1, 0.5, 0.9, 0.3]]] * 3)
    boot = two_stage_means(values, resamples=50, seed=0)
    topic_draws = np.random.default_rng(0).integers(0, 4, size=(50, 4))
    assert np.allclose(boot[0], values[0, 0][topic_draws].mean(axis=1))


def test_rank_stability_by_hand():
    # Replicate means (topics averaged): A, B, C under r1 (0.9, 0.5, 0.4), r2 (0.8, 0.6, 0.3), r3 (0.5, 0.7, 0.2).
    # Mean leaderboard: A (0.7333), B (0.6), C (0.3). B beats A in r3 only: 1 swap of 3; C never beats anyone.
    # tau-b: r1 vs r2 orders alike (1); r1 vs r3 and r2 vs r3 disagree on (A, B) only: (2 - 1) / 3 = 1/3.
    means = np.array([[0.9, 0.5, 0.4], [0.8, 0.6, 0.3], [0.5, 0.7, 0.2]])
    values = np.repeat(means[:, :, None], 2, axis=2)
    ranks, taus, swaps = rank_stability(values, ["A", "B", "C"], ["r1", "r2", "r3"])
    assert ranks["run_id"].tolist() == ["A", "B", "C"]
    assert ranks["best_rank"].tolist() == [1, 1, 3] and ranks["worst_rank"].tolist() == [2, 2, 3]
    assert taus["kendall_tau_b"].tolist() == pytest.approx([1.0, 1 / 3, 1 / 3])
    by_pair = {(row.a, row.b): row for row in swaps.itertuples()}
    assert by_pair[("A", "B")].swaps == 1 and by_pair[("A", "B")].swap_rate == pytest.approx(1 / 3)
    assert by_pair[("A", "C")].swaps == 0 and by_pair[("B", "C")].swaps == 0


def test_stack_aligns_topics_and_refuses_other_runs():
    a = from_frame(pd.DataFrame({"t1": [0.1, 0.2], "t2": [0.3, 0.4]}, index=["x", "y"]), "f1")
    b = from_frame(pd.DataFrame({"t2": [0.5, 0.6], "t1": [0.7, 0.8], "t3": [0.0, 0.0]}, index=["y", "x"]), "f1")
    stacked = stack([a, b], ["a", "b"])
    assert stacked.topics == ["t1", "t2"] and stacked.runs == ["x", "y"]
    assert stacked.values[1].tolist() == [[0.8, 0.6], [0.7, 0.5]]  # b's x row is (t1 0.8, t2 0.6)
    assert any("t3" in note for note in stacked.notes)
    c = from_frame(pd.DataFrame({"t1": [0.1]}, index=["z"]), "f1")
    with pytest.raises(ArgueError, match="lacks x, y and adds z"):
        stack([a, c], ["a", "c"])
    with pytest.raises(ArgueError, match="at least two"):
        stack([a])


def test_analysis_rows_hold_interval_ranks_and_share():
    frames = [pd.DataFrame({"t1": [0.2, 0.1], "t2": [0.6, 0.2]}, index=["A", "B"]),
              pd.DataFrame({"t1": [0.4, 0.1], "t2": [0.8, 0.2]}, index=["A", "B"])]
    result = analyze_replicates(stack([from_frame(f, "f1") for f in frames], ["r1", "r2"]), resamples=2000, seed=0)
    top = result.systems.iloc[0]
    assert top["run_id"] == "A" and top["mean"] == pytest.approx(0.5)
    assert top["judge_share"] == pytest.approx(0.2)  # the hand-worked run above
    assert top["ci_low"] <= 0.5 <= top["ci_high"]
    assert top["sd"] > top["topic_sd"]  # the judge widens the interval
    assert top["mean[r1]"] == pytest.approx(0.4) and top["mean[r2]"] == pytest.approx(0.6)
    assert result.systems.iloc[1]["var_judge"] == 0.0  # B is the same under both replicates
    doc = result.to_dict()
    assert doc["n_replicates"] == 2 and doc["kendall_tau_b_mean"] == pytest.approx(1.0)
