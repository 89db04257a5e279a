"""The data behind the HTML report: score matrices, leaderboard statistics, and compact per-topic blocks.

Everything here takes records (score rows, details dicts, requests, nuggets, judgments) and a document
lookup, never paths, so ``evaluate`` can hand over what it already holds. The output is plain JSON-able
data: one small ``main`` document (runs, topics, the per-topic values of every measure, the leaderboard
statistics, requests, judges) that the page parses on load, and one ``topic`` block per topic (its reports,
nuggets and cited documents) that the page parses only when a view of that topic is opened. Topic blocks
intern their repeated strings (document ids, nugget ids, answers, judges) in a per-block table so a
100-run round stays small enough to open in a browser in seconds.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from ..errors import OptionError
from ..model import (
    ALL_TOPICS,
    Document,
    Judgment,
    JudgmentKey,
    Request,
    ScoreRecord,
    TopicNuggets,
    make_key,
    natural_key,
    normalize_text,
)
from ..views import OUTCOMES
from .leaderboard import MeasureStats, leaderboard_stats

LABELS: dict[str, str] = {
    "sentence_support": "sentence support",
    "citation_support": "citation support",
    "citation_relevance": "citation relevance",
    "nugget_coverage": "nugget coverage",
    "nugget_coverage_weighted": "nugget coverage (weighted)",
    "f1": "F1",
    "f1_weighted": "F1 (weighted)",
    "argue_precision": "ARGUE precision",
    "icat": "ICAT",
    "icat_fact": "ICAT factuality",
    "icat_coverage": "ICAT coverage",
    "longrecall": "LongRecall",
    "answer_recall": "answer recall",
    "lcs_recall": "LCS recall",
    "vital": "nuggetizer vital",
    "all": "nuggetizer all",
    "strict_vital": "nuggetizer strict vital",
    "strict_all": "nuggetizer strict all",
    "weighted": "nuggetizer weighted",
}
"""Readable names of the measures the kit computes; any other measure is shown by its name (ndcg_cut_10, ...)."""

_NOT_MEASURES = frozenset({  # besides every family's counts (ARGUE's outcome tallies among them)
    "missing_topics", "missing_judgments", "topics", "character_count_max", "character_count_median"})


@lru_cache(maxsize=1)
def _families() -> tuple[frozenset[str], tuple[str, ...]]:
    """Counts (never a leaderboard column) and ratios (in registry order) of every measure family present."""
    from ..measures import available_families, get_family

    counts: set[str] = set()
    ratios: list[str] = []
    for name in available_families():
        family = get_family(name)
        counts.update(family.counts)
        ratios.extend(family.ratio_names)
    return frozenset(counts - set(ratios)), tuple(dict.fromkeys(ratios))


DEFAULT_DOC_CHARS = 4000
"""Cited document text kept per document (the rest is cut and marked), so a big round stays openable."""


@dataclass
class ReportOptions:
    """How the report's statistics are computed (the same defaults as ``argue-eval compare``).

    ``test`` and ``correction`` are ``compare``'s (``None``: the shared defaults of
    ``argue_eval.stats.pairwise.resolve_test``: Tukey HSD over all pairs, randomization with Holm against a
    baseline).
    """

    baseline: str | None = None
    test: str | None = None
    correction: str | None = None
    measure: str = "f1"
    resamples: int = 10_000
    seed: int = 0
    confidence: float = 0.95
    alpha: float = 0.05
    title: str = "ARGUE evaluation report"
    doc_chars: int = DEFAULT_DOC_CHARS
    scores_source: str = "SCORES"
    """How the page names the score tables in the ``compare`` call that gives the same decisions."""


@dataclass
class ReportData:
    """What the HTML page embeds: ``main`` (parsed on load) and one block per topic (parsed on demand)."""

    main: dict[str, Any]
    topics: list[dict[str, Any]]
    notes: list[str] = field(default_factory=list)


def is_measure(metric: str) -> bool:
    """A per-topic effectiveness measure worth a leaderboard column (not a count, flag or outcome tally)."""
    counts, ratios = _families()
    if metric in ratios:
        return True
    return not (metric in _NOT_MEASURES or metric in counts or metric.endswith("_undefined")
                or metric.startswith("param_"))


def _measure_order(metric: str) -> tuple:
    """The kit's measures first (ARGUE, then the other families in registry order), then others by name."""
    known = list(LABELS) + [name for name in _families()[1] if name not in LABELS]
    return (0, known.index(metric), "") if metric in known else (1, 0, metric)


def as_score_records(scores: Iterable[Any]) -> list[ScoreRecord]:
    """Score rows as ``ScoreRecord``: records from ``formats.read_scores``, plain tuples, or a DataFrame."""
    rows: Iterable[Any] = scores
    if hasattr(scores, "itertuples"):  # a DataFrame
        frame: Any = scores
        rows = frame[["run_id", "request_id", "metric", "value"]].itertuples(index=False, name=None)
    out = []
    for k, row in enumerate(rows):
        if isinstance(row, ScoreRecord):
            out.append(row)
        else:
            run_id, request_id, metric, value = row[:4]
            out.append(ScoreRecord(str(run_id), str(request_id), str(metric), float(value), "<scores>", k + 1))
    return out


def _short(value: float | None) -> float | None:
    """Six significant digits: plenty for a heatmap and a table of three decimals, and a third of the bytes."""
    if value is None or not math.isfinite(value):
        return None
    return float(f"{value:.6g}")


class _Strings(dict):
    """A per-block string table: each distinct string once, referenced by position (``table[text]``)."""

    def __missing__(self, text: str) -> int:
        position = self[text] = len(self)
        return position

    def __call__(self, text: str | None) -> int | None:
        return None if text is None else self[text]

    @property
    def values_list(self) -> list[str]:
        return list(self)  # dicts keep insertion order, which is the position order


def _bool(value: Any) -> int | None:
    return None if value is None else int(bool(value))


class _Extras:
    """Rationale and confidence of judgments, found by the key a flowchart step names.

    A sentence is normalized once, not once per question about it: a long sentence has a question per cited
    document and per nugget answer, and normalizing it for each (``Judgment.key``, or per flowchart step) made
    the report cost its length times its questions (issue 35, item 7). The keys are ``Judgment.key``'s.
    """

    def __init__(self, judgments: Iterable[Judgment]):
        self.by_key: dict[JudgmentKey, tuple[str | None, float | None]] = {}
        self.provenance: dict[str, dict[str, Any]] = {}
        normalized: dict[str, str] = {}  # the judgments of one sentence are many: each text normalized once
        for judgment in judgments:
            if judgment.rationale is not None or judgment.confidence is not None:
                sentence = normalized.get(judgment.sentence)
                if sentence is None:
                    sentence = normalized[judgment.sentence] = normalize_text(judgment.sentence)
                key = make_key(judgment.kind, judgment.request_id, sentence, judgment.doc_id, judgment.nugget_id,
                               judgment.answer, judgment.run_id, judgment.sentence_index)
                self.by_key[key] = (judgment.rationale, judgment.confidence)
            if judgment.provenance and judgment.judge not in self.provenance:
                self.provenance[judgment.judge] = dict(judgment.provenance)

    def find(self, step: Mapping[str, Any], request_id: str, normalized_sentence: str, run_id: str,
             index: int) -> tuple[str | None, float | None]:
        """The rationale and confidence of the judgment ``step`` names; the sentence comes normalized."""
        kind = step.get("question")
        if not self.by_key or kind is None:
            return None, None
        answer = step.get("answer")
        key = make_key(kind, request_id, normalized_sentence, step.get("doc_id"), step.get("nugget_id"), answer,
                       run_id, index)
        return self.by_key.get(key, (None, None))


def build_report_data(
    scores: Iterable[Any],
    details: Iterable[Mapping[str, Any]] = (),
    requests: Iterable[Request] = (),
    nuggets: Iterable[TopicNuggets] = (),
    judgments: Iterable[Judgment] = (),
    documents: Callable[[str], Document | None] | None = None,
    options: ReportOptions | None = None,
    run_ids: Iterable[str] | None = None,
    people: Mapping[str, Any] | None = None,
    flags: Mapping[str, Sequence[Sequence[str]]] | None = None,
    figures: Sequence[Mapping[str, Any]] | None = None,
) -> ReportData:
    """Everything the report shows, from score rows (required) and, when given, the rest.

    ``details`` are ``score --details`` records (one per report); ``documents`` looks a cited document up
    (``None`` when it is not in the collection); ``run_ids`` limits the report to these runs. A measure is
    selectable when the score rows hold it per topic; its statistics (BCa interval of the mean, and
    significance against ``options.baseline`` or letter groups over all pairs) come from ``argue_eval.stats``,
    decided by the same function as ``argue-eval compare``'s. ``people`` is the "judges against people" view's
    data (``api.agree_judgments(...).report_section()``), embedded as given; without it the page has no such view.
    ``flags``: per run its circularity flags (``(flag, field, evidence)``, ``organizer.circularity``), marked in
    the leaderboard; ``figures``: the Figures view's entries (``figure_set.figure_entries``).
    """
    from ..errors import ArgueError
    from ..stats.matrix import records_to_matrix
    from ..stats.pairwise import describe, resolve_test

    options = options or ReportOptions()
    test, correction = resolve_test(options.test, options.correction, options.baseline is not None)
    records = as_score_records(scores)
    keep = set(run_ids) if run_ids is not None else None
    if keep is not None:
        records = [record for record in records if record.run_id in keep]
    per_topic = sorted({r.metric for r in records if r.request_id != ALL_TOPICS and is_measure(r.metric)},
                       key=_measure_order)
    if not per_topic:
        raise ArgueError("the score rows hold no per-topic measure to report (expected e.g. f1, sentence_support)")
    default = options.measure if options.measure in per_topic else per_topic[0]
    if options.measure not in per_topic and options.measure != "f1":
        raise OptionError("--measure", f"{options.measure!r} is not in the score table; measures: {', '.join(per_topic)}")
    notes: list[str] = []
    matrices = {metric: records_to_matrix(records, metric, "zero", "the score table") for metric in per_topic}
    runs = sorted({run for matrix in matrices.values() for run in matrix.runs}, key=natural_key)
    topics = sorted({topic for matrix in matrices.values() for topic in matrix.topics}, key=natural_key)
    if options.baseline is not None and options.baseline not in runs:
        raise OptionError("--baseline", f"{options.baseline!r} is not among the runs: {', '.join(runs)}")
    values: dict[str, list[list[float | None]]] = {}
    stats: dict[str, dict[str, Any]] = {}
    measure_notes: dict[str, list[str]] = {}
    for metric, matrix in matrices.items():
        absent = [run for run in runs if run not in matrix.runs]
        if absent:
            notes.append(f"{metric}: no value for {', '.join(absent[:10])}{' ...' if len(absent) > 10 else ''} "
                         "(ranked last, shown as n/a)")
    if options.baseline is not None and any(options.baseline not in m.runs for m in matrices.values()):
        raise OptionError("--baseline", f"{options.baseline!r} lacks some measures; choose a run scored on every one")
    ranges = _shared_ranges(matrices, options) if test == "tukey" else {}
    for metric, matrix in matrices.items():
        grid = matrix.values.reindex(index=runs, columns=topics).to_numpy(dtype=float)
        filled = matrix.filled.reindex(index=runs, columns=topics, fill_value=True).to_numpy(dtype=bool)
        values[metric] = [[None if filled[i, j] or np.isnan(grid[i, j]) else _short(float(grid[i, j]))
                           for j in range(len(topics))] for i in range(len(runs))]
        result: MeasureStats = leaderboard_stats(matrix, options.baseline, options.resamples, options.seed,
                                                 options.confidence, options.alpha, ranges.get(metric), test,
                                                 correction)
        stats[metric] = result.to_json(runs)
        for note in result.notes:
            measure_notes.setdefault(note, []).append(metric)
    for note, metrics in measure_notes.items():
        which = "every measure" if len(metrics) == len(per_topic) > 1 else ", ".join(metrics)
        notes.append(f"{which}: {note}")

    aggregates: dict[str, dict[str, float | None]] = {}
    for record in records:
        if record.request_id == ALL_TOPICS and not math.isnan(record.value):
            aggregates.setdefault(record.run_id, {})[record.metric] = _short(record.value)

    request_map = {request.request_id: request for request in requests}
    nugget_map = {topic.request_id: topic for topic in nuggets}
    extras = _Extras(judgments)
    builder = _TopicBlocks(topics, runs, nugget_map, extras, documents, options.doc_chars)
    for detail in details:
        if keep is not None and detail.get("run_id") not in keep:
            continue
        builder.add(detail)
    notes.extend(builder.notes)

    unique_notes = list(dict.fromkeys(notes))
    main: dict[str, Any] = {
        "title": options.title,
        "runs": runs,
        "topics": topics,
        "measures": [{"name": metric, "label": LABELS.get(metric, metric)} for metric in per_topic],
        "measure": default,
        "values": values,
        "stats": stats,
        "aggregates": {run: aggregates.get(run, {}) for run in runs},
        "settings": {
            "baseline": options.baseline,
            "test": test,
            "correction": correction,
            "significance": describe(test, correction),
            "scores": options.scores_source,
            "runs_chosen": keep is not None,
            "resamples": options.resamples,
            "seed": options.seed,
            "confidence": options.confidence,
            "alpha": options.alpha,
            "missing": "zero",
        },
        "requests": {
            topic: {"title": request_map[topic].title, "background": request_map[topic].background,
                    "problem": request_map[topic].problem_statement, "limit": request_map[topic].limit,
                    "unit": request_map[topic].limit_unit}
            for topic in topics if topic in request_map
        },
        "outcomes": {str(k): {"sign": sign, "text": text} for k, (sign, text) in OUTCOMES.items()},
        "judges": builder.judges(extras.provenance),
        "policies": builder.policies,
        "reported": builder.reported(),
        "documents": documents is not None,
        "notes": unique_notes,
    }
    if people is not None:
        main["people"] = dict(people)
    if flags:
        shown = {run: [list(flag) for flag in flags[run]] for run in runs if flags.get(run)}
        if shown:
            main["flags"] = shown
    if figures:
        main["figures"] = [dict(entry) for entry in figures]
    return ReportData(main, builder.blocks(), unique_notes)


def _shared_ranges(matrices: Mapping[str, Any], options: ReportOptions) -> dict[str, np.ndarray]:
    """Tukey HSD null distributions of every measure whose matrix has the same runs and topics, drawn at once."""
    from ..stats.matrix import to_array
    from ..stats.significance import tukey_ranges_many

    groups: dict[tuple, list[str]] = {}
    for metric, matrix in matrices.items():
        if len(matrix.runs) >= 2 and len(matrix.topics) >= 2:
            groups.setdefault((tuple(matrix.runs), tuple(matrix.topics)), []).append(metric)
    out: dict[str, np.ndarray] = {}
    for metrics in groups.values():
        drawn = tukey_ranges_many([to_array(matrices[m]) for m in metrics], options.resamples, options.seed)
        out.update(zip(metrics, drawn))
    return out


class _TopicBlocks:
    """Builds the per-topic blocks from details records, one report at a time.

    A report is ``[sentences, nuggets found, dropped nugget ids, counts]``: each sentence ``[text, outcome,
    citations, steps, matched answers, duplicate citations]``, each nugget ``[id, correct, answers found]``,
    and counts ``[sentences, citations, correct nuggets, nuggets]`` as the scorer counted them (``None`` when
    the details record has no measures); strings are positions in the block's ``strings``.
    """

    def __init__(self, topics: list[str], runs: list[str], nuggets: Mapping[str, TopicNuggets], extras: _Extras,
                 documents: Callable[[str], Document | None] | None, doc_chars: int):
        self.topics = topics
        self.position = {topic: k for k, topic in enumerate(topics)}
        self.runs = runs
        self.run_position = {run: k for k, run in enumerate(runs)}
        self.nuggets = nuggets
        self.extras = extras
        self.documents = documents
        self.doc_chars = doc_chars
        self.strings = [_Strings() for _ in topics]
        self.reports: list[dict[str, list]] = [{} for _ in topics]
        self.nugget_rows: list[dict[str, dict[str, Any]]] = [{} for _ in topics]
        self.cited: list[dict[str, None]] = [{} for _ in topics]
        self.judge_counts: Counter[str] = Counter()
        self.policies: str | None = None
        self.notes: list[str] = []
        self._outside: Counter[str] = Counter()

    def add(self, record: Mapping[str, Any]) -> None:
        run_id, request_id = str(record.get("run_id")), str(record.get("request_id"))
        k = self.position.get(request_id)
        if k is None or run_id not in self.run_position:
            self._outside[f"{run_id}/{request_id}"] += 1
            return
        self.policies = self.policies or record.get("policies")
        s = self.strings[k]
        sentences: list[list[Any]] = []
        for sentence in record.get("sentences", ()):
            text = sentence.get("text", "")
            index = int(sentence.get("index", len(sentences)))
            # keyed once per sentence, for every step of its path and of its citations' paths
            keyed = normalize_text(text) if self.extras.by_key else text
            citations = []
            for citation in sentence.get("citations", ()):
                doc = str(citation.get("doc_id"))
                self.cited[k].setdefault(doc, None)
                citations.append([s(doc), citation.get("outcome"), _bool(citation.get("relevant")),
                                  _bool(citation.get("attested")), _bool(citation.get("answered")),
                                  self._steps(citation.get("path", ()), s, request_id, keyed, run_id, index)])
            matched = [[s(m.get("nugget_id")), s(m.get("answer")), s(m.get("via"))] for m in sentence.get("matched", ())]
            sentences.append([text, sentence.get("outcome"), citations,
                              self._steps(sentence.get("path", ()), s, request_id, keyed, run_id, index), matched,
                              int(sentence.get("duplicate_citations", 0))])
        found = []
        for row in record.get("nuggets", ()):
            nugget_id = str(row.get("nugget_id"))
            self.nugget_rows[k].setdefault(nugget_id, {
                "question": row.get("question"), "aggregator": row.get("aggregator"),
                "negative": bool(row.get("negative")), "weight": row.get("weight")})
            found.append([s(nugget_id), _bool(row.get("correct")), [s(a) for a in row.get("answers_found", ())]])
        measures = record.get("measures") or {}
        counts = [measures.get(name) for name in ("sentences", "citations", "correct_nuggets", "nuggets")]
        self.reports[k][run_id] = [sentences, found, list(record.get("dropped_nuggets", ())),
                                   counts if None not in counts else None]

    def _steps(self, path: Iterable[Mapping[str, Any]], s: _Strings, request_id: str, normalized_sentence: str,
               run_id: str, index: int) -> list[list]:
        out = []
        counts = self.judge_counts
        extras = self.extras if self.extras.by_key else None
        for step in path:
            get = step.get
            judge, doc, nugget, answer, value = get("judge"), get("doc_id"), get("nugget_id"), get("answer"), get("value")
            item = [s[str(get("question"))], None if value is None else int(bool(value)),
                    None if judge is None else s[judge], None if doc is None else s[doc],
                    None if nugget is None else s[nugget], None if answer is None else s[answer]]
            if judge is not None:
                counts[judge] += 1
            if extras is not None:
                rationale, confidence = extras.find(step, request_id, normalized_sentence, run_id, index)
                if rationale is not None or confidence is not None:
                    item += [s(rationale), confidence]
            out.append(item)
        return out

    def reported(self) -> dict[str, list[str]]:
        """Per topic, the runs whose report details are in the page (a heatmap cell without one has no link)."""
        return {topic: sorted(self.reports[k], key=natural_key) for k, topic in enumerate(self.topics) if self.reports[k]}

    def judges(self, provenance: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
        return [{"name": name, "steps": count, "provenance": dict(provenance.get(name) or {})}
                for name, count in sorted(self.judge_counts.items(), key=lambda item: (-item[1], item[0]))]

    def _nuggets(self, k: int) -> list[dict[str, Any]]:
        """The topic's nuggets: from the nugget file when given (answers and documents), else from the details."""
        topic = self.nuggets.get(self.topics[k])
        seen = self.nugget_rows[k]
        out = []
        if topic is not None:
            for nugget in topic.nuggets:
                row = seen.get(nugget.nugget_id, {})
                out.append({"id": nugget.nugget_id, "question": nugget.question, "importance": nugget.importance,
                            "aggregator": nugget.aggregator, "negative": nugget.negative,
                            "weight": row.get("weight"), "scored": nugget.nugget_id in seen,
                            "answers": [[answer.text, list(answer.doc_ids)] for answer in nugget.answers]})
            known = {nugget.nugget_id for nugget in topic.nuggets}
        else:
            known = set()
        for nugget_id, row in seen.items():
            if nugget_id not in known:
                out.append({"id": nugget_id, "question": row["question"], "importance": None,
                            "aggregator": row["aggregator"], "negative": row["negative"], "weight": row["weight"],
                            "scored": True, "answers": []})
        return out

    def blocks(self) -> list[dict[str, Any]]:
        if self._outside:
            shown = ", ".join(sorted(self._outside, key=natural_key)[:10])
            self.notes.append(f"{sum(self._outside.values())} details record(s) name a run or topic that is not in "
                              f"the score table and are left out: {shown}")
        missing_docs: list[str] = []
        out = []
        for k, topic in enumerate(self.topics):
            s = self.strings[k]
            docs: dict[str, list] = {}
            if self.documents is not None:
                for doc_id in self.cited[k]:
                    document = self.documents(doc_id)
                    if document is None:
                        missing_docs.append(doc_id)
                        continue
                    text = document.text
                    cut = len(text) > self.doc_chars
                    docs[doc_id] = [document.title, text[: self.doc_chars], int(cut)]
            reports = {run: self.reports[k][run] for run in sorted(self.reports[k], key=natural_key)}
            # the string table is filled while the reports are added; nugget ids are added here for lookups
            nuggets = self._nuggets(k)
            for nugget in nuggets:
                s(nugget["id"])
            out.append({"topic": topic, "strings": s.values_list, "reports": reports, "nuggets": nuggets, "docs": docs})
        if missing_docs:
            unique = sorted(set(missing_docs), key=natural_key)
            self.notes.append(f"{len(unique)} cited document(s) are not in the collection: "
                              + ", ".join(unique[:10]) + (" ..." if len(unique) > 10 else ""))
        return out
