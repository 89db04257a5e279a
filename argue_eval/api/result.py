"""What every API function that computes something returns: one ``Result``, a long table plus details plus notes.

The shape is ir_measures' long table (one row per run, topic and measure) widened a little: ``rows`` hold the table
as the job wrote it (counts as integers, ratios as floats), so a file written from them has the exact bytes the
commands have always written, and ``table`` is the same rows as a pandas DataFrame under ``columns`` (``run_id
request_id metric value`` unless the job's table has other columns, e.g. a leaderboard's). ``details`` are the job's
records (one per run and topic for a measure, the JSON document of a comparison, ...), ``settings`` how it was
computed, ``counts`` the figures a command's summary line gives, and ``data`` the job's own objects for a caller who
needs more than the table (the comparisons a leaderboard renders, the merged nugget bank a command writes).

Notes are kept in the order they arose and, when the caller passes ``on_note``, handed over as they arise, so a
command prints them as before, at the moment they happen. A result carries every note its command prints: a
notebook user sees what a terminal user sees.

A job whose judge or LLM could not judge some items scores the rest: it never counts them as "no", and
``unjudged`` says what is missing and why, one warning per kind, so that a caller (and the commands' exit status 1)
cannot take an incomplete table for a complete one.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from ..formats.scores import SCORE_COLUMNS

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Result", "Note", "NoteLog", "Row", "SCORE_COLUMNS", "notes_of"]

Row = tuple[str, str, str, float]
"""A row of the long score table: ``(run_id, request_id, metric, value)``."""

class Note(NamedTuple):
    """A line for the user beside the results: context (a note) or something missing (a warning); ``kind`` names
    a note of its own sort where the command prints it so (``conflict``, ``renamed``)."""

    text: str
    warning: bool = False
    kind: str = ""

    @property
    def label(self) -> str:
        """How the command line starts it: ``warning``, ``note`` or the note's ``kind``."""
        return self.kind or ("warning" if self.warning else "note")

    def __str__(self) -> str:
        return f"{self.label}: {self.text}"


def notes_of(texts: Iterable[str], warning: bool = False) -> list[Note]:
    """Plain note texts (as the scoring engine writes them) as ``Note`` records."""
    return [Note(text, warning) for text in texts]


class NoteLog:
    """Collects a job's notes in order, handing each to ``forward`` (if given) as it is added; ``unjudged``
    keeps the warnings that say something could not be judged."""

    def __init__(self, forward: Callable[[Note], None] | None = None) -> None:
        self.notes: list[Note] = []
        self.unjudged: list[str] = []
        self.forward = forward

    def note(self, text: str) -> None:
        self._add(Note(text))

    def warn(self, text: str) -> None:
        self._add(Note(text, warning=True))

    def not_judged(self, text: str) -> None:
        """A warning that items could not be judged: the result is incomplete."""
        self.unjudged.append(text)
        self.warn(text)

    def _add(self, note: Note) -> None:
        self.notes.append(note)
        if self.forward is not None:
            self.forward(note)


@dataclass
class Result:
    """What one API call computed.

    ``measure``: what the rows hold (a measure family such as ``argue`` or ``icat``, or the job: ``compare``,
    ``qrels``, ...); ``rows``: the long table (for scores: ``run_id, request_id, metric, value``, per run its
    topics, then its ``all`` rows); ``settings``: how it was computed (a details file's first record);
    ``details``: the job's records (for a measure, one per run and topic); ``runs``/``topics``: what was scored;
    ``counts``: the figures the command's summary line gives (questions asked, model calls, ...); ``notes``:
    notes and warnings, in order; ``unjudged``: the warnings that say which items could not be judged, and why
    (empty when every item was judged); ``columns``: the names of the rows' columns; ``data``: the job's own
    objects, when a caller needs more than the table (``None`` for the measures).
    """

    measure: str
    rows: list[Any] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
    details: list[Any] = field(default_factory=list)
    runs: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    counts: dict[str, Any] = field(default_factory=dict)
    notes: list[Note] = field(default_factory=list)
    unjudged: list[str] = field(default_factory=list)
    columns: tuple[str, ...] = SCORE_COLUMNS
    data: Any = None

    @property
    def complete(self) -> bool:
        """Whether every item was judged: otherwise the scores cover the judged items only, and a rerun (which
        asks again what failed) can change them."""
        return not self.unjudged

    @property
    def warnings(self) -> list[Note]:
        """The notes that say something is missing or wrong (``Note.warning``)."""
        return [note for note in self.notes if note.warning]

    @property
    def table(self) -> pd.DataFrame:
        """The long table as a DataFrame (``columns``; for scores ``run_id, request_id, metric, value``)."""
        import pandas as pd

        return pd.DataFrame(self.rows, columns=list(self.columns))

    def records(self) -> list[dict[str, Any]]:
        """The details file: the settings record, then the details records."""
        return [{"measure": self.measure, "settings": self.settings}, *self.details]
