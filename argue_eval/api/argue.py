"""ARGUE on ``api.calc``'s road (``PROVIDER``): the flowchart's measures of report runs, scored from the
judgments given, or, with a judge, after the judge has answered the questions those judgments leave open.

``api.score`` and ``api.evaluate`` are this provider with their own result shapes; its parameters are the
scoring policies (``Policies``: ``argue.f1(nugget_scope=all)``, with ``Policies``' defaults) and
``importance``, which ``@`` sets on a nugget measure (``argue.nugget_coverage@vital``: the weighted measures
with that importance weighing 1 and the others 0).
"""
from __future__ import annotations

import os
from dataclasses import fields, replace
from typing import Any

from ..argue.policies import DEFAULT_WEIGHTS, Policies
from ..errors import unknown_name
from ..model import ALL_TOPICS, natural_key
from .calc import Provider, Supply
from .result import NoteLog, Result

__all__ = ["PROVIDER", "policies_of"]

_POLICY_PARAMETERS = {f.name: f.default for f in fields(Policies) if f.name != "weights"}


def policies_of(policies: Policies | None, params: dict[str, Any]) -> Policies:
    """``policies`` (default ``Policies()``) with the measure's parameters: policy fields by name, and
    ``importance`` as weights of 1 for that importance and 0 for the others."""
    policies = policies or Policies()
    importance = params.pop("importance", None)
    if importance is not None:
        if importance not in DEFAULT_WEIGHTS:
            raise unknown_name("measure", "nugget importance (argue's @)", importance, DEFAULT_WEIGHTS)
        params["weights"] = {name: int(name == importance) for name in DEFAULT_WEIGHTS}
    return replace(policies, **params) if params else policies


def _compute(supply: Supply, params: dict[str, Any], metrics: list[str], whole: bool) -> Result:
    """ARGUE's table under the supply's policies and ``params``: from the judgments alone (``score``), or with
    the supply's judge answering what they leave open (``evaluate``; the judge run, an ``api.judge.JudgeResult``
    whose judgments ``evaluate`` writes, is the result's ``data``, and what it could not judge comes first in the
    notes and in ``unjudged``). ``missing_hint`` may be a function of the judge run."""
    from .judge import judge, score_judged

    policies = policies_of(supply.policies, params)
    hint = supply.option("missing_hint")
    log = NoteLog(supply.on_note)
    judged = None
    if supply.judge is None:
        from ..argue.api import run_scoring
        from ..inputs import load_inputs

        inputs = load_inputs(supply.runs, supply.nuggets, supply.judgments, supply.requests, supply.qrels, policies)
        scoring = run_scoring(inputs.reports(), inputs.evaluation, inputs.source, details=supply.details,
                              missing_hint=hint)
    else:
        # a cache given as a path is opened by judge once the inputs are checked (a refused run creates no file)
        cache = supply.cache_spec if isinstance(supply.cache_spec, (str, os.PathLike)) else supply.cache()
        judged = judge(supply.runs, supply.nuggets, collection=supply.collection, judge=supply.judge,
                       judge_options=supply.judge_options, judgments=supply.judgments, requests=supply.requests,
                       qrels=supply.qrels, cache=cache, announce=supply.option("announce"),
                       batch_in=supply.option("batch_in", ()), batch_out=supply.option("batch_out"),
                       batch_max_calls=supply.option("batch_max_calls"), **policies.options())
        for line in judged.unjudged():  # what the judge could not answer, said before scoring can stop on it
            log.not_judged(line)
        for line in judged.other_warnings():
            log.warn(line)
        scoring = score_judged(judged, details=supply.details, missing_hint=hint(judged) if callable(hint) else hint)
    for note in scoring.notes:
        log.note(note)
    runs = list(dict.fromkeys(row[0] for row in scoring.rows))
    topics = sorted({row[1] for row in scoring.rows if row[1] != ALL_TOPICS}, key=natural_key)
    return Result("argue", scoring.rows, {"policies": policies.describe()}, scoring.details, runs, topics,
                  {"missing": dict(scoring.missing)}, log.notes, log.unjudged, data=judged)


def _defaults(supply: Supply) -> dict[str, Any]:
    """A measure's policies when it sets none: the caller's (``calc(policies=...)``), else ``Policies``' defaults."""
    policies = supply.policies or Policies()
    return {**{name: getattr(policies, name) for name in _POLICY_PARAMETERS}, "importance": None}


PROVIDER = Provider("argue", {**_POLICY_PARAMETERS, "importance": None}, _compute,
                    options=("missing_hint", "announce", "batch_in", "batch_out", "batch_max_calls"),
                    defaults=_defaults)
"""The ARGUE family on ``api.calc``'s road: ``argue.f1``, ``argue.nugget_coverage@vital``,
``argue.f1(relevance=qrels)``."""
