"""Options and helpers shared by several subcommands."""
from __future__ import annotations

import click

from ._choices import KINDS

kind_option = click.option(
    "--kind", type=click.Choice(KINDS), default=None, help="What the file holds, if detection should not guess."
)
format_option = click.option(
    "--format", "format_name", default=None, metavar="NAME", help="The file's format, if detection should not guess."
)


def nugget_check_list() -> str:
    """The checks of ``nuggets validate`` (name, severity, what it catches), for its help."""
    from ._choices import NUGGET_CHECKS

    return "\n".join(f"  {name:<24} {severity:<8} {what}" for name, (severity, what) in NUGGET_CHECKS.items())


def emit_tsv(header: list[str] | tuple[str, ...], rows: list, output: str | None, result=None, **fields) -> None:
    """Print a TSV table on stdout, or write it atomically to ``output`` when one is given; with ``--json``, the
    table (every row, numbers as numbers) and ``result``'s counts and notes as one JSON object on
    stdout (the file, when given, is written all the same), with ``fields`` (``notes`` too) beside them."""
    from ..views import write_output
    from ._output import emit, json_mode, refuse_stdout_data

    refuse_stdout_data(output)
    lines = ["\t".join(header)] + ["\t".join(str(value) for value in row) for row in rows]
    if output:
        write_output("\n".join(lines) + "\n", output)
    if json_mode():
        emit(result, tables=[{"title": None, "columns": list(header), "rows": rows, "notes": []}], output=output,
             **fields)
    elif not output:
        click.echo("\n".join(lines))


def print_problems(result, summary: str) -> None:
    """A check's problems (a ``Result``'s ``details``) on stdout, its notes on stderr, then its summary line (on
    stderr when there are problems); exit status 1 when one is an error. With ``--json``: one object with the counts, the summary line
    and the problems (each as printed)."""
    import sys

    from ._output import emit, json_mode

    if json_mode():
        emit(result, summary=summary, problems=[str(problem) for problem in result.details])
        if result.counts["errors"]:
            sys.exit(1)
        return
    for problem in result.details:
        click.echo(str(problem))
    for note in result.notes:  # what the check says of the file beside its problems (e.g. merged items)
        click.echo(str(note), err=True)
    click.echo(summary, err=bool(result.details))
    if result.counts["errors"]:
        sys.exit(1)
