"""``agree``: how far two evaluations of the same systems agree (Kendall's tau-b, tau_AP, Spearman, Pearson, with
bootstrap intervals over topics; swapped pairs, top-k and per-topic agreement).

What ``argue-eval agree`` does minus the rendering: two score tables (any per-topic shape) read into one matrix
each (``inputs.load_matrix``) and compared by ``stats.agreement.agreement``.
"""
from __future__ import annotations

from collections.abc import Sequence
from os import PathLike
from typing import TYPE_CHECKING

from ..stats.bootstrap import DEFAULT_CONFIDENCE, DEFAULT_RESAMPLES, DEFAULT_SEED
from .result import Result, notes_of

if TYPE_CHECKING:
    from ..stats.agreement import Agreement

__all__ = ["agree"]

PathArg = str | PathLike[str]
STATISTIC_COLUMNS = ("statistic", "value", "ci_low", "ci_high", "ci_method")


def agree(
    scores_a: PathArg,
    scores_b: PathArg,
    metric: str,
    *,
    metric_b: str | None = None,
    top_k: Sequence[int] = (10,),
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    confidence: float = DEFAULT_CONFIDENCE,
    interval: str = "percentile",
    missing: str = "zero",
    scores_format: str | None = None,
) -> Result:
    """Agreement of B's system ranking with A's (the reference) on ``metric`` (``metric_b`` from B, to compare two
    measures). Systems and topics in one table only are left out and noted; ``missing``: a topic a run lacks
    within one table scores 0 (``zero``) or is dropped (``drop-topic``); ``interval``: ``percentile`` or ``bca``.

    Returns a ``Result``: the rows are the statistics (``statistic, value, ci_low, ci_high, ci_method``),
    ``details`` the JSON document (``a``, ``b`` and ``Agreement.to_dict()``: what ``--format json`` prints),
    ``data`` the ``stats.agreement.Agreement``, ``runs``/``topics`` the shared ones, and the notes.
    """
    from ..inputs import load_matrix
    from ..stats.agreement import agreement

    matrix_a = load_matrix([scores_a], metric, scores_format, missing)
    matrix_b = load_matrix([scores_b], metric_b or metric, scores_format, missing)
    found: Agreement = agreement(matrix_a, matrix_b, resamples=resamples, seed=seed, confidence=confidence,
                                 top_k=tuple(top_k), interval=interval)
    rows = [(item.name, item.value, item.ci_low, item.ci_high, item.ci_method) for item in found.statistics]
    settings = {"metric_a": found.metric_a, "metric_b": found.metric_b, "resamples": resamples, "seed": seed,
                "confidence": confidence, "interval": interval, "missing": missing}
    return Result("agree", rows, settings, [{"a": str(scores_a), "b": str(scores_b), **found.to_dict()}],
                  runs=list(found.runs), topics=list(found.topics), notes=notes_of(found.notes),
                  columns=STATISTIC_COLUMNS, data=found)
