"""The measures home: every measure family of the kit, listed in one registry.

A family (``argue_eval.family.Family``) has a name, parameters, per-topic counts and the ratios
that follow from them; ``family_rows`` turns per-topic counts into the long ``run_id request_id metric
value`` table that ``score`` writes and ``compare``/``agree`` read. Families are imported only when asked
for (``get_family``; ``FAMILIES`` is an ``argue_eval.registry.Registry``), so listing them loads no judge,
model or pandas.

=============  ============================================================  =====================
family         what it measures                                              module
=============  ============================================================  =====================
``argue``      ARGUE flowchart outcomes: support, coverage, F1               ``argue.counting``
``icat``       ICAT: grounded claims (factuality) x covered aspects          ``measures.icat``
``longrecall`` LongRecall: reference facts entailed by the report (recall)   ``measures.longrecall``
``nuggetizer`` TREC RAG nuggetizer scores (vital / all, strict, weighted)      ``measures.nuggetizer``
``comprehensiveness`` context clusters reached in the entailment graph     ``measures.comprehensiveness``
``retrieval``  trec_eval's measures of ranked runs or of reports' citations  ``measures.retrieval``
=============  ============================================================  =====================

Measures are named ``FAMILY.MEASURE`` (``argue.f1``, ``icat.f@2``, ``retrieval.ndcg@20``): the grammar and its
parser are ``measures.names`` (``parse_measure``); ``argue_eval.api.calc`` computes any list of them.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..family import ALL_TOPICS, Family, FMeasure, Ratio, Summary, TopicCounts, family_rows
from ..registry import Registry

__all__ = ["FAMILIES", "available_families", "get_family", "Family", "FMeasure", "Ratio", "Summary", "TopicCounts",
           "family_rows", "ALL_TOPICS"]

FAMILIES: Registry[Callable[..., Family]] = Registry("measure family", {
    "argue": "argue_eval.argue.counting:family",
    "icat": "argue_eval.measures.icat:family",
    "longrecall": "argue_eval.measures.longrecall:family",
    "nuggetizer": "argue_eval.measures.nuggetizer:family",
    "comprehensiveness": "argue_eval.measures.comprehensiveness:family",
    "retrieval": "argue_eval.measures.retrieval:family",
}, option="measure")
"""Family name -> ``module:factory``: a function of the family's parameters returning its ``Family``."""


def available_families() -> list[str]:
    """Names of the families whose module is present (in registry order)."""
    return FAMILIES.available()


def get_family(name: str, **params: Any) -> Family:
    """The family ``name`` with ``params`` (e.g. ``get_family("icat", beta=2)``)."""
    return FAMILIES.get(name)(**params)
