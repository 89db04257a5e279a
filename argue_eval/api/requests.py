"""Report requests (topics) for organizers: check a requests file, append a request to one, export them.

What ``argue-eval requests`` does minus the printing; ``organizer.request_tools`` holds the rules.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from os import PathLike
from pathlib import Path
from typing import Any

from .result import Result

__all__ = ["validate_requests", "add_request", "export_requests"]

PathArg = str | PathLike[str]


def problems_result(job: str, problems: list[Any], strict: bool, data: Any, **counts: Any) -> Result:
    """A check's ``Result``: the located problems (``errors.Problem``, errors and warnings; with ``strict`` every
    warning an error) as ``details``, and the counts of errors and warnings beside ``counts``."""
    if strict:
        problems = [replace(problem, severity="error") for problem in problems]
    errors = sum(1 for problem in problems if problem.severity == "error")
    return Result(job, details=problems, counts={**counts, "errors": errors, "warnings": len(problems) - errors},
                  data=data)


def validate_requests(path: PathArg, *, format: str | None = None, collections: Sequence[str] | None = None,
                      require_limit: bool = True, strict: bool = False, track: str | None = None) -> Result:
    """Every problem of a requests file (any request format): the schema of every line, unique ids, a title or
    problem statement, a positive length limit (unless ``require_limit`` is false), collection ids among
    ``collections`` (when given). With ``track`` (a ``validate --track`` preset): each limit in the unit the
    track counts, a report language that is the track's, and a limit on every request only where the track has
    none of its own. ``details``: the problems (``FILE:LINE: field: message``), ``counts``: ``requests``,
    ``errors``, ``warnings``; ``data``: the requests read."""
    from ..organizer.request_tools import TrackRules, check_requests
    from ..tracks import get_track

    rules = None
    if track is not None:
        preset = get_track(track)
        rules = TrackRules(preset.name, preset.unit, preset.limit, preset.language)
    requests, problems = check_requests(path, format, collections, require_limit=require_limit, track=rules)
    return problems_result("requests validate", problems, strict, requests, requests=len(requests))


def add_request(path: PathArg, request_id: str, title: str, *, background: str = "", problem_statement: str = "",
                limit: int | None = None, limit_unit: str = "chars", collections: Sequence[str] = (),
                language: str | None = None, aspects: Sequence[str] = ()) -> Result:
    """Append a new request to a requests file in our canonical JSON Lines (created if absent), atomically: the
    request is validated and its id checked against the file before anything is written. A pipe, a gzip file or
    a file in another format is refused. ``data``: the request; ``counts["requests"]``: the file's requests now."""
    from ..errors import ArgueError
    from ..formats import detect, read_requests
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
    if existing and target.exists() and detect(target, "requests").name != "argue":
        raise ArgueError(f"{path} is not in our canonical requests format; convert it first (argue-eval convert)")
    request = new_request(existing, request_id, title, background, problem_statement, limit, limit_unit, collections,
                          language, aspects)
    old = target.read_bytes() if target.exists() else b""
    with atomic_writer(target) as handle:
        text = old.decode("utf-8")
        if text and not text.endswith("\n"):
            text += "\n"
        handle.write(text + dumps_line(request_to_argue(request)))
    return Result("requests new", topics=[request.request_id], counts={"requests": len(existing) + 1}, data=request)


def export_requests(requests: Any, output: PathArg, *, shape: str = "neuclir24", for_participants: bool = True,
                    format: str | None = None) -> Result:
    """Write requests (a file in any request format, or ``Request`` records) in an export shape (``neuclir24``,
    ``ragtime26``, ``rag25``, ``argue``) as JSON Lines, atomically; for participants the organizer-only fields
    (aspects, notes, unknown fields) are removed. ``counts["requests"]``: how many were written."""
    from ..formats import read_requests
    from ..organizer.request_tools import export_requests as export

    records = read_requests(requests, format) if isinstance(requests, (str, PathLike)) else requests
    count = export(records, output, shape, for_participants)
    return Result("requests export", counts={"requests": count}, settings={"shape": shape,
                                                                            "for_participants": for_participants})


def _starts_with(path: Path, magic: bytes) -> bool:
    with open(path, "rb") as handle:
        return handle.read(len(magic)) == magic
