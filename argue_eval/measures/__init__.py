"""The measures home: every measure family of the kit, listed in one registry.

A family (``argue_eval.family.Family``) has a name, parameters, per-topic counts and the ratios
that follow from them; ``family_rows`` turns per-topic counts into the long ``run_id request_id metric
value`` table that ``score`` writes and ``compare``/``agree`` read. Families are imported only when asked
for (``get_family``), so listing them loads no judge, model or pandas.

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

import importlib
import importlib.util
from typing import Any

from ..errors import unknown_name
from ..family import ALL_TOPICS, Family, FMeasure, Ratio, Summary, TopicCounts, family_rows

__all__ = ["FAMILIES", "available_families", "get_family", "Family", "FMeasure", "Ratio", "Summary", "TopicCounts",
           "family_rows", "ALL_TOPICS"]

FAMILIES: dict[str, str] = {
    "argue": "argue_eval.argue.counting:family",
    "icat": "argue_eval.measures.icat:family",
    "longrecall": "argue_eval.measures.longrecall:family",
    "nuggetizer": "argue_eval.measures.nuggetizer:family",
    "comprehensiveness": "argue_eval.measures.comprehensiveness:family",
    "retrieval": "argue_eval.measures.retrieval:family",
}
"""Family name -> ``module:factory``: a function of the family's parameters returning its ``Family``."""


def available_families() -> list[str]:
    """Names of the families whose module is present (in registry order)."""
    present = []
    for name, target in FAMILIES.items():
        module_name = target.partition(":")[0]
        if importlib.util.find_spec(module_name) is not None:
            present.append(name)
    return present


def get_family(name: str, **params: Any) -> Family:
    """The family ``name`` with ``params`` (e.g. ``get_family("icat", beta=2)``)."""
    if name not in FAMILIES:
        raise unknown_name("measure", "measure family", name, FAMILIES)
    module_name, _, attribute = FAMILIES[name].partition(":")
    factory = getattr(importlib.import_module(module_name), attribute)
    return factory(**params)
