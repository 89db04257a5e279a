"""The alternate measures' result, under its first name: ``MeasureResult`` is ``api.result.Result`` (the one
result shape of the API), and ``Note``, ``NoteLog`` and ``Row`` are that module's."""
from __future__ import annotations

from .result import Note, NoteLog, Result, Row

MeasureResult = Result
"""One measure over runs and topics: the same class as ``Result``."""

__all__ = ["Note", "NoteLog", "MeasureResult", "Row", "Result"]
