"""Retrieval measures (nDCG, MAP, recall, P@k, ...) for ranked runs and for the documents reports cite,
computed by ranx with trec_eval's conventions made explicit.

Two trec_eval conventions matter and ranx does not follow them by itself:

* **Tie order.** trec_eval ignores the rank column and orders a topic's documents by score descending, then
  docno descending; ranx sorts by score only, so tied documents land in whatever order its sort leaves
  them. We sort first (``organizer.pooling.order_ranked_files``; ``formats.ranked.trec_order`` states the
  order for one list) and hand ranx strictly decreasing pseudo-scores (``n, n-1, ..., 1``): rank-based
  measures then see exactly trec_eval's ranking. A document ranked twice in a topic is an error.
* **Missing topics.** With ``missing="zero"`` (trec_eval ``-c``, our default) every topic of the qrels is
  evaluated, a topic the run lacks scores 0, and topics of the run that the qrels lack are ignored; with
  ``missing="skip"`` (trec_eval without ``-c``) only topics in both count. Topics whose qrels hold no
  relevant document are evaluated (and score 0), as trec_eval does.
* **Negative grades.** trec_eval reads a negative grade (e.g. -1 in a pool file) as "in the pool, not
  judged": not relevant, and for bpref not judged non-relevant either. Such lines are removed before ranx
  sees the qrels (their topic stays), and bpref is computed here (:func:`bpref`), because ranx's also
  scores 0 instead of trec_eval's value when a topic has no judged non-relevant document.

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

from .errors import ArgueError
from .model import natural_key
from .organizer.pooling import Rankings

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
    match = re.fullmatch(r"([A-Za-z][A-Za-z0-9_-]*?)(?:[@._](\d+))?", body)
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
    from .organizer.pooling import rankings_from_ranked

    return rankings_from_ranked(path, repeats="error")


def load_runs(paths: Sequence[str | PathLike[str]], format: str | None = None) -> list[Rankings]:
    """Ranked runs and report runs (cited documents in order of first citation), detected per file, sorted
    by run name; the same run name in two files becomes ``name@file`` (as in pooling)."""
    from .organizer.pooling import load_rankings

    return load_rankings(paths, format, repeats="error")


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

    judged = {topic: {doc: grade for doc, grade in docs.items() if grade >= 0} for topic, docs in qrels.items()}
    ranx_measures = [m for m in measures if _bpref_level(m) is None]
    rows: list[tuple[str, str, str, float]] = []
    for run in runs:
        if missing == "zero":
            topics = sorted(qrels, key=natural_key)
        else:
            topics = sorted((t for t in qrels if t in run.topics), key=natural_key)
            if not topics:
                raise ArgueError(f"run {run.name!r} shares no topic with the qrels; nothing to evaluate")
        results: dict[str, dict[str, float]] = {topic: {} for topic in topics}
        # A topic the run does not answer, or without a judged document (e.g. only -1 lines), scores 0 on
        # every measure, as in trec_eval; ranx sees only the others (it cannot hold an empty topic).
        active = [topic for topic in topics if run.topics.get(topic) and judged[topic]]
        if active and ranx_measures:
            ranx_run = Run({topic: _pseudo_scores(run.topics[topic]) for topic in active})
            scores = ranx_evaluate(
                Qrels({topic: judged[topic] for topic in active}), ranx_run, [m.ranx for m in ranx_measures], return_mean=False, make_comparable=True
            )
            if not isinstance(scores, dict):
                scores = {ranx_measures[0].ranx: scores}
            order = ranx_run.get_query_ids()
            for measure in ranx_measures:
                values = np.asarray(scores[measure.ranx], dtype=float)
                for topic, value in zip(order, values):
                    results[topic][measure.name] = float(value)
        for measure in measures:
            level = _bpref_level(measure)
            if level is not None:
                for topic in active:
                    results[topic][measure.name] = bpref(run.topics[topic], judged[topic], level)
        for topic in topics:
            for measure in measures:
                rows.append((run.name, topic, measure.name, results[topic].get(measure.name, 0.0)))
        for measure in measures:
            values = [results[topic].get(measure.name, 0.0) for topic in topics]
            rows.append((run.name, "all", measure.name, float(np.mean(values)) if values else 0.0))
    return rows


def _bpref_level(measure: Measure) -> int | None:
    """The relevance level of a bpref measure (``bpref`` 1, ``bpref-l2`` 2), or ``None`` for other measures."""
    match = re.fullmatch(r"bpref(?:@\d+)?(?:-l(\d+))?", measure.ranx)
    return None if match is None else int(match.group(1) or 1)


def bpref(ranking: Sequence[str], judged: Mapping[str, int], level: int = 1) -> float:
    """trec_eval's bpref of one ranking (Buckley & Voorhees 2004), computed here because ranx's differs.

    Only judged documents count: for each relevant document retrieved (grade >= ``level``), one minus the
    share of judged non-relevant documents (0 <= grade < ``level``) ranked above it, counting at most R of
    them and dividing by ``min(R, N)``; averaged over the R relevant documents. As in trec_eval, a
    relevant document with no judged non-relevant one above it scores 1, also when the topic has no judged
    non-relevant document at all (N = 0), where ranx divides by zero and reports 0; and a negative grade
    (pooled, unjudged) counts as unjudged, where ranx counts it as judged non-relevant. Cutoffs are
    ignored, as in ranx and trec_eval.
    """
    relevant = sum(1 for grade in judged.values() if grade >= level)
    nonrelevant = sum(1 for grade in judged.values() if 0 <= grade < level)
    if not relevant:
        return 0.0
    total = 0.0
    nonrelevant_above = 0
    for doc_id in ranking:
        grade = judged.get(doc_id)
        if grade is None or grade < 0:
            continue
        if grade < level:
            nonrelevant_above += 1
        elif nonrelevant_above:
            total += 1.0 - min(nonrelevant_above, relevant) / min(nonrelevant, relevant)
        else:
            total += 1.0
    return total / relevant


def _pseudo_scores(docs: Sequence[str]) -> dict[str, float]:
    """Strictly decreasing scores n..1 for an already ordered list, so ranx cannot reorder ties."""
    n = len(docs)
    return {doc_id: float(n - index) for index, doc_id in enumerate(docs)}
