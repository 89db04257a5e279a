"""ARGUE's counting: a report's counts from its flowchart outcome, and ARGUE's measures per topic and over
topics (names and order are the output contract).

Beside the flowchart it counts (``argue.flowchart``), ARGUE's family is written in the common shape of
``argue_eval.family`` and registered in the measures registry (``argue_eval.measures.FAMILIES``) like every
other family: the scoring engine (``argue.api``) writes every row with ``FAMILY.topic_rows`` and
``FAMILY.aggregate_rows``. Its measure names are the metrics' (``argue.f1``, ``argue.nugget_coverage``);
``@IMPORTANCE`` on a nugget measure reads its weighted twin with only that importance weighed
(``argue.nugget_coverage@vital``: vital nuggets covered / vital nuggets).

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

from ..family import Family, FMeasure, Ratio, Summary
from .flowchart import PENALIZED, REWARDED, ReportOutcome
from .topic import PreparedTopic

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
    "IMPORTANCE_TWINS",
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

IMPORTANCE_TWINS: dict[str, str] = {
    "nuggets": "nuggets_weighted",
    "correct_nuggets": "correct_nuggets_weighted",
    "nugget_coverage": "nugget_coverage_weighted",
    "f1": "f1_weighted",
    **{twin: twin for twin in ("nuggets_weighted", "correct_nuggets_weighted", "nugget_coverage_weighted",
                               "f1_weighted")},
}
"""Measures that take ``@IMPORTANCE`` -> the weighted metric read then, under weights of 1 for nuggets of that
importance and 0 for the others (``importance``, a parameter of the family's computation)."""


def zero_counts(topic: PreparedTopic) -> Counts:
    """The counts of a topic the run has no report for (``missing_topics=zero``): nothing found, nuggets due."""
    counts: Counts = {name: 0 for name in (*COUNT_MEASURES, *OUTCOME_MEASURES, *HIDDEN_COUNTS)}
    counts["nuggets"] = topic.nugget_count
    counts["nuggets_weighted"] = topic.weight_total
    return counts


def counts_for(outcome: ReportOutcome, topic: PreparedTopic, character_count: int) -> Counts:
    """Every count measure of one report, from its flowchart outcome (all outcomes must be known)."""
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
        at={name: ("importance", twin) for name, twin in IMPORTANCE_TWINS.items()},
        description="ARGUE (Mayfield et al.): sentence outcomes from the flowchart; sentence support, nugget "
                    "coverage, F1, citation relevance and support, ARGUE precision.",
    )


FAMILY: Family = family()
"""ARGUE's family, built once: every row of the score table comes from its ``topic_rows``/``aggregate_rows``."""
