"""Options shared by several commands: ``score``, ``judge``, ``evaluate`` and ``assess export`` must see the same
questions (``input_options``, ``policy_options``, ``judge_options``); every command says as much or as little
as asked (``verbosity_options``).

Reading the files these options name is ``argue_eval.inputs.load_inputs``'s job."""
from __future__ import annotations

import functools
import inspect
import math
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from ..argue.policies import (
    DEFAULTS,
    EVALUATED_TOPICS,
    MISSING_JUDGMENTS,
    MISSING_TOPICS,
    NUGGET_SCOPES,
    POLICY_FIELDS,
    RELEVANCE_SOURCES,
    UNBOUND_QUESTIONS,
    format_weights,
    parse_weights,
)
from ..errors import OptionError
from ..redact import hold_credentials
from ._paths import InputPath, UpdatedPath, default_cache_path

__all__ = ["input_options", "run_options", "judge_options", "policy_options", "missing_judgments_option", "verbosity_options",
           "device_option", "team_options", "DEFAULTS"]


def run_options(help: str, *, path_type: Any = None, exists: bool = False, required: bool = False,
                arguments: bool = True) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--run RUN`` as every command spells it: repeatable, and taking one or more files (``--run A B``, or the
    extra paths a shell glob such as ``--run runs/*.jsonl`` expands to, are the ``[RUN]...`` arguments after it;
    ``arguments=False`` where a command's arguments are other files); ``--runs`` is the same option under the
    spelling some commands had (hidden). The command receives every run as ``runs``: ``--run``'s in the order
    given, then ``--runs``', then the arguments; ``required``: at least one."""
    kind = InputPath(path_type=path_type, exists=exists) if path_type is not None else InputPath(exists=exists)

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(func)  # keeps the options already attached below (click's __click_params__)
        def merge_runs(*args: Any, **kwargs: Any) -> Any:
            runs = tuple(kwargs.pop("runs")) + tuple(kwargs.pop("runs_alias")) + tuple(kwargs.pop("more_runs", ()))
            if required and not runs:
                raise OptionError("--run", "give at least one run file (--run RUN, or RUN... as arguments)")
            kwargs["runs"] = runs
            return func(*args, **kwargs)

        options = [
            *([click.argument("more_runs", nargs=-1, type=kind, metavar="[RUN]...")] if arguments else []),
            click.option("--run", "runs", multiple=True, type=kind, metavar="RUN", help=help),
            click.option("--runs", "runs_alias", multiple=True, type=kind, metavar="RUN", hidden=True,
                         help="The same as --run (the spelling some commands had)."),
        ]
        wrapped: Callable[..., Any] = merge_runs
        for option in reversed(options):
            wrapped = option(wrapped)
        return wrapped

    return decorate


def run_paths(runs: Sequence[str], more_runs: Sequence[str]) -> tuple[str, ...]:
    """The run files of ``--run`` and of the trailing arguments a shell glob expands to; at least one."""
    paths = tuple(runs) + tuple(more_runs)
    if not paths:
        raise OptionError("--run", "give at least one run file")
    return paths


def input_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--run`` (``run_options``: repeatable, one or more files), ``--nuggets``, ``--judgments``, ``--requests``,
    ``--qrels``; the command receives the runs as ``runs``."""
    options = [
        run_options("Run file (any run format); repeat for several, or give several after it. Default: the "
                    "reports inside Auto-ARGUE judgment files."),
        click.option("--nuggets", "nuggets", required=True, type=InputPath(folder=True), metavar="N",
                     help="Nuggets (canonical, NeuCLIR, report_gen_eval, Auto-ARGUE v3 directory, RAGTIME, ..., or a "
                          "workbench database: its bank as it stands)."),
        click.option("--judgments", "judgments", multiple=True, type=InputPath(), metavar="J",
                     help="Judgments file (canonical, Auto-ARGUE, or a workbench database: its answers so far); repeat: "
                          "later files override earlier ones."),
        click.option("--requests", "requests", default=None, type=InputPath(), metavar="R",
                     help="Requests: the topics to score, of those with nuggets (default: the nuggets' topics); "
                          "texts for judges and assessors."),
        click.option("--qrels", "qrels", default=None, type=InputPath(), metavar="Q",
                     help="TREC qrels (for --relevance qrels)."),
    ]
    wrapped: Callable[..., Any] = func
    for option in reversed(options):
        wrapped = option(wrapped)
    return wrapped


def policy_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--relevance``, ``--nugget-scope``, ``--evaluated-topics``, ``--missing-topics``, ``--unbound-questions`` and
    ``--weights``, each defaulting to ``argue.policies.DEFAULTS`` (the dataclass's defaults, the only ones). The
    command receives them as one ``policies`` dict of keyword options (``argue.policies.PolicyOptions``, the
    weights parsed), with ``--missing-judgments`` folded in where the command declares it, to pass on as
    ``api.score(..., **policies)``."""

    @functools.wraps(func)  # keeps the options already attached below (click's __click_params__)
    def fold(*args: Any, **kwargs: Any) -> Any:
        policies = {name: kwargs.pop(name) for name in POLICY_FIELDS if name in kwargs}
        policies["weights"] = parse_weights(policies["weights"])
        kwargs["policies"] = policies
        return func(*args, **kwargs)

    options = [
        click.option("--relevance", type=click.Choice(RELEVANCE_SOURCES), default=DEFAULTS.relevance,
                     show_default=True,
                     help="Cited document relevant iff it attests a nugget answer (nuggets), has rel > 0 in "
                          "--qrels (qrels), or as `relevant` judgments say (judgments)."),
        click.option("--nugget-scope", type=click.Choice(NUGGET_SCOPES), default=DEFAULTS.nugget_scope,
                     show_default=True,
                     help="cited: a sentence supplies only answers its cited document attests; all: any answer "
                          "of the topic (asked once per cited sentence, no document)."),
        click.option("--evaluated-topics", type=click.Choice(EVALUATED_TOPICS), default=DEFAULTS.evaluated_topics,
                     show_default=True,
                     help="judged: the topics with nuggets (and in --requests, if given), as trec_eval evaluates "
                          "the judged topics; a requested topic without nuggets is listed, not judged, not "
                          "averaged in. requests: every requested topic, one without nuggets scoring 0."),
        click.option("--missing-topics", type=click.Choice(MISSING_TOPICS), default=DEFAULTS.missing_topics,
                     show_default=True,
                     help="An evaluated topic with no report in a run scores 0 (zero, as trec_eval -c) or is "
                          "left out (skip)."),
        click.option("--unbound-questions", type=click.Choice(UNBOUND_QUESTIONS), default=DEFAULTS.unbound_questions,
                     show_default=True,
                     help="Nuggets with no answer bound to a document: drop (listed), count as negative "
                          "nuggets, or keep (findable with --nugget-scope all)."),
        click.option("--weights", default=format_weights(DEFAULTS.weights), show_default=True, metavar="W",
                     help="Nugget weights by importance for the *_weighted measures."),
    ]
    wrapped: Callable[..., Any] = fold
    for option in reversed(options):
        wrapped = option(wrapped)
    return wrapped


def missing_judgments_option(text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--missing-judgments`` (default ``DEFAULTS.missing_judgments``) with the command's own ``text``; put it
    below ``policy_options``, which folds it into ``policies``."""
    return click.option("--missing-judgments", type=click.Choice(MISSING_JUDGMENTS),
                        default=DEFAULTS.missing_judgments, show_default=True, help=text)


def team_options(*, used_by: str | None = None,
                 metadata: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--team RUN=TEAM`` (repeatable), ``--teams FILE`` and ``--team-pattern REGEX``: which team each run is,
    as ``report`` (for ``--packets``) and ``analyze reusability`` take it. The command receives ``team_pairs``,
    ``team_files`` and ``team_pattern`` (``api.run_mapping`` and ``api.team_map`` read them). ``used_by``: the
    option the teams are for, named in the help; ``metadata``: the command also reads the runs' ``team_id``
    metadata before the pattern's default (``organizer.teams.assign_teams``), and says so."""
    where = f" for {used_by}" if used_by else ""
    default = ("the runs' team_id metadata, else " if metadata else "") + "the run id up to its first - _ or ."
    options = [
        click.option("--team", "team_pairs", multiple=True, metavar="RUN=TEAM",
                     help=f"A run's team{where} (repeatable)."),
        click.option("--teams", "team_files", multiple=True, type=InputPath(path_type=Path), metavar="FILE",
                     help=f"A `RUN TEAM` mapping file{where}, one run a line."),
        click.option("--team-pattern", default=None, metavar="REGEX",
                     help=(f"For {used_by}: the" if used_by else "The") + " team is the first group of this pattern "
                          f"on the run id [default: {default}]."),
    ]

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed(options):
            func = option(func)
        return func

    return decorate


def judge_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--collection``, ``--judge``, backend options, ``--cache``/``--no-cache``, ``--dry-run``/``--json``."""
    options = [
        click.option("--collection", default=None, type=InputPath(folder=True), metavar="C",
                     help="Document collection (JSONL, irds:ID or Lucene index): the judge reads the cited "
                          "documents. Needed unless --dry-run."),
        click.option("--judge", "judge_spec", default="lexical", show_default=True, metavar="JUDGE",
                     help="lexical (offline, no model), semantic (MiniLM embeddings), nli (--nli-model), llm, "
                          "or a comma list for a cascade, cheapest first (lexical,semantic): a later judge "
                          "answers only what the earlier one is unsure of."),
        click.option("--judge-option", "judge_option", multiple=True, metavar="BACKEND.NAME=VALUE",
                     help="A backend option, e.g. lexical.attested_threshold=0.5, semantic.answers_threshold=0.6, "
                          "nli.attested_threshold=0.7 or cascade.threshold=0.8; repeatable (docs/judging.md lists "
                          "each backend's options; an unknown NAME is an error that lists them). profile=P.json: "
                          "the options a `judge calibrate` profile fitted (options given beside it win)."),
        click.option("--nli-model", default=None, metavar="PATH",
                     help="Local directory of a transformers NLI model (for --judge nli); never downloaded."),
        click.option("--cache", "cache_path", default=None, metavar="PATH",
                     type=UpdatedPath(default=default_cache_path, disabled_by="no_cache"),
                     help="SQLite judgment cache: answers are committed here before use, so a killed run "
                          "resumes where it stopped. Default: .argue-cache/judgments.sqlite."),
        click.option("--no-cache", is_flag=True, help="Do not read or write the judgment cache."),
        click.option("--dry-run", is_flag=True,
                     help="Do not judge: print the questions per kind (and model calls) a real run would make."),
        click.option("--json", "as_json", is_flag=True, help="With --dry-run: print one JSON object."),
    ]
    func = device_option(llm_options(func))  # listed after the options above in --help
    for option in reversed(options):
        func = option(func)
    return func


DEVICE_MARK = "*"
"""The backend of the ``judge_option`` entry ``--device`` adds: every backend of ``--judge`` that takes a device."""


def device_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--device auto|cpu|cuda[:N]|mps`` (``search.devices``): where the local models run (the semantic and NLI
    judges, dense search, ICAT's dense retrieval). Its spelling is checked at once (one line, exit 2); a command
    with ``judge_option`` receives it there too, for every backend of ``--judge`` that takes a ``device``
    (``parse_judge_options``); a command with a ``device`` parameter receives it as well. Not given: each takes
    its default (``devices.DEFAULT_DEVICE``), and no option is recorded."""
    from ..search.devices import DEFAULT_DEVICE, DEVICE_SPECS

    accepted = set(inspect.signature(func).parameters)

    @functools.wraps(func)
    def fold(*args: Any, **kwargs: Any) -> Any:
        from ..search.devices import parse_device

        device = kwargs.pop("device")
        if device is not None:
            device = parse_device(device)
            if "judge_option" in kwargs:
                kwargs["judge_option"] = tuple(kwargs["judge_option"]) + ((DEVICE_MARK, "device", device),)
        if "device" in accepted:
            kwargs["device"] = device
        return func(*args, **kwargs)

    return click.option(
        "--device", "device", default=None, metavar="DEVICE",
        help=f"Where the local models run: {DEVICE_SPECS} [default: {DEFAULT_DEVICE}: the first CUDA GPU torch "
             "sees, else mps, else the CPU]. Batch sizes follow the device (semantic.batch_size or nli.batch_size "
             "override them). Answers do not depend on it; the manifest records the device used. "
             "E.g. --device cuda:1.")(fold)


class ShardType(click.ParamType):
    """``--shard K/N``: share K (1 to N) of N of every round's questions (``judges.shards``), checked at the flag:
    ``0/3``, ``4/3`` or ``x/y`` is one line naming the option, exit 2."""

    name = "K/N"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from ..judges.shards import Shard, parse_shard

        if isinstance(value, Shard):
            return value
        try:
            return parse_shard(str(value))
        except OptionError as error:
            self.fail(error.problem.message, param, ctx)


# --- bounded numbers -------------------------------------------------------------------------------------------
# Every number an option takes has bounds in its click type, so --help shows them and a value outside them (nan,
# inf, -1, 30 digits) is one line at the flag typed, never a traceback from numpy, orjson or a C library, nor
# a wait that never ends.


class Number(click.FloatRange):
    """A finite number, optionally within a range. ``click.FloatRange`` alone lets ``nan`` through (every
    comparison with nan is false) and ``inf`` whenever no bound is set; JSON cannot record either."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = click.FLOAT.convert(value, param, ctx)  # parsed first: the range check below needs a number
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return super().convert(number, param, ctx)


SEED = click.IntRange(0, 2**32 - 1)
"""A random seed (numpy takes no negative seed)."""
RESAMPLES = click.IntRange(1, 1_000_000)
"""Bootstrap resamples or permutations: each is a row of the topics' index matrix, so 10^6 x 50 topics is
already 400 MB."""
LARGE_COUNT = click.IntRange(1, 1_000_000_000)
"""A count of documents, words or characters (depth, budget, limit): far above any real need, far below what a
64-bit JSON integer and the C libraries hold."""


LLM_OPTIONS: list[tuple[str, str, Any, str]] = [
    ("--llm-base-url", "base_url", str, "OpenAI-compatible endpoint for --judge llm, e.g. http://gpu01:8000/v1; "
     "repeat for replicas of one model (each call goes to one with free capacity; --concurrency and the rate "
     "limits apply to each)."),
    ("--llm-model", "model", str, "The served model's name (as the endpoint lists it)."),
    ("--llm-api-key-env", "api_key_env", str,
     "Environment variable holding the API key [default: OPENAI_API_KEY; unset = no key]. The key is never "
     "written anywhere."),
    ("--concurrency", "concurrency", click.IntRange(1, 1024), "Model calls in flight at once [default: 8]."),
    ("--requests-per-minute", "requests_per_minute", Number(min=1),
     "Limit on model calls per minute (at least one a minute)."),
    ("--tokens-per-minute", "tokens_per_minute", Number(min=1), "Limit on (estimated) tokens per minute."),
    ("--llm-timeout", "timeout", Number(0, 86_400, min_open=True),
     "Seconds per call before it is retried [default: 120]."),
    ("--llm-max-retries", "max_retries", click.IntRange(0, 100),
     "Retries of a call after a timeout, dropped connection, 429 or 5xx [default: 6]."),
    ("--llm-max-doc-tokens", "max_doc_tokens", click.IntRange(32, 10_000_000),
     "Cited documents are cut to this many tokens around the best-matching passage [default: 1500]."),
    ("--llm-response-format", "response_format", click.Choice(["json_schema", "json_object", "none"]),
     "How the reply's JSON schema is sent: json_schema (vLLM, OpenAI, llama-server), json_object "
     "(llama-cpp-python's server), none [default: json_schema]. Replies are checked either way."),
    ("--temperature", "temperature", Number(0, 100), "Sampling temperature of the LLM judge [default: 0]."),
    ("--llm-seed", "seed", click.IntRange(0, 2**63 - 1),
     "Seed sent to the endpoint, where it honours one [default: 0]. With --temperature above 0, each seed is a "
     "replicate of the judge (its own identity and cache entries): score tables of several seeds go to "
     "`compare --replicates`."),
    ("--llm-top-p", "top_p", Number(0, 1, min_open=True),
     "Nucleus sampling of the LLM judge: sample from the smallest set of tokens whose probability reaches X "
     "[default: the server's; recorded in the judge's identity when given]."),
    ("--price-in", "price_in", Number(min=0), "Price per million prompt tokens, for the cost estimate."),
    ("--price-out", "price_out", Number(min=0), "Price per million completion tokens, for the cost estimate."),
    ("--llm-group", "group", click.Choice(["sentence", "document"]),
     "sentence: Auto-ARGUE's calls (one answers and one attested call per sentence and cited document); "
     "document: one call per cited document and topic asks about several sentences citing it, sending the "
     "document once [default: sentence]."),
    ("--llm-group-cap", "group_cap", click.IntRange(min=1),
     "With --llm-group document: sentences per call at most [default: 8]."),
]
"""The LLM judge's options: (flag, LLMJudge keyword, type, help). Given ones reach it as ``llm`` options."""


def llm_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """Add the ``--llm-*`` options; the command sees them as ``judge_option`` entries for the llm backend."""

    @functools.wraps(func)
    def fold(*args: Any, **kwargs: Any) -> Any:
        urls = kwargs.get("llm_opt_base_url")
        kwargs["llm_opt_base_url"] = (urls[0] if len(urls) == 1 else list(urls)) if urls else None
        given = tuple(("llm", keyword, kwargs[f"llm_opt_{keyword}"]) for _, keyword, _, _ in LLM_OPTIONS
                      if kwargs.get(f"llm_opt_{keyword}") is not None)
        for _, keyword, _, _ in LLM_OPTIONS:
            kwargs.pop(f"llm_opt_{keyword}", None)
        kwargs["judge_option"] = tuple(kwargs.get("judge_option", ())) + given
        return func(*args, **kwargs)

    wrapped: Callable[..., Any] = fold
    for flag, keyword, kind, text in reversed(LLM_OPTIONS):
        metavar = "URL" if keyword == "base_url" else "NAME" if kind is str else None
        if isinstance(kind, click.IntRange):
            metavar = "N"
        elif isinstance(kind, click.FloatRange):
            metavar = "X"
        several = keyword == "base_url"  # replicas: the option is repeatable
        wrapped = click.option(flag, f"llm_opt_{keyword}", type=kind, default=None, metavar=metavar,
                               help=text, multiple=several)(wrapped)
    return wrapped


def parse_judge_options(items: tuple[str, ...], nli_model: str | None,
                        judge_spec: str | None = None, *, profile_for: str | None = None) -> dict[str, dict[str, Any]]:
    """``("lexical.attested_threshold=0.5",)`` -> ``{"lexical": {"attested_threshold": 0.5}}``.

    ``profile=P.json`` (a judge profile, ``judge calibrate``) is kept as ``{"profile": "P.json"}``: the API reads
    it where the judge is made (``inputs.profiles``); with ``judge_spec`` it is checked here already, so a bad
    profile stops the command before any input is read. With ``judge_spec``, a typed option of a backend the spec
    leaves out (``--nli-model`` with ``--judge lexical``) is an error that names that option. ``profile_for``
    checks the profile against that judge spec without the backend check (the measure commands' judges)."""
    from ..errors import InputError
    from ..inputs.profiles import PROFILE_OPTION

    names = None
    if judge_spec is not None:
        from ..judges.registry import parse_judge_spec

        names = parse_judge_spec(judge_spec)

    def refuse_unless(backend: str, flag: str) -> None:
        if names is not None and backend not in names:
            raise InputError(flag, None, None, f"is an option of the {backend} judge, which --judge {judge_spec} "
                             f"does not include (e.g. --judge lexical,{backend})")

    options: dict[str, dict[str, Any]] = {}
    devices = [item[2] for item in items if isinstance(item, tuple) and item[0] == DEVICE_MARK]
    for item in (item for item in items if not (isinstance(item, tuple) and item[0] == DEVICE_MARK)):
        if isinstance(item, tuple):  # (backend, keyword, value) from a typed option such as --llm-model
            flag = next((f for f, keyword, _, _ in LLM_OPTIONS if keyword == item[1]), f"--{item[0]}-{item[1]}")
            refuse_unless(item[0], flag)
            options.setdefault(item[0], {})[item[1]] = item[2]
            continue
        name, sep, text = item.partition("=")
        if name.strip() == PROFILE_OPTION and sep:
            if PROFILE_OPTION in options:
                raise OptionError("--judge-option", f"a second profile ({text.strip()!r}): give one profile=P.json")
            options[PROFILE_OPTION] = text.strip()  # type: ignore[assignment]  # a path: read where the judge is made
            continue
        backend, dot, option = name.strip().partition(".")
        if not sep or not dot or not backend or not option:
            raise OptionError("--judge-option", f"expected BACKEND.NAME=VALUE, found {item!r}")
        options.setdefault(backend, {})[option.replace("-", "_")] = _option_value(text.strip())
    if nli_model is not None:
        refuse_unless("nli", "--nli-model")
        options.setdefault("nli", {})["model_path"] = nli_model
    _spread_devices(options, devices, names if names is not None else _spec_names(profile_for))
    if PROFILE_OPTION in options and (judge_spec or profile_for) is not None:
        from ..inputs.profiles import load_profile

        load_profile(options[PROFILE_OPTION], judge_spec or profile_for)  # type: ignore[arg-type]  # a bad profile stops here
    for backend, backend_options in options.items():
        if backend == PROFILE_OPTION:
            continue
        # the options are written to manifests and shown in messages: an endpoint's credentials are held aside
        # (redact.hold_credentials) and only the HTTP client gets them back
        if isinstance(backend_options.get("base_url"), str):  # the key's value too, where the URL's path holds it
            key = os.environ.get(str(backend_options.get("api_key_env") or "OPENAI_API_KEY"))
            backend_options["base_url"] = ",".join(hold_credentials(url, (key,))
                                                   for url in backend_options["base_url"].split(","))
    return options


def _spread_devices(options: dict[str, dict[str, Any]], devices: list[str], names: list[str]) -> None:
    """``--device``'s value as the ``device`` option of each backend of ``names`` that takes one, unless its own
    ``BACKEND.device`` says otherwise."""
    from ..judges.registry import option_defaults

    for device in devices:
        for backend in names:
            if "device" in option_defaults(backend):
                options.setdefault(backend, {}).setdefault("device", device)


def _spec_names(spec: str | None) -> list[str]:
    """The backends of a judge spec (none for none, or for a spec the API will refuse with its own message)."""
    if spec is None:
        return []
    from ..judges.registry import parse_judge_spec

    try:
        return parse_judge_spec(spec)
    except OptionError:
        return []


def _option_value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "yes"):
        return True
    if lowered in ("false", "no"):
        return False
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


# --- --quiet / --verbose ----------------------------------------------------------------------------------------

# Under --quiet a stderr line survives only when it reports something wrong: a warning, an error, a conflict,
# or a located problem (``FILE:LINE: field: warning: ...``). Notes, "wrote N records -> OUT" and summaries go.
_KEEP_WHEN_QUIET = re.compile(r"^(warning|error|conflict|usage|traceback)\b|\bwarning:|^\S+:\d+: ", re.IGNORECASE)


class _QuietStderr:
    """Stands in for stderr under ``--quiet``: passes through, line by line, only what ``_KEEP_WHEN_QUIET`` keeps."""

    def __init__(self, stream: Any):
        self._stream = stream
        self._pending = ""

    def write(self, text: str) -> int:
        self._pending += text
        *lines, self._pending = self._pending.split("\n")
        for line in lines:
            if _KEEP_WHEN_QUIET.search(line):
                self._stream.write(line + "\n")
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def close_line(self) -> None:
        if self._pending and _KEEP_WHEN_QUIET.search(self._pending):
            self._stream.write(self._pending)
        self._pending = ""
        self._stream.flush()

    def isatty(self) -> bool:
        return False

    def __getattr__(self, name: str) -> Any:  # encoding, fileno, ... of the real stream
        return getattr(self._stream, name)


def verbosity_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--quiet/-q`` and ``--verbose/-v`` for any command, with one meaning everywhere.

    ``--quiet``: no progress bars and no notes or summaries on stderr (warnings and errors still print; the
    results on stdout or in ``-o`` are unchanged). ``--verbose``: the command's extra detail where it has
    some (counts per outcome, every note), then one line with the command's wall and CPU time and peak memory.
    A command that declares its own ``quiet``/``verbose`` parameters receives them (its ``--quiet`` help is
    kept); the others never see them. Decorate outside (above) ``@click.command``'s other options.

    ``--json`` too: the command's summary as one JSON object on stdout (``_output``), the same content as its
    text; a command with its own ``--json`` (an ``as_json`` parameter) keeps it, and the mode is on for both."""
    params = getattr(func, "__click_params__", [])
    existing = {param.name for param in params}
    taken = {flag for param in params for flag in param.opts}  # search's -q is --query: keep only --quiet there
    accepted = set(inspect.signature(func).parameters)

    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> Any:
        from ..progress import set_verbosity
        from ._output import set_json_mode

        quiet, verbose = bool(kwargs.get("quiet")), bool(kwargs.get("verbose"))
        if quiet and verbose:
            raise OptionError("--quiet", "--quiet and --verbose exclude each other")
        as_json = bool(kwargs.get("as_json"))
        for name in ("quiet", "verbose", "as_json"):
            if name not in accepted:
                kwargs.pop(name, None)
        set_verbosity(-1 if quiet else 1 if verbose else 0)
        set_json_mode(as_json)
        started, cpu = time.perf_counter(), time.process_time()
        saved = sys.stderr
        quiet_stderr = _QuietStderr(saved) if quiet else None
        if quiet_stderr is not None:
            sys.stderr = quiet_stderr
        try:
            return func(*args, **kwargs)
        finally:
            if quiet_stderr is not None:
                quiet_stderr.close_line()
                sys.stderr = saved
            elif verbose:
                click.echo(_usage_line(time.perf_counter() - started, time.process_time() - cpu), err=True)
            set_verbosity(0)
            set_json_mode(False)

    wrapped: Callable[..., Any] = run
    if "as_json" not in existing and "--json" not in taken:
        wrapped = click.option("--json", "as_json", is_flag=True,
                               help="Print the summary as one JSON object on stdout (the same content as the "
                                    "text: counts, tables, notes, outputs).")(wrapped)
    if "verbose" not in existing:
        wrapped = click.option("--verbose", *(() if "-v" in taken else ("-v",)), is_flag=True,
                               help="Say more: extra counts where the command has them, then wall and CPU "
                                    "time and peak memory.")(wrapped)
    if "quiet" not in existing:
        wrapped = click.option("--quiet", *(() if "-q" in taken else ("-q",)), is_flag=True,
                               help="No progress bars, notes or summaries on stderr; warnings and errors only.")(wrapped)
    return wrapped


def _usage_line(wall: float, cpu: float) -> str:
    """``done in 1.23 s (CPU 1.10 s, peak memory 87 MiB)``; peak memory where the platform reports it."""
    text = f"done in {wall:.2f} s (CPU {cpu:.2f} s"
    try:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux, bytes on macOS
        peak_mib = peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024
        text += f", peak memory {peak_mib:.0f} MiB"
    except (ImportError, OSError):
        pass
    return text + ")"
