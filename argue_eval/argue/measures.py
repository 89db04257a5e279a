"""Alias kept for existing imports: ARGUE's measures now live in ``argue_eval.measures.argue``."""
from __future__ import annotations

from ..measures.argue import *  # noqa: F401,F403
from ..measures.argue import __all__  # noqa: F401
