"""argue-eval: evaluation kit for TREC-style report-generation tracks.

Importing the package is cheap on purpose (the CLI's ``--help`` must stay under a second): heavy pieces
such as pandas, ranx, torch or a JVM are imported by the modules that need them, when they are used.
"""
from __future__ import annotations

__version__ = "0.1.0"


def __getattr__(name: str):  # PEP 562: ``argue_eval.score(...)`` without importing the scorer up front
    if name in ("score", "ScoreResult"):
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
