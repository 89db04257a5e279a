"""Track presets for ``validate --track``: what each track's guidelines and official validator demand of a run.

A participant should not have to know that TREC RAG 2024 caps ``references`` at 20 segments and counts the
answer in words, or that a RAGTIME run must name its team: ``--track rag24`` sets it all. A preset fixes

- the run format the track accepts (a file in another shape is an error, not a guess);
- the length limit and its unit, used when the requests give none (a request's own limit wins, as the
  tracks publish per-request limits; ``--limit``/``--unit`` still override both);
- the most entries ``references`` may have;
- the fields the track's own validator requires (present, and strings where it wants strings), which
  ``argue_eval.validate`` checks as ``official-schema`` problems (the citation form, indexes into ``references``
  for TREC RAG 2024, indexes or ids for 2025, ids or ``{id: score}`` for RAGTIME, is the run format's: its
  parser resolves the citations and reports those out of range);
- whether a stated ``response_length`` is checked against the counted words;
- the language reports must be written in (RAGTIME and NeuCLIR: English reports from documents in other
  languages), which ``validate`` checks per report (``report-language``).

The figures: TREC RAG 2024 answers of at most 400 words (the 2024 guidelines say so); NeuCLIR 2024 reports
of 2,000 characters (NFKC; the requests state it too, and a request's own limit wins); RAGTIME 2025/2026
limits stated per request in characters. The TREC RAG 2025 length and the references caps (20 in 2024, 100
in 2025) are our reading of the tracks' material, not checked against a published rule: check them
against your track's guidelines (``--limit`` overrides). Pure data: nothing here reads a file.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .errors import unknown_name

__all__ = ["TRACKS", "TrackPreset", "get_track"]


@dataclass(frozen=True)
class TrackPreset:
    """What one track demands of a run file (see the module docstring)."""

    name: str
    title: str
    run_formats: tuple[str, ...]
    """Run formats the track accepts (``argue_eval.formats`` names)."""
    limit: int | None
    """Length limit when the request states none (``None``: the requests must state it)."""
    unit: Literal["chars", "words"]
    max_references: int | None
    required: tuple[tuple[str, str], ...]
    """(dotted field, kind) pairs every line must have: kind ``str``, ``list``, ``int``."""
    response_required: tuple[str, ...]
    """Fields every entry of the response list (``answer`` / ``responses``) must have."""
    check_response_length: bool = False
    aliases: tuple[str, ...] = ()
    language: str | None = None
    """The language (ISO 639-1) the track's reports must be written in, checked per report (``report-language``)."""


TRACKS: dict[str, TrackPreset] = {preset.name: preset for preset in (
    TrackPreset(
        "neuclir24", "NeuCLIR 2024 report generation", ("neuclir24", "argue"), 2000, "chars", None,
        (("run_id", "str"), ("request_id", "str"), ("collection_ids", "list"), ("sentences", "list")),
        ("text", "citations"), aliases=("neuclir-2024", "neuclir2024"), language="en",
    ),
    TrackPreset(
        "ragtime25", "RAGTIME 2025", ("ragtime",), None, "chars", None,
        (("metadata.team_id", "str"), ("metadata.run_id", "str"), ("metadata.topic_id", "str"),
         ("responses", "list"), ("references", "list")),
        ("text", "citations"), aliases=("ragtime-2025", "ragtime2025"), language="en",
    ),
    TrackPreset(
        "ragtime26", "RAGTIME 2026", ("ragtime",), None, "chars", None,
        (("metadata.team_id", "str"), ("metadata.run_id", "str"), ("metadata.topic_id", "str"),
         ("responses", "list"), ("references", "list")),
        ("text", "citations"), aliases=("ragtime-2026", "ragtime2026"), language="en",
    ),
    TrackPreset(
        "rag24", "TREC RAG 2024", ("rag24",), 400, "words", 20,
        (("run_id", "str"), ("topic_id", "str"), ("topic", "str"), ("references", "list"),
         ("response_length", "int"), ("answer", "list")),
        ("text", "citations"), check_response_length=True, aliases=("trec-rag-2024", "rag2024"),
    ),
    TrackPreset(
        "rag25", "TREC RAG 2025", ("rag25",), 400, "words", 100,
        (("metadata.team_id", "str"), ("metadata.run_id", "str"), ("metadata.narrative_id", "str"),
         ("references", "list"), ("answer", "list")),
        ("text", "citations"), aliases=("trec-rag-2025", "rag2025"),
    ),
)}
"""Track name -> preset; ``get_track`` also takes the aliases (``trec-rag-2024``, ``ragtime-2026``, ...)."""


def track_names() -> list[str]:
    """Every accepted ``--track`` value: names, then aliases."""
    return list(TRACKS) + [alias for preset in TRACKS.values() for alias in preset.aliases]


def get_track(name: str) -> TrackPreset:
    """The preset called ``name`` or one of its aliases (case-insensitive); ``KeyError`` names the known ones."""
    key = name.lower()
    for preset in TRACKS.values():
        if key == preset.name or key in preset.aliases:
            return preset
    raise unknown_name("--track", "track", name, track_names())
