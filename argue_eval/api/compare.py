"""``compare``: a leaderboard with bootstrap intervals and paired significance tests, from score tables.

What ``argue-eval compare`` does minus the rendering: the score tables (any per-topic shape, ``formats.scores``)
are read once, each metric's systems x topics matrix built (``stats.matrix``), and ``stats.comparison.compare``
runs the protocol with one seed, deciding significance exactly as the HTML report does.
"""
from __future__ import annotations

from collections.abc import Sequence
from os import PathLike

from ..stats.bootstrap import DEFAULT_CONFIDENCE, DEFAULT_RESAMPLES, DEFAULT_SEED
from .result import Result, notes_of

__all__ = ["compare", "check_test"]

PathArg = str | PathLike[str]


def check_test(test: str | None, correction: str | None, baseline: str | None) -> None:
    """Refuse a correction on top of Tukey HSD (the default over all pairs), which already controls the
    family-wise error: the combination would report p-values corrected twice."""
    from ..errors import OptionError
    from ..stats.pairwise import default_test

    if (test or default_test(baseline is not None)) == "tukey" and correction not in (None, "none"):
        raise OptionError("--correction", f"--test tukey{'' if test else ' (the default)'} already controls the family-wise "
                          "error over all pairs; drop --correction (or use --correction none), or choose --test "
                          "randomization or --test t")


def compare(
    scores: PathArg | Sequence[PathArg] | Result,
    metrics: str | Sequence[str],
    *,
    baseline: str | None = None,
    test: str | None = None,
    correction: str | None = None,
    alpha: float = 0.05,
    confidence: float = DEFAULT_CONFIDENCE,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    missing: str = "zero",
    scores_format: str | None = None,
) -> Result:
    """Compare the runs of one or more score tables (paths, any per-topic shape; or a score ``Result`` such as
    ``score``'s) on each of ``metrics`` (each once, in order).

    ``baseline``: test every run against it (default: all pairs); ``test``: ``tukey`` (randomized Tukey HSD, the
    default over all pairs), ``randomization`` (the default against a baseline) or ``t``; ``correction``: ``holm``
    (the default for randomization and t), ``bh``, ``bonferroni`` or ``none`` (Tukey HSD already controls the
    family-wise error, so a correction with it is refused); ``missing``: a topic a run lacks scores 0 (``zero``)
    or is dropped for every run (``drop-topic``).

    Returns a ``Result``: the rows are the leaderboards (``metric`` then the columns of ``Comparison.systems``:
    rank, run_id, mean, the intervals, and the tests' verdicts), ``details`` one JSON document per metric (what
    ``--format json`` prints), ``data`` the ``stats.comparison.Comparison`` objects, ``notes`` every note once.
    """
    from ..errors import OptionError
    from ..formats.scores import read_scores
    from ..stats.comparison import compare as compare_matrix
    from ..stats.matrix import records_to_matrix

    check_test(test, correction, baseline)
    names = [metrics] if isinstance(metrics, str) else list(metrics)
    if isinstance(scores, Result):
        from ..model import ScoreRecord

        source = f"the {scores.measure} result"
        records = [ScoreRecord(run_id, request_id, metric, value, source, index)
                   for index, (run_id, request_id, metric, value) in enumerate(scores.rows, 1)]
    else:
        paths = [scores] if isinstance(scores, (str, PathLike)) else list(scores)
        records = [record for path in paths for record in read_scores(path, scores_format)]
        source = ", ".join(str(path) for path in paths) if len(paths) <= 3 else f"{len(paths)} score tables"
    comparisons = []
    for metric in dict.fromkeys(names):
        matrix = records_to_matrix(records, metric, missing, source)
        if baseline is not None and baseline not in matrix.runs:
            raise OptionError("--baseline", f"{baseline!r} is not among the runs for {metric!r}: {', '.join(matrix.runs)}")
        comparisons.append(compare_matrix(matrix, baseline=baseline, test=test, correction=correction, alpha=alpha,
                                          resamples=resamples, seed=seed, confidence=confidence))
    first = comparisons[0] if comparisons else None
    columns = ("metric", *(first.systems.columns if first is not None else ()))
    rows = [(comparison.metric, *row) for comparison in comparisons
            for row in comparison.systems.itertuples(index=False, name=None)]
    settings = {} if first is None else {"test": first.test, "correction": first.correction, "alpha": alpha,
                                         "confidence": confidence, "resamples": resamples, "seed": seed,
                                         "missing": first.missing, "baseline": baseline}
    notes = list(dict.fromkeys(note for comparison in comparisons for note in comparison.notes))
    return Result("compare", rows, settings, [comparison.to_dict() for comparison in comparisons],
                  runs=list(dict.fromkeys(run for comparison in comparisons for run in comparison.systems["run_id"])),
                  topics=list(dict.fromkeys(topic for comparison in comparisons for topic in comparison.topics)),
                  notes=notes_of(notes), columns=columns, data=comparisons)
