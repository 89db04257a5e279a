"""Benchmark: reading a 100k-report NeuCLIR 2024 run into ``Report`` records vs. bare JSON parsing.

The claim (issue 2): reading and normalizing a run costs at most 3x the floor of parsing the same lines
with ``json.loads``. This script generates a realistic run (seeded, so every machine times the same
bytes), then times, over the same file and in the same process:

  (a)  json.loads over every line (the stated baseline; the standard library parser),
  (a') orjson.loads over every line (the stricter floor: the parser our reader uses),
  (b)  argue_eval.formats.read_reports, building every Report and Sentence (each record is fully
       constructed, then dropped, as a streaming consumer would),

and prints the ratios b/a and b/a'. Each timing is the best of --repeat runs, after one warm-up pass so
that the file sits in the page cache for all three.

    python bench/bench_read_runs.py                  # 100k reports into bench/out/
    python bench/bench_read_runs.py --reports 20000  # quicker
"""
from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from argue_eval.formats import read_reports  # noqa: E402

OUT = REPO / "bench" / "out"

WORDS = (
    "the of and to in a is that for on was with as by at from it an be this are which were has have had not but "
    "water bloom toxin lake city residents drinking ban algae phosphorus runoff farms report officials agency "
    "samples levels microcystin health advisory plant treatment summer august researchers found increased "
    "estimated million according statement government regional river basin nutrient fertilizer climate"
).split()


def generate(path: Path, reports: int, seed: int = 13) -> None:
    """Write ``reports`` NeuCLIR-format lines: 10-30 sentences of 8-30 words, 0-3 citations each."""
    rng = random.Random(seed)
    docs = [str(uuid.UUID(int=rng.getrandbits(128))) for _ in range(20000)]
    topics = [f"{300 + i}" for i in range(100)]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as handle:
        for index in range(reports):
            sentences = []
            for _ in range(rng.randint(10, 30)):
                text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 30))).capitalize() + "."
                sentences.append({"text": text, "citations": rng.sample(docs, rng.randint(0, 3))})
            line = {
                "request_id": topics[index % len(topics)],
                "run_id": f"run-{index // len(topics) % 1000}",
                "collection_ids": ["neuclir/1/zho"],
                "sentences": sentences,
            }
            handle.write(orjson.dumps(line) + b"\n")
    tmp.replace(path)


def time_parse(path: Path, loads: Callable[[bytes], Any]) -> float:
    """Seconds to parse every line of ``path`` with ``loads`` and drop the result (a baseline)."""
    started = time.perf_counter()
    with open(path, "rb") as handle:
        for line in handle:
            loads(line)
    return time.perf_counter() - started


def time_reader(path: Path) -> float:
    started = time.perf_counter()
    collections.deque(read_reports(path, format="neuclir24"), maxlen=0)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reports", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--regenerate", action="store_true")
    args = parser.parse_args()

    path = OUT / f"run.neuclir24.{args.reports}.jsonl"
    if args.regenerate or not path.exists():
        started = time.perf_counter()
        generate(path, args.reports)
        print(f"generated {path} in {time.perf_counter() - started:.1f} s")
    size_mb = path.stat().st_size / 1e6
    check = sum(1 for _ in read_reports(path))  # warm-up: page cache, imports, detection
    assert check == args.reports, (check, args.reports)

    best = {"json.loads": float("inf"), "orjson.loads": float("inf"), "read_reports": float("inf")}
    for _ in range(args.repeat):
        best["json.loads"] = min(best["json.loads"], time_parse(path, json.loads))
        best["orjson.loads"] = min(best["orjson.loads"], time_parse(path, orjson.loads))
        best["read_reports"] = min(best["read_reports"], time_reader(path))

    print(f"file: {path.name}, {args.reports} reports, {size_mb:.0f} MB; best of {args.repeat}")
    for name, seconds in best.items():
        print(f"  {name:<13} {seconds:7.2f} s   {args.reports / seconds:>9,.0f} reports/s   {size_mb / seconds:6.0f} MB/s")
    print(f"  ratio read_reports / json.loads   = {best['read_reports'] / best['json.loads']:.2f}x  (target <= 3x)")
    print(f"  ratio read_reports / orjson.loads = {best['read_reports'] / best['orjson.loads']:.2f}x")


if __name__ == "__main__":
    main()
