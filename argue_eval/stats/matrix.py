"""The systems x topics score matrix every statistic works on, and the policy for topics a run lacks.

Significance tests and bootstrap intervals need one value per (system, topic) for the same topics, so the
long score rows are pivoted here, once, with every gap accounted for: a topic a run did not score is 0 (as
``trec_eval -c`` does, so a run that skipped a hard topic is not rewarded) or the topic is dropped for all
systems. What was filled or dropped is recorded in ``notes`` so that no table silently rests on it.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..errors import ArgueError, InputError, OptionError, unknown_name
from ..model import ALL_TOPICS, ScoreRecord, natural_key

MISSING_POLICIES: tuple[str, ...] = ("zero", "drop-topic")


@dataclass
class ScoreMatrix:
    """Scores of one metric: ``values`` is a DataFrame indexed by run id (rows) and request id (columns).

    ``filled`` marks the cells that were missing and set to 0 under the ``zero`` policy; ``notes`` explains
    every such adjustment in words, for the tables that use the matrix.
    """

    metric: str
    values: pd.DataFrame
    filled: pd.DataFrame
    missing_policy: str = "zero"
    dropped_topics: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def runs(self) -> list[str]:
        return list(self.values.index)

    @property
    def topics(self) -> list[str]:
        return list(self.values.columns)

    def missing_counts(self) -> dict[str, int]:
        """Per run, how many of its cells were filled with 0."""
        return {run: int(count) for run, count in self.filled.sum(axis=1).items()}


def records_to_matrix(
    records: Iterable[ScoreRecord], metric: str, missing: str = "zero", source: str = "the score tables"
) -> ScoreMatrix:
    """Pivot score records of ``metric`` into a complete systems x topics matrix under the missing-topic policy.

    ``all`` rows (aggregates) are ignored; a NaN value is treated as a missing cell; a (run, topic) given twice
    is an ``InputError`` naming both places, since silently keeping one would change results.
    """
    if missing not in MISSING_POLICIES:
        raise unknown_name("--missing", "missing-topic policy", missing, MISSING_POLICIES)
    cells: dict[tuple[str, str], float] = {}
    where: dict[tuple[str, str], str] = {}
    metrics_seen: set[str] = set()
    runs: set[str] = set()
    runs_with_topics: set[str] = set()
    topics: set[str] = set()
    nan_cells: list[tuple[str, str]] = []
    for record in records:
        metrics_seen.add(record.metric)
        if record.metric != metric:
            continue
        runs.add(record.run_id)
        if record.request_id == ALL_TOPICS:
            continue
        key = (record.run_id, record.request_id)
        here = f"{record.path}:{record.line}"
        if key in where:
            raise InputError(record.path, record.line, None,
                             f"run {record.run_id!r} topic {record.request_id!r} metric {metric!r} given twice (also at {where[key]})")
        where[key] = here
        runs_with_topics.add(record.run_id)
        topics.add(record.request_id)
        if math.isnan(record.value):
            nan_cells.append(key)
            continue
        cells[key] = record.value
    if not runs:
        known = ", ".join(sorted(metrics_seen, key=natural_key)) or "none"
        raise ArgueError(f"metric {metric!r} not found in {source}; metrics present: {known}")
    only_all = sorted(runs - runs_with_topics, key=natural_key)
    if only_all and runs_with_topics:
        raise ArgueError(f"run(s) {', '.join(only_all)} have only 'all' rows for {metric!r} in {source}; "
                         "per-topic values are needed (e.g. trec_eval -q)")
    run_order = sorted(runs, key=natural_key)
    topic_order = sorted(topics, key=natural_key)
    if not topic_order:
        raise ArgueError(f"{source} hold only 'all' rows for {metric!r}; per-topic values are needed (trec_eval -q)")
    run_position = {run: k for k, run in enumerate(run_order)}
    topic_position = {topic: k for k, topic in enumerate(topic_order)}
    grid = np.zeros((len(run_order), len(topic_order)))
    mask = np.zeros(grid.shape, dtype=bool)
    for (run, topic), value in cells.items():  # filled as arrays: a cell-by-cell DataFrame.at is 100x slower
        grid[run_position[run], topic_position[topic]] = value
        mask[run_position[run], topic_position[topic]] = True
    present = pd.DataFrame(mask, index=run_order, columns=topic_order)
    values = pd.DataFrame(grid, index=run_order, columns=topic_order)
    notes: list[str] = []
    if nan_cells:
        notes.append(f"{len(nan_cells)} NaN value(s) in the input were treated as missing: "
                     + _list_cells(nan_cells))
    absent = ~present
    dropped: list[str] = []
    if missing == "drop-topic":
        keep = present.all(axis=0)
        dropped = [topic for topic in topic_order if not keep[topic]]
        if dropped:
            notes.append(f"--missing drop-topic: {len(dropped)} topic(s) not scored for every run were dropped: "
                         + ", ".join(dropped[:20]) + (" ..." if len(dropped) > 20 else ""))
        values = values.loc[:, keep]
        present = present.loc[:, keep]
        absent = ~present
        if values.shape[1] == 0:
            raise OptionError("--missing", f"drop-topic left no topic that every run scored for {metric!r}")
    elif absent.values.any():
        per_run = absent.sum(axis=1)
        parts = [f"{run} ({int(count)})" for run, count in per_run.items() if count]
        notes.append(f"--missing zero: {int(absent.values.sum())} missing (run, topic) cell(s) scored 0, as trec_eval -c: "
                     + ", ".join(parts))
    values.index.name = "run_id"
    values.columns.name = "request_id"
    return ScoreMatrix(metric, values, absent.astype(bool), missing, dropped, notes)


def _list_cells(cells: Sequence[tuple[str, str]], limit: int = 10) -> str:
    shown = ", ".join(f"{run}/{topic}" for run, topic in cells[:limit])
    return shown + (f" and {len(cells) - limit} more" if len(cells) > limit else "")


def from_frame(frame: pd.DataFrame, metric: str = "score") -> ScoreMatrix:
    """Wrap a complete systems x topics DataFrame (index: runs, columns: topics) for the Python API.

    NaN cells are not allowed here; build the matrix with ``records_to_matrix`` to apply a missing policy.
    """
    values = frame.astype(float)
    if values.isna().values.any():
        raise ArgueError("the score matrix has NaN cells; use records_to_matrix to apply a missing-topic policy")
    values = values.copy()
    values.index = [str(index) for index in values.index]
    values.columns = [str(column) for column in values.columns]
    values.index.name = "run_id"
    values.columns.name = "request_id"
    filled = pd.DataFrame(False, index=values.index, columns=values.columns)
    return ScoreMatrix(metric, values, filled)


def as_matrix(data: ScoreMatrix | pd.DataFrame) -> ScoreMatrix:
    """Accept either a ScoreMatrix or a plain DataFrame (systems x topics) in the public functions."""
    return data if isinstance(data, ScoreMatrix) else from_frame(data)


def to_array(matrix: ScoreMatrix) -> np.ndarray:
    """The values as a C-contiguous float64 array (systems x topics)."""
    return np.ascontiguousarray(matrix.values.to_numpy(dtype=np.float64))
