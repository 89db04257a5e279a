"""How well a measure tells runs apart, and how many topics a collection needs: discriminative power and
topic-set size design.

* **Discriminative power** (Sakai 2006, "Evaluating evaluation metrics based on the bootstrap", SIGIR; Sakai
  2007, "On the reliability of information retrieval metrics based on graded relevance", IP&M 43(2)): the share
  of run pairs a measure finds significantly different at ``alpha``, under the test and correction a track
  uses (``pairwise.pairwise_significance``, the decision ``compare`` and the report make, over every pair). A
  measure that separates more pairs on the same runs and topics is the more discriminative one. The sorted
  p-values are the achieved-significance-level (ASL) curve Sakai plots.
* **Topic-set size design** (Sakai 2016, "Topic set size design", Information Retrieval Journal 19(3)): the
  smallest number of topics with which a two-sided paired t-test at ``alpha`` detects a true difference of
  ``delta`` between two runs with probability (power) at least ``1 - beta`` (0.8 by default), given the
  variance the current collection shows. As Sakai does, the variance of a run's score is estimated by the
  residual mean square ``V_E`` of the two-way ANOVA without replication (runs x topics), which removes the
  topics' and the runs' own effects; the per-topic difference of two runs then has variance ``2 V_E``. Power
  comes from the noncentral t distribution (``scipy.stats.nct``): with ``n`` topics, ``df = n - 1``,
  noncentrality ``delta sqrt(n) / sqrt(2 V_E)`` and critical value ``t_{1-alpha/2, n-1}``, power is
  ``P(T > t) + P(T < -t)``. The minimum detectable difference at the current topic count is given too.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..errors import OptionError
from .bootstrap import DEFAULT_CONFIDENCE, DEFAULT_RESAMPLES, DEFAULT_SEED
from .comparison import leaderboard_order
from .matrix import ScoreMatrix, as_matrix, to_array
from .pairwise import DEFAULT_ALPHA, pairwise_significance

__all__ = ["DiscriminativePower", "discriminative_power", "residual_variance", "t_test_power", "topics_needed",
           "detectable_difference", "topic_set_size", "DEFAULT_POWER", "MAX_TOPICS"]

DEFAULT_POWER = 0.8
MAX_TOPICS = 100_000
"""The largest topic count searched: a design asking for more is reported as needing more than this."""


@dataclass
class DiscriminativePower:
    """One measure's discriminative power: ``summary`` (one row) and ``curve`` (every pair's p-values, sorted
    by the adjusted one: the ASL curve)."""

    summary: dict[str, object]
    curve: pd.DataFrame
    notes: list[str]


def discriminative_power(data: ScoreMatrix | pd.DataFrame, test: str | None = None, correction: str | None = None,
                         alpha: float = DEFAULT_ALPHA, resamples: int = DEFAULT_RESAMPLES,
                         seed: int = DEFAULT_SEED) -> DiscriminativePower:
    """The share of all run pairs significant at ``alpha`` (test and correction default as for ``compare``)."""
    matrix = as_matrix(data)
    values = to_array(matrix)
    runs = matrix.runs
    order = leaderboard_order(values.mean(axis=-1), runs)
    tested = pairwise_significance(values, order, None, test, correction, alpha, resamples, seed, DEFAULT_CONFIDENCE)
    pairs = len(tested.pairs)
    significant = int(tested.significant.sum())
    summary = {"metric": matrix.metric, "n_systems": len(runs), "n_topics": len(matrix.topics), "pairs": pairs,
               "significant": significant, "power": significant / pairs if pairs else float("nan"),
               "test": tested.test, "correction": tested.correction, "alpha": alpha}
    rank = np.argsort(np.where(np.isnan(tested.p_adjusted), np.inf, tested.p_adjusted), kind="stable")
    curve = pd.DataFrame({
        "metric": matrix.metric,
        "position": np.arange(1, pairs + 1),
        "a": [runs[tested.pairs[k][0]] for k in rank],
        "b": [runs[tested.pairs[k][1]] for k in rank],
        "diff": tested.diff[rank] if pairs else np.zeros(0),
        "p_value": tested.p_value[rank] if pairs else np.zeros(0),
        "p_adjusted": tested.p_adjusted[rank] if pairs else np.zeros(0),
        "significant": tested.significant[rank] if pairs else np.zeros(0, dtype=bool),
    })
    notes = list(matrix.notes) + list(tested.notes)
    if not pairs:
        notes.append(f"{matrix.metric}: fewer than two runs, so no pair to tell apart")
    return DiscriminativePower(summary, curve, list(dict.fromkeys(notes)))


# --- topic-set size design ------------------------------------------------------------------------------------

def residual_variance(data: ScoreMatrix | pd.DataFrame) -> float:
    """``V_E``: the residual mean square of the two-way ANOVA without replication of a runs x topics matrix,
    ``sum (x - m_run - m_topic + m)^2 / ((runs - 1)(topics - 1))``; NaN with fewer than two runs or topics."""
    values = to_array(as_matrix(data))
    runs, topics = values.shape
    if runs < 2 or topics < 2:
        return float("nan")
    residual = values - values.mean(axis=1, keepdims=True) - values.mean(axis=0, keepdims=True) + values.mean()
    return float((residual ** 2).sum() / ((runs - 1) * (topics - 1)))


def t_test_power(n: int, delta: float, sigma_d: float, alpha: float = DEFAULT_ALPHA) -> float:
    """Power of the two-sided paired t-test at ``alpha`` with ``n`` topics, a true mean difference ``delta`` and
    per-topic differences of standard deviation ``sigma_d`` (noncentral t); NaN for fewer than two topics."""
    from scipy import stats

    if n < 2:
        return float("nan")
    df = n - 1
    critical = stats.t.ppf(1 - alpha / 2, df)
    noncentrality = delta * math.sqrt(n) / sigma_d
    return float(stats.nct.sf(critical, df, noncentrality) + stats.nct.cdf(-critical, df, noncentrality))


def topics_needed(delta: float, sigma_d: float, alpha: float = DEFAULT_ALPHA, power: float = DEFAULT_POWER) -> int | None:
    """The fewest topics (at least 2) whose paired t-test reaches ``power`` for ``delta``; ``None`` above
    ``MAX_TOPICS``. Starts from the normal approximation ``((z_{1-alpha/2} + z_power) sigma_d / delta)^2``
    (never above the answer) and steps up, as Sakai's tools do."""
    from scipy import stats

    if not delta > 0 or not sigma_d > 0:
        raise OptionError("--delta", f"needs a positive difference and variance, found delta {delta}, sd {sigma_d}")
    z = stats.norm.ppf(1 - alpha / 2) + stats.norm.ppf(power)
    n = max(2, int(math.floor((z * sigma_d / delta) ** 2)))
    while n <= MAX_TOPICS:
        if t_test_power(n, delta, sigma_d, alpha) >= power:
            return n
        n += 1  # the normal approximation is within a few topics of the answer
    return None


def detectable_difference(n: int, sigma_d: float, alpha: float = DEFAULT_ALPHA, power: float = DEFAULT_POWER) -> float:
    """The smallest true difference the paired t-test detects with ``power`` at ``n`` topics (bisection on
    ``t_test_power``, which grows with the difference); NaN for fewer than two topics or no variance."""
    if n < 2 or not sigma_d > 0:
        return float("nan")
    low, high = 0.0, sigma_d
    while t_test_power(n, high, sigma_d, alpha) < power:
        high *= 2
    for _ in range(100):
        middle = (low + high) / 2
        if t_test_power(n, middle, sigma_d, alpha) >= power:
            high = middle
        else:
            low = middle
    return high


def topic_set_size(matrices: Mapping[str, ScoreMatrix | pd.DataFrame] | Sequence[ScoreMatrix],
                   deltas: Sequence[float], alpha: float = DEFAULT_ALPHA, power: float = DEFAULT_POWER) -> pd.DataFrame:
    """Per measure and ``delta``: ``V_E``, the difference's standard deviation ``sqrt(2 V_E)``, the topics needed
    (``topics_needed``, a nullable integer: missing when undefined or above ``MAX_TOPICS``), the current topic count, the power the
    current topics give for ``delta``, and the smallest difference the current topics detect with ``power``."""
    if not 0 < power < 1:
        raise OptionError("--power", f"must be between 0 and 1, found {power}")
    items = list(matrices.items()) if isinstance(matrices, Mapping) else [(m.metric, m) for m in matrices]
    rows = []
    for metric, data in items:
        matrix = as_matrix(data)
        variance = residual_variance(matrix)
        sigma_d = math.sqrt(2 * variance) if variance == variance else float("nan")
        current = len(matrix.topics)
        for delta in deltas:
            if not delta > 0:
                raise OptionError("--delta", f"must be more than 0, found {delta}")
            needed = topics_needed(delta, sigma_d, alpha, power) if sigma_d > 0 else None
            rows.append({"metric": metric, "delta": float(delta), "alpha": alpha, "power": power,
                         "residual_variance": variance, "sigma_d": sigma_d,
                         "topics_needed": None if needed is None else needed, "n_topics": current,
                         "power_now": t_test_power(current, delta, sigma_d, alpha) if sigma_d > 0 else float("nan"),
                         "detectable_now": detectable_difference(current, sigma_d, alpha, power)})
    frame = pd.DataFrame(rows, columns=["metric", "delta", "alpha", "power", "residual_variance", "sigma_d",
                                        "topics_needed", "n_topics", "power_now", "detectable_now"])
    frame["topics_needed"] = frame["topics_needed"].astype("Int64")  # a count, missing where undefined
    return frame
