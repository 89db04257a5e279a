"""``argue-eval assess``: export the judgments still missing for human assessors, import their answers."""
from __future__ import annotations

from collections import Counter

import click

from ._options import input_options, policy_options, verbosity_options
from ._paths import InputPath, OutputPath


@click.group("assess")
def command() -> None:
    """Export the judgments still missing for human assessors; import their answers.

    \b
    The loop, on the shipped sample track:
      argue-eval assess export --run runs/sample/careful.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl -o pool.csv
      # assessors fill the judgment column of pool.csv with yes or no (a spreadsheet will do)
      argue-eval assess import pool.csv --assessor alice -o judgments.human.jsonl
      argue-eval score --run runs/sample/careful.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --judgments judgments.human.jsonl -o scores.tsv
    """


@command.command("export")
@verbosity_options
@input_options
@click.option("--collection", default=None, type=InputPath(folder=True), metavar="C",
              help="Document collection (JSONL, irds:ID or Lucene index) to include cited document texts.")
@click.option("-o", "--output", required=True, type=OutputPath(), metavar="POOL", help="Pool to write: JSONL, or CSV for a .csv name.")
@click.option("--csv", "as_csv", is_flag=True, default=None, help="Write CSV whatever the output's name.")
@policy_options
def export_command(runs, nuggets, judgments, requests, qrels, collection, output, as_csv, relevance, nugget_scope,
                   missing_topics, evaluated_topics, unbound_questions, weights) -> None:
    """Write the judgments scoring still lacks, one item per unique judgment.

    The same flowchart as `score` runs over every report; every question it needs that the given
    --judgments do not answer becomes one item, deduplicated across runs (a sentence citing the same
    document in ten runs is one item). Where an unanswered question decides the path (e.g. "relevant?"
    with --relevance judgments, or "negative assertion?"), the questions of both branches are exported
    and marked with `needed_if`, so one round of assessment is enough to score; assessors may leave
    those blank when the condition does not hold.

    Each item has the request text, the sentence with its neighbours, the cited document id (and its
    text with --collection), the nugget question and answers, a stable item_id and an integrity hash.
    Fill the `judgment` field with yes or no and run `argue-eval assess import`.

    \b
    Example:
      argue-eval assess export --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl -o pool.jsonl
    """
    from ..api import make_policies
    from ..argue.policies import parse_weights
    from ..organizer.assessment import export_pool, write_pool

    policies = make_policies(relevance=relevance, nugget_scope=nugget_scope, missing_topics=missing_topics,
                             missing_judgments="error", unbound_questions=unbound_questions,
                             evaluated_topics=evaluated_topics, weights=parse_weights(weights))
    from ..inputs import load_inputs

    inputs = load_inputs(runs, nuggets, judgments, requests, qrels, policies)
    store = None
    if collection:
        from ..collection import open_collection

        store = open_collection(collection)
    try:
        items = export_pool(inputs.reports(), inputs.evaluation, inputs.source, store)
    finally:
        if store is not None:
            store.close()
    for note in inputs.evaluation.notes:
        click.echo(f"note: {note}", err=True)
    count = write_pool(items, output, as_csv)
    by_kind = Counter(item["kind"] for item in items)
    summary = ", ".join(f"{kind} {n}" for kind, n in sorted(by_kind.items()))
    conditional = sum(1 for item in items if item["needed_if"])
    click.echo(f"wrote {count} item(s) to {output}" + (f": {summary}" if summary else "")
               + (f" ({conditional} conditional)" if conditional else ""), err=True)


@command.command("import")
@verbosity_options
@click.argument("filled", type=InputPath(), metavar="FILLED")
@click.option("--assessor", required=True, metavar="NAME", help="Who assessed: judgments get judge = human:NAME.")
@click.option("-o", "--output", required=True, type=OutputPath(), metavar="OUT.jsonl", help="Canonical judgments JSONL to write.")
def import_command(filled: str, assessor: str, output: str) -> None:
    """Turn a filled assessment pool (JSONL or CSV) into canonical judgments.

    Every answered item becomes one judgment with judge = human:NAME. Items left blank are skipped and
    counted. An item whose question fields were edited (they no longer match its hash), or answered
    with anything but yes/no, stops the import with FILE:LINE: field: message.

    \b
    Example on the sample track (people's answers override a judge's where both answered):
      argue-eval assess export --run runs/sample/careful.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl -o pool.csv
      # assessors fill the judgment column of pool.csv with yes or no (a spreadsheet will do)
      argue-eval assess import pool.csv --assessor alice -o judgments.human.jsonl
      argue-eval judge --run runs/sample/careful.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl -o judgments.auto.jsonl
      argue-eval score --run runs/sample/careful.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --judgments judgments.auto.jsonl --judgments judgments.human.jsonl -o scores.tsv
    """
    from ..formats.judgments import write_argue
    from ..organizer.assessment import import_pool

    summary = import_pool(filled, assessor)
    if not summary.judgments and not summary.unanswered:
        click.echo(f"warning: {filled}: no assessment items in the file (only a header?); nothing imported, "
                   f"{output} not written", err=True)
        click.get_current_context().exit(1)
    count = write_argue(summary.judgments, output)  # type: ignore[arg-type]
    kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(summary.answered.items()))
    click.echo(f"imported {count} judgment(s) by human:{assessor.strip()} -> {output}"
               + (f" ({kinds})" if kinds else "")
               + (f"; {summary.unanswered} item(s) left blank" if summary.unanswered else ""), err=True)
