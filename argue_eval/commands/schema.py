"""``argue-eval schema``: the JSON Schema of a canonical file (requests, nuggets, runs, judgments, collection)."""
from __future__ import annotations

import json

import click

from ._options import verbosity_options
from ._output import emit, json_mode
from ._paths import OutputPath


@click.command(name="schema")
@verbosity_options
@click.argument("kind", required=False)
@click.option("-o", "--output", default=None, type=OutputPath(), metavar="FILE", help="Write the schema here instead of stdout.")
def command(kind: str | None, output: str | None) -> None:
    """Print the JSON Schema of one line of a canonical file.

    Each canonical file is JSON Lines: the schema (draft 2020-12) checks one line, so a tool can check a
    file without argue-eval (in Python: jsonschema.validate(json.loads(line), schema) for each line).
    Fields a schema does not name are allowed: argue-eval keeps them. What needs more than one line (a
    repeated id, a citation outside the references) is for argue-eval validate, nuggets validate and
    requests validate. Without KIND, lists the kinds.

    \b
    The kinds, then the schema of a run line written to a file:
      argue-eval schema
      requests    report requests (topics), --format argue
      ...
      argue-eval schema runs -o runs.schema.json
    """
    from ..api.schema import schema, schema_kinds

    if kind is None:
        kinds = schema_kinds()
        if json_mode():
            emit(counts={"kinds": len(kinds)}, kinds=kinds)
            return
        width = max(map(len, kinds))
        for name, what in kinds.items():
            click.echo(f"{name:<{width}}  {what}")
        return
    from ..views import write_output

    if json_mode() and output in (None, "-"):  # the schema is JSON already: --json prints it as it is
        output = None
    write_output(json.dumps(schema(kind), indent=2, ensure_ascii=True) + "\n", None if output == "-" else output)
    if json_mode() and output is not None:
        emit(kind=kind, output=output)
