"""``argue-eval nuggetizer``: TREC RAG nuggetizer scores from nuggetizer assignment files."""
from __future__ import annotations

import click


@click.command("nuggetizer")
@click.argument("assignments", nargs=-1, required=True, metavar="ASSIGNMENTS...")
@click.option("-o", "--output", required=True, metavar="OUT.tsv", help="Score table (long TSV); '-' for stdout.")
@click.option("--details", "details_path", default=None, metavar="D.jsonl",
              help="One JSON line per run x topic: every nugget, its importance, assignment and credit.")
@click.option("--okay-weight", type=click.FloatRange(0, 1), default=0.5, show_default=True,
              help="Weight of an okay nugget in the weighted score (a vital one weighs 1).")
@click.option("--quiet", "-q", is_flag=True, help="Do not print the summary table.")
def command(assignments, output, details_path, okay_weight, quiet) -> None:
    """Score nuggetizer assignments as TREC RAG does: vital, all, strict_vital, strict_all, weighted.

    Reads nuggetizer's assignment output (one answer per line: qid, run_id, nuggets with importance
    and assignment support / partial_support / not_support). Partial support earns 0.5 except in the
    strict scores. A nugget nuggetizer could not grade ("failed") is counted in unjudged_nuggets and
    left out of the denominators, never scored as unsupported. Writes the long TSV that `compare`
    and `agree` read.

    \b
    Example:
      argue-eval nuggetizer run-a.assignments.jsonl run-b.assignments.jsonl -o nuggetizer.tsv
      argue-eval compare nuggetizer.tsv --metric all
    """
    from ..errors import ArgueError
    from ..formats.assignments import read_assignments
    from ..measures import TopicCounts, family_rows
    from ..measures.nuggetizer import counts, details, family
    from ._measures import summary, write_outputs

    seen: dict[tuple[str, str], str] = {}
    results = []
    records = []
    for path in assignments:
        for answer in read_assignments(path):
            key = (answer.run_id, answer.request_id)
            if key in seen:
                raise ArgueError(f"{answer.path}:{answer.line}: qid: run {answer.run_id!r} has a second answer for "
                                 f"topic {answer.request_id!r} (first at {seen[key]})")
            seen[key] = f"{answer.path}:{answer.line}"
            results.append(TopicCounts(answer.run_id, answer.request_id, counts(answer.nuggets, okay_weight)))
            records.append(details(answer.run_id, answer.request_id, answer.nuggets, okay_weight))
    from ..model import natural_key

    order = sorted(range(len(results)), key=lambda i: (results[i].run_id, natural_key(results[i].request_id)))
    rows = family_rows(family(okay_weight), [results[i] for i in order])
    header = {"measure": "nuggetizer", "settings": {"okay_weight": okay_weight, "partial_credit": 0.5}}
    write_outputs(rows, output, [header] + [records[i] for i in order], details_path)
    unjudged = sum(r.counts["unjudged_nuggets"] for r in results)
    click.echo(f"nuggetizer: {len({r.run_id for r in results})} run(s), {len(results)} answer(s); {unjudged} "
               "nugget(s) could not be graded" + ("" if output == "-" else f" -> {output}"), err=True)
    if output != "-" and not quiet:
        click.echo(summary(rows, ["all_macro", "vital_macro", "strict_all_macro", "strict_vital_macro",
                                  "weighted_macro"], "nuggetizer scores, macro averages over topics:"), nl=False)
