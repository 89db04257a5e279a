"""The vocabularies the options offer: their choices, and the lists their help prints, from the layers that define
them. Each is loaded when a command first names it (a module ``__getattr__``), so a command's import reads only the
layers its own options need, and no command imports below ``api/`` for them itself (``tests/test_architecture.py``).

``KINDS``, ``CHECKS``, ``TRACKS``, ``track_names``, ``get_track``, ``JUDGMENT_KINDS``, ``JUDGMENT_FORMAT_SPECS``,
``NUGGET_CHECKS``, ``SCORE_TABLE_LAYOUTS``.
"""
from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "KINDS":  # what a file holds: --kind of inspect, convert
        from ..formats.base import KINDS

        return KINDS
    if name == "CHECKS":  # the run checks validate's --warn/--error name
        from ..validate import CHECKS

        return CHECKS
    if name in ("TRACKS", "track_names", "get_track"):  # the track presets of --track
        from .. import tracks

        return getattr(tracks, name)
    if name == "JUDGMENT_KINDS":  # the flowchart's question kinds, in their order
        from ..model import JUDGMENT_KINDS

        return JUDGMENT_KINDS
    if name == "JUDGMENT_FORMAT_SPECS":  # the judgment file formats, for --judgments-format
        from ..formats.judgments import FORMATS

        return FORMATS
    if name == "SCORE_TABLE_LAYOUTS":  # score's --table-format: the score table's layouts
        from ..formats.scores import SCORE_TABLE_LAYOUTS

        return SCORE_TABLE_LAYOUTS
    if name == "NUGGET_CHECKS":  # the checks nuggets validate lists in its help
        from ..organizer.nugget_tools import NUGGET_CHECKS

        return NUGGET_CHECKS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
