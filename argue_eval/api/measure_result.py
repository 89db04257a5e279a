"""What an alternate measure's API function returns: the long score table, the details records, the counts
and notes the command prints, and what could not be judged.

The rows stay as the measure family wrote them (counts as integers, ratios as floats), so a table written
from them has the exact bytes the commands have always written; ``table`` is the same rows as a DataFrame.
Notes are kept in the order they arose and, when the caller passes ``on_note``, handed over as they arise,
so a command prints them as before, at the moment they happen.

A measure whose judge or LLM could not judge some items scores the rest: it never counts them as "no", and
``unjudged`` says what is missing and why, one warning per kind, so that a caller (and the commands' exit
status 1) cannot take an incomplete table for a complete one.
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
    """Collects a measure run's notes in order, handing each to ``forward`` (if given) as it is added;
    ``unjudged`` keeps the warnings that say something could not be judged."""

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
class MeasureResult:
    """One measure over runs and topics.

    ``rows``: the long table (``run_id, request_id, metric, value``; per run its topics, then its ``all``
    rows); ``settings``: how it was computed (the details file's first record); ``details``: one record per
    run and topic; ``runs``/``topics``: what was scored; ``counts``: the figures the command's summary line
    gives (questions asked, model calls, ...); ``notes``: notes and warnings, in order; ``unjudged``: the
    warnings that say which items could not be judged, and why (empty when every item was judged).
    """

    measure: str
    rows: list[Row]
    settings: dict[str, Any]
    details: list[dict[str, Any]]
    runs: list[str]
    topics: list[str]
    counts: dict[str, Any] = field(default_factory=dict)
    notes: list[Note] = field(default_factory=list)
    unjudged: list[str] = field(default_factory=list)
    judge_run: Any = None
    """The judge run behind the scores when the family asked a judge for them (ARGUE with a judge: an
    ``api.judge.JudgeResult``, whose judgments ``evaluate`` writes), else ``None``."""

    @property
    def complete(self) -> bool:
        """Whether every item was judged: otherwise the scores cover the judged items only, and a rerun (which
        asks again what failed) can change them."""
        return not self.unjudged

    @property
    def table(self) -> pd.DataFrame:
        """The long score table as a DataFrame (columns ``run_id, request_id, metric, value``)."""
        import pandas as pd

        return pd.DataFrame(self.rows, columns=["run_id", "request_id", "metric", "value"])

    def records(self) -> list[dict[str, Any]]:
        """The details file: the settings record, then one record per run and topic."""
        return [{"measure": self.measure, "settings": self.settings}, *self.details]
