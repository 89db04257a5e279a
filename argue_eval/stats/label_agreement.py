"""Judges measured against people: yes/no agreement with topic-bootstrap intervals, Krippendorff's alpha, and
whether two judgment sets lead to the same significance decisions.

An organizer asks three things of a judge before its answers become official scores:

* **Does it answer like the assessors?** Per question kind: accuracy, precision / recall / F1 of "yes" (the
  assessors' answer is the truth: precision is the share of the judge's yeses the assessors also gave,
  recall the share of the assessors' yeses the judge found), Cohen's kappa, and Krippendorff's alpha of the
  two as coders. Every one of them is a function of the 2x2 confusion counts, so the interval comes from
  resampling *topics* (an item's errors are correlated with its topic's, so resampling items would make the
  interval too narrow): per resample the drawn topics' confusion counts are added (one matrix product with
  the topic counts of ``bootstrap.TopicBootstrap``, so the resamples are those of every other interval of the
  kit for the same seed and topic count) and the statistic recomputed; the interval is the percentile one.
* **Do people agree with each other?** Krippendorff's alpha (nominal) across two or more assessors on the
  items several of them answered (double assessment), and with a judge added as one more coder: if alpha
  barely moves, the judge is as good as another assessor. Alpha comes from the coincidence matrix, which is
  a sum over units, so its topic bootstrap is the same matrix product.
* **Would the conclusions change?** ``decision_agreement``: for every pair of runs, the paired test under
  each judgment set (``pairwise.pairwise_significance``, the decision ``compare`` and the report print)
  gives a decision (A significantly better, B significantly better, not significantly different); the share
  of pairs with the same decision at the same alpha, and how the others differ. The system-level rank
  agreement of the two score matrices is ``agreement.agreement`` (tau-b, tau_AP, Pearson with intervals).

Everything takes arrays or ``(topic, reference answer, judge answer)`` records; nothing reads a file.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..model import natural_key
from .agreement import StatisticResult
from .bootstrap import DEFAULT_CONFIDENCE, DEFAULT_RESAMPLES, DEFAULT_SEED, TopicBootstrap, percentile_interval

__all__ = ["LABEL_STATISTICS", "LabelAgreement", "AlphaResult", "DecisionAgreement", "confusion_statistics",
           "alpha_from_coincidences", "coincidences", "krippendorff_alpha", "label_agreement", "coder_alpha",
           "decision_agreement", "decisions"]

LABEL_STATISTICS: tuple[str, ...] = ("accuracy", "precision", "recall", "f1", "kappa", "alpha")
"""The statistics of a judge against people, each a function of the confusion counts (yes/yes, yes/no,
no/yes, no/no; the people's answer first)."""


# ---------------------------------------------------------------------------------------------------------
# Confusion counts -> statistics, vectorized over any leading axes.

def confusion_statistics(counts: np.ndarray) -> dict[str, np.ndarray]:
    """Every statistic of ``LABEL_STATISTICS`` from confusion counts of shape ``(..., 4)``: (yy, yn, ny, nn),
    the reference's (people's) answer first. NaN where a statistic is undefined (no item; no yes to find for
    recall; no yes given for precision; kappa and alpha when chance agreement is 1).

    Alpha of two coders on N items, from the coincidence matrix (each item adds both ordered pairs of its
    two answers): o_yy = 2 yy, o_nn = 2 nn, o_yn = o_ny = yn + ny; with n = 2N pairable values, n_yes = 2 yy
    + yn + ny and n_no = 2 nn + yn + ny, alpha = 1 - (n - 1) o_yn / (n_yes n_no).
    """
    counts = np.asarray(counts, dtype=np.float64)
    yy, yn, ny, nn = counts[..., 0], counts[..., 1], counts[..., 2], counts[..., 3]
    total = yy + yn + ny + nn
    with np.errstate(divide="ignore", invalid="ignore"):
        accuracy = (yy + nn) / total
        precision = yy / (yy + ny)
        recall = yy / (yy + yn)
        f1 = 2 * yy / (2 * yy + yn + ny)
        yes_a, yes_b = (yy + yn) / total, (yy + ny) / total
        expected = yes_a * yes_b + (1 - yes_a) * (1 - yes_b)
        kappa = np.where(expected < 1.0, (accuracy - expected) / (1 - expected), np.nan)
        pairable = 2 * total
        n_yes, n_no = 2 * yy + yn + ny, 2 * nn + yn + ny
        alpha = np.where(n_yes * n_no > 0, 1 - (pairable - 1) * (yn + ny) / (n_yes * n_no), np.nan)
    return {"accuracy": accuracy, "precision": precision, "recall": recall, "f1": f1, "kappa": kappa, "alpha": alpha}


# ---------------------------------------------------------------------------------------------------------
# Krippendorff's alpha (nominal) for any number of coders and missing values.

def coincidences(data: np.ndarray, categories: Sequence[float] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The coincidence matrix of a units x coders array (NaN: not coded) and its categories.

    Each unit with m >= 2 values adds, for every ordered pair of its values from different coders, 1/(m - 1)
    to the cell of that pair of categories (Krippendorff 2011, "Computing Krippendorff's alpha-reliability");
    units with fewer than two values are not pairable and add nothing.
    """
    data = np.atleast_2d(np.asarray(data, dtype=np.float64))
    values = np.unique(data[np.isfinite(data)]) if categories is None else np.asarray(categories, dtype=np.float64)
    present = np.stack([(data == value).sum(axis=1) for value in values], axis=1).astype(np.float64)  # units x c
    m = present.sum(axis=1)
    pairable = m >= 2
    present, m = present[pairable], m[pairable]
    weight = 1.0 / (m - 1)
    out = np.einsum("u,uc,uk->ck", weight, present, present)
    out -= np.diag(np.einsum("u,uc->c", weight, present))  # a value is not paired with itself
    return out, values


def alpha_from_coincidences(matrix: np.ndarray) -> np.ndarray:
    """Nominal alpha = 1 - (n - 1) * sum_{c != k} o_ck / sum_{c != k} n_c n_k of coincidence matrices
    ``(..., c, c)``; NaN when every pairable value is in one category (no disagreement is possible)."""
    matrix = np.asarray(matrix, dtype=np.float64)
    totals = matrix.sum(axis=-1)  # n_c
    n = totals.sum(axis=-1)
    off = matrix.sum(axis=(-1, -2)) - np.trace(matrix, axis1=-2, axis2=-1)
    expected = n * n - (totals * totals).sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(expected > 0, 1 - (n - 1) * off / expected, np.nan)


def krippendorff_alpha(data: np.ndarray) -> float:
    """Krippendorff's alpha, nominal, of a units x coders array (NaN where a coder gave no value)."""
    matrix, _ = coincidences(data)
    return float(alpha_from_coincidences(matrix)) if matrix.size else float("nan")


# ---------------------------------------------------------------------------------------------------------
# A judge against the people's answers, with topic-bootstrap intervals.

@dataclass
class LabelAgreement:
    """A judge's answers against the reference's on the items both answered (one kind, or all pooled)."""

    n: int
    topics: list[str]
    confusion: tuple[int, int, int, int]
    """(yes/yes, yes/no, no/yes, no/no), the reference's answer first."""
    statistics: list[StatisticResult]
    resamples: int
    seed: int
    confidence: float
    notes: list[str] = field(default_factory=list)

    def statistic(self, name: str) -> StatisticResult:
        return next(item for item in self.statistics if item.name == name)

    def to_dict(self) -> dict[str, Any]:
        yy, yn, ny, nn = self.confusion
        out: dict[str, Any] = {"n": self.n, "n_topics": len(self.topics),
                               "confusion": {"yes_yes": yy, "yes_no": yn, "no_yes": ny, "no_no": nn}}
        for item in self.statistics:
            out[item.name] = item.value
            out[f"{item.name}_ci"] = None if item.ci_low is None else [item.ci_low, item.ci_high]
        out["notes"] = list(self.notes)
        return out


def _finite(value: float) -> float | None:
    return float(value) if np.isfinite(value) else None


def _topic_index(topics: Iterable[str]) -> tuple[list[str], dict[str, int]]:
    ordered = sorted(set(topics), key=natural_key)
    return ordered, {topic: k for k, topic in enumerate(ordered)}


_UNDEFINED = {
    "accuracy": "no item in common",
    "precision": "the judge said yes to no item",
    "recall": "the people said yes to no item",
    "f1": "neither said yes to any item",
    "kappa": "both answered every item alike with one answer (chance agreement is 1)",
    "alpha": "every answer is the same (no disagreement is possible)",
}


def _with_intervals(point: dict[str, np.ndarray], boot: dict[str, np.ndarray] | None, names: Sequence[str],
                    confidence: float) -> list[StatisticResult]:
    out = []
    for name in names:
        value = _finite(float(point[name]))
        item = StatisticResult(name, value)
        if value is None:
            item.note = f"undefined: {_UNDEFINED.get(name, 'no value')}"
        elif boot is None:
            item.note = "no interval: needs at least two topics"
        else:
            theta = boot[name]
            finite = theta[np.isfinite(theta)]
            ends = percentile_interval(finite[None], confidence) if finite.size else None
            if ends is not None and np.isfinite(ends.low[0]):
                item.ci_low, item.ci_high = float(ends.low[0]), float(ends.high[0])
                item.ci_method = str(ends.method[0])
                item.bootstrap_mean = float(finite.mean())
                if finite.size < theta.size:
                    item.note = (f"{1 - finite.size / theta.size:.1%} of the resamples left it undefined; the "
                                 "interval uses the others")
            else:
                item.note = "no interval: undefined in every resample"
        out.append(item)
    return out


def label_agreement(items: Iterable[tuple[str, bool, bool]], resamples: int = DEFAULT_RESAMPLES,
                    seed: int = DEFAULT_SEED, confidence: float = DEFAULT_CONFIDENCE) -> LabelAgreement:
    """Agreement of a judge with a reference on ``(request_id, reference answer, judge answer)`` items.

    Intervals resample topics (``TopicBootstrap(n_topics, resamples, seed)``): resample b's confusion counts
    are the sum, over the topics it drew (with their multiplicity), of each topic's counts.
    """
    items = list(items)
    topics, index = _topic_index(topic for topic, _, _ in items)
    per_topic = np.zeros((len(topics), 4))
    for topic, reference, judge in items:
        per_topic[index[topic], (0 if judge else 1) if reference else (2 if judge else 3)] += 1
    totals = per_topic.sum(axis=0)
    point = confusion_statistics(totals)
    boot = None
    if len(topics) >= 2:
        bootstrap = TopicBootstrap(len(topics), resamples, seed)
        drawn = (bootstrap.means(per_topic.T) * len(topics)).T  # (resamples, 4): sums, exact for integer counts
        boot = confusion_statistics(np.rint(drawn))
    notes = []
    if 0 < len(topics) < 3:
        notes.append(f"only {len(topics)} topic(s): intervals over topics are unreliable or undefined")
    confusion = (int(totals[0]), int(totals[1]), int(totals[2]), int(totals[3]))
    return LabelAgreement(len(items), topics, confusion, _with_intervals(point, boot, LABEL_STATISTICS, confidence),
                          resamples, seed, confidence, notes)


@dataclass
class AlphaResult:
    """Krippendorff's alpha across coders on the units at least two of them coded, with its topic interval."""

    coders: list[str]
    units: int
    """Pairable units: coded by at least two coders."""
    values: int
    """Pairable values (the n of the coincidence matrix)."""
    alpha: StatisticResult
    observed_agreement: float | None
    """Share of agreeing pairs among all pairable pairs (the coincidence matrix's diagonal share)."""

    def to_dict(self) -> dict[str, Any]:
        return {"coders": list(self.coders), "units": self.units, "values": self.values,
                "alpha": self.alpha.value,
                "alpha_ci": None if self.alpha.ci_low is None else [self.alpha.ci_low, self.alpha.ci_high],
                "observed_agreement": self.observed_agreement, "note": self.alpha.note}


def coder_alpha(units: Sequence[tuple[str, dict[str, bool]]], resamples: int = DEFAULT_RESAMPLES,
                seed: int = DEFAULT_SEED, confidence: float = DEFAULT_CONFIDENCE) -> AlphaResult:
    """Alpha (nominal) of ``(request_id, {coder: answer})`` units; units with one answer are not pairable.

    The coincidence matrix is a sum over units, so per topic the units' 2x2 contributions are added and a
    resample's matrix is the sum over the topics it drew, as in ``label_agreement``.
    """
    coders = sorted({coder for _, answers in units for coder in answers}, key=natural_key)
    pairable = [(topic, answers) for topic, answers in units if len(answers) >= 2]
    topics, index = _topic_index(topic for topic, _ in pairable)
    per_topic = np.zeros((len(topics), 2, 2))
    for topic, answers in pairable:
        yes = sum(1 for value in answers.values() if value)
        no = len(answers) - yes
        present = np.array([no, yes], dtype=np.float64)
        per_topic[index[topic]] += (np.outer(present, present) - np.diag(present)) / (len(answers) - 1)
    total = per_topic.sum(axis=0)
    point = {"alpha": alpha_from_coincidences(total)}
    boot = None
    if len(topics) >= 2:
        bootstrap = TopicBootstrap(len(topics), resamples, seed)
        drawn = (bootstrap.means(per_topic.reshape(len(topics), 4).T) * len(topics)).T.reshape(-1, 2, 2)
        boot = {"alpha": alpha_from_coincidences(drawn)}
    [alpha] = _with_intervals(point, boot, ["alpha"], confidence)
    if not pairable:
        alpha.note = "undefined: no item was answered by two coders"
    n = float(total.sum())
    observed = float(np.trace(total) / n) if n else None
    return AlphaResult(coders, len(pairable), int(round(n)), alpha, observed)


# ---------------------------------------------------------------------------------------------------------
# Would the conclusions change? Pairwise significance decisions under two judgment sets.

def decisions(diff: np.ndarray, significant: np.ndarray) -> np.ndarray:
    """Per pair: +1 (the first run significantly better), -1 (significantly worse), 0 (not significant)."""
    return np.where(np.asarray(significant, dtype=bool), np.sign(np.asarray(diff, dtype=np.float64)), 0).astype(np.int64)


@dataclass
class DecisionAgreement:
    """The paired tests' decisions on every run pair under the reference's scores (A) and the judge's (B)."""

    test: str
    correction: str
    alpha: float
    pairs: list[tuple[str, str]]
    """Each pair as (better under A, worse under A): A's leaderboard order."""
    decision_a: np.ndarray
    decision_b: np.ndarray
    p_a: np.ndarray
    p_b: np.ndarray
    notes: list[str] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        """``same`` = ``both_significant`` (same direction) + ``both_not``; the rest differ: significant under
        one only (``only_a``, ``only_b``) or significant under both in opposite directions (``opposite``)."""
        a, b = self.decision_a, self.decision_b
        return {
            "pairs": len(self.pairs),
            "same": int(np.sum(a == b)),
            "both_significant": int(np.sum((a == b) & (a != 0))),
            "both_not": int(np.sum((a == 0) & (b == 0))),
            "only_a": int(np.sum((a != 0) & (b == 0))),
            "only_b": int(np.sum((a == 0) & (b != 0))),
            "opposite": int(np.sum(a * b < 0)),
        }

    @property
    def agreement(self) -> float | None:
        """The share of pairs with the same decision; ``None`` without pairs."""
        return self.counts["same"] / len(self.pairs) if self.pairs else None

    def to_dict(self) -> dict[str, Any]:
        def mark(value: int) -> str:
            return {1: "better", -1: "worse", 0: "not significant"}[int(value)]

        return {
            "test": self.test, "correction": self.correction, "alpha": self.alpha, **self.counts,
            "agreement": self.agreement,
            "differ": [{"a": x, "b": y, "decision_a": mark(da), "decision_b": mark(db),
                        "p_a": _finite(float(pa)), "p_b": _finite(float(pb))}
                       for (x, y), da, db, pa, pb in zip(self.pairs, self.decision_a, self.decision_b, self.p_a,
                                                         self.p_b) if da != db],
            "notes": list(self.notes),
        }


def decision_agreement(values_a: np.ndarray, values_b: np.ndarray, runs: Sequence[str], test: str | None = None,
                       correction: str | None = None, alpha: float = 0.05, resamples: int = DEFAULT_RESAMPLES,
                       seed: int = DEFAULT_SEED) -> DecisionAgreement:
    """For every run pair, the paired test's decision on ``values_a`` and on ``values_b`` (systems x topics,
    the same runs and topics in the same order), each corrected over all pairs as ``compare`` corrects them.

    Both use the same pairs, oriented by A's leaderboard (so a pair's difference is >= 0 under A and may be
    negative under B), the same test, correction, resamples and seed (``pairwise.pairwise_significance``;
    default test as for every pair in ``compare``: the randomized Tukey HSD).
    """
    from .comparison import leaderboard_order
    from .pairwise import pairwise_significance

    values_a = np.atleast_2d(np.asarray(values_a, dtype=np.float64))
    values_b = np.atleast_2d(np.asarray(values_b, dtype=np.float64))
    if values_a.shape != values_b.shape:
        raise ValueError(f"the two score matrices differ in shape: {values_a.shape} and {values_b.shape}")
    order = leaderboard_order(values_a.mean(axis=-1), list(runs))
    result_a = pairwise_significance(values_a, order, None, test, correction, alpha, resamples, seed)
    result_b = pairwise_significance(values_b, order, None, test, correction, alpha, resamples, seed)
    notes = [f"A: {note}" for note in result_a.notes] + [f"B: {note}" for note in result_b.notes]
    pairs = [(runs[i], runs[j]) for i, j in result_a.pairs]
    return DecisionAgreement(result_a.test, result_a.correction, alpha, pairs,
                             decisions(result_a.diff, result_a.significant), decisions(result_b.diff, result_b.significant),
                             result_a.p_adjusted, result_b.p_adjusted, list(dict.fromkeys(notes)))
