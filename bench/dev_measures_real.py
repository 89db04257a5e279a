"""Sense check of ICAT and LongRecall on real NeuCLIR 2024 data (a development script, not a test).

A real report must score much higher on its own topic than the same report attached to another topic
(the "shifted" run: topic i's report filed under topic i+1, cyclically). Two real sources, read where
they are and never copied into the repository:

* the NeuCLIR 2024 report-generation evaluation sample (organizers' gold reports and their nuggets,
  ``report-generation-sample.eval.zh.jsonl`` from the NeuCLIR track site; pass its path with --neuclir):
  LongRecall of the gold reports against their nuggets (no document texts ship with it, so no ICAT);
* ``../shared/judge-dev/`` (its README): a real NeuCLIR 2024 report on six topics with the cited
  documents' text and the NuggetBank v3 nuggets: ICAT (the cited documents as the collection, nuggets
  as aspects, ICAT-M bindings) and LongRecall.

Then the six sample-track runs are ranked by ARGUE (from the sample assessors' judgments), ICAT and
LongRecall, and ``argue-eval agree`` compares the rankings.

    .venv/bin/python bench/dev_measures_real.py --neuclir /tmp/neuclir24/eval.zh.jsonl \
        --judge-dev ../shared/judge-dev
Targets (issue #10): LongRecall own - shifted >= 0.3; ICAT coverage own - shifted >= 0.2; all in [0, 1].
"""
from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.formats.scores import read_scores

REPO = Path(__file__).resolve().parent.parent


def invoke(*args: str) -> str:
    if args[0] in ("icat", "longrecall"):
        args = (*args, "--no-cache")
    result = CliRunner().invoke(cli, list(args))
    if result.exit_code != 0:
        raise SystemExit(f"argue-eval {' '.join(args)} failed:\n{result.output}")
    return result.output


def write_run(path: Path, run_id: str, reports: dict[str, list[tuple[str, list[str]]]], shift: bool) -> None:
    """Reports as an argue-format run; with ``shift`` each topic gets the next topic's report."""
    topics = sorted(reports)
    with path.open("w") as handle:
        for i, topic in enumerate(topics):
            source = topics[(i + 1) % len(topics)] if shift else topic
            sentences = [{"text": text, "citations": cites} for text, cites in reports[source]]
            handle.write(json.dumps({"run_id": run_id, "request_id": topic, "sentences": sentences}) + "\n")


def macro(path: Path, metric: str) -> dict[str, float]:
    return {r.run_id: r.value for r in read_scores(path) if r.request_id == "all" and r.metric == f"{metric}_macro"}


def all_values_in_range(path: Path, metrics: tuple[str, ...]) -> bool:
    return all(0.0 <= r.value <= 1.0 for r in read_scores(path)
               if r.metric in metrics or r.metric.endswith(("_micro", "_macro")))


def neuclir_sample(path: Path, work: Path, semantic: str) -> None:
    reports = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        reports[record["request_id"]] = [(text.strip(), cites) for text, cites in record["report"]]
    own, shifted = work / "gold.jsonl", work / "gold-shifted.jsonl"
    write_run(own, "gold", reports, shift=False)
    write_run(shifted, "gold-shifted", reports, shift=True)
    out = work / "neuclir-lr.tsv"
    invoke("longrecall", str(own), str(shifted), "--nuggets", str(path), "-o", str(out), "-q", "--semantic", semantic)
    values = macro(out, "longrecall")
    answer = macro(out, "answer_recall")
    print(f"NeuCLIR 2024 sample ({len(reports)} topics, gold reports vs nuggets):")
    print(f"  longrecall    own {values['gold']:.3f}  shifted {values['gold-shifted']:.3f}  "
          f"difference {values['gold'] - values['gold-shifted']:.3f}  (target >= 0.3)")
    print(f"  answer_recall own {answer['gold']:.3f}  shifted {answer['gold-shifted']:.3f}")
    print(f"  all values in [0, 1]: {all_values_in_range(out, ('longrecall', 'answer_recall', 'lcs_recall'))}")


def judge_dev(directory: Path, work: Path, semantic: str) -> None:
    reports: dict[str, list[tuple[str, list[str]]]] = {}
    documents: dict[str, dict[str, str]] = {}
    for line in (directory / "autoargue-llama70b.dev.judgments.jsonl").read_text().splitlines():
        record = json.loads(line)
        topic = record["report"]["metadata"]["topic_id"]
        sentences = []
        for judged in record["judgments"]:
            cites = [c["doc_id"] for c in judged["citations"]]
            for citation in judged["citations"]:
                documents[citation["doc_id"]] = {"doc_id": citation["doc_id"], "text": citation["text"]}
            sentences.append((judged["text"], cites))
        reports[topic] = sentences
    collection = work / "judge-dev-docs.jsonl"
    collection.write_text("".join(json.dumps(doc) + "\n" for doc in documents.values()))
    own, shifted = work / "dev.jsonl", work / "dev-shifted.jsonl"
    write_run(own, "report", reports, shift=False)
    write_run(shifted, "report-shifted", reports, shift=True)
    nuggets = directory / "nuggets"
    icat = work / "dev-icat.tsv"
    invoke("icat", str(own), str(shifted), "--nuggets", str(nuggets), "--collection", str(collection),
           "-o", str(icat), "--details", str(work / "dev-icat.jsonl"), "-q")
    coverage, fact, score = macro(icat, "icat_coverage"), macro(icat, "icat_fact"), macro(icat, "icat")
    judged = work / "dev-icat-judge.tsv"
    invoke("icat", str(own), str(shifted), "--nuggets", str(nuggets), "--collection", str(collection),
           "--alignment", "judge", "-o", str(judged), "-q")
    judged_coverage = macro(judged, "icat_coverage")
    lr = work / "dev-lr.tsv"
    invoke("longrecall", str(own), str(shifted), "--nuggets", str(nuggets), "-o", str(lr), "-q", "--semantic", semantic)
    recall = macro(lr, "longrecall")
    print(f"judge-dev: one real NeuCLIR 2024 report, {len(reports)} topics, {len(documents)} cited documents:")
    print(f"  icat_coverage own {coverage['report']:.3f}  shifted {coverage['report-shifted']:.3f}  "
          f"difference {coverage['report'] - coverage['report-shifted']:.3f}  (target >= 0.2)")
    print(f"  icat_coverage with --alignment judge (ICAT-S): own {judged_coverage['report']:.3f}  shifted "
          f"{judged_coverage['report-shifted']:.3f}  difference "
          f"{judged_coverage['report'] - judged_coverage['report-shifted']:.3f}")
    print(f"  icat_fact     own {fact['report']:.3f}  shifted {fact['report-shifted']:.3f}  (the same claims: equal)")
    print(f"  icat          own {score['report']:.3f}  shifted {score['report-shifted']:.3f}")
    print(f"  longrecall    own {recall['report']:.3f}  shifted {recall['report-shifted']:.3f}  "
          f"difference {recall['report'] - recall['report-shifted']:.3f}")
    print(f"  all values in [0, 1]: {all_values_in_range(icat, ('icat', 'icat_fact', 'icat_coverage'))} "
          f"{all_values_in_range(lr, ('longrecall', 'answer_recall', 'lcs_recall'))}")


def sample_rankings(work: Path, semantic: str) -> None:
    runs = sorted(str(p) for p in (REPO / "runs" / "sample").glob("*.jsonl"))
    nuggets = str(REPO / "nuggets" / "sample" / "nuggets.jsonl")
    argue, icat, lr = work / "argue.tsv", work / "icat.tsv", work / "lr.tsv"
    invoke("score", *runs, "--nuggets", nuggets, "--judgments", str(REPO / "qrels" / "sample" / "judgments.jsonl"),
           "--requests", str(REPO / "topics" / "sample" / "requests.jsonl"), "-o", str(argue), "-q")
    invoke("icat", *runs, "--nuggets", nuggets, "--collection", str(REPO / "topics" / "sample" / "collection.jsonl"),
           "-o", str(icat), "-q")
    invoke("longrecall", *runs, "--nuggets", nuggets, "-o", str(lr), "-q", "--semantic", semantic)
    print("six sample runs, macro averages (ARGUE from the assessors' judgments; ICAT/LongRecall with the lexical judge):")
    f1, cov = macro(argue, "f1"), macro(argue, "nugget_coverage")
    ic, icc, rec = macro(icat, "icat"), macro(icat, "icat_coverage"), macro(lr, "longrecall")
    print(f"  {'run':15s} {'argue_f1':>8s} {'nug_cov':>8s} {'icat':>8s} {'icat_cov':>8s} {'longrec':>8s}")
    for run in sorted(f1, key=lambda r: -f1[r]):
        print(f"  {run:15s} {f1[run]:8.3f} {cov[run]:8.3f} {ic[run]:8.3f} {icc[run]:8.3f} {rec[run]:8.3f}")
    for a, metric_a, b, metric_b in ((argue, "f1", icat, "icat"), (argue, "nugget_coverage", icat, "icat_coverage"),
                                     (argue, "f1", lr, "longrecall"), (argue, "nugget_coverage", lr, "longrecall"),
                                     (icat, "icat_coverage", lr, "longrecall")):
        output = invoke("agree", str(a), str(b), "--metric", metric_a, "--metric-b", metric_b, "--format", "json",
                        "--resamples", "1000")
        result = json.loads(output)
        tau = _find(result, "kendall_tau_b") if _find(result, "kendall_tau_b") is not None else _find(result, "tau_b")
        print(f"  agree {a.stem}:{metric_a} vs {b.stem}:{metric_b}: Kendall tau-b {tau}")


def _find(obj, key):
    """The first value under ``key`` anywhere in a JSON object (agree's JSON nests its statistics)."""
    if isinstance(obj, dict):
        if key in obj:
            value = obj[key]
            return value.get("value", value) if isinstance(value, dict) else value
        for value in obj.values():
            found = _find(value, key)
            if found is not None:
                return found
    elif isinstance(obj, list):
        for value in obj:
            found = _find(value, key)
            if found is not None:
                return found
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--neuclir", type=Path, help="report-generation-sample.eval.zh.jsonl (NeuCLIR 2024)")
    parser.add_argument("--judge-dev", type=Path, default=REPO.parent.parent / "shared" / "judge-dev")
    parser.add_argument("--semantic", choices=("auto", "on", "off"), default="auto")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if args.neuclir:
            neuclir_sample(args.neuclir, work, args.semantic)
        if args.judge_dev and args.judge_dev.is_dir():
            judge_dev(args.judge_dev, work, args.semantic)
        sample_rankings(work, args.semantic)


if __name__ == "__main__":
    main()
