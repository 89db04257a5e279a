"""``judge`` and ``evaluate``: answer the flowchart's open questions with a judge, through the cache, then score.

These assemble the inputs (``argue_eval.inputs``), run the judge runner (``judges.runner``) over the rounds
that ``plan_questions`` lists, and score with the judge's answers under the given judgments. ``manifest``
says what produced a judgments file, and ``write_judgments`` writes both (``api.plan`` is the dry run).
"""
from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from ..argue.api import Evaluation, run_scoring
from ..argue.policies import make_policies
from ..errors import few_items
from ..inputs import Inputs, check_one_report_per_topic, load_inputs
from ..judges.base import JudgeBackend
from ..model import Report, natural_key
from .limits import Limits, find_limits
from .result import Note, NoteLog, Result

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ..argue.policies import PolicyOptions
    from ..judges.cache import JudgmentCache
    from ..judges.runner import JudgeRun

__all__ = ["judge", "JudgeResult", "evaluate", "EvaluateResult", "plan_questions", "score_judged", "manifest",
           "write_judgments", "open_judge"]


def plan_questions(reports: list[Report], evaluation: Evaluation, unknown: str = "stop"):
    """``plan(lookup)`` for the runner: the open questions of ``reports``, as ``Question`` records.

    The plan is for one runner, which answers (or fails) every question of a call before the next: each call
    runs again only the sentences the call before found open (the lookup only gains answers, so a complete
    sentence stays complete), and none after a call whose questions cannot open others."""
    from ..argue.questions import OpenReport, list_questions

    remaining: list[Report] | list[OpenReport] = list(reports)

    def plan(lookup: Any) -> list[Any]:
        nonlocal remaining
        if not remaining:
            return []
        still_open: list[OpenReport] = []
        pending = list_questions(remaining, evaluation, lookup, unknown, show_progress=False,  # type: ignore[arg-type]
                                 open_reports=still_open)
        # a sentence complete once this round is answered stays complete, so later rounds run the sentences
        # still open only; and when no question of this round can open another (OPENING_KINDS), there are none
        remaining = still_open
        return [item.question(evaluation) for item in pending]

    return plan


@dataclass
class JudgeResult:
    """``judge``'s result: the judge's judgments (cached ones included), counts, failures and the inputs."""

    run: JudgeRun
    inputs: Inputs
    reports: list[Report]
    identity: dict[str, Any]
    """The judge's identity (backend, version, model, thresholds): what the cache keys answers by."""
    usage: dict[str, Any] | None = None
    """Model usage (calls, tokens, cost) when the backend reports it (``usage()``), for the manifest."""
    limits: Limits | None = None
    """What the run could not do whatever the judge answered (``api.limits``)."""
    batch: Any = None
    """With ``batch_in``/``batch_out``: the cycle's ``api.batch.BatchSummary`` (results used, problems per line,
    calls written, questions waiting)."""

    @property
    def waiting(self) -> int:
        """Questions whose LLM call waits for a batch answer (not failures: the next cycle answers them)."""
        return self.batch.waiting if self.batch is not None else 0

    @property
    def judgments(self) -> list[Any]:
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
    at most when they are more) instead of sending them (``api.batch``).
    """
    from ..collection import open_collection
    from ..judges.cache import JudgmentCache
    from ..judges.runner import run_judge

    inputs = load_inputs(runs, nuggets, judgments, requests, qrels, make_policies(**policies))
    reports = list(inputs.reports())
    check_one_report_per_topic(reports, inputs.evaluation.topics)
    outside: dict[str, list[str]] = {}
    unjudged = set(inputs.evaluation.unjudged)  # not judged either; the evaluation's notes list them once
    for report in reports:
        if report.request_id not in inputs.evaluation.topics and report.request_id not in unjudged:
            outside.setdefault(report.run_id, []).append(report.request_id)
    for run_id, topics in sorted(outside.items()):  # as score says it, so no report vanishes without a word
        inputs.evaluation.notes.append(f"run {run_id}: {len(topics)} report(s) for topics outside the evaluation "
                                       f"are not judged: {few_items(sorted(topics, key=natural_key))}")
    if requests is None:  # easy to leave out (score does not need it), and it changes what a judge answers
        inputs.evaluation.notes.append("no --requests: the judge sees no request text, so it cannot tell a "
                                       "restatement of the request from a claim that needs a citation; give the "
                                       "requests file (--requests R)")
    limits = find_limits(reports, inputs.evaluation)
    backend = open_judge(judge, judge_options)
    try:
        from .batch import open_exchange

        batch = open_exchange(backend, batch_in, batch_out)
        if batch is None:  # a missing package, or no server at the URL, stops the run before anything is asked
            backend.check_ready()
        elif getattr(backend, "base_urls", True):  # a batch alone needs no HTTP client
            backend.check_installed() if batch[0].collect else backend.check_ready()
        if announce is not None:
            announce(list(inputs.evaluation.notes), limits.warnings())
    except BaseException:
        backend.close()
        raise
    store = open_collection(collection) if isinstance(collection, (str, os.PathLike)) else collection
    own_cache = isinstance(cache, (str, os.PathLike))
    judgment_cache = JudgmentCache(cache) if isinstance(cache, (str, os.PathLike)) else cache
    try:
        run = run_judge(plan_questions(reports, inputs.evaluation), backend, known=inputs.source,
                        documents=store, cache=judgment_cache)
        usage = backend.usage() if hasattr(backend, "usage") else None
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
    finally:
        backend.close()
        if own_cache and judgment_cache is not None:
            judgment_cache.close()
        if store is not None and store is not collection:
            store.close()
    return JudgeResult(run, inputs, reports, backend.identity(), usage, limits, summary)


def manifest(result: JudgeResult, judge_spec: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """What produced a judgments file: the judge, its options and identity, and the counts per kind."""
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
