"""Analysing a round: how far its leaderboard can be trusted, from its score tables and runs.

Each function reads what it is given (score tables by path, or a score ``Result``; runs and judgments for
circularity), runs one engine of ``stats/`` or ``organizer/`` and returns a ``Result`` whose ``table`` is the
analysis as a DataFrame (``data`` holds the engine's own objects, ``details`` the JSON documents):

=========================  ============================================================  ========================
function                   question                                                      engine
=========================  ============================================================  ========================
``compare_replicates``     how much does the judge move the leaderboard?                 ``stats.replicates``
``compare_systems``        systems of several runs (seeds, variants) compared            ``stats.systems``
``discriminative_power``   how many run pairs does a measure tell apart? (Sakai)         ``stats.power``
``swap_rates``             how often do disjoint topic sets disagree? (Voorhees, Buckley) ``stats.swaps``
``topic_set_size``         how many topics to detect a difference delta? (Sakai)         ``stats.power``
``circularity``            which runs used the judge's model, nuggets or judge?          ``organizer.circularity``
=========================  ============================================================  ========================

``reusability`` (leave one team out) rescores runs, so it lives in ``api.reusability``.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from os import PathLike
from typing import TYPE_CHECKING, Any

from ..stats.bootstrap import DEFAULT_CONFIDENCE, DEFAULT_RESAMPLES, DEFAULT_SEED
from .compare import check_test
from .result import Result, notes_of

if TYPE_CHECKING:
    import pandas as pd

    from ..model import ScoreRecord
    from ..stats.matrix import ScoreMatrix

__all__ = ["compare_replicates", "compare_systems", "discriminative_power", "swap_rates", "topic_set_size",
           "circularity", "team_map", "run_mapping", "read_flags", "read_reusability", "score_records",
           "score_matrices"]

PathArg = str | PathLike[str]
Scores = PathArg | Sequence[PathArg] | Result


def score_records(scores: Scores, scores_format: str | None = None) -> tuple[list[ScoreRecord], str]:
    """The score rows of tables (paths, any per-topic shape) or of a score ``Result``, and how to name them."""
    from ..model import ScoreRecord

    if isinstance(scores, Result):
        source = f"the {scores.measure} result"
        return [ScoreRecord(run_id, request_id, metric, value, source, index)
                for index, (run_id, request_id, metric, value) in enumerate(scores.rows, 1)], source
    from ..formats.scores import read_scores

    paths = [scores] if isinstance(scores, (str, PathLike)) else list(scores)
    records = [record for path in paths for record in read_scores(path, scores_format)]
    return records, ", ".join(str(path) for path in paths) if len(paths) <= 3 else f"{len(paths)} score tables"


def score_matrices(scores: Scores, metrics: str | Sequence[str], missing: str = "zero",
                   scores_format: str | None = None) -> list[ScoreMatrix]:
    """One systems x topics matrix per metric (each once, in order) of the score tables."""
    from ..stats.matrix import records_to_matrix

    records, source = score_records(scores, scores_format)
    names = [metrics] if isinstance(metrics, str) else list(metrics)
    return [records_to_matrix(records, metric, missing, source) for metric in dict.fromkeys(names)]


def _frame_result(job: str, frame: pd.DataFrame, settings: dict[str, Any], details: list[Any], notes: Iterable[str],
                  data: Any = None, runs: Sequence[str] = (), topics: Sequence[str] = ()) -> Result:
    return Result(job, list(frame.itertuples(index=False, name=None)), settings, details, list(runs), list(topics),
                  notes=notes_of(dict.fromkeys(notes)), columns=tuple(str(c) for c in frame.columns), data=data)


def _concat(frames: Sequence[pd.DataFrame], metric_column: Sequence[str] | None = None) -> pd.DataFrame:
    import pandas as pd

    parts = []
    for k, frame in enumerate(frames):
        part = frame.copy()
        if metric_column is not None and "metric" not in part.columns:
            part.insert(0, "metric", metric_column[k])
        parts.append(part)
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def compare_replicates(
    replicates: Sequence[PathArg | Result], metrics: str | Sequence[str], *, names: Sequence[str] | None = None,
    systems: Mapping[str, str] | None = None, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
    confidence: float = DEFAULT_CONFIDENCE, missing: str = "zero", scores_format: str | None = None,
) -> Result:
    """The leaderboard under judge uncertainty: each of ``replicates`` is one score table (a path or a score
    ``Result``) of the same runs that differs only in the judge (seed, temperature, prompt, model).

    Per metric (``stats.replicates.analyze_replicates``): each run's mean with the two-stage bootstrap interval
    (topics, then replicates) and the topics-only one, its best and worst rank over the replicates, its variance
    components and judge share, its mean under each replicate; the replicates' Kendall taus and every pair's
    swaps. ``systems`` (run -> system) compares systems of several runs in every replicate (``compare_systems``).
    ``table``: the leaderboards (``metric`` first); ``details``: one JSON document per metric; ``data``: the
    ``ReplicateAnalysis`` objects.
    """
    from ..errors import ArgueError
    from ..stats.replicates import analyze_replicates, stack

    items = list(replicates)
    if len(items) < 2:
        raise ArgueError(f"--replicates needs at least two score tables of the same runs, found {len(items)}")
    labels = list(names) if names is not None else [_label(item, k) for k, item in enumerate(items, 1)]
    per_table = [score_matrices(item, metrics, missing, scores_format) for item in items]
    if systems:
        from ..stats.systems import system_matrix

        per_table = [[system_matrix(matrix, systems) for matrix in tables] for tables in per_table]
    analyses = []
    for position in range(len(per_table[0])):
        analyses.append(analyze_replicates(stack([tables[position] for tables in per_table], labels),
                                           resamples, seed, confidence))
    frame = _concat([analysis.systems for analysis in analyses], [analysis.metric for analysis in analyses])
    settings = {"replicates": labels, "resamples": resamples, "seed": seed, "confidence": confidence, "missing": missing,
                **({"systems": dict(systems)} if systems else {})}
    return _frame_result("compare-replicates", frame, settings, [a.to_dict() for a in analyses],
                         (note for a in analyses for note in a.notes), analyses,
                         runs=list(dict.fromkeys(r for a in analyses for r in a.systems["run_id"])),
                         topics=list(dict.fromkeys(t for a in analyses for t in a.topics)))


def _label(item: PathArg | Result, position: int) -> str:
    from pathlib import Path

    if isinstance(item, Result):
        return f"replicate {position}"
    return Path(item).name


def compare_systems(
    scores: Scores, metrics: str | Sequence[str], systems: Mapping[str, str], *, baseline: str | None = None,
    test: str | None = None, correction: str | None = None, alpha: float = 0.05, confidence: float = DEFAULT_CONFIDENCE,
    resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, missing: str = "zero", scores_format: str | None = None,
) -> Result:
    """Systems of several runs compared: ``systems`` maps run -> system (a run it does not name is its own
    system); each system scores the mean of its runs per topic, and ``stats.comparison.compare`` runs the
    leaderboard and the paired tests on those (the options as for ``compare``). ``table``: per metric the
    systems' leaderboard with the runs' spread beside it (``n_runs``, ``run_min``, ``run_max``, ``run_sd``,
    ``topic_range``: ``stats.systems.run_spread``); ``data``: ``(Comparison, spread)`` per metric."""
    from ..errors import OptionError
    from ..stats.comparison import compare
    from ..stats.systems import run_spread, system_matrix

    check_test(test, correction, baseline)
    results = []
    frames = []
    for matrix in score_matrices(scores, metrics, missing, scores_format):
        grouped = system_matrix(matrix, systems)
        if baseline is not None and baseline not in grouped.runs:
            raise OptionError("--baseline", f"{baseline!r} is not among the systems: {', '.join(grouped.runs)}")
        comparison = compare(grouped, baseline=baseline, test=test, correction=correction, alpha=alpha,
                             resamples=resamples, seed=seed, confidence=confidence)
        spread = run_spread(matrix, systems)
        merged = comparison.systems.merge(spread.drop(columns=["mean"]).rename(columns={"system": "run_id"}),
                                          on="run_id", how="left")
        merged.insert(0, "metric", matrix.metric)
        frames.append(merged.rename(columns={"run_id": "system"}))
        results.append((comparison, spread))
    frame = _concat(frames)
    details = [{**comparison.to_dict(), "spread": spread.to_dict(orient="records")} for comparison, spread in results]
    settings = {"systems": dict(systems), "resamples": resamples, "seed": seed, "confidence": confidence,
                "alpha": alpha, "missing": missing, "baseline": baseline}
    return _frame_result("compare-systems", frame, settings, details,
                         (note for comparison, _ in results for note in comparison.notes), results)


def discriminative_power(
    scores: Scores, metrics: str | Sequence[str], *, test: str | None = None, correction: str | None = None,
    alpha: float = 0.05, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, missing: str = "zero",
    scores_format: str | None = None,
) -> Result:
    """Per metric, the share of all run pairs significant at ``alpha`` under ``test`` and ``correction`` (as
    ``compare`` decides them over every pair: by default the randomized Tukey HSD). ``table``: one row per
    metric; ``data``: ``{"curve": DataFrame}``, every pair's p-values sorted (the ASL curves)."""
    from ..stats.power import discriminative_power as power_of

    powers = [power_of(matrix, test, correction, alpha, resamples, seed)
              for matrix in score_matrices(scores, metrics, missing, scores_format)]
    import pandas as pd

    frame = pd.DataFrame([power.summary for power in powers])
    curve = _concat([power.curve for power in powers])
    settings = {"alpha": alpha, "resamples": resamples, "seed": seed, "missing": missing}
    return _frame_result("discriminative-power", frame, settings,
                         [{**power.summary, "curve": power.curve.to_dict(orient="records")} for power in powers],
                         (note for power in powers for note in power.notes), {"curve": curve})


def swap_rates(
    scores: Scores, metrics: str | Sequence[str], *, topic_counts: Sequence[int] | None = None, trials: int = 1000,
    seed: int = DEFAULT_SEED, bin_width: float | None = None, missing: str = "zero", scores_format: str | None = None,
) -> Result:
    """Per metric and topic-set size, the swap rate between disjoint topic sets (``stats.swaps.swap_rates``;
    with ``bin_width``, also by the size of the difference)."""
    from ..stats.swaps import swap_rates as rates_of

    matrices = score_matrices(scores, metrics, missing, scores_format)
    frame = _concat([rates_of(matrix, topic_counts, trials, seed, bin_width) for matrix in matrices])
    notes = [note for matrix in matrices for note in matrix.notes]
    settings = {"trials": trials, "seed": seed, "bin_width": bin_width, "missing": missing}
    return _frame_result("swap-rates", frame, settings, frame.to_dict(orient="records"), notes)


def topic_set_size(
    scores: Scores, metrics: str | Sequence[str], *, deltas: Sequence[float], alpha: float = 0.05,
    power: float = 0.8, missing: str = "zero", scores_format: str | None = None,
) -> Result:
    """Per metric and difference ``delta``: the topics a paired t-test needs to detect it with ``power``, given
    the residual variance of the round's runs x topics matrix (``stats.power.topic_set_size``)."""
    from ..stats.power import topic_set_size as design

    matrices = score_matrices(scores, metrics, missing, scores_format)
    from ..stats.power import MAX_TOPICS

    frame = design(matrices, deltas, alpha, power)
    notes = [note for matrix in matrices for note in matrix.notes]
    beyond = frame[frame["topics_needed"].isna()]
    if len(beyond):
        notes.append(f"topics_needed is n/a for {len(beyond)} row(s): more than {MAX_TOPICS:,} topics, or no variance "
                     "to design with")
    settings = {"deltas": list(deltas), "alpha": alpha, "power": power, "missing": missing}
    return _frame_result("topic-set-size", frame, settings, frame.to_dict(orient="records"), notes)


def circularity(runs: Any, *, judgments: Any = None, judge_models: Sequence[str] = (),
                terms: Sequence[str] | None = None) -> Result:
    """Runs whose metadata (or run id) names a judge's model, or says they used the evaluation's nuggets or
    judge (``organizer.circularity``). The judges' models are ``judge_models`` and those the ``judgments``
    files name (``llm:MODEL`` judges, and the ``model`` of their provenance). ``table``: ``run_id, flag, field,
    evidence``, one row per flag; a run without flags has no row (``runs`` lists every run looked at)."""
    import pandas as pd

    from ..inputs import iter_reports
    from ..organizer.circularity import DEFAULT_TERMS, FLAG_COLUMNS, circularity_flags

    metadata: dict[str, dict[str, Any]] = {}
    for report in iter_reports(runs):
        merged = metadata.setdefault(report.run_id, {"run_id": report.run_id})
        for key, value in report.metadata.items():
            merged.setdefault(key, value)
    models = list(dict.fromkeys([*judge_models, *_judge_models(judgments)]))
    rows = circularity_flags(metadata, models, DEFAULT_TERMS if terms is None else terms)
    frame = pd.DataFrame(rows, columns=list(FLAG_COLUMNS))
    flagged = sorted({row[0] for row in rows})
    notes = [f"{len(flagged)} of {len(metadata)} run(s) flagged: {', '.join(flagged)}" if flagged else
             f"none of the {len(metadata)} run(s) flagged"]
    if not models:
        notes.append("no judge model given (--judge-model) or found in the judgments: only the evaluation's "
                     "nuggets and judge were looked for")
    settings = {"judge_models": models, "terms": list(DEFAULT_TERMS if terms is None else terms)}
    return _frame_result("circularity", frame, settings, [dict(zip(FLAG_COLUMNS, row)) for row in rows], notes,
                         runs=sorted(metadata))


def _judge_models(judgments: Any) -> list[str]:
    """The models of the judges in judgment files or records: an ``llm:MODEL`` judge name, a provenance
    ``model``."""
    if judgments is None:
        return []
    from ..formats import read_judgments
    from ..inputs import as_paths

    paths = as_paths(judgments)
    records = (j for path in paths for j in read_judgments(path)) if paths is not None else iter(judgments)
    found: dict[str, None] = {}
    for judgment in records:
        judge = judgment.judge or ""
        if judge.startswith("llm:"):
            found.setdefault(judge[4:])
        model = (judgment.provenance or {}).get("model")
        if isinstance(model, str) and model:
            found.setdefault(model)
    return list(found)


def team_map(runs: Sequence[str], *, teams: Mapping[str, str] | None = None, team_pattern: str | None = None,
             run_files: Any = None) -> tuple[dict[str, str], list[str]]:
    """Which team each of ``runs`` is (``organizer.teams.assign_teams``): ``teams`` (run -> team) first, then the
    ``team_id`` metadata of the reports in ``run_files`` (when given and no ``team_pattern``), then the pattern.
    Returns the mapping and notes saying how the teams were found."""
    from ..organizer.teams import assign_teams

    metadata: dict[str, dict[str, Any]] = {}
    if run_files is not None:
        from ..inputs import iter_reports

        for report in iter_reports(run_files):
            metadata.setdefault(report.run_id, dict(report.metadata))
    return assign_teams(list(runs), teams, team_pattern, metadata)


def run_mapping(pairs: Sequence[str], files: Sequence[PathArg], option: str) -> dict[str, str]:
    """A run -> name mapping from ``RUN=NAME`` values and ``RUN NAME`` files (``inputs.mapping``; the values
    over the files), for ``--system``/``--systems`` and ``--team``/``--teams``."""
    from ..inputs.mapping import merge_mappings, parse_pairs

    return merge_mappings(parse_pairs(pairs, option), files, f"{option}s")


def read_flags(path: PathArg) -> dict[str, list[tuple[str, str, str]]]:
    """Circularity flags as ``analyze circularity --format tsv`` writes them, per run."""
    from ..inputs.analysis_tables import read_flags as read

    return read(path)


def read_reusability(path: PathArg) -> pd.DataFrame:
    """The table ``analyze reusability --format tsv`` writes, as a DataFrame (for ``report --reusability``)."""
    from ..inputs.analysis_tables import read_reusability as read

    return read(path)
