"""Benchmark ``argue-eval retrieval`` against plain pytrec_eval (the C trec_eval), both measured in this run.

Two figures, as issue 14 asks:

1. **One call on the sample track** (``qrels/sample/qrels.trec``, ``runs/sample/ranked/bm25.trec``, measures
   ``ndcg@20 recall@100 map P@10``): the wall time of the whole ``argue-eval retrieval`` process (Python
   start, imports, reading, evaluating, printing) against the whole-process wall time of a plain Python
   script that reads the same two files and calls ``pytrec_eval.RelevanceEvaluator`` (the floor any
   Python tool built on trec_eval pays). Median of ``--repeat`` runs each. Target: ratio <= 3.
   ``--engine ranx`` is timed once too, for the record.
2. **Many runs in one call**: ``--runs`` (default 50) generated ranked runs of ``--topics`` x ``--depth``
   (default 50 x 1000, seeded) against generated graded qrels; CPU time (user + system of the child
   process) of one ``argue-eval retrieval`` call on all of them against the pytrec_eval script evaluating
   the same files in one process. Target: ratio <= 1.5.

Values are checked too: for every run and measure, our per-topic values equal pytrec_eval's to 1e-9.

Usage:
  .venv/bin/python bench/bench_retrieval.py [--runs 50] [--topics 50] [--depth 1000] [--repeat 5]
Results are printed and written to bench/out/bench_retrieval.json.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "out" / "retrieval"
PYTHON = sys.executable
CLI = [PYTHON, "-m", "argue_eval.cli"]
MEASURES = "ndcg@20 recall@100 map P@10"
TREC_MEASURES = {"ndcg_cut_20": "ndcg@20", "recall_100": "recall@100", "map": "map", "P_10": "P@10"}

# A plain pytrec_eval script: what a user would write. It follows the same conventions (topics of the
# qrels the run lacks score 0, as trec_eval -c) so the work is the same; it prints per-topic values.
BASELINE = r'''
import sys, pytrec_eval
qrels = {}
for line in open(sys.argv[1]):
    q, _, d, g = line.split()
    qrels.setdefault(q, {})[d] = int(g)
evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.20", "recall.100", "map", "P.10"})
out = []
for path in sys.argv[2:]:
    run = {}
    for line in open(path):
        q, _, d, _, s, _ = line.split()
        run.setdefault(q, {})[d] = float(s)
    for topic, values in sorted(evaluator.evaluate(run).items()):
        for name, value in sorted(values.items()):
            out.append(f"{path}\t{topic}\t{name}\t{value!r}")
sys.stdout.write("\n".join(out) + "\n")
'''


def timed(command: list[str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user + system of the child) and stdout of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"{command[:4]}... failed ({result.returncode}): {result.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, result.stdout


def generate(runs: int, topics: int, depth: int) -> tuple[Path, list[Path]]:
    """Graded qrels (about 200 judged documents per topic, grades 0-3) and ranked runs, seeded; reused."""
    OUT.mkdir(parents=True, exist_ok=True)
    qrels = OUT / f"qrels.{topics}.trec"
    rng = random.Random(14)
    docs = [f"doc{i:06d}" for i in range(20 * depth)]
    if not qrels.exists():
        lines = []
        for t in range(topics):
            for doc in rng.sample(docs[: 4 * depth], 200):
                lines.append(f"q{t} 0 {doc} {rng.choice([0, 0, 0, 1, 1, 2, 3])}\n")
        qrels.write_text("".join(lines))
    paths = []
    for r in range(runs):
        path = OUT / f"run{r:03d}.{topics}x{depth}.trec"
        if not path.exists():
            rng = random.Random(1000 + r)
            lines = []
            for t in range(topics):
                for rank, doc in enumerate(rng.sample(docs[: 8 * depth], depth), start=1):
                    lines.append(f"q{t} Q0 {doc} {rank} {round(1000 - rank + rng.random(), 4)} run{r:03d}\n")
            path.write_text("".join(lines))
        paths.append(path)
    return qrels, paths


def check_values(ours_tsv: str, theirs: str, names: dict[Path, str]) -> int:
    """Compare our score table with the baseline's per-topic values; return the number compared."""
    ours = {}
    for line in ours_tsv.splitlines()[1:]:
        run, topic, metric, value = line.split("\t")
        ours[(run, topic, metric)] = float(value)
    compared = 0
    for line in theirs.splitlines():
        path, topic, name, value = line.split("\t")
        key = (names[Path(path)], topic, TREC_MEASURES[name])
        if abs(ours[key] - float(value)) > 1e-9:
            raise SystemExit(f"value differs: {key}: ours {ours[key]!r}, pytrec_eval {value}")
        compared += 1
    return compared


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-ranx", action="store_true", help="skip timing --engine ranx (slow on a busy machine)")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    script = OUT / "pytrec_eval_baseline.py"
    script.write_text(BASELINE)
    env_note = f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs"

    sample_qrels, sample_run = "qrels/sample/qrels.trec", "runs/sample/ranked/bm25.trec"
    ours_cmd = CLI + ["retrieval", "--qrels", sample_qrels, sample_run, "-m", MEASURES]
    base_cmd = [PYTHON, str(script), sample_qrels, sample_run]
    ours_walls, base_walls = [], []
    for _ in range(args.repeat):
        ours_walls.append(timed(ours_cmd)[0])
        base_walls.append(timed(base_cmd)[0])
    ranx_wall = timed(ours_cmd + ["--engine", "ranx"])[0] if not args.no_ranx else float("nan")
    _, _, ours_out = timed(ours_cmd)
    _, _, base_out = timed(base_cmd)
    sample_checked = check_values(ours_out, base_out, {Path(sample_run): "bm25"})
    one = {
        "ours_wall_s": statistics.median(ours_walls), "pytrec_eval_wall_s": statistics.median(base_walls),
        "ranx_engine_wall_s": ranx_wall, "values_checked": sample_checked,
    }
    one["ratio"] = one["ours_wall_s"] / one["pytrec_eval_wall_s"]
    print(f"one call, sample track ({env_note}): argue-eval retrieval {one['ours_wall_s']:.3f} s, plain pytrec_eval "
          f"script {one['pytrec_eval_wall_s']:.3f} s -> {one['ratio']:.2f}x (target <= 3); --engine ranx "
          f"{ranx_wall:.2f} s; {sample_checked} values equal to 1e-9")

    qrels, paths = generate(args.runs, args.topics, args.depth)
    rel = [str(p.relative_to(ROOT)) for p in paths]
    _, ours_cpu, ours_out = timed(CLI + ["retrieval", "--qrels", str(qrels), *rel, "-m", MEASURES])
    _, base_cpu, base_out = timed([PYTHON, str(script), str(qrels), *rel])
    checked = check_values(ours_out, base_out, {Path(p): p.split("/")[-1].split(".")[0] for p in rel})
    many = {"runs": args.runs, "topics": args.topics, "depth": args.depth, "ours_cpu_s": ours_cpu,
            "pytrec_eval_cpu_s": base_cpu, "ratio": ours_cpu / base_cpu, "values_checked": checked}
    print(f"{args.runs} runs of {args.topics} x {args.depth} in one call: argue-eval retrieval {ours_cpu:.2f} s CPU, "
          f"pytrec_eval {base_cpu:.2f} s CPU -> {many['ratio']:.2f}x (target <= 1.5); {checked} values equal to 1e-9")
    (HERE / "out").mkdir(exist_ok=True)
    (HERE / "out" / "bench_retrieval.json").write_text(json.dumps({"one_call": one, "many_runs": many}, indent=2) + "\n")


if __name__ == "__main__":
    main()
