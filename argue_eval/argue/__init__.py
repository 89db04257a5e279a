"""ARGUE scoring: the flowchart (``flowchart``), per-topic measures and aggregates (``measures``), the
policies that make every open choice explicit (``policies``) and the ``score`` API (``api``).

Importing this package does not import pandas; ``score`` does, when called.
"""
from __future__ import annotations

from .api import Evaluation, MissingJudgmentsError, ScoreResult, Scoring, run_scoring, score
from .policies import Policies, parse_weights

__all__ = [
    "Evaluation",
    "MissingJudgmentsError",
    "Policies",
    "ScoreResult",
    "Scoring",
    "parse_weights",
    "run_scoring",
    "score",
]
