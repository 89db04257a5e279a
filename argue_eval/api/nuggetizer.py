"""``nuggetizer``: the TREC RAG nuggetizer scores (vital, all, strict, weighted) of runs, from nuggetizer's
assignment files, or from assignments our judges make for report runs.

What ``argue-eval nuggetizer`` does minus the printing, the family's provider on ``api.calc``'s road
(``PROVIDER``; its assignment files are the ``assignments`` option). Judged assignments: a nugget is ``support`` when a
sentence gives it (an answer, or the statement) and a document the sentence cites attests that sentence,
``partial_support`` when it is given but no citation attests it, ``not_support`` when no sentence gives it,
unjudged when the judge could not say.
"""
from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from os import PathLike
from typing import Any

from ..errors import ArgueError
from ..judges.base import JudgeBackend
from .calc import Provider, Supply, calc_family, keyword_defaults
from .measure_judges import JudgeOptions
from .measure_result import MeasureResult, Note, NoteLog

__all__ = ["nuggetizer", "judge_assignments_of_runs", "vital_undefined", "PROVIDER"]


def nuggetizer(
    assignments: Any = None,
    *,
    runs: Any = None,
    nuggets: Any = None,
    collection: Any = None,
    okay_weight: float = 0.5,
    judge: str | JudgeBackend = "lexical",
    judge_options: JudgeOptions | None = None,
    cache: Any = None,
    on_note: Callable[[Note], None] | None = None,
) -> MeasureResult:
    """nuggetizer scores of ``assignments`` (assignment file paths or ``AssignedAnswer`` records), or of
    ``runs`` judged by ``judge`` against ``nuggets`` with the documents of ``collection``.

    A nugget nuggetizer could not grade ("failed") counts in ``unjudged_nuggets`` and is left out of the
    denominators; an okay nugget weighs ``okay_weight`` in ``weighted`` (a vital one 1). Rows are ordered by
    run, then topic in natural order.
    """
    return calc_family("nuggetizer", {"okay_weight": okay_weight}, runs=runs, nuggets=nuggets, collection=collection,
                       judge=judge, judge_options=judge_options, cache=cache, on_note=on_note, assignments=assignments)


def _compute(supply: Supply, params: dict[str, Any], metrics: list[str], whole: bool) -> MeasureResult:
    """nuggetizer scores of the ``assignments`` option's files, else of the supply's runs judged."""
    from ..inputs.assignments import read_assignment_files
    from ..measures import TopicCounts, family_rows
    from ..measures.nuggetizer import counts, details, family
    from ..model import natural_key

    okay_weight = {**PROVIDER.parameters, **params}["okay_weight"]
    assignments, runs, nuggets, collection = supply.option("assignments"), supply.runs, supply.nuggets, supply.collection
    judge, judge_options = supply.entailment_judge(), supply.judge_options
    log = NoteLog(supply.on_note)
    if not assignments and not runs:
        raise ArgueError("give nuggetizer assignment files, or --run (with --nuggets and --collection)")
    if runs and not (nuggets and collection):
        raise ArgueError("--run needs --nuggets and --collection (the judge reads the cited documents)")
    answers = assignments if assignments else judge_assignments_of_runs(runs, nuggets, collection, judge,
                                                                        judge_options, supply.cache())
    results, records = [], []
    labelled = False  # does any nugget carry an importance label?
    for answer in read_assignment_files([answers] if isinstance(answers, (str, PathLike)) else answers):
        labelled = labelled or any(nugget.importance in ("vital", "okay") for nugget in answer.nuggets)
        results.append(TopicCounts(answer.run_id, answer.request_id, counts(answer.nuggets, okay_weight)))
        records.append(details(answer.run_id, answer.request_id, answer.nuggets, okay_weight))
    order = sorted(range(len(results)), key=lambda i: (results[i].run_id, natural_key(results[i].request_id)))
    rows = family_rows(family(okay_weight), [results[i] for i in order])
    settings = {"okay_weight": okay_weight, "partial_credit": 0.5}
    runs_scored = list(dict.fromkeys(results[i].run_id for i in order))
    topics = sorted({r.request_id for r in results}, key=natural_key)
    everywhere, why = vital_undefined(results, labelled)
    if why is not None:
        log.note(why)
    totals = {"answers": len(results), "unjudged_nuggets": sum(r.counts["unjudged_nuggets"] for r in results),
              "vital_undefined_everywhere": everywhere}
    return MeasureResult("nuggetizer", rows, settings, [records[i] for i in order], runs_scored, topics, totals,
                         log.notes)


def vital_undefined(results: list[Any], labelled: bool) -> tuple[bool, str | None]:
    """Whether ``vital`` and ``strict_vital`` are undefined on every answer, and the note that says where and why.

    An answer with no judged vital nugget has no denominator for them: the table says 0 and counts the topic
    in ``vital_undefined``. When that is every answer, the bank has no vital nugget at all (most often no
    importance labels), and the summary says so instead of printing a column of zeros.
    """
    empty = sum(1 for result in results if result.counts["vital_nuggets"] == 0)
    if not empty:
        return False, None
    if empty < len(results):
        return False, (f"vital and strict_vital are undefined on {empty} of {len(results)} answer(s) (no judged "
                       "vital nugget on those topics): 0 there in the score table, counted in vital_undefined")
    why = "no nugget is labelled vital" if labelled else "the nugget bank has no importance labels (vital / okay)"
    return True, (f"vital and strict_vital are undefined for every answer: {why}. The score table has 0 for them, "
                  "with vital_undefined set on every topic; read all, strict_all and weighted (every nugget weighs "
                  "as okay there)")


def judge_assignments_of_runs(runs: Any, nuggets: Any, collection: Any, judge: str | JudgeBackend,
                              judge_options: JudgeOptions | None, cache: Any) -> list[Any]:
    """Assignments judged by our backends, as ``AssignedAnswer`` records: every run on every topic of the
    nugget bank (a topic without a report: every nugget ``not_support``)."""
    from ..collection import open_collection
    from ..inputs.facts import read_nugget_topics
    from ..inputs.runs import pair_reports, read_runs, topic_order
    from ..measures.entail import JudgeEntailer, JudgeFactChecker
    from .measure_judges import open_cache, open_measure_judge

    topics = read_nugget_topics(nuggets)
    reports = read_runs(runs)
    backend = open_measure_judge(judge, judge_options)
    with ExitStack() as stack:
        judgment_cache = open_cache(cache, stack)
        if backend is not judge:
            stack.callback(backend.close)
        store = stack.enter_context(open_collection(collection))
        checker = JudgeFactChecker(backend, cache=judgment_cache)
        entail = JudgeEntailer(backend, cache=judgment_cache)
        return [_judged_answer(run_id, request_id, report, topics[request_id], checker, entail, store)
                for run_id, request_id, report in pair_reports(reports, topic_order(topics))]


def _judged_answer(run_id: str, request_id: str, report: Any, topic: Any, checker: Any, entail: Any,
                   store: Any) -> Any:
    """One run's assignments on one topic: which sentence gives each nugget, and whether its citations attest it."""
    from ..formats.assignments import AssignedAnswer
    from ..measures.longrecall import Fact, Settings, TopicFacts, score_topics
    from ..measures.nuggetizer import judge_assignments

    sentences = [(" ".join(s.text.split()), tuple(s.citations))
                 for s in (report.sentences if report else []) if s.text.strip()]
    items = [(n.question, n.importance, Fact(n.nugget_id, n.question, n.question, tuple(a.text for a in n.answers)))
             for n in topic.nuggets if not n.negative]
    result = score_topics([TopicFacts(run_id, request_id, [t for t, _ in sentences], [fact for _, _, fact in items])],
                          checker, Settings(), None)[0]
    found = {i: (r.by if r.status == "covered" else None) for i, r in enumerate(result.facts) if r.status != "unjudged"}

    def attested(index: int) -> bool | None:
        text, cites = sentences[index]
        docs = [store.lookup(doc_id) for doc_id in cites]
        pairs = [(f"{d.title}. {d.text}" if d.title else d.text, text) for d in docs if d is not None]
        verdicts = entail(pairs) if pairs else []
        if any(verdicts):
            return True
        if any(v is None for v in verdicts) or len(pairs) < len(cites):
            return None  # a verdict or a cited document is missing: not a no
        return False

    return AssignedAnswer(run_id, request_id, judge_assignments(sentences, items, found, attested), "(judged)", 0)


PROVIDER = Provider("nuggetizer", keyword_defaults(nuggetizer, "okay_weight"), _compute, options=("assignments",))
"""The nuggetizer family on ``api.calc``'s road: ``nuggetizer.strict_all``, ``nuggetizer.weighted(okay_weight=0.25)``."""
