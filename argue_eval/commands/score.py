"""``argue-eval score``: ARGUE measures from existing judgments (pure and deterministic; never calls a model)."""
from __future__ import annotations

import shlex

import click

from ._choices import SCORE_TABLE_LAYOUTS
from ._options import DEFAULTS, input_options, missing_judgments_option, policy_options, verbosity_options
from ._output import emit, json_mode, refuse_stdout_data
from ._paths import OutputPath


@click.command("score")
@verbosity_options
@input_options
@click.option("-o", "--output", required=True, type=OutputPath(), metavar="OUT.tsv",
              help="Score table (TSV: run_id request_id metric value); '-' for stdout.")
@click.option("--details", "details_path", default=None, type=OutputPath(), metavar="OUT.jsonl",
              help="Also write one JSON line per report: every sentence's outcome, its path through the "
                   "flowchart, the judgments used (with their judge) and the nuggets matched.")
@policy_options
@missing_judgments_option("A needed judgment is absent: stop and count them (error), count it as no (zero), or leave "
                          "out the reports that lack any (skip); zero/skip add a missing_judgments row.")
@click.option("--quiet", "-q", is_flag=True,
              help="Do not print the summary tables (printed on stdout when -o names a file).")
@click.option("--verbose", "-v", is_flag=True,
              help="Also print each run's count of sentences per flowchart outcome (1-8).")
@click.option("--per-topic", is_flag=True, help="Also print a table of the summary measures per run and topic.")
@click.option("--table-format", type=click.Choice(SCORE_TABLE_LAYOUTS), default="argue", show_default=True,
              help="argue: every measure, *_undefined flags, `all` rows last, counts as integers. autoargue: "
                   "exactly the rows and layout of an Auto-ARGUE *.scores.tsv (its 18 per-topic and 26 `all` "
                   "measures, `all` rows first, values as floats); with --missing-topics skip it reproduces an "
                   "Auto-ARGUE score file from its judgments file.")
def command(runs, nuggets, judgments, requests, qrels, output, details_path, policies, quiet, table_format,
            verbose=False, per_topic=False) -> None:
    """Score runs with the ARGUE flowchart from existing judgments.

    Every sentence gets an ARGUE outcome (1-8) from the judgments (canonical or Auto-ARGUE files; later
    files override earlier ones for the same judgment), and every run x topic gets the ARGUE measures
    (sentence support, nugget coverage, F1, ...), plus `all` rows with _micro and _macro aggregates.
    Scoring never calls a model: when a judgment is missing it stops and says how many of each kind
    are missing (produce them with `argue-eval assess export`), unless --missing-judgments says otherwise.

    \b
    Example (the shipped sample track):
      argue-eval score --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --judgments qrels/sample/judgments.jsonl \\
          -o scores.tsv --details details.jsonl

    Auto-ARGUE judgment files carry their reports, so without --run the reports embedded in them are
    scored: `argue-eval score --judgments run1.judgments.jsonl --nuggets nuggets-dir/ --missing-topics
    skip --table-format autoargue -o run1.scores.tsv` reproduces Auto-ARGUE's own score file.

    \b
    Auto-ARGUE's score-file layout, on the sample track:
      argue-eval score --run runs/sample/careful.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --judgments qrels/sample/judgments.jsonl --missing-topics skip --table-format autoargue \\
          -o careful.scores.tsv
    """
    from ..api import score, write_records, write_scores

    hint = "write them out for assessors with:\n  " + _export_command(
        runs, nuggets, judgments, requests, qrels, policies
    ) + "\nthen fill the pool, `argue-eval assess import` it, and pass the result as one more --judgments"
    result = score(runs, nuggets, judgments, requests=requests, qrels=qrels, details=details_path is not None,
                   missing_hint=hint, **policies)
    refuse_stdout_data(output)
    for note in result.notes:
        click.echo(str(note), err=True)
    write_scores(result.rows, output, layout=table_format)
    if details_path is not None:
        write_records(result.details, details_path)
    line = (f"scored {len(result.runs)} run(s) on {len(result.topics)} topic(s) "
            f"({result.settings['policies']})" + ("" if output == "-" else f" -> {output}"))
    if json_mode():
        emit(result, tables=_summaries(result.rows, per_topic, verbose), summary=line, output=output,
             details=details_path, policies=result.settings["policies"])
        return
    click.echo(line, err=True)
    if output != "-" and not quiet:
        _print_summaries(result.rows, per_topic, verbose)  # our layout, whatever --table-format


def _summaries(rows, per_topic: bool, verbose: bool) -> list:
    """The terminal views of the score rows: macro and micro summaries, optionally per topic and outcomes."""
    from ..views import outcome_table, summary_table, topic_table

    tables = [summary_table(rows, "macro"), summary_table(rows, "micro")]
    if verbose:
        tables.append(outcome_table(rows))
    if per_topic:
        tables.append(topic_table(rows))
    return tables


def _print_summaries(rows, per_topic: bool, verbose: bool) -> None:
    from ..tables import render_text

    click.echo("\n".join(render_text(table) for table in _summaries(rows, per_topic, verbose)), nl=False)


def _export_command(runs, nuggets, judgments, requests, qrels, policies: dict) -> str:
    """The ``assess export`` command that writes the missing judgments out for assessors: the same inputs, and the
    policies that change the questions where they are not the defaults."""
    parts = ["argue-eval", "assess", "export"]
    for run in runs:
        parts += ["--run", run]
    parts += ["--nuggets", nuggets]
    for judgment in judgments:
        parts += ["--judgments", judgment]
    if requests:
        parts += ["--requests", requests]
    if qrels:
        parts += ["--qrels", qrels]
    for name in ("relevance", "nugget_scope", "unbound_questions", "evaluated_topics"):
        if policies[name] != getattr(DEFAULTS, name):
            parts += [f"--{name.replace('_', '-')}", policies[name]]
    parts += ["-o", "pool.jsonl"]
    return " ".join(shlex.quote(str(part)) for part in parts)
