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
