"""``argue-eval convert``: rewrite a requests, nuggets, run, qrels or judgments file in another format."""
from __future__ import annotations

import click

from ..errors import OptionError
from ._common import format_option, kind_option
from ._options import verbosity_options
from ._paths import InputPath, OutputPath


@click.command(name="convert")
@verbosity_options
@click.argument("path", type=InputPath(exists=True, folder=True))
@click.option("--to", "target", required=True, metavar="FORMAT", help="Output format (e.g. argue, neuclir24, ragtime, autoargue-v3).")
@click.option("-o", "--output", required=True, type=OutputPath(folder=True), help="Output file (a directory for autoargue-v3).")
@kind_option
@format_option
def command(path: str, target: str, output: str, kind: str | None, format_name: str | None) -> None:
    """Convert PATH to another format of the same kind, written atomically to --output.

    The input format is detected (or named with --format). Everything the target format can hold is
    kept; what it cannot (e.g. citation scores in a NeuCLIR 2024 run) is dropped with a warning on
    stderr, and data the target cannot express at all (e.g. two nuggets with the same question for a
    NuggetBank v3) stops the conversion with an error, leaving no output.

    \b
    Examples:
      argue-eval convert runs/sample/careful.jsonl --to ragtime -o /tmp/careful.ragtime.jsonl
      argue-eval convert nuggets/sample/nuggets.jsonl --to autoargue-v3 -o /tmp/nuggets-v3/
      argue-eval convert team.rag24.jsonl --to argue -o team.argue.jsonl
    """
    from pathlib import Path

    from ..errors import InputError
    from ..formats import all_formats, get_format, resolve
    from ..progress import progress

    source = resolve(path, kind, format_name)  # type: ignore[arg-type]
    writable = ", ".join(sorted(s.name for s in all_formats() if s.kind == source.kind and s.write is not None))
    try:
        spec = get_format(target, source.kind)
    except InputError:
        others = sorted({s.kind for s in all_formats() if target in (s.name, *s.aliases)})
        if others:
            raise OptionError("--to", f"{path} is a {source.kind} file; {target!r} is a {'/'.join(others)} format (convert keeps the kind)") from None
        raise OptionError("--to", f"unknown {source.kind} format {target!r}; writable {source.kind} formats: {writable}") from None
    if spec.write is None:
        raise OptionError("--to", f"{source.kind} format {spec.name!r} can be read but not written; "
                         f"writable {source.kind} formats: {writable}")
    # what the target format cannot hold is said on stderr as it is written (cli._show_lossy_writes_as_warnings)
    records = progress(source.read(Path(path)), desc=f"convert {Path(path).name}", unit=" rec")
    count = spec.write(records, Path(output))
    click.echo(f"{path} ({source.kind}, {source.name}) -> {output} ({spec.name}): {count} records", err=True)

