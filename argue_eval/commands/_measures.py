"""Input assembly for the alternate measures (``icat``, ``longrecall``): files -> records the measures take.

The measures themselves (``argue_eval.measures``) never read files; this module reads runs, nuggets,
requests and collections, builds the judge-backed entailer, and writes the long TSV and details JSONL, so
the two commands stay thin and share one behaviour (topic order, missing topics, errors).
"""
from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from typing import Any

import click

from ..errors import ArgueError, InputError, OptionError
from ..model import ALL_TOPICS, Report, TopicNuggets, natural_key
from ._paths import UpdatedPath, default_cache_path

__all__ = ["measure_judge_options", "open_cache", "read_runs", "read_nugget_topics", "make_entailer_judge", "make_llm_tasks", "llm_units",
           "write_outputs", "report_sentences",
           "topic_order"]


def run_paths(runs: Sequence[str], more_runs: Sequence[str]) -> tuple[str, ...]:
    """The run files of ``--run`` and of the trailing arguments a shell glob expands to; at least one."""
    paths = tuple(runs) + tuple(more_runs)
    if not paths:
        raise ArgueError("--run: give at least one run file")
    return paths


def read_runs(paths: Sequence[str]) -> list[Report]:
    """Every report of every run file, in file order; a run x topic given twice is a located error."""
    from ..formats import read_reports

    reports: list[Report] = []
    seen: dict[tuple[str, str], str] = {}
    for path in paths:
        for report in read_reports(path):
            key = (report.run_id, report.request_id)
            where = str(report.source) if report.source is not None else path
            if key in seen:
                raise InputError(path, report.source.line if report.source else None, "request_id",
                                 f"run {report.run_id!r} has two reports for topic {report.request_id!r} "
                                 f"(first at {seen[key]})")
            seen[key] = where
            reports.append(report)
    return reports


def read_nugget_topics(path: str) -> dict[str, TopicNuggets]:
    from ..formats import read_nuggets

    topics: dict[str, TopicNuggets] = {}
    for topic in read_nuggets(path):
        if topic.request_id in topics:
            raise InputError(path, topic.source.line if topic.source else None, "request_id",
                             f"nuggets for topic {topic.request_id} given twice")
        topics[topic.request_id] = topic
    return topics


def report_sentences(report: Report) -> list[str]:
    """The report's sentences as claims/facts (blank ones dropped)."""
    return [" ".join(sentence.text.split()) for sentence in report.sentences if sentence.text.strip()]


def topic_order(topics: Iterable[str]) -> list[str]:
    return sorted(set(topics), key=natural_key)


def measure_judge_options(func: Any) -> Any:
    """``--judge``, ``--judge-option``, ``--nli-model``, ``--cache``/``--no-cache`` (as ``judge`` has them)."""
    options = [
        click.option("--judge", "judge_spec", default="lexical", show_default=True, metavar="JUDGE",
                     help="Judge backend for entailment: lexical (offline), semantic, nli (--nli-model), llm, "
                          "or a comma list for a cascade."),
        click.option("--judge-option", "judge_option", multiple=True, metavar="BACKEND.NAME=VALUE",
                     help="A backend option, e.g. lexical.attested_threshold=0.5; repeatable."),
        click.option("--nli-model", default=None, metavar="PATH",
                     help="Local directory of a transformers NLI model (for --judge nli); never downloaded."),
        click.option("--cache", "cache_path", default=None, metavar="PATH",
                     type=UpdatedPath(default=default_cache_path, disabled_by="no_cache"),
                     help="SQLite judgment cache shared with `judge` (answers committed before use). "
                          "Default: .argue-cache/judgments.sqlite."),
        click.option("--no-cache", is_flag=True, help="Do not read or write the judgment cache."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def open_cache(cache_path: str | None, no_cache: bool) -> Any:
    """The judgment cache the options name (``None`` with ``--no-cache``)."""
    if no_cache:
        return None
    from ..judges.cache import DEFAULT_CACHE_PATH, JudgmentCache

    return JudgmentCache(cache_path or DEFAULT_CACHE_PATH)


def make_entailer_judge(spec: str, judge_option: tuple[str, ...] = (), nli_model: str | None = None,
                        also: tuple[str, ...] = ()) -> Any:
    """The judge backend named by ``--judge``, or a one-line error when that backend is not available.

    ``also`` names backends whose ``--judge-option``s are meant for another use (the LLM tasks) and are
    not an error when ``--judge`` does not name them.
    """
    from ..judges.registry import make_judge, parse_judge_spec
    from ._options import parse_judge_options

    options = parse_judge_options(judge_option, nli_model)
    names = parse_judge_spec(spec)
    for name in also:
        if name not in names:
            options.pop(name, None)
    try:
        return make_judge(spec, options)
    except ModuleNotFoundError as error:
        if error.name and error.name.startswith("argue_eval."):
            raise ArgueError(f"--judge: the {spec!r} judge is not available in this version of argue-eval "
                             f"({error.name} is missing)") from None
        raise ArgueError(f"--judge: the {spec!r} judge needs a package that is not installed: {error.name}; "
                         "install the matching extra (see README: Install)") from None


def make_llm_tasks(judge: Any, judge_option: tuple[str, ...], cache: Any) -> Any:
    """The LLM tasks (claims, aspects, multiple choice, coverage) on the ``llm`` backend: the entailment
    judge itself when it is (or includes) the LLM judge, else one built from the ``llm.*`` judge options."""
    import importlib.util

    from ..errors import MissingDependencyError
    from ..judges.llm import LLMJudge
    from ..judges.llm_tasks import LLMTasks
    from ._options import parse_judge_options

    members = [judge, *getattr(judge, "judges", ())]
    llm: Any = next((member for member in members if isinstance(member, LLMJudge)), None)
    if llm is None:
        from ..judges.registry import make_judge

        options = parse_judge_options(judge_option, None).get("llm", {})
        if not options.get("model"):
            raise OptionError("--judge-option", "the LLM tasks need the served model's name: "
                             "--judge-option llm.model=NAME (and llm.base_url=http://HOST:PORT/v1)")
        llm = make_judge("llm", {"llm": options})
    if llm.base_url is None:
        raise OptionError("--judge-option", "the LLM tasks need the endpoint: --judge-option llm.base_url=http://HOST:PORT/v1")
    if importlib.util.find_spec("aiohttp") is None:  # after the options, before any report is read or call made
        raise MissingDependencyError("the LLM tasks (--claims llm, --aspects llm, --e2e, multiple choice)", "llm",
                                     "no module named 'aiohttp'")
    from ..progress import progress_bar

    tasks = LLMTasks(llm, cache=cache)
    bar = progress_bar("LLM calls", unit="call")
    tasks.progress = bar.update  # a bar with no total: the cache decides how many calls there are
    return tasks


def llm_units(reports: Sequence[tuple[str, Sequence[str]]], tasks: Any) -> tuple[list[list[str]], int]:
    """``--claims llm`` for LongRecall and comprehensiveness: each report's atomic claims, a sentence the LLM
    could not split kept whole (noted on stderr); and how many sentences were kept whole."""
    from ..measures.generated import claims_or_sentences, decompose_reports

    split = decompose_reports(reports, tasks)
    kept = sum(len(parts.failed) for parts in split)
    if kept:
        echo_warning(f"the LLM could not split {kept} sentence(s) into claims: each is kept whole, and asked again "
                  "on the next run")
    return [claims_or_sentences(parts) for parts in split], kept


def write_outputs(rows: list[tuple[str, str, str, float]], output: str, details: list[dict[str, Any]] | None,
                  details_path: str | None) -> None:
    """The long TSV (``-`` for stdout) and, when asked, the details JSONL, each written atomically."""
    from ..formats.scores import score_lines, write_scores_tsv
    from ..writing import write_jsonl

    if output == "-":
        sys.stdout.writelines(score_lines(rows))
    else:
        write_scores_tsv(rows, output)
    if details_path is not None and details is not None:
        write_jsonl(details_path, details)


def summary(rows: list[tuple[str, str, str, float]], metrics: Sequence[str], title: str) -> str:
    """A small leaderboard of ``all`` rows for the terminal (the TSV stays the record)."""
    from ..tables import Cell, Table, fmt_number, render_text

    aggregates: dict[str, dict[str, float]] = {}
    for run_id, request_id, metric, value in rows:
        if request_id == ALL_TOPICS:
            aggregates.setdefault(run_id, {})[metric] = value
    first = metrics[0]
    order = sorted(aggregates, key=lambda run: (-float(aggregates[run].get(first, 0.0)), run))
    table_rows: list[list[Cell]] = [
        [run, str(int(aggregates[run].get("topics", 0))),
         *(fmt_number(float(aggregates[run][m]), 3) if m in aggregates[run] else None for m in metrics)]
        for run in order
    ]
    return render_text(Table(columns=["run_id", "topics", *metrics], rows=table_rows,
                             align="lr" + "r" * len(metrics), title=title))


def echo_note(message: str) -> None:
    click.echo(f"note: {message}", err=True)


def echo_warning(message: str) -> None:
    """What the user must see even with ``--quiet`` (a model that could not answer: results are missing)."""
    click.echo(f"warning: {message}", err=True)


def warn_llm_failures(tasks: Any) -> None:
    """One warning line when LLM tasks failed (their items are unjudged or left out, never zero)."""
    if tasks is not None and tasks.failed:
        failures = tasks.judge.usage()["failures"]
        reason = f" (first: {failures[0]['reason']})" if failures else ""
        echo_warning(f"{tasks.failed} LLM task(s) failed after a re-ask or retries{reason}; they count as "
                     "unjudged and are asked again on the next run")
