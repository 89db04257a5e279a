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


def emit_tsv(header: list[str] | tuple[str, ...], rows: list, output: str | None) -> None:
    """Print a TSV table on stdout, or write it atomically to ``output`` when one is given."""
    from ..views import write_output

    lines = ["\t".join(header)] + ["\t".join(str(value) for value in row) for row in rows]
    if output:
        write_output("\n".join(lines) + "\n", output)
    else:
        click.echo("\n".join(lines))


def print_problems(result, summary: str) -> None:
    """A check's problems (a ``Result``'s ``details``) on stdout, then its summary line (on stderr when there are
    problems); exit status 1 when one is an error."""
    import sys

    for problem in result.details:
        click.echo(str(problem))
    click.echo(summary, err=bool(result.details))
    if result.counts["errors"]:
        sys.exit(1)
