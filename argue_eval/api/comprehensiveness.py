"""``comprehensiveness``: the comprehensiveness of Dejl et al. for runs, from paths or records: the context
statements (nugget answers, or a context file) a report reaches through entailments, per run and topic.

Two variants: the NLI graph (a judge decides each candidate entailment pair; ``measures.comprehensiveness``
condenses and solves the graph) and the end-to-end one (``e2e=True``: one LLM call per report labels every
context statement covered or not). What ``argue-eval comprehensiveness`` does minus the printing, the family's
provider on ``api.calc``'s road (``PROVIDER``).
"""
from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from ..errors import ArgueError, few_items
from ..judges.base import JudgeBackend
from .calc import Provider, Supply, calc_family, keyword_defaults
from .measure_judges import JudgeOptions
from .measure_result import MeasureResult, Note, NoteLog

__all__ = ["comprehensiveness", "PROVIDER"]


def comprehensiveness(
    runs: Any,
    *,
    nuggets: Any = None,
    context: Any = None,
    min_overlap: float = 0.1,
    claims: str = "sentences",
    e2e: bool = False,
    missing_topics: str = "zero",
    judge: str | JudgeBackend = "lexical",
    judge_options: JudgeOptions | None = None,
    cache: Any = None,
    on_note: Callable[[Note], None] | None = None,
) -> MeasureResult:
    """Comprehensiveness of ``runs`` (run file paths or ``Report`` records).

    The context atoms come from exactly one of ``nuggets`` (a path or ``TopicNuggets``: each answer with its
    question) and ``context`` (a JSONL file of ``{request_id, statements}`` or ``{request_id, texts}``).
    ``min_overlap``: pairs sharing fewer words (fuzzy token Jaccard) are not asked; ``claims="llm"``: the
    report's atoms are the LLM's claims; ``e2e``: the end-to-end variant (the ``llm`` options of
    ``judge_options``). ``judge``/``judge_options``/``cache`` as for ``api.icat``; ``on_note(Note)`` sees
    each note. A report the end-to-end LLM could not judge is left out of the table and listed in
    ``counts["failed"]``, never scored 0.
    """
    if bool(nuggets) == bool(context):
        raise ArgueError("give the context with exactly one of --nuggets or --context")
    return calc_family("comprehensiveness", {"min_overlap": min_overlap, "claims": claims, "e2e": e2e,
                                             "missing_topics": missing_topics},
                       runs=runs, nuggets=nuggets, judge=judge, judge_options=judge_options, cache=cache,
                       on_note=on_note, context=context)


_PARAMETERS = ("min_overlap", "claims", "e2e", "missing_topics")


def _compute(supply: Supply, params: dict[str, Any], metrics: list[str], whole: bool) -> MeasureResult:
    """Comprehensiveness of the supply's runs under ``params`` (``comprehensiveness``'s keywords); the context
    is the ``context`` option's when given, else the nuggets'."""
    from ..inputs.runs import drop_empty_topics, pair_reports, run_ids, topic_order
    from .measure_judges import check_choice

    min_overlap, claims, e2e, missing_topics = ({**PROVIDER.parameters, **params}[name] for name in _PARAMETERS)
    context = supply.option("context")
    nuggets = None if context is not None else supply.nuggets
    judge, judge_options = supply.entailment_judge(), supply.judge_options
    check_choice("--claims", "response atom source", claims, ("sentences", "llm"))
    check_choice("--missing-topics", "missing-topic policy", missing_topics, ("zero", "skip"))
    log = NoteLog(supply.on_note)
    if not nuggets and not context:
        raise ArgueError("give the context with exactly one of --nuggets or --context")
    if e2e and claims == "llm":
        raise ArgueError("--claims llm: the end-to-end variant reads the whole report, not atoms; drop one of "
                         "--claims llm and --e2e")
    from ..inputs.facts import context_atoms, nugget_atoms

    atoms = nugget_atoms(nuggets) if nuggets else context_atoms(context)
    empty = drop_empty_topics(atoms, "a context statement", "--nuggets" if nuggets else "--context")
    if empty:
        log.note(f"{len(empty)} topic(s) have no context statements and are not evaluated (not averaged in; "
                 f"their reports are not scored): {few_items(empty)}")
    reports = supply.reports()
    topics = topic_order(atoms)
    pairs = pair_reports(reports, topics, missing_topics)
    source = "nuggets" if nuggets else "context"
    with ExitStack() as stack:
        judgment_cache = supply.cache()
        if e2e:
            rows, settings, records, counts = _end_to_end(pairs, atoms, missing_topics, judge, judge_options,
                                                          judgment_cache, source, log, stack)
        else:
            rows, settings, records, counts = _graph(pairs, atoms, min_overlap, claims, missing_topics, judge,
                                                     judge_options, judgment_cache, source, log, stack)
    return MeasureResult("comprehensiveness", rows, settings, records, run_ids(reports), topics, counts, log.notes,
                         log.unjudged)


def _graph(pairs: list[Any], atoms: dict[str, list[Any]], min_overlap: float, claims: str, missing_topics: str,
           judge: str | JudgeBackend, judge_options: JudgeOptions | None, cache: Any, source: str, log: NoteLog,
           stack: ExitStack) -> tuple[list[Any], dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """The NLI-graph variant: each report's atoms against its topic's context atoms, entailment by the judge."""
    from ..inputs.runs import report_sentences
    from ..measures import TopicCounts, family_rows
    from ..measures.comprehensiveness import family, score_topic
    from ..measures.entail import JudgeFactChecker
    from ..progress import progress_bar
    from .measure_judges import llm_claims, open_llm_tasks, open_measure_judge

    bar = progress_bar("comprehensiveness: entailment questions", unit="q")
    stack.callback(bar.close)
    backend = open_measure_judge(judge, judge_options, also=("llm",) if claims == "llm" else ())
    if backend is not judge:
        stack.callback(backend.close)
    checker = JudgeFactChecker(backend, cache=cache, progress=bar.update)
    units = [[] if report is None else report_sentences(report) for _, _, report in pairs]
    tasks = None
    if claims == "llm":
        tasks = open_llm_tasks(backend, judge_options, cache, stack,
                               progress=progress_bar("LLM calls", unit="call").update)
        units, _ = llm_claims([(request_id, sentences) for (_, request_id, _), sentences in zip(pairs, units)],
                              tasks, log.not_judged)
    results, records = [], []
    for (run_id, request_id, report), sentences in zip(pairs, units):
        counts, detail = score_topic(sentences, atoms[request_id], checker, min_overlap)
        results.append(TopicCounts(run_id, request_id, counts))
        records.append({"measure": "comprehensiveness", "run_id": run_id, "request_id": request_id,
                        **({"missing_report": True} if report is None else {}), "counts": counts, **detail})
    settings = {
        "min_overlap": min_overlap, "context": source, "judge": checker.identity(),
        "variant": "nli-graph", "response_atoms": claims, "missing_topics": missing_topics,
        **({"llm_tasks": {"claims": tasks.identity("claims")}} if tasks is not None else {})}
    totals = {name: sum(r.counts[name] for r in results)
              for name in ("pairs_judged", "pairs_all", "pairs_unjudged", "unjudged_clusters")}
    if totals["pairs_unjudged"]:
        from .measure_judges import why_unanswered

        log.not_judged(f"{totals['pairs_unjudged']} of {totals['pairs_judged']} entailment pair(s) could not be judged "
                       f"({why_unanswered(checker.judge)}): {totals['unjudged_clusters']} context cluster(s) whose "
                       "coverage depends on them are left out of comprehensiveness, not counted as uncovered; asked "
                       "again on the next run")
    totals["entailment_questions"] = checker.calls
    return family_rows(family(min_overlap=min_overlap), results), settings, records, totals


def _end_to_end(pairs: list[Any], atoms: dict[str, list[Any]], missing_topics: str, judge: str | JudgeBackend,
                judge_options: JudgeOptions | None, cache: Any, source: str, log: NoteLog,
                stack: ExitStack) -> tuple[list[Any], dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """``e2e``: one coverage task per report; a report the LLM could not judge is listed, never scored 0."""
    from ..inputs.runs import report_sentences
    from ..measures import TopicCounts, family_rows
    from ..measures.comprehensiveness import family, score_topics_e2e
    from ..progress import progress_bar
    from .measure_judges import open_llm_tasks, open_measure_judge

    reports = [(request_id, [] if report is None else report_sentences(report), atoms[request_id])
               for _, request_id, report in pairs]
    backend = open_measure_judge(judge, judge_options, also=("llm",))
    if backend is not judge:
        stack.callback(backend.close)
    tasks = open_llm_tasks(backend, judge_options, cache, stack, progress=progress_bar("LLM calls", unit="call").update)
    scored = score_topics_e2e(reports, tasks)
    results, records, failed = [], [], []
    for (run_id, request_id, report), outcome in zip(pairs, scored):
        head = {"measure": "comprehensiveness", "run_id": run_id, "request_id": request_id,
                **({"missing_report": True} if report is None else {})}
        if outcome is None:
            failed.append(f"{run_id}/{request_id}")
            records.append({**head, "status": "failed",
                            "reason": "the LLM could not judge this report (asked again on the next run)"})
            continue
        counts, detail = outcome
        results.append(TopicCounts(run_id, request_id, counts))
        records.append({**head, "counts": counts, **detail})
    settings = {"context": source, "variant": "e2e", "llm_task": tasks.identity("coverage"),
                "missing_topics": missing_topics, **({"failed": failed} if failed else {})}
    if failed:
        log.not_judged(f"the LLM could not judge {len(failed)} report(s), left out of the table and asked again on "
                       f"the next run: {', '.join(failed[:5])}" + (" ..." if len(failed) > 5 else ""))
    return (family_rows(family(), results), settings, records,
            {"llm_calls": tasks.calls, "llm_failed": tasks.failed, "failed": failed})


PROVIDER = Provider("comprehensiveness", keyword_defaults(comprehensiveness, *_PARAMETERS), _compute,
                    options=("context",))
"""The comprehensiveness family on ``api.calc``'s road: ``comprehensiveness.comprehensiveness(e2e=true)``."""
