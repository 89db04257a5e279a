"""Holm, Benjamini-Hochberg and Bonferroni adjustments on a known p-vector."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from argue_eval.stats.multiple import adjust, benjamini_hochberg, bonferroni, holm

P = np.array([0.01, 0.04, 0.03, 0.005])


def test_holm_by_hand():
    # sorted: 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04; running max 0.02, 0.03, 0.06, 0.06
    assert holm(P) == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_bh_by_hand_and_equal_to_scipy():
    # sorted p * m / rank: 0.005*4/1 = 0.02, 0.01*4/2 = 0.02, 0.03*4/3 = 0.04, 0.04*4/4 = 0.04; running min from the top
    assert benjamini_hochberg(P) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    random = np.random.default_rng(0).random(200) ** 3
    assert np.array_equal(benjamini_hochberg(random), stats.false_discovery_control(random, method="bh"))


def test_bonferroni_by_hand():
    assert bonferroni(P) == pytest.approx([0.04, 0.16, 0.12, 0.02])
    assert bonferroni(np.array([0.5, 0.9])).tolist() == [1.0, 1.0]


def test_nan_is_left_out_of_the_family():
    adjusted = adjust(np.array([0.01, np.nan, 0.04]), "bonferroni")
    assert adjusted[0] == pytest.approx(0.02) and np.isnan(adjusted[1]) and adjusted[2] == pytest.approx(0.08)
    assert adjust(np.array([0.2, np.nan]), "none")[0] == 0.2


def test_holm_never_below_raw_and_never_above_bonferroni():
    p = np.random.default_rng(3).random(50) ** 2
    assert (holm(p) >= p).all() and (holm(p) <= bonferroni(p) + 1e-15).all()


def test_empty_and_unknown():
    assert adjust(np.array([]), "holm").size == 0
    with pytest.raises(ValueError, match="unknown correction"):
        adjust(P, "sidak")
