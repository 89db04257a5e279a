"""Discriminative power, swap rates, topic-set size and systems of several runs, on matrices worked by hand."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from argue_eval.errors import ArgueError, OptionError
from argue_eval.stats.matrix import from_frame
from argue_eval.stats.power import (
    detectable_difference,
    discriminative_power,
    residual_variance,
    t_test_power,
    topic_set_size,
    topics_needed,
)
from argue_eval.stats.swaps import split_count, swap_rates
from argue_eval.stats.systems import group_runs, run_spread, system_matrix

# Six topics, scores in eighths (exact in binary). A - B = 3/8 on every topic and A - C is 1/2 or 1/4 (always
# positive): the exact randomization test (2^6 = 64 sign vectors) reaches the observed mean only with all signs +
# or all -, p = 2/64 = 0.03125. B - C alternates +1/8, -1/8: mean 0, p = 1.
THREE = pd.DataFrame(
    [[1.0, 0.875, 0.75, 1.0, 0.875, 0.75],
     [0.625, 0.5, 0.375, 0.625, 0.5, 0.375],
     [0.5, 0.625, 0.25, 0.75, 0.375, 0.5]],
    index=["A", "B", "C"], columns=[f"t{k}" for k in range(1, 7)])


def test_discriminative_power_counts_the_significant_pairs():
    plain = discriminative_power(from_frame(THREE, "f1"), test="randomization", correction="none")
    assert plain.summary["pairs"] == 3 and plain.summary["significant"] == 2
    assert plain.summary["power"] == pytest.approx(2 / 3)
    assert plain.curve["p_adjusted"].tolist() == pytest.approx([2 / 64, 2 / 64, 1.0])  # the ASL curve, sorted
    assert plain.curve["position"].tolist() == [1, 2, 3]
    assert {(a, b) for a, b in zip(plain.curve["a"][:2], plain.curve["b"][:2])} == {("A", "B"), ("A", "C")}
    # Holm: 2/64 x 3 = 0.09375 > 0.05, so no pair survives: the power is 0.
    holm = discriminative_power(from_frame(THREE, "f1"), test="randomization", correction="holm")
    assert holm.summary["significant"] == 0 and holm.summary["power"] == 0.0


def test_residual_variance_by_hand():
    # m = 2.5, run means 2 and 3, topic means 1.5, 2, 4: residuals (0, 0.5, -0.5) and (0, -0.5, 0.5), so
    # V_E = 1 / ((2 - 1)(3 - 1)) = 0.5; the per-topic differences (1, 0, 2) have variance 1 = 2 V_E.
    frame = pd.DataFrame([[1.0, 2.0, 3.0], [2.0, 2.0, 5.0]], index=["x", "y"], columns=["t1", "t2", "t3"])
    assert residual_variance(frame) == pytest.approx(0.5)
    assert np.var([1, 0, 2], ddof=1) == pytest.approx(2 * residual_variance(frame))


def test_topic_set_size_matches_the_published_paired_t_test_sizes():
    # G*Power's paired t-test (two-sided, alpha 0.05, power 0.8): effect size d = 1 needs 10 pairs (actual
    # power 0.803; 9 give 0.748), d = 0.5 needs 34.
    assert topics_needed(1.0, 1.0) == 10 and topics_needed(0.5, 1.0) == 34
    assert t_test_power(10, 1.0, 1.0) == pytest.approx(0.8031, abs=1e-4)
    assert t_test_power(9, 1.0, 1.0) == pytest.approx(0.7480, abs=1e-4)
    frame = pd.DataFrame([[1.0, 2.0, 3.0], [2.0, 2.0, 5.0]], index=["x", "y"], columns=["t1", "t2", "t3"])
    design = topic_set_size({"m": frame}, [1.0, 0.5])  # sigma_d = sqrt(2 x 0.5) = 1
    assert design["sigma_d"].tolist() == pytest.approx([1.0, 1.0])
    assert design["topics_needed"].tolist() == [10, 34]
    assert design["n_topics"].tolist() == [3, 3]
    assert design["power_now"].iloc[0] == pytest.approx(t_test_power(3, 1.0, 1.0))
    smallest = design["detectable_now"].iloc[0]
    assert t_test_power(3, smallest, 1.0) == pytest.approx(0.8, abs=1e-9)
    assert detectable_difference(10, 1.0) < 1.0 < detectable_difference(9, 1.0)
    with pytest.raises(OptionError):
        topic_set_size({"m": frame}, [0.0])


def test_swap_rate_by_hand():
    # Two runs whose per-topic differences are (0.4, 0.2, -0.1, -0.2).
    # c = 1: 12 ordered splits; the sets disagree when one topic is positive and the other negative: 8 of 12.
    # c = 2: 6 ordered splits: {1,2}|{3,4} (0.3 vs -0.15) swaps, {1,4}|{2,3} (0.1 vs 0.05) does not, and
    # {1,3}|{2,4} (0.15 vs 0) is a tie; each both ways: 2 swaps, 2 ties of 6.
    frame = pd.DataFrame([[0.9, 0.7, 0.4, 0.3], [0.5, 0.5, 0.5, 0.5]], index=["A", "B"], columns=list("wxyz"))
    rates = swap_rates(frame, trials=1000, seed=0)
    whole = rates[rates["bin_low"].isna()]
    assert whole["topics"].tolist() == [1, 2] and whole["exact"].tolist() == [True, True]
    assert whole["comparisons"].tolist() == [12, 6]
    assert whole["swaps"].tolist() == [8, 2] and whole["ties"].tolist() == [0, 2]
    assert whole["swap_rate"].tolist() == pytest.approx([2 / 3, 1 / 3])
    # binned by |d1| (width 0.1) at c = 1: |d1| 0.1 (topic y) swaps against w and x; 0.2 (x and z) swap 4 times of 6
    # (x against y and z, z against w and x); 0.4 (w) against y and z.
    binned = swap_rates(frame, [1], trials=1000, bin_width=0.1).dropna(subset=["bin_low"])
    assert binned["bin_low"].tolist() == pytest.approx([0.1, 0.2, 0.4])
    assert binned["comparisons"].tolist() == [3, 6, 3] and binned["swaps"].tolist() == [2, 4, 2]


def test_swap_rate_samples_when_there_are_too_many_splits():
    rng = np.random.default_rng(5)
    frame = pd.DataFrame(rng.random((4, 8)), index=list("abcd"), columns=[f"t{k}" for k in range(8)])
    assert split_count(8, 2) == 28 * 15
    exact = swap_rates(frame, [2], trials=420)
    sampled = swap_rates(frame, [2], trials=200, seed=1)
    assert bool(exact["exact"].iloc[0]) and not bool(sampled["exact"].iloc[0])
    assert sampled["comparisons"].iloc[0] == 6 * 200
    assert sampled["swap_rate"].iloc[0] == pytest.approx(exact["swap_rate"].iloc[0], abs=0.06)
    assert sampled.equals(swap_rates(frame, [2], trials=200, seed=1))  # seeded
    with pytest.raises(OptionError, match="half the 8 topics"):
        swap_rates(frame, [5])


def test_systems_are_the_mean_of_their_runs():
    # a1 and a2 are seeds of system A: per topic (0.2 + 0.4) / 2 = 0.3 and (0.6 + 1.0) / 2 = 0.8; b stays alone.
    frame = pd.DataFrame([[0.2, 0.6], [0.4, 1.0], [0.5, 0.5]], index=["a1", "a2", "b"], columns=["t1", "t2"])
    matrix = from_frame(frame, "f1")
    systems = system_matrix(matrix, {"a1": "A", "a2": "A"})
    assert systems.runs == ["A", "b"]
    assert systems.values.loc["A"].tolist() == pytest.approx([0.3, 0.8])
    assert any("A = a1, a2" in note for note in systems.notes)
    spread = run_spread(matrix, {"a1": "A", "a2": "A"}).set_index("system")
    # run means 0.4 and 0.7: min 0.4, max 0.7, sd |0.7 - 0.4| / sqrt 2; per-topic ranges 0.2 and 0.4, mean 0.3.
    assert (spread.at["A", "run_min"], spread.at["A", "run_max"]) == pytest.approx((0.4, 0.7))
    assert spread.at["A", "run_sd"] == pytest.approx(0.3 / np.sqrt(2))
    assert spread.at["A", "topic_range"] == pytest.approx(0.3)
    assert spread.at["b", "n_runs"] == 1 and np.isnan(spread.at["b", "run_sd"])
    with pytest.raises(ArgueError, match="not in the score tables: a3"):
        group_runs(matrix.runs, {"a3": "A"})
    with pytest.raises(ArgueError, match="also the id of a run"):
        group_runs(matrix.runs, {"a1": "b"})
