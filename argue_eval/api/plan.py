"""``plan``: what ``judge`` would do, without judging (``judge --dry-run``): questions, model calls, limits.

The plan replays the judge runner's own rounds (``judges.runner.run_judge`` with ``ask=False``): the same
question lists, the same documents attached, the same cache lookup under the texts the judge reads, with no
judge call and nothing written. What the cache answers settles the branches it decides, as in a real run;
what it cannot answer in a round is *certain* to be asked (with no cache there is nothing to replay: the
certain questions are the first round's, read off the listing below). Then the flowchart is listed once more with both
branches of every open answer followed (*at most*), and a model judge prices the questions left
(``plan_calls``, ``estimate``: no network call, no key). Before the counts, the plan says what no judge can
do with these inputs (``api.limits``).
"""
from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..argue.policies import make_policies
from ..argue.questions import count_by_kind, list_questions
from ..gc_tuning import paused_gc
from ..inputs import check_one_report_per_topic, load_inputs
from ..judges.asking import CachedJudge, documents_needed
from ..judges.base import JudgeBackend
from ..judges.cache import JudgmentCache
from ..judges.runner import LayeredLookup, run_judge
from ..model import JUDGMENT_KINDS
from .judge import open_judge, plan_topics
from .limits import find_limits

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ..argue.policies import PolicyOptions

__all__ = ["plan"]


def plan(
    runs: Any,
    nuggets: Any,
    *,
    judge: str | JudgeBackend = "lexical",
    judge_options: Mapping[str, Mapping[str, Any]] | None = None,
    judgments: Any = None,
    requests: Any = None,
    qrels: Any = None,
    collection: Any = None,
    cache: str | os.PathLike[str] | JudgmentCache | None = None,
    **policies: Unpack[PolicyOptions],
) -> dict[str, Any]:
    """The plan of a ``judge`` run with the same arguments, as the dict ``judge --dry-run --json`` prints.

    ``cache``: the cache a real run would use (a path is read only if the file exists: a dry run creates
    nothing); the other keywords are the scoring policies, as for ``judge``. Keys: ``judge``, ``reports``, ``sentences``; ``questions`` (at most), ``certain`` and ``cached``
    per kind; ``calls`` (model calls per kind); ``estimate`` (a model judge's tokens and cost); and when
    they apply ``outside_topics``/``without_nuggets`` (reports not judged), ``unchecked_without_collection``
    and the limits (``topics_without_nuggets``, ``unreachable_nuggets``, ``uncovered_runs``).
    """
    inputs = load_inputs(runs, nuggets, judgments, requests, qrels, make_policies(**policies))
    reports = list(inputs.reports())
    evaluation = inputs.evaluation
    check_one_report_per_topic(reports, evaluation.topics)
    backend = open_judge(judge, judge_options)
    try:
        backend.check_installed()  # what the real run would stop on, it stops on here
        with ExitStack() as stack:
            store = _Collection(collection, stack)
            judgment_cache = _existing_cache(cache, stack)
            with paused_gc():  # a round's questions and prompts: millions of objects beside the reports, no cycles
                counts = _counts(reports, inputs, backend, judgment_cache, store)
    finally:
        backend.close()
    judged = [r for r in reports if r.request_id in evaluation.topics]  # as a real run: no others are judged
    unjudged = set(evaluation.unjudged)
    without_nuggets = sum(1 for r in reports if r.request_id in unjudged)
    outside = len(reports) - len(judged) - without_nuggets
    return {
        "judge": judge if isinstance(judge, str) else backend.name,
        "reports": len(judged),
        **({"outside_topics": outside} if outside else {}),
        **({"without_nuggets": without_nuggets} if without_nuggets else {}),
        "sentences": sum(len(r.sentences) for r in judged),
        **counts,
        **find_limits(reports, evaluation).as_dict(),
    }


class _Collection:
    """The collection, opened when first read (a plan without a cache for an offline judge reads none)."""

    def __init__(self, collection: Any, stack: ExitStack):
        self.collection = collection
        self.stack = stack
        self.store: Any = None if isinstance(collection, (str, os.PathLike)) else collection

    def __bool__(self) -> bool:
        return self.collection is not None

    def get_many(self, ids: Any) -> dict[str, Any]:
        if self.collection is None or not ids:
            return {}
        if self.store is None:
            from ..collection import open_collection

            self.store = self.stack.enter_context(open_collection(self.collection))
        return self.store.get_many(ids)


def _existing_cache(cache: Any, stack: ExitStack) -> JudgmentCache | None:
    if not isinstance(cache, (str, os.PathLike)):
        return cache
    if not Path(cache).exists():  # a dry run never creates the cache
        return None
    return stack.enter_context(JudgmentCache(cache))


def _counts(reports: list[Any], inputs: Any, backend: JudgeBackend, cache: JudgmentCache | None,
            store: _Collection) -> dict[str, Any]:
    """The question counts (the runner's rounds replayed from the cache) and a model judge's calls."""
    evaluation = inputs.evaluation
    documents = store if (store and cache is not None) else None  # documents matter to the cache lookup only
    if cache is None:
        # nothing cached, nothing answered: the rounds would list the first round's questions (every one fails,
        # so no later round opens another), which are the flowchart's certain ones, those the listing with both
        # branches finds needed with no unknown answer on their path (``gates``): read there, the round not run
        at_most = list_questions(reports, evaluation, inputs.source, "both", show_progress=False)
        certain = _by_kind(q.key for q in at_most if not q.gates)
        answered: Any = {}
    else:
        replay = run_judge(plan_topics(reports, evaluation), backend, known=inputs.source, documents=documents,
                           cache=cache, ask=False)
        known = LayeredLookup(inputs.source, replay.table)  # cached answers open later questions, as in a real run
        at_most = list_questions(reports, evaluation, known, "both", show_progress=False)
        certain = _by_kind(f.key for f in replay.failures)  # what the cache could not answer, round after round
        answered = replay.table.table
    behind: set[Any] = set()  # cached, but behind an answer not known yet
    if cache is not None:
        CachedJudge(backend, cache, documents=documents, contexts=True, ask=False).ask(
            [q.question(evaluation) for q in at_most], lambda answers, _: behind.update(q.key for q, _ in answers),
            lambda question, reason: None)
    todo = [q for q in at_most if q.key not in behind] if behind else at_most
    planner = getattr(backend, "plan_calls", None)
    estimator = getattr(backend, "estimate", None)  # model judges: tokens and cost, no network call
    if (planner is not None or estimator is not None) and store:
        # a model judge's prompt sizes, and a cascade's cheaper judge, read the documents as a real run would:
        # attached as each question is built (a round's every question, built once)
        found = store.get_many(documents_needed(todo))
        cited: dict[Any, Any] = {}  # a report's requires-citation questions share its cited documents
        asked = [q.question(evaluation, found, cited) for q in todo]
    else:
        asked = [q.question(evaluation) for q in todo]
    # cached answers about documents cannot be checked against texts the dry run does not read
    unchecked = sum(1 for q in asked if documents_needed([q])) if (not store and cache is not None) else 0
    estimate = estimator(asked) if estimator is not None else None
    convert = getattr(backend, "calls_by_kind", None)  # the calls from the estimate: its prompts built once
    calls = convert(estimate) if estimate is not None and convert is not None else None
    if calls is None:
        calls = planner(asked) if planner is not None else {}
    cascade = _cascade_plan(backend, asked)
    return {
        "questions": count_by_kind(todo),
        "certain": certain,
        "cached": _by_kind([*answered, *behind]),
        "calls": calls,
        **({"estimate": estimate} if estimate is not None else {}),
        **({"unchecked_without_collection": unchecked} if unchecked else {}),
        **cascade,
    }


def _cascade_plan(backend: JudgeBackend, asked: list[Any]) -> dict[str, Any]:
    """A cascade's ``cascade`` entry (``members``: what each would be asked and cost, ``CascadeJudge.plan_members``;
    ``other_order``: the same with the model-free members first, when a model-backed member comes before one),
    and its ``warnings`` (``cascade.order_warning`` with both orders' costs, measured on these questions)."""
    from ..judges.cascade import CascadeJudge, order_warning

    if not isinstance(backend, CascadeJudge):
        return {}
    entry: dict[str, Any] = {"members": backend.plan_members(asked)}
    if backend.misordered() is None:
        return {"cascade": entry}
    other = backend.model_free_first()
    entry["other_order"] = {"judge": ",".join(member.name for member in other.judges),
                            "members": other.plan_members(asked)}
    figures = "; ".join(f"this order {this:,} {unit}, the other {that:,}"
                        + (f" ({this / that:.1f}x)" if that else "")
                        for unit, this, that in _costs(entry["members"], entry["other_order"]["members"]))
    warning = order_warning(backend, f"measured on these questions: {figures}" if figures else "")
    return {"cascade": entry, "warnings": [warning] if warning else []}


def _costs(these: list[dict[str, Any]], others: list[dict[str, Any]]) -> list[tuple[str, int, int]]:
    """(unit, this order's cost, the other order's) per cost unit, summed over the model-backed members."""
    totals: dict[str, list[int]] = {}
    for side, members in enumerate((these, others)):
        for member in members:
            if "unit" in member:
                totals.setdefault(member["unit"], [0, 0])[side] += member["cost"]
    return [(unit, this, that) for unit, (this, that) in totals.items()]


def _by_kind(keys: Any) -> dict[str, int]:
    """Questions per kind in flowchart order, from their keys (kinds with none left out)."""
    counts = Counter(key.kind for key in keys)
    return {kind: counts[kind] for kind in JUDGMENT_KINDS if counts[kind]}
