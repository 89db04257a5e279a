"""Benchmark pooling: depth-100 pool over 100 generated ranked runs x 50 topics (500,000 lines).

What it does (one run, same machine, warm page cache):

1. Generates ``--runs`` TREC ranked runs (default 100) of ``--topics`` topics (50) x ``--depth`` documents
   (100) in ``bench/out/pool/`` (seeded; documents drawn from a pool of 5,000 ids per topic with a skew,
   so runs overlap like real systems do; about one score in ten is tied with its neighbour).
2. Baseline: read every file with pandas (``read_csv``, whitespace separator, C engine, string ids), the
   cheapest way to get the same data into memory. Best of ``--repeat`` (5).
3. Ours: ``pool_files`` (every file parsed by pandas' C parser in one pass, ranks and scores as numbers;
   trec_eval order, repeats and the depth-100 pool on numpy arrays) + writing the pool file and the per-run
   contribution table, i.e. all that ``argue-eval pool`` does. Best of ``--repeat``. The output is the
   same, byte for byte, as the list-based reference ``build_pool`` (tests check it). The other strategies
   (rrf with a budget, budget, mtf) are timed too, on the runs already loaded.

Target (issue 5): ours / pandas <= 2.
Usage: .venv/bin/python bench/bench_pool.py [--runs 100] [--topics 50] [--depth 100] [--repeat 5]
Results are printed and written to bench/out/bench_pool.json.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

OUT = HERE / "out" / "pool"


def generate(runs: int, topics: int, depth: int, seed: int = 7) -> list[Path]:
    OUT.mkdir(parents=True, exist_ok=True)
    paths = [OUT / f"run{index:03d}.trec" for index in range(runs)]
    stamp = OUT / "params.json"
    params = {"runs": runs, "topics": topics, "depth": depth, "seed": seed}
    if stamp.exists() and json.loads(stamp.read_text()) == params and all(p.exists() for p in paths):
        return paths
    rng = random.Random(seed)
    for index, path in enumerate(paths):
        lines = []
        for topic in range(topics):
            qid = f"2024-{100000 + topic * 37}"
            chosen: dict[int, None] = {}
            while len(chosen) < depth:
                chosen[int(rng.paretovariate(1.2) * 40) % 5000] = None
            score = 50.0
            for rank, doc in enumerate(chosen, 1):
                lines.append(f"{qid} Q0 doc-{topic:02d}-{doc:05d} {rank} {score:.4f} run{index:03d}\n")
                if rng.random() > 0.1:
                    score -= rng.uniform(0.01, 0.5)
        path.write_text("".join(lines))
    stamp.write_text(json.dumps(params))
    return paths


def best_of(repeat: int, action) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    import pandas as pd

    from argue_eval.formats.qrels import write_trec_qrels
    from argue_eval.formats.ranked import load_rankings
    from argue_eval.formats.scores import write_scores_tsv
    from argue_eval.organizer.pooling import build_pool, pool_files

    paths = generate(args.runs, args.topics, args.depth)
    lines = sum(1 for path in paths for _ in path.open())
    print(f"{len(paths)} runs, {lines} lines in {OUT}")

    def with_pandas() -> None:
        for path in paths:
            pd.read_csv(path, sep=r"\s+", header=None, names=["qid", "q0", "docno", "rank", "score", "tag"],
                        dtype={"qid": str, "q0": str, "docno": str, "tag": str}, engine="c")

    def ours() -> None:
        pool = pool_files(paths, "depth", depth=100)
        write_trec_qrels(pool.rows(), OUT / "pool.qrels")
        write_scores_tsv(pool.contributions(), OUT / "pool.runs.tsv")

    baseline = best_of(args.repeat, with_pandas)
    ours_time = best_of(args.repeat, ours)
    runs = load_rankings(paths)
    others = {
        "rrf_budget_200": best_of(args.repeat, lambda: build_pool(runs, "rrf", depth=100, budget=200)),
        "budget_200": best_of(args.repeat, lambda: build_pool(runs, "budget", depth=100, budget=200)),
        "mtf_200": best_of(args.repeat, lambda: build_pool(runs, "mtf", depth=100, budget=200)),
    }
    pooled = sum(1 for _ in (OUT / "pool.qrels").open())
    result = {
        "lines": lines,
        "pooled_documents": pooled,
        "pandas_read_s": round(baseline, 4),
        "pool_depth100_s": round(ours_time, 4),
        "ratio_pool_to_pandas_read": round(ours_time / baseline, 3),
        "target_ratio": 2.0,
        "other_strategies_s_on_loaded_runs": {k: round(v, 4) for k, v in others.items()},
    }
    print(f"pandas read of all runs:              {baseline:.3f} s")
    print(f"argue-eval depth-100 pool (read+pool+write): {ours_time:.3f} s  ({pooled} pooled documents)")
    print(f"ratio ours / pandas read:             {ours_time / baseline:.2f}x (target <= 2x)")
    for name, seconds in others.items():
        print(f"  {name:<14} on loaded runs:     {seconds:.3f} s")
    (HERE / "out").mkdir(exist_ok=True)
    (HERE / "out" / "bench_pool.json").write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
