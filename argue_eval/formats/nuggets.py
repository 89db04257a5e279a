"""nuggets formats (placeholder until implemented)."""
from __future__ import annotations

from .base import FormatSpec

FORMATS: list[FormatSpec] = []
