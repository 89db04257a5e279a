"""Participant packets: each team's results against the field, with nothing of another team's runs.

TREC returns to every participant their own runs' scores per topic beside the median, best and worst over all
runs of the round, without naming the other runs. A packet here is that for one team: its score rows, the field
table (``FIELD_COLUMNS``: per run of the team, topic and measure, its value and the round's median, best and
worst), and the data of an HTML report restricted to its runs (its leaderboard, heatmap, reports and nuggets
covered, with the field's median, best and worst per topic beside them). The other runs appear only through
those three numbers per topic; no run id, sentence or judgment of theirs is in a packet (``tests`` scan every
file of every packet for them). The people view is left out (its disagreements quote any run's sentences).

``build_packets`` is records in, records out; ``write_packets`` writes each packet's folder: ``report.html``,
``scores.tsv`` (the team's rows of the score table, in the kit's score-table format), ``field.tsv`` and, with
``figures``, ``figures/`` (each run per topic against the field), every file of every folder as one set.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from typing import Any

import numpy as np

from ..model import ALL_TOPICS, ScoreRecord, natural_key, normalize_text
from .data import ReportData, ReportOptions, as_score_records, build_report_data, is_measure

__all__ = ["FIELD_COLUMNS", "PACKET_FILES", "Packet", "field_stats", "field_rows", "build_packets", "folder_name",
           "write_packets"]

PACKET_FILES = ("report.html", "scores.tsv", "field.tsv")

FIELD_COLUMNS = ("run_id", "request_id", "metric", "value", "median", "best", "worst")


@dataclass
class Packet:
    """One team's packet: its runs, its score rows, the field rows and its report's data."""

    team: str
    folder: str
    runs: list[str]
    scores: list[tuple[str, str, str, float]]
    field: list[tuple[str, str, str, float, float, float, float]]
    report: ReportData


def folder_name(team: str) -> str:
    """A team name as a folder name: letters, digits, ``.``, ``_`` and ``-`` kept, the rest ``_``; never empty,
    never ``.`` or ``..``."""
    name = re.sub(r"[^A-Za-z0-9._-]", "_", team).strip(".") or "_"
    return name


def field_stats(matrices: Mapping[str, Any], topics: Sequence[str]) -> dict[str, Any]:
    """Per measure, the median, best and worst over every run of the round on each of ``topics`` (``None``
    where no run has the topic), and of the runs' means: what a packet's page shows beside the team's runs."""
    measures: dict[str, Any] = {}
    runs = 0
    for metric, matrix in matrices.items():
        values = matrix.values
        runs = max(runs, len(values.index))
        entry: dict[str, Any] = {}
        for what, reduce in (("median", np.median), ("best", np.max), ("worst", np.min)):
            entry[what] = [float(reduce(values[topic].to_numpy(dtype=float))) if topic in values.columns else None
                           for topic in topics]
        means = values.mean(axis=1).to_numpy(dtype=float)
        entry["mean"] = {"median": float(np.median(means)), "best": float(means.max()), "worst": float(means.min())}
        measures[metric] = entry
    return {"runs": runs, "measures": measures}


def field_rows(matrices: Mapping[str, Any], runs: Iterable[str]) -> list[tuple[str, str, str, float, float, float, float]]:
    """``FIELD_COLUMNS`` rows: per run (natural order), measure and topic its value and the round's median, best
    and worst there; then the run's mean over topics against the median, best and worst of the runs' means
    (topic ``all``)."""
    rows = []
    wanted = sorted(runs, key=natural_key)
    for metric, matrix in matrices.items():
        values = matrix.values
        grid = values.to_numpy(dtype=float)
        median, best, worst = np.median(grid, axis=0), grid.max(axis=0), grid.min(axis=0)
        means = grid.mean(axis=1)
        for run in wanted:
            if run not in values.index:
                continue
            mine = values.loc[run].to_numpy(dtype=float)
            for k, topic in enumerate(values.columns):
                rows.append((run, str(topic), metric, float(mine[k]), float(median[k]), float(best[k]), float(worst[k])))
            rows.append((run, ALL_TOPICS, metric, float(mine.mean()), float(np.median(means)), float(means.max()),
                         float(means.min())))
    return rows


def build_packets(
    scores: Iterable[Any],
    teams: Mapping[str, str],
    *,
    details: Iterable[Mapping[str, Any]] = (),
    requests: Iterable[Any] = (),
    nuggets: Iterable[Any] = (),
    judgments: Iterable[Any] = (),
    documents: Any = None,
    collection: str | PathLike[str] | None = None,
    options: ReportOptions | None = None,
    flags: Mapping[str, Sequence[Sequence[str]]] | None = None,
) -> list[Packet]:
    """One packet per team (natural order of team names) from the whole round's score rows; ``teams`` maps
    every run to its team (``organizer.teams.assign_teams``). ``details``, ``requests``, ``nuggets``,
    ``judgments``, ``documents`` and ``options`` are the HTML report's (details and judgments are kept per
    team: only its reports' records reach its page); ``collection`` (a JSONL file, Lucene index or ``irds:`` id)
    is opened for ``documents`` when none is given, as ``write_report`` does."""
    from ..stats.matrix import records_to_matrix

    if documents is None and collection is not None:
        from ..collection import open_collection

        with open_collection(collection) as store:
            return build_packets(scores, teams, details=details, requests=requests, nuggets=nuggets,
                                 judgments=judgments, documents=store.lookup, options=options, flags=flags)

    records: list[ScoreRecord] = as_score_records(scores)
    detail_list = list(details)
    judgment_list = list(judgments)
    request_list, nugget_list = list(requests), list(nuggets)
    per_topic = sorted({r.metric for r in records if r.request_id != ALL_TOPICS and is_measure(r.metric)})
    matrices = {metric: records_to_matrix(records, metric, "zero", "the score table") for metric in per_topic}
    by_team: dict[str, list[str]] = {}
    for run in sorted({record.run_id for record in records}, key=natural_key):
        by_team.setdefault(teams.get(run, run), []).append(run)
    import dataclasses

    base = options or ReportOptions()
    packets = []
    folders: set[str] = set()
    for team in sorted(by_team, key=natural_key):
        # the page names only the packet's own score table, never the round's files (a file may be named by a run)
        team_options = dataclasses.replace(base, scores_source="scores.tsv", title=f"{base.title}: {team}")
        runs = by_team[team]
        mine = set(runs)
        own_records = [record for record in records if record.run_id in mine]
        own_details = [record for record in detail_list if record.get("run_id") in mine]
        sentences = set().union(*(_sentences(record) for record in own_details)) if own_details else set()
        own_judgments = [j for j in judgment_list if j.run_id in mine or
                         (j.run_id is None and (j.request_id, normalize_text(j.sentence)) in sentences)]
        topics = sorted({r.request_id for r in own_records if r.request_id != ALL_TOPICS}, key=natural_key)
        data = build_report_data(own_records, own_details, request_list, nugget_list, own_judgments, documents,
                                 team_options, run_ids=runs, flags=flags)
        data.main["field"] = field_stats(matrices, data.main["topics"] or topics)
        folder = folder_name(team)
        while folder in folders:  # two team names that fold to one folder name
            folder += "_"
        folders.add(folder)
        packets.append(Packet(team, folder, runs, [(r.run_id, r.request_id, r.metric, r.value) for r in own_records],
                              field_rows(matrices, runs), data))
    return packets


def _sentences(record: Mapping[str, Any]) -> set[tuple[str, str]]:
    """The (topic, normalized sentence) pairs of one details record: the judgments its page may show."""
    topic = str(record.get("request_id", ""))
    return {(topic, normalize_text(str(sentence.get("text", "")))) for sentence in record.get("sentences", []) or []}


def _number(value: float | int) -> str:
    """A value as the score tables write it: integers as integers, floats by their shortest round trip."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return repr(float(value))


def _tsv(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A tab-separated table; ids come from input, so one holding a tab or line break is refused, never written."""
    from ..errors import ArgueError

    lines = ["\t".join(columns)]
    for row in rows:
        cells = []
        for cell in row:
            if isinstance(cell, str):
                if any(char in cell for char in "\t\r\n"):
                    raise ArgueError(f"id {cell!r} contains a tab or line break, which a TSV table cannot hold")
                cells.append(cell)
            else:
                cells.append(_number(cell))
        lines.append("\t".join(cells))
    return "\n".join(lines) + "\n"


def write_packets(directory: str | PathLike[str], packets: Sequence[Packet], *, figures: bool = False,
                  records: Sequence[ScoreRecord] = (), options: ReportOptions | None = None) -> list[tuple[str, str, str, int]]:
    """Write every packet under ``directory`` (created if missing) as one set; returns per packet ``(team,
    folder, runs, files written)``. ``figures`` (needs matplotlib) adds each run per topic against the whole
    round (``records``: every run's score records) in ``figures/``."""
    from pathlib import Path

    from ..writing import atomic_writer, commit_together
    from .html import render_html

    out = Path(directory)
    rows = []
    with commit_together():
        for packet in packets:
            folder = out / packet.folder
            folder.mkdir(parents=True, exist_ok=True)
            with atomic_writer(folder / "report.html") as handle:
                handle.write(render_html(packet.report))
            with atomic_writer(folder / "scores.tsv") as handle:
                handle.write(_tsv(("run_id", "request_id", "metric", "value"), packet.scores))
            with atomic_writer(folder / "field.tsv") as handle:
                handle.write(_tsv(FIELD_COLUMNS, packet.field))
            files = len(PACKET_FILES)
            if figures:
                files += _packet_figures(folder / "figures", packet, records, options)
            rows.append((packet.team, packet.folder, ",".join(packet.runs), files))
    return rows


def _packet_figures(directory: Any, packet: Packet, records: Sequence[ScoreRecord], options: ReportOptions | None) -> int:
    """Each of the packet's runs per topic against the whole round (the field unnamed in the figure)."""
    from ..stats.matrix import records_to_matrix
    from .figure_set import write_figures
    from .figures import require_matplotlib

    require_matplotlib()
    measure = packet.report.main["measure"]
    whole = records_to_matrix(records, measure, "zero", "the score table")
    mine = records_to_matrix([r for r in records if r.run_id in set(packet.runs)], measure, "zero", "the score table")
    written = write_figures(directory, {measure: mine}, measure, options, runs=packet.runs,
                            field_values=whole.values, overview=False)
    return sum(len(figure.files) for figure in written)
