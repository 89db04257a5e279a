"""The common shape of a measure family, in the spirit of ir_measures: below every engine that writes a score
table (ARGUE's in ``argue/``, the other families in ``measures/``), so that neither imports the other.

A family (ARGUE, ICAT, LongRecall, ...) computes, per run x topic, a few *counts* (what was found, what
was due); every *ratio* and *F-measure* follows from the counts by plain arithmetic. Keeping that split
is what lets every family write the same long table as ``score``:

* per topic: the counts, the ratios, and ``<ratio>_undefined`` = 1 where a denominator was empty (the
  ratio is then 0, never NaN);
* per run (``all`` rows): the summed counts, ``<ratio>_micro`` (from the summed counts), ``<ratio>_macro``
  (mean of the per-topic values), ``<ratio>_undefined`` (how many topics had it undefined), ``topics``,
  and the family's numeric parameters as ``param_<name>`` so a table says how it was made.

A family may also keep counts out of the table that its ratios need (``hidden``), summarize a count over
topics other than by its sum (``Summary``: ARGUE's median and longest report), fix the order of its
per-topic rows (``order``), and its caller may add rows about how the topics were chosen after the rest
(``aggregate_rows(extra=...)``: ARGUE's ``missing_topics``, ...). ARGUE's table, byte for byte that of
Auto-ARGUE, is written this way (``argue.counting``).

A family also says what its measures are called (``Family.measure``): every count and ratio by its own name,
``aliases`` besides (ICAT's ``fact`` is ``icat_fact``), and what ``@`` means for a measure (``at``: ICAT's
``f@2`` is ``icat`` with beta 2); a family whose measures are open-ended (retrieval's ``ndcg@20``,
``P_10``) resolves names with its own ``resolve``. ``measures.names`` holds the grammar.

``compare`` and ``agree`` read per-topic rows of one metric, so they work on any family unchanged.
This module does arithmetic only: it never reads files and never calls a judge.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .errors import OptionError, unknown_name
from .model import ALL_TOPICS

__all__ = ["Ratio", "FMeasure", "Summary", "Family", "TopicCounts", "Row", "ALL_TOPICS", "mean", "family_rows"]

Row = tuple[str, str, str, float]


@dataclass(frozen=True)
class Ratio:
    """``name = numerator / denominator`` over two counts of the family (0 and undefined when empty)."""

    name: str
    numerator: str
    denominator: str


@dataclass(frozen=True)
class FMeasure:
    """``name`` = the weighted harmonic mean of two ratios, van Rijsbergen's F_beta:
    ``(1 + beta^2) * p * r / (beta^2 * p + r)``; beta > 1 weighs ``recall`` more (0 and undefined when
    ``beta^2 * p + r`` is 0).

    ``undefined_with_parts``: whether it is also undefined when either ratio is (an F over an unknown side is
    unknown). ARGUE flags its F1 only when both sides are 0, taking an undefined side as the 0 it is set to,
    so its F1s say ``False``."""

    name: str
    precision: str
    recall: str
    beta: float = 1.0
    undefined_with_parts: bool = True


@dataclass(frozen=True)
class Summary:
    """An ``all`` row that summarizes one count over the topics otherwise than by its sum:
    ``name = how(the per-topic values of count)``, 0 for no topics. A count with a summary is not summed
    in the ``all`` rows (ARGUE: ``character_count_median``, ``character_count_max``)."""

    name: str
    count: str
    how: Callable[[Sequence[float]], float]


class TopicCounts(NamedTuple):
    """The counts of one run on one topic (what a family computes; every other value follows from it)."""

    run_id: str
    request_id: str
    counts: Mapping[str, float]


def mean(values: Sequence[float]) -> float:
    """Mean over topics with numpy's pairwise summation (as the ARGUE scorer averages); 0 for no topics."""
    if not values:
        return 0.0
    import numpy as np

    return float(np.mean(np.asarray(values, dtype=float)))


def f_beta(precision: float, recall: float, beta: float) -> tuple[float, bool]:
    """F_beta of two ratios and whether it is undefined (both 0)."""
    b2 = beta * beta
    denominator = b2 * precision + recall
    if denominator == 0:
        return 0.0, True
    return (1 + b2) * precision * recall / denominator, False


@dataclass(frozen=True)
class Family:
    """A measure family: its counts, the ratios built from them, and the parameters it was computed with.

    ``counts`` are summed over topics in the ``all`` rows; ``ratios`` (``Ratio`` or ``FMeasure``, in
    output order, an ``FMeasure`` after the ratios it combines) get ``_micro``/``_macro``/``_undefined``.
    ``params`` are recorded as ``param_<name>`` rows when numeric (text parameters go to the details).

    ``hidden`` are counts the ratios use that the table leaves out (summed like the others, never written);
    ``summaries`` replace a count's sum in the ``all`` rows (written after the sums); ``order`` is the
    per-topic rows' order when it is not the counts then the ratios (every count and ratio once).
    """

    name: str
    counts: tuple[str, ...]
    ratios: tuple[Ratio | FMeasure, ...]
    params: Mapping[str, Any] = field(default_factory=dict)
    description: str = ""
    hidden: tuple[str, ...] = ()
    summaries: tuple[Summary, ...] = ()
    order: tuple[str, ...] = ()
    aliases: Mapping[str, str] = field(default_factory=dict)
    """Measure names besides the metrics' own, each -> the metric it reads (ICAT: ``fact`` -> ``icat_fact``)."""
    at: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """Measure name -> (the parameter its ``@VALUE`` sets, the metric it then reads): ICAT's ``f`` ->
    ``("beta", "icat")``; ARGUE's ``nugget_coverage`` -> ``("importance", "nugget_coverage_weighted")``."""
    resolve: Callable[[str, str | None, dict[str, Any]], tuple[str, dict[str, Any]]] | None = field(
        default=None, compare=False)
    """For a family whose measures are open-ended (retrieval): ``(name, at, params)`` -> ``(metric, the
    family's parameters)``, raising an error that names the known measures; ``None``: the names above."""
    known: tuple[str, ...] = ()
    """With ``resolve``: the measure names an error lists (the others list every count, ratio and alias)."""

    def __post_init__(self) -> None:
        if self.order and sorted(self.order) != sorted(self.metrics):
            raise ValueError(f"{self.name}: the row order must name every count and ratio once")
        for name, (_, metric) in self.at.items():
            if metric not in self.metrics or (name not in self.metrics and name not in self.aliases):
                raise ValueError(f"{self.name}: @ of {name!r} must name a measure and a metric of the family")

    @property
    def measure_names(self) -> tuple[str, ...]:
        """Every name a measure of this family can have (``family.NAME``), in table order then the aliases."""
        if self.resolve is not None:
            return self.known
        return (*(self.order or self.metrics), *(name for name in self.aliases if name not in self.metrics))

    def measure(self, name: str, at: str | None = None,
                params: Mapping[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        """The metric that measure ``name`` (with ``@at``, if given) reads, and the family's parameters it is
        computed with: ``params`` plus what ``@`` sets. An unknown name is an error listing the known ones."""
        params = dict(params or {})
        if self.resolve is not None:
            return self.resolve(name, at, params)
        metric = self.aliases.get(name, name)
        if metric not in self.metrics:
            raise unknown_name("measure", f"{self.name} measure", name, self.measure_names)
        if at is None:
            return metric, params
        if name not in self.at:
            raise OptionError("measure", f"{self.name}.{name}@{at}: {self.name}.{name} takes no @"
                              + (f" (of {self.name}'s measures, these do: {', '.join(self.at)})" if self.at else ""))
        parameter, metric = self.at[name]
        if parameter in params and str(params[parameter]) != at:
            raise OptionError("measure", f"{self.name}.{name}@{at}: {parameter} given twice ({params[parameter]} and {at})")
        params[parameter] = at
        return metric, params

    @property
    def ratio_names(self) -> tuple[str, ...]:
        return tuple(ratio.name for ratio in self.ratios)

    @property
    def metrics(self) -> tuple[str, ...]:
        """Every per-topic metric name (without the ``_undefined`` flags)."""
        return self.counts + self.ratio_names

    def values(self, counts: Mapping[str, float]) -> tuple[dict[str, float], set[str]]:
        """The ratios of one set of counts, and the names of those that were undefined (set to 0)."""
        values: dict[str, float] = {}
        undefined: set[str] = set()
        for ratio in self.ratios:
            if isinstance(ratio, Ratio):
                denominator = counts[ratio.denominator]
                value, empty = (0.0, True) if denominator == 0 else (counts[ratio.numerator] / denominator, False)
            else:
                value, empty = f_beta(values[ratio.precision], values[ratio.recall], ratio.beta)
                if ratio.undefined_with_parts:
                    empty = empty or ratio.precision in undefined or ratio.recall in undefined
            values[ratio.name] = value
            if empty:
                undefined.add(ratio.name)
        return values, undefined

    def topic_rows(self, counts: Mapping[str, float]) -> list[tuple[str, float]]:
        """``(metric, value)`` rows of one topic: counts and ratios (in ``order`` if given, else counts first),
        then ``<ratio>_undefined`` = 1 flags."""
        values, undefined = self.values(counts)
        if self.order:
            rows = [(name, values[name] if name in values else counts[name]) for name in self.order]
        else:
            rows = [(name, counts[name]) for name in self.counts]
            rows.extend((name, values[name]) for name in self.ratio_names)
        rows.extend((f"{name}_undefined", 1) for name in self.ratio_names if name in undefined)
        return rows

    def aggregate_rows(self, per_topic: Sequence[Mapping[str, float]],
                       extra: Iterable[tuple[str, float]] = ()) -> list[tuple[str, float]]:
        """``all`` rows of one run: summed counts, summaries, micro and macro ratios, undefined counts, topics,
        params, then the caller's ``extra`` rows (how the topics were chosen, say; written as given)."""
        totals: dict[str, float] = {name: 0 for name in (*self.counts, *self.hidden)}
        # Summed left to right, as ARGUE's table always was: sum() of floats is compensated from Python 3.12
        # on, so with it the same weighted counts could differ in the last bit from one Python to another.
        for counts in per_topic:
            for name in totals:
                totals[name] += counts[name]
        micro, _ = self.values(totals)
        topic_values = [self.values(counts) for counts in per_topic]
        summarized = {summary.count for summary in self.summaries}
        rows: list[tuple[str, float]] = [(name, totals[name]) for name in self.counts if name not in summarized]
        for summary in self.summaries:
            column = [counts[summary.count] for counts in per_topic]
            rows.append((summary.name, summary.how(column) if column else 0))
        for name in self.ratio_names:
            rows.append((f"{name}_micro", micro[name]))
            rows.append((f"{name}_macro", mean([values[name] for values, _ in topic_values])))
        for name in self.ratio_names:
            rows.append((f"{name}_undefined", sum(1 for _, undefined in topic_values if name in undefined)))
        rows.append(("topics", len(per_topic)))
        for name, value in self.params.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                rows.append((f"param_{name}", value))
        rows.extend(extra)
        return rows


def family_rows(family: Family, results: Iterable[TopicCounts]) -> list[Row]:
    """The long table of a family: per run, its topics in the order given, then its ``all`` rows.

    Runs keep the order of their first appearance; a run x topic given twice is a programming error.
    """
    by_run: dict[str, dict[str, Mapping[str, float]]] = {}
    for run_id, request_id, counts in results:
        topics = by_run.setdefault(run_id, {})
        if request_id in topics:
            raise ValueError(f"{family.name}: run {run_id!r} topic {request_id!r} counted twice")
        topics[request_id] = counts
    rows: list[Row] = []
    for run_id, topics in by_run.items():
        for request_id, counts in topics.items():
            rows.extend((run_id, request_id, metric, value) for metric, value in family.topic_rows(counts))
        rows.extend((run_id, ALL_TOPICS, metric, value) for metric, value in family.aggregate_rows(list(topics.values())))
    return rows
