"""Request (topic) tools for organizers: validate a requests file, append a new request, export requests
for participants in the shapes tracks publish.

Organizer-only information never reaches participants: ``aspects`` (the subtopics ICAT scores against)
and any field our model does not know (notes, owner, ...) are dropped by the participant export.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from os import PathLike
from typing import Any, NamedTuple

from ..errors import ArgueError, Problem, unknown_name
from ..model import Request

EXPORT_SHAPES: tuple[str, ...] = ("argue", "neuclir24", "ragtime26", "rag25")


def read_requests_collecting(path: str | PathLike[str], format: str | None = None) -> tuple[list[Request], list[Problem]]:
    """Read a requests file collecting every schema problem: the JSON Lines formats line by line, the others
    (the TREC RAG 2024 TSV, TREC Web Track XML) whole, by their readers."""
    from ..formats.collecting import read_collecting
    from ..formats.requests import LINE_FORMATS, parse_request

    return read_collecting(path, "requests", format, parse_request, LINE_FORMATS)


def validate_requests(
    requests: Sequence[Request],
    path: str,
    collections: Iterable[str] | None = None,
    require_limit: bool = True,
    track: TrackRules | None = None,
) -> list[Problem]:
    """Problems beyond the schema: repeated ids, missing text, missing or unusable limits, collections.

    Errors: an id used twice; neither a title nor a problem statement; no length limit (when
    ``require_limit``); a collection id not in ``collections`` (when given). Warnings: no collection id;
    no background; a title but no problem statement (participants need the information need spelled out).
    With ``track``: a limit in another unit than the track counts in is a warning (``validate`` holds a report
    to its request's own limit and unit), a report language other than the track's an error (``validate
    --track`` checks every report against the track's).
    """
    problems: list[Problem] = []
    known = set(collections) if collections is not None else None
    first_line: dict[str, int | None] = {}
    for request in requests:
        line = request.source.line if request.source is not None else None
        where = request.source.path if request.source is not None else path

        def report(field: str | None, message: str, severity: str = "error", where: str = where,
                   line: int | None = line, request_id: str = request.request_id) -> None:
            if line is None:  # a format without lines (TREC Web Track XML): name the request
                message = f"request {request_id!r}: {message}"
            problems.append(Problem(where, line, field, message, severity))  # type: ignore[arg-type]

        if request.request_id in first_line:
            report("request_id", f"request id {request.request_id!r} is used again (first on line {first_line[request.request_id]})")
        first_line.setdefault(request.request_id, line)
        if not request.title.strip() and not request.problem_statement.strip():
            report("problem_statement", "the request has neither a title nor a problem statement")
        elif not request.problem_statement.strip():
            report("problem_statement", "no problem statement (participants only see the title)", "warning")
        if not request.background.strip():
            report("background", "no background", "warning")
        if request.limit is None and require_limit:
            report("limit", "no length limit (expected a positive number of characters or words)")
        if track is not None:
            _track_problems(request, track, report)
        if not request.collection_ids:
            report("collection_ids", "no collection id (participants cannot tell which collection to search)", "warning")
        elif known is not None:
            for collection in request.collection_ids:
                if collection not in known:
                    report("collection_ids", f"unknown collection {collection!r} (known: {', '.join(sorted(known))})")
    return problems


class TrackRules(NamedTuple):
    """What a track (``tracks.TrackPreset``) asks of its requests: the unit its length limits count in, the
    limit that applies when a request states none (``None``: each request must state one), and the language
    its reports must be written in (``None``: any)."""

    name: str
    unit: str
    limit: int | None
    language: str | None


def _track_problems(request: Request, track: TrackRules, report: Callable[..., None]) -> None:
    if request.limit is not None and request.limit_unit != track.unit:
        report("limit_unit", f"the limit is in {request.limit_unit}, but {track.name} counts {track.unit} (validate "
                             "holds the reports to the request's own limit and unit: check it is the track's)",
               "warning")
    wanted = (track.language or "").lower()
    if wanted and request.language and request.language.strip().lower() not in (wanted, _LANGUAGE_NAMES.get(wanted)):
        report("language", f"asks for reports in {request.language!r}, but {track.name} requires {wanted!r} "
                           "(validate --track checks each report's language)")


_LANGUAGE_NAMES = {"en": "english"}
"""A request may name its report language by code (``en``) or in words (``English``)."""


def check_requests(
    path: str | PathLike[str],
    format: str | None = None,
    collections: Iterable[str] | None = None,
    require_limit: bool = True,
    track: TrackRules | None = None,
) -> tuple[list[Request], list[Problem]]:
    """Schema problems and the checks of ``validate_requests`` for one file; a field that already has a
    schema problem on a line is not reported a second time by the later checks. With ``track``, a request
    without a limit is fine where the track has one (``validate`` applies it), and an error where it has none."""
    requests, problems = read_requests_collecting(path, format)
    flagged = {(p.path, p.line, p.field) for p in problems}
    if track is not None:
        require_limit = require_limit and track.limit is None
    for problem in validate_requests(requests, str(path), collections, require_limit, track):
        if (problem.path, problem.line, problem.field) not in flagged:
            problems.append(problem)
    return requests, problems


def new_request(
    existing: Sequence[Request],
    request_id: str,
    title: str,
    background: str = "",
    problem_statement: str = "",
    limit: int | None = None,
    limit_unit: str = "chars",
    collection_ids: Sequence[str] = (),
    language: str | None = None,
    aspects: Sequence[str] = (),
) -> Request:
    """A new request checked against the file it joins (the id must be new; the fields must validate)."""
    if not request_id or request_id != request_id.strip():
        raise ArgueError(f"request id: expected a non-empty id without surrounding spaces, found {request_id!r}")
    if any(request.request_id == request_id for request in existing):
        raise ArgueError(f"request id {request_id!r} is already in the file")
    request = Request(
        request_id, title, background, problem_statement, limit, limit_unit,  # type: ignore[arg-type]
        tuple(collection_ids), tuple(a for a in aspects if a.strip()), language,
    )
    errors = [p for p in validate_requests([request], "(new request)") if p.severity == "error"]
    if errors:
        raise ArgueError("; ".join(f"{p.field}: {p.message}" for p in errors))
    if limit is not None and limit <= 0:
        raise ArgueError("limit: expected a positive number")
    return request


def export_record(request: Request, shape: str, for_participants: bool = True) -> dict[str, Any]:
    """One request in an export shape.

    ``argue``: our canonical line (organizer fields stripped for participants); ``neuclir24``: the NeuCLIR
    2024 / RAGTIME 2025 line ``{request_id, collection_ids, title, background, problem_statement, limit}``;
    ``ragtime26``: ``{topic_id, collection_id, title, background, problem_statement, limit}`` (one
    collection); ``rag25``: ``{id, title}`` where the title carries the narrative (problem statement, else title).
    """
    if shape == "argue":
        from ..formats.requests import request_to_argue

        record = request_to_argue(request)
        if for_participants:
            record["aspects"] = []
            record = {key: value for key, value in record.items() if key in _ARGUE_FIELDS}
        return record
    if shape == "neuclir24":
        return {
            "request_id": request.request_id,
            "collection_ids": list(request.collection_ids),
            "title": request.title,
            "background": request.background,
            "problem_statement": request.problem_statement,
            "limit": request.limit,
        }
    if shape == "ragtime26":
        if len(request.collection_ids) > 1:
            raise ArgueError(f"request {request.request_id}: RAGTIME 2026 topics name one collection, this one has {len(request.collection_ids)}")
        return {
            "topic_id": request.request_id,
            "collection_id": request.collection_ids[0] if request.collection_ids else "",
            "title": request.title,
            "background": request.background,
            "problem_statement": request.problem_statement,
            "limit": request.limit,
        }
    if shape == "rag25":
        return {"id": request.request_id, "title": request.problem_statement or request.title}
    raise unknown_name("--to", "export shape", shape, EXPORT_SHAPES)


_ARGUE_FIELDS = ("request_id", "title", "background", "problem_statement", "limit", "limit_unit", "collection_ids", "language", "aspects")


def export_requests(requests: Iterable[Request], path: str | PathLike[str], shape: str, for_participants: bool = True) -> int:
    """Write requests in an export shape (JSONL), atomically; return the number written."""
    from ..writing import write_jsonl

    if shape not in EXPORT_SHAPES:
        raise unknown_name("--to", "export shape", shape, EXPORT_SHAPES)
    return write_jsonl(path, (export_record(request, shape, for_participants) for request in requests))
