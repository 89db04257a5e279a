"""``argue-eval qrels``: build qrels from assessments or nuggets, merge them, summarize them."""
from __future__ import annotations

import click

from ._options import verbosity_options
from ._output import refuse_stdout_data
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
    from ..api import build_qrels, write_qrels

    refuse_stdout_data(output)
    result = build_qrels(assessments, pool=pool, unjudged=unjudged, on_duplicate=on_duplicate)
    for note in result.notes:
        click.echo(str(note), err=True)
    _report_written(write_qrels(result, output), result, output)


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
    from ..api import qrels_from_nuggets, write_qrels

    refuse_stdout_data(output)
    result = qrels_from_nuggets(nuggets, grade=grade, format=format_name)
    _report_written(write_qrels(result, output), result, output)


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
    from ..api import merge_qrels, write_qrels

    refuse_stdout_data(output)
    result = merge_qrels(qrels_files, on_duplicate=on_duplicate)
    for note in result.notes:  # conflict: ... for each one resolved
        click.echo(str(note), err=True)
    _report_written(write_qrels(result, output), result, output, f" ({result.counts['conflicts']} conflicts resolved)")


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
    from ..api import qrels_stats
    from ._common import emit_tsv

    result = qrels_stats(qrels_file, on_duplicate=on_duplicate)
    emit_tsv(result.columns, result.rows, output, result)


def _report_written(count: int, result, output: str, conflicts: str = "") -> None:
    """``wrote N judgments for T topics -> OUT``: on stderr when the qrels went to stdout (``-o -``)."""
    from ._output import summary_line

    summary_line(f"wrote {count} judgments for {result.counts['topics']} topics{conflicts} -> {output}", result,
                 err=output == "-", output=output, judgments=count)
