"""Systems with several runs: seeds or variants of one system compared as one system.

A team that submits five seeds of one system has one system, not five: ranking the runs side by side counts its
luck five times, and a paired test between two of its seeds says nothing about the system. Here the runs are
grouped by a mapping run -> system, each system's score on a topic is the mean of its runs' scores there (so the
paired tests pair systems topic by topic, as for runs), and the runs' spread is kept beside it: the range and
standard deviation of the runs' means, and the mean over topics of the per-topic range of the runs (how far
apart the seeds land on the same topic). A run the mapping does not name is its own system.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from ..errors import ArgueError
from ..model import natural_key
from .matrix import ScoreMatrix

__all__ = ["group_runs", "system_matrix", "run_spread"]


def group_runs(runs: list[str], mapping: Mapping[str, str]) -> dict[str, list[str]]:
    """System -> its runs (in the matrix's order), systems in natural order; an ``ArgueError`` for a mapping
    that names runs the matrix does not have (a typo would otherwise silently leave a run alone), or a system
    named like a run that the mapping does not put in it (the leaderboard could not tell them apart)."""
    unknown = sorted(set(mapping) - set(runs), key=natural_key)
    if unknown:
        raise ArgueError(f"--system names run(s) not in the score tables: {', '.join(unknown)}; "
                         f"runs present: {', '.join(runs)}")
    groups: dict[str, list[str]] = {}
    for run in runs:
        groups.setdefault(mapping.get(run, run), []).append(run)
    for system, members in groups.items():
        if system in runs and mapping.get(system, system) != system:
            raise ArgueError(f"system name {system!r} is also the id of a run mapped to "
                             f"{mapping[system]!r}; choose another name")
        if system in runs and system not in mapping and len(members) > 1:
            raise ArgueError(f"system name {system!r} is also the id of a run the mapping does not name; map "
                             f"{system}={system} to put that run in it, or choose another name")
    return {system: groups[system] for system in sorted(groups, key=natural_key)}


def system_matrix(matrix: ScoreMatrix, mapping: Mapping[str, str]) -> ScoreMatrix:
    """The systems x topics matrix: per topic the mean of each system's runs; notes name the grouping."""
    groups = group_runs(matrix.runs, mapping)
    values = pd.DataFrame({system: matrix.values.loc[members].mean(axis=0) for system, members in groups.items()}).T
    values.index.name = "run_id"
    values.columns.name = "request_id"
    filled = pd.DataFrame({system: matrix.filled.loc[members].any(axis=0) for system, members in groups.items()}).T
    several = {system: members for system, members in groups.items() if len(members) > 1}
    notes = list(matrix.notes)
    if several:
        notes.append("systems are the per-topic mean of their runs: " + "; ".join(
            f"{system} = {', '.join(members)}" for system, members in several.items()))
    return ScoreMatrix(matrix.metric, values.astype(float), filled.astype(bool), matrix.missing_policy,
                       list(matrix.dropped_topics), notes)


def run_spread(matrix: ScoreMatrix, mapping: Mapping[str, str]) -> pd.DataFrame:
    """Per system (natural order): its runs, their count, the system mean, the lowest and highest run mean,
    their standard deviation (ddof 1; NaN for a single run) and ``topic_range``, the mean over topics of the
    largest minus the smallest run score on that topic (0 for a single run)."""
    groups = group_runs(matrix.runs, mapping)
    rows = []
    for system, members in groups.items():
        block = matrix.values.loc[members].to_numpy(dtype=np.float64)
        run_means = block.mean(axis=1)
        rows.append({
            "system": system, "runs": ",".join(members), "n_runs": len(members), "mean": float(block.mean()),
            "run_min": float(run_means.min()), "run_max": float(run_means.max()),
            "run_sd": float(run_means.std(ddof=1)) if len(members) > 1 else float("nan"),
            "topic_range": float((block.max(axis=0) - block.min(axis=0)).mean()),
        })
    return pd.DataFrame(rows, columns=["system", "runs", "n_runs", "mean", "run_min", "run_max", "run_sd",
                                       "topic_range"])
