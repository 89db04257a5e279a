"""``argue-eval requests``: create, validate and export report requests (topics)."""
from __future__ import annotations

import click

from ._choices import track_names
from ._options import LARGE_COUNT, verbosity_options
from ._output import refuse_stdout_data, summary_line
from ._paths import InputPath, OutputPath, UpdatedPath


@click.group(name="requests")
def command() -> None:
    """Create, validate and export report requests (topics).

    \b
    Example on the sample track:
      argue-eval requests validate topics/sample/requests.jsonl
      argue-eval requests export topics/sample/requests.jsonl --for participants --to neuclir24 -o public.jsonl
    """


@command.command(name="validate")
@verbosity_options
@click.argument("path", type=InputPath(exists=True, dir_okay=False))
@click.option("--collections", default=None, help="Comma-separated collection ids the requests may name (others are errors).")
@click.option("--no-limit-ok", is_flag=True, help="Accept requests without a length limit.")
@click.option("--format", "format_name", default=None, metavar="NAME", help="The file's format, if detection should not guess.")
@click.option("--strict", is_flag=True, help="Report every warning as an error (exit status 1 when there is any).")
@click.option("--track", default=None, type=click.Choice(track_names(), case_sensitive=False), metavar="TRACK",
              help="The track the requests are for (as validate --track): limits in its unit, reports in its "
                   "language, a limit on every request where the track has none of its own.")
def validate_command(path: str, collections: str | None, no_limit_ok: bool, format_name: str | None, strict: bool,
                     track: str | None) -> None:
    """Check a requests file in any request format (JSON Lines, the TREC RAG 2024 TSV, TREC Web Track XML):
    schema (every field of every line), unique ids, a title or problem statement, a positive length limit,
    collection ids. Prints FILE:LINE: field: message per problem, then a summary; exit status 0 with
    warnings only, 1 with errors (--strict: with warnings too), 2 when the file cannot be read.

    \b
    Example:
      argue-eval requests validate topics/sample/requests.jsonl --collections sample-news
      topics/sample/requests.jsonl: 8 requests, 0 errors, 0 warnings
    \b
    For a track (NeuCLIR 2024: limits in characters, reports in English):
      argue-eval requests validate topics/sample/requests.jsonl --track neuclir24
      topics/sample/requests.jsonl:4: limit_unit: warning: the limit is in words, but neuclir24 counts chars (validate holds the reports to the request's own limit and unit: check it is the track's)
      topics/sample/requests.jsonl: 8 requests, 0 errors, 1 warnings
    """
    from ..api import validate_requests
    from ._common import print_problems

    known = [c.strip() for c in collections.split(",") if c.strip()] if collections else None
    result = validate_requests(path, format=format_name, collections=known, require_limit=not no_limit_ok,
                               strict=strict, track=track)
    counts = result.counts
    print_problems(result, f"{path}: {counts['requests']} requests, {counts['errors']} errors, "
                           f"{counts['warnings']} warnings")


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
    from ..api import add_request

    result = add_request(path, request_id.strip(), title.strip(), background=background.strip(),
                         problem_statement=problem_statement.strip(), limit=limit, limit_unit=limit_unit,
                         collections=collections, language=language, aspects=aspects)
    summary_line(f"added request {result.data.request_id} -> {path} ({result.counts['requests']} requests)", result,
                 err=False, request_id=result.data.request_id, output=path)


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
    from ..api import export_requests

    refuse_stdout_data(output)
    result = export_requests(path, output, shape=shape, for_participants=audience == "participants", format=format_name)
    summary_line(f"exported {result.counts['requests']} requests ({shape}, for {audience}) -> {output}", result,
                 err=output == "-", output=output, shape=shape, audience=audience)  # with -o -, stdout holds the data
