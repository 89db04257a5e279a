"""``longrecall``: LongRecall (Ardestani et al.) of runs, from paths or records: the share of reference facts
(nugget answers or reference-report sentences) that the report entails, found in stages (lexical candidates,
semantic candidates, then the judge), per run and topic.

What ``argue-eval longrecall`` does minus the printing, the LongRecall family's provider on ``api.calc``'s
road (``PROVIDER``): the facts come from ``inputs.facts``, the runs from ``inputs.runs``, the judge, the LLM
tasks and the cache from ``api.measure_judges``; ``measures.longrecall`` does the matching.
"""
from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any

from ..errors import ArgueError, few_items
from ..judges.base import JudgeBackend
from ..measures.longrecall import Settings
from .calc import Provider, Supply, calc_family, keyword_defaults
from .measure_judges import JudgeOptions
from .measure_result import MeasureResult, Note, NoteLog

if TYPE_CHECKING:
    from ..search.devices import Device

__all__ = ["longrecall", "Settings", "PROVIDER"]


def longrecall(
    runs: Any,
    *,
    nuggets: Any = None,
    reference: Any = None,
    fact_unit: str = "question",
    semantic: str = "auto",
    settings: Settings | None = None,
    claims: str = "sentences",
    entailment: str = "auto",
    missing_topics: str = "zero",
    judge: str | JudgeBackend = "lexical",
    judge_options: JudgeOptions | None = None,
    cache: Any = None,
    on_note: Callable[[Note], None] | None = None,
    device: str | None = None,
) -> MeasureResult:
    """LongRecall of ``runs`` (run file paths or ``Report`` records).

    The reference facts come from exactly one of ``nuggets`` (a path or ``TopicNuggets``; one fact per
    question, or per answer with ``fact_unit="answer"``) and ``reference`` (reference reports: one fact per
    sentence). ``semantic``: the embedding stage ``on``, ``off`` or ``auto`` (on when the dense extra is
    installed); ``settings``: the thresholds (``measures.longrecall.Settings``); ``claims="llm"`` matches the
    LLM's atomic claims instead of the sentences; ``entailment``: ``one-to-one``, ``multiple-choice`` (one
    LLM question per fact with several candidates) or ``auto`` (multiple choice when the judge includes
    ``llm``). ``judge``/``judge_options``/``cache`` as for ``api.icat``; ``on_note(Note)`` sees each note;
    ``device``: where the embedding stage's model runs (``search.devices``; default ``auto``).
    """
    if bool(nuggets) == bool(reference):
        raise ArgueError("give the reference facts with exactly one of --nuggets or --reference")
    return calc_family("longrecall", {"fact_unit": fact_unit, "semantic": semantic, "claims": claims,
                                      "entailment": entailment, "missing_topics": missing_topics,
                                      **(asdict(settings) if settings is not None else {})},
                       runs=runs, nuggets=nuggets, judge=judge, judge_options=judge_options, cache=cache,
                       on_note=on_note, reference=reference, device=device)


_PARAMETERS = ("fact_unit", "semantic", "claims", "entailment", "missing_topics")


def _compute(supply: Supply, params: dict[str, Any], metrics: list[str], whole: bool) -> MeasureResult:
    """LongRecall of the supply's runs under ``params`` (``longrecall``'s keywords and the ``Settings``
    thresholds; the others at their defaults). The facts are the ``reference`` option's when given, else the
    nuggets'."""
    from ..inputs.runs import drop_empty_topics, pair_reports, report_sentences, reports_outside, run_ids, topic_order
    from ..measures.longrecall import TopicFacts
    from .measure_judges import check_choice

    given = {**PROVIDER.parameters, **params}
    fact_unit, semantic, claims, entailment, missing_topics = (given[name] for name in _PARAMETERS)
    settings = Settings(**{f.name: given[f.name] for f in fields(Settings)})
    reference = supply.option("reference")
    nuggets = None if reference is not None else supply.nuggets
    judge, judge_options = supply.entailment_judge(), supply.judge_options

    for option, what, value, known in (("--fact-unit", "fact unit", fact_unit, ("question", "answer")),
                                       ("--semantic", "semantic stage", semantic, ("auto", "on", "off")),
                                       ("--claims", "claim source", claims, ("sentences", "llm")),
                                       ("--entailment", "entailment check", entailment,
                                        ("auto", "one-to-one", "multiple-choice")),
                                       ("--missing-topics", "missing-topic policy", missing_topics, ("zero", "skip"))):
        check_choice(option, what, value, known)
    log = NoteLog(supply.on_note)
    facts = _reference_facts(nuggets, reference, fact_unit)
    empty = drop_empty_topics(facts, "a reference fact", "--nuggets" if nuggets else "--reference")
    if empty:
        why = "negative or unanswered nuggets only" if nuggets else "an empty reference report"
        log.note(f"{len(empty)} topic(s) have no reference facts ({why}) and are not evaluated (not averaged in; "
                 f"their reports are not scored): {few_items(empty)}")
    embed = _embedder(semantic, log, supply.option("device"))
    reports = supply.reports()
    topics = topic_order(facts)
    unknown = [topic for topic in reports_outside(reports, facts) if topic not in empty]
    if unknown:
        log.note(f"reports on {len(unknown)} topic(s) without reference facts are left out: "
                 f"{', '.join(unknown[:5])}" + (" ..." if len(unknown) > 5 else ""))
    items = [TopicFacts(run_id, request_id, None if report is None else report_sentences(report), facts[request_id])
             for run_id, request_id, report in pair_reports(reports, topics, missing_topics)]
    if entailment == "auto":
        from ..judges.registry import parse_judge_spec

        named = parse_judge_spec(judge) if isinstance(judge, str) else [getattr(judge, "name", "")]
        entailment = "multiple-choice" if "llm" in named else "one-to-one"
    results, checker, chooser, tasks, judged_on = _match(items, settings, embed, claims, entailment, judge,
                                                         judge_options, supply.cache(), log)
    # how the models ran (device, batch size): the embedding stage's and the judge's; not in any identity or key
    runtime = {**({"embedding": dict(embed.runtime)} if embed is not None else {}), **judged_on}
    from ..measures import TopicCounts, family_rows
    from ..measures.longrecall import family

    rows = family_rows(family(**settings.params(), semantic=int(embed is not None)),
                       (TopicCounts(t.run_id, t.request_id, t.counts) for t in results))
    header = {
        **settings.params(), "semantic": embed is not None, "facts": "nuggets" if nuggets else "reference",
        "fact_unit": fact_unit if nuggets else "sentence", "judge": checker.identity(),
        "generated_facts": claims, "entailment": entailment, "missing_topics": missing_topics,
        **({"llm_tasks": {task: tasks.identity(task) for task, used in (("claims", claims == "llm"),
                                                                          ("choice", chooser is not None)) if used}}
           if tasks is not None else {}),
        **({"runtime": runtime} if runtime else {})}
    _say_unjudged(results, checker, chooser, tasks, log)
    unjudged = sum(t.counts["unjudged_facts"] for t in results)
    counts = {"entailment_questions": checker.calls, "unjudged_facts": unjudged,
              **({"choice_calls": chooser.calls, "choice_failed": chooser.failed} if chooser is not None else {})}
    return MeasureResult("longrecall", rows, header, [t.details() for t in results], run_ids(reports), topics,
                         counts, log.notes, log.unjudged)


def _reference_facts(nuggets: Any, reference: Any, fact_unit: str) -> dict[str, list[Any]]:
    """The reference facts per topic, from exactly one of the nugget bank and the reference reports."""
    from ..inputs.facts import nugget_facts, reference_facts

    if bool(nuggets) == bool(reference):
        raise ArgueError("give the reference facts with exactly one of --nuggets or --reference")
    return nugget_facts(nuggets, fact_unit) if nuggets else reference_facts(reference)


@dataclass(frozen=True)
class _Embedder:
    """The semantic stage's embedding function: ``search.dense.encode`` on one device (a ``measures.longrecall``
    ``Embedder``), and how it runs (``runtime``: the device and the batch size, for the settings header)."""

    device: Device
    runtime: dict[str, Any]

    def __call__(self, texts: list[str]) -> Any:
        from ..search.dense import encode

        return encode(texts, device=self.device)


def _embedder(semantic: str, log: NoteLog, device: str | None = None) -> _Embedder | None:
    """The semantic stage's embedding function (MiniLM on ``device``), or ``None`` when it is off (or ``auto``
    without the dense extra, noted)."""
    from ..errors import MissingDependencyError

    if semantic == "off":
        return None
    try:
        from ..search.dense import load_model, model_device
        from ..search.devices import batch_size

        where = model_device(device)
        load_model(where)
        return _Embedder(where, {"device": where.name, "batch_size": batch_size("embed", where)})
    except MissingDependencyError as error:
        if semantic == "on":
            raise
        log.note(f"semantic stage off (lexical candidates only): {error}")
        return None


def _match(items: list[Any], settings: Settings, embed: Any, claims: str, entailment: str,
           judge: str | JudgeBackend, judge_options: JudgeOptions | None, cache: Any,
           log: NoteLog) -> tuple[list[Any], Any, Any, Any, dict[str, Any]]:
    """Open the cache, the judge and the LLM tasks; split the reports into claims if asked; match the facts.
    Returns the per-topic results, the fact checker, the multiple-choice chooser, the LLM tasks and how the
    judge's models ran (``judge_runtimes``, read before the judge is closed)."""
    from ..measures.entail import JudgeFactChecker
    from ..measures.longrecall import score_topics
    from ..progress import progress_bar
    from .measure_judges import judge_runtimes, llm_claims, open_cache, open_llm_tasks, open_measure_judge

    uses_llm = entailment == "multiple-choice" or claims == "llm"
    chooser = tasks = None
    with ExitStack() as stack:
        judgment_cache = open_cache(cache, stack)
        bar = progress_bar("longrecall: entailment questions", unit="q")
        stack.callback(bar.close)
        backend = open_measure_judge(judge, judge_options, also=("llm",) if uses_llm else ())
        if backend is not judge:
            stack.callback(backend.close)
        checker = JudgeFactChecker(backend, cache=judgment_cache, progress=bar.update)
        if uses_llm:
            tasks = open_llm_tasks(backend, judge_options, judgment_cache, stack,
                                   progress=progress_bar("LLM calls", unit="call").update)
        if entailment == "multiple-choice":
            from ..measures.llm_claims import TaskChooser

            chooser = TaskChooser(tasks)
        if claims == "llm":
            present = [item for item in items if item.sentences is not None]
            units, _ = llm_claims([(item.request_id, item.sentences or ()) for item in present], tasks,
                                  log.not_judged)
            replaced = {id(item): unit for item, unit in zip(present, units)}
            items = [item._replace(sentences=replaced[id(item)]) if id(item) in replaced else item for item in items]
        results = score_topics(items, checker, settings, embed, chooser)
        return results, checker, chooser, tasks, judge_runtimes(backend)


def _say_unjudged(results: list[Any], checker: Any, chooser: Any, tasks: Any, log: NoteLog) -> None:
    """One warning for the failed LLM tasks and one for the facts that could not be judged, with why: the
    judge's failed calls, the multiple-choice questions that failed, or both."""
    from .measure_judges import failure_reason, judge_failures

    if chooser is not None and tasks.failed:
        log.not_judged(f"{tasks.failed} LLM task(s) failed after a re-ask or retries{failure_reason(tasks)}; they "
                       "count as unjudged and are asked again on the next run")
    unjudged, facts = (sum(t.counts[name] for t in results) for name in ("unjudged_facts", "facts"))
    if not unjudged:
        return
    reasons = [reason for reason in (judge_failures(checker.judge), f"{chooser.failed} multiple-choice question(s) "
               "failed" if chooser is not None and chooser.failed else None) if reason]
    why = "; ".join(reasons) or f"the {getattr(checker.judge, 'name', 'judge')} judge gave no answer"
    log.not_judged(f"{unjudged} of {facts} fact(s) could not be judged ({why}): left out of longrecall, not counted "
                   "as uncovered, and asked again on the next run")


PROVIDER = Provider("longrecall", {**keyword_defaults(longrecall, *_PARAMETERS),
                                   **{f.name: f.default for f in fields(Settings)}}, _compute,
                    options=("reference", "device"))
"""The LongRecall family on ``api.calc``'s road: ``longrecall.recall``, ``longrecall.recall(jaccard_threshold=0.4)``."""
