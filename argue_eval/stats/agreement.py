"""Agreement between two evaluations of the same systems (automatic vs human judgments, two judges, two metrics).

The question an organizer asks is "would the leaderboard change?", so the main statistics compare the two
system rankings (system means over the topics both evaluations share):

* Kendall's tau-b (``scipy.stats.kendalltau``): concordant minus discordant pairs, corrected for ties.
* tau_AP (Yilmaz, Aslam & Robertson, SIGIR 2008): like tau but a swap near the top costs more. For the
  ranking by the *evaluated* evaluation (B), tau_AP = 2/(N-1) * sum_{i=2..N} C(i)/(i-1) - 1, where C(i)
  counts the systems above position i that the *reference* (A) also puts above the system at i. It is not
  symmetric: ``tau_ap`` scores B against reference A; ``tau_ap_symmetric`` is the mean of both directions.
  Ties (the definition has none): a pair tied in the reference counts half concordant; systems tied in the
  evaluated ranking are taken in every order with equal chance and the expectation is returned (exactly, in
  closed form), so a fully tied ranking scores 0 and the untied case is the original definition.
* Spearman's rho and Pearson's r of the system means (``scipy.stats``).

Each comes with a bootstrap interval over topics: resample topics (the same resample for both evaluations),
recompute every system's mean under both, recompute the statistic; BCa from those values and the
leave-one-topic-out jackknife (``argue_eval.stats.bootstrap``). Also: the same statistics on the top-k systems
of the reference, the list of swapped pairs, per-topic agreement (tau-b of the systems' scores within each
topic, summarized) and the agreement of topic difficulty (topic means).
"""
from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from ..errors import unknown_name
from ..model import natural_key
from .bootstrap import (
    DEFAULT_CONFIDENCE,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    METHOD_NOTES,
    TopicBootstrap,
    bca_interval,
    percentile_interval,
)
from .comparison import leaderboard_order
from .matrix import ScoreMatrix, as_matrix

STATISTICS: tuple[str, ...] = ("kendall_tau_b", "tau_ap", "tau_ap_symmetric", "spearman", "pearson")
INTERVALS: tuple[str, ...] = ("percentile", "bca")
_ROW_BLOCK = 256


# ---------------------------------------------------------------------------------------------------------
# Point statistics on two score vectors (one value per system).

def _quiet(func: Callable[[], Any]) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            return func()


def kendall_tau_b(x: np.ndarray, y: np.ndarray) -> float:
    """Kendall's tau-b (``scipy.stats.kendalltau``); NaN when either vector is constant or has < 2 values."""
    from scipy import stats

    if len(x) < 2:
        return float("nan")
    return float(_quiet(lambda: stats.kendalltau(x, y).statistic))


def spearman(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rho (``scipy.stats.spearmanr``); NaN when undefined."""
    from scipy import stats

    if len(x) < 2:
        return float("nan")
    return float(_quiet(lambda: stats.spearmanr(x, y).statistic))


def pearson(x: np.ndarray, y: np.ndarray) -> float:
    """Pearson's r (``scipy.stats.pearsonr``); NaN when undefined (constant input or fewer than 2 values)."""
    from scipy import stats

    if len(x) < 2:
        return float("nan")
    return float(_quiet(lambda: stats.pearsonr(x, y).statistic))


def tau_ap(reference: np.ndarray, estimate: np.ndarray) -> float:
    """tau_AP of the ranking by ``estimate`` against the ranking by ``reference`` (higher score = better)."""
    return float(tau_ap_rows(np.atleast_2d(reference), np.atleast_2d(estimate))[0])


def tau_ap_symmetric(x: np.ndarray, y: np.ndarray) -> float:
    """Mean of tau_AP in both directions, for when neither evaluation is the reference."""
    return (tau_ap(x, y) + tau_ap(y, x)) / 2


# ---------------------------------------------------------------------------------------------------------
# Row-vectorized versions: row r of each array is one (bootstrap or jackknife) sample of system means.

def _pair_index(systems: int) -> tuple[np.ndarray, np.ndarray]:
    return np.triu_indices(systems, k=1)


def _signs(values: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """sign(values[:, i] - values[:, j]) as int8 (-1, 0, 1): a quarter of the memory traffic of float signs."""
    a, b = values[:, i], values[:, j]
    return (a > b).view(np.int8) - (a < b).view(np.int8)


def tau_b_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Kendall's tau-b of each row pair: sum(sign dx * sign dy) / sqrt(untied-in-x pairs * untied-in-y pairs)."""
    x = np.atleast_2d(x)
    y = np.atleast_2d(y)
    i, j = _pair_index(x.shape[-1])
    out = np.empty(x.shape[0])
    for start in range(0, x.shape[0], _ROW_BLOCK):
        block = slice(start, start + _ROW_BLOCK)
        sx = _signs(x[block], i, j)
        sy = _signs(y[block], i, j)
        agreement = np.sum(sx * sy, axis=-1, dtype=np.int64)
        untied_x = np.count_nonzero(sx, axis=-1)
        untied_y = np.count_nonzero(sy, axis=-1)
        with np.errstate(divide="ignore", invalid="ignore"):
            out[block] = agreement / np.sqrt(untied_x.astype(np.float64) * untied_y)
    return out


def pearson_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson's r of each row pair; NaN where a row is constant."""
    x = np.atleast_2d(x)
    y = np.atleast_2d(y)
    xc = x - x.mean(axis=-1, keepdims=True)
    yc = y - y.mean(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.sum(xc * yc, axis=-1) / np.sqrt(np.sum(xc * xc, axis=-1) * np.sum(yc * yc, axis=-1))
    return np.clip(r, -1.0, 1.0)


def spearman_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Spearman's rho of each row pair: Pearson's r of the average ranks."""
    from scipy.stats import rankdata

    return pearson_rows(rankdata(np.atleast_2d(x), axis=-1), rankdata(np.atleast_2d(y), axis=-1))


def tau_ap_rows(reference: np.ndarray, estimate: np.ndarray) -> np.ndarray:
    """tau_AP of each row pair (see the module docstring for the definition and the treatment of ties).

    Rows whose estimate has no ties take the direct route: order the systems by the estimate, count for each
    position q how many systems above it the reference also puts above it (C), and sum C/q exactly (per
    position, so identical rankings give exactly 1). Rows with ties use ``_tau_ap_tied``.
    """
    reference = np.atleast_2d(np.asarray(reference, dtype=np.float64))
    estimate = np.atleast_2d(np.asarray(estimate, dtype=np.float64))
    rows, systems = estimate.shape
    if systems < 2:
        return np.full(rows, np.nan)
    upper, lower, starts = _pairs_by_lower(systems)
    positions = np.arange(1, systems, dtype=np.float64)
    out = np.empty(rows)
    for start in range(0, rows, _ROW_BLOCK):
        block = slice(start, start + _ROW_BLOCK)
        est, ref = estimate[block], reference[block]
        order = np.argsort(-est, axis=-1, kind="stable")
        sorted_est = np.take_along_axis(est, order, axis=-1)
        tied = (sorted_est[:, 1:] == sorted_est[:, :-1]).any(axis=-1)
        sorted_ref = np.take_along_axis(ref, order, axis=-1)
        above, below = sorted_ref[:, upper], sorted_ref[:, lower]
        verdict = (above > below).astype(np.float64)
        verdict += 0.5 * (above == below)
        correct = np.add.reduceat(verdict, starts, axis=-1)  # C for positions 2..N (exact: halves)
        values = 2.0 * (correct / positions).sum(axis=-1) / (systems - 1) - 1.0
        if tied.any():
            values[tied] = _tau_ap_tied(ref[tied], est[tied])
        out[block] = values
    return out


@lru_cache(maxsize=8)
def _pairs_by_lower(systems: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Position pairs (upper < lower) grouped by the lower position 1..N-1 (0-based), and each group's start."""
    lower = np.repeat(np.arange(1, systems), np.arange(1, systems))
    upper = np.concatenate([np.arange(q) for q in range(1, systems)])
    starts = np.concatenate([[0], np.cumsum(np.arange(1, systems - 1))])
    return upper, lower, starts


def _tau_ap_tied(reference: np.ndarray, estimate: np.ndarray) -> np.ndarray:
    """tau_AP with ties in the estimate: the exact expectation over every order of the tied systems.

    Pairwise form: tau_AP = 2/(N-1) * sum over pairs of [reference agrees] / (position of the lower one - 1) - 1.
    For a system in a tie group starting at position P with g members, the expected 1/(q - 1) over its equally
    likely positions q is (H(P+g-2) - H(P-2)) / g, and a pair inside the group is worth, in expectation,
    ((g-1) - (P-1)(H(P+g-2) - H(P-1))) / (g(g-1)) whichever way the reference orders it (H: harmonic numbers).
    """
    from scipy.stats import rankdata

    count, systems = estimate.shape
    harmonic = np.concatenate([[0.0], np.cumsum(1.0 / np.arange(1, systems + 1))])  # harmonic[k] = H(k)
    i, j = _pair_index(systems)
    with np.errstate(divide="ignore", invalid="ignore"):
        start_pos = rankdata(-estimate, method="min", axis=-1).astype(np.int64)  # P, 1-based
        group = rankdata(-estimate, method="max", axis=-1).astype(np.int64) - start_pos + 1  # g
        end_h = harmonic[start_pos + group - 2]
        ei, ej = estimate[:, i], estimate[:, j]
        ri, rj = reference[:, i], reference[:, j]
        agree_i_over_j = np.where(ri > rj, 1.0, np.where(ri == rj, 0.5, 0.0))
        # Pairs in different tie groups: sum the reference's verdicts per lower system (multiples of 1/2,
        # exact), then weight each system once; an untied system at P gets exactly (correct)/(P - 1).
        lower = np.where(ei > ej, j, i)
        verdict = np.where(ei > ej, agree_i_over_j, np.where(ei < ej, 1.0 - agree_i_over_j, 0.0))
        offsets = (np.arange(count) * systems)[:, None]
        correct = np.bincount((lower + offsets).ravel(), weights=verdict.ravel(),
                              minlength=count * systems).reshape(count, systems)
        cross = (end_h - harmonic[np.maximum(start_pos - 2, 0)]) / group
        weighted = np.where(group == 1, correct / (start_pos - 1), correct * cross)
        weighted = np.where(correct == 0, 0.0, weighted)
        total = weighted.sum(axis=-1)
        inside = ((group - 1) - (start_pos - 1) * (end_h - harmonic[start_pos - 1])) / (group * (group - 1))
        total = total + np.where(ei == ej, inside[:, i], 0.0).sum(axis=-1)
    return 2.0 * total / (systems - 1) - 1.0


def _tau_ap_symmetric_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return (tau_ap_rows(x, y) + tau_ap_rows(y, x)) / 2


ROW_STATISTICS: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "kendall_tau_b": tau_b_rows,
    "tau_ap": tau_ap_rows,
    "tau_ap_symmetric": _tau_ap_symmetric_rows,
    "spearman": spearman_rows,
    "pearson": pearson_rows,
}
POINT_STATISTICS: dict[str, Callable[[np.ndarray, np.ndarray], float]] = {
    "kendall_tau_b": kendall_tau_b,
    "tau_ap": tau_ap,
    "tau_ap_symmetric": tau_ap_symmetric,
    "spearman": spearman,
    "pearson": pearson,
}


# ---------------------------------------------------------------------------------------------------------
# Whole comparison.

@dataclass
class StatisticResult:
    """One agreement statistic with its interval (``None`` where undefined, explained in ``note``)."""

    name: str
    value: float | None
    ci_low: float | None = None
    ci_high: float | None = None
    ci_method: str | None = None
    bootstrap_mean: float | None = None
    note: str | None = None


@dataclass
class Agreement:
    """Everything ``agree`` reports; ``to_dict`` is the JSON document."""

    metric_a: str
    metric_b: str
    runs: list[str]
    topics: list[str]
    mean_a: np.ndarray
    mean_b: np.ndarray
    statistics: list[StatisticResult]
    swaps: list[dict[str, Any]]
    tied_pairs: list[list[str]]
    top_k: list[dict[str, Any]]
    per_topic: list[dict[str, Any]]
    per_topic_summary: dict[str, Any]
    topic_difficulty: dict[str, Any]
    resamples: int
    seed: int
    confidence: float
    interval: str = "percentile"
    notes: list[str] = field(default_factory=list)

    def statistic(self, name: str) -> StatisticResult:
        return next(item for item in self.statistics if item.name == name)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "metric_a": self.metric_a,
            "metric_b": self.metric_b,
            "n_systems": len(self.runs),
            "n_topics": len(self.topics),
            "resamples": self.resamples,
            "seed": self.seed,
            "confidence": self.confidence,
            "interval": self.interval,
        }
        for item in self.statistics:
            out[item.name] = item.value
            out[f"{item.name}_ci"] = None if item.ci_low is None else [item.ci_low, item.ci_high]
        out["ci_methods"] = {item.name: item.ci_method for item in self.statistics}
        out["bootstrap_means"] = {item.name: item.bootstrap_mean for item in self.statistics}
        out["n_pairs"] = len(self.runs) * (len(self.runs) - 1) // 2
        out["swapped_pairs"] = [[swap["a"], swap["b"]] for swap in self.swaps]
        out["swaps"] = self.swaps
        out["tied_pairs"] = self.tied_pairs
        out["systems"] = [
            {"run_id": run, "mean_a": float(a), "mean_b": float(b), "rank_a": int(ra), "rank_b": int(rb)}
            for run, a, b, ra, rb in zip(self.runs, self.mean_a, self.mean_b, _ranks(self.mean_a, self.runs), _ranks(self.mean_b, self.runs))
        ]
        out["top_k"] = self.top_k
        out["per_topic_summary"] = self.per_topic_summary
        out["per_topic"] = self.per_topic
        out["topic_difficulty"] = self.topic_difficulty
        out["notes"] = self.notes
        return out


def _ranks(means: np.ndarray, runs: list[str]) -> list[int]:
    """1-based leaderboard positions (higher mean first; equal means share the better position)."""
    from scipy.stats import rankdata

    return [int(r) for r in rankdata(-np.asarray(means), method="min")]


def _finite(value: float) -> float | None:
    return None if value is None or not np.isfinite(value) else float(value)


def align(matrix_a: ScoreMatrix, matrix_b: ScoreMatrix) -> tuple[list[str], list[str], np.ndarray, np.ndarray, list[str]]:
    """Restrict both matrices to the systems and topics they share; say what was left out."""
    notes = []
    runs_a, runs_b = set(matrix_a.runs), set(matrix_b.runs)
    topics_a, topics_b = set(matrix_a.topics), set(matrix_b.topics)
    runs = sorted(runs_a & runs_b, key=natural_key)
    topics = sorted(topics_a & topics_b, key=natural_key)
    for label, only in (("A", runs_a - runs_b), ("B", runs_b - runs_a)):
        if only:
            names = sorted(only, key=natural_key)
            notes.append(f"{len(names)} system(s) only in {label} left out: " + ", ".join(names[:20]) + (" ..." if len(names) > 20 else ""))
    for label, only in (("A", topics_a - topics_b), ("B", topics_b - topics_a)):
        if only:
            names = sorted(only, key=natural_key)
            notes.append(f"{len(names)} topic(s) only in {label} left out (means use the {len(topics)} shared topics): "
                         + ", ".join(names[:20]) + (" ..." if len(names) > 20 else ""))
    values_a = matrix_a.values.loc[runs, topics].to_numpy(dtype=np.float64) if runs and topics else np.zeros((len(runs), len(topics)))
    values_b = matrix_b.values.loc[runs, topics].to_numpy(dtype=np.float64) if runs and topics else np.zeros((len(runs), len(topics)))
    return runs, topics, values_a, values_b, notes


def agreement(
    data_a: ScoreMatrix | Any,
    data_b: ScoreMatrix | Any,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    confidence: float = DEFAULT_CONFIDENCE,
    top_k: tuple[int, ...] = (10,),
    interval: str = "percentile",
) -> Agreement:
    """Compare the system rankings of two evaluations (A is the reference for tau_AP and top-k).

    ``interval`` is ``percentile`` (default) or ``bca``. Rank correlations of means are biased under topic
    resampling (duplicated topics add noise that is independent between A and B, so resampled agreement is
    lower), and BCa's bias correction then moves the whole interval above the estimate; the percentile
    interval shows the spread honestly, and any estimate outside its interval is noted with the bootstrap mean.
    """
    if interval not in INTERVALS:
        raise unknown_name("interval", "interval", interval, INTERVALS)
    matrix_a, matrix_b = as_matrix(data_a), as_matrix(data_b)
    runs, topics, values_a, values_b, notes = align(matrix_a, matrix_b)
    notes = [f"A: {note}" for note in matrix_a.notes] + [f"B: {note}" for note in matrix_b.notes] + notes
    systems, n = values_a.shape
    mean_a = values_a.mean(axis=-1) if n else np.zeros(systems)
    mean_b = values_b.mean(axis=-1) if n else np.zeros(systems)
    if systems < 2:
        notes.append(f"only {systems} shared system(s): rank agreement needs at least two; statistics left out")
    if n == 0:
        notes.append("no shared topics: nothing to compare")
    elif n < 3:
        notes.append(f"only {n} shared topic(s): intervals over topics are unreliable or undefined")
    if systems == 2 and n:
        notes.append("two systems: every rank statistic is +1 or -1")

    statistics = _statistics_with_intervals(values_a, values_b, resamples, seed, confidence, interval, notes)
    swaps, tied = _swaps(runs, mean_a, mean_b)
    return Agreement(
        metric_a=matrix_a.metric,
        metric_b=matrix_b.metric,
        runs=runs,
        topics=topics,
        mean_a=mean_a,
        mean_b=mean_b,
        statistics=statistics,
        swaps=swaps,
        tied_pairs=tied,
        top_k=_top_k(runs, mean_a, mean_b, top_k, notes),
        per_topic=(per_topic := _per_topic(topics, values_a, values_b)),
        per_topic_summary=_summarize_per_topic(per_topic, systems, notes),
        topic_difficulty=_topic_difficulty(values_a, values_b, notes),
        resamples=resamples,
        seed=seed,
        confidence=confidence,
        interval=interval,
        notes=notes,
    )


def _statistics_with_intervals(
    values_a: np.ndarray, values_b: np.ndarray, resamples: int, seed: int, confidence: float, interval: str,
    notes: list[str],
) -> list[StatisticResult]:
    systems, n = values_a.shape
    mean_a = values_a.mean(axis=-1) if n else np.zeros(systems)
    mean_b = values_b.mean(axis=-1) if n else np.zeros(systems)
    results = []
    # (bootstrap means of A, of B, jackknife means of A, of B), each resample x system; None below two topics
    replicates: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
    if systems >= 2 and n >= 2:
        bootstrap = TopicBootstrap(n, resamples, seed)
        replicates = (bootstrap.means(values_a).T, bootstrap.means(values_b).T,
                      bootstrap.jackknife_means(values_a).T, bootstrap.jackknife_means(values_b).T)
    constant = [label for label, mean in (("A", mean_a), ("B", mean_b)) if systems >= 2 and np.ptp(mean) == 0]
    for name in STATISTICS:
        value = POINT_STATISTICS[name](mean_a, mean_b) if systems >= 2 and n else float("nan")
        item = StatisticResult(name, _finite(value))
        if item.value is None:
            if constant:
                item.note = f"undefined: every system has the same mean under {' and '.join(constant)}"
            elif systems >= 2 and n:
                item.note = "undefined for these inputs"
            results.append(item)
            continue
        if replicates is None:
            item.note = "no interval: needs at least two shared topics"
            results.append(item)
            continue
        func = ROW_STATISTICS[name]
        boot_a, boot_b, jack_a, jack_b = replicates
        theta_b = func(boot_a, boot_b)
        if interval == "bca":
            # the reported (scipy) value is the estimate; the row versions agree with it to rounding, which the
            # BCa tie tolerance absorbs, and a constant distribution then collapses onto exactly this value
            ends = bca_interval(np.array([item.value]), theta_b[None], func(jack_a, jack_b)[None], confidence)
        else:
            ends = percentile_interval(theta_b[None], confidence)
        method = str(ends.method[0])
        finite = theta_b[np.isfinite(theta_b)]
        undefined_share = 1 - finite.size / theta_b.size
        item.ci_method = method
        item.bootstrap_mean = float(finite.mean()) if finite.size else None
        messages = []
        if np.isfinite(ends.low[0]):
            item.ci_low, item.ci_high = float(ends.low[0]), float(ends.high[0])
            if method == "constant":
                item.ci_low = item.ci_high = item.value
            elif not item.ci_low <= item.value <= item.ci_high:
                messages.append(f"the estimate lies outside its interval: resampling topics shifts this statistic "
                                f"(bootstrap mean {item.bootstrap_mean:.4f}); read the interval as its spread under "
                                "topic resampling")
        if method in METHOD_NOTES:
            messages.insert(0, METHOD_NOTES[method])
        if undefined_share > 0:
            messages.append(f"{undefined_share:.1%} of the resamples left every system tied under one evaluation; "
                            "the interval uses the others")
        item.note = "; ".join(messages) or None
        results.append(item)
    for item in results:
        if item.note:
            notes.append(f"{item.name}: {item.note}")
    return results


def _swaps(runs: list[str], mean_a: np.ndarray, mean_b: np.ndarray) -> tuple[list[dict[str, Any]], list[list[str]]]:
    """Pairs ordered one way by A and the other way by B (listed with A's better system first), and pairs tied in one only."""
    order = leaderboard_order(mean_a, runs)
    swaps, tied = [], []
    for pos, i in enumerate(order):
        for j in order[pos + 1:]:
            da, db = mean_a[i] - mean_a[j], mean_b[i] - mean_b[j]
            if da * db < 0:
                swaps.append({"a": runs[i], "b": runs[j], "diff_a": float(da), "diff_b": float(db)})
            elif (da == 0) != (db == 0):
                tied.append([runs[i], runs[j]])
    return swaps, tied


def _top_k(runs: list[str], mean_a: np.ndarray, mean_b: np.ndarray, ks: tuple[int, ...], notes: list[str]) -> list[dict[str, Any]]:
    """Agreement on the k best systems of the reference A, and the overlap of the two top-k sets."""
    out = []
    order_a = leaderboard_order(mean_a, runs)
    order_b = leaderboard_order(mean_b, runs)
    for k in sorted(set(ks)):
        if k < 2 or k >= len(runs):
            notes.append(f"top-{k} left out: needs 2 <= k < number of systems ({len(runs)})")
            continue
        chosen = order_a[:k]
        a, b = mean_a[chosen], mean_b[chosen]
        entry: dict[str, Any] = {"k": k, "systems": [runs[i] for i in chosen]}
        for name in STATISTICS:
            entry[name] = _finite(POINT_STATISTICS[name](a, b))
        entry["overlap"] = len(set(chosen) & set(order_b[:k])) / k
        out.append(entry)
    return out


def _per_topic(topics: list[str], values_a: np.ndarray, values_b: np.ndarray) -> list[dict[str, Any]]:
    """Kendall's tau-b of the systems' scores within each topic (None where a topic's scores are constant)."""
    if not topics or values_a.shape[0] < 2:
        return [{"request_id": topic, "kendall_tau_b": None} for topic in topics]
    taus = tau_b_rows(values_a.T, values_b.T)
    return [{"request_id": topic, "kendall_tau_b": _finite(tau)} for topic, tau in zip(topics, taus)]


def _summarize_per_topic(per_topic: list[dict[str, Any]], systems: int, notes: list[str]) -> dict[str, Any]:
    values = np.array([item["kendall_tau_b"] for item in per_topic if item["kendall_tau_b"] is not None])
    undefined = [item["request_id"] for item in per_topic if item["kendall_tau_b"] is None]
    summary: dict[str, Any] = {"statistic": "kendall_tau_b", "n_defined": int(values.size), "n_undefined": len(undefined)}
    for name, func in (("mean", np.mean), ("median", np.median), ("min", np.min), ("max", np.max)):
        summary[name] = float(func(values)) if values.size else None
    if undefined:
        why = "every system scored the same under A or B" if systems >= 2 else "fewer than two shared systems"
        notes.append(f"per-topic tau-b undefined for {len(undefined)} topic(s) ({why}): "
                     + ", ".join(undefined[:20]) + (" ..." if len(undefined) > 20 else ""))
    return summary


def _topic_difficulty(values_a: np.ndarray, values_b: np.ndarray, notes: list[str]) -> dict[str, Any]:
    """Do A and B agree on which topics are hard? Correlations of the topic means (over systems)."""
    if values_a.shape[0] == 0 or values_a.shape[1] < 2:
        return {"kendall_tau_b": None, "pearson": None}
    ta, tb = values_a.mean(axis=0), values_b.mean(axis=0)
    out = {"kendall_tau_b": _finite(kendall_tau_b(ta, tb)), "pearson": _finite(pearson(ta, tb))}
    if out["kendall_tau_b"] is None:
        notes.append("topic difficulty agreement undefined: every topic has the same mean under A or B")
    return out
