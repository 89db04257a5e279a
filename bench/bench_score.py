"""Benchmark: scoring a TREC-size round with ``argue-eval score`` vs merely reading the same files.

The claim (issue 3): scoring 100 runs x 50 topics x 30 sentences, with nuggets and a judgments file that
covers every question, costs at most 3x reading the same files (runs + nuggets + judgments into model
records), and the scoring process peaks below 2 GB of resident memory.

The round is generated once, seeded, into bench/out/score-round/: per topic a nugget bank (15 nuggets,
AND and negative ones included, answers bound to a pool of documents) and a pool of sentences that the
runs draw from (so the same sentence citing the same document recurs across runs, as in a real track,
and is judged once); the judgments file answers every question the flowchart can ask (found with the
assessment exporter's "explore" traversal), with seeded random yes/no.

Each measurement runs in a fresh subprocess (so the peak RSS is that of one job, read with wait4):

  read   iterate read_reports over every run file, read_nuggets, read_judgments (records built, dropped)
  score  what `argue-eval score` does: load nuggets and judgments, score every report, write the TSV

    python bench/bench_score.py                         # the full round
    python bench/bench_score.py --runs 20 --topics 10   # quicker
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench_read_runs import WORDS  # noqa: E402  (the same vocabulary as the run-reading benchmark)

OUT = REPO / "bench" / "out" / "score-round"


def _text(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high))).capitalize()


def generate(out: Path, runs: int, topics: int, sentences: int, seed: int = 7) -> dict[str, object]:
    """Write nuggets.jsonl, runs/*.jsonl and judgments.jsonl under ``out``; return their sizes."""
    from argue_eval.argue.api import Evaluation
    from argue_eval.argue.flowchart import Asker, evaluate_report
    from argue_eval.argue.policies import Policies
    from argue_eval.formats import read_nuggets
    from argue_eval.judges.imported import ImportedJudgments
    from argue_eval.model import Report, Sentence

    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    (out / "runs").mkdir(exist_ok=True)
    topic_ids = [f"{1000 + t}" for t in range(topics)]
    pools: dict[str, list[tuple[str, list[str]]]] = {}
    with open(out / "nuggets.jsonl", "w", encoding="utf-8") as handle:
        for tid in topic_ids:
            docs = [f"{tid}-doc-{d:04d}" for d in range(200)]
            nuggets = []
            for n in range(15):
                negative = n == 14
                answers = []
                for a in range(1 if negative else rng.randint(1, 3)):
                    bound = [] if negative else rng.sample(docs[:120], rng.randint(1, 4))
                    answers.append({"answer": _text(rng, 1, 3) + f" {a}", "doc_ids": bound})
                nuggets.append({"nugget_id": f"{tid}-q{n}", "question": _text(rng, 5, 10) + "?",
                                "importance": rng.choice(["vital", "okay"]),
                                "aggregator": "AND" if n % 5 == 4 else "OR", "negative": negative,
                                "answers": answers})
            handle.write(json.dumps({"request_id": tid, "nuggets": nuggets}) + "\n")
            pool = []
            for _ in range(runs * sentences // 2):  # each pooled sentence is used by about two runs
                cited = [] if rng.random() < 0.15 else rng.sample(docs, rng.choice([1, 1, 1, 2, 2, 3]))
                pool.append((_text(rng, 10, 28) + ".", cited))
            pools[tid] = pool
    for r in range(runs):
        with open(out / "runs" / f"run{r:03d}.jsonl", "w", encoding="utf-8") as handle:
            for tid in topic_ids:
                chosen = rng.sample(pools[tid], sentences)
                line = {"run_id": f"run{r:03d}", "request_id": tid, "collection_ids": ["bench"],
                        "sentences": [{"text": text, "citations": cited} for text, cited in chosen]}
                handle.write(json.dumps(line) + "\n")
    # every question the flowchart can ask, found by exploring both branches of every unknown answer
    nugget_list = list(read_nuggets(out / "nuggets.jsonl"))
    evaluation = Evaluation.build(nugget_list, Policies())
    ask = Asker(ImportedJudgments(nugget_list))
    keys: dict[tuple, tuple] = {}
    for path in sorted((out / "runs").glob("*.jsonl")):
        for raw in path.read_text(encoding="utf-8").splitlines():
            obj = json.loads(raw)
            report = Report(obj["run_id"], obj["request_id"],
                            [Sentence(s["text"], tuple(s["citations"])) for s in obj["sentences"]])
            sink: list = []
            evaluate_report(report, evaluation.topics[report.request_id], ask, evaluation.policies,
                            unknown="both", on_missing=sink.append)
            for missing in sink:
                if missing.key not in keys:
                    keys[missing.key] = (report.sentences[missing.sentence_index].text,
                                         missing.unit.text if missing.unit is not None else None)
    with open(out / "judgments.jsonl", "w", encoding="utf-8") as handle:
        for key, (sentence, answer) in keys.items():
            handle.write(json.dumps({
                "kind": key.kind, "request_id": key.request_id, "sentence": sentence, "doc_id": key.doc_id,
                "nugget_id": key.nugget_id, "answer": answer, "run_id": key.run_id,
                "sentence_index": key.sentence_index, "value": rng.random() < 0.6, "judge": "bench:random",
            }) + "\n")
    return {"judgments": len(keys), "bytes": sum(p.stat().st_size for p in out.rglob("*.jsonl"))}


def job_read(out: Path) -> dict[str, float]:
    from argue_eval.formats import read_judgments, read_nuggets, read_reports

    start = time.perf_counter()
    reports = sentences = 0
    for path in sorted((out / "runs").glob("*.jsonl")):
        for report in read_reports(path):
            reports += 1
            sentences += len(report.sentences)
    topics = sum(1 for _ in read_nuggets(out / "nuggets.jsonl"))
    judgments = sum(1 for _ in read_judgments(out / "judgments.jsonl"))
    return {"seconds": time.perf_counter() - start, "reports": reports, "sentences": sentences,
            "topics": topics, "judgments": judgments}


def job_score(out: Path) -> dict[str, float]:
    from argue_eval.argue.api import run_scoring
    from argue_eval.argue.policies import Policies
    from argue_eval.formats.scores import write_scores_tsv
    from argue_eval.inputs import load_inputs

    start = time.perf_counter()
    runs = tuple(str(p) for p in sorted((out / "runs").glob("*.jsonl")))
    policies = Policies()
    inputs = load_inputs(runs, str(out / "nuggets.jsonl"), (str(out / "judgments.jsonl"),), None, None, policies)
    result = run_scoring(inputs.reports(), inputs.evaluation, inputs.source)
    rows = write_scores_tsv(result.rows, out / "scores.tsv")
    return {"seconds": time.perf_counter() - start, "rows": rows}


def measure(job: str, out: Path) -> dict[str, float]:
    """Run one job in a fresh interpreter; return its timing and its peak RSS (MiB) from wait4."""
    process = subprocess.Popen([sys.executable, __file__, "--job", job, "--out", str(out)], stdout=subprocess.PIPE)
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{job} job failed")
    result = json.loads(output)
    result["peak_rss_mib"] = usage.ru_maxrss / 1024  # KiB on Linux
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--sentences", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3, help="best of N timings per job")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--job", choices=["read", "score"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.job:
        result = job_read(args.out) if args.job == "read" else job_score(args.out)
        print(json.dumps(result))
        return
    out = args.out / f"r{args.runs}-t{args.topics}-s{args.sentences}"
    marker = out / "generated.json"
    if marker.exists():
        sizes = json.loads(marker.read_text())
    else:
        print(f"generating {args.runs} runs x {args.topics} topics x {args.sentences} sentences into {out} ...",
              file=sys.stderr)
        sizes = generate(out, args.runs, args.topics, args.sentences)
        marker.write_text(json.dumps(sizes))
    read = min((measure("read", out) for _ in range(args.repeat)), key=lambda r: r["seconds"])
    scored = min((measure("score", out) for _ in range(args.repeat)), key=lambda r: r["seconds"])
    ratio = scored["seconds"] / read["seconds"]
    print(f"round: {read['reports']} reports, {read['sentences']} sentences, {read['topics']} topics, "
          f"{read['judgments']} judgments, {sizes['bytes'] / 2**20:.1f} MiB of input")
    print(f"read   {read['seconds']:.2f} s   peak RSS {read['peak_rss_mib']:.0f} MiB")
    print(f"score  {scored['seconds']:.2f} s   peak RSS {scored['peak_rss_mib']:.0f} MiB   ({scored['rows']} rows)")
    print(f"score / read = {ratio:.2f}x (target <= 3x); score peak RSS {scored['peak_rss_mib']:.0f} MiB (target < 2048)")


if __name__ == "__main__":
    main()
