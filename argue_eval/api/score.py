"""``score``: the ARGUE measures of runs from existing judgments (paths or records in, a ``Result`` out)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..argue.api import run_scoring
from ..argue.policies import make_policies
from ..errors import InputError
from ..inputs import load_inputs
from ..measures.argue import SCORE_TABLE_LAYOUTS, autoargue_rows
from ..model import ALL_TOPICS
from .result import Result, notes_of

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ..argue.policies import PolicyOptions

__all__ = ["score", "ScoreResult", "make_policies"]

ScoreResult = Result
"""``score``'s result, under its first name (the API's one ``Result``)."""


def score(
    runs: Any,
    nuggets: Any,
    judgments: Any,
    *,
    requests: Any = None,
    qrels: Any = None,
    details: bool = True,
    table_format: str = "argue",
    missing_hint: str | None = None,
    **policies: Unpack[PolicyOptions],
) -> Result:
    """Score runs with the ARGUE flowchart from existing judgments.

    ``runs``: run file path(s) or ``Report`` records (``None``: the reports inside Auto-ARGUE judgment
    files); ``nuggets``: a nuggets path or ``TopicNuggets``; ``judgments``: judgment file path(s) (later
    files override earlier ones), ``Judgment`` records, or any ``JudgmentLookup``; ``requests``/``qrels``:
    optional paths or records. The other keywords are the policies (``relevance``, ``nugget_scope``,
    ``missing_topics``, ``missing_judgments``, ``unbound_questions``, ``weights``, ``evaluated_topics``: the
    fields of ``argue.policies.Policies``, whose defaults are docs/scoring.md's). ``table_format="autoargue"``
    lays the table out as an Auto-ARGUE score file (``autoargue_rows``). ``missing_hint`` says how to produce
    missing judgments in the error that lists them (``missing_judgments="error"``).

    Returns a ``Result``: ``table`` (columns ``run_id, request_id, metric, value``) and ``rows``, one ``details``
    record per scored report (with ``details=True``), the ``notes`` ``argue-eval score`` prints (topics not
    evaluated, reports outside the evaluation, missing topics and judgments), ``runs`` and ``topics`` scored,
    ``settings`` (the policies and the layout), ``counts`` (missing judgments per kind) and ``data``, the scoring
    engine's ``argue.api.Scoring`` (its ``rows`` in our layout whatever ``table_format``).
    """
    if table_format not in SCORE_TABLE_LAYOUTS:  # before any file is read
        raise InputError("table_format", None, None,
                         f"expected one of {', '.join(SCORE_TABLE_LAYOUTS)}, found {table_format!r}")
    chosen = make_policies(**policies)
    inputs = load_inputs(runs, nuggets, judgments, requests, qrels, chosen)
    scoring = run_scoring(inputs.reports(), inputs.evaluation, inputs.source, details=details, missing_hint=missing_hint)
    return scored_result(scoring, table_format)


def scored_result(scoring: Any, table_format: str = "argue") -> Result:
    """An ``argue.api.Scoring`` as the API's ``Result`` (rows laid out by ``table_format``; the scoring as ``data``)."""
    rows = autoargue_rows(scoring.rows, ALL_TOPICS) if table_format == "autoargue" else scoring.rows
    runs = list(dict.fromkeys(row[0] for row in scoring.rows))
    topics = list(dict.fromkeys(row[1] for row in scoring.rows if row[1] != ALL_TOPICS))
    settings = {"policies": scoring.policies.describe(), "table_format": table_format}
    counts = {"missing_judgments": dict(scoring.missing)}
    return Result("argue", rows, settings, scoring.details, runs, topics, counts, notes_of(scoring.notes),
                  data=scoring)
