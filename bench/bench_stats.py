"""Benchmark argue_eval.stats against loops of scipy calls on a TREC-sized matrix (100 systems x 50 topics).

What it measures (all in one process, same machine, same seeded matrix; scores are Beta-distributed in [0, 1]
with system-specific means, like per-topic F1 values):

1. BCa intervals of every system's mean, ``--resamples`` (default 10,000) resamples, 95%:
   ours (``mean_intervals``: resamples drawn once, all systems in one matrix product) against a loop of
   ``scipy.stats.bootstrap((row,), np.mean, method='BCa', rng=np.random.default_rng(seed))``, one call per
   system. Both see the same resamples, so the intervals must agree; the largest absolute difference of the
   interval ends is reported (``max_abs_diff``).
2. Two-sided paired randomization tests for all ``systems*(systems-1)/2`` pairs (4,950), ``--resamples``
   sign vectors: ours (``randomization_test``: one sign matrix, all pairs in blocked matrix products) against
   ``scipy.stats.permutation_test(..., permutation_type='samples', rng=np.random.default_rng(seed))``.
   A full scipy loop would take minutes, so scipy is timed on ``--sample-pairs`` pairs (default 100, spread
   evenly over all pairs) and its time is extrapolated linearly (mean seconds per pair x number of pairs);
   on those pairs the p-values must be identical (``p_value_mismatches``).
3. Randomized Tukey HSD over the same matrix with ``--resamples`` permutations: seconds, and the ratio of the
   (extrapolated) scipy randomization loop's time to it.
4. End to end, for scale (one run each): ``compare`` on all pairs with each test (intervals of every system
   and of every pair difference included) and ``agreement`` against a noisy copy of the matrix.

Times are the best of ``--repeat`` runs (default 3), for our code and the scipy bootstrap loop alike, and for the
BCa step of either side as many more runs as fit in one second (``timeit``-style autorange, so that a 10 ms function
is not judged on three samples on a busy machine); the sampled scipy permutation loop runs once (it is long enough
to be stable).
Usage: .venv/bin/python bench/bench_stats.py [--systems 100] [--topics 50] [--resamples 10000] [--sample-pairs 100]
Results are printed and written to bench/out/bench_stats.json.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
import scipy
from scipy import stats

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from argue_eval.stats.bootstrap import mean_intervals  # noqa: E402
from argue_eval.stats.significance import all_pairs, randomization_test, tukey_hsd  # noqa: E402


def make_matrix(systems: int, topics: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    quality = rng.uniform(0.2, 0.6, systems)[:, None]
    difficulty = rng.normal(0, 0.1, topics)[None, :]
    mean = np.clip(quality + difficulty, 0.05, 0.95)
    return rng.beta(mean * 8, (1 - mean) * 8)


def best_of(repeat: int, func, budget_s: float = 0.0):
    """Best wall time of at least ``repeat`` runs, and more while the runs so far took under ``budget_s`` (like
    ``timeit``'s autorange: a fast function gets enough runs for its best to be stable on a busy machine)."""
    best, result, spent, runs = float("inf"), None, 0.0, 0
    while runs < repeat or spent < budget_s:
        start = time.perf_counter()
        result = func()
        elapsed = time.perf_counter() - start
        best, spent, runs = min(best, elapsed), spent + elapsed, runs + 1
    return best, result


def _mean_diff(x, y, axis=-1):
    return np.mean(x - y, axis=axis)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--systems", type=int, default=100)
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--resamples", type=int, default=10_000)
    parser.add_argument("--sample-pairs", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    values = make_matrix(args.systems, args.topics, args.seed)
    B, seed = args.resamples, args.seed
    out: dict = {
        "systems": args.systems, "topics": args.topics, "resamples": B, "seed": seed,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "numpy": np.__version__,
                    "scipy": scipy.__version__, "platform": platform.platform()},
    }

    # 1. BCa intervals
    ours_s, (bca, _) = best_of(args.repeat, lambda: mean_intervals(values, B, 0.95, seed), budget_s=1.0)
    scipy_s, ref = best_of(args.repeat, budget_s=1.0, func=lambda: [
        stats.bootstrap((row,), np.mean, n_resamples=B, rng=np.random.default_rng(seed), method="BCa") for row in values])
    low = np.array([r.confidence_interval.low for r in ref])
    high = np.array([r.confidence_interval.high for r in ref])
    out["bca"] = {
        "ours_s": ours_s, "scipy_loop_s": scipy_s, "speedup": scipy_s / ours_s,
        "max_abs_diff": float(max(np.abs(low - bca.low).max(), np.abs(high - bca.high).max())),
    }

    # 2. randomization tests, all pairs
    pairs = all_pairs(args.systems)
    index_a = np.array([a for a, _ in pairs])
    index_b = np.array([b for _, b in pairs])
    ours_s, result = best_of(args.repeat, lambda: randomization_test(values[index_a] - values[index_b], B, seed))
    sample = np.unique(np.linspace(0, len(pairs) - 1, min(args.sample_pairs, len(pairs))).round().astype(int))
    start = time.perf_counter()
    ref_p = [stats.permutation_test((values[pairs[k][0]], values[pairs[k][1]]), _mean_diff, permutation_type="samples",
                                    n_resamples=B, rng=np.random.default_rng(seed)).pvalue for k in sample]
    sample_s = time.perf_counter() - start
    extrapolated = sample_s / len(sample) * len(pairs)
    out["randomization"] = {
        "pairs": len(pairs), "ours_s": ours_s, "scipy_sampled_pairs": int(len(sample)), "scipy_sample_s": sample_s,
        "scipy_loop_extrapolated_s": extrapolated, "speedup": extrapolated / ours_s,
        "p_value_mismatches": int(np.count_nonzero(np.array(ref_p) != result.p_value[sample])),
        "exact": result.exact,
    }

    # 3. randomized Tukey HSD
    tukey_s, _ = best_of(args.repeat, lambda: tukey_hsd(values, pairs, B, seed))
    out["tukey"] = {"ours_s": tukey_s, "scipy_randomization_loop_over_tukey": extrapolated / tukey_s,
                    "tukey_over_our_randomization": tukey_s / out["randomization"]["ours_s"]}

    # 4. end to end (what `argue-eval compare` and `agree` compute), for scale: all pairs, every interval
    import pandas as pd

    from argue_eval.stats.agreement import agreement
    from argue_eval.stats.comparison import compare

    frame = pd.DataFrame(values, index=[f"run{k:03d}" for k in range(args.systems)])
    other = frame + np.random.default_rng(seed + 1).normal(0, 0.05, frame.shape)
    out["end_to_end"] = {
        f"compare_{test}_s": best_of(1, lambda test=test: compare(frame, test=test, resamples=B, seed=seed))[0]
        for test in ("randomization", "t", "tukey")
    }
    out["end_to_end"]["agree_s"] = best_of(1, lambda: agreement(frame, other, resamples=B, seed=seed))[0]

    target = HERE / "out" / "bench_stats.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(out, indent=2) + "\n")
    bca_r, rnd, tk = out["bca"], out["randomization"], out["tukey"]
    print(f"matrix {args.systems} systems x {args.topics} topics, {B} resamples, {os.cpu_count()} CPUs")
    print(f"BCa intervals:  ours {bca_r['ours_s']:.3f} s, scipy loop {bca_r['scipy_loop_s']:.3f} s -> "
          f"{bca_r['speedup']:.1f}x; max |difference| of interval ends {bca_r['max_abs_diff']:.2e}")
    print(f"randomization:  ours {rnd['ours_s']:.3f} s for {rnd['pairs']} pairs, scipy {rnd['scipy_sample_s']:.2f} s for "
          f"{rnd['scipy_sampled_pairs']} pairs -> {rnd['scipy_loop_extrapolated_s']:.1f} s extrapolated -> "
          f"{rnd['speedup']:.1f}x; p-value mismatches on sampled pairs: {rnd['p_value_mismatches']}")
    print(f"Tukey HSD:      ours {tk['ours_s']:.3f} s; scipy randomization loop / Tukey = "
          f"{tk['scipy_randomization_loop_over_tukey']:.1f}x; Tukey / our randomization = {tk['tukey_over_our_randomization']:.2f}")
    e2e = out["end_to_end"]
    print("end to end:     " + ", ".join(f"{name[:-2]} {seconds:.2f} s" for name, seconds in e2e.items()))
    print(f"written to {target.relative_to(HERE.parent)}")


if __name__ == "__main__":
    main()
