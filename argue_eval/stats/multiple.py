"""Multiple-comparison control over the family of system pairs that were actually compared.

Comparing 100 systems pairwise is 4,950 tests; at alpha = 0.05 about 250 would be "significant" by chance
alone. Holm (step-down Bonferroni) controls the family-wise error rate and is never less powerful than
Bonferroni; Benjamini-Hochberg controls the false discovery rate (the expected share of false positives among
the pairs declared significant), the usual choice when many pairs are compared. Undefined p-values (NaN) are
left out of the family and stay undefined.
"""
from __future__ import annotations

import numpy as np

from ..errors import unknown_name

CORRECTIONS: tuple[str, ...] = ("holm", "bh", "bonferroni", "none")
CORRECTION_NAMES = {
    "holm": "Holm (family-wise error)",
    "bh": "Benjamini-Hochberg (false discovery rate)",
    "bonferroni": "Bonferroni (family-wise error)",
    "none": "none",
}


def holm(p_values: np.ndarray) -> np.ndarray:
    """Holm adjusted p-values: sorted ascending, p_(i) * (m - i + 1), made monotone by a running maximum, capped at 1."""
    p = np.asarray(p_values, dtype=np.float64)
    m = p.size
    if m == 0:
        return p.copy()
    order = np.argsort(p, kind="stable")
    stepped = np.minimum(1.0, np.maximum.accumulate(p[order] * (m - np.arange(m))))
    adjusted = np.empty(m)
    adjusted[order] = stepped
    return adjusted


def benjamini_hochberg(p_values: np.ndarray) -> np.ndarray:
    """BH adjusted p-values (``scipy.stats.false_discovery_control(p, method='bh')``)."""
    from scipy import stats

    p = np.asarray(p_values, dtype=np.float64)
    if p.size == 0:
        return p.copy()
    return np.asarray(stats.false_discovery_control(p, method="bh"), dtype=np.float64)


def bonferroni(p_values: np.ndarray) -> np.ndarray:
    """Bonferroni adjusted p-values: p * m, capped at 1."""
    p = np.asarray(p_values, dtype=np.float64)
    return np.minimum(1.0, p * p.size)


def adjust(p_values: np.ndarray, method: str) -> np.ndarray:
    """Adjusted p-values by ``method`` (holm, bh, bonferroni, none); NaN entries are excluded and stay NaN."""
    if method not in CORRECTIONS:
        raise unknown_name("--correction", "correction", method, CORRECTIONS)
    p = np.asarray(p_values, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    defined = ~np.isnan(p)
    if method == "none":
        out[defined] = p[defined]
    else:
        func = {"holm": holm, "bh": benjamini_hochberg, "bonferroni": bonferroni}[method]
        out[defined] = func(p[defined])
    return out
