"""``score``: the ARGUE measures of runs from existing judgments (paths or records in, a DataFrame out), the
ARGUE family's table on ``api.calc``'s road (``api.argue``)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from ..argue.policies import Policies
from ..errors import InputError
from ..formats.scores import SCORE_TABLE_LAYOUTS, autoargue_rows
from ..model import ALL_TOPICS
from .calc import calc_family

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["score", "ScoreResult", "make_policies"]


def make_policies(**options: Any) -> Policies:
    """``Policies`` from keyword options, ignoring ``None`` (the one place CLI and API build them)."""
    return Policies(**{name: value for name, value in options.items() if value is not None})


class ScoreResult(NamedTuple):
    """``score``'s result: the long score table and one details record per scored report."""

    table: pd.DataFrame
    details: list[dict[str, Any]]


def score(
    runs: Any,
    nuggets: Any,
    judgments: Any,
    *,
    requests: Any = None,
    qrels: Any = None,
    details: bool = True,
    relevance: str = "nuggets",
    nugget_scope: str = "cited",
    missing_topics: str = "zero",
    missing_judgments: str = "error",
    unbound_questions: str = "drop",
    weights: Mapping[str, float] | None = None,
    table_format: str = "argue",
    evaluated_topics: str = "judged",
) -> ScoreResult:
    """Score runs with the ARGUE flowchart from existing judgments.

    ``runs``: run file path(s) or ``Report`` records (``None``: the reports inside Auto-ARGUE judgment
    files); ``nuggets``: a nuggets path or ``TopicNuggets``; ``judgments``: judgment file path(s) (later
    files override earlier ones), ``Judgment`` records, or any ``JudgmentLookup``; ``requests``/``qrels``:
    optional paths or records. The keyword policies are those of ``Policies`` (docs/scoring.md defaults).
    ``table_format="autoargue"`` lays the table out as an Auto-ARGUE score file (``autoargue_rows``).
    Returns ``ScoreResult(table, details)``; ``table`` has columns ``run_id, request_id, metric, value``.
    """
    import pandas as pd

    if table_format not in SCORE_TABLE_LAYOUTS:  # before any file is read
        raise InputError("table_format", None, None,
                         f"expected one of {', '.join(SCORE_TABLE_LAYOUTS)}, found {table_format!r}")
    policies = make_policies(relevance=relevance, nugget_scope=nugget_scope, missing_topics=missing_topics,
                             missing_judgments=missing_judgments, unbound_questions=unbound_questions,
                             weights=dict(weights or {}), evaluated_topics=evaluated_topics)
    result = calc_family("argue", runs=runs, nuggets=nuggets, judgments=judgments, requests=requests, qrels=qrels,
                         policies=policies, details=details)
    rows = autoargue_rows(result.rows, ALL_TOPICS) if table_format == "autoargue" else result.rows
    table = pd.DataFrame(rows, columns=["run_id", "request_id", "metric", "value"])
    return ScoreResult(table, result.details)
