"""ARGUE measures per topic and their aggregates over topics (names and order are the output contract).

This is ARGUE's family in the measures home (``argue_eval.measures``); ``argue_eval.argue.measures`` is
kept as an alias of this module. It imports nothing from ``argue_eval.argue`` at module level, so that
``argue.api`` can import it while ``argue`` itself is being imported.

Per topic, the counts come from the flowchart outcomes (``counts_for``) and the ratios from the counts
(``ratios``). An empty denominator gives 0 and an ``<measure>_undefined`` flag, never NaN. Over topics,
``_micro`` divides summed counts and ``_macro`` averages the per-topic values (so ``f1_macro`` is the mean
of per-topic F1s, and ``f1_micro`` the F1 of the micro sentence support and nugget coverage). Aggregate
rows also carry the summed counts under their own names and ``character_count_median``/``_max``.
"""
from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ..model import ALL_TOPICS

if TYPE_CHECKING:
    from ..argue.flowchart import ReportOutcome
    from ..argue.topic import PreparedTopic

__all__ = [
    "COUNT_MEASURES",
    "RATIO_MEASURES",
    "OUTCOME_MEASURES",
    "TOPIC_MEASURES",
    "counts_for",
    "zero_counts",
    "ratios",
    "topic_rows",
    "aggregate_rows",
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
_HIDDEN_COUNTS = ("rewarded", "penalized")

# ratio -> (numerator count, denominator count); f1 measures are harmonic means of two ratios
_RATIO_PARTS: dict[str, tuple[str, str]] = {
    "citation_relevance": ("relevant_citations", "citations"),
    "citation_support": ("supporting_citations", "citations"),
    "sentence_support": ("correctly_cited_sentences", "sentences_with_citations_or_requiring_citations"),
    "nugget_coverage": ("correct_nuggets", "nuggets"),
    "nugget_coverage_weighted": ("correct_nuggets_weighted", "nuggets_weighted"),
    "argue_precision": ("rewarded", "judged_sentences"),
}
_F1_PARTS: dict[str, tuple[str, str]] = {
    "f1": ("sentence_support", "nugget_coverage"),
    "f1_weighted": ("sentence_support", "nugget_coverage_weighted"),
}
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
    counts: Counts = {name: 0 for name in (*COUNT_MEASURES, *OUTCOME_MEASURES, *_HIDDEN_COUNTS)}
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
            elif sentence.outcome in PENALIZED:
                counts["penalized"] += 1
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


def _mean(values: list[float]) -> float:
    """Mean over topics with numpy's pairwise summation (what pandas/numpy-based scorers such as Auto-ARGUE
    use, so that macro averages agree with theirs to the last bit); 0 for no topics."""
    if not values:
        return 0.0
    import numpy as np

    return float(np.mean(np.asarray(values, dtype=float)))


def _divide(numerator: float, denominator: float) -> tuple[float, bool]:
    if denominator == 0:
        return 0.0, True
    return numerator / denominator, False


def _f1(precision: float, recall: float) -> tuple[float, bool]:
    if precision + recall == 0:
        return 0.0, True
    return 2 * precision * recall / (precision + recall), False


def ratios(counts: Mapping[str, float]) -> tuple[dict[str, float], set[str]]:
    """Ratio measures from counts, and the names of those whose denominator was empty (set to 0)."""
    values: dict[str, float] = {}
    undefined: set[str] = set()
    enriched = dict(counts)
    enriched["judged_sentences"] = counts["rewarded"] + counts["penalized"]
    for name, (numerator, denominator) in _RATIO_PARTS.items():
        value, empty = _divide(enriched[numerator], enriched[denominator])
        values[name] = value
        if empty:
            undefined.add(name)
    for name, (precision, recall) in _F1_PARTS.items():
        value, empty = _f1(values[precision], values[recall])
        values[name] = value
        if empty:
            undefined.add(name)
    return values, undefined


def topic_rows(counts: Mapping[str, float]) -> list[tuple[str, float]]:
    """(measure, value) rows of one topic in the contract order, then ``*_undefined`` flags."""
    values, undefined = ratios(counts)
    merged = {**counts, **values}
    rows = [(name, merged[name]) for name in TOPIC_MEASURES]
    rows.extend((f"{name}_undefined", 1) for name in RATIO_MEASURES if name in undefined)
    return rows


_SUMMED = tuple(name for name in COUNT_MEASURES if name != "character_count") + OUTCOME_MEASURES


def aggregate_rows(per_topic: Sequence[Mapping[str, float]]) -> list[tuple[str, float]]:
    """``all`` rows over the topics of one run: summed counts, character count median/max, micro/macro ratios.

    ``per_topic`` holds each topic's counts. With no topics at all every value is 0.
    """
    rows: list[tuple[str, float]] = []
    totals: dict[str, float] = {name: 0 for name in (*COUNT_MEASURES, *OUTCOME_MEASURES, *_HIDDEN_COUNTS)}
    for counts in per_topic:
        for name in totals:
            totals[name] += counts[name]
    rows.extend((name, totals[name]) for name in _SUMMED)
    characters = [counts["character_count"] for counts in per_topic]
    rows.append(("character_count_median", statistics.median(characters) if characters else 0))
    rows.append(("character_count_max", max(characters) if characters else 0))
    micro, _ = ratios(totals)
    topic_values = [ratios(counts) for counts in per_topic]
    undefined_counts = {name: 0 for name in RATIO_MEASURES}
    for _values, undefined in topic_values:
        for name in undefined:
            undefined_counts[name] += 1
    for name in RATIO_MEASURES:
        rows.append((f"{name}_micro", micro[name]))
        rows.append((f"{name}_macro", _mean([values[name] for values, _ in topic_values])))
    rows.extend((f"{name}_undefined", undefined_counts[name]) for name in RATIO_MEASURES)
    rows.append(("topics", len(per_topic)))
    return rows


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


def _family():
    """ARGUE in the common ``Family`` shape (for the registry and for listing its measures).

    Scoring itself uses ``topic_rows``/``aggregate_rows`` above (they add ARGUE's own ``all`` rows, such as
    the character-count median); the ratios are the same arithmetic (a test checks it).
    """
    from .base import Family, FMeasure, Ratio

    ratios: list = [Ratio(name, numerator, denominator) for name, (numerator, denominator) in _RATIO_PARTS.items()
                    if name != "argue_precision"]
    ratios += [FMeasure(name, precision, recall) for name, (precision, recall) in _F1_PARTS.items()]
    ratios.append(Ratio("argue_precision", *_RATIO_PARTS["argue_precision"]))
    return Family(
        name="argue",
        counts=COUNT_MEASURES + OUTCOME_MEASURES,
        ratios=tuple(ratios),
        description="ARGUE (Mayfield et al.): sentence outcomes from the flowchart; sentence support, nugget "
                    "coverage, F1, citation relevance and support, ARGUE precision.",
    )


FAMILY = _family()
