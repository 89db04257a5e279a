"""``argue-eval nuggetizer``: TREC RAG nuggetizer scores from nuggetizer assignment files."""
from __future__ import annotations

import click

from ._measure_cli import measure_judge_options
from ._options import Number, verbosity_options
from ._paths import InputPath, OutputPath


@click.command("nuggetizer")
@verbosity_options
@click.argument("assignments", nargs=-1, type=InputPath(), metavar="[ASSIGNMENTS]...")
@click.option("--run", "runs", multiple=True, type=InputPath(), metavar="RUN",
              help="Judge the assignments ourselves for this run (repeatable), instead of reading them.")
@click.option("--nuggets", default=None, type=InputPath(folder=True), metavar="N", help="With --run: the nuggets (their importance labels).")
@click.option("--collection", default=None, type=InputPath(folder=True), metavar="C", help="With --run: the documents the runs cite.")
@click.option("-o", "--output", required=True, type=OutputPath(), metavar="OUT.tsv", help="Score table (long TSV); '-' for stdout.")
@click.option("--details", "details_path", default=None, type=OutputPath(), metavar="D.jsonl",
              help="One JSON line per run x topic: every nugget, its importance, assignment and credit.")
@click.option("--okay-weight", type=Number(0, 1), default=0.5, show_default=True,
              help="Weight of an okay nugget in the weighted score (a vital one weighs 1).")
@measure_judge_options
@click.option("--quiet", "-q", is_flag=True, help="Do not print the summary table.")
def command(assignments, runs, nuggets, collection, output, details_path, okay_weight, judge_spec, judge_option,
            nli_model, cache_path, no_cache, quiet) -> None:
    """Score nuggetizer assignments as TREC RAG does: vital, all, strict_vital, strict_all, weighted.

    Reads nuggetizer's assignment output (one answer per line: qid, run_id, nuggets with importance
    and assignment support / partial_support / not_support). Partial support earns 0.5 except in the
    strict scores. A nugget nuggetizer could not grade ("failed") is counted in unjudged_nuggets and
    left out of the denominators, never scored as unsupported. Writes the long TSV that `compare`
    and `agree` read.

    With --run, --nuggets and --collection the assignments are judged by our judge (--judge): support
    when a sentence gives the nugget (an answer, or the statement) and a document it cites attests that
    sentence; partial_support when it is given but not attested; not_support when no sentence gives it.

    Nuggetizer's own assignment files are scored as they are: argue-eval nuggetizer
    run-a.assignments.jsonl run-b.assignments.jsonl -o nuggetizer.tsv.

    \b
    Example on the sample track (assignments judged by the offline lexical judge):
      argue-eval nuggetizer --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --collection topics/sample/collection.jsonl -o nuggetizer.tsv
      argue-eval compare nuggetizer.tsv --metric all
    """
    from ..api.nuggetizer import nuggetizer
    from ._measure_cli import echo_note, finish, judge_arguments, write_outputs

    if runs:  # --run runs/*.jsonl: the shell puts the other files after the first as arguments
        runs, assignments = tuple(runs) + tuple(assignments), ()
    result = nuggetizer(list(assignments), runs=list(runs), nuggets=nuggets, collection=collection,
                        okay_weight=okay_weight, on_note=echo_note,
                        **judge_arguments(judge_spec, judge_option, nli_model, cache_path, no_cache))
    write_outputs(result, output, details_path)
    shown = ["all_macro", "vital_macro", "strict_all_macro", "strict_vital_macro", "weighted_macro"]
    if result.counts["vital_undefined_everywhere"]:  # a column of zeros would mislead; the note says why
        shown = [metric for metric in shown if "vital" not in metric]
    finish(result, output, quiet,
           f"nuggetizer: {len(result.runs)} run(s), {result.counts['answers']} answer(s); "
           f"{result.counts['unjudged_nuggets']} nugget(s) could not be graded",
           shown, "nuggetizer scores, macro averages over topics:")
