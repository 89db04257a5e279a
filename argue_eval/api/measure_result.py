"""What an alternate measure's API function returns: the long score table, the details records, and the
counts and notes the command prints.

The rows stay as the measure family wrote them (counts as integers, ratios as floats), so a table written
from them has the exact bytes the commands have always written; ``table`` is the same rows as a DataFrame.
Notes are kept in the order they arose and, when the caller passes ``on_note``, handed over as they arise,
so a command prints them as before, at the moment they happen.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Note", "NoteLog", "MeasureResult", "Row"]

Row = tuple[str, str, str, float]


class Note(NamedTuple):
    """A line for the user beside the results: context (a note) or something missing (a warning)."""

    text: str
    warning: bool = False

    def __str__(self) -> str:
        return f"{'warning' if self.warning else 'note'}: {self.text}"


class NoteLog:
    """Collects a measure run's notes in order, handing each to ``forward`` (if given) as it is added."""

    def __init__(self, forward: Callable[[Note], None] | None = None) -> None:
        self.notes: list[Note] = []
        self.forward = forward

    def note(self, text: str) -> None:
        self._add(Note(text))

    def warn(self, text: str) -> None:
        self._add(Note(text, warning=True))

    def _add(self, note: Note) -> None:
        self.notes.append(note)
        if self.forward is not None:
            self.forward(note)


@dataclass
class MeasureResult:
    """One measure over runs and topics.

    ``rows``: the long table (``run_id, request_id, metric, value``; per run its topics, then its ``all``
    rows); ``settings``: how it was computed (the details file's first record); ``details``: one record per
    run and topic; ``runs``/``topics``: what was scored; ``counts``: the figures the command's summary line
    gives (questions asked, model calls, ...); ``notes``: notes and warnings, in order.
    """

    measure: str
    rows: list[Row]
    settings: dict[str, Any]
    details: list[dict[str, Any]]
    runs: list[str]
    topics: list[str]
    counts: dict[str, Any] = field(default_factory=dict)
    notes: list[Note] = field(default_factory=list)

    @property
    def table(self) -> pd.DataFrame:
        """The long score table as a DataFrame (columns ``run_id, request_id, metric, value``)."""
        import pandas as pd

        return pd.DataFrame(self.rows, columns=["run_id", "request_id", "metric", "value"])

    def records(self) -> list[dict[str, Any]]:
        """The details file: the settings record, then one record per run and topic."""
        return [{"measure": self.measure, "settings": self.settings}, *self.details]
