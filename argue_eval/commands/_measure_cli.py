"""What the measure commands (``icat``, ``longrecall``, ``comprehensiveness``, ``nuggetizer``) share on the
command line: the judge and cache options, and how a measure's result is written and shown.

The measures' work is the Python API's (``argue_eval.api``); these helpers turn options into the API's
arguments and the result into the long TSV, the details JSONL, notes on stderr and a summary table.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from ._paths import UpdatedPath, default_cache_path

__all__ = ["measure_judge_options", "judge_arguments", "echo_note", "write_outputs", "summary", "summary_table", "unjudged_by_run",
           "finish"]


def measure_judge_options(func: Any) -> Any:
    """``--judge``, ``--judge-option``, ``--nli-model``, ``--device``, ``--cache``/``--no-cache`` (as ``judge`` has
    them)."""
    from ._options import device_option

    options = [
        click.option("--judge", "judge_spec", default="lexical", show_default=True, metavar="JUDGE",
                     help="Judge backend for entailment: lexical (offline), semantic, nli (--nli-model), llm, "
                          "or a comma list for a cascade."),
        click.option("--judge-option", "judge_option", multiple=True, metavar="BACKEND.NAME=VALUE",
                     help="A backend option, e.g. lexical.attested_threshold=0.5; repeatable. profile=P.json: "
                          "the options a `judge calibrate` profile fitted."),
        click.option("--nli-model", default=None, metavar="PATH",
                     help="Local directory of a transformers NLI model (for --judge nli); never downloaded."),
        click.option("--cache", "cache_path", default=None, metavar="PATH",
                     type=UpdatedPath(default=default_cache_path, disabled_by="no_cache"),
                     help="SQLite judgment cache shared with `judge` (answers committed before use). "
                          "Default: .argue-cache/judgments.sqlite."),
        click.option("--no-cache", is_flag=True, help="Do not read or write the judgment cache."),
    ]
    func = device_option(func)  # listed after the options above in --help
    for option in reversed(options):
        func = option(func)
    return func


def judge_arguments(judge_spec: str, judge_option: tuple[str, ...], nli_model: str | None, cache_path: str | None,
                    no_cache: bool) -> dict[str, Any]:
    """The API's ``judge``, ``judge_options`` and ``cache`` from ``measure_judge_options``' options."""
    from ._options import parse_judge_options

    options = parse_judge_options(judge_option, nli_model, profile_for=judge_spec)  # a bad profile stops here
    return {"judge": judge_spec, "judge_options": options, "cache": None if no_cache else (cache_path or default_cache_path())}


def echo_note(note: Any) -> None:
    """A note or warning of a measure run on stderr (``--quiet`` keeps the warnings)."""
    click.echo(str(note), err=True)


def write_outputs(result: Any, output: str, details_path: str | None) -> None:
    """The long TSV (``-`` for stdout) and, when asked, the details JSONL, each written atomically."""
    from ..api import write_records, write_scores
    from ._output import refuse_stdout_data

    refuse_stdout_data(output)
    write_scores(result.rows, output)
    if details_path is not None:
        write_records(result.records(), details_path)


def summary(rows: list[tuple[str, str, str, float]], metrics: Sequence[str], title: str,
            unjudged: dict[str, str] | None = None) -> str:
    """A small leaderboard of ``all`` rows for the terminal (the TSV stays the record); with ``unjudged`` (run
    -> what its scores leave out), a column that flags the runs scored on judged items only."""
    from ..tables import render_text

    return render_text(summary_table(rows, metrics, title, unjudged))


def summary_table(rows: list[tuple[str, str, str, float]], metrics: Sequence[str], title: str,
                  unjudged: dict[str, str] | None = None) -> Any:
    """The ``Table`` that ``summary`` renders (``--json`` prints it as it is)."""
    from ..api import ALL_TOPICS
    from ..tables import Cell, Table, fmt_number

    aggregates: dict[str, dict[str, float]] = {}
    for run_id, request_id, metric, value in rows:
        if request_id == ALL_TOPICS:
            aggregates.setdefault(run_id, {})[metric] = value
    first = metrics[0]
    order = sorted(aggregates, key=lambda run: (-float(aggregates[run].get(first, 0.0)), run))
    flagged = {run: text for run, text in (unjudged or {}).items() if text}
    table_rows: list[list[Cell]] = [
        [run, str(int(aggregates[run].get("topics", 0))),
         *(fmt_number(float(aggregates[run][m]), 3) if m in aggregates[run] else None for m in metrics),
         *([flagged.get(run, "")] if flagged else [])]
        for run in order
    ]
    notes = ["a run with unjudged items is scored on the judged ones only (see the warnings): its scores can "
             "change when they are judged"] if flagged else []
    return Table(columns=["run_id", "topics", *metrics, *(["unjudged"] if flagged else [])],
                 rows=table_rows, align="lr" + "r" * len(metrics) + ("l" if flagged else ""), title=title, notes=notes)


def unjudged_by_run(rows: list[tuple[str, str, str, float]], counts: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Per run, what its scores leave out, from its ``all`` rows: ``counts`` are (count metric, noun) pairs,
    e.g. ``("unjudged_claims", "claim")`` gives ``"3 claim(s)"`` (empty for a run that misses nothing)."""
    from ..api import ALL_TOPICS

    totals: dict[str, dict[str, float]] = {}
    for run_id, request_id, metric, value in rows:
        if request_id == ALL_TOPICS:
            totals.setdefault(run_id, {})[metric] = value
    return {run: ", ".join(f"{int(values[metric])} {noun}(s)" for metric, noun in counts if values.get(metric))
            for run, values in totals.items()}


def finish(result: Any, output: str, quiet: bool, line: str, metrics: Sequence[str], title: str,
           unjudged: dict[str, str] | None = None) -> None:
    """The command's summary line on stderr (with ``-> OUT`` for a file), then, for a file and unless ``quiet``,
    the leaderboard of ``metrics`` on stdout; exit status 1 when something could not be judged (the warnings
    said what and why), as ``judge`` does. With ``--json``: the line, the leaderboard and the counts as one object
    on stdout."""
    from ._output import emit, json_mode

    if json_mode():
        emit(result, tables=[summary_table(result.rows, metrics, title, unjudged)], summary=line, output=output)
    else:
        click.echo(line + ("" if output == "-" else f" -> {output}"), err=True)
    if output != "-" and not quiet and not json_mode():
        click.echo(summary(result.rows, metrics, title, unjudged), nl=False)
    if not result.complete:
        raise click.exceptions.Exit(1)
