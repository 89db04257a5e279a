"""``argue-eval requests``: create, validate and export report requests (topics)."""
from __future__ import annotations

import sys
from dataclasses import replace

import click

from ._options import LARGE_COUNT, verbosity_options
from ._paths import InputPath, OutputPath, UpdatedPath


@click.group(name="requests")
def command() -> None:
    """Create, validate and export report requests (topics).

    \b
    Example on the sample track:
      argue-eval requests validate topics/sample/requests.jsonl
      argue-eval requests export topics/sample/requests.jsonl --for participants --to neuclir24 -o public.jsonl
    """


def _print_problems(problems) -> tuple[int, int]:
    errors = warnings = 0
    for problem in problems:
        click.echo(str(problem))
        if problem.severity == "error":
            errors += 1
        else:
            warnings += 1
    return errors, warnings


@command.command(name="validate")
@verbosity_options
@click.argument("path", type=InputPath(exists=True, dir_okay=False))
@click.option("--collections", default=None, help="Comma-separated collection ids the requests may name (others are errors).")
@click.option("--no-limit-ok", is_flag=True, help="Accept requests without a length limit.")
@click.option("--format", "format_name", default=None, metavar="NAME", help="The file's format, if detection should not guess.")
@click.option("--strict", is_flag=True, help="Report every warning as an error (exit status 1 when there is any).")
def validate_command(path: str, collections: str | None, no_limit_ok: bool, format_name: str | None, strict: bool) -> None:
    """Check a requests file in any request format (JSON Lines, the TREC RAG 2024 TSV, TREC Web Track XML):
    schema (every field of every line), unique ids, a title or problem statement, a positive length limit,
    collection ids. Prints FILE:LINE: field: message per problem, then a summary; exit status 0 with
    warnings only, 1 with errors (--strict: with warnings too), 2 when the file cannot be read.

    \b
    Example:
      argue-eval requests validate topics/sample/requests.jsonl --collections sample-news
      topics/sample/requests.jsonl: 8 requests, 0 errors, 0 warnings
    """
    from ..organizer.request_tools import check_requests

    known = [c.strip() for c in collections.split(",") if c.strip()] if collections else None
    requests, problems = check_requests(path, format_name, known, require_limit=not no_limit_ok)
    if strict:
        problems = [replace(problem, severity="error") for problem in problems]
    errors, warnings = _print_problems(problems)
    click.echo(f"{path}: {len(requests)} requests, {errors} errors, {warnings} warnings", err=bool(problems))
    if errors:
        sys.exit(1)


@command.command(name="new")
@verbosity_options
@click.argument("path", type=UpdatedPath(dir_okay=False))
@click.option("--request-id", prompt="Request id", help="A new, unique id (kept as a string).")
@click.option("--title", prompt="Title", help="Short title.")
@click.option("--background", prompt="Background (who asks and why)", default="", show_default=False)
@click.option("--problem-statement", prompt="Problem statement (what the report must cover)", default="", show_default=False)
@click.option("--limit", type=LARGE_COUNT, prompt="Length limit", default=2000, show_default=True)
@click.option("--limit-unit", type=click.Choice(["chars", "words"]), default="chars", show_default=True)
@click.option("--collection", "collections", multiple=True, help="Collection id (repeatable).")
@click.option("--language", default=None, help="Language the report should be written in.")
@click.option("--aspect", "aspects", multiple=True, help="Organizer-only subtopic the report should cover (repeatable; ICAT).")
def new_command(
    path: str,
    request_id: str,
    title: str,
    background: str,
    problem_statement: str,
    limit: int,
    limit_unit: str,
    collections: tuple[str, ...],
    language: str | None,
    aspects: tuple[str, ...],
) -> None:
    """Append a new request to a requests file (our canonical JSONL; the file is created if absent).
    Missing fields are asked for interactively; pass them as options to script it. The request is
    validated and its id checked against the file before anything is written.

    \b
    Example:
      argue-eval requests new topics/mine.jsonl --request-id s07 --title "Harbour closure" \\
          --background "A journalist covering the port." \\
          --problem-statement "Why did the harbour close and for how long?" --limit 2000 --collection sample-news
    """
    from pathlib import Path

    from ..errors import ArgueError
    from ..formats import read_requests
    from ..formats.requests import request_to_argue
    from ..organizer.request_tools import new_request
    from ..reading import GZIP_MAGIC, is_stream
    from ..writing import atomic_writer, dumps_line

    target = Path(path)
    if is_stream(target):
        raise ArgueError(f"{path}: is a pipe or device; requests new appends a request to a file")
    if target.suffix == ".gz" or (target.is_file() and _starts_with(target, GZIP_MAGIC)):
        raise ArgueError(f"{path}: requests new appends a line to a plain JSON Lines file, and this one is gzip: "
                         "decompress it first (gunzip), or give a new .jsonl file")
    existing = list(read_requests(target)) if target.exists() and target.stat().st_size else []
    if existing and target.exists():
        from ..formats import detect

        if detect(target, "requests").name != "argue":
            raise ArgueError(f"{path} is not in our canonical requests format; convert it first (argue-eval convert)")
    request = new_request(existing, request_id.strip(), title.strip(), background.strip(), problem_statement.strip(),
                          limit, limit_unit, collections, language, aspects)
    old = target.read_bytes() if target.exists() else b""
    with atomic_writer(target) as handle:
        text = old.decode("utf-8")
        if text and not text.endswith("\n"):
            text += "\n"
        handle.write(text + dumps_line(request_to_argue(request)))
    click.echo(f"added request {request.request_id} -> {path} ({len(existing) + 1} requests)")


@command.command(name="export")
@verbosity_options
@click.argument("path", type=InputPath(exists=True, dir_okay=False))
@click.option("-o", "--output", required=True, type=OutputPath(dir_okay=False), help="File to write (JSONL).")
@click.option("--for", "audience", type=click.Choice(["participants", "organizers"]), default="participants", show_default=True,
              help="participants: organizer-only fields (aspects, notes, any unknown field) are removed.")
@click.option("--to", "shape", type=click.Choice(["neuclir24", "ragtime26", "rag25", "argue"]), default="neuclir24",
              show_default=True, help="Shape: NeuCLIR 2024 / RAGTIME 2025, RAGTIME 2026, TREC RAG 2025 narratives, or ours.")
@click.option("--format", "format_name", default=None, metavar="NAME", help="The input's format, if detection should not guess.")
def export_command(path: str, output: str, audience: str, shape: str, format_name: str | None) -> None:
    """Export requests for publication.

    \b
    Example:
      argue-eval requests export topics/sample/requests.jsonl --for participants --to ragtime26 -o topics.jsonl
    """
    from ..formats import read_requests
    from ..organizer.request_tools import export_requests

    count = export_requests(read_requests(path, format_name), output, shape, audience == "participants")
    click.echo(f"exported {count} requests ({shape}, for {audience}) -> {output}", err=output == "-")  # with -o -, stdout holds the data


def _starts_with(path, magic: bytes) -> bool:
    with open(path, "rb") as handle:
        return handle.read(len(magic)) == magic
