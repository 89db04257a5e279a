"""``argue-eval cache merge``: the judgment caches of a round's shards (``judge --shard K/N``) joined into one."""
from __future__ import annotations

import click

from ._options import verbosity_options
from ._output import emit, json_mode
from ._paths import InputPath, OutputPath


@click.command("cache merge")
@verbosity_options
@click.argument("output", type=OutputPath(), metavar="OUT.sqlite")
@click.argument("inputs", nargs=-1, required=True, type=InputPath(), metavar="IN.sqlite...")
@click.option("--quiet", "-q", is_flag=True, help="Print only errors.")
def merge_command(output, inputs, quiet) -> None:
    """Merge judgment caches: the caches of a round's shards (judge --shard K/N) into one new cache.

    Every answer of every IN.sqlite goes to OUT.sqlite, with the judges and the sentence embeddings. A
    question answered in several inputs with the same answer is one answer; answered differently (another
    judge version or model, another collection) it is an error naming the question's key and both files,
    exit 2, and nothing is written: OUT.sqlite is built in a temporary file beside it and renamed once
    complete. The inputs are only read. OUT.sqlite must not exist yet (name an existing cache among the
    inputs to keep its answers). Then `argue-eval judge` without --shard, with --cache OUT.sqlite, takes
    every answer from the merged cache and writes the judgments a single machine would have written.

    \b
    Example (the sample track judged in three shards, then merged and written as one run):
      argue-eval judge --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl \\
          --shard 1/3 --cache shard1.sqlite
      argue-eval judge --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl \\
          --shard 2/3 --cache shard2.sqlite
      argue-eval judge --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl \\
          --shard 3/3 --cache shard3.sqlite
      argue-eval cache merge merged.sqlite shard1.sqlite shard2.sqlite shard3.sqlite
      argue-eval judge --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl \\
          --cache merged.sqlite -o judgments.lexical.jsonl
    """
    from ..api import merge_caches

    result = merge_caches(output, list(inputs))
    if json_mode():
        emit(output=result.output, answers=result.answers, same=result.same,
             inputs=[{"path": c.path, "answers": c.answers, "added": c.added, "same": c.same,
                      "embeddings": c.embeddings} for c in result.inputs])
        return
    if quiet:
        return
    for counts in result.inputs:
        embedded = f", {counts.embeddings} embedding(s)" if counts.embeddings else ""
        click.echo(f"{counts.path}: {counts.answers} answer(s), {counts.added} added, {counts.same} already there "
                   f"with the same answer{embedded}", err=True)
    click.echo(f"merged {len(result.inputs)} cache(s) into {result.output}: {result.answers} answer(s)", err=True)
