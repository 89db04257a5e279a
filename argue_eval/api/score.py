"""``score``: the ARGUE measures of runs from existing judgments (paths or records in, a ``Result`` out), the
ARGUE family's table on ``api.calc``'s road (``api.argue``)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..argue.policies import make_policies
from ..errors import InputError
from ..formats.scores import SCORE_TABLE_LAYOUTS, autoargue_rows
from ..model import ALL_TOPICS
from .calc import calc_family
from .result import Result

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
    lays the table out as an Auto-ARGUE score file (``formats.scores.autoargue_rows``; ``write_scores`` can lay
    out our rows so too). ``missing_hint`` says how to produce missing judgments in the error that lists them
    (``missing_judgments="error"``).

    Returns a ``Result``: ``table`` (columns ``run_id, request_id, metric, value``) and ``rows``, one ``details``
    record per scored report (with ``details=True``), the ``notes`` ``argue-eval score`` prints (topics not
    evaluated, reports outside the evaluation, missing topics and judgments), ``runs`` and ``topics`` scored,
    ``settings`` (the policies and the layout) and ``counts`` (missing judgments per kind).
    """
    if table_format not in SCORE_TABLE_LAYOUTS:  # before any file is read
        raise InputError("table_format", None, None,
                         f"expected one of {', '.join(SCORE_TABLE_LAYOUTS)}, found {table_format!r}")
    result = calc_family("argue", runs=runs, nuggets=nuggets, judgments=judgments, requests=requests, qrels=qrels,
                         policies=make_policies(**policies), details=details, missing_hint=missing_hint)
    if table_format == "autoargue":
        result.rows = autoargue_rows(result.rows, ALL_TOPICS)
    result.settings["table_format"] = table_format
    return result
