"""Retrieval measures (nDCG, MAP, recall, P@k, ...) for ranked runs and for the documents reports cite,
computed by ranx with trec_eval's conventions made explicit.

Two trec_eval conventions matter and ranx does not follow them by itself:

* **Tie order.** trec_eval ignores the rank column and orders a topic's documents by score descending, then
  docno descending; ranx sorts by score only, so tied documents land in whatever order its sort leaves
  them. We sort first (``formats.ranked.trec_order``) and hand ranx strictly decreasing pseudo-scores
  (``n, n-1, ..., 1``): rank-based measures then see exactly trec_eval's ranking.
* **Missing topics.** With ``missing="zero"`` (trec_eval ``-c``, our default) every topic of the qrels is
  evaluated, a topic the run lacks scores 0, and topics of the run that the qrels lack are ignored; with
  ``missing="skip"`` (trec_eval without ``-c``) only topics in both count. Topics whose qrels hold no
  relevant document are evaluated (and score 0), as trec_eval does.

A report's cited documents form a ranked list in order of first citation (repeats dropped), so citation
quality can be measured with the same machinery.

ranx compiles numba kernels the first time each measure is used (seconds, cached afterwards); this module
imports ranx only inside :func:`evaluate`, and no other command imports this module.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from typing import Literal

from .errors import ArgueError, InputError
from .organizer.pooling import Rankings, natural_key

Missing = Literal["zero", "skip"]

_RANX_MEASURES = {
    "hits", "hit_rate", "precision", "recall", "f1", "r-precision", "mrr", "map",
    "dcg", "dcg_burges", "ndcg", "ndcg_burges", "bpref", "rbp",
}
_ALIASES = {
    # trec_eval spellings -> ranx names
    "p": "precision",
    "ndcg_cut": "ndcg",
    "map_cut": "map",
    "recip_rank": "mrr",
    "rprec": "r-precision",
    "r_prec": "r-precision",
    "success": "hit_rate",
}


@dataclass(frozen=True)
class Measure:
    """A measure as the user wrote it (``name``: used in the output) and as ranx spells it (``ranx``)."""

    name: str
    ranx: str


def parse_measures(spec: str | Sequence[str]) -> list[Measure]:
    """Parse ``"ndcg@20 recall@100 map P@10"`` (spaces or commas) into measures, accepting trec_eval names.

    ``P_10``, ``P.10`` and ``P@10`` all mean precision at 10; ``ndcg_cut_20`` is ``ndcg@20``;
    ``recip_rank`` is ``mrr``; ``Rprec`` is ``r-precision``; ``success_10`` is ``hit_rate@10``; a ranx
    relevance level suffix (``ndcg@10-l2``) is kept. Unknown names are an error listing the known ones.
    """
    tokens = spec.replace(",", " ").split() if isinstance(spec, str) else [t for s in spec for t in s.replace(",", " ").split()]
    if not tokens:
        raise ArgueError("no measures given (e.g. --measures \"ndcg@20 recall@100 map P@10\")")
    measures: list[Measure] = []
    for token in tokens:
        measures.append(Measure(token, _to_ranx(token)))
    return list(dict.fromkeys(measures))


def _to_ranx(token: str) -> str:
    level = ""
    body = token
    match = re.fullmatch(r"(.+)-l(\d+)", token)
    if match:
        body, level = match.group(1), f"-l{match.group(2)}"
    rbp = re.fullmatch(r"rbp[.@](\d+)", body, flags=re.IGNORECASE)
    if rbp:
        return f"rbp.{rbp.group(1)}{level}"
    match = re.fullmatch(r"([A-Za-z][A-Za-z_-]*?)(?:[@._](\d+))?", body)
    if match:
        name, cutoff = match.group(1), match.group(2)
        key = name.lower()
        ranx_name = _ALIASES.get(key, key)
        if ranx_name in _RANX_MEASURES and ranx_name != "rbp":
            if cutoff is not None and int(cutoff) < 1:
                raise ArgueError(f"measure {token!r}: the cutoff must be at least 1")
            return f"{ranx_name}@{cutoff}{level}" if cutoff else f"{ranx_name}{level}"
    known = "ndcg, map, recall, precision (P), mrr (recip_rank), r-precision (Rprec), bpref, f1, hits, hit_rate, dcg, rbp.95"
    raise ArgueError(f"unknown measure {token!r}; known: {known}, each optionally with @k (e.g. ndcg@20, P@10)")


# --- runs ------------------------------------------------------------------------------------------------------


def ranked_run_rankings(path: str | PathLike[str]) -> list[Rankings]:
    """One :class:`Rankings` per tag of a TREC ranked run, in trec_eval order. A document listed twice for
    a topic is an error, as in trec_eval (``duplicate docs``)."""
    from .formats.ranked import read_rankings, trec_order

    result = []
    for tag, topics in read_rankings(path).items():
        ordered: dict[str, list[str]] = {}
        for topic, pairs in topics.items():
            docs = [doc for doc, _ in trec_order(pairs)]
            if len(set(docs)) != len(docs):
                seen: set[str] = set()
                repeated = next(doc for doc in docs if doc in seen or seen.add(doc))  # type: ignore[func-returns-value]
                raise InputError(
                    path, None, None,
                    f"run {tag!r}, topic {topic!r}: document {repeated!r} is ranked twice "
                    "(trec_eval refuses duplicate documents; keep one line per document)",
                )
            ordered[topic] = docs
        result.append(Rankings(tag, ordered, str(path)))
    return result


def load_runs(paths: Sequence[str | PathLike[str]], format: str | None = None) -> list[Rankings]:
    """Ranked runs and report runs (cited documents in order of first citation), detected per file."""
    from .formats import resolve
    from .organizer.pooling import rankings_from_reports

    loaded: list[Rankings] = []
    for path in paths:
        spec = resolve(path, None, format)
        if spec.kind == "ranked":
            loaded.extend(ranked_run_rankings(path))
        elif spec.kind == "runs":
            loaded.extend(rankings_from_reports(path, spec.name))
        else:
            raise InputError(path, None, None, f"expected a ranked run or a report run, found {spec.kind} ({spec.name})")
    names = [run.name for run in loaded]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ArgueError(f"several runs are named {', '.join(map(repr, repeated))}; run names must be unique")
    return loaded


# --- evaluation ------------------------------------------------------------------------------------------------


def evaluate(
    qrels: Mapping[str, Mapping[str, int]],
    runs: Iterable[Rankings],
    measures: Sequence[Measure] | str,
    missing: Missing = "zero",
) -> list[tuple[str, str, str, float]]:
    """Per-topic and mean scores as ``(run, topic, measure, value)`` rows.

    Rows come per run (in the order given), topics in natural order, measures in the order asked, then
    the run's ``all`` rows (the mean over the evaluated topics). A run that shares no topic with the
    qrels under ``missing="skip"`` is an error, since its mean would be undefined.
    """
    if isinstance(measures, str):
        measures = parse_measures(measures)
    if missing not in ("zero", "skip"):
        raise ArgueError(f"unknown missing-topic policy {missing!r}; expected zero or skip")
    if not qrels:
        raise ArgueError("the qrels hold no judgments")
    import numpy as np
    from ranx import Qrels, Run
    from ranx import evaluate as ranx_evaluate

    ranx_qrels = Qrels({topic: dict(docs) for topic, docs in qrels.items()})
    rows: list[tuple[str, str, str, float]] = []
    for run in runs:
        if missing == "zero":
            topics = sorted(qrels, key=natural_key)
        else:
            topics = sorted((t for t in qrels if t in run.topics), key=natural_key)
            if not topics:
                raise ArgueError(f"run {run.name!r} shares no topic with the qrels; nothing to evaluate")
        results = {topic: {} for topic in topics}
        active = [topic for topic in topics if run.topics.get(topic)]
        if active:
            ranx_run = Run({topic: _pseudo_scores(run.topics[topic]) for topic in active})
            sub_qrels = ranx_qrels if len(active) == len(qrels) else Qrels({t: dict(qrels[t]) for t in active})
            scores = ranx_evaluate(
                sub_qrels, ranx_run, [m.ranx for m in measures], return_mean=False, make_comparable=True
            )
            if len(measures) == 1:
                scores = {measures[0].ranx: scores}
            order = ranx_run.get_query_ids()
            for measure in measures:
                values = np.asarray(scores[measure.ranx], dtype=float)
                for topic, value in zip(order, values):
                    results[topic][measure.name] = float(value)
        for topic in topics:
            for measure in measures:
                rows.append((run.name, topic, measure.name, results[topic].get(measure.name, 0.0)))
        for measure in measures:
            values = [results[topic].get(measure.name, 0.0) for topic in topics]
            rows.append((run.name, "all", measure.name, float(np.mean(values)) if values else 0.0))
    return rows


def _pseudo_scores(docs: Sequence[str]) -> dict[str, float]:
    """Strictly decreasing scores n..1 for an already ordered list, so ranx cannot reorder ties."""
    n = len(docs)
    return {doc_id: float(n - index) for index, doc_id in enumerate(docs)}
