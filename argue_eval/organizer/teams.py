"""Which team submitted which run: the unit of the leave-one-team-out test and of the participant packets.

A track's runs carry their team in different ways, so a team is found, per run, by the first of: an explicit
mapping (``RUN=TEAM`` options or a mapping file), the run's ``team_id`` metadata (RAGTIME and NeuCLIR runs
have one), or a pattern on the run id whose first group is the team (``DEFAULT_PATTERN``: the run id up to its
first ``-``, ``_`` or ``.``; e.g. ``^zho[-_]([a-z]+)`` for ``zho-jhu-...`` and ``zho_irlab-...``). A run id the
pattern does not match is its own team, said in a note.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import OptionError
from ..model import natural_key

__all__ = ["DEFAULT_PATTERN", "assign_teams", "team_runs"]

DEFAULT_PATTERN = r"^([^-_.]+)"


def assign_teams(runs: Sequence[str], mapping: Mapping[str, str] | None = None, pattern: str | None = None,
                 metadata: Mapping[str, Mapping[str, Any]] | None = None) -> tuple[dict[str, str], list[str]]:
    """Run -> team for every run, and notes saying how the teams were found.

    ``mapping`` wins for the runs it names (a run it names that is not among ``runs`` is an ``OptionError``);
    then ``metadata[run]["team_id"]`` when given and ``pattern`` is not; then ``pattern`` (default
    ``DEFAULT_PATTERN``).
    """
    mapping = dict(mapping or {})
    unknown = sorted(set(mapping) - set(runs), key=natural_key)
    if unknown:
        raise OptionError("--team", f"names run(s) that are not among the runs: {', '.join(unknown)}")
    try:
        compiled = re.compile(pattern or DEFAULT_PATTERN)
    except re.error as error:
        raise OptionError("--team-pattern", f"not a regular expression: {error}") from None
    if compiled.groups < 1:
        raise OptionError("--team-pattern", "needs a group for the team, e.g. '^([^-]+)-'")
    teams: dict[str, str] = {}
    unmatched: list[str] = []
    by_metadata = 0
    for run in runs:
        if run in mapping:
            teams[run] = mapping[run]
            continue
        team_id = (metadata or {}).get(run, {}).get("team_id") if pattern is None else None
        if isinstance(team_id, str) and team_id.strip():
            teams[run] = team_id.strip()
            by_metadata += 1
            continue
        match = compiled.search(run)
        if match and match.group(1):
            teams[run] = match.group(1)
        else:
            teams[run] = run
            unmatched.append(run)
    notes = []
    if by_metadata:
        notes.append(f"teams of {by_metadata} run(s) from their team_id metadata")
    if unmatched:
        notes.append(f"{len(unmatched)} run id(s) do not match the team pattern {compiled.pattern!r} and are their "
                     f"own team: {', '.join(unmatched[:10])}" + (" ..." if len(unmatched) > 10 else ""))
    return teams, notes


def team_runs(teams: Mapping[str, str]) -> dict[str, list[str]]:
    """Team -> its runs, both in natural order."""
    out: dict[str, list[str]] = {}
    for run in sorted(teams, key=natural_key):
        out.setdefault(teams[run], []).append(run)
    return {team: out[team] for team in sorted(out, key=natural_key)}
