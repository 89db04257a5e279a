"""Per-topic score tables: our long TSV (``run_id request_id metric value``), the common currency between
``score``/``retrieval`` (which write it) and ``compare``/``agree`` (which read it).

One row per run x topic x measure plus ``all`` rows for aggregates, trec_eval style, so any downstream
script can ``cut``/``awk``/pandas it. Values are printed in full precision (Python's shortest round-trip
``repr``) so that a reread table equals the computed one exactly and reruns are byte-identical.
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from os import PathLike

from ..jsonio import atomic_writer

SCORE_COLUMNS = ("run_id", "request_id", "metric", "value")
ALL_TOPICS = "all"


def format_value(value: float | int) -> str:
    """Full-precision text for a score: integers as integers, floats by shortest round-trip repr."""
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        raise ValueError("NaN in a score table; record undefined values explicitly instead")
    if value.is_integer() and abs(value) < 2**53:
        return repr(value)
    return repr(float(value))


def write_scores_tsv(rows: Iterable[tuple[str, str, str, float | int]], path: str | PathLike[str]) -> int:
    """Atomically write ``(run_id, request_id, metric, value)`` rows under the standard header, in the order given."""
    count = 0
    with atomic_writer(path) as handle:
        handle.write("\t".join(SCORE_COLUMNS) + "\n")
        for run_id, request_id, metric, value in rows:
            handle.write(f"{run_id}\t{request_id}\t{metric}\t{format_value(value)}\n")
            count += 1
    return count
