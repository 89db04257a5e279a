"""Benchmark: how close a judge's answers (and the scores they give) come to reference judgments.

Issue 8, item 7. For each dataset the script builds every flowchart question the reports raise under
cited-document scoping (a cited sentence: ``attested`` per citation and ``answers`` per nugget answer bound
to the cited document; an uncited one: ``negative``, ``nugget_agrees`` per negative nugget answer,
``requires_citation`` and ``first_instance``; ``relevant`` is asked per citation too and measured, though the
scorer takes relevance from the nugget bindings and never uses those answers),
answers them with the judge, and compares with the reference judgments:

- per kind: items in common, accuracy, Cohen's kappa (``argue_eval.stats.judgment_agreement``), balanced
  accuracy, and precision / recall / F1 of the "yes" answers;
- per topic (and run): Kendall's tau-b between the nugget coverage, and the F1, that the scorer gives with
  the judge's judgments and with the reference judgments, on the same reports, each with a seeded percentile
  bootstrap interval over topics (six or thirteen topics cannot support a point figure: one swapped pair
  moves tau by 0.13 on six).

``--adjudicated J.jsonl`` (dev only) takes canonical judgments that people made on the questions where a judge
and the reference disagree: every figure is printed again against the reference with those judgments in place
of its answers (the scorer reads them as a later file, which overrides the reference for the same judgment).
The reference is an LLM's judgments, not gold; the adjudicated file is how to tell the judge's errors from
the reference's.

Two baselines are measured in the same run and printed beside the judge: ``naive`` (an answer counts when
half of its content words occur in the sentence, attested always yes, the other kinds as the lexical
judge) and ``always-yes`` (every question answered yes).

Datasets:
  sample  the shipped sample track (runs/sample, nuggets/sample, topics/sample, qrels/sample/judgments.jsonl).
          We wrote both the reports and the assessor judgments: a weak check.
  dev     ../shared/judge-dev/ (read in place, never copied): six NeuCLIR 2024 topics of one report judged by
          Llama-3.3-70B through Auto-ARGUE, with the cited documents' text. The default (lexical) judge is a
          triage tool: its figures here say how far to trust it for local iteration, not a target it meets.

    python bench/bench_judge_fidelity.py                      # both datasets, the lexical judge
    python bench/bench_judge_fidelity.py --dataset dev --judge semantic
    python bench/bench_judge_fidelity.py --json out.json      # the figures as JSON too
    python bench/bench_judge_fidelity.py --dataset dev --ceiling  # + the best F1 overlap and MiniLM can reach
    python bench/bench_judge_fidelity.py --cv --no-baselines  # + leave-one-topic-out tuning of the thresholds
    python bench/bench_judge_fidelity.py --dataset dev --per-topic  # + each topic's coverage and F1, per judge
    python bench/bench_judge_fidelity.py --dataset dev --autoargue held.judgments.jsonl --nuggets held/nuggets
    python bench/bench_judge_fidelity.py --dataset dev --adjudicated adjudicated.jsonl  # + against people's calls
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402

from argue_eval.errors import InputError  # noqa: E402
from argue_eval.judges.base import JudgeBackend, Question, Verdict, make_key, verdict_to_judgment  # noqa: E402
from argue_eval.model import (  # noqa: E402
    JUDGMENT_KINDS,
    Document,
    Judgment,
    Nugget,
    Report,
    Request,
    TopicNuggets,
    normalize_text,
)

DEV = Path(os.environ.get("ARGUE_EVAL_JUDGE_DEV", REPO.parent.parent / "shared" / "judge-dev"))
if not DEV.is_dir():
    DEV = Path("/work/shared/judge-dev")


# --------------------------------------------------------------------------------------------------
# baselines
# --------------------------------------------------------------------------------------------------
_WORD = re.compile(r"\w+")
_NAIVE_STOP = frozenset("a an the of in on at to for and or by with from as is are was were be been it its that "
                        "this these those than more less".split())


def naive_content(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _NAIVE_STOP}


class NaiveJudge(JudgeBackend):
    """The baseline of issue 8: an answer counts when half of its content words occur in the sentence;
    attested is always yes; the uncited kinds are the lexical judge's (no naive rule is defined for them)."""

    name = "naive"
    kinds = frozenset(JUDGMENT_KINDS)

    def __init__(self, fallback: JudgeBackend) -> None:
        self.fallback = fallback

    def answer_many(self, questions: Sequence[Question]) -> list[Verdict | None]:
        out: list[Verdict | None] = []
        for q in questions:
            if q.kind == "answers":
                words = naive_content(q.answer or "")
                hits = len(words & naive_content(q.sentence))
                out.append(Verdict(bool(words) and hits >= len(words) / 2, self.name))
            elif q.kind == "attested":
                out.append(Verdict(True, self.name))
            else:
                out.append(self.fallback.answer(q))
        return out


class AlwaysYes(JudgeBackend):
    name = "always-yes"
    kinds = frozenset(JUDGMENT_KINDS)

    def answer_many(self, questions: Sequence[Question]) -> list[Verdict | None]:
        return [Verdict(True, self.name) for _ in questions]


# --------------------------------------------------------------------------------------------------
# questions
# --------------------------------------------------------------------------------------------------
def build_questions(reports: Iterable[Report], topics: dict[str, TopicNuggets], requests: dict[str, Request],
                    documents: dict[str, Document]) -> list[Question]:
    """Every question the flowchart can ask about ``reports`` (cited scope), deduplicated by key."""
    seen: dict[Any, Question] = {}
    for report in reports:
        rid = report.request_id
        topic = topics.get(rid)
        nuggets: list[Nugget] = topic.nuggets if topic else []
        request = requests.get(rid)
        cited = tuple(documents[d] for d in dict.fromkeys(c for s in report.sentences for c in s.citations)
                      if d in documents)
        earlier: list[str] = []
        for index, sentence in enumerate(report.sentences):
            norm = normalize_text(sentence.text)

            def add(kind: str, doc_id: str | None = None, nugget: Nugget | None = None, answer: str | None = None,
                    document: Document | None = None) -> None:
                # called at once, in this iteration: the loop variables it reads are the current ones
                key = make_key(kind, rid, norm, doc_id, nugget.nugget_id if nugget else None, answer,  # noqa: B023
                               report.run_id, index)  # noqa: B023
                if key not in seen:
                    seen[key] = Question(key, sentence.text, request=request, nugget=nugget, answer=answer,  # noqa: B023
                                         earlier_sentences=tuple(earlier), document=document,  # noqa: B023
                                         cited_documents=cited)  # noqa: B023

            if sentence.citations:
                for doc_id in dict.fromkeys(sentence.citations):
                    document = documents.get(doc_id)
                    add("attested", doc_id, document=document)
                    add("relevant", doc_id, document=document)  # scored from the bindings; measured anyway
                    for nugget in nuggets:
                        for answer in nugget.answers:
                            if doc_id in answer.doc_ids:
                                add("answers", doc_id, nugget, answer.text, document)
            else:
                add("negative")
                for nugget in nuggets:
                    if nugget.negative or not nugget.bound:
                        for answer in nugget.answers:
                            add("nugget_agrees", nugget=nugget, answer=answer.text)
                add("requires_citation")
                add("first_instance")
            earlier.append(sentence.text)
    return list(seen.values())


def judge_all(judge: JudgeBackend, questions: list[Question]) -> list[Judgment]:
    out = []
    for question, verdict in zip(questions, judge.answer_many(questions)):
        if verdict is not None:
            out.append(verdict_to_judgment(question, verdict))
    return out


# --------------------------------------------------------------------------------------------------
# datasets
# --------------------------------------------------------------------------------------------------
class Dataset:
    def __init__(self, name: str, reports: list[Report], topics: list[TopicNuggets], requests: dict[str, Request],
                 documents: dict[str, Document], reference: list[Judgment], reference_source: Any) -> None:
        self.name = name
        self.reports = reports
        self.topics = topics
        self.requests = requests
        self.documents = documents
        self.reference = reference
        self.reference_source = reference_source  # what score() takes for the reference judgments


def load_sample() -> Dataset:
    from argue_eval.formats import read_judgments, read_nuggets, read_reports, read_requests

    reports = [r for path in sorted((REPO / "runs" / "sample").glob("*.jsonl")) for r in read_reports(path)]
    topics = list(read_nuggets(REPO / "nuggets" / "sample" / "nuggets.jsonl"))
    requests = {r.request_id: r for r in read_requests(REPO / "topics" / "sample" / "requests.jsonl")}
    documents = {}
    with open(REPO / "topics" / "sample" / "collection.jsonl", encoding="utf-8") as handle:
        for line in handle:
            obj = json.loads(line)
            documents[obj["doc_id"]] = Document(obj["doc_id"], obj.get("text", ""), obj.get("title", ""))
    path = REPO / "qrels" / "sample" / "judgments.jsonl"
    reference = list(read_judgments(path))
    return Dataset("sample", reports, topics, requests, documents, reference, reference)


def _split_title(text: str) -> tuple[str, str]:
    match = re.match(r"\s*Title:\s*(.*?)\n\s*\n?\s*Content:\s*", text, re.S)
    if match:
        return match.group(1).strip(), text[match.end():]
    return "", text


def load_dev(path: Path | None = None, nuggets: Path | None = None) -> Dataset:
    """judge-dev, or any Auto-ARGUE ``*.judgments.jsonl`` whose citations carry the documents' text (the
    held-out topics of the same report, another run) with the NuggetBank files of its topics."""
    from argue_eval.formats import read_nuggets
    from argue_eval.formats.judgments import read_autoargue, read_autoargue_reports

    path = path or DEV / "autoargue-llama70b.dev.judgments.jsonl"
    topics = list(read_nuggets(nuggets or DEV / "nuggets"))
    requests = {}
    for topic in topics:
        extra = topic.extra
        requests[topic.request_id] = Request(
            topic.request_id, title=str(extra.get("title_query") or extra.get("title") or ""),
            problem_statement=str(extra.get("full_query") or extra.get("query") or ""),
            background=str(extra.get("full_background") or ""),
        )
    documents: dict[str, Document] = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            for segment in json.loads(line).get("judgments", []):
                for citation in segment.get("citations") or []:
                    if isinstance(citation, dict) and isinstance(citation.get("text"), str):
                        title, body = _split_title(citation["text"])
                        documents[citation["doc_id"]] = Document(citation["doc_id"], body, title)
    reports = list(read_autoargue_reports(path))
    reference = list(read_autoargue(path, topics))
    return Dataset("dev", reports, topics, requests, documents, reference, [path])


# --------------------------------------------------------------------------------------------------
# figures
# --------------------------------------------------------------------------------------------------
def kind_figures(reference: list[Judgment], judged: list[Judgment]) -> dict[str, dict[str, Any]]:
    from argue_eval.stats.judgment_agreement import judgment_agreement

    result = judgment_agreement(reference, judged)
    out = {}
    for item in result.kinds:
        yy, yn, ny, nn = item.yes_yes, item.yes_no, item.no_yes, item.no_no  # (reference, judge)
        if not item.overlap:
            continue
        tpr = yy / (yy + yn) if yy + yn else None
        tnr = nn / (nn + ny) if nn + ny else None
        balanced = (tpr + tnr) / 2 if tpr is not None and tnr is not None else None
        precision = yy / (yy + ny) if yy + ny else None
        recall = tpr
        f1 = (2 * precision * recall / (precision + recall)
              if precision is not None and recall is not None and precision + recall else None)
        out[item.kind] = {
            "n": item.overlap, "ref_yes": yy + yn, "judge_yes": yy + ny, "accuracy": item.accuracy,
            "kappa": item.kappa, "balanced_accuracy": balanced, "precision": precision, "recall": recall, "f1": f1,
            "only_reference": item.only_a,
        }
    return out


CONFIDENCE_BINS = ((0.5, 0.7), (0.7, 0.9), (0.9, 1.01))


def confidence_figures(reference: list[Judgment], judged: list[Judgment]) -> dict[str, list[dict[str, Any]]]:
    """Per kind and confidence bin: how many answers and how many agree with the reference.

    A cascade passes answers below its confidence threshold to the next judge, so the confidence is only
    useful if agreement grows with it; this table shows whether it does.
    """
    ref = {j.key: j.value for j in reference}
    out: dict[str, list[dict[str, Any]]] = {}
    for kind in JUDGMENT_KINDS:
        rows = []
        for low, high in CONFIDENCE_BINS:
            items = [(j.value, ref[j.key]) for j in judged if j.kind == kind and j.key in ref
                     and j.confidence is not None and low <= j.confidence < high]
            agree = sum(1 for a, b in items if a == b)
            rows.append({"bin": f"[{low:.1f}, {min(high, 1.0):.1f}]", "n": len(items),
                         "accuracy": agree / len(items) if items else None})
        if any(row["n"] for row in rows):
            out[kind] = rows
    return out


def per_topic(dataset: Dataset, judgments: Any) -> dict[tuple[str, str], dict[str, float]]:
    from argue_eval.api import score

    result = score(dataset.reports, dataset.topics, judgments, details=False, missing_judgments="zero")
    cells: dict[tuple[str, str], dict[str, float]] = {}
    for row in result.table.itertuples(index=False):
        if row.request_id == "all" or row.metric not in ("nugget_coverage", "f1"):
            continue
        cells.setdefault((row.run_id, row.request_id), {})[row.metric] = float(row.value)
    return cells


TAU_RESAMPLES = 10_000
TAU_SEED = 0
TAU_CONFIDENCE = 0.95


def taus(reference: dict, judged: dict, resamples: int = TAU_RESAMPLES, seed: int = TAU_SEED) -> dict[str, Any]:
    """Kendall's tau-b between the reference's and the judge's (run, topic) cells, per metric, with a
    percentile bootstrap interval over topics (``tau_interval``): six or thirteen topics give a tau that
    one swapped pair moves by 0.13 or more, so the point figure alone says little."""
    from argue_eval.stats.agreement import kendall_tau_b

    keys = sorted(reference.keys() & judged.keys())
    out: dict[str, Any] = {"cells": len(keys), "topics": len({topic for _, topic in keys})}
    for metric in ("nugget_coverage", "f1"):
        x = np.array([reference[k].get(metric, 0.0) for k in keys])
        y = np.array([judged[k].get(metric, 0.0) for k in keys])
        tau = kendall_tau_b(x, y)
        out[f"{metric}_tau"] = None if math.isnan(tau) else tau
        out[f"{metric}_tau_ci"] = tau_interval(keys, x, y, resamples, seed)
        out[f"{metric}_mean_ref"] = float(x.mean()) if len(x) else None
        out[f"{metric}_mean_judge"] = float(y.mean()) if len(y) else None
    return out


def tau_interval(keys: list[tuple[str, str]], x: np.ndarray, y: np.ndarray, resamples: int = TAU_RESAMPLES,
                 seed: int = TAU_SEED, confidence: float = TAU_CONFIDENCE) -> dict[str, Any]:
    """Percentile bootstrap interval of Kendall's tau-b over topics.

    Each resample draws as many topics as there are, with replacement (``stats.bootstrap.resample_indices``,
    seeded: a rerun gives the same interval), and takes every (run, topic) cell of each drawn topic; tau-b
    of those cells is the resample's value. A topic drawn twice repeats its cells, pairs tied in both
    vectors, which tau-b leaves out. A resample whose cells are constant in either vector (one topic drawn
    every time) has no tau and is not counted (``defined`` says how many had one). ``low``/``high`` are
    ``None`` when fewer than two resamples had a tau.
    """
    from argue_eval.stats.agreement import kendall_tau_b, tau_b_rows
    from argue_eval.stats.bootstrap import percentile_interval, resample_indices

    topics = sorted({topic for _, topic in keys})
    out: dict[str, Any] = {"low": None, "high": None, "confidence": confidence, "resamples": resamples,
                           "seed": seed, "defined": 0}
    if len(topics) < 2:
        return out
    rows = {topic: [i for i, (_, t) in enumerate(keys) if t == topic] for topic in topics}
    drawn = resample_indices(len(topics), resamples, seed)
    if len({len(cells) for cells in rows.values()}) == 1:  # every topic has the same cells: one vectorized call
        per_topic = np.array([rows[topic] for topic in topics])  # (topics, cells per topic)
        picked = per_topic[drawn].reshape(resamples, -1)
        values = tau_b_rows(x[picked], y[picked])
    else:
        values = np.array([kendall_tau_b(x[index], y[index]) for index in
                           (np.concatenate([rows[topics[t]] for t in draw]) for draw in drawn)])
    finite = values[np.isfinite(values)]
    out["defined"] = int(finite.size)
    if finite.size >= 2:
        interval = percentile_interval(finite[None, :], confidence)
        out["low"], out["high"] = float(interval.low[0]), float(interval.high[0])
    return out


def measure(dataset: Dataset, judges: dict[str, JudgeBackend], adjudicated: Adjudicated | None = None,
            resamples: int = TAU_RESAMPLES, seed: int = TAU_SEED) -> dict[str, Any]:
    """Every figure of every judge against the dataset's reference and, when ``adjudicated`` is given, again
    against the reference with the adjudicated judgments in place of its answers (``"adjudicated"``)."""
    questions = build_questions(dataset.reports, {t.request_id: t for t in dataset.topics}, dataset.requests,
                                dataset.documents)
    reference_cells = per_topic(dataset, dataset.reference_source)
    out: dict[str, Any] = {"questions": len(questions), "judges": {}, "reference_cells": _named(reference_cells)}
    adjudicated_reference: list[Judgment] = []
    adjudicated_cells: dict[tuple[str, str], dict[str, float]] = {}
    if adjudicated is not None:
        # the scorer reads the files in order, a later one overriding an earlier one for the same judgment
        adjudicated_cells = per_topic(dataset, [*dataset.reference_source, adjudicated.path])
        adjudicated_reference = dataset.reference + adjudicated.judgments  # the last value of a key wins
        out["adjudicated"] = {"path": str(adjudicated.path), **adjudicated.summary(dataset.reference),
                              "reference_cells": _named(adjudicated_cells), "judges": {}}
    for name, judge in judges.items():
        judged = judge_all(judge, questions)
        cells = per_topic(dataset, judged)
        out["judges"][name] = {
            "kinds": kind_figures(dataset.reference, judged),
            "confidence": confidence_figures(dataset.reference, judged),
            "scores": taus(reference_cells, cells, resamples, seed),
            "cells": _named(cells),
            "unanswered": len(questions) - len(judged),
        }
        if adjudicated is not None:
            out["adjudicated"]["judges"][name] = {
                "kinds": kind_figures(adjudicated_reference, judged),
                "scores": taus(adjudicated_cells, cells, resamples, seed),
            }
    return out


class Adjudicated:
    """Canonical judgments made by people on the questions where a judge and the reference disagreed: they
    replace the reference's answers to the same questions (and add any the reference lacks)."""

    def __init__(self, path: Path) -> None:
        from argue_eval.formats import read_judgments
        from argue_eval.stats.judgment_agreement import judgment_agreement

        self.path = path
        self.judgments: list[Judgment] = list(read_judgments(path, "argue"))
        # one person answering the same question both ways is an error naming both lines, as when scoring
        judgment_agreement(self.judgments, [], strict=(True, False))

    def summary(self, reference: list[Judgment]) -> dict[str, int]:
        """How many adjudicated questions the reference answered, how many of those it answered otherwise,
        and how many it did not answer."""
        answered = {j.key: bool(j.value) for j in reference}
        mine = {j.key: bool(j.value) for j in self.judgments}
        shared = answered.keys() & mine.keys()
        return {"judgments": len(mine), "replace": len(shared),
                "change": sum(1 for key in shared if answered[key] != mine[key]), "add": len(mine.keys() - shared)}


def _named(cells: dict[tuple[str, str], dict[str, float]]) -> dict[str, dict[str, float]]:
    """``(run, topic)`` cells as ``"run topic"`` keys (JSON has no tuple keys), in the cells' order."""
    return {f"{run} {topic}": values for (run, topic), values in sorted(cells.items())}


def print_per_topic(name: str, figures: dict[str, Any]) -> None:
    """Each (run, topic) cell's nugget coverage and F1 under the reference and under every judge: what the
    Kendall taus are computed from, so a reader sees which cells change the ranking."""
    judges = list(figures["judges"])
    print(f"{name}: nugget coverage / F1 per run and topic (reference, then {', '.join(judges)})")
    print("  " + f"{'run topic':30s}" + "".join(f"{label[:14]:>16s}" for label in ["reference", *judges]))
    for cell, reference in figures["reference_cells"].items():
        values = [reference, *(figures["judges"][judge]["cells"].get(cell, {}) for judge in judges)]
        print("  " + f"{cell[:30]:30s}" + "".join(
            f"{_f(v.get('nugget_coverage')):>8s}{_f(v.get('f1')):>8s}" for v in values))


def _f(value: Any) -> str:
    return "-" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


def _interval(ci: dict[str, Any] | None) -> str:
    if not ci or ci.get("low") is None:
        return "[-]"
    return f"[{ci['low']:.3f}, {ci['high']:.3f}]"


def print_kinds(judges: dict[str, Any]) -> None:
    print(f"{'judge':<11} {'kind':<18} {'n':>5} {'ref+':>5} {'jud+':>5} {'acc':>6} {'kappa':>6} {'bal':>6} "
          f"{'P':>6} {'R':>6} {'F1':>6}")
    for judge, data in judges.items():
        for kind, k in data["kinds"].items():
            print(f"{judge:<11} {kind:<18} {k['n']:>5} {k['ref_yes']:>5} {k['judge_yes']:>5} {_f(k['accuracy']):>6} "
                  f"{_f(k['kappa']):>6} {_f(k['balanced_accuracy']):>6} {_f(k['precision']):>6} {_f(k['recall']):>6} "
                  f"{_f(k['f1']):>6}")


def print_taus(judges: dict[str, Any]) -> None:
    """The per-topic score agreement of each judge, with each tau's bootstrap interval over topics."""
    first = next(iter(judges.values()), None)
    if first is None:
        return
    ci = first["scores"]["nugget_coverage_tau_ci"]
    label = f"{ci['confidence']:.0%} CI"
    print(f"{'judge':<11} {'cells':>5} {'topics':>6} {'coverage tau':>13} {label:>16} {'F1 tau':>7} {label:>16} "
          f"{'coverage ref/judge':>20} {'F1 ref/judge':>14}")
    for judge, data in judges.items():
        s = data["scores"]
        print(f"{judge:<11} {s['cells']:>5} {s['topics']:>6} {_f(s['nugget_coverage_tau']):>13} "
              f"{_interval(s['nugget_coverage_tau_ci']):>16} {_f(s['f1_tau']):>7} {_interval(s['f1_tau_ci']):>16} "
              f"{_f(s['nugget_coverage_mean_ref']) + '/' + _f(s['nugget_coverage_mean_judge']):>20} "
              f"{_f(s['f1_mean_ref']) + '/' + _f(s['f1_mean_judge']):>14}")
    print(f"(tau intervals: percentile bootstrap over topics, {ci['resamples']} resamples, seed {ci['seed']}; "
          f"a resample drawing one topic only has no tau and is left out)")


def print_report(name: str, figures: dict[str, Any]) -> None:
    print(f"\n== {name}: {figures['questions']} questions")
    print_kinds(figures["judges"])
    for judge, data in figures["judges"].items():
        if data["confidence"]:
            print(f"{judge}: accuracy by confidence " + "; ".join(
                f"{kind} " + " ".join(f"{row['bin']} {_f(row['accuracy'])} (n={row['n']})" for row in rows)
                for kind, rows in data["confidence"].items()))
    print_taus(figures["judges"])
    adjudicated = figures.get("adjudicated")
    if adjudicated is not None:
        print(f"\n== {name}, against the reference with the adjudicated judgments of {adjudicated['path']} in place "
              f"of its answers: {adjudicated['judgments']} judgments, {adjudicated['replace']} replace a reference "
              f"answer ({adjudicated['change']} with the other value), {adjudicated['add']} answer questions it lacks")
        print_kinds(adjudicated["judges"])
        print_taus(adjudicated["judges"])


def print_ratios(figures: dict[str, Any], judge: str, baseline: str = "naive") -> None:
    """The judge's headline figures as ratios to the baseline measured in the same run."""
    data, base = figures["judges"].get(judge), figures["judges"].get(baseline)
    if data is None or base is None:
        return
    parts = []
    for kind, metric in (("answers", "f1"), ("attested", "balanced_accuracy")):
        mine, theirs = data["kinds"].get(kind, {}).get(metric), base["kinds"].get(kind, {}).get(metric)
        if mine is not None and theirs:
            parts.append(f"{kind} {metric} {mine:.3f} = {mine / theirs:.2f}x {baseline}")
    for metric in ("nugget_coverage_tau", "f1_tau"):
        mine, theirs = data["scores"].get(metric), base["scores"].get(metric)
        if mine is not None and theirs:
            parts.append(f"{metric} {mine:.3f} = {mine / theirs:.2f}x {baseline}")
    print(f"{judge} vs {baseline}: " + "; ".join(parts))


def overlap_ceiling(dataset: Dataset) -> dict[str, Any]:
    """How far word overlap and sentence embeddings can go on ``answers``, tuned on the reference itself.

    For every answers question: the lexical judge's score and the MiniLM cosine of the sentence with
    "question answer". Every mix ``w * lexical + (1 - w) * cosine`` and every threshold is tried, and the best
    F1 against the reference kept. Tuned on the very data it is scored on, this is an optimistic bound on
    what any threshold over these two signals gives, not a judge one could ship."""
    from argue_eval.judges.lexical import LexicalJudge
    from argue_eval.search.dense import encode

    reference = {j.key: j.value for j in dataset.reference if j.kind == "answers"}
    questions = [q for q in build_questions(dataset.reports, {t.request_id: t for t in dataset.topics},
                                            dataset.requests, dataset.documents)
                 if q.kind == "answers" and q.key in reference]
    lexical = LexicalJudge()
    rows = []
    for q in questions:
        asked = q.nugget.question if q.nugget is not None else ""
        score, _ = lexical.answer_score(q.sentence, q.answer or "", asked)
        rows.append((q.sentence, f"{asked} {q.answer or ''}".strip(), score, reference[q.key]))
    texts = sorted({text for row in rows for text in row[:2]})
    vectors = encode(texts)
    index = {text: i for i, text in enumerate(texts)}
    cosines = [float(vectors[index[a]] @ vectors[index[b]]) for a, b, _, _ in rows]
    truth = np.array([row[3] for row in rows])
    lexical_scores = np.array([row[2] for row in rows])
    best: dict[str, Any] = {"f1": -1.0}
    for w in np.linspace(0, 1, 11):
        mixed = w * lexical_scores + (1 - w) * np.array(cosines)
        for t in np.linspace(0.1, 0.9, 81):
            said = mixed >= t
            tp = int((said & truth).sum())
            precision = tp / max(int(said.sum()), 1)
            recall = tp / max(int(truth.sum()), 1)
            f1 = 2 * precision * recall / (precision + recall) if tp else 0.0
            if f1 > best["f1"]:
                best = {"f1": f1, "precision": precision, "recall": recall, "weight": float(w), "threshold": float(t)}
    best["questions"] = len(rows)
    return best


ANSWER_GRID = {"answer_threshold": (0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55),
               "answer_question_weight": (0.0, 0.1, 0.2, 0.3, 0.4, 0.5)}


def _answers_f1(counts: Iterable[dict[str, int]]) -> float:
    tp = fp = fn = 0
    for c in counts:
        tp, fp, fn = tp + c["tp"], fp + c["fp"], fn + c["fn"]
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def topic_cross_validation(dataset: Dataset) -> dict[str, Any]:
    """What tuning the two answers thresholds on some topics gives on a topic left out (leave one topic out).

    For every setting of ``ANSWER_GRID`` the lexical judge answers every ``answers`` question; per topic the
    yes/no counts against the reference are kept. Each topic in turn is held out: the setting with the best
    pooled F1 on the other topics is chosen and its counts on the held-out topic kept. The pooled F1 of those
    held-out counts estimates what thresholds tuned on a development set give on new topics; beside it the
    shipped defaults and the setting tuned on every topic at once (optimistic)."""
    from itertools import product

    from argue_eval.judges.lexical import LexicalJudge

    reference = {j.key: j.value for j in dataset.reference if j.kind == "answers"}
    questions = [q for q in build_questions(dataset.reports, {t.request_id: t for t in dataset.topics},
                                            dataset.requests, dataset.documents)
                 if q.kind == "answers" and q.key in reference]
    topics = sorted({q.key.request_id for q in questions})
    names = tuple(ANSWER_GRID)
    counts: dict[tuple[float, ...], dict[str, dict[str, int]]] = {}
    for setting in product(*ANSWER_GRID.values()):
        judge = LexicalJudge(**dict(zip(names, setting)))
        per_topic_counts = {t: {"tp": 0, "fp": 0, "fn": 0} for t in topics}
        for q, verdict in zip(questions, judge.answer_many(questions)):
            said, truth = bool(verdict is not None and verdict.value), reference[q.key]
            cell = "tp" if said and truth else "fp" if said else "fn" if truth else None
            if cell:
                per_topic_counts[q.key.request_id][cell] += 1
        counts[setting] = per_topic_counts
    defaults = LexicalJudge()
    default = tuple(getattr(defaults, name) for name in names)
    if default not in counts:
        raise SystemExit(f"the judge's defaults {default} are not in ANSWER_GRID")
    held_out: dict[str, Any] = {}
    for topic in topics:
        chosen = max(counts, key=lambda s: _answers_f1(c for t, c in counts[s].items() if t != topic))
        held_out[topic] = {"setting": dict(zip(names, chosen)), "counts": counts[chosen][topic],
                           "f1": _answers_f1([counts[chosen][topic]]),
                           "default_f1": _answers_f1([counts[default][topic]])}
    in_sample = max(counts, key=lambda s: _answers_f1(counts[s].values()))
    return {"topics": len(topics), "questions": len(questions), "settings": len(counts),
            "default": {"setting": dict(zip(names, default)), "f1": _answers_f1(counts[default].values())},
            "tuned_on_all": {"setting": dict(zip(names, in_sample)), "f1": _answers_f1(counts[in_sample].values())},
            "cross_validated_f1": _answers_f1(row["counts"] for row in held_out.values()),
            "held_out": held_out}


def print_cross_validation(name: str, cv: dict[str, Any]) -> None:
    print(f"{name}: answers F1, leave one topic out over {cv['settings']} threshold settings "
          f"({cv['topics']} topics, {cv['questions']} questions): defaults {cv['default']['f1']:.3f}; "
          f"tuned on the other topics {cv['cross_validated_f1']:.3f}; tuned on all topics (optimistic) "
          f"{cv['tuned_on_all']['f1']:.3f} at {cv['tuned_on_all']['setting']}")
    for topic, row in cv["held_out"].items():
        setting = ", ".join(f"{k}={v}" for k, v in row["setting"].items())
        print(f"  topic {topic}: held-out F1 {row['f1']:.3f} ({setting}); defaults {row['default_f1']:.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--judge", default="lexical", help="a judge name or cascade for make_judge (default lexical)")
    parser.add_argument("--option", action="append", default=[], metavar="[BACKEND.]NAME=VALUE",
                        help="a keyword option of the judge (values parsed as JSON), e.g. attested_threshold=0.5, "
                             "or of one member of a cascade: lexical.attested_threshold=0.5, cascade.threshold=0.8")
    parser.add_argument("--dataset", choices=("sample", "dev", "both"), default="both")
    parser.add_argument("--no-baselines", action="store_true", help="measure the judge only")
    parser.add_argument("--autoargue", type=Path, metavar="JUDGMENTS.jsonl",
                        help="with --nuggets: measure on this Auto-ARGUE judgments file (citations with the documents' "
                             "text) instead of judge-dev's, e.g. the held-out topics; reported as the dev dataset")
    parser.add_argument("--nuggets", type=Path, metavar="DIR", help="the NuggetBank files of --autoargue's topics")
    parser.add_argument("--adjudicated", type=Path, metavar="J.jsonl",
                        help="canonical judgments made by people on the disagreements (judge vs reference) of the "
                             "dev dataset: every figure is reported again against the reference with these "
                             "judgments in place of its answers")
    parser.add_argument("--resamples", type=int, default=TAU_RESAMPLES,
                        help=f"bootstrap resamples of the tau intervals (default {TAU_RESAMPLES})")
    parser.add_argument("--seed", type=int, default=TAU_SEED, help=f"seed of the tau intervals (default {TAU_SEED})")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON to this file")
    parser.add_argument("--ceiling", action="store_true",
                        help="also the best answers F1 any mix of the lexical score and the MiniLM cosine reaches, "
                             "tuned on the reference itself (an optimistic bound; needs the dense extra)")
    parser.add_argument("--per-topic", action="store_true",
                        help="also print every (run, topic) cell's nugget coverage and F1 under the reference and "
                             "each judge (what the taus are computed from)")
    parser.add_argument("--cv", action="store_true",
                        help="also leave-one-topic-out cross-validation of the lexical judge's two answers "
                             "thresholds: what tuning on other topics gives on a new one")
    args = parser.parse_args(argv)
    if (args.autoargue is None) != (args.nuggets is None):
        parser.error("--autoargue and --nuggets go together")
    if args.autoargue is not None and args.dataset == "sample":
        parser.error("--autoargue replaces the dev dataset: use --dataset dev or both")
    if args.autoargue is not None and not (args.autoargue.is_file() and args.nuggets.exists()):
        parser.error(f"no such file: {args.autoargue if not args.autoargue.is_file() else args.nuggets}")
    if args.adjudicated is not None and args.dataset == "sample":
        parser.error("--adjudicated goes with the dev dataset: use --dataset dev or both")
    if args.adjudicated is not None and not args.adjudicated.is_file():
        parser.error(f"no such file: {args.adjudicated}")
    if args.resamples < 1:
        parser.error("--resamples: expected an integer >= 1")

    from argue_eval.judges.lexical import LexicalJudge
    from argue_eval.judges.registry import make_judge

    options: dict[str, dict[str, Any]] = {}
    for item in args.option:
        name, _, value = item.partition("=")
        backend, _, option = name.rpartition(".")  # "lexical.attested_threshold" or, for one judge, "attested_threshold"
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError:
            parsed = value
        options.setdefault(backend or args.judge, {})[option] = parsed
    judge = make_judge(args.judge, options or None)
    judges: dict[str, JudgeBackend] = {args.judge: judge}
    if not args.no_baselines:
        judges["naive"] = NaiveJudge(LexicalJudge())
        judges["always-yes"] = AlwaysYes()
    results: dict[str, Any] = {"judge": args.judge, "identity": judge.identity(), "datasets": {}}
    loaders = {"sample": load_sample, "dev": lambda: load_dev(args.autoargue, args.nuggets)}
    names = ["sample", "dev"] if args.dataset == "both" else [args.dataset]
    for name in names:
        if name == "dev" and args.autoargue is None and not DEV.is_dir():
            print(f"dev: {DEV} not found (set ARGUE_EVAL_JUDGE_DEV); skipped", file=sys.stderr)
            continue
        try:
            adjudicated = Adjudicated(args.adjudicated) if name == "dev" and args.adjudicated is not None else None
            figures = measure(loaders[name](), judges, adjudicated, args.resamples, args.seed)
        except InputError as error:  # a located one-line error (FILE:LINE: field: message), no traceback
            print(error, file=sys.stderr)
            return 2
        results["datasets"][name] = figures
        print_report(name, figures)
        print_ratios(figures, args.judge)
        if args.per_topic:
            print_per_topic(name, figures)
        if args.ceiling:
            ceiling = overlap_ceiling(loaders[name]())
            figures["overlap_ceiling"] = ceiling
            print(f"{name}: overlap ceiling on answers (lexical score and MiniLM cosine mixed, weight and threshold "
                  f"tuned on this reference): F1 {ceiling['f1']:.3f} (P {ceiling['precision']:.3f}, "
                  f"R {ceiling['recall']:.3f}) at weight {ceiling['weight']:.1f}, threshold {ceiling['threshold']:.2f}")
        if args.cv:
            cv = topic_cross_validation(loaders[name]())
            figures["topic_cross_validation"] = cv
            print_cross_validation(name, cv)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
