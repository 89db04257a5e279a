"""Views: the tables people read, built from score rows and comparisons, shared by the terminal and the HTML report.

Nothing here computes a measure or a statistic: a view only picks, orders and formats numbers that a score
table or a ``Comparison`` already holds, so the terminal, the Markdown/LaTeX exports and the HTML report never
disagree. Commands render these ``Table`` objects with ``argue_eval.tables``; ``argue_eval.report`` reuses the
flowchart outcomes' signs and texts (``OUTCOMES``).
"""
from __future__ import annotations

import sys
from collections.abc import Iterable
from os import PathLike
from typing import TYPE_CHECKING, Any

from .errors import unknown_name
from .model import ALL_TOPICS, natural_key
from .tables import Cell, Table, count_noun, fmt_number, fmt_p

if TYPE_CHECKING:
    from .stats.comparison import Comparison

ScoreRow = tuple[str, str, str, float | int]
"""One row of a long score table: ``(run_id, request_id, metric, value)``."""

SUMMARY_MEASURES: tuple[tuple[str, str], ...] = (
    ("sentence_support", "sent_support"),
    ("citation_support", "cit_support"),
    ("nugget_coverage", "nugget_cov"),
    ("nugget_coverage_weighted", "nugget_cov_w"),
    ("f1", "f1"),
    ("argue_precision", "argue_prec"),
)
"""Per-topic measures the summaries show, with their short column titles."""

AGGREGATES: tuple[str, ...] = ("macro", "micro")


def _aggregates(rows: Iterable[ScoreRow]) -> dict[str, dict[str, float | int]]:
    out: dict[str, dict[str, float | int]] = {}
    for run_id, request_id, metric, value in rows:
        if request_id == ALL_TOPICS:
            out.setdefault(run_id, {})[metric] = value
    return out


def summary_table(rows: Iterable[ScoreRow], aggregate: str = "macro") -> Table:
    """A leaderboard of the ``aggregate`` (macro or micro) averages, best F1 first, for people reading the terminal.

    The TSV stays the record; this is only a view of its ``all`` rows, so it never shows a number the
    table does not hold (a measure the rows lack is ``n/a``).
    """
    if aggregate not in AGGREGATES:
        raise unknown_name("--aggregate", "aggregate", aggregate, AGGREGATES)
    aggregates = _aggregates(rows)
    key = f"f1_{aggregate}"
    order = sorted(aggregates, key=lambda run: (-float(aggregates[run].get(key, 0.0)), run))
    columns = [(f"{name}_{aggregate}", title) for name, title in SUMMARY_MEASURES]
    table_rows: list[list[Cell]] = [
        [run, str(aggregates[run].get("topics", "")), str(aggregates[run].get("sentences", "")),
         *(fmt_number(float(aggregates[run][metric]), 3) if metric in aggregates[run] else None
           for metric, _ in columns)]
        for run in order
    ]
    if aggregate == "macro":
        title = "macro averages over topics (the full table, per topic and micro, is in the TSV):"
    else:
        title = "micro averages (ratios of counts summed over topics):"
    return Table(
        columns=["run_id", "topics", "sentences"] + [title for _, title in columns],
        rows=table_rows,
        align="lrr" + "r" * len(columns),
        title=title,
    )


def topic_table(rows: Iterable[ScoreRow]) -> Table:
    """Every run x topic with the summary measures, runs and topics in natural order (``score --per-topic``)."""
    cells: dict[tuple[str, str], dict[str, float | int]] = {}
    for run_id, request_id, metric, value in rows:
        if request_id != ALL_TOPICS:
            cells.setdefault((run_id, request_id), {})[metric] = value
    order = sorted(cells, key=lambda key: (natural_key(key[0]), natural_key(key[1])))
    table_rows: list[list[Cell]] = [
        [run, topic, str(cells[run, topic].get("sentences", "")),
         *(fmt_number(float(cells[run, topic][name]), 3) if name in cells[run, topic] else None
           for name, _ in SUMMARY_MEASURES)]
        for run, topic in order
    ]
    return Table(
        columns=["run_id", "request_id", "sentences"] + [title for _, title in SUMMARY_MEASURES],
        rows=table_rows,
        align="llr" + "r" * len(SUMMARY_MEASURES),
        title="per topic:",
    )


OUTCOMES: dict[int, tuple[str, str]] = {
    1: ("-", "cited document does not support the sentence"),
    2: ("0", "cited document supports the sentence, but it gives no nugget answer through it"),
    3: ("+", "gives a nugget answer that the cited document attests"),
    4: ("0", "no citation, and none needed"),
    5: ("-", "no citation for a new claim that needs one"),
    6: ("0", "no citation, but it repeats an earlier claim"),
    7: ("-", "negative assertion that no nugget records"),
    8: ("+", "negative assertion that a nugget records"),
}
"""The eight ARGUE flowchart outcomes: reward sign and a short meaning (the report's legend uses them too)."""


def outcome_table(rows: Iterable[ScoreRow]) -> Table:
    """Sentences per flowchart outcome for each run, summed over topics (``score --verbose``)."""
    aggregates = _aggregates(rows)
    order = sorted(aggregates, key=natural_key)
    names = [f"outcome_{k}" for k in OUTCOMES]
    table_rows: list[list[Cell]] = [
        [run, *(str(int(aggregates[run][name])) if name in aggregates[run] else None for name in names)]
        for run in order
    ]
    return Table(
        columns=["run_id"] + [f"{k}({sign})" for k, (sign, _) in OUTCOMES.items()],
        rows=table_rows,
        align="l" + "r" * len(OUTCOMES),
        title="sentences per flowchart outcome: " + "; ".join(f"{k} {text}" for k, (_, text) in OUTCOMES.items()),
    )


def compress_ranks(ranks: list[int]) -> str:
    """``[2, 3, 4, 7]`` -> ``2-4,7``: the usual way papers list the systems a run significantly beats."""
    out: list[str] = []
    ranks = sorted(ranks)
    k = 0
    while k < len(ranks):
        end = k
        while end + 1 < len(ranks) and ranks[end + 1] == ranks[end] + 1:
            end += 1
        out.append(str(ranks[k]) if end == k else f"{ranks[k]}-{ranks[end]}")
        k = end + 1
    return ",".join(out)


def build_tables(result: Comparison, which: str, flags: dict[str, Any] | None = None) -> list[Table]:
    """The leaderboard and/or pairs tables of a ``Comparison`` (cells formatted; JSON keeps full precision).

    ``flags``: per run its circularity flags (``(flag, field, evidence)``); with any, the leaderboard gets a
    ``flags`` column naming each flagged run's kinds of flag (data, not a penalty)."""
    level = f"{result.confidence:.0%}"
    tables: list[Table] = []
    systems = result.systems
    if which in ("both", "systems"):
        columns = ["rank", "run_id", "mean", "ci_low", "ci_high"]
        align = "rlrrr"
        if result.baseline is not None:
            columns += ["diff", "p_adjusted", "vs_baseline"]
            align += "rrl"
        elif result.pairs.shape[0]:
            columns += ["better_than"]
            align += "l"
        rank_of = dict(zip(systems["run_id"], systems["rank"]))
        rows = []
        for record in systems.to_dict(orient="records"):
            row = [str(record["rank"]), record["run_id"], fmt_number(record["mean"]),
                   fmt_number(record["ci_low"]), fmt_number(record["ci_high"])]
            if result.baseline is not None:
                is_base = record["vs_baseline"] == "baseline"
                row += ["" if is_base else fmt_number(record["diff"]),
                        "" if is_base else fmt_p(record["p_adjusted"]),
                        "baseline" if is_base else record["vs_baseline"]]
            elif result.pairs.shape[0]:
                row.append(compress_ranks([int(rank_of[run]) for run in record["better_than"]]))
            if flags:
                row.append(",".join(dict.fromkeys(flag[0] for flag in flags.get(record["run_id"], ()))))
            rows.append(row)
        if flags:
            columns, align = [*columns, "flags"], align + "l"
        title = (f"{result.metric}: {count_noun(len(systems), 'system')}, {count_noun(len(result.topics), 'topic')}, "
                 f"mean with {level} BCa interval "
                 f"({result.resamples} bootstrap resamples, seed {result.seed})")
        if result.baseline is not None:
            title += f"; +/- significantly above/below {result.baseline}"
        elif result.pairs.shape[0]:
            title += "; better_than lists the ranks a run is significantly better than"
        if flags:
            title += "; flags: circularity flags of the run's metadata (data, not a penalty)"
        tables.append(Table(columns, rows, align, title))
    if which == "pairs" or (which == "both" and result.pairs.shape[0]):
        rows = []
        for record in result.pairs.to_dict(orient="records"):
            rows.append([record["a"], record["b"], fmt_number(record["diff"]), fmt_number(record["ci_low"]),
                         fmt_number(record["ci_high"]), fmt_number(record["cohen_d"], 3), fmt_p(record["p_value"]),
                         fmt_p(record["p_adjusted"]), "*" if record["significant"] else ""])
        how = ("exact" if result.exact else f"{result.test_resamples} resamples") if result.test != "t" else "scipy ttest_rel"
        interval = (f"simultaneous {level} Tukey interval" if result.pair_intervals == "simultaneous"
                    else f"{level} BCa interval (unadjusted)")
        title = (f"pairs: {result.test} test ({how}), correction {result.correction}, alpha {result.alpha}; "
                 f"diff = mean(a) - mean(b) with its {interval}; * = significant")
        tables.append(Table(["a", "b", "diff", "ci_low", "ci_high", "cohen_d", "p_value", "p_adjusted", "sig"],
                            rows, "llrrrrrrl", title))
    if tables:
        tables[-1].notes = list(result.notes)
    return tables


def inventory_text(summary: dict[str, Any], as_json: bool = False) -> str:
    """``inspect``'s output of an ``api.inspect`` summary: one canonical JSON line (``as_json``), or one ``name
    value`` line per count, maps and lists inline, then the per-topic counts."""
    if as_json:
        return json_line(summary)
    lines = [f"{summary['path']}: {summary['kind']} ({summary['format']})"]
    width = max(len(key) for key in summary)
    for key, value in summary.items():
        if key in ("path", "kind", "format", "per_topic"):
            continue
        lines.append(f"  {key:<{width}}  {_inventory_value(value)}")
    per_topic = summary.get("per_topic")
    if per_topic:
        lines.append("  per topic:")
        for qid, value in per_topic.items():
            lines.append(f"    {qid}  {_inventory_value(value)}")
    return "\n".join(lines)


def _inventory_value(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items()) or "-"
    if isinstance(value, list):
        shown = ", ".join(str(v) for v in value[:20])
        return (shown + f", ... ({len(value)} in all)") if len(value) > 20 else (shown or "-")
    return str(value)


def json_line(value: Any) -> str:
    """One canonical JSON line (UTF-8 text, keys in the order given, newline-terminated), as ``writing`` writes
    JSON Lines files."""
    from .writing import dumps_line

    return dumps_line(value)


def write_output(text: str, output: str | PathLike[str] | None) -> None:
    """To ``output`` atomically (never half-written), or to stdout."""
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    from .writing import atomic_writer

    with atomic_writer(output) as handle:
        handle.write(text)


def frame_table(frame: Any, title: str | None = None, notes: Iterable[str] = (), digits: int = 4,
                columns: Iterable[str] | None = None) -> Table:
    """A DataFrame as a ``Table`` (an analysis's table): floats to ``digits`` decimals (NaN as n/a), integers
    and text as they are, booleans as yes/no; numeric columns right-aligned. ``columns`` picks and orders them."""
    import math

    names = list(columns) if columns is not None else [str(name) for name in frame.columns]
    rows: list[list[Cell]] = []
    numeric = {name: True for name in names}
    for record in frame[names].itertuples(index=False, name=None):
        row: list[Cell] = []
        for name, value in zip(names, record):
            if value is None or type(value).__name__ == "NAType":
                row.append(None)
            elif isinstance(value, (bool,)) or type(value).__name__ == "bool_":
                row.append("yes" if value else "no")
                numeric[name] = False
            elif isinstance(value, int) or type(value).__name__.startswith("int"):
                row.append(str(int(value)))
            elif isinstance(value, float) or type(value).__name__.startswith("float"):
                row.append(None if math.isnan(float(value)) else fmt_number(float(value), digits))
            else:
                row.append(str(value))
                numeric[name] = False
        rows.append(row)
    align = "".join("r" if numeric[name] and rows else "l" for name in names)
    return Table(names, rows, align, title, list(notes))


def analysis_tables(result: Any, title: str, columns: Iterable[str] | None = None, digits: int = 4) -> list[Table]:
    """An analysis ``Result`` (``api.analysis``) as one table under ``title``, its notes below it."""
    return [frame_table(result.table, title, [note.text for note in result.notes], digits, columns)]


def replicate_tables(analysis: Any) -> list[Table]:
    """A ``stats.replicates.ReplicateAnalysis`` as tables: the leaderboard with the two-stage and topics-only
    intervals, rank ranges and judge shares; the replicates' Kendall taus; the run pairs that swap."""
    level = f"{analysis.confidence:.0%}"
    board = frame_table(analysis.systems, (
        f"{analysis.metric}: {count_noun(len(analysis.systems), 'system')}, {count_noun(len(analysis.topics), 'topic')}, "
        f"{count_noun(len(analysis.replicates), 'replicate')}; mean over topics and replicates with its {level} "
        f"two-stage bootstrap interval (topics, then replicates; ci_low/ci_high) and the topics-only one "
        f"(topic_ci_low/high), {analysis.resamples} resamples, seed {analysis.seed}; best/worst rank over the "
        "replicates; judge_share: the judge's share of a score's variance"),
        columns=["rank", "run_id", "mean", "ci_low", "ci_high", "topic_ci_low", "topic_ci_high", "best_rank",
                 "worst_rank", "judge_share"])
    taus = frame_table(analysis.taus, "Kendall's tau-b between the leaderboards of every two replicates")
    swapped = analysis.swaps[analysis.swaps["swaps"] > 0]
    swaps = frame_table(swapped, f"pairs a replicate orders against the mean leaderboard: {len(swapped)} of "
                        f"{len(analysis.swaps)} (a is ahead on the mean; swaps: replicates where b scores higher)",
                        columns=["a", "b", "diff", "swaps", "ties", "replicates", "swap_rate"])
    swaps.notes = list(analysis.notes)
    return [board, taus, swaps]


def spread_table(spread: Any, metric: str) -> Table:
    """The runs' spread of each system (``stats.systems.run_spread``)."""
    return frame_table(spread, f"{metric}: the runs of each system (their means' range and standard deviation; "
                       "topic_range: the mean over topics of the largest minus the smallest run score)",
                       columns=["system", "runs", "n_runs", "mean", "run_min", "run_max", "run_sd", "topic_range"])
