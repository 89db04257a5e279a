"""``reusability``: leave one team out of the pool and the nugget bank, rescore its runs, and see how far they move.

For each team (``organizer.teams``): its unique pooled documents, the bank without the answers and nuggets bound
only to them, and the qrels without them (``organizer.reusability``); its runs are rescored with ARGUE from the
same judgments, and each run's score and rank (among every other run's official score) is compared with its
official one. A collection whose scores barely move when a team is left out will judge a new team fairly: the
pool-bias test (Zobel 1998; Buckley, Dimmick, Soboroff and Voorhees 2007), done for nugget banks.

The mean of a rescored run is taken over the official topics: a topic whose every nugget was the left-out
team's is not evaluated in the rescoring, and counts 0 there (the team would find nothing to be credited for).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..argue.policies import Policies
from ..model import ALL_TOPICS, natural_key
from .result import Result, notes_of

__all__ = ["reusability", "REUSABILITY_COLUMNS", "TEAM_COLUMNS"]

REUSABILITY_COLUMNS = ("team", "run_id", "metric", "score", "score_left_out", "change", "rank", "rank_left_out",
                       "rank_change")
TEAM_COLUMNS = ("team", "runs", "unique_documents", "unique_bank_documents", "removed_answers", "removed_nuggets",
                "largest_change", "largest_rank_change")


def reusability(
    runs: Any,
    nuggets: Any,
    judgments: Any,
    *,
    metrics: str | Sequence[str] = ("f1", "nugget_coverage"),
    teams: Mapping[str, str] | None = None,
    team_pattern: str | None = None,
    depth: int | None = None,
    pool: Any = None,
    requests: Any = None,
    qrels: Any = None,
    policies: Policies | None = None,
) -> Result:
    """Leave each team out and rescore its runs (see the module docstring).

    ``runs``: report run paths or ``Report`` records (a report contributes the documents it cites, the first
    ``depth`` of them when given); ``nuggets``, ``judgments``, ``requests``, ``qrels``: as for ``score``;
    ``teams``/``team_pattern``: which team a run is (``organizer.teams.assign_teams``; else the runs'
    ``team_id``, else the run id up to its first ``-``, ``_`` or ``.``); ``pool``: the round's pool (a
    qrels-shaped file, or ``{topic: [doc, ...]}``), so that only documents judged count as contributed.

    ``table``: per team, run and metric the official score and rank, the score and rank with the team left out,
    and the changes (``change = score_left_out - score``; ``rank_change = rank_left_out - rank``, positive when the
    run falls). ``data``: ``{"teams": DataFrame}`` (``TEAM_COLUMNS``: what each team alone contributed and its
    largest changes, the first metric's) and ``{"left_out": [LeaveOut, ...]}``. ``details``: per team its unique
    documents by topic and the removed answers and nuggets.
    """
    import pandas as pd

    from ..errors import OptionError
    from ..inputs import iter_reports, load_judgments, read_nugget_list, read_qrels_rows
    from ..organizer.reusability import contributors, leave_out_qrels, leave_team_out
    from ..organizer.teams import assign_teams, team_runs
    from .calc import calc_family

    policies = policies or Policies()
    if policies.relevance == "judgments":
        raise OptionError("--relevance", "leaving a team out needs relevance from the nuggets or the qrels; with "
                          "relevance from judgments the left-out documents would still be judged relevant")
    names = [metrics] if isinstance(metrics, str) else list(metrics)
    reports = list(iter_reports(runs))
    bank = read_nugget_list(nuggets)
    qrels_rows = read_qrels_rows(qrels)
    lookup = load_judgments(judgments, bank)
    metadata: dict[str, dict[str, Any]] = {}
    for report in reports:
        metadata.setdefault(report.run_id, dict(report.metadata))
    run_ids = sorted(metadata, key=natural_key)
    team_of, notes = assign_teams(run_ids, teams, team_pattern, metadata)
    holders = contributors(_rankings(reports), team_of, depth, _pool_topics(pool))
    official = calc_family("argue", runs=reports, nuggets=bank, judgments=lookup, requests=requests, qrels=qrels_rows,
                           policies=policies, details=False)
    notes.extend(note.text for note in official.notes)
    topics = official.topics
    scores = {metric: _means(official.rows, metric, topics) for metric in names}
    for metric in names:
        if not scores[metric]:
            raise OptionError("--metric", f"{metric!r} is not an ARGUE measure of the scored runs")
    bank_docs = {(t.request_id, d) for t in bank for n in t.nuggets for a in n.answers for d in a.doc_ids}
    rows, team_rows, details, left_out = [], [], [], []
    for team, members in team_runs(team_of).items():
        out = leave_team_out(team, members, holders, bank)
        left_out.append(out)
        after_means = {metric: scores[metric] for metric in names}
        if out.unique_count:
            mine = [report for report in reports if report.run_id in set(members)]
            rescored = calc_family("argue", runs=mine, nuggets=out.nuggets, judgments=lookup, requests=requests,
                                   qrels=None if qrels_rows is None else leave_out_qrels(qrels_rows, out.unique),
                                   policies=policies, details=False)
            after_means = {metric: _means(rescored.rows, metric, topics) for metric in names}
            dropped = sorted(set(topics) - set(rescored.topics), key=natural_key)
            if dropped:
                notes.append(f"without {team}, topic(s) {', '.join(dropped)} have no nugget left: its runs score 0 there")
        changes = []
        for run in members:
            for metric in names:
                before = scores[metric][run]
                after = after_means[metric][run]
                rank = _rank(scores[metric], run, before)
                rank_after = _rank(scores[metric], run, after)
                rows.append((team, run, metric, before, after, after - before, rank, rank_after, rank_after - rank))
                if metric == names[0]:
                    changes.append((after - before, rank_after - rank))
        team_rows.append((team, ",".join(members), out.unique_count,
                          sum((topic, doc) in bank_docs for topic, docs in out.unique.items() for doc in docs),
                          len(out.removed_answers), len(out.removed_nuggets),
                          min((c for c, _ in changes), key=lambda c: (-abs(c), c)) if changes else 0.0,
                          max((r for _, r in changes), key=abs) if changes else 0))
        details.append({"team": team, "runs": members, "unique_documents": out.unique,
                        "removed_answers": [list(item) for item in out.removed_answers],
                        "removed_nuggets": [list(item) for item in out.removed_nuggets]})
    team_frame = pd.DataFrame(team_rows, columns=list(TEAM_COLUMNS))
    notes.extend(_largest(team_frame, names[0]))
    settings = {"metrics": names, "depth": depth, "pool": None if pool is None else str(pool) if not isinstance(pool, Mapping) else "given",
                "teams": dict(sorted(team_of.items())), "policies": policies.describe()}
    return Result("reusability", rows, settings, details, run_ids, list(topics), notes=notes_of(dict.fromkeys(notes)),
                  columns=REUSABILITY_COLUMNS, data={"teams": team_frame, "left_out": left_out})


def _rankings(reports: Sequence[Any]) -> list[Any]:
    """Each run's cited documents per topic, in order of first citation (what pooling a report run takes)."""
    from ..formats.ranked import Rankings

    runs: dict[str, dict[str, list[str]]] = {}
    for report in reports:
        cited = list(dict.fromkeys(doc for sentence in report.sentences for doc in sentence.citations))
        runs.setdefault(report.run_id, {})[report.request_id] = cited
    return [Rankings(name, topics) for name, topics in sorted(runs.items())]


def _pool_topics(pool: Any) -> dict[str, list[str]] | None:
    if pool is None or isinstance(pool, Mapping):
        return None if pool is None else {str(topic): list(docs) for topic, docs in pool.items()}
    from ..organizer.qrels import read_qrels

    return {topic: sorted(docs) for topic, docs in read_qrels(pool).items()}


def _means(rows: Sequence[tuple[str, str, str, float]], metric: str, topics: Sequence[str]) -> dict[str, float]:
    """Per run, the mean of ``metric`` over ``topics`` (a topic without a row counts 0)."""
    values: dict[str, dict[str, float]] = {}
    for run, topic, name, value in rows:
        if name == metric and topic != ALL_TOPICS:
            values.setdefault(run, {})[topic] = float(value)
    return {run: sum(by_topic.get(topic, 0.0) for topic in topics) / len(topics) if topics else 0.0
            for run, by_topic in values.items()}


def _rank(official: Mapping[str, float], run: str, score: float) -> int:
    """``run``'s place with ``score`` among every other run's official score (1 = best; ties go to ``run``)."""
    return 1 + sum(1 for other, value in official.items() if other != run and value > score)


def _largest(teams: Any, metric: str) -> list[str]:
    if teams.empty:
        return []
    worst = teams.loc[teams["largest_change"].abs().idxmax()]
    falls = teams.loc[teams["largest_rank_change"].abs().idxmax()]
    ranks = (f"largest rank change: {falls['team']} ({int(falls['largest_rank_change']):+d})"
             if falls["largest_rank_change"] else "no run changes rank")
    return [f"largest {metric} change when a team is left out: {worst['team']} ({worst['largest_change']:+.4f}; "
            f"{worst['unique_documents']} unique document(s), {worst['removed_nuggets']} nugget(s) found only "
            f"through it); {ranks}"]
