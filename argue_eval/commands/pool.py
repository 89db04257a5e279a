"""``argue-eval pool``: pool ranked runs or report citations for assessors."""
from __future__ import annotations

import click

from ..errors import OptionError
from ._common import format_option
from ._options import LARGE_COUNT, run_options, verbosity_options
from ._output import refuse_stdout_data, summary_line
from ._paths import InputPath, OutputPath


@click.command(name="pool")
@verbosity_options
@run_options("A run to pool (repeatable, or several after it; the same as giving them as arguments).", exists=True)
@click.option("-o", "--output", required=True,
              type=OutputPath(dir_okay=False, companions={".runs.tsv": "contributions", ".sizes.tsv": "sizes"}),
              help="The pool, as qrels-shaped lines `topic 0 doc_id -1` (-1 = not judged yet), in pool order.")
@click.option("--strategy", type=click.Choice(["depth", "rrf", "mtf", "budget"]), default="depth", show_default=True,
              help="depth: union of each run's top K; rrf: reciprocal rank fusion order, cut to --budget; "
              "mtf: move-to-front (uses --qrels as feedback); budget: depth pooling as deep as --budget allows.")
@click.option("--depth", type=LARGE_COUNT, default=100, show_default=True,
              help="How many documents of each run (per topic) are considered.")
@click.option("--budget", type=LARGE_COUNT, default=None,
              help="Documents per topic (required for mtf and budget; optional cut for rrf).")
@click.option("--rrf-k", type=click.IntRange(0, 1_000_000_000), default=60, show_default=True, help="The k of RRF: 1/(k + rank).")
@click.option("--qrels", "judged", type=InputPath(exists=True, dir_okay=False), default=None,
              help="Existing judgments that guide mtf (a run keeps its turn while its documents are relevant).")
@click.option("--requests", type=InputPath(exists=True), default=None,
              help="Requests file: pool exactly these topics (and put their text in the assessor package).")
@click.option("--contributions", type=OutputPath(dir_okay=False), default=None,
              help="Per-run contribution table (default: OUTPUT.runs.tsv): pooled and unique documents per run and topic.")
@click.option("--sizes", type=OutputPath(dir_okay=False), default=None,
              help="Per-topic pool sizes (default: OUTPUT.sizes.tsv).")
@click.option("--package", type=OutputPath(dir_okay=False), default=None,
              help="Assessor package to write: JSONL, or CSV when the name ends in .csv; one row per pooled "
              "document with an empty 'relevance' column to fill in.")
@click.option("--collection", default=None, type=InputPath(folder=True),
              help="Collection (JSONL, Lucene index or irds:ID) to put each document's title and text in the package.")
@format_option
def command(
    runs: tuple[str, ...],
    output: str,
    strategy: str,
    depth: int,
    budget: int | None,
    rrf_k: int,
    judged: str | None,
    requests: str | None,
    contributions: str | None,
    sizes: str | None,
    package: str | None,
    collection: str | None,
    format_name: str | None,
) -> None:
    """Pool ranked or cited documents for assessors.

    The documents of ranked runs (TREC 6-column) or of report runs (the cited documents, in order of first
    citation).

    Writes the pool (qrels-shaped, relevance -1 = unjudged, documents in the order to assess), a per-run
    contribution table (pooled and unique documents, long TSV like score tables) and per-topic pool
    sizes; with --package, a file for assessors (with document text when --collection is given). Ties
    are broken by document id and runs are taken in name order, so the pool depends only on the inputs.

    \b
    Example on the sample track (ranked runs, then report runs with a budget):
      argue-eval pool runs/sample/ranked/*.trec --depth 10 -o pool.qrels
      argue-eval pool runs/sample/*.jsonl --strategy budget --budget 15 \\
          --collection topics/sample/collection.jsonl --package pool.csv -o pool.qrels
      # assessors fill the relevance column of pool.csv with grades (0, 1, 2)
      argue-eval qrels build --pool pool.qrels pool.csv -o qrels.trec
    """
    from ..api.pool import pool, write_pool

    refuse_stdout_data(output)
    if collection and not package and runs:  # no runs at all: api.pool says that first
        raise OptionError("--collection", "only fills the assessor package; add --package FILE")
    result = pool(list(runs), strategy=strategy, depth=depth, budget=budget, rrf_k=rrf_k, qrels=judged,
                  requests=requests, format=format_name)
    dropped = result.pool.dropped_topics
    if dropped:
        shown = ", ".join(dropped[:10]) + (" ..." if len(dropped) > 10 else "")
        click.echo(f"warning: {len(dropped)} topic(s) of the runs are not in {requests} and were not pooled: {shown}", err=True)
    count = write_pool(result, output, contributions=contributions, sizes=sizes, package=package, collection=collection)
    summary_line(f"pooled {count} documents for {len(result.pool.topics)} topics from {result.pool.run_count} runs "
                 f"({strategy}, depth {depth}{f', budget {budget}' if budget else ''}) -> {output}", None,
                 err=output == "-", output=output, documents=count, topics=len(result.pool.topics),
                 runs=result.pool.run_count, dropped_topics=list(dropped) or None,
                 notes=[f"warning: {len(dropped)} topic(s) of the runs are not in {requests} and were not pooled"]
                 if dropped else [])
