"""Options and helpers shared by several subcommands."""
from __future__ import annotations

import click

from ..formats.base import KINDS

kind_option = click.option(
    "--kind", type=click.Choice(KINDS), default=None, help="What the file holds, if detection should not guess."
)
format_option = click.option(
    "--format", "format_name", default=None, metavar="NAME", help="The file's format, if detection should not guess."
)


def emit_tsv(header: list[str] | tuple[str, ...], rows: list, output: str | None) -> None:
    """Print a TSV table on stdout, or write it atomically to ``output`` when one is given."""
    from ..writing import atomic_writer

    lines = ["\t".join(header)] + ["\t".join(str(value) for value in row) for row in rows]
    if output:
        with atomic_writer(output) as handle:
            handle.write("\n".join(lines) + "\n")
    else:
        click.echo("\n".join(lines))
