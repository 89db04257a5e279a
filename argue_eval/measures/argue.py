"""ARGUE measures per topic and their aggregates over topics (names and order are the output contract).

This is ARGUE's family in the measures home (``argue_eval.measures``), in the common shape of
``measures.base``: the scoring engine (``argue.api``) writes every row with ``FAMILY.topic_rows`` and
``FAMILY.aggregate_rows``. It imports nothing from ``argue_eval.argue`` at module level, so that
``argue.api`` can import it while ``argue`` itself is being imported.

Per topic, the counts come from the flowchart outcomes (``counts_for``) and the ratios from the counts
(``FAMILY.values``). An empty denominator gives 0 and an ``<measure>_undefined`` flag, never NaN. Over
topics, ``_micro`` divides summed counts and ``_macro`` averages the per-topic values with numpy's
pairwise summation (``base.mean``, as Auto-ARGUE averages), so ``f1_macro`` is the mean of per-topic F1s
and ``f1_micro`` the F1 of the micro sentence support and nugget coverage. Aggregate rows also carry the
summed counts under their own names, ``character_count_median``/``_max`` instead of the summed
character count, and the hidden counts behind ``argue_precision`` (``rewarded``, ``judged_sentences``)
nowhere.
"""
from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..model import ALL_TOPICS
from .base import Family, FMeasure, Ratio, Summary

if TYPE_CHECKING:
    from ..argue.flowchart import ReportOutcome
    from ..argue.topic import PreparedTopic

__all__ = [
    "COUNT_MEASURES",
    "RATIO_MEASURES",
    "OUTCOME_MEASURES",
    "HIDDEN_COUNTS",
    "TOPIC_MEASURES",
    "counts_for",
    "zero_counts",
    "family",
    "FAMILY",
    "SCORE_TABLE_LAYOUTS",
    "AUTOARGUE_TOPIC_MEASURES",
    "AUTOARGUE_ALL_MEASURES",
    "autoargue_rows",
]

COUNT_MEASURES: tuple[str, ...] = (
    "sentences",
    "character_count",
    "citations",
    "relevant_citations",
    "supporting_citations",
    "sentences_with_citations_or_requiring_citations",
    "correctly_cited_sentences",
    "first_instance_sentences_missing_citation",
    "nuggets",
    "nuggets_weighted",
    "correct_nuggets",
    "correct_nuggets_weighted",
)
OUTCOME_MEASURES: tuple[str, ...] = tuple(f"outcome_{k}" for k in range(1, 9))
HIDDEN_COUNTS: tuple[str, ...] = ("rewarded", "judged_sentences")
"""Counts behind ``argue_precision`` that the table leaves out: sentences with a rewarded outcome, and
with a rewarded or penalized one."""
RATIO_MEASURES: tuple[str, ...] = (
    "citation_relevance",
    "citation_support",
    "sentence_support",
    "nugget_coverage",
    "nugget_coverage_weighted",
    "f1",
    "f1_weighted",
    "argue_precision",
)
TOPIC_MEASURES: tuple[str, ...] = (
    "sentences",
    "character_count",
    "citations",
    "relevant_citations",
    "supporting_citations",
    "sentences_with_citations_or_requiring_citations",
    "correctly_cited_sentences",
    "first_instance_sentences_missing_citation",
    "citation_relevance",
    "citation_support",
    "sentence_support",
    "nuggets",
    "nuggets_weighted",
    "correct_nuggets",
    "correct_nuggets_weighted",
    "nugget_coverage",
    "nugget_coverage_weighted",
    "f1",
    "f1_weighted",
    "argue_precision",
    *OUTCOME_MEASURES,
)
"""Per-topic rows, in this order (then ``<ratio>_undefined`` = 1 for each ratio with an empty denominator)."""

Counts = dict[str, float]


def zero_counts(topic: PreparedTopic) -> Counts:
    """The counts of a topic the run has no report for (``missing_topics=zero``): nothing found, nuggets due."""
    counts: Counts = {name: 0 for name in (*COUNT_MEASURES, *OUTCOME_MEASURES, *HIDDEN_COUNTS)}
    counts["nuggets"] = topic.nugget_count
    counts["nuggets_weighted"] = topic.weight_total
    return counts


def counts_for(outcome: ReportOutcome, topic: PreparedTopic, character_count: int) -> Counts:
    """Every count measure of one report, from its flowchart outcome (all outcomes must be known)."""
    from ..argue.flowchart import PENALIZED, REWARDED

    counts = zero_counts(topic)
    counts["character_count"] = character_count
    counts["sentences"] = len(outcome.sentences)
    for sentence in outcome.sentences:
        if sentence.outcome is not None:
            counts[f"outcome_{sentence.outcome}"] += 1
            if sentence.outcome in REWARDED:
                counts["rewarded"] += 1
                counts["judged_sentences"] += 1
            elif sentence.outcome in PENALIZED:
                counts["judged_sentences"] += 1
        if sentence.citations:
            counts["sentences_with_citations_or_requiring_citations"] += 1
            counts["citations"] += len(sentence.citations)
            all_attested = True
            for citation in sentence.citations:
                if citation.relevant:
                    counts["relevant_citations"] += 1
                if citation.attested:
                    counts["supporting_citations"] += 1
                else:
                    all_attested = False
            if all_attested:
                counts["correctly_cited_sentences"] += 1
        elif sentence.outcome == 5:
            counts["sentences_with_citations_or_requiring_citations"] += 1
            counts["first_instance_sentences_missing_citation"] += 1
    correct = 0
    correct_weighted: float = 0
    for scored, units_found in zip(topic.nuggets, outcome.found):
        if not units_found:
            continue
        if scored.nugget.aggregator == "AND" and not all(u in units_found for u in scored.required):
            continue
        correct += 1
        correct_weighted += scored.weight
    counts["correct_nuggets"] = correct
    counts["correct_nuggets_weighted"] = correct_weighted
    return counts


def family() -> Family:
    """ARGUE in the common ``Family`` shape (it takes no parameters: the policies change the counts, not the
    arithmetic). The scoring engine uses ``FAMILY``, this family built once."""
    return Family(
        name="argue",
        counts=COUNT_MEASURES + OUTCOME_MEASURES,
        ratios=(
            Ratio("citation_relevance", "relevant_citations", "citations"),
            Ratio("citation_support", "supporting_citations", "citations"),
            Ratio("sentence_support", "correctly_cited_sentences", "sentences_with_citations_or_requiring_citations"),
            Ratio("nugget_coverage", "correct_nuggets", "nuggets"),
            Ratio("nugget_coverage_weighted", "correct_nuggets_weighted", "nuggets_weighted"),
            FMeasure("f1", "sentence_support", "nugget_coverage", undefined_with_parts=False),
            FMeasure("f1_weighted", "sentence_support", "nugget_coverage_weighted", undefined_with_parts=False),
            Ratio("argue_precision", "rewarded", "judged_sentences"),
        ),
        hidden=HIDDEN_COUNTS,
        summaries=(Summary("character_count_median", "character_count", statistics.median),
                   Summary("character_count_max", "character_count", max)),
        order=TOPIC_MEASURES,
        description="ARGUE (Mayfield et al.): sentence outcomes from the flowchart; sentence support, nugget "
                    "coverage, F1, citation relevance and support, ARGUE precision.",
    )


FAMILY: Family = family()
"""ARGUE's family, built once: every row of the score table comes from its ``topic_rows``/``aggregate_rows``."""


# --------------------------------------------------------------------------------------------------
# Auto-ARGUE's score-file layout (``--table-format autoargue``)
# --------------------------------------------------------------------------------------------------
SCORE_TABLE_LAYOUTS: tuple[str, ...] = ("argue", "autoargue")
"""``argue``: our table (every measure, ``*_undefined`` flags, ``all`` rows last, counts as integers).
``autoargue``: exactly the rows and layout of an Auto-ARGUE ``*.scores.tsv`` (see ``autoargue_rows``)."""

AUTOARGUE_TOPIC_MEASURES: tuple[str, ...] = (
    "sentences",
    "character_count",
    "sentences_with_citations_or_requiring_citations",
    "correctly_cited_sentences",
    "nuggets",
    "nuggets_weighted",
    "correct_nuggets",
    "correct_nuggets_weighted",
    "citations",
    "relevant_citations",
    "supporting_citations",
    "citation_relevance",
    "citation_support",
    "sentence_support",
    "nugget_coverage",
    "nugget_coverage_weighted",
    "f1",
    "f1_weighted",
)
"""The per-topic rows of an Auto-ARGUE score file, in its order."""

AUTOARGUE_ALL_MEASURES: tuple[str, ...] = (
    "sentences",
    "sentences_with_citations_or_requiring_citations",
    "correctly_cited_sentences",
    "nuggets",
    "nuggets_weighted",
    "correct_nuggets",
    "correct_nuggets_weighted",
    "citations",
    "relevant_citations",
    "supporting_citations",
    "character_count_median",
    "character_count_max",
    *(f"{name}_{kind}" for name in RATIO_MEASURES if name != "argue_precision" for kind in ("micro", "macro")),
)
"""The ``all`` rows of an Auto-ARGUE score file, in its order."""


def autoargue_rows(
    rows: Sequence[tuple[str, str, str, float]], all_id: str = ALL_TOPICS
) -> list[tuple[str, str, str, float]]:
    """Our ``(run_id, request_id, metric, value)`` rows re-laid out as Auto-ARGUE writes its score files.

    Per run: the ``all`` rows first (``AUTOARGUE_ALL_MEASURES``), then each topic in the order given with
    ``AUTOARGUE_TOPIC_MEASURES``; every value a float (printed ``263.0``). Our additions (``argue_precision``,
    ``first_instance_sentences_missing_citation``, ``outcome_*``, ``*_undefined``, ``topics``,
    ``missing_topics``, ``missing_judgments``, ``skipped_reports``) are left out. The values are unchanged.
    """
    by_run: dict[str, dict[str, dict[str, float]]] = {}
    for run_id, request_id, metric, value in rows:
        by_run.setdefault(run_id, {}).setdefault(request_id, {})[metric] = value
    out: list[tuple[str, str, str, float]] = []
    for run_id, topics in by_run.items():
        aggregate = topics.get(all_id, {})
        out.extend((run_id, all_id, name, float(aggregate[name]))
                   for name in AUTOARGUE_ALL_MEASURES if name in aggregate)
        for request_id, values in topics.items():
            if request_id == all_id:
                continue
            out.extend((run_id, request_id, name, float(values[name])) for name in AUTOARGUE_TOPIC_MEASURES)
    return out

