"""The set of figures ``report --figures DIR`` writes, from the round's score matrices and its analyses.

``write_figures`` computes what each figure needs with the kit's statistics (the leaderboard's intervals and
letters as the report and ``compare`` decide them, discriminative power, swap rates) and writes every figure of
``figures.FIGURES`` that its inputs allow: the people figure needs the people's scores, the reusability figure
the table of ``analyze reusability``. ``figure_entries`` turns the written files into what the HTML report's
Figures view embeds and links.
"""
from __future__ import annotations

import base64
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .data import ReportOptions
from .figures import (
    FORMATS,
    FigureFile,
    figure_name,
    figure_titles,
    leaderboard_figure,
    people_figure,
    power_figure,
    reusability_figure,
    run_figure,
    save_figure,
    swaps_figure,
    topics_figure,
)

if TYPE_CHECKING:
    import pandas as pd

    from ..stats.matrix import ScoreMatrix

__all__ = ["PeopleScores", "write_figures", "write_round_figures", "figure_entries", "POWER_MEASURES"]

POWER_MEASURES: tuple[str, ...] = ("f1", "nugget_coverage", "sentence_support", "citation_support", "icat",
                                   "longrecall")
"""The measures of the power and swap figures, those of them the score table has (else the leaderboard's)."""


@dataclass
class PeopleScores:
    """The same runs scored with the people's judgments (``people``) and with the judge's (the report's table)."""

    matrix: ScoreMatrix
    judge_label: str = "the judge"
    people_label: str = "the people's judgments"


def write_figures(directory: str | PathLike[str], matrices: Mapping[str, ScoreMatrix], measure: str,
                  options: ReportOptions | None = None, *, runs: Sequence[str] | None = None,
                  people: PeopleScores | None = None, reusability: pd.DataFrame | None = None,
                  field_values: pd.DataFrame | None = None, formats: Sequence[str] = FORMATS,
                  power_measures: Sequence[str] | None = None, overview: bool = True) -> list[FigureFile]:
    """Write the figures into ``directory`` (created if missing) and return them, overview figures first.

    ``matrices``: per measure the runs x topics matrix; ``measure``: the leaderboard's; ``runs``: the runs that
    get a ``run-RUN`` figure (default: every run); ``field_values``: the matrix the run figures compare against
    (default: ``matrices[measure]``'s values; a participant packet passes the whole round's); ``overview``:
    ``False`` writes the run figures only.
    """
    from ..stats.agreement import kendall_tau_b
    from ..stats.comparison import leaderboard_order
    from ..stats.power import discriminative_power
    from ..stats.swaps import swap_rates
    from .leaderboard import leaderboard_stats

    options = options or ReportOptions()
    out_dir = Path(directory)
    out_dir.mkdir(parents=True, exist_ok=True)
    titles = figure_titles()
    written: list[FigureFile] = []
    matrix = matrices[measure]
    if overview:
        stats = leaderboard_stats(matrix, options.baseline, options.resamples, options.seed, options.confidence,
                                  options.alpha, None, options.test, options.correction)
        order = leaderboard_order(stats.mean, stats.runs)
        labels = stats.groups if stats.groups else stats.marks
        figure = leaderboard_figure([stats.runs[k] for k in order], stats.mean[order], stats.low[order],
                                    stats.high[order], [labels[k] if labels else "" for k in order], measure,
                                    f"{options.confidence:.0%} BCa interval")
        written.append(save_figure(figure, out_dir, "leaderboard", titles["leaderboard"], formats))
        written.append(save_figure(topics_figure(matrix.values, measure), out_dir, "topics", titles["topics"], formats))
        if people is not None:
            shared = [run for run in matrix.runs if run in people.matrix.runs]
            topics = [topic for topic in matrix.topics if topic in people.matrix.topics]
            human = people.matrix.values.loc[shared, topics].mean(axis=1).to_numpy()
            judged = matrix.values.loc[shared, topics].mean(axis=1).to_numpy()
            tau = kendall_tau_b(human, judged) if len(shared) > 1 else None
            figure = people_figure(shared, human, judged, measure, people.judge_label, tau, people.people_label)
            written.append(save_figure(figure, out_dir, "people", titles["people"], formats))
        chosen = [m for m in (power_measures or POWER_MEASURES) if m in matrices] or [measure]
        if len(matrix.runs) > 1:
            curves = [discriminative_power(matrices[m], options.test, options.correction, options.alpha,
                                           options.resamples, options.seed).curve for m in chosen]
            import pandas as pd

            figure = power_figure(pd.concat(curves, ignore_index=True), options.alpha)
            written.append(save_figure(figure, out_dir, "power", titles["power"], formats))
            if len(matrix.topics) >= 2:
                rates = pd.concat([swap_rates(matrices[m], seed=options.seed) for m in chosen], ignore_index=True)
                written.append(save_figure(swaps_figure(rates), out_dir, "swaps", titles["swaps"], formats))
        if reusability is not None and len(reusability):
            metric = measure if measure in set(reusability["metric"]) else str(reusability["metric"].iloc[0])
            written.append(save_figure(reusability_figure(reusability, metric), out_dir, "reusability",
                                       titles["reusability"], formats))
    for run in (list(runs) if runs is not None else matrix.runs):
        figure = run_figure(matrix.values, run, measure, field_values)
        written.append(save_figure(figure, out_dir, figure_name(run), f"{run} per topic against all runs", formats))
    return written


def figure_entries(figures: Sequence[FigureFile], page: str | PathLike[str], embed: int = 6) -> list[dict[str, Any]]:
    """What the HTML report's Figures view shows: per figure its title, its files relative to the ``page``'s
    folder (links), and for the first ``embed`` figures their PNG as a ``data:`` URI (the page's only images:
    its Content-Security-Policy allows ``data:`` images and nothing else)."""
    base = Path(page).resolve().parent
    out = []
    for position, figure in enumerate(figures):
        entry: dict[str, Any] = {"name": figure.name, "title": figure.title,
                                 "files": [Path(os.path.relpath(path.resolve(), base)).as_posix() for path in figure.files]}
        if figure.png is not None and position < embed:
            entry["png"] = "data:image/png;base64," + base64.b64encode(figure.png).decode("ascii")
        out.append(entry)
    return out


def write_round_figures(directory: str | PathLike[str], scores: Any, options: ReportOptions | None = None, *,
                        people_scores: Any = None, judge_label: str = "the judge",
                        people_label: str = "the people's judgments",
                        reusability: pd.DataFrame | None = None, run_ids: Sequence[str] | None = None,
                        formats: Sequence[str] = FORMATS) -> list[FigureFile]:
    """``report --figures DIR``: every figure of the round from its score rows (records, tuples or a DataFrame,
    as ``build_report_data`` takes them), the people's score rows for the judge-against-people figure, and the
    leave-one-team-out table for the reusability figure. The leaderboard's measure is ``options.measure`` (or the
    first measure the table has, as the page chooses)."""
    from ..errors import OptionError
    from ..stats.matrix import records_to_matrix
    from .data import as_score_records, is_measure
    from .figures import require_matplotlib

    require_matplotlib()
    options = options or ReportOptions()
    records = as_score_records(scores)
    if run_ids is not None:
        keep = set(run_ids)
        records = [record for record in records if record.run_id in keep]
    measures = sorted({r.metric for r in records if r.request_id != "all" and is_measure(r.metric)})
    if not measures:
        raise OptionError("--figures", "the score rows hold no per-topic measure to draw")
    measure = options.measure if options.measure in measures else measures[0]
    wanted = [m for m in dict.fromkeys([measure, *POWER_MEASURES]) if m in measures]
    matrices = {m: records_to_matrix(records, m, "zero", "the score table") for m in wanted}
    people = None
    if people_scores is not None:
        people = PeopleScores(records_to_matrix(as_score_records(people_scores), measure, "zero", "the people's score table"),
                              judge_label, people_label)
    return write_figures(directory, matrices, measure, options, people=people, reusability=reusability,
                         formats=formats)
