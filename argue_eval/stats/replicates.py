"""Judge uncertainty in a leaderboard: several score tables of the same runs that differ only in the judge.

An LLM judge sampled with another seed or temperature, another prompt or model, or the same judge on resampled
judgments gives a slightly different score table. Each such table is a *replicate*; a leaderboard that ignores
them treats the judge as exact. Given replicates (a stack of runs x topics matrices of one metric), this module
measures how much the judge moves the results:

* **two-stage bootstrap** of each run's mean over topics and replicates: resample the topics with replacement,
  then, for every drawn topic, resample the replicates with replacement and take their mean there. The spread
  of these means holds both the topic sampling and the judge's, so the interval is wider than a topics-only
  interval exactly as far as the judge is unsure (a hierarchical bootstrap, Davison and Hinkley 1997, *Bootstrap
  Methods and their Application*, 3.8; Ren et al. 2010, "Nonparametric bootstrapping for hierarchical data",
  J. Applied Statistics 37(9)). The topics-only percentile interval of the replicate means is given beside it.
  The draws are ``rng.integers(0, T, (B, T))`` then ``rng.integers(0, R, (B, T, R))`` from
  ``np.random.default_rng(seed)``, so a seed fixes every number.
* **between-replicate rank stability**: Kendall's tau-b between the leaderboards of every two replicates, each
  run's best and worst rank, and for every pair of runs how often a replicate orders them against the
  leaderboard of the replicates' mean (a swap).
* **judge share of the variance**, per run: the variance components of its scores in the crossed topics x
  replicates design, estimated from the two-way ANOVA's expected mean squares (generalizability theory,
  Brennan 2001, *Generalizability Theory*; in IR, Bodoff and Li 2007, "Test theory for assessing IR test
  collections", SIGIR): ``topic`` (how topics differ), ``judge`` (a replicate scoring every topic higher or
  lower) and ``residual`` (the judge's topic-by-topic noise). The judge's share is ``(judge + residual) /
  (topic + judge + residual)``; a negative estimate is set to 0, as Brennan does.

Everything takes a numpy array ``(replicates, runs, topics)`` (``stack`` builds it from ``ScoreMatrix``
objects) and returns DataFrames; nothing reads a file.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..errors import ArgueError
from ..model import natural_key
from .agreement import kendall_tau_b
from .bootstrap import DEFAULT_CONFIDENCE, DEFAULT_RESAMPLES, DEFAULT_SEED, TopicBootstrap, percentile_interval
from .comparison import leaderboard_order
from .matrix import ScoreMatrix

__all__ = ["Replicates", "ReplicateAnalysis", "stack", "two_stage_weights", "two_stage_means", "two_stage_intervals",
           "rank_stability", "variance_components", "analyze_replicates"]

_BLOCK = 1000
"""Bootstrap resamples weighted per block: bounds memory (block x replicates x topics floats), fixed so the
numbers never depend on the machine."""


@dataclass
class Replicates:
    """Replicates of one metric: ``values[r, s, t]`` is run ``runs[s]`` on topic ``topics[t]`` under replicate
    ``names[r]``; ``notes`` say what aligning them left out."""

    metric: str
    names: list[str]
    runs: list[str]
    topics: list[str]
    values: np.ndarray
    notes: list[str] = field(default_factory=list)


def stack(matrices: Sequence[ScoreMatrix], names: Sequence[str] | None = None) -> Replicates:
    """Align replicate matrices of one metric: the same runs in every one (else an ``ArgueError`` naming the
    difference), the topics every replicate has (the others are dropped, with a note)."""
    if len(matrices) < 2:
        raise ArgueError(f"replicates need at least two score tables of the same runs, found {len(matrices)}")
    labels = list(names) if names is not None else [f"replicate {k}" for k in range(1, len(matrices) + 1)]
    first = matrices[0]
    runs = first.runs
    for label, matrix in zip(labels[1:], matrices[1:]):
        if set(matrix.runs) != set(runs):
            only_first = sorted(set(runs) - set(matrix.runs), key=natural_key)
            only_here = sorted(set(matrix.runs) - set(runs), key=natural_key)
            raise ArgueError(f"replicates must score the same runs: {label} lacks {', '.join(only_first) or 'none'}"
                             f" and adds {', '.join(only_here) or 'none'} (against {labels[0]})")
    shared = set(first.topics)
    for matrix in matrices[1:]:
        shared &= set(matrix.topics)
    topics = sorted(shared, key=natural_key)
    if not topics:
        raise ArgueError(f"the replicates of {first.metric!r} share no topic")
    notes = [note for matrix in matrices for note in matrix.notes]
    every = set().union(*(set(matrix.topics) for matrix in matrices))
    if every - shared:
        left = sorted(every - shared, key=natural_key)
        notes.append(f"{len(left)} topic(s) not scored in every replicate were left out: {', '.join(left[:20])}"
                     + (" ..." if len(left) > 20 else ""))
    values = np.stack([matrix.values.loc[runs, topics].to_numpy(dtype=np.float64) for matrix in matrices])
    return Replicates(first.metric, labels, list(runs), topics, values, list(dict.fromkeys(notes)))


# --- the two-stage bootstrap ----------------------------------------------------------------------------------

def two_stage_weights(topic_draws: np.ndarray, replicate_draws: np.ndarray, replicates: int, topics: int) -> np.ndarray:
    """Each resample's weight on every (replicate, topic) cell, shape ``(B, replicates * topics)``.

    ``topic_draws[b, j]`` is the topic in slot ``j`` of resample ``b``; ``replicate_draws[b, j, k]`` the
    replicates drawn for that slot. A cell's weight is how often it was drawn over ``topics * replicates`` draws,
    so the resample's mean of run ``s`` is ``weights[b] @ values[:, s, :].ravel()``.
    """
    resamples, slots = topic_draws.shape
    draws = replicate_draws.shape[-1]
    cell = replicate_draws * topics + topic_draws[:, :, None]  # (B, slots, draws): r * T + t
    flat = cell + (np.arange(resamples) * replicates * topics)[:, None, None]
    counts = np.bincount(flat.ravel(), minlength=resamples * replicates * topics)
    return counts.reshape(resamples, replicates * topics) / float(slots * draws)


def two_stage_means(values: np.ndarray, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED) -> np.ndarray:
    """Two-stage bootstrap means of every run, shape ``(runs, resamples)``: topics drawn with replacement, then
    for each drawn topic the replicates drawn with replacement (the module docstring gives the draws)."""
    values = np.asarray(values, dtype=np.float64)
    replicates, runs, topics = values.shape
    rng = np.random.default_rng(seed)
    topic_draws = rng.integers(0, topics, size=(resamples, topics))
    replicate_draws = rng.integers(0, replicates, size=(resamples, topics, replicates))
    cells = np.ascontiguousarray(values.transpose(0, 2, 1).reshape(replicates * topics, runs))  # row r * T + t
    out = np.empty((runs, resamples))
    for start in range(0, resamples, _BLOCK):
        block = slice(start, start + _BLOCK)
        weights = two_stage_weights(topic_draws[block], replicate_draws[block], replicates, topics)
        out[:, block] = (weights @ cells).T
    return out


def two_stage_intervals(values: np.ndarray, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                        confidence: float = DEFAULT_CONFIDENCE) -> pd.DataFrame:
    """Per run (in input order): the mean over replicates and topics, the two-stage percentile interval and the
    bootstrap's standard deviation, then the same from topics alone (the replicates' mean resampled over topics
    with the same seed), so that the widening the judge causes can be read off."""
    values = np.asarray(values, dtype=np.float64)
    boot = two_stage_means(values, resamples, seed)
    two_stage = percentile_interval(boot, confidence)
    averaged = values.mean(axis=0)
    topic_boot = TopicBootstrap(averaged.shape[1], resamples, seed).means(averaged)
    topics_only = percentile_interval(topic_boot, confidence)
    return pd.DataFrame({
        "mean": averaged.mean(axis=1),
        "ci_low": two_stage.low, "ci_high": two_stage.high, "sd": boot.std(axis=1, ddof=1),
        "topic_ci_low": topics_only.low, "topic_ci_high": topics_only.high, "topic_sd": topic_boot.std(axis=1, ddof=1),
    })


# --- rank stability --------------------------------------------------------------------------------------------

def rank_stability(values: np.ndarray, runs: Sequence[str], names: Sequence[str]) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The replicates' leaderboards compared.

    Returns three tables: ``ranks`` (per run: its rank under the replicates' mean, its best and worst rank over
    the replicates, and its mean under each replicate), ``taus`` (Kendall's tau-b between the run means of every
    two replicates) and ``swaps`` (per pair of runs, listed as the mean leaderboard orders them: in how many
    replicates the worse one scores higher, ``swaps``, or the same, ``ties``, and ``swap_rate`` = swaps /
    replicates).
    """
    values = np.asarray(values, dtype=np.float64)
    per_replicate = values.mean(axis=2)  # (R, S)
    overall = per_replicate.mean(axis=0)
    run_list = list(runs)
    order = leaderboard_order(overall, run_list)
    rank_of = {index: position + 1 for position, index in enumerate(order)}
    replicate_ranks = np.zeros(per_replicate.shape, dtype=np.int64)
    for r, means in enumerate(per_replicate):
        for position, index in enumerate(leaderboard_order(means, run_list)):
            replicate_ranks[r, index] = position + 1
    ranks = pd.DataFrame({
        "rank": [rank_of[index] for index in order],
        "run_id": [run_list[index] for index in order],
        "mean": overall[order],
        "best_rank": replicate_ranks[:, order].min(axis=0),
        "worst_rank": replicate_ranks[:, order].max(axis=0),
        **{f"mean[{name}]": per_replicate[r, order] for r, name in enumerate(names)},
    })
    tau_rows = [{"a": names[i], "b": names[j], "kendall_tau_b": kendall_tau_b(per_replicate[i], per_replicate[j])}
                for i in range(len(names)) for j in range(i + 1, len(names))]
    taus = pd.DataFrame(tau_rows, columns=["a", "b", "kendall_tau_b"])
    swap_rows = []
    for p in range(len(order)):
        for q in range(p + 1, len(order)):
            a, b = order[p], order[q]
            diff = per_replicate[:, a] - per_replicate[:, b]
            swaps = int(np.count_nonzero(diff < 0))
            swap_rows.append({"a": run_list[a], "b": run_list[b], "diff": float(overall[a] - overall[b]),
                              "swaps": swaps, "ties": int(np.count_nonzero(diff == 0)),
                              "replicates": len(per_replicate), "swap_rate": swaps / len(per_replicate)})
    swaps_frame = pd.DataFrame(swap_rows, columns=["a", "b", "diff", "swaps", "ties", "replicates", "swap_rate"])
    return ranks, taus, swaps_frame


# --- variance components ---------------------------------------------------------------------------------------

def variance_components(scores: np.ndarray) -> dict[str, float]:
    """One run's variance components from its ``(replicates, topics)`` scores (the module docstring's design).

    With ``m`` the grand mean, ``m_t`` and ``m_r`` the topic and replicate means, R replicates and T topics:
    ``MS_topic = R sum (m_t - m)^2 / (T - 1)``, ``MS_judge = T sum (m_r - m)^2 / (R - 1)``, ``MS_residual =
    sum (x - m_t - m_r + m)^2 / ((T - 1)(R - 1))``; then ``residual = MS_residual``, ``topic = (MS_topic -
    MS_residual) / R``, ``judge = (MS_judge - MS_residual) / T``, each at least 0. ``judge_share`` is NaN when
    every score is the same (there is no variance to share).
    """
    x = np.asarray(scores, dtype=np.float64)
    replicates, topics = x.shape
    grand = x.mean()
    topic_means = x.mean(axis=0)
    replicate_means = x.mean(axis=1)
    ms_topic = replicates * float(((topic_means - grand) ** 2).sum()) / (topics - 1) if topics > 1 else 0.0
    ms_judge = topics * float(((replicate_means - grand) ** 2).sum()) / (replicates - 1) if replicates > 1 else 0.0
    residual_df = (topics - 1) * (replicates - 1)
    residuals = x - topic_means[None, :] - replicate_means[:, None] + grand
    ms_residual = float((residuals ** 2).sum()) / residual_df if residual_df else 0.0
    topic = max(0.0, (ms_topic - ms_residual) / replicates)
    judge = max(0.0, (ms_judge - ms_residual) / topics)
    residual = max(0.0, ms_residual)
    total = topic + judge + residual
    share = (judge + residual) / total if total > 0 else float("nan")
    return {"var_topic": topic, "var_judge": judge, "var_residual": residual, "judge_share": share}


# --- the whole analysis ----------------------------------------------------------------------------------------

@dataclass
class ReplicateAnalysis:
    """Everything about one metric's replicates: ``systems`` (the leaderboard with two-stage intervals, rank
    range and judge share), ``taus`` and ``swaps`` (rank stability), settings and notes; ``to_dict`` is the JSON."""

    metric: str
    replicates: list[str]
    topics: list[str]
    systems: pd.DataFrame
    taus: pd.DataFrame
    swaps: pd.DataFrame
    resamples: int
    seed: int
    confidence: float
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        from .comparison import clean_record

        tau = self.taus["kendall_tau_b"].to_numpy(dtype=float)
        finite = tau[np.isfinite(tau)]
        return {
            "metric": self.metric, "replicates": list(self.replicates), "n_replicates": len(self.replicates),
            "n_systems": int(len(self.systems)), "n_topics": len(self.topics), "resamples": self.resamples,
            "seed": self.seed, "confidence": self.confidence,
            "kendall_tau_b_mean": float(finite.mean()) if finite.size else None,
            "kendall_tau_b_min": float(finite.min()) if finite.size else None,
            "systems": [clean_record(row) for row in self.systems.to_dict(orient="records")],
            "taus": [clean_record(row) for row in self.taus.to_dict(orient="records")],
            "swaps": [clean_record(row) for row in self.swaps.to_dict(orient="records")],
            "notes": list(self.notes),
        }


def analyze_replicates(replicates: Replicates, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                       confidence: float = DEFAULT_CONFIDENCE) -> ReplicateAnalysis:
    """The leaderboard under judge uncertainty: per run (in the order of the replicates' mean) its mean, the
    two-stage and topics-only intervals, its best and worst rank, its mean under each replicate and its variance
    components; then the replicates' taus and the pairs' swaps."""
    values = replicates.values
    notes = list(replicates.notes)
    if values.shape[2] < 2:
        notes.append(f"only {values.shape[2]} topic(s): the bootstrap intervals are undefined or unreliable")
    intervals = two_stage_intervals(values, resamples, seed, confidence)
    ranks, taus, swaps = rank_stability(values, replicates.runs, replicates.names)
    index = {run: k for k, run in enumerate(replicates.runs)}
    rows = []
    for row in ranks.to_dict(orient="records"):
        k = index[row["run_id"]]
        components = variance_components(values[:, k, :])
        ordered = {"rank": row["rank"], "run_id": row["run_id"], "mean": row["mean"]}
        ordered.update({name: float(intervals.at[k, name]) for name in intervals.columns if name != "mean"})
        ordered.update({"best_rank": row["best_rank"], "worst_rank": row["worst_rank"]})
        ordered.update(components)
        ordered.update({name: value for name, value in row.items() if name.startswith("mean[")})
        rows.append(ordered)
    constant = [row["run_id"] for row in rows if not np.isfinite(row["judge_share"])]
    if constant:
        notes.append(f"judge_share is undefined for {', '.join(constant)}: the same score on every topic under "
                     "every replicate")
    if len(replicates.names) == 2:
        notes.append("two replicates: one Kendall tau, and a pair's swap rate is 0, 0.5 or 1")
    return ReplicateAnalysis(replicates.metric, list(replicates.names), list(replicates.topics), pd.DataFrame(rows),
                             taus, swaps, resamples, seed, confidence, list(dict.fromkeys(notes)))
