"""``argue-eval score``: ARGUE measures from existing judgments (pure and deterministic; never calls a model)."""
from __future__ import annotations

import shlex
import sys

import click

from ..argue.policies import MISSING_JUDGMENTS
from ..formats.scores import SCORE_TABLE_LAYOUTS
from ..model import ALL_TOPICS
from ._options import input_options, policy_options, verbosity_options
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
@click.option("--missing-judgments", type=click.Choice(MISSING_JUDGMENTS), default="error", show_default=True,
              help="A needed judgment is absent: stop and count them (error), count it as no (zero), or leave "
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
def command(runs, nuggets, judgments, requests, qrels, output, details_path, relevance, nugget_scope,
            missing_topics, evaluated_topics, unbound_questions, weights, missing_judgments, quiet, table_format,
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
    from ..api import make_policies
    from ..argue.api import run_scoring
    from ..argue.policies import parse_weights
    from ..formats.scores import autoargue_rows, score_lines, write_scores_tsv
    from ..writing import write_jsonl

    policies = make_policies(relevance=relevance, nugget_scope=nugget_scope, missing_topics=missing_topics,
                             missing_judgments=missing_judgments, unbound_questions=unbound_questions,
                             evaluated_topics=evaluated_topics, weights=parse_weights(weights))
    from ..inputs import load_inputs

    inputs = load_inputs(runs, nuggets, judgments, requests, qrels, policies)
    hint = "write them out for assessors with:\n  " + _export_command(
        runs, nuggets, judgments, requests, qrels, policies
    ) + "\nthen fill the pool, `argue-eval assess import` it, and pass the result as one more --judgments"
    result = run_scoring(inputs.reports(), inputs.evaluation, inputs.source, details=details_path is not None,
                         missing_hint=hint)
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    rows = autoargue_rows(result.rows) if table_format == "autoargue" else result.rows
    if output == "-":
        sys.stdout.writelines(score_lines(rows))
    else:
        write_scores_tsv(rows, output)
    if details_path is not None:
        write_jsonl(details_path, result.details)
    runs_scored = len({row[0] for row in result.rows})
    topics_scored = len({row[1] for row in result.rows if row[1] != ALL_TOPICS})
    click.echo(f"scored {runs_scored} run(s) on {topics_scored} topic(s) "
               f"({policies.describe()})" + ("" if output == "-" else f" -> {output}"), err=True)
    if output != "-" and not quiet:
        _print_summaries(result.rows, per_topic, verbose)


def _print_summaries(rows, per_topic: bool, verbose: bool) -> None:
    """The terminal views of the score rows: macro and micro summaries, optionally per topic and outcomes."""
    from ..tables import render_text
    from ..views import outcome_table, summary_table, topic_table

    tables = [summary_table(rows, "macro"), summary_table(rows, "micro")]
    if verbose:
        tables.append(outcome_table(rows))
    if per_topic:
        tables.append(topic_table(rows))
    click.echo("\n".join(render_text(table) for table in tables), nl=False)


def _export_command(runs, nuggets, judgments, requests, qrels, policies) -> str:
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
    if policies.relevance != "nuggets":
        parts += ["--relevance", policies.relevance]
    if policies.nugget_scope != "cited":
        parts += ["--nugget-scope", policies.nugget_scope]
    if policies.unbound_questions != "drop":
        parts += ["--unbound-questions", policies.unbound_questions]
    if policies.evaluated_topics != "judged":
        parts += ["--evaluated-topics", policies.evaluated_topics]
    parts += ["-o", "pool.jsonl"]
    return " ".join(shlex.quote(str(part)) for part in parts)
