"""``judge`` and ``evaluate``: answer the flowchart's open questions with a judge, through the cache, then score.

These assemble the inputs (``argue_eval.inputs``), run the judge runner (``judges.runner``) over the topics
that ``plan_topics`` plans, and score with the judge's answers under the given judgments. ``manifest``
says what produced a judgments file, and ``write_judgments`` writes both (``api.plan`` is the dry run).
"""
from __future__ import annotations

import marshal
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Protocol

from ..argue.api import Evaluation, run_scoring
from ..argue.policies import make_policies
from ..errors import few_items
from ..gc_tuning import paused_gc
from ..inputs import Inputs, load_inputs
from ..judges.base import JudgeBackend
from ..judges.shards import Shard, parse_shard
from ..model import Location, Report, Sentence, natural_key
from .limits import Limits, find_limits
from .result import Note, NoteLog, Result

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ..argue.policies import PolicyOptions
    from ..judges.cache import JudgmentCache
    from ..judges.runner import JudgeRun, Judgments

__all__ = ["judge", "JudgeResult", "evaluate", "EvaluateResult", "plan_topics", "score_judged", "manifest",
           "write_judgments", "open_judge"]


def plan_topics(reports: Iterable[Report], evaluation: Evaluation, shard: Shard | None = None) -> Iterator[Any]:
    """The runner's plan: one ``argue.questions.TopicRounds`` per evaluated topic that has reports, in natural
    order of the topic ids (reports of other topics are not judged). Each topic's reports are handed to its
    plan and no longer held here, so a runner that forgets a topic once judged frees them. ``shard``: only
    that shard's sentences of each report (``judges.shards``)."""
    by_topic: dict[str, list[Report]] = {}
    for report in reports:
        if report.request_id in evaluation.topics:
            by_topic.setdefault(report.request_id, []).append(report)
    del reports  # this generator's frame lives as long as the run: it holds the reports of topics to come only
    return _plans(by_topic, evaluation, shard)


class _TopicReports:
    """The reports of each evaluated topic, read once from the run files and kept on disk until their topic is
    judged: each encoded into an anonymous temporary file as it is read, its place (offset, length) kept per
    topic, and ``pop(topic)`` reads the topic's back, in the order read. A run file holds every topic of its run,
    so the reports of a topic are spread through the round's files; what stays in memory is two numbers a
    report, not the round's reports (``judge``). A report is encoded as plain values with ``marshal`` (what a JSON
    line gives: strings, numbers, lists, dicts; the file is this process's own, never read from elsewhere); one
    whose fields hold anything else stays in memory. The file is gone once closed."""

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile()
        self._places: dict[str, list[tuple[int, int] | Report]] = {}
        self._end = 0

    def add(self, report: Report) -> None:
        try:
            blob = _encode_report(report)
        except ValueError:  # a value marshal does not take (not from a JSON line): kept as it is
            self._places.setdefault(report.request_id, []).append(report)
            return
        self._file.write(blob)
        self._places.setdefault(report.request_id, []).append((self._end, len(blob)))
        self._end += len(blob)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._places))

    def __len__(self) -> int:
        return len(self._places)

    def pop(self, topic_id: str) -> list[Report]:
        self._file.flush()
        fileno = self._file.fileno()
        return [place if isinstance(place, Report) else _decode_report(os.pread(fileno, place[1], place[0]))
                for place in self._places.pop(topic_id)]

    def close(self) -> None:
        self._file.close()


def _encode_report(report: Report) -> bytes:
    """``report`` as bytes ``_decode_report`` reads back: every field (its source too)."""
    source = report.source
    values = (report.run_id, report.request_id,
              [(s.text, s.citations, s.citation_scores, s.extra) for s in report.sentences],
              report.references, report.collection_ids, report.metadata,
              None if source is None else (source.path, source.line))
    return marshal.dumps(values)  # ValueError for a value marshal does not take


def _decode_report(blob: bytes) -> Report:
    run_id, request_id, sentences, references, collection_ids, metadata, source = marshal.loads(blob)
    return Report(run_id, request_id, [Sentence(*values) for values in sentences], references, collection_ids,
                  metadata, None if source is None else Location(*source))


class _ReportsByTopic(Protocol):
    """The reports to judge per topic: ``_TopicReports`` on disk, or a dict of lists (records given)."""

    def __iter__(self) -> Iterator[str]: ...

    def pop(self, topic_id: str, /) -> list[Report]: ...


def _plans(by_topic: _ReportsByTopic, evaluation: Evaluation, shard: Shard | None) -> Iterator[Any]:
    """The topics' plans in natural order, each topic's reports taken out of ``by_topic`` as its plan is made."""
    from ..argue.questions import TopicRounds

    for topic_id in sorted(by_topic, key=natural_key):
        topic_reports = by_topic.pop(topic_id)
        share = [shard.sentences(report) for report in topic_reports] if shard is not None else None
        yield TopicRounds(topic_id, topic_reports, evaluation, share)
        del topic_reports, share


@dataclass
class JudgeResult:
    """``judge``'s result: the judge's judgments (cached ones included), counts, failures and the inputs."""

    run: JudgeRun
    inputs: Inputs
    _reports: list[Report] | None
    """The reports when they were given as records (else ``reports`` reads the run files again)."""
    identity: dict[str, Any]
    """The judge's identity (backend, version, model, thresholds): what the cache keys answers by."""
    usage: dict[str, Any] | None = None
    """Model usage (calls, tokens, cost) when the backend reports it (``usage()``), for the manifest."""
    limits: Limits | None = None
    """What the run could not do whatever the judge answered (``api.limits``)."""
    batch: Any = None
    """With ``batch_in``/``batch_out``: the cycle's ``api.batch.BatchSummary`` (results used, problems per line,
    calls written, questions waiting)."""
    shard: Shard | None = None
    """The share of the questions this run judged (``judge --shard K/N``), or ``None`` for all."""
    runtime: dict[str, Any] = field(default_factory=dict)
    """Per model-backed backend, the device it ran on and its batch size (``JudgeBackend.runtimes``), for the
    manifest: how the answers were computed, not what they are (never in the identity)."""

    def close(self) -> None:
        """Let go of the judgments' temporary file when they are spooled (``keep_table=False``: a
        ``JudgmentSpool``); once closed, ``judgments`` is empty. ``with judge(...) as result:`` closes it."""
        close = getattr(self.run.judgments, "close", None)
        if close is not None:
            close()

    def __enter__(self) -> JudgeResult:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def reports(self) -> Iterable[Report]:
        """The reports judged: read from the run files again (the run did not hold them all), or as given."""
        return self._reports if self._reports is not None else self.inputs.reports()

    @property
    def waiting(self) -> int:
        """Questions whose LLM call waits for a batch answer (not failures: the next cycle answers them)."""
        return self.batch.waiting if self.batch is not None else 0

    @property
    def judgments(self) -> Judgments:
        """The judgments in the order written: a list, or with ``keep_table=False`` a ``JudgmentSpool`` (on disk:
        ``len``, iteration and ``write_judgments`` read it)."""
        return self.run.judgments

    @property
    def failed(self) -> list[Any]:
        """The questions that could not be judged (``judges.runner.Failure``), leaving out those waiting for a batch
        answer (``waiting``)."""
        from ..judges.llm_batch import WAITING

        return [failure for failure in self.run.failures if failure.reason != WAITING]

    def unjudged(self) -> list[str]:
        """What could not be judged, one line per reason with a count per kind (a ``Result``'s ``unjudged``)."""
        from ..judges.runner import failure_summary

        return failure_summary(self.failed)

    def warnings(self) -> list[str]:
        """What the run could not judge, for the user: ``unjudged``, then one line per cause of a model judge's
        failed calls (the manifest lists every call), then the cited documents missing from the collection."""
        return self.unjudged() + self.other_warnings()

    def other_warnings(self) -> list[str]:
        by_reason: dict[str, list[int]] = {}
        for failure in (self.usage or {}).get("failures", ()):
            by_reason.setdefault(str(failure.get("reason")), []).append(int(failure.get("questions", 0)))
        lines = [f"{len(counts)} model call(s) failed ({sum(counts)} question(s)): {reason}"
                 for reason, counts in sorted(by_reason.items(), key=lambda item: (-len(item[1]), item[0]))]
        missing = self.run.stats.missing_documents
        if missing:
            lines.append(f"{len(missing)} cited document(s) not in the collection: {few_items(missing)}")
        return lines


def open_judge(judge_spec: str | JudgeBackend, judge_options: Mapping[str, Any] | None) -> JudgeBackend:
    """The backend ``judge_spec`` names (or is), made with ``judge_options`` (keyword options per backend name;
    ``"profile"``: a judge profile's path, whose options the given ones override: ``inputs.profiles``)."""
    if isinstance(judge_spec, JudgeBackend):
        return judge_spec
    from ..inputs.profiles import apply_profile
    from ..judges.registry import make_judge

    options, profile = apply_profile(judge_spec, judge_options)
    return make_judge(judge_spec, options, profile)


def judge(
    runs: Any,
    nuggets: Any,
    *,
    collection: Any = None,
    judge: str | JudgeBackend = "lexical",
    judge_options: Mapping[str, Mapping[str, Any]] | None = None,
    judgments: Any = None,
    requests: Any = None,
    qrels: Any = None,
    cache: str | os.PathLike[str] | JudgmentCache | None = None,
    announce: Callable[[list[str], list[str]], None] | None = None,
    batch_in: Sequence[str | os.PathLike[str]] = (),
    batch_out: str | os.PathLike[str] | None = None,
    batch_max_calls: int | None = None,
    shard: Shard | str | None = None,
    keep_table: bool = True,
    **policies: Unpack[PolicyOptions],
) -> JudgeResult:
    """Answer every flowchart question the runs need that ``judgments`` do not answer, with a judge.

    ``collection``: a path/spec for ``open_collection`` or an open ``DocumentStore``; ``judge``: a
    backend name (``lexical``, ``semantic``, ``nli``, ``llm``), a comma list for a cascade, or a backend;
    ``judge_options``: keyword options per backend name; ``cache``: a SQLite cache path or object
    (``None``: no cache). Existing ``judgments`` take precedence: the judge only fills the gaps. The other
    keywords are the scoring policies (the fields of ``argue.policies.Policies``, as for ``score``): they decide
    which questions the flowchart asks.
    ``announce(notes, warnings)`` is called once the inputs are read and the judge made, before any
    question is asked: the notes about the inputs, and what the run cannot do (``Limits.warnings``).
    ``batch_in``: OpenAI-batch result files whose answers the LLM judge takes (checked against its calls);
    ``batch_out``: write the LLM calls still needed to this batch file (several of ``batch_max_calls`` lines
    at most when they are more) instead of sending them (``api.batch``). ``shard``: judge only that share of
    each round's questions (``"K/N"`` or a ``judges.shards.Shard``; the shards' caches joined by ``merge_caches``
    give a whole run over them every answer: ``judges.shards``). ``keep_table=False``: the run's
    answers are not kept as a lookup beside the judgments (``run.table`` ends empty), and the judgments are kept on
    disk as each topic's are final (``formats.judgments.JudgmentSpool``; ``write_judgments`` copies them): what
    ``judge`` does, which scores nothing, so its memory does not grow with the round. The result then owns that
    temporary file: ``with judge(...) as result:`` (or ``result.close()``) lets it go; a run that fails or is
    interrupted lets it go before the error propagates.

    The reports are read once and judged topic by topic: from run files, each is kept on disk until its topic is
    judged (``_TopicReports``), so memory holds one topic's reports at a time (and ``reports`` reads the run files
    again for whoever scores them).
    """
    from ..collection import open_collection
    from ..formats.judgments import JudgmentSpool
    from ..judges.cache import JudgmentCache
    from ..judges.runner import run_judge

    if isinstance(shard, str):
        shard = parse_shard(shard)
    # reading allocates a container per sentence and citation beside a growing heap: at the collector's default
    # threshold its passes rescan that heap many times over (scoring reads its reports paused, ``run_scoring``)
    with paused_gc():
        inputs = load_inputs(runs, nuggets, judgments, requests, qrels, make_policies(**policies))
        by_topic, light, kept = _read_reports(inputs)
    outside: dict[str, list[str]] = {}
    unjudged = set(inputs.evaluation.unjudged)  # not judged either; the evaluation's notes list them once
    for report in light:
        if report.request_id not in inputs.evaluation.topics and report.request_id not in unjudged:
            outside.setdefault(report.run_id, []).append(report.request_id)
    for run_id, topics in sorted(outside.items()):  # as score says it, so no report vanishes without a word
        inputs.evaluation.notes.append(f"run {run_id}: {len(topics)} report(s) for topics outside the evaluation "
                                       f"are not judged: {few_items(sorted(topics, key=natural_key))}")
    if requests is None:  # easy to leave out (score does not need it), and it changes what a judge answers
        inputs.evaluation.notes.append("no --requests: the judge sees no request text, so it cannot tell a "
                                       "restatement of the request from a claim that needs a citation; give the "
                                       "requests file (--requests R)")
    limits = find_limits(light, inputs.evaluation)
    backend = open_judge(judge, judge_options)
    try:
        from .batch import open_exchange

        batch = open_exchange(backend, batch_in, batch_out)
        if batch is None:  # a missing package, or no server at the URL, stops the run before anything is asked
            backend.check_ready()
        elif getattr(backend, "base_urls", True):  # a batch alone needs no HTTP client
            backend.check_installed() if batch[0].collect else backend.check_ready()
        if announce is not None:
            from ..judges.cascade import order_warning

            order = order_warning(backend)  # a model-backed member before a model-free one: a costlier run
            announce(list(inputs.evaluation.notes), limits.warnings() + ([order] if order else []))
    except BaseException:
        backend.close()
        raise
    store = open_collection(collection) if isinstance(collection, (str, os.PathLike)) else collection
    own_cache = isinstance(cache, (str, os.PathLike))
    judgment_cache = JudgmentCache(cache) if isinstance(cache, (str, os.PathLike)) else cache
    spooled = by_topic if isinstance(by_topic, _TopicReports) else None
    # a run that keeps no table writes its judgments only: they go to disk as each topic's are final, in a
    # temporary file that the result owns (``JudgeResult.close``) once judging succeeds, and that is let go here
    # when it fails or is interrupted
    spool = None if keep_table else JudgmentSpool()
    try:
        plans = _plans(by_topic, inputs.evaluation, shard)
        del by_topic  # the plans hold each topic's reports until the runner has judged it
        run = run_judge(plans, backend, known=inputs.source, documents=store, cache=judgment_cache,
                        keep_table=keep_table, judgments=spool)
        usage = backend.usage() if hasattr(backend, "usage") else None
        runtime = backend.runtimes()
        summary = None
        if batch is not None:
            from .batch import finish

            exchange, summary = batch
            run.failures = finish(exchange, summary, run.failures, batch_out,
                                  **({"max_calls": batch_max_calls} if batch_max_calls else {}))
            if batch_out is not None:  # written to the batch file, to be answered: not failed
                from ..judges.llm_batch import WAITING

                for failure in run.failures:
                    if failure.reason == WAITING:
                        run.stats.failed[failure.key.kind] -= 1
                        run.stats.waiting[failure.key.kind] += 1
                run.stats.failed = +run.stats.failed  # the kinds left at 0 dropped
    except BaseException:
        if spool is not None:
            spool.close()
        raise
    finally:
        backend.close()
        if spooled is not None:
            spooled.close()
        if own_cache and judgment_cache is not None:
            judgment_cache.close()
        if store is not None and store is not collection:
            store.close()
    return JudgeResult(run, inputs, kept, backend.identity(), usage, limits, summary, shard, runtime)


def _read_reports(inputs: Inputs) -> tuple[_ReportsByTopic, list[Report], list[Report] | None]:
    """The reports of ``inputs`` read once: those of evaluated topics by topic (in the order read; from run
    files on disk, ``_TopicReports``: the round's reports are never all in memory), a light copy of every
    report (ids and source: what the checks, notes and limits read), and every report when they were given as
    records, which cannot be read again (``None`` for run files, which can). A run's second report for an
    evaluated topic is an error once every file is read (a file that cannot be read is named first), before
    anything is judged."""
    from ..inputs import as_paths

    topics = inputs.evaluation.topics
    kept: list[Report] | None = None if as_paths(inputs.runs) is not None else []
    spool = _TopicReports() if kept is None else None
    try:
        return _read_into(inputs, topics, spool, kept)
    except BaseException:
        if spool is not None:
            spool.close()
        raise


def _read_into(inputs: Inputs, topics: Any, spool: _TopicReports | None,
               kept: list[Report] | None) -> tuple[_ReportsByTopic, list[Report], list[Report] | None]:
    from ..errors import InputError, second_report_error

    by_topic: dict[str, list[Report]] = {}
    light: list[Report] = []
    seen: dict[tuple[str, str], Any] = {}
    second: InputError | None = None
    for report in inputs.reports():
        light.append(Report(report.run_id, report.request_id, [], source=report.source))
        if kept is not None:
            kept.append(report)
        if report.request_id not in topics:
            continue
        pair = (report.run_id, report.request_id)
        if pair in seen:
            second = second or second_report_error(report, seen[pair])
            continue
        seen[pair] = report.source
        if spool is not None:
            spool.add(report)
        else:
            by_topic.setdefault(report.request_id, []).append(report)
    if second is not None:
        raise second
    return (spool if spool is not None else by_topic), light, kept


def manifest(result: JudgeResult, judge_spec: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """What produced a judgments file: the judge, its options and identity, the counts per kind, and for a
    model-backed judge how it ran (``runtime``: per backend, the device and batch size; not in the identity)."""
    from .. import __version__

    stats = result.run.stats
    limits = result.limits.as_dict() if result.limits is not None else {}
    return {
        "argue_eval": __version__,
        "judge": judge_spec,
        "judge_options": options,
        "judge_identity": result.identity,
        "policies": result.inputs.evaluation.policies.describe(),
        "judgments": len(result.run.judgments),
        "cached": dict(stats.cached),
        "new": dict(stats.new),
        "failed": dict(stats.failed),
        "rounds": stats.rounds,
        "seconds": round(stats.seconds, 3),
        **({"runtime": result.runtime} if result.runtime else {}),
        "missing_documents": stats.missing_documents,
        "failures": [{"kind": f.key.kind, "request_id": f.key.request_id, "sentence": f.key.sentence,
                      "doc_id": f.key.doc_id, "nugget_id": f.key.nugget_id, "reason": f.reason}
                     for f in result.run.failures],
        **({"usage": result.usage} if result.usage else {}),
        **({"limits": limits} if limits else {}),
        **({"batch": result.batch.as_dict()} if result.batch is not None else {}),
    }


def write_judgments(result: JudgeResult, output: str | os.PathLike[str], judge_spec: str,
                    options: Mapping[str, Any]) -> None:
    """The judge's judgments (canonical JSONL, atomically; ``-`` is stdout, the same bytes) and, for a file,
    its manifest beside it (``OUTPUT.manifest.json``), replaced as one set: a kill leaves both old or both
    new. Inside a caller's ``writing.commit_together`` they join the caller's set."""
    from pathlib import Path

    from ..formats.judgments import write_argue
    from ..writing import commit_together, is_stdout, write_json

    if is_stdout(output):
        write_argue(result.run.judgments, Path(output))
        return
    with commit_together():
        write_argue(result.run.judgments, Path(output))
        write_json(Path(os.fspath(output) + ".manifest.json"), manifest(result, judge_spec, options))


def score_judged(judged: JudgeResult, *, details: bool = True, missing_hint: str | None = None) -> Any:
    """Score the reports a judge run judged (``argue.api.Scoring``): the given judgments are asked first,
    the judge's answers under them, so human or Auto-ARGUE judgments win wherever they answer."""
    from ..judges.runner import LayeredLookup

    lookup = LayeredLookup(judged.inputs.source, judged.run.table)
    return run_scoring(judged.reports, judged.inputs.evaluation, lookup, details=details, missing_hint=missing_hint)


@dataclass
class EvaluateResult(Result):
    """``evaluate``'s result: ``score``'s ``Result`` (the score table, details, notes), and the judge run behind
    it (``judged``: its judgments, counts, failures and usage)."""

    judged: JudgeResult = field(kw_only=True)


def evaluate(
    runs: Any,
    nuggets: Any,
    *,
    details: bool = True,
    missing_hint: str | Callable[[JudgeResult], str] | None = None,
    on_note: Callable[[Note], None] | None = None,
    **keywords: Any,
) -> EvaluateResult:
    """Judge, then score: ``judge(...)`` with the same keywords (the judge's and the policies), then the ARGUE
    measures (the ARGUE family on ``api.calc``'s road, with a judge).

    The scorer sees the imported judgments first and the judge's answers under them, so human or
    Auto-ARGUE judgments win wherever they answer a question. The result's ``notes`` are what ``argue-eval
    evaluate`` prints, in order: what the run cannot do (before anything is asked), what could not be judged
    (also in ``unjudged``), then the scoring's notes; ``on_note`` gets each as it arises. ``missing_hint`` (a text,
    or a function of the judge run giving one) says how to produce missing judgments, as for ``score``.
    """
    from ..argue.policies import POLICY_FIELDS
    from .calc import calc_family

    policies = make_policies(**{name: keywords.pop(name) for name in POLICY_FIELDS if name in keywords})
    unknown = sorted(set(keywords) - _JUDGE_KEYWORDS)
    if unknown:
        raise TypeError(f"evaluate() got an unexpected keyword argument {unknown[0]!r}")
    log = NoteLog(on_note)
    given = keywords.pop("announce", None)

    def announce(notes: list[str], warnings: list[str]) -> None:
        if given is not None:
            given(notes, warnings)
        for warning in warnings:
            log.warn(warning)

    result = calc_family("argue", runs=runs, nuggets=nuggets, policies=policies, details=details,
                         missing_hint=missing_hint, on_note=log.forward, announce=announce,
                         **{"judge": "lexical", **keywords})
    values = {name: getattr(result, name) for name in RESULT_FIELDS}
    return EvaluateResult(**{**values, "notes": log.notes + result.notes}, judged=result.data)


RESULT_FIELDS = tuple(item.name for item in fields(Result))

_JUDGE_KEYWORDS = frozenset({"collection", "judge", "judge_options", "judgments", "requests", "qrels", "cache",
                             "announce", "batch_in", "batch_out", "batch_max_calls"})
"""``judge``'s keywords that ``evaluate`` passes on (``calc``'s inputs, and ARGUE's options)."""
