"""ARGUE scoring: the flowchart (``flowchart``), the policies that make every open choice explicit
(``policies``), the counting of a report's outcomes and ARGUE's measure family (``counting``) and the
scoring engine (``api``), which writes per-topic measures and aggregates with that family.

This package takes records and a judgment lookup; it never reads files (``argue_eval.inputs`` does, and
``argue_eval.score`` is the Python API that takes paths). Importing it does not import pandas.
"""
from __future__ import annotations

from .api import Evaluation, MissingJudgmentsError, Scoring, run_scoring
from .policies import Policies, parse_weights

__all__ = [
    "Evaluation",
    "MissingJudgmentsError",
    "Policies",
    "Scoring",
    "parse_weights",
    "run_scoring",
]
