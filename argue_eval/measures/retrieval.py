"""Retrieval measures (nDCG, MAP, recall, P@k, infAP, ERR, alpha-nDCG, ...) of ranked lists -- ranked runs, or
the documents reports cite -- with trec_eval's conventions made explicit. Arithmetic on records: the runs
(``RankedLists``: a name and each topic's documents in rank order) and the qrels come in as mappings, read by
``argue_eval.inputs.retrieval``; this module reads no file.

Two engines compute them:

* ``ir_measures`` (the default) hands each measure to the library that defines it: the C trec_eval (through
  pytrec_eval) for nDCG, AP, P, recall, RR, Rprec, bpref, infAP, success and the set measures; the C ndeval
  of the TREC Web Track (through pyndeval) for alpha-nDCG@k, ERR-IA@k and nERR-IA@k over subtopic qrels;
  ir_measures itself for judged@k. ERR@k (Chapelle et al. 2009, gdeval's gains) is computed here
  (:func:`err`): ir_measures computes it only by running gdeval.pl in Perl. Both C libraries load in
  milliseconds, so one call costs about what a plain pytrec_eval script does.
* ``ranx`` (``engine="ranx"``), exact as well but slow to start: its numba kernels compile in every process.
  It offers dcg, dcg_burges, ndcg_burges and rbp, which trec_eval lacks.

The conventions both engines follow:

* **Tie order.** trec_eval ignores the rank column and orders a topic's documents by score descending, then
  docno descending. The readers sort first (``formats.ranked.order_ranked_files``; ``formats.ranked.trec_order``
  states the order for one list), and this module hands the engine strictly decreasing pseudo-scores
  (``n, n-1, ..., 1``), so every engine sees exactly trec_eval's ranking. A document ranked twice in a topic
  is an error (the readers', ``repeats="error"``).
* **Missing topics.** With ``missing="zero"`` (trec_eval ``-c``, our default) every topic of the qrels is
  evaluated, a topic the run lacks scores 0, and topics of the run that the qrels lack are ignored; with
  ``missing="skip"`` (trec_eval without ``-c``) only topics in both count. Topics whose qrels hold no
  relevant document are evaluated (and score 0), as trec_eval does. Means are computed here, over the
  evaluated topics.
* **Negative grades.** trec_eval reads a negative grade (e.g. -1 in a pool file) as "in the pool, not
  judged": not relevant, and for bpref and infAP not judged non-relevant either. Such lines are removed
  before the engine sees the qrels (their topic stays), except for bpref and infAP under trec_eval, which
  read them as trec_eval does; under ranx bpref is computed here (:func:`bpref`), because ranx's scores 0
  instead of trec_eval's value when a topic has no judged non-relevant document.

A report's cited documents form a ranked list in order of first citation (repeats dropped), so citation
quality can be measured with the same machinery.

The engines' libraries are imported only inside :func:`evaluate`. As a family of the measures registry
(:func:`family`), its measures are named ``retrieval.NAME`` (``retrieval.ndcg@20``, ``retrieval.P(rel=2)@10``)
and its table has no counts or ratios: one value per measure, topic and run, and the run's mean.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from ..errors import ArgueError, OptionError, unknown_name
from ..family import Family
from ..model import ALL_TOPICS, natural_key

__all__ = ["Measure", "RankedLists", "SubtopicQrels", "parse_measures", "evaluate", "err", "bpref",
           "trec_eval_lines", "collapse_subtopics", "ENGINES", "DIVERSITY", "family", "resolve_measure"]

Missing = Literal["zero", "skip"]
Engine = Literal["ir_measures", "ranx"]
ENGINES = ("ir_measures", "ranx")
SubtopicQrels = Mapping[str, Mapping[str, Mapping[str, int]]]
"""Diversity qrels: ``{topic: {subtopic: {doc_id: grade}}}`` (the TREC Web Track's ``topic subtopic doc grade``)."""


class RankedLists(Protocol):
    """One run's ranked documents per topic, best first, no repeats (``formats.ranked.Rankings`` is one)."""

    @property
    def name(self) -> str: ...

    @property
    def topics(self) -> Mapping[str, Sequence[str]]: ...

_RANX_MEASURES = {
    "hits", "hit_rate", "precision", "recall", "f1", "r-precision", "mrr", "map",
    "dcg", "dcg_burges", "ndcg", "ndcg_burges", "bpref", "rbp",
}
_OTHER_MEASURES = {"infap", "err", "judged", "alpha-ndcg", "err-ia", "nerr-ia"}
DIVERSITY = {"alpha-ndcg", "err-ia", "nerr-ia"}
_ALIASES = {
    # trec_eval, ndeval and ir_measures spellings -> our keys (ranx's names where ranx has the measure)
    "p": "precision",
    "ndcg_cut": "ndcg",
    "map_cut": "map",
    "ap": "map",
    "recip_rank": "mrr",
    "rr": "mrr",
    "rprec": "r-precision",
    "r_prec": "r-precision",
    "success": "hit_rate",
    "r": "recall",
    "alpha_ndcg": "alpha-ndcg",
    "err_ia": "err-ia",
    "nerr_ia": "nerr-ia",
}
_CUTOFF_REQUIRED = {"err", "judged", "alpha-ndcg", "err-ia", "nerr-ia"}


@dataclass(frozen=True)
class Measure:
    """A measure as the user wrote it (``name``: used in the output), as ranx spells it (``ranx``, ``None``
    when ranx lacks it), and parsed: our ``key``, its ``cutoff`` and relevance ``level`` (``None`` when not given)."""

    name: str
    ranx: str | None
    key: str = ""
    cutoff: int | None = None
    level: int | None = None

    @property
    def trec_eval_name(self) -> str:
        """The name trec_eval (or ndeval, gdeval) prints for this measure, for ``-q`` style output."""
        k, c = self.key, self.cutoff
        if self.level is not None or not k:
            return self.name
        if c is None:
            plain = {"map": "map", "mrr": "recip_rank", "r-precision": "Rprec", "bpref": "bpref", "ndcg": "ndcg",
                     "infap": "infAP", "precision": "set_P", "recall": "set_recall", "f1": "set_F", "hits": "num_rel_ret"}
            return plain.get(k, self.name)
        cut = {"ndcg": "ndcg_cut_", "precision": "P_", "recall": "recall_", "map": "map_cut_", "hit_rate": "success_",
               "mrr": "recip_rank_cut_", "err": "err@", "alpha-ndcg": "alpha-nDCG@", "err-ia": "ERR-IA@", "nerr-ia": "nERR-IA@",
               "judged": "judged_"}
        return f"{cut[k]}{c}" if k in cut else self.name


LARGEST_CUTOFF = 1_000_000_000
"""The deepest cutoff a measure takes (``ndcg@k``): deeper than any ranking, and within the C integers trec_eval
parses it into (a cutoff of 10^24 came back under another measure's name)."""


def parse_measures(spec: str | Sequence[str]) -> list[Measure]:
    """Parse ``"ndcg@20 recall@100 map P@10"`` (spaces or commas) into measures, accepting trec_eval names.

    ``P_10``, ``P.10`` and ``P@10`` all mean precision at 10; ``ndcg_cut_20`` is ``ndcg@20``;
    ``recip_rank`` is ``mrr``; ``Rprec`` is ``r-precision``; ``success_10`` is ``hit_rate@10``; a relevance
    level suffix (``ndcg@10-l2``, ``P@10-l2``) is kept. Besides ranx's measures: ``infAP``, ``ERR@k``,
    ``judged@k``, ``alpha-nDCG@k``, ``ERR-IA@k``, ``nERR-IA@k``. Unknown names are an error listing the known ones.
    """
    tokens = spec.replace(",", " ").split() if isinstance(spec, str) else [t for s in spec for t in s.replace(",", " ").split()]
    if not tokens:
        raise ArgueError("no measures given (e.g. --measures \"ndcg@20 recall@100 map P@10\")")
    return list(dict.fromkeys(_parse(token) for token in tokens))


def _parse(token: str) -> Measure:
    level: int | None = None
    body = token
    match = re.fullmatch(r"(.+)-l(\d+)", token)
    if match:
        body, level = match.group(1), int(match.group(2))
    suffix = "" if level is None else f"-l{level}"
    rbp = re.fullmatch(r"rbp[.@](\d+)", body, flags=re.IGNORECASE)
    if rbp:
        return Measure(token, f"rbp.{rbp.group(1)}{suffix}", "rbp", None, level)
    match = re.fullmatch(r"([A-Za-z][A-Za-z0-9_-]*?)(?:[@._](\d+))?", body)
    if match:
        name, cutoff_text = match.group(1), match.group(2)
        key = _ALIASES.get(name.lower(), name.lower())
        if (key in _RANX_MEASURES and key != "rbp") or key in _OTHER_MEASURES:
            cutoff = None if cutoff_text is None else int(cutoff_text)
            if cutoff is not None and not 1 <= cutoff <= LARGEST_CUTOFF:  # trec_eval reads it into a C long
                raise OptionError("--measures", f"measure {token!r}: the cutoff must be between 1 and {LARGEST_CUTOFF}")
            if cutoff is None and key in _CUTOFF_REQUIRED:
                raise ArgueError(f"measure {token!r} needs a cutoff (e.g. {name}@20)")
            ranx = None
            if key in _RANX_MEASURES:
                ranx = f"{key}@{cutoff}{suffix}" if cutoff else f"{key}{suffix}"
            return Measure(token, ranx, key, cutoff, level)
    raise OptionError("--measures", f"unknown measure {token!r}; known: {', '.join(KNOWN)}, each optionally with @k "
                                    "(e.g. ndcg@20, P@10)")


KNOWN = ("ndcg", "map", "recall", "precision (P)", "mrr (recip_rank)", "r-precision (Rprec)", "bpref", "infAP", "f1",
         "hits", "hit_rate (success)", "judged@k", "ERR@k", "alpha-nDCG@k", "ERR-IA@k", "nERR-IA@k",
         "with --engine ranx also dcg, rbp.95")
"""The measures an unknown name's error lists."""


def resolve_measure(name: str, at: str | None, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """``retrieval.NAME(rel=R)@K`` -> the metric of the table (``NAME@K-lR``, as ``parse_measures`` reads it) and
    the family's other parameters; an unknown measure is an error listing the known ones."""
    rel = params.pop("rel", None)
    if rel is not None and not str(rel).isdigit():
        raise OptionError("measure", f"retrieval.{name}: rel must be a whole relevance grade, found {rel!r}")
    token = name + (f"@{at}" if at is not None else "") + (f"-l{rel}" if rel is not None else "")
    try:
        _parse(token)
    except OptionError as error:
        raise OptionError("measure", f"retrieval.{token}: {error.problem.message}") from None
    except ArgueError as error:
        raise OptionError("measure", f"retrieval.{token}: {error}") from None
    return token, params


def family(**params: Any) -> Family:
    """Retrieval as a family of the registry: open-ended measure names (``resolve_measure``), no counts."""
    return Family(name="retrieval", counts=(), ratios=(), params=params, resolve=resolve_measure, known=KNOWN,
                  description="trec_eval's retrieval measures (ir_measures, or ranx) of ranked runs or of the "
                              "documents reports cite, per topic and their mean.")


# --- evaluation ------------------------------------------------------------------------------------------------


def evaluate(
    qrels: Mapping[str, Mapping[str, int]],
    runs: Iterable[RankedLists],
    measures: Sequence[Measure] | str,
    missing: Missing = "zero",
    engine: Engine = "ir_measures",
    subtopics: SubtopicQrels | None = None,
) -> list[tuple[str, str, str, float]]:
    """Per-topic and mean scores as ``(run, topic, measure, value)`` rows.

    Rows come per run (in the order given), topics in natural order, measures in the order asked, then
    the run's ``all`` rows (the mean over the evaluated topics). A run that shares no topic with the
    qrels under ``missing="skip"`` is an error, since its mean would be undefined. The diversity measures
    (alpha-nDCG, ERR-IA, nERR-IA) read ``subtopics``; the others read ``qrels``.
    """
    if isinstance(measures, str):
        measures = parse_measures(measures)
    if missing not in ("zero", "skip"):
        raise unknown_name("--missing-topics", "missing-topic policy", missing, ("zero", "skip"))
    if engine not in ENGINES:
        raise unknown_name("--engine", "engine", engine, ENGINES)
    if not qrels:
        raise ArgueError("the qrels hold no judgments")
    if any(m.key in DIVERSITY for m in measures) and subtopics is None:
        names = ", ".join(m.name for m in measures if m.key in DIVERSITY)
        raise ArgueError(f"{names}: diversity measures need subtopic qrels (topic subtopic doc grade, as the TREC Web "
                         "Track's), passed as --qrels with --diversity")
    judged = {topic: {doc: grade for doc, grade in docs.items() if grade >= 0} for topic, docs in qrels.items()}
    if engine == "ranx":
        scorer: _Scorer = _RanxScorer(judged, measures)
    else:
        scorer = _TrecEvalScorer(qrels, judged, measures, subtopics)
    rows: list[tuple[str, str, str, float]] = []
    for run in runs:
        if missing == "zero":
            topics = sorted(qrels, key=natural_key)
        else:
            topics = sorted((t for t in qrels if t in run.topics), key=natural_key)
            if not topics:
                raise ArgueError(f"run {run.name!r} shares no topic with the qrels; nothing to evaluate")
        # Means sum in topic order, as trec_eval does. A topic the run does not answer, or without a judged document (e.g. only -1 lines), scores 0 on
        # every measure, as in trec_eval; the engines see only the others (ranx cannot hold an empty topic).
        active = [topic for topic in topics if run.topics.get(topic) and judged[topic]]
        results = scorer.score(run, active)
        for topic in topics:
            for measure in measures:
                rows.append((run.name, topic, measure.name, results.get(topic, {}).get(measure.name, 0.0)))
        for measure in measures:
            values = [results.get(topic, {}).get(measure.name, 0.0) for topic in topics]
            rows.append((run.name, ALL_TOPICS, measure.name, sum(values) / len(values) if values else 0.0))
    return rows


class _Scorer:
    def score(self, run: RankedLists, active: Sequence[str]) -> dict[str, dict[str, float]]:
        """``{topic: {measure name: value}}`` for the ``active`` topics of one run."""
        raise NotImplementedError


class _RanxScorer(_Scorer):
    """ranx for its measures, :func:`bpref` for bpref."""

    def __init__(self, judged: Mapping[str, Mapping[str, int]], measures: Sequence[Measure]):
        missing = [m.name for m in measures if m.ranx is None]
        if missing:
            raise ArgueError(f"ranx does not compute {', '.join(missing)}; use the default engine (--engine ir_measures)")
        self.judged = judged
        self.measures = list(measures)
        self.ranx_measures = [m for m in measures if _bpref_level(m) is None]

    def score(self, run: RankedLists, active: Sequence[str]) -> dict[str, dict[str, float]]:
        import numpy as np
        from ranx import Qrels, Run
        from ranx import evaluate as ranx_evaluate

        results: dict[str, dict[str, float]] = {topic: {} for topic in active}
        if active and self.ranx_measures:
            ranx_run = Run({topic: _pseudo_scores(run.topics[topic]) for topic in active})
            names = [str(m.ranx) for m in self.ranx_measures]
            scores = ranx_evaluate(Qrels({topic: dict(self.judged[topic]) for topic in active}), ranx_run, names,
                                   return_mean=False, make_comparable=True)
            if not isinstance(scores, dict):
                scores = {names[0]: scores}
            order = ranx_run.get_query_ids()
            for measure in self.ranx_measures:
                for topic, value in zip(order, np.asarray(scores[measure.ranx], dtype=float)):
                    results[topic][measure.name] = float(value)
        for measure in self.measures:
            level = _bpref_level(measure)
            if level is not None:
                for topic in active:
                    results[topic][measure.name] = bpref(run.topics[topic], self.judged[topic], level)
        return results


class _TrecEvalScorer(_Scorer):
    """ir_measures: pytrec_eval (the C trec_eval), pyndeval (the C ndeval) and its own judged@k; ERR@k here.

    The evaluators are built once from the qrels and reused for every run, as trec_eval would be if it took
    many runs. Measures are asked for under ir_measures' names and their values given back under the user's.
    """

    def __init__(self, qrels: Mapping[str, Mapping[str, int]], judged: Mapping[str, Mapping[str, int]],
                 measures: Sequence[Measure], subtopics: SubtopicQrels | None):
        import ir_measures

        self.judged = judged
        self.measures = list(measures)
        # ir_measures measure (by its string) -> the user's names it answers; and the derived f1@k / hits@k.
        wanted: dict[str, dict[str, Any]] = {"judged": {}, "raw": {}, "diversity": {}}
        self.names: dict[str, list[str]] = {}
        self.derived: list[tuple[Measure, str, str]] = []
        self.err: list[Measure] = []
        for measure in self.measures:
            if measure.key == "err":
                self.err.append(measure)
                continue
            for view, irm, alias in _ir_measures_of(measure):
                wanted[view][str(irm)] = irm
                self.names.setdefault(str(irm), [])
                if alias:
                    self.names[str(irm)].append(measure.name)
            if measure.key in ("f1", "hits") and measure.cutoff is not None:
                p, r = _ir_measures_of(measure)[0][1], _ir_measures_of(measure)[-1][1]
                self.derived.append((measure, str(p), str(r)))
        self.evaluators = []
        if wanted["judged"]:
            self.evaluators.append(ir_measures.evaluator(list(wanted["judged"].values()), _dict_qrels(judged)))
        if wanted["raw"]:
            self.evaluators.append(ir_measures.evaluator(list(wanted["raw"].values()), _dict_qrels(qrels)))
        if wanted["diversity"]:
            assert subtopics is not None
            rows = [ir_measures.Qrel(topic, doc, grade, subtopic) for topic, subs in subtopics.items()
                    for subtopic, docs in subs.items() for doc, grade in docs.items()]
            self.evaluators.append(_quiet(lambda: ir_measures.evaluator(list(wanted["diversity"].values()), rows)))

    def score(self, run: RankedLists, active: Sequence[str]) -> dict[str, dict[str, float]]:
        results: dict[str, dict[str, float]] = {topic: {} for topic in active}
        if not active:
            return results
        pseudo = {topic: _pseudo_scores(run.topics[topic]) for topic in active}
        raw: dict[str, dict[str, float]] = {topic: {} for topic in active}
        for evaluator in self.evaluators:
            for metric in evaluator.iter_calc(pseudo):
                if metric.query_id in raw:
                    raw[metric.query_id][str(metric.measure)] = float(metric.value)
        for topic in active:
            values = raw[topic]
            for key, names in self.names.items():
                for name in names:
                    results[topic][name] = values.get(key, 0.0)
            for measure, p_key, r_key in self.derived:
                p, r = values.get(p_key, 0.0), values.get(r_key, 0.0)
                if measure.key == "f1":
                    results[topic][measure.name] = 2 * p * r / (p + r) if p + r > 0 else 0.0
                else:  # hits@k: relevant documents in the top k = P@k * k (trec_eval divides by k, retrieved or not)
                    results[topic][measure.name] = float(round(p * int(measure.cutoff or 0)))
            for measure in self.err:
                results[topic][measure.name] = err(run.topics[topic], self.judged[topic], int(measure.cutoff or 0))
        return results


def _ir_measures_of(measure: Measure) -> list[tuple[str, Any, bool]]:
    """``(qrels view, ir_measures measure, answers the user's measure directly)`` for one of our measures.

    Views: ``judged`` (negative grades removed), ``raw`` (as written: bpref and infAP read -1 as trec_eval
    does), ``diversity`` (subtopic qrels). f1@k and hits@k are derived from P@k and R@k."""
    from ir_measures import measures as M

    key, cutoff, rel = measure.key, measure.cutoff, measure.level or 1

    def at(base: Any) -> Any:
        return base @ cutoff if cutoff is not None else base

    if key == "ndcg":
        if measure.level is not None:
            raise ArgueError(f"measure {measure.name!r}: trec_eval's nDCG has no relevance level (grades are gains); "
                             "drop the -l suffix or use --engine ranx")
        return [("judged", at(M.nDCG), True)]
    simple = {"map": M.AP, "mrr": M.RR}
    if key in simple:
        return [("judged", at(simple[key](rel=rel)), True)]
    if key == "precision":
        return [("judged", M.P(rel=rel) @ cutoff if cutoff else M.SetP(rel=rel), True)]
    if key == "recall":
        return [("judged", M.R(rel=rel) @ cutoff if cutoff else M.SetR(rel=rel), True)]
    if key == "f1":
        if cutoff is None:
            return [("judged", M.SetF(rel=rel), True)]
        return [("judged", M.P(rel=rel) @ cutoff, False), ("judged", M.R(rel=rel) @ cutoff, False)]
    if key == "hits":
        if cutoff is None:
            return [("judged", M.NumRelRet(rel=rel), True)]
        return [("judged", M.P(rel=rel) @ cutoff, False)]
    if key == "r-precision":
        return [("judged", M.Rprec(rel=rel), True)]
    if key == "hit_rate":
        if cutoff is None:
            raise ArgueError(f"measure {measure.name!r} needs a cutoff under trec_eval (e.g. success@10)")
        return [("judged", M.Success(rel=rel) @ cutoff, True)]
    if key == "bpref":
        return [("raw", M.Bpref(rel=rel), True)]
    if key == "infap":
        return [("raw", M.infAP(rel=rel), True)]
    if key == "judged":
        return [("judged", M.Judged @ cutoff, True)]
    diversity = {"alpha-ndcg": M.alpha_nDCG, "err-ia": M.ERR_IA, "nerr-ia": M.nERR_IA}
    if key in diversity:
        return [("diversity", diversity[key](rel=rel) @ cutoff, True)]
    raise ArgueError(f"measure {measure.name!r} is computed by ranx only; add --engine ranx")


def _dict_qrels(qrels: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, int]]:
    """Qrels as pytrec_eval takes them; a topic without any line is left out (it scores 0 here anyway)."""
    return {topic: dict(docs) for topic, docs in qrels.items() if docs}


def _quiet(build: Any) -> Any:
    """Run ``build`` with ir_measures' stderr warning about single-subtopic qrels silenced: with one subtopic
    per topic the diversity measures are still defined (alpha-nDCG becomes nDCG-like), and we document it."""
    import contextlib
    import io

    with contextlib.redirect_stderr(io.StringIO()):
        return build()


ERR_MAX_GRADE = 4
"""gdeval.pl's top grade: a document of grade g stops the user with probability (2^g - 1) / 2^4."""


def err(ranking: Sequence[str], judged: Mapping[str, int], cutoff: int) -> float:
    """Expected reciprocal rank at ``cutoff`` (Chapelle et al. 2009) with the TREC Web Track's gdeval gains.

    The user scans down the ranking and stops at rank r with probability R_r = (2^g - 1) / 2^4 (g the
    document's grade, clamped to 0..4; unjudged documents and negative grades count as 0);
    ERR@k = sum over r <= k of (1/r) R_r prod_{i<r} (1 - R_i).
    """
    total, still_looking = 0.0, 1.0
    for rank, doc_id in enumerate(ranking[:cutoff], start=1):
        grade = min(max(judged.get(doc_id, 0), 0), ERR_MAX_GRADE)
        stop = (2 ** grade - 1) / 2 ** ERR_MAX_GRADE
        total += still_looking * stop / rank
        still_looking *= 1 - stop
    return total


def _bpref_level(measure: Measure) -> int | None:
    """The relevance level of a bpref measure (``bpref`` 1, ``bpref-l2`` 2), or ``None`` for other measures."""
    return (measure.level or 1) if measure.key == "bpref" else None


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
    """Strictly decreasing scores n..1 for an already ordered list, so ranx cannot reorder ties.

    Built with ``dict(zip(...))`` over a cached list of the scores (runs have the same depth on every topic):
    for 50 runs of 50 x 1000 this was as costly as trec_eval's own evaluation when written as a comprehension."""
    return dict(zip(docs, _descending(len(docs))))


@functools.lru_cache(maxsize=64)
def _descending(n: int) -> tuple[float, ...]:
    return tuple(float(n - index) for index in range(n))


def trec_eval_lines(rows: Sequence[tuple[str, str, str, float]], measures: Sequence[Measure]) -> list[str]:
    """``rows`` (from :func:`evaluate`) as ``trec_eval -q`` prints them: per run, the per-topic lines, then
    ``runid``, ``num_q`` and the ``all`` lines; measure names as trec_eval (ndeval, gdeval) spell them, values
    to four decimals (``%-22s\\t%s\\t%6.4f``). Several runs give one such block each, as several trec_eval calls."""
    names = {m.name: m.trec_eval_name for m in measures}
    lines: list[str] = []
    by_run: dict[str, list[tuple[str, str, float]]] = {}
    for run, topic, metric, value in rows:
        by_run.setdefault(run, []).append((topic, metric, value))
    for run, entries in by_run.items():
        topics = {topic for topic, _, _ in entries if topic != ALL_TOPICS}
        summary = [f"{'runid':<22}\tall\t{run}", f"{'num_q':<22}\tall\t{len(topics)}"]
        for topic, metric, value in entries:
            line = f"{names.get(metric, metric):<22}\t{topic}\t{value:6.4f}"
            (summary if topic == ALL_TOPICS else lines).append(line)
        lines.extend(summary)
    return lines


def collapse_subtopics(subtopics: SubtopicQrels) -> dict[str, dict[str, int]]:
    """Ad hoc qrels from diversity qrels: a document's grade is its highest over the topic's subtopics."""
    result: dict[str, dict[str, int]] = {}
    for topic, subs in subtopics.items():
        docs = result.setdefault(topic, {})
        for judged in subs.values():
            for doc, grade in judged.items():
                docs[doc] = max(grade, docs.get(doc, grade))
    return result
