"""``argue-eval evaluate``: judge + score in one command (the participant's local evaluation)."""
from __future__ import annotations

from typing import Any

import click

from ._options import (
    input_options,
    judge_options,
    missing_judgments_option,
    parse_judge_options,
    policy_options,
    verbosity_options,
)
from ._output import emit, json_mode
from ._paths import OutputPath


@click.command("evaluate")
@verbosity_options
@input_options
@judge_options
@click.option("-o", "--output", required=False, default=None, type=OutputPath(), metavar="OUT.tsv",
              help="Score table (TSV: run_id request_id metric value); '-' for stdout.")
@click.option("--judgments-out", default=None, type=OutputPath(companions={".manifest.json": None}), metavar="J.jsonl",
              help="Also write the judge's judgments (canonical JSONL, reusable with `score`).")
@click.option("--details", "details_path", default=None, type=OutputPath(), metavar="D.jsonl",
              help="Also write one JSON line per report: outcomes, flowchart paths, judges, nuggets matched.")
@policy_options
@missing_judgments_option("A question nobody could answer (a cited document missing from the collection, a judge "
                          "failure): stop (error), count it as no (zero), or leave out the report (skip).")
@click.option("--quiet", "-q", is_flag=True, help="Do not print the summary table.")
@click.option("--html", "html_path", default=None, type=OutputPath(), metavar="REPORT.html",
              help="Also write the self-contained HTML report (leaderboard, heatmap, every report's sentences with "
                   "the judge's answers and rationales; see `argue-eval report`).")
def command(runs, nuggets, judgments, requests, qrels, collection, judge_spec, judge_option, nli_model, cache_path,
            no_cache, dry_run, as_json, output, judgments_out, details_path, policies, quiet, html_path=None) -> None:
    """Evaluate runs: judge them with an automatic judge, then score them with ARGUE.

    The same as `argue-eval judge` followed by `argue-eval score` on its judgments, in one command.
    Judgments given with --judgments (human assessors, Auto-ARGUE) take precedence wherever they answer
    a question; the judge answers the rest. Answers are cached (--cache), so a second evaluation of a
    changed run judges only its new sentences.

    \b
    Example (the shipped sample track, offline default judge):
      argue-eval evaluate --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl \\
          -o scores.tsv --judgments-out judgments.lexical.jsonl --html report.html
      argue-eval compare scores.tsv --metric f1
    """
    from ..api import evaluate, plan
    from . import _judging as shared

    options = parse_judge_options(judge_option, nli_model, judge_spec)
    cache = shared.cache_in_use(cache_path, no_cache)  # outputs against inputs: cli.py's check_paths, already run
    shared.check_run_options(dry_run, as_json, output, collection, "OUT.tsv (where to write the scores)")
    given = dict(judgments=list(judgments), requests=requests, qrels=qrels, collection=collection, judge=judge_spec,
                 judge_options=options, cache=cache, **policies)
    if dry_run:
        shared.print_plan(plan(list(runs) if runs else None, nuggets, **given), as_json)
        return
    result = evaluate(list(runs) if runs else None, nuggets, details=details_path is not None or html_path is not None,
                      missing_hint=lambda judged: _missing_hint(judged, judge_spec),
                      on_note=lambda note: click.echo(str(note), err=True), **given)
    judged = result.judged
    outputs = {"-o": output, "--judgments-out": judgments_out, "--details": details_path, "--html": html_path}
    _write_outputs(result, outputs, judge_spec, options, collection, list(judgments))
    line = (f"judged with {judged.identity.get('backend', '?')} ({judged.run.stats.summary()}); scored "
            f"{len(result.runs)} run(s)" + ("" if output == "-" else f" -> {output}"))
    if json_mode():
        from ..views import summary_table

        judging = shared.run_document(judged, judgments_out)
        emit(result, tables=[summary_table(result.rows)], summary=line, output=output, judgments_out=judgments_out,
             details=details_path, html=html_path, judging={key: judging[key] for key in ("counts", "kinds", "usage")})
        return
    click.echo(line, err=True)
    if output != "-" and not quiet:
        from ..tables import render_text
        from ..views import summary_table

        click.echo(render_text(summary_table(result.rows)), nl=False)


def _missing_hint(result: Any, judge_spec: str) -> str:
    """What to do when judgments are missing: another judge for the kinds this one does not answer, else fix
    what the warnings name (a cited document missing from the collection) and evaluate again."""
    unanswerable = sorted({f.key.kind for f in result.run.failures if "does not answer" in f.reason})
    if unanswerable:  # evaluating again cannot help: another judge must answer those kinds
        return (f"put a judge that answers {', '.join(unanswerable)} questions before the {judge_spec} judge "
                f"(--judge lexical,{judge_spec}), or give --judgments that answer them")
    return "fix what the warnings above name (e.g. a cited document missing from the collection) and evaluate again"


def _write_outputs(result: Any, outputs: dict[str, str | None], judge_spec: str,
                   options: dict[str, Any], collection: str, judgments: list[str]) -> None:
    """Every output of the evaluation as one set (``writing.commit_together``): the judgments and their manifest,
    the scores, the details and the report appear together, or (a write failed, a kill) none of them does."""
    from ..api import commit_together, read_judgment_files, write_judgments, write_records, write_scores

    output, judgments_out, details_path, html_path = (outputs[flag] for flag in ("-o", "--judgments-out", "--details",
                                                                                  "--html"))
    judged = result.judged
    with commit_together():
        if judgments_out is not None:
            write_judgments(judged, judgments_out, judge_spec, options)
        if output is not None:
            write_scores(result.rows, output)
        if details_path is not None:
            write_records(result.details, details_path)
        if html_path is not None:
            from ..report import write_report

            # the judge's answers first, then the given files: their answers took precedence in scoring too
            write_report(html_path, result.rows, collection=collection, details=result.details,
                         requests=judged.inputs.evaluation.requests.values(), nuggets=judged.inputs.nuggets,
                         judgments=list(judged.run.judgments) + list(read_judgment_files(judgments)))
