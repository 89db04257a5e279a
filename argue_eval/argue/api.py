"""ARGUE scoring: reports + prepared nuggets + a judgment lookup -> per-topic measures (pure, deterministic,
never calls a model, never reads a file).

``Evaluation`` is the topic set prepared under the policies; ``run_scoring`` streams reports through the
flowchart and aggregates per run. The Python API that takes paths is ``argue_eval.score`` (``argue_eval.api``).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import ArgueError, InputError, OptionError, few_items, second_report_error
from ..gc_tuning import paused_gc
from ..judges.base import JudgmentLookup
from ..model import ALL_TOPICS, JUDGMENT_KINDS, JudgmentKey, QrelsRow, Report, Request, TopicNuggets, natural_key
from ..progress import progress
from .counting import FAMILY, counts_for, zero_counts
from .flowchart import Asker, Missing, ReportOutcome, evaluate_report
from .policies import Policies
from .topic import PreparedTopic, prepare_topic

__all__ = ["run_scoring", "Scoring", "MissingJudgmentsError", "Evaluation"]

Row = tuple[str, str, str, float]


class MissingJudgmentsError(ArgueError):
    """Scoring needs judgments the sources do not have; ``counts`` says how many of each kind."""

    def __init__(self, counts: Mapping[str, int], hint: str | None = None):
        self.counts = dict(counts)
        total = sum(counts.values())
        by_kind = ", ".join(f"{kind} {counts[kind]}" for kind in JUDGMENT_KINDS if counts.get(kind))
        how = hint or ("write them out for assessors with `argue-eval assess export` (same --run/--nuggets/"
                       "--judgments options, -o pool.jsonl), fill and `argue-eval assess import` them")
        super().__init__(
            f"{total} judgment{'s' if total != 1 else ''} missing ({by_kind}). To produce them, {how}; "
            "or score anyway with --missing-judgments zero (a missing answer counts as no) or skip (reports "
            "lacking judgments are left out)."
        )


@dataclass
class Evaluation:
    """The topic set being scored and each topic prepared under the policies.

    ``topics``/``order`` are the evaluated topics: under ``evaluated_topics=judged`` (the default) those with
    nuggets, intersected with the requests when given; ``unjudged`` lists the requested topics left out for
    having no nuggets (their reports are neither judged nor scored)."""

    policies: Policies
    topics: dict[str, PreparedTopic]
    order: list[str]
    requests: dict[str, Request]
    notes: list[str] = field(default_factory=list)
    unjudged: list[str] = field(default_factory=list)
    """Topics of the requests (else of the nugget bank) without nuggets, not evaluated (natural order)."""

    @classmethod
    def build(
        cls,
        nuggets: Iterable[TopicNuggets],
        policies: Policies,
        requests: Iterable[Request] | None = None,
        qrels: Iterable[QrelsRow] | None = None,
    ) -> Evaluation:
        notes: list[str] = []
        by_topic: dict[str, TopicNuggets] = {}
        for topic in nuggets:
            previous = by_topic.get(topic.request_id)
            if previous is not None:
                where = f" (first at {previous.source})" if previous.source is not None else ""
                raise InputError(str(topic.source or "nuggets"), None, "request_id",
                                 f"nuggets for topic {topic.request_id} given twice{where}")
            by_topic[topic.request_id] = topic
        request_map: dict[str, Request] = {}
        if requests is not None:
            for request in requests:
                request_map[request.request_id] = request
            ids = set(request_map)
            extra = sorted(set(by_topic) - ids, key=natural_key)
            if extra:
                notes.append(f"nuggets for {len(extra)} topic(s) not in the requests are ignored: {few_items(extra)}")
        else:
            ids = set(by_topic)
        relevant: dict[str, set[str]] = {}
        if policies.relevance == "qrels":
            if qrels is None:
                raise OptionError("--qrels", "--relevance qrels needs a qrels file (--qrels)")
            for row in qrels:
                if row.relevance > 0:
                    relevant.setdefault(row.request_id, set()).add(row.doc_id)
        order = sorted(ids, key=natural_key)
        prepared = {tid: prepare_topic(by_topic.get(tid), tid, policies, relevant.get(tid, ())) for tid in order}
        dropped = sum(len(p.dropped) for p in prepared.values())
        if dropped:
            notes.append(
                f"{dropped} nugget question(s) with no answer bound to a document were dropped "
                f"(--unbound-questions negative|keep to count them): "
                + few_items([f"{t}:{n}" for t in order for n in prepared[t].dropped])
            )
        without = [tid for tid in order if not prepared[tid].nuggets]
        unjudged: list[str] = []
        if without and policies.evaluated_topics == "requests":
            notes.append(f"{len(without)} topic(s) have no nuggets (nugget coverage 0, undefined; "
                         f"--evaluated-topics requests): {few_items(without)}")
        elif without:
            if len(without) == len(order):
                raise InputError(
                    "--nuggets", None, None,
                    f"none of the {len(order)} topic(s) to evaluate has a nugget that counts"
                    + (f" ({dropped} question(s) without an answer bound to a document were dropped: "
                       "--unbound-questions keep|negative counts them)" if dropped else "")
                    + (f"; the nuggets are for topics {few_items(sorted(by_topic, key=natural_key), 5)}: are the "
                       "requests from another track?" if requests is not None and by_topic and not set(by_topic) & ids
                       else "")
                    + "; --evaluated-topics requests scores them all the same, with nugget coverage undefined")
            unjudged = without
            order = [tid for tid in order if prepared[tid].nuggets]
            prepared = {tid: prepared[tid] for tid in order}
            notes.append(f"{len(unjudged)} topic(s) have no nuggets and are not evaluated (not averaged in; "
                         f"their reports are neither judged nor scored; --evaluated-topics requests scores them 0): "
                         f"{few_items(unjudged)}")
        return cls(policies, prepared, order, request_map, notes, unjudged)


@dataclass
class Scoring:
    """What ``run_scoring`` produced: the rows of the score table, details and notes for the user."""

    rows: list[Row]
    details: list[dict[str, Any]]
    notes: list[str]
    missing: Counter[str]
    """Distinct missing judgments by kind (answered "no" under ``zero``; reports skipped under ``skip``)."""
    policies: Policies


def run_scoring(
    reports: Iterable[Report],
    evaluation: Evaluation,
    source: JudgmentLookup,
    *,
    details: bool = False,
    missing_hint: str | None = None,
) -> Scoring:
    """Score every report; aggregate per run. Raises ``MissingJudgmentsError`` under ``missing_judgments=error``."""
    with paused_gc():
        return _run_scoring(reports, evaluation, source, details, missing_hint)


def _run_scoring(
    reports: Iterable[Report],
    evaluation: Evaluation,
    source: JudgmentLookup,
    details: bool,
    missing_hint: str | None,
) -> Scoring:
    policies = evaluation.policies
    notes = list(evaluation.notes)
    mode = policies.missing_judgments
    explore = mode in ("error", "skip")
    ask = Asker(source)
    per_run: dict[str, dict[str, dict[str, float]]] = {}
    seen: dict[tuple[str, str], Report] = {}
    reported_by_run: dict[str, set[str]] = {}
    missing_keys: dict[str, set[JudgmentKey]] = {}
    all_missing: dict[JudgmentKey, None] = {}
    skipped: Counter[str] = Counter()
    foreign: dict[str, set[str]] = {}
    detail_records: list[dict[str, Any]] = []
    unjudged = set(evaluation.unjudged)

    for report in progress(reports, "scoring reports", unit="report"):
        topic = evaluation.topics.get(report.request_id)
        if topic is None:
            if report.request_id in unjudged:  # not evaluated, and listed once in the evaluation's notes
                reported_by_run.setdefault(report.run_id, set())
            else:
                foreign.setdefault(report.run_id, set()).add(report.request_id)
            continue
        pair = (report.run_id, report.request_id)
        if pair in seen:
            raise second_report_error(report, seen[pair].source)
        seen[pair] = _light(report)
        reported_by_run.setdefault(report.run_id, set()).add(report.request_id)
        run_missing = missing_keys.setdefault(report.run_id, set())
        sink: list[Missing] = []
        outcome = evaluate_report(report, topic, ask, policies, unknown="both" if explore else "no", details=details,
                                  on_missing=sink.append)
        for item in sink:
            run_missing.add(item.key)
            all_missing[item.key] = None
        if outcome.missing and explore:
            if mode == "skip":
                skipped[report.run_id] += 1
            continue
        counts = counts_for(outcome, topic, report.character_count)
        per_run.setdefault(report.run_id, {})[report.request_id] = counts
        if details:
            detail_records.append(_details(report, outcome, topic, counts, policies))

    if mode == "error" and all_missing:
        by_kind = Counter(key.kind for key in all_missing)
        raise MissingJudgmentsError(by_kind, missing_hint)

    runs = sorted(set(per_run) | set(reported_by_run) | set(foreign), key=natural_key)
    for run_id in runs:
        if run_id in foreign:
            topics = sorted(foreign[run_id], key=natural_key)
            notes.append(f"run {run_id}: {len(topics)} report(s) for topics outside the evaluation are not scored: {few_items(topics)}")
    rows: list[Row] = []
    for run_id in runs:
        scored = per_run.get(run_id, {})
        reported = reported_by_run.get(run_id, set())
        absent = [tid for tid in evaluation.order if tid not in reported]
        if absent:
            action = "score 0" if policies.missing_topics == "zero" else "are left out"
            notes.append(f"run {run_id}: no report for {len(absent)} topic(s), which {action} "
                         f"(--missing-topics): {few_items(absent)}")
        if policies.missing_topics == "zero":
            for tid in absent:
                scored[tid] = zero_counts(evaluation.topics[tid])
        ordered = [tid for tid in evaluation.order if tid in scored]
        for tid in ordered:
            rows.extend((run_id, tid, name, value) for name, value in FAMILY.topic_rows(scored[tid]))
        # after the family's `all` rows, how this run's topics were chosen and judged
        chosen: list[tuple[str, float]] = [("missing_topics", len(absent))]
        if evaluation.unjudged:  # the rule in the table: these topics were requested but are not in `topics`
            chosen.append(("topics_without_nuggets", len(evaluation.unjudged)))
        if mode != "error":
            count = len(missing_keys.get(run_id, ()))
            chosen.append(("missing_judgments", count))
            if count:
                treatment = "counted as no" if mode == "zero" else f"{skipped[run_id]} report(s) left out"
                notes.append(f"run {run_id}: {count} judgment(s) missing, {treatment} (--missing-judgments {mode})")
        if mode == "skip":
            chosen.append(("skipped_reports", skipped[run_id]))
        aggregate = FAMILY.aggregate_rows([scored[tid] for tid in ordered], extra=chosen)
        rows.extend((run_id, ALL_TOPICS, name, value) for name, value in aggregate)
    detail_records.sort(key=lambda d: (natural_key(d["run_id"]), natural_key(d["request_id"])))
    missing = Counter(key.kind for key in all_missing)
    return Scoring(rows, detail_records, notes, missing, policies)


def _light(report: Report) -> Report:
    """A sentence-less copy kept to name duplicates, so scored reports do not stay in memory."""
    return Report(report.run_id, report.request_id, [], source=report.source)


def _details(report: Report, outcome: ReportOutcome, topic: PreparedTopic, counts: Mapping[str, float],
             policies: Policies) -> dict[str, Any]:
    _, undefined = FAMILY.values(counts)
    nuggets = topic.nuggets
    sentences = []
    for sentence in outcome.sentences:
        sentences.append({
            "index": sentence.index,
            "text": sentence.text,
            "outcome": sentence.outcome,
            "citations": [
                {"doc_id": c.doc_id, "outcome": c.outcome, "relevant": c.relevant, "answered": c.answered,
                 "attested": c.attested, "path": [step.to_dict() for step in c.steps or ()]}
                for c in sentence.citations
            ],
            "duplicate_citations": sentence.duplicate_citations,
            "path": [step.to_dict() for step in sentence.steps],
            "matched": [
                {"nugget_id": nuggets[n].nugget_id, "answer": nuggets[n].units[u].text, "via": via}
                for n, u, via in sentence.matches
            ],
        })
    nugget_rows = []
    for scored, found in zip(nuggets, outcome.found):
        complete = bool(found) and (scored.nugget.aggregator != "AND" or all(u in found for u in scored.required))
        nugget_rows.append({
            "nugget_id": scored.nugget_id,
            "question": scored.nugget.question,
            "aggregator": scored.nugget.aggregator,
            "negative": scored.negative,
            "weight": scored.weight,
            "correct": complete,
            "answers_found": [scored.units[u].text for u in sorted(found)],
        })
    measures = dict(FAMILY.topic_rows(counts))
    return {
        "run_id": report.run_id,
        "request_id": report.request_id,
        "policies": policies.describe(),
        "measures": measures,
        "undefined": sorted(undefined),
        "sentences": sentences,
        "nuggets": nugget_rows,
        "dropped_nuggets": list(topic.dropped),
    }
