"""The judges an alternate measure runs on, built from names and options: the entailment judge (``--judge``),
the LLM tasks (claims, aspects, multiple choice, coverage) and the judgment cache they share.

The measures' API functions (``api.icat``, ``api.longrecall``, ...) take a judge as the judge API does: a
backend name or a comma list (a cascade), options per backend (``{"llm": {"model": ..., "base_url": ...}}``)
or a ready ``JudgeBackend``; and a cache as a path, an open ``JudgmentCache`` or ``None``. A missing backend,
option or extra is an ``OptionError`` (or ``MissingDependencyError``) raised before any report is judged.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from typing import Any

from ..errors import OptionError
from ..judges.base import JudgeBackend

__all__ = ["open_measure_judge", "open_llm_tasks", "open_cache", "llm_claims", "failure_reason", "why_unanswered",
           "judge_failures", "judge_runtimes", "check_choice", "JudgeOptions"]

JudgeOptions = Mapping[str, Mapping[str, Any]]
"""Keyword options per backend name, e.g. ``{"lexical": {"attested_threshold": 0.5}}``."""


def open_measure_judge(judge: str | JudgeBackend, judge_options: JudgeOptions | None = None,
                       also: Sequence[str] = ()) -> JudgeBackend:
    """The judge named by ``judge`` (a name, a comma list, or a backend, returned as is).

    ``also`` names backends whose options are meant for another use (the LLM tasks' ``llm`` options) and
    are not an error when ``judge`` does not name them.
    """
    if isinstance(judge, JudgeBackend):
        return judge
    from ..inputs.profiles import apply_profile
    from ..judges.registry import make_judge, parse_judge_spec

    names = parse_judge_spec(judge)
    options, profile = apply_profile(judge, judge_options)  # a profile named among the options: its options
    for name in also:
        if name not in names:
            options.pop(name, None)
    try:
        return make_judge(judge, options, profile)
    except ModuleNotFoundError as error:
        if error.name and error.name.startswith("argue_eval."):
            raise OptionError("--judge", f"the {judge!r} judge is not available in this version of argue-eval "
                              f"({error.name} is missing)") from None
        raise OptionError("--judge", f"the {judge!r} judge needs a package that is not installed: {error.name}; "
                          "install the matching extra (see README: Install)") from None


def open_llm_tasks(judge: JudgeBackend, judge_options: JudgeOptions | None, cache: Any, stack: ExitStack,
                   progress: Callable[[int], None] | None = None) -> Any:
    """The LLM tasks on the ``llm`` backend: the entailment judge itself when it is (or includes) the LLM
    judge, else one built from the ``llm`` options (closed with ``stack``); ``progress`` is called with 1 per
    model answer."""
    import importlib.util

    from ..errors import MissingDependencyError
    from ..judges.llm import LLMJudge
    from ..judges.llm_tasks import LLMTasks

    members = [judge, *getattr(judge, "judges", ())]
    llm: Any = next((member for member in members if isinstance(member, LLMJudge)), None)
    if llm is None:
        from ..judges.registry import make_judge

        options = dict((judge_options or {}).get("llm", {}))
        if not options.get("model"):
            raise OptionError("--judge-option", "the LLM tasks need the served model's name: "
                              "--judge-option llm.model=NAME (and llm.base_url=http://HOST:PORT/v1)")
        llm = make_judge("llm", {"llm": options})
        stack.callback(llm.close)
    if llm.base_url is None:
        raise OptionError("--judge-option", "the LLM tasks need the endpoint: --judge-option llm.base_url=http://HOST:PORT/v1")
    if importlib.util.find_spec("aiohttp") is None:  # after the options, before any report is read or call made
        raise MissingDependencyError("the LLM tasks (--claims llm, --aspects llm, --e2e, multiple choice)", "llm",
                                     "no module named 'aiohttp'")
    llm.check_ready()  # a server listening at the URL, before any report is read or call made
    return LLMTasks(llm, cache=cache, progress=progress)


def check_choice(option: str, what: str, value: str, known: Sequence[str]) -> None:
    """An API argument that must be one of ``known`` (the command's choices), or an ``OptionError``."""
    if value not in known:
        from ..errors import unknown_name

        raise unknown_name(option, what, value, known)


def open_cache(cache: str | os.PathLike[str] | Any, stack: ExitStack) -> Any:
    """The judgment cache: a path is opened (and closed with ``stack``), a cache object or ``None`` used as is."""
    if isinstance(cache, (str, os.PathLike)):
        from ..judges.cache import JudgmentCache

        return stack.enter_context(JudgmentCache(cache))
    return cache


def llm_claims(reports: Sequence[tuple[str, Sequence[str]]], tasks: Any,
               warn: Callable[[str], None]) -> tuple[list[list[str]], int]:
    """Each ``(request_id, sentences)`` report's LLM claims, a sentence the LLM could not split kept whole (one
    warning says how many), for LongRecall and comprehensiveness; and how many sentences were kept whole."""
    from ..measures.llm_claims import claims_or_sentences, decompose_reports

    split = decompose_reports(reports, tasks)
    kept = sum(len(parts.failed) for parts in split)
    if kept:
        warn(f"the LLM could not split {kept} sentence(s) into claims: each is kept whole, and asked again on "
             "the next run")
    return [claims_or_sentences(parts) for parts in split], kept


def failure_reason(tasks: Any) -> str:
    """`` (first: REASON)`` for the first failure the LLM backend of ``tasks`` recorded, or ``""``."""
    failures = tasks.judge.usage()["failures"]
    return f" (first: {failures[0]['reason']})" if failures else ""


def why_unanswered(judge: Any) -> str:
    """Why ``judge`` left questions unanswered, as far as it says: how many of its model calls failed and the
    first reason (the LLM tasks' own failures, which share the model's record, are not counted)."""
    return judge_failures(judge) or f"the {getattr(judge, 'name', 'judge')} judge gave no answer"


def judge_failures(judge: Any) -> str | None:
    """``N call(s) to the model failed, the first: REASON`` from the judge's usage record, or ``None`` when it
    records no failure of its own (a judge without a model, or only the LLM tasks failed)."""
    from ..judges.llm_tasks import TASKS

    usage = getattr(judge, "usage", None)
    record = usage() if callable(usage) else None
    failures = [f for f in (record or {}).get("failures") or () if f.get("prompt") not in TASKS]
    if not failures:
        return None
    return f"{len(failures)} call(s) to the model failed, the first: {failures[0]['reason']}"


def judge_runtimes(judge: Any) -> dict[str, dict[str, Any]]:
    """How ``judge``'s local models ran, per backend name (``JudgeBackend.runtimes``: the device and batch size),
    for a details file's settings; empty for a judge without a local model (or one that does not say)."""
    runtimes = getattr(judge, "runtimes", None)
    return dict(runtimes()) if callable(runtimes) else {}
