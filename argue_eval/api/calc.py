"""``calc``: any measures of any families by name, in one call, as ir_measures' ``calc_aggregate`` and
``iter_calc`` compute trec_eval's.

::

    from argue_eval import api

    result = api.calc(["argue.f1", "icat.f@1"], runs="runs/sample/careful.jsonl",
                      nuggets="nuggets/sample/nuggets.jsonl", judgments="qrels/sample/judgments.jsonl",
                      collection="topics/sample/collection.jsonl")
    result.aggregates()          # {"argue.f1": {"careful": ...}, "icat.f@1": {"careful": ...}}
    for metric in api.iter_calc(["retrieval.ndcg@10"], runs=..., qrels=...):
        metric.run_id, metric.request_id, metric.measure, metric.value

The road every measure takes, the commands' included (``score``, ``evaluate``, ``icat``, ``longrecall``,
``comprehensiveness``, ``nuggetizer``, ``retrieval`` call the API functions, which call ``calc_family``):

1. the names are parsed (``measures.names.parse_measure``: an unknown family or measure is an error naming
   the known ones) and grouped by family and parameters (``argue.f1`` and ``argue.sentence_support`` are one
   group, one scoring);
2. each family's **provider** is found (``argue_eval.api.<family>:PROVIDER``, a ``Provider``: the family's
   parameters with their defaults, the keyword options only it reads, and ``compute``), every parameter and
   option is checked against it, all before anything is read;
3. the inputs are assembled once (``Supply``: the caller's runs, nuggets, judgments, requests, qrels,
   collection and judge, the judgment cache opened once for every family, the runs read once for the
   families that read reports), and each group is computed by its provider into the family's own table
   (a ``Result``, byte for byte what the family's command writes);
4. the asked measures are taken from those tables: per run and topic the measure's value, and per run its
   ``all`` value (a ratio's macro average by default, ``agg=micro`` its micro one; a count's sum; a
   retrieval measure's mean).

``judge``: the judge of the families that ask one (ICAT, LongRecall, comprehensiveness, nuggetizer with
``--run``; ``lexical`` when not given). ARGUE scores from ``judgments`` alone unless ``judge`` is given, and
then asks it the questions the judgments do not answer (``evaluate``). A family's own inputs are keyword
options (``reference=`` for LongRecall, ``context=`` for comprehensiveness, ``assignments=`` for nuggetizer,
``index=`` for ICAT, ``diversity=`` for retrieval, ...): an option no asked family reads is an error.
"""
from __future__ import annotations

import importlib
import inspect
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import OptionError, unknown_name
from ..measures.names import MeasureName, parse_measures
from ..model import ALL_TOPICS, natural_key
from .result import Note, Result

if TYPE_CHECKING:
    from ..argue.policies import Policies
    from ..model import Report

__all__ = ["calc", "iter_calc", "calc_family", "CalcResult", "CALC_COLUMNS", "Metric", "Provider", "Supply", "provider",
           "keyword_defaults", "PROVIDER_TARGET"]

Row = tuple[str, str, str, float]

PROVIDER_TARGET = "argue_eval.api.{family}:PROVIDER"
"""Where a family's provider is: beside the family's name in the measures registry, one module of the API per
family (``measures.FAMILIES["icat"]`` is computed by ``argue_eval.api.icat:PROVIDER``)."""


class Metric(NamedTuple):
    """One value: a measure of one run on one topic (``request_id`` ``all``: over the run's topics)."""

    run_id: str
    request_id: str
    measure: str
    value: float


@dataclass
class Supply:
    """What ``calc`` was given, shared by every family it computes: the inputs as the caller named them (paths
    or records), the judge, the policies, the family options; the judgment cache, opened once on first use
    and closed when ``calc`` ends; the run files, read once for the families that read reports."""

    runs: Any = None
    nuggets: Any = None
    judgments: Any = None
    requests: Any = None
    qrels: Any = None
    collection: Any = None
    judge: Any = None
    judge_options: Any = None
    cache_spec: Any = None
    policies: Policies | None = None
    details: bool = True
    on_note: Callable[[Note], None] | None = None
    options: dict[str, Any] = field(default_factory=dict)
    stack: ExitStack = field(default_factory=ExitStack)
    _reports: list[Report] | None = None
    _cache: Any = None
    _cache_open: bool = False

    def __post_init__(self) -> None:
        # a generator of records would be used up by the first family that reads it: keep its records
        for name in ("runs", "nuggets", "judgments", "requests", "qrels"):
            if isinstance(getattr(self, name), Iterator):
                setattr(self, name, list(getattr(self, name)))

    def option(self, name: str, default: Any = None) -> Any:
        """A family's keyword option (``reference``, ``index``, ...), or ``default`` when not given."""
        value = self.options.get(name)
        return default if value is None else value

    def cache(self) -> Any:
        """The judgment cache: a path opened once (closed when ``calc`` ends), an object as is, or ``None``."""
        if not self._cache_open:
            from .measure_judges import open_cache

            self._cache, self._cache_open = open_cache(self.cache_spec, self.stack), True
        return self._cache

    def reports(self) -> list[Report]:
        """Every report of ``runs`` (``inputs.runs.read_runs``), read on first use and shared by the families."""
        if self._reports is None:
            from ..inputs.runs import read_runs

            self._reports = read_runs(self.runs)
        return self._reports

    def entailment_judge(self) -> Any:
        """The judge of the families that ask one: the caller's, else the offline ``lexical`` judge."""
        return self.judge if self.judge is not None else "lexical"


Compute = Callable[[Supply, dict[str, Any], list[str], bool], Result]
"""``(supply, parameters, metrics asked, whole family asked)`` -> the family's table."""


@dataclass(frozen=True)
class Provider:
    """How one family is computed from what a caller names.

    ``parameters``: the family's parameters (what a measure name sets in parentheses or with ``@``) with
    their defaults, by whose type a name's text is read (``k=20`` an int, ``beta=2`` a float, ``e2e=true`` a
    bool); ``options``: the keyword options of ``calc`` only this family reads (its own input files);
    ``compute(supply, params, metrics, whole)``: the family's ``Result`` for the given parameters
    (the others at their defaults), every metric in ``metrics`` among its rows. ``defaults(supply)``: the
    parameters' values when a measure does not set them, if they depend on the supply (ARGUE's are the
    caller's policies); by default ``parameters``."""

    family: str
    parameters: Mapping[str, Any]
    compute: Compute
    options: tuple[str, ...] = ()
    defaults: Callable[[Supply], Mapping[str, Any]] | None = None

    def settings(self, supply: Supply, params: Mapping[str, Any]) -> dict[str, Any]:
        """Every parameter's value for a measure that sets ``params``: the measures of one family with the same
        settings are one computation (``icat.fact`` and ``icat.f@1``: beta is 1 by default)."""
        return {**(self.defaults(supply) if self.defaults is not None else self.parameters), **params}


def keyword_defaults(function: Callable[..., Any], *names: str) -> dict[str, Any]:
    """``name -> default`` of ``function``'s keyword arguments ``names``: a family's parameters take the
    defaults its API function states, written once."""
    signature = inspect.signature(function)
    return {name: signature.parameters[name].default for name in names}


def provider(family: str) -> Provider:
    """The provider of ``family`` (``PROVIDER_TARGET``); a family of the registry without one is an error."""
    from ..measures import FAMILIES

    if family not in FAMILIES:
        raise unknown_name("measure", "measure family", family, FAMILIES)
    module_name, _, attribute = PROVIDER_TARGET.format(family=family).partition(":")
    found = getattr(importlib.import_module(module_name), attribute)
    if not isinstance(found, Provider) or found.family != family:
        raise TypeError(f"{module_name}:{attribute} is not the provider of the {family} family")
    return found


@dataclass
class _Group:
    """Measures of one family computed together: the family, its typed parameters, the measures asked."""

    family: str
    params: dict[str, Any]
    measures: list[MeasureName]

    @property
    def whole(self) -> bool:
        return any(measure.name is None for measure in self.measures)

    @property
    def metrics(self) -> list[str]:
        return list(dict.fromkeys(m.metric for m in self.measures if m.metric is not None))


CALC_COLUMNS = ("run_id", "request_id", "measure", "value")


@dataclass
class CalcResult(Result):
    """What ``calc`` computed, in the API's one result shape: ``rows`` (per asked measure, run and topic, then
    each run's ``all`` value: the long table of the kit under ``CALC_COLUMNS``, with ``family.measure`` names);
    ``data``, also ``results``: each family's own table (one ``Result`` per family and settings, with its
    details, settings and counts); ``notes``/``unjudged``: theirs, in order; ``asked``: the measures parsed."""

    asked: list[MeasureName] = field(default_factory=list)

    @property
    def results(self) -> list[Result]:
        return list(self.data or ())

    def aggregates(self) -> dict[str, dict[str, float]]:
        """``{measure: {run_id: all value}}``, as ir_measures' ``calc_aggregate`` gives (per run here)."""
        out: dict[str, dict[str, float]] = {str(m): {} for m in self.asked}
        for run_id, request_id, measure, value in self.rows:
            if request_id == ALL_TOPICS:
                out[measure][run_id] = value
        return out

    def per_topic(self) -> list[Metric]:
        """The per-topic values as ``Metric`` records, what ``iter_calc`` yields."""
        return [Metric(*row) for row in self.rows if row[1] != ALL_TOPICS]


def calc(
    measures: str | MeasureName | Iterable[str | MeasureName],
    *,
    runs: Any = None,
    nuggets: Any = None,
    judgments: Any = None,
    requests: Any = None,
    qrels: Any = None,
    collection: Any = None,
    judge: Any = None,
    judge_options: Mapping[str, Mapping[str, Any]] | None = None,
    cache: str | os.PathLike[str] | Any = None,
    policies: Policies | None = None,
    details: bool = True,
    on_note: Callable[[Note], None] | None = None,
    **options: Any,
) -> CalcResult:
    """Compute ``measures`` (names such as ``"argue.f1 icat.f@1"``, or a list; see ``measures.names``).

    ``runs``: run file path(s) or ``Report`` records (retrieval also takes ranked runs or ``Rankings``);
    ``nuggets``, ``judgments``, ``requests``, ``qrels``: paths or records; ``collection``: a path/spec or an
    open ``DocumentStore``; ``judge``/``judge_options``/``cache`` as for ``api.judge``; ``policies``: ARGUE's
    (``Policies``; a measure's parameters override them); ``details``: ARGUE's per-report details;
    ``on_note(Note)`` sees each note as it arises; ``options``: the families' own inputs (``reference=``,
    ``context=``, ``assignments=``, ``index=``, ...). Everything is checked before anything is read."""
    supply = Supply(runs=runs, nuggets=nuggets, judgments=judgments, requests=requests, qrels=qrels,
                    collection=collection, judge=judge, judge_options=judge_options, cache_spec=cache,
                    policies=policies, details=details, on_note=on_note, options=dict(options))
    groups = _plan(parse_measures(measures), supply)
    rows: list[Row] = []
    results: list[Result] = []
    with supply.stack:
        for group in groups:
            result = _compute(group, supply)
            results.append(result)
            rows.extend(_measure_rows(group, result))
    return _calc_result(groups, rows, results)


def _calc_result(groups: Sequence[_Group], rows: list[Row], results: list[Result]) -> CalcResult:
    asked = [measure for group in groups for measure in group.measures]
    return CalcResult("calc", rows, {"measures": [str(measure) for measure in asked]}, [],
                      list(dict.fromkeys(run for result in results for run in result.runs)),
                      sorted({topic for result in results for topic in result.topics}, key=natural_key), {},
                      [note for result in results for note in result.notes],
                      [text for result in results for text in result.unjudged], CALC_COLUMNS, results, asked)


def iter_calc(measures: str | MeasureName | Iterable[str | MeasureName], **inputs: Any) -> Iterator[Metric]:
    """The per-topic values of ``measures`` (``calc``'s keywords), as ir_measures' ``iter_calc`` yields them:
    family after family, each family computed when the iteration reaches it (names and options are all
    checked first). The ``all`` values are ``calc``'s."""
    supply = _supply(inputs)
    groups = _plan(parse_measures(measures), supply)
    with supply.stack:
        for group in groups:
            result = _compute(group, supply)
            for row in _measure_rows(group, result):
                if row[1] != ALL_TOPICS:
                    yield Metric(*row)


_SUPPLY_KEYWORDS = frozenset({"runs", "nuggets", "judgments", "requests", "qrels", "collection", "judge",
                              "judge_options", "policies", "details", "on_note"})


def _supply(inputs: Mapping[str, Any]) -> Supply:
    """``calc``'s keywords as a ``Supply``: the shared inputs, ``cache``, and the rest as family options."""
    options = {key: value for key, value in inputs.items() if key not in _SUPPLY_KEYWORDS and key != "cache"}
    return Supply(**{key: value for key, value in inputs.items() if key in _SUPPLY_KEYWORDS},
                  cache_spec=inputs.get("cache"), options=options)


def calc_family(family: str, params: Mapping[str, Any] | None = None, *, metrics: Sequence[str] | None = None,
                **inputs: Any) -> Result:
    """One family's own table through ``calc``'s road (what the family's API function returns): every measure
    of ``family`` (or only ``metrics``) with ``params`` (typed values; ``None`` ones take the defaults), and
    ``calc``'s keywords for the inputs."""
    given = {key: value for key, value in (params or {}).items() if value is not None}
    names = ([MeasureName(family, family, None, None, tuple(given.items()))] if metrics is None else
             [MeasureName(f"{family}.{metric}", family, metric, metric, tuple(given.items())) for metric in metrics])
    supply = _supply(inputs)
    (group,) = _plan(names, supply)
    with supply.stack:
        return _compute(group, supply)


def _plan(measures: Sequence[MeasureName], supply: Supply) -> list[_Group]:
    """Group the measures by family and settings (every parameter's value; in the order first asked),
    checking every parameter and option against the families' providers."""
    groups: dict[tuple[str, tuple[tuple[str, Any], ...]], _Group] = {}
    providers: dict[str, Provider] = {}
    options = supply.options
    for measure in measures:
        found = providers.get(measure.family) or provider(measure.family)
        providers[measure.family] = found
        params = found.settings(supply, _typed(found, measure))
        key = (measure.family, tuple(sorted(((k, repr(v)) for k, v in params.items()), key=lambda item: item[0])))
        groups.setdefault(key, _Group(measure.family, params, [])).measures.append(measure)
    unused = [name for name in options if options[name] is not None
              and not any(name in found.options for found in providers.values())]
    if unused:
        takers = {name: [f.family for f in map(provider, _family_names()) if name in f.options] for name in unused}
        raise OptionError(unused[0], f"not read by the measures asked ({', '.join(providers)})"
                          + (f"; it is {', '.join(takers[unused[0]])}'s" if takers[unused[0]] else
                             "; no family takes it"))
    return list(groups.values())


def _family_names() -> list[str]:
    from ..measures import FAMILIES

    return list(FAMILIES)


def _typed(found: Provider, measure: MeasureName) -> dict[str, Any]:
    """The measure's parameters typed as the provider's defaults are; an unknown one is an error."""
    typed: dict[str, Any] = {}
    for name, value in measure.params:
        if name not in found.parameters:
            raise unknown_name("measure", f"parameter of {found.family} (in {measure})", name, found.parameters)
        typed[name] = _value(found.parameters[name], value, f"{measure}: {name}") if isinstance(value, str) else value
    return typed


def _value(default: Any, text: str, where: str) -> Any:
    """``text`` read as ``default``'s type (bool, int, float; text for text and ``None`` defaults)."""
    try:
        if isinstance(default, bool):
            if text.lower() not in ("true", "false", "yes", "no", "1", "0"):
                raise ValueError(text)
            return text.lower() in ("true", "yes", "1")
        if isinstance(default, int):
            return int(text)
        if isinstance(default, float):
            return float(text)
    except ValueError:
        kind = "true or false" if isinstance(default, bool) else f"a number like {default}"
        raise OptionError("measure", f"{where}: expected {kind}, found {text!r}") from None
    return text


def _compute(group: _Group, supply: Supply) -> Result:
    """One group, by its family's provider."""
    return provider(group.family).compute(supply, dict(group.params), group.metrics, group.whole)


def _measure_rows(group: _Group, result: Result) -> list[Row]:
    """The asked measures' rows from a family's table: per run, its topics (each measure in the order asked),
    then its ``all`` values. A whole family asked is every measure of it (its counts and ratios, or for
    retrieval every measure computed)."""
    from ..measures import get_family

    family = get_family(group.family)
    wanted: list[tuple[str, str, str]] = []  # (measure text, per-topic metric, all metric)
    for measure in group.measures:
        if measure.name is None:
            metrics = ([metric for metric in family.measure_names if metric in family.metrics]
                       if family.resolve is None else _metrics_of(result))
            wanted.extend((f"{measure.family}.{metric}" + _suffix(measure), metric,
                           _aggregate_name(family, metric, None)) for metric in metrics)
        else:
            assert measure.metric is not None
            wanted.append((str(measure), measure.metric, _aggregate_name(family, measure.metric, measure.agg)))
    by_run: dict[str, dict[str, dict[str, float]]] = {}
    for run_id, request_id, metric, value in result.rows:
        by_run.setdefault(run_id, {}).setdefault(request_id, {})[metric] = value
    rows: list[Row] = []
    for run_id, topics in by_run.items():
        for request_id, values in topics.items():
            if request_id != ALL_TOPICS:
                rows.extend((run_id, request_id, text, values[metric]) for text, metric, _ in wanted if metric in values)
        aggregate = topics.get(ALL_TOPICS, {})
        rows.extend((run_id, ALL_TOPICS, text, aggregate[name]) for text, _, name in wanted if name in aggregate)
    return rows


def _suffix(measure: MeasureName) -> str:
    """A whole family's parameters, carried to each of its measures' names (``icat(k=20)`` -> ``icat.fact(k=20)``)."""
    head = measure.text.partition("(")
    return f"({head[2]}" if head[1] else ""


def _metrics_of(result: Result) -> list[str]:
    """The metrics of an open-ended family's table (retrieval), in their order."""
    return list(dict.fromkeys(metric for _, request_id, metric, _ in result.rows if request_id != ALL_TOPICS))


def _aggregate_name(family: Any, metric: str, agg: str | None) -> str:
    """The ``all`` row a measure's run value is read from: a ratio's ``_macro`` (or ``_micro``), else the
    metric's own (a count's sum, a retrieval measure's mean)."""
    return f"{metric}_{agg or 'macro'}" if metric in family.ratio_names else metric
