"""``argue-eval inspect``: say what a file is and count what it holds."""
from __future__ import annotations

import click

from ._common import format_option, kind_option
from ._options import verbosity_options
from ._paths import InputPath


@click.command(name="inspect")
@verbosity_options
@click.argument("path", type=InputPath(exists=True, folder=True))
@kind_option
@format_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the readable summary.")
def command(path: str, kind: str | None, format_name: str | None, as_json: bool) -> None:
    """Detect what PATH is (requests, nuggets, run, judgments, qrels, ranked run) and summarize it.

    The format is recognized from the content (use --kind/--format to override). Counts: topics are
    distinct request ids; a run's citations count each document once per sentence; a nugget bank's
    questions are distinct question texts per topic, answers distinct (question, answer) pairs and
    bindings distinct (question, answer, document) triples. The file is streamed, never loaded whole.

    \b
    Examples on the sample track:
      argue-eval inspect runs/sample/careful.jsonl
      argue-eval inspect nuggets/sample/nuggets.jsonl --json
      argue-eval inspect qrels/sample/qrels.trec --kind qrels --format trec-qrels
    """
    from ..api import inspect
    from ..views import inventory_text

    text = inventory_text(inspect(path, kind=kind, format=format_name).data, as_json)
    click.echo(text, nl=not as_json)
