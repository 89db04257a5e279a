"""``argue-eval collection``: build a JSONL collection's offset index and look documents up by id."""
from __future__ import annotations

import sys
from typing import TextIO

import click

from ..errors import OptionError
from ._options import verbosity_options
from ._output import emit, json_mode
from ._paths import CheckedPath, InputPath

cache_dir_option = click.option(
    "--cache-dir",
    type=CheckedPath(file_okay=False),
    default=None,
    help="Where indexes are kept (default: $ARGUE_EVAL_CACHE, else ~/.cache/argue-eval): never in the collection's "
    "own folder, unless collection index --beside writes one there.",
)


@click.group(name="collection")
def command() -> None:
    """Index a document collection and look documents up by id.

    A collection is a JSONL file (one document per line: an id field doc_id, docid, id or _id; a text
    field text, contents or body; an optional title), an ir_datasets dataset id (irds:ID, or a bare id
    that is not a path), or a Lucene (Pyserini) index directory (needs the 'search' extra).

    \b
    Example on the sample track:
      argue-eval collection index topics/sample/collection.jsonl
      argue-eval collection get topics/sample/collection.jsonl nw-0001 nw-0004
    """


@command.command(name="index")
@verbosity_options
@click.argument("path", type=InputPath(dir_okay=False))
@click.option("--rebuild", is_flag=True, help="Rebuild the index even if it is up to date.")
@click.option(
    "--skip-bad-lines",
    is_flag=True,
    help="Leave malformed lines, lines without an id or text, and repeated ids out of the index (each is "
    "reported as a warning) instead of stopping at the first one.",
)
@click.option("--beside", is_flag=True,
              help="Write the index beside the collection (PATH.argue-idx), for a collection you own and ship with it; "
                   "by default it goes to the cache directory, so that no one's data folder is written into.")
@cache_dir_option
def index_command(path: str, rebuild: bool, skip_bad_lines: bool, cache_dir: str | None, beside: bool = False) -> None:
    """Build (or refresh) the offset index of a JSONL collection and print what it holds.

    The index (in the cache directory; a fresh PATH.argue-idx beside the collection is used too) maps each document id to
    its line's byte offset, so later lookups read one line instead of the whole file. It is rebuilt
    automatically when the collection changes (size, modification time or content fingerprint); this
    command just does it ahead of time and reports counts and time.

    \b
    Example (prints "PATH: indexed N documents in S s -> INDEX", or "index up to date"):
      argue-eval collection index topics/sample/collection.jsonl
    """
    from ..api import index_collection

    result = index_collection(path, cache_dir=cache_dir, rebuild=rebuild, skip_bad_lines=skip_bad_lines,
                              beside=beside)
    info = result.data
    if json_mode():
        emit(result, collection=path, index=info.index_path, built=info.built, documents=info.count,
             skipped_lines=info.skipped_count, seconds=round(info.seconds if info.built else result.counts["seconds"], 2),
             notes=[str(warning) for warning in info.warnings])
        return
    for warning in info.warnings:
        click.echo(str(warning), err=True)
    if info.skipped_count > len(info.warnings):
        click.echo(f"{path}: ... and {info.skipped_count - len(info.warnings)} more skipped lines", err=True)
    if info.built:
        click.echo(f"{path}: indexed {info.count} documents in {info.seconds:.2f} s -> {info.index_path}")
    else:
        click.echo(f"{path}: index up to date, {info.count} documents ({result.counts['seconds']:.2f} s to check) -> "
                   f"{info.index_path}")
    if info.skipped_count:
        click.echo(f"{path}: {info.skipped_count} lines skipped", err=True)


@command.command(name="get")
@verbosity_options
@click.argument("spec", type=InputPath(folder=True))
@click.argument("doc_ids", nargs=-1)
@click.option(
    "--ids-from",
    type=click.File("r", encoding="utf-8"),
    default=None,
    help="Also read document ids from this file, one per line ('-' for standard input).",
)
@cache_dir_option
def get_command(spec: str, doc_ids: tuple[str, ...], ids_from: TextIO | None, cache_dir: str | None) -> None:
    """Print documents by id as JSON Lines ({"doc_id", "title", "text"}), in the order asked.

    SPEC is a JSONL collection, an ir_datasets id or a Lucene index directory. An id that is not in the
    collection is reported on stderr and makes the exit status 1 (the others are still printed).

    \b
    Example:
      argue-eval collection get topics/sample/collection.jsonl nw-0001 nw-0004
    """
    from ..api import get_documents
    from ..views import json_line

    wanted = list(doc_ids)
    if ids_from is not None:
        wanted.extend(line.strip() for line in ids_from if line.strip())
    if not wanted:
        raise OptionError("DOC_ID", "give at least one DOC_ID (or --ids-from FILE)")
    result = get_documents(spec, wanted, cache_dir=cache_dir)
    documents, missing = iter(result.rows), iter(result.notes)
    found = {row[0] for row in result.rows}
    if json_mode():
        emit(result, documents=[dict(zip(result.columns, row)) for row in result.rows])
        if result.counts["missing"]:
            sys.exit(1)
        return
    for doc_id in wanted:  # in the order asked, each missing id where it was asked
        if doc_id in found:
            sys.stdout.write(json_line(dict(zip(result.columns, next(documents)))))
        else:
            click.echo(next(missing).text, err=True)
    if result.counts["missing"]:
        sys.exit(1)


@command.command(name="info")
@verbosity_options
@click.argument("spec", type=InputPath(folder=True))
@cache_dir_option
def info_command(spec: str, cache_dir: str | None) -> None:
    """Say what backend holds a collection and how many documents it has (indexing a JSONL file if needed).

    \b
    Example:
      argue-eval collection info topics/sample/collection.jsonl
    """
    from ..api import collection_info

    result = collection_info(spec, cache_dir=cache_dir)
    if json_mode():
        emit(result, info={str(field): value for field, value in result.rows})
        return
    for field, value in result.rows:
        click.echo(f"{field}\t{value}")

