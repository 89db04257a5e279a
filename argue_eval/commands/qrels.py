"""``argue-eval qrels``: build qrels from assessments or nuggets, merge them, summarize them."""
from __future__ import annotations

import click

from ._options import verbosity_options
from ._paths import InputPath, OutputPath

on_duplicate_option = click.option(
    "--on-duplicate",
    type=click.Choice(["error", "max", "last"]),
    default="error",
    show_default=True,
    help="A (topic, document) pair judged twice: stop with an error, keep the highest grade, or keep the last one.",
)


@click.group(name="qrels")
def command() -> None:
    """Build, merge and summarize qrels (TREC 4-column: topic iteration doc_id grade).

    \b
    Example on the sample track:
      argue-eval qrels from-nuggets nuggets/sample/nuggets.jsonl -o qrels.trec
      argue-eval qrels stats qrels.trec
      argue-eval qrels merge qrels.trec qrels/sample/qrels.trec --on-duplicate max -o merged.trec
    """


@command.command(name="build")
@verbosity_options
@click.argument("assessments", nargs=-1, required=True, type=InputPath(exists=True, dir_okay=False))
@click.option("-o", "--output", required=True, type=OutputPath(dir_okay=False), help="Qrels file to write.")
@click.option("--pool", type=InputPath(exists=True, dir_okay=False), default=None,
              help="The pool that was assessed (from `argue-eval pool`): every pooled document must be judged.")
@click.option("--unjudged", type=click.Choice(["error", "drop", "nonrelevant"]), default="error", show_default=True,
              help="Pooled documents without a judgment: stop, leave them out, or judge them 0.")
@on_duplicate_option
def build_command(assessments: tuple[str, ...], output: str, pool: str | None, unjudged: str, on_duplicate: str) -> None:
    """Qrels from assessor judgments: the assessor package (JSONL or CSV from `pool --package`) with its
    `relevance` column filled in, or TREC qrels lines. Rows with an empty relevance are not yet judged.

    With --pool, pooled documents nobody judged are reported (an error by default) and judgments of
    documents outside the pool are kept with a warning.

    \b
    Example:
      argue-eval pool runs/sample/*.jsonl --package pool.csv -o pool.qrels
      # assessors fill the relevance column of pool.csv with grades (0, 1, 2)
      argue-eval qrels build --pool pool.qrels pool.csv -o qrels.trec
    """
    from ..organizer.qrels import build_qrels, read_assessments, read_qrels, write_qrels

    pooled = read_qrels(pool) if pool else None
    files = [read_assessments(path, on_duplicate) for path in assessments]  # type: ignore[arg-type]
    result = build_qrels(pooled, files, unjudged, on_duplicate)  # type: ignore[arg-type]
    if result.outside:
        shown = ", ".join(f"{t}/{d}" for t, d in result.outside[:10])
        click.echo(f"warning: {len(result.outside)} judged document(s) are not in the pool (kept): {shown}", err=True)
    if result.unjudged:
        what = "left out" if unjudged == "drop" else "judged 0"
        click.echo(f"warning: {len(result.unjudged)} pooled document(s) were not judged ({what})", err=True)
    count = write_qrels(result.qrels, output)
    click.echo(f"wrote {count} judgments for {len(result.qrels)} topics -> {output}", err=output == "-")  # with -o -, stdout holds the data


@command.command(name="from-nuggets")
@verbosity_options
@click.argument("nuggets", type=InputPath(exists=True, folder=True))
@click.option("-o", "--output", required=True, type=OutputPath(dir_okay=False), help="Qrels file to write.")
@click.option("--grade", type=click.Choice(["count", "weighted"]), default="count", show_default=True,
              help="count: number of nuggets whose answers the document attests; weighted: the same with vital = 2, okay = 1.")
@click.option("--format", "format_name", default=None, metavar="NAME", help="The nugget file's format, if detection should not guess.")
def from_nuggets_command(nuggets: str, output: str, grade: str, format_name: str | None) -> None:
    """Qrels derived from a nugget bank's answer-document bindings: a document is relevant to a topic
    when it attests an answer of one of the topic's nuggets.

    \b
    Example:
      argue-eval qrels from-nuggets nuggets/sample/nuggets.jsonl --grade weighted -o qrels.trec
    """
    from ..formats import read_nuggets
    from ..organizer.qrels import qrels_from_nuggets, write_qrels

    qrels = qrels_from_nuggets(read_nuggets(nuggets, format_name), grade)  # type: ignore[arg-type]
    count = write_qrels(qrels, output)
    click.echo(f"wrote {count} judgments for {len(qrels)} topics -> {output}", err=output == "-")  # with -o -, stdout holds the data


@command.command(name="merge")
@verbosity_options
@click.argument("qrels_files", nargs=-1, required=True, type=InputPath(exists=True, dir_okay=False))
@click.option("-o", "--output", required=True, type=OutputPath(dir_okay=False), help="Qrels file to write.")
@on_duplicate_option
def merge_command(qrels_files: tuple[str, ...], output: str, on_duplicate: str) -> None:
    """Merge qrels files. The same grade for a pair in several files agrees; different grades are a
    conflict, an error unless --on-duplicate max|last (last: the later file wins). Resolved conflicts
    are listed on stderr.

    \b
    Example on the sample track (the assessors' grades win over those derived from the nuggets):
      argue-eval qrels from-nuggets nuggets/sample/nuggets.jsonl -o from-nuggets.trec
      argue-eval qrels merge from-nuggets.trec qrels/sample/qrels.trec --on-duplicate last -o qrels.trec
    """
    from ..organizer.qrels import merge_qrels, write_qrels

    result = merge_qrels(qrels_files, on_duplicate)  # type: ignore[arg-type]
    for topic, doc_id, grades in result.conflicts:
        listed = ", ".join(f"{grade} in {path}" for path, grade in grades)
        click.echo(f"conflict: topic {topic} document {doc_id}: {listed} -> {result.qrels[topic][doc_id]}", err=True)
    count = write_qrels(result.qrels, output)
    click.echo(f"wrote {count} judgments for {len(result.qrels)} topics ({len(result.conflicts)} conflicts resolved) -> {output}", err=output == "-")  # with -o -, stdout holds the data


@command.command(name="stats")
@verbosity_options
@click.argument("qrels_file", type=InputPath(exists=True, dir_okay=False))
@click.option("-o", "--output", type=OutputPath(dir_okay=False), default=None, help="Write the table here instead of stdout.")
@on_duplicate_option
def stats_command(qrels_file: str, output: str | None, on_duplicate: str) -> None:
    """Per-topic summary of qrels as a TSV: judged documents, relevant ones (grade > 0) and the number at
    each grade, with an `all` row of sums.

    \b
    Example:
      argue-eval qrels stats qrels/sample/qrels.trec
      request_id  judged  relevant  grade_0  grade_1  grade_2
      s01         13      8         5        1        7
      ...
      all         106     65        41       9        56
    """
    from ..organizer.qrels import qrels_stats, read_qrels
    from ._common import emit_tsv

    header, rows = qrels_stats(read_qrels(qrels_file, on_duplicate))  # type: ignore[arg-type]
    emit_tsv(header, rows, output)
