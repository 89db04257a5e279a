"""Writing what the API computed: a score table, a file of records, several outputs as one set.

The commands write their outputs through these (and through the ``write_*`` function beside each job, e.g.
``api.write_judgments``, ``api.write_pool``), never through the file formats directly: ``-`` is standard output,
every file is replaced atomically, and inside ``commit_together`` the files of one command appear together or not
at all.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import Any

from ..formats.scores import autoargue_rows, score_lines, write_scores_tsv
from ..writing import commit_together, write_jsonl

__all__ = ["write_scores", "write_records", "commit_together"]


def write_scores(rows: Iterable[tuple[str, str, str, float | int]], output: str | os.PathLike[str],
                 layout: str = "argue") -> None:
    """The long score table (``run_id request_id metric value``, a ``Result``'s ``rows``) to ``output`` (``-``:
    standard output); ``layout="autoargue"`` lays ARGUE's rows out as an Auto-ARGUE score file (its measures, ``all``
    rows first, values as floats: ``formats.scores.SCORE_TABLE_LAYOUTS``)."""
    if layout != "argue":
        from ..errors import OptionError
        from ..formats.scores import SCORE_TABLE_LAYOUTS

        if layout not in SCORE_TABLE_LAYOUTS:
            raise OptionError("--table-format", f"expected one of {', '.join(SCORE_TABLE_LAYOUTS)}, found {layout!r}")
        rows = autoargue_rows(list(rows))
    if os.fspath(output) == "-":
        sys.stdout.writelines(score_lines(rows))
    else:
        write_scores_tsv(rows, output)


def write_records(records: Iterable[Any], output: str | os.PathLike[str]) -> int:
    """One JSON line per record (a ``Result``'s ``details``, or its ``records()``), atomically; the count."""
    return write_jsonl(output, records)
