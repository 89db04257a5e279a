"""``create_nuggets``: an LLM-proposed nugget bank from a pool, bound to documents, for assessors to revise;
``plan_create``: what it would ask and cost, asking nothing (``nuggets create --dry-run``).

This is what ``argue-eval nuggets create`` does minus the printing: it reads the requests, the pool (or
pools runs) and the documents' texts (``inputs.creation``), builds the LLM judge's client and the nugget
tasks (``judges.nugget_tasks``) over the judgment cache, and runs ``organizer.nugget_create`` (create, merge,
verify, cap, label). The bank is canonical nuggets with a ``provenance`` per nugget; ``nuggets validate``
reads it, and the workbench (``assess init --nuggets``) gives it to assessors.
"""
from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

from ..errors import OptionError, few_items
from ..judges.base import JudgeBackend
from .measure_judges import JudgeOptions

__all__ = ["create_nuggets", "plan_create", "CreateResult", "VERIFY_JUDGES"]

VERIFY_JUDGES = ("lexical", "semantic", "nli", "llm")
"""Judges that can verify a binding (``attested``: does the document attest "question answer"?)."""


@dataclass
class CreateResult:
    """``create_nuggets``' result: the bank, every call's record, the counts and what could not be done."""

    topics: list[Any]
    """The bank: ``TopicNuggets`` per topic with nuggets, in the requests' order."""
    details: list[dict[str, Any]]
    """Every create and label call's proposals and outcomes, then verification and cap, topic by topic."""
    counts: dict[str, int]
    dropped: dict[str, int]
    """What the merging, checking, verification and cap rules dropped, by reason (``nugget_drafts.DROP_REASONS``)."""
    settings: dict[str, Any]
    usage: dict[str, Any]
    """The LLM's calls, retries, tokens, failures and cost (``LLMJudge.usage()``)."""
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    """What could not be done (failed calls, unjudged bindings, unlabelled nuggets); the run is then incomplete."""

    @property
    def complete(self) -> bool:
        return not self.warnings


def _llm(judge: str | JudgeBackend, judge_options: JudgeOptions | None, stack: ExitStack) -> Any:
    """The LLM judge whose client and settings the tasks use (built from the ``llm`` options unless given)."""
    from ..judges.llm import LLMJudge

    if isinstance(judge, LLMJudge):
        return judge
    if isinstance(judge, JudgeBackend) or judge != "llm":
        shown = judge if isinstance(judge, str) else judge.name
        raise OptionError("--judge", f"creating nuggets needs an LLM: --judge llm (with --llm-base-url and "
                                     f"--llm-model), not {shown!r}")
    from ..judges.registry import make_judge

    options = dict((judge_options or {}).get("llm", {}))
    if not options.get("model"):
        raise OptionError("--llm-model", "creating nuggets needs the served model's name (--llm-model NAME)")
    llm = make_judge("llm", {"llm": options})
    stack.callback(llm.close)
    return llm


def _verifier(verify: str | JudgeBackend | None, llm: Any, judge_options: JudgeOptions | None,
              stack: ExitStack) -> JudgeBackend | None:
    if verify is None or isinstance(verify, JudgeBackend):
        return verify
    if verify == "llm":
        return llm  # the same client, counted in the same usage
    from .measure_judges import check_choice, open_measure_judge

    check_choice("--verify", "verifying judge", verify, VERIFY_JUDGES)
    backend = open_measure_judge(verify, judge_options, also=("llm",))
    stack.callback(backend.close)
    backend.check_installed()
    return backend


def _check_settings(batch_size: int, max_nuggets: int, merge_threshold: float, max_documents: int | None,
                    depth: int | None, pool: Any, runs: Any) -> None:
    if (pool is None) == (not runs):
        raise OptionError("--pool", "give the documents to read: --pool POOL (the pool command's output) or "
                                    "--run RUN... (their cited or ranked documents), not both")
    for flag, value in (("--batch-size", batch_size), ("--max-nuggets", max_nuggets), ("--max-documents", max_documents),
                        ("--depth", depth)):
        if value is not None and value < 1:
            raise OptionError(flag, f"must be at least 1, found {value}")
    if not 0 < merge_threshold <= 1:
        raise OptionError("--merge-threshold", f"must be more than 0 and at most 1, found {merge_threshold}")


def _open(collection: Any, stack: ExitStack) -> Any:
    if isinstance(collection, (str, os.PathLike)):
        from ..collection import open_collection

        return stack.enter_context(open_collection(collection))
    return collection


def _inputs(requests: Any, pool: Any, runs: Any, depth: int | None, max_documents: int | None, store: Any
            ) -> tuple[Any, list[str]]:
    from ..inputs.creation import creation_topics, describe_missing, pool_documents, run_documents

    topic_documents = pool_documents(pool) if pool is not None else run_documents(list(runs), depth)
    found = creation_topics(requests, topic_documents, store, max_documents)
    notes = []
    if found.without_documents:
        notes.append(f"{len(found.without_documents)} request(s) have no pooled document in the collection and get "
                     f"no nuggets: {few_items(found.without_documents)}")
    if found.outside_requests:
        notes.append(f"{len(found.outside_requests)} pooled topic(s) are not requests and are left out: "
                     f"{few_items(found.outside_requests)}")
    if found.missing_documents:
        notes.append(describe_missing(found.missing_documents))
    if not found.topics:  # a wrong pool or collection, not a bank to write empty
        from ..errors import ArgueError

        where = "--pool" if pool is not None else "--run"
        raise ArgueError(f"no request has a document of {where} in the collection: nothing to create nuggets from "
                         f"({'; '.join(notes) or 'the pool is empty'})")
    return found, notes


def create_nuggets(
    requests: Any,
    *,
    collection: Any,
    pool: Any = None,
    runs: Any = None,
    depth: int | None = 100,
    max_documents: int | None = None,
    judge: str | JudgeBackend = "llm",
    judge_options: JudgeOptions | None = None,
    cache: Any = None,
    batch_size: int = 10,
    max_nuggets: int = 30,
    merge_threshold: float = 0.8,
    verify: str | JudgeBackend | None = None,
    progress: Callable[[int], None] | None = None,
) -> CreateResult:
    """An LLM-proposed nugget bank for ``requests`` (a path or ``Request`` records).

    Documents: ``pool`` (a pool file, or ``{topic: [doc_id, ...]}``) or ``runs`` (run paths, pooled to
    ``depth``), the first ``max_documents`` of each topic, their texts from ``collection`` (a path or an open
    store). ``judge``: ``"llm"`` with ``judge_options={"llm": {"base_url": ..., "model": ...}}``, or an
    ``LLMJudge``; ``cache``: a judgment cache path or object (``None``: none). ``verify``: a judge that checks
    every binding (``lexical``, ``semantic``, ``nli``, ``llm`` or a backend; its options in ``judge_options``).
    ``progress(1)`` is called as each model answer arrives.
    """
    from ..judges.llm_tasks import LLMTasks, task_version
    from ..judges.nugget_tasks import CREATE, TASKS
    from ..organizer.nugget_create import (
        CreateSettings,
        bank_topics,
        cap_banks,
        create_banks,
        detail_records,
        label_banks,
        verify_bindings,
    )
    from .measure_judges import open_cache

    _check_settings(batch_size, max_nuggets, merge_threshold, max_documents, depth, pool, runs)
    with ExitStack() as stack:
        llm = _llm(judge, judge_options, stack)
        if llm.base_url is None:
            raise OptionError("--llm-base-url", "creating nuggets needs the endpoint (--llm-base-url http://HOST:PORT/v1)")
        llm.check_ready()  # the package, and a server listening at the URL, before any work
        verifier = _verifier(verify, llm, judge_options, stack)
        store = _open(collection, stack)
        found, notes = _inputs(requests, pool, runs, depth, max_documents, store)
        judgment_cache = open_cache(cache, stack)
        tasks = LLMTasks(llm, cache=judgment_cache, progress=progress, registry=TASKS)
        settings = CreateSettings(batch_size, max_nuggets, merge_threshold, llm.max_doc_tokens)
        states = create_banks(found.topics, tasks, settings)
        _stop_on_refused_key(llm)
        verified: Counter[str] = Counter()
        if verifier is not None:
            verified = verify_bindings(states, verifier, judgment_cache, store)
        capped = cap_banks(states)
        unlabelled = label_banks(states, tasks, settings)
        identity = {"created_by": "argue-eval nuggets create", "model": llm.model,
                    "prompt_version": task_version(TASKS[CREATE]), "temperature": llm.temperature, "seed": llm.seed,
                    "batch_size": batch_size, "max_doc_tokens": llm.max_doc_tokens}
        topics = bank_topics(states, identity)
        usage = llm.usage()
    dropped: Counter[str] = Counter()
    for state in states:
        dropped.update(state.bank.dropped)
    failed_batches = sum(len(state.failed_batches) for state in states)
    batches = sum(len(state.batches) for state in states)
    counts = {
        "topics": len(topics), "requests": len(found.topics) + len(found.without_documents),
        "documents": sum(len(topic.documents) for topic in found.topics), "batches": batches,
        "nuggets": sum(len(topic.nuggets) for topic in topics),
        "answers": sum(len(n.answers) for topic in topics for n in topic.nuggets),
        "bindings": sum(len(a.doc_ids) for topic in topics for n in topic.nuggets for a in n.answers),
        "vital": sum(n.importance == "vital" for topic in topics for n in topic.nuggets),
        "okay": sum(n.importance == "okay" for topic in topics for n in topic.nuggets),
        "model_calls": tasks.calls, "failed_calls": tasks.failed, "failed_batches": failed_batches,
        "unlabelled": unlabelled, "capped": capped,
        **({f"verify_{name}": verified[name] for name in ("attested", "rejected", "unjudged")} if verifier else {}),
    }
    warnings = _warnings(failed_batches, batches, unlabelled, verified, usage)
    empty = [state.request_id for state in states if not state.bank.nuggets]
    if empty:  # a topic the organizer gave documents for, left without a nugget: named, never a silent gap
        from ..errors import few_items

        warnings.append(f"{len(empty)} request(s) kept no nugget from their documents: {few_items(empty)} (every "
                        "proposal was dropped or every call failed; the reasons are counted under 'dropped' and "
                        "listed per call in --details)")
    settings_record = {"batch_size": batch_size, "max_nuggets": max_nuggets, "merge_threshold": merge_threshold,
                       "max_doc_tokens": llm.max_doc_tokens, "max_documents": max_documents,
                       "documents_from": "pool" if pool is not None else "runs",
                       **({"depth": depth} if pool is None else {}),
                       "llm": {"model": llm.model, "create": task_version(TASKS[CREATE]),
                               "label": task_version(TASKS["nugget_label"]),
                               "temperature": llm.temperature, "seed": llm.seed},
                       **({"verify": verifier.identity()} if verifier is not None else {})}
    return CreateResult(topics, detail_records(states), counts, dict(sorted(dropped.items())), settings_record, usage,
                        notes, warnings)


def _stop_on_refused_key(llm: Any) -> None:
    """A server that refused the credentials refuses every call: the run stops, saying why (as the LLM judge
    does), instead of writing a bank of nothing beside one warning per call."""
    from ..errors import ArgueError

    for failure in llm.usage()["failures"]:
        reason = str(failure.get("reason") or "")
        if reason.startswith("authentication failed"):
            raise ArgueError(reason)


def _warnings(failed_batches: int, batches: int, unlabelled: int, verified: Counter[str], usage: dict[str, Any]) -> list[str]:
    first = usage.get("failures") or []
    why = f" (first: {first[0]['reason']})" if first else ""
    out = []
    if failed_batches:
        out.append(f"{failed_batches} of {batches} create call(s) failed after a re-ask or retries{why}: their "
                   "documents contributed no nugget; the next run asks them again")
    if unlabelled:
        out.append(f"{unlabelled} nugget(s) are unlabelled: their label call failed{why}; the next run asks it again")
    if verified["unjudged"]:
        out.append(f"{verified['unjudged']} binding(s) could not be verified: kept, and listed as unjudged in their "
                   "nugget's provenance")
    return out


def plan_create(
    requests: Any,
    *,
    collection: Any = None,
    pool: Any = None,
    runs: Any = None,
    depth: int | None = 100,
    max_documents: int | None = None,
    judge: str | JudgeBackend = "llm",
    judge_options: JudgeOptions | None = None,
    cache: Any = None,
    batch_size: int = 10,
    max_nuggets: int = 30,
    merge_threshold: float = 0.8,
    verify: str | JudgeBackend | None = None,
) -> dict[str, Any]:
    """What ``create_nuggets`` with the same arguments would ask and cost, with no model call and nothing written.

    Needs no endpoint and no key. ``collection`` is read for the documents' texts (without it, a document
    counts at the full ``max_doc_tokens`` budget); ``cache`` (read only if the file exists) replays the calls
    it holds. Returns ``{"topics": [per-topic rows of organizer.nugget_create.plan_creation], "total": {...},
    "cost": ..., "verify": {...}?, "notes": [...]}``.
    """
    from ..judges.llm_tasks import LLMTasks
    from ..judges.nugget_tasks import TASKS
    from ..organizer.nugget_create import CreateSettings, plan_creation, verify_bindings

    _check_settings(batch_size, max_nuggets, merge_threshold, max_documents, depth, pool, runs)
    with ExitStack() as stack:
        llm = _llm(judge, judge_options, stack)
        verifier = _verifier(verify, llm, judge_options, stack)
        store = _open(collection, stack) if collection is not None else _Placeholders(llm.max_doc_tokens)
        found, notes = _inputs(requests, pool, runs, depth, max_documents, store)
        judgment_cache = _existing_cache(cache, stack)
        tasks = LLMTasks(llm, cache=judgment_cache, registry=TASKS)
        settings = CreateSettings(batch_size, max_nuggets, merge_threshold, llm.max_doc_tokens)
        verified: Counter[str] = Counter()

        def verify_cached(states: list[Any]) -> None:
            if verifier is not None and collection is not None:
                verified.update(verify_bindings(states, verifier, judgment_cache, store, ask=False))

        rows = plan_creation(found.topics, tasks, settings, verify_cached)
    if collection is None:
        notes.append("without --collection every document counts at the full --llm-max-doc-tokens budget")
    total = {key: sum(row[key] for row in rows) for key in ("documents", "batches", "cached", "calls", "prompt_tokens",
                                                            "completion_tokens")}
    cost = None
    if llm.price_in is not None or llm.price_out is not None:
        cost = (total["prompt_tokens"] * (llm.price_in or 0.0) + total["completion_tokens"] * (llm.price_out or 0.0)) / 1e6
    plan: dict[str, Any] = {"model": llm.model, "topics": rows, "total": total, "cost": cost, "notes": notes}
    if verifier is not None:
        plan["verify"] = {"judge": verifier.name, "cached": verified["attested"] + verified["rejected"],
                          "to_ask": verified["unjudged"]}
        if collection is None:
            notes.append("without --collection the verification cannot be replayed from the cache")
    return plan


class _Placeholders:
    """The dry run's documents without a collection: every id has a text of the full token budget."""

    def __init__(self, max_doc_tokens: int):
        self.text = "xxx " * max_doc_tokens

    def get_many(self, doc_ids: Any) -> dict[str, Any]:
        from ..model import Document

        return {doc_id: Document(doc_id, self.text) for doc_id in doc_ids}


def _existing_cache(cache: Any, stack: ExitStack) -> Any:
    """The cache a real run would use, read only when it exists (a dry run creates nothing)."""
    from pathlib import Path

    if not isinstance(cache, (str, os.PathLike)):
        return cache
    if not Path(cache).exists():
        return None
    from ..judges.cache import JudgmentCache

    return stack.enter_context(JudgmentCache(cache))
