"""``retrieval``: trec_eval's retrieval measures (through ir_measures, or ranx) of ranked runs, or of the
documents report runs cite taken as ranked lists, per run and topic plus each run's mean.

What ``argue-eval retrieval`` does minus the printing, the retrieval family's provider on ``api.calc``'s road
(``PROVIDER``: ``retrieval.ndcg@20``, ``retrieval.P(rel=2)@10``): ``inputs.retrieval`` reads the runs and the
relevance, ``measures.retrieval`` computes.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from os import PathLike
from typing import TYPE_CHECKING, Any

from ..errors import ArgueError, OptionError
from ..measures.retrieval import Measure
from ..model import ALL_TOPICS, natural_key
from .calc import Provider, Supply, calc_family, keyword_defaults
from .measure_result import MeasureResult

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["retrieval", "RetrievalResult", "DEFAULT_MEASURES", "PROVIDER"]

DEFAULT_MEASURES = ("ndcg@20", "recall@100", "map", "P@10")


@dataclass
class RetrievalResult:
    """The long table's ``rows`` (per run: its topics in natural order, each measure in the order asked, then
    the ``all`` means) and the parsed ``measures`` (their trec_eval names, for ``trec_eval -q`` text)."""

    rows: list[tuple[str, str, str, float]]
    measures: list[Measure]

    @property
    def table(self) -> pd.DataFrame:
        """The rows as a DataFrame (columns ``run_id, request_id, metric, value``)."""
        import pandas as pd

        return pd.DataFrame(self.rows, columns=["run_id", "request_id", "metric", "value"])

    def trec_eval_lines(self) -> list[str]:
        """The rows as ``trec_eval -q`` prints them (per run: topics, then ``runid``, ``num_q`` and the means)."""
        from ..measures.retrieval import trec_eval_lines

        return trec_eval_lines(self.rows, self.measures)


def retrieval(
    runs: Sequence[str | PathLike[str]] | Any,
    *,
    qrels: str | PathLike[str] | None = None,
    nuggets: Any = None,
    measures: str | Sequence[str] = DEFAULT_MEASURES,
    missing: str = "zero",
    on_duplicate: str = "error",
    engine: str = "ir_measures",
    diversity: bool = False,
    format: str | None = None,
) -> RetrievalResult:
    """Retrieval measures of ``runs``: run file paths (ranked runs or report runs, detected per file unless
    ``format`` names one) or ranked lists (``formats.ranked.Rankings`` records).

    Relevance from exactly one of ``qrels`` (TREC qrels; with ``diversity``, ``topic subtopic doc grade``
    qrels for alpha-nDCG, ERR-IA and nERR-IA) and ``nuggets`` (grades from the nugget bank's bindings).
    ``measures``: names as ``"ndcg@20 recall@100 map P@10"`` or a list (trec_eval names work too);
    ``missing``: a topic of the qrels a run lacks scores 0 (``zero``, trec_eval -c) or is left out
    (``skip``); ``on_duplicate``: a document judged twice in the qrels (``error``, ``max``, ``last``).
    """
    from ..measures.retrieval import parse_measures

    _run_paths(runs)
    if (qrels is None) == (nuggets is None):
        raise ArgueError("give exactly one of --qrels and --nuggets")
    parsed = parse_measures(list(measures) if not isinstance(measures, str) else measures)
    result = calc_family("retrieval", {"missing": missing, "engine": engine}, metrics=[m.name for m in parsed],
                         runs=runs, qrels=qrels, nuggets=nuggets, on_duplicate=on_duplicate, diversity=diversity,
                         format=format)
    return RetrievalResult(result.rows, parsed)


def _run_paths(runs: Any) -> list[Any] | None:
    """The run files named (``None`` for ranked lists given as records); none at all is an error."""
    from ..inputs import as_paths

    paths = [] if isinstance(runs, (list, tuple)) and not runs else as_paths(runs)
    if paths is not None and not paths:
        raise ArgueError("no runs given: pass ranked runs or report runs (e.g. --run runs/sample/ranked/bm25.trec)")
    return paths


def _compute(supply: Supply, params: dict[str, Any], metrics: list[str], whole: bool) -> MeasureResult:
    """The retrieval measures ``metrics`` (with ``whole``, ``DEFAULT_MEASURES`` first) of the supply's runs;
    the relevance is the qrels' when given, else the nugget bank's bindings."""
    from ..inputs.retrieval import load_runs, read_relevance
    from ..measures.retrieval import evaluate, parse_measures

    missing, engine = ({**PROVIDER.parameters, **params}[name] for name in ("missing", "engine"))
    runs, qrels = supply.runs, supply.qrels
    nuggets = None if qrels is not None else supply.nuggets
    on_duplicate, diversity, format = (supply.option("on_duplicate", "error"), supply.option("diversity", False),
                                       supply.option("format"))
    paths = _run_paths(runs)
    if qrels is None and nuggets is None:
        raise ArgueError("give exactly one of --qrels and --nuggets")
    parsed = parse_measures([*(DEFAULT_MEASURES if whole else ()), *metrics])
    if diversity and not qrels:
        raise OptionError("--diversity", "needs --qrels (diversity qrels: topic subtopic doc grade)")
    judgments, subtopics = read_relevance(qrels, nuggets, on_duplicate, diversity)
    rankings = load_runs(paths, format) if paths is not None else list(runs)
    rows = evaluate(judgments, rankings, parsed, missing, engine, subtopics)
    settings = {"measures": [m.name for m in parsed], "missing": missing, "engine": engine,
                "relevance": "qrels" if qrels is not None else "nuggets"}
    return MeasureResult("retrieval", rows, settings, [], [ranking.name for ranking in rankings],
                         sorted({row[1] for row in rows if row[1] != ALL_TOPICS}, key=natural_key))


PROVIDER = Provider("retrieval", keyword_defaults(retrieval, "missing", "engine"), _compute,
                    options=("on_duplicate", "diversity", "format"))
"""The retrieval family on ``api.calc``'s road: ``retrieval.ndcg@20``, ``retrieval.P(rel=2)@10``,
``retrieval.map(missing=skip)``."""
