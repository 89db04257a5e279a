"""Benchmark the JSONL document store: index build time, lookup speed against linear scans, lookup memory.

What it does (all in one run, same machine, same warm page cache):

1. Generates a collection of ``--docs`` short news-like documents (default 1,000,000, 300-600 bytes per
   line, random UUID-like ids, seeded) in ``bench/out/`` (reused when it already exists with that size).
2. Builds the offset index from scratch (``ensure_index(rebuild=True)``) in a subprocess and reports its
   wall time and peak RSS.
3. Looks up ``--lookups`` random ids (default 10,000; seeded; in random order) with ``store.get`` in a
   fresh subprocess and reports the time to open the store, the lookup time, and the subprocess's peak
   RSS (``VmHWM``; see ``peak_rss_mb`` for why not the inherited ``ru_maxrss``), which covers the
   interpreter, the SQLite page cache and everything else. The same process then fetches all ids again
   with one ``get_many`` call, so the peak includes holding the 10,000 documents at once.
4. Baselines, in the parent process:
   - *per-id linear scan*: what a lookup costs without an index: read the file from the start, parse each
     line with orjson and compare its id, stop at the match. Timed for ``--scan-sample`` of the ids
     (default 20) and extrapolated linearly to all lookups (mean seconds per id x number of lookups).
   - *single batched scan*: one pass over the whole file that parses every line and keeps those whose id
     is in the set of wanted ids (the best a scan can do when all ids are known up front).
   Ratios are baseline time / indexed lookup time.

Usage: .venv/bin/python bench/bench_collection.py [--docs 1000000] [--lookups 10000] [--scan-sample 20]
Results are printed and written to bench/out/bench_collection.json.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

import orjson

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

PLACES = ["Toledo", "Lake Erie", "Lagos", "Lima", "Osaka", "Ghent", "Perth", "Quebec", "Nairobi", "Tromso"]
SUBJECTS = ["city council", "water authority", "health ministry", "port workers", "farmers' union", "school board",
            "energy regulator", "police", "weather service", "transit agency", "hospital", "court"]
VERBS = ["announced", "approved", "rejected", "delayed", "investigated", "reported", "warned about", "expanded",
         "cut", "defended"]
OBJECTS = ["a new budget", "the water treatment plan", "a bridge repair", "rising prices", "a strike",
           "flood defences", "the election timetable", "an algal bloom", "new bus routes", "a tax increase",
           "emergency shelters", "a fishing ban"]
TAILS = ["after a heated meeting", "on Tuesday", "despite protests", "for the third time this year",
         "citing safety concerns", "as costs grew", "following heavy rain", "under public pressure"]


def sentence(rng: random.Random) -> str:
    return (f"The {rng.choice(SUBJECTS)} in {rng.choice(PLACES)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} "
            f"{rng.choice(TAILS)}, and {rng.randint(2, 900)} residents {rng.choice(VERBS)} {rng.choice(OBJECTS)}.")


def doc_id(rng: random.Random) -> str:
    h = f"{rng.getrandbits(128):032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def generate(path: Path, count: int, seed: int) -> list[str]:
    """Write the collection (unless present with the same count) and return its ids in file order."""
    rng = random.Random(seed)  # text
    id_rng = random.Random(seed + 7)  # ids: the same sequence whether or not the file is regenerated
    ids: list[str] = []
    reuse = path.exists() and path.with_suffix(".count").exists() and path.with_suffix(".count").read_text() == str(count)
    out = None if reuse else open(path.with_suffix(".tmp"), "wb")
    for _ in range(count):
        identifier = doc_id(id_rng)
        ids.append(identifier)
        if out is None:
            continue
        text, target = sentence(rng), rng.randint(180, 400)
        while len(text) < target:
            text += " " + sentence(rng)
        title = f"{rng.choice(SUBJECTS).capitalize()} in {rng.choice(PLACES)} {rng.choice(VERBS)} {rng.choice(OBJECTS)}"
        out.write(orjson.dumps({"doc_id": identifier, "title": title, "text": text}) + b"\n")
    if out is not None:
        out.close()
        os.replace(path.with_suffix(".tmp"), path)
        path.with_suffix(".count").write_text(str(count))
    return ids


def scan_for(path: Path, wanted: str) -> bool:
    """Per-id baseline: parse lines from the start until the one with this id."""
    with open(path, "rb") as handle:
        for raw in handle:
            if orjson.loads(raw)["doc_id"] == wanted:
                return True
    return False


def scan_batch(path: Path, wanted: set[str]) -> int:
    """Batched baseline: one full pass keeping every document whose id is wanted."""
    found = {}
    with open(path, "rb") as handle:
        for raw in handle:
            record = orjson.loads(raw)
            if record["doc_id"] in wanted:
                found[record["doc_id"]] = record
    return len(found)


def peak_rss_mb() -> float:
    """Peak resident set size of this process in MB.

    ``VmHWM`` from /proc (Linux) where available: ``ru_maxrss`` of a child is inherited from the parent's
    RSS at fork/exec time (Linux keeps the maximum across execve), so a worker started by this big parent
    would report the parent's peak, not its own. Elsewhere falls back to ``ru_maxrss``.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def build_worker(path: str) -> None:
    from argue_eval.collection.jsonl import ensure_index

    started = time.perf_counter()
    info = ensure_index(path, rebuild=True)
    seconds = time.perf_counter() - started
    print(json.dumps({"seconds": seconds, "count": info.count, "index": str(info.index_path),
                      "index_bytes": info.index_path.stat().st_size,
                      "max_rss_mb": peak_rss_mb(),
                      "ru_maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def lookup_worker(path: str, ids_file: str) -> None:
    ids = Path(ids_file).read_text().split("\n")
    from argue_eval.collection import open_collection

    started = time.perf_counter()
    store = open_collection(path)
    opened = time.perf_counter() - started
    started = time.perf_counter()
    total = 0
    for identifier in ids:
        total += len(store.get(identifier).text)
    lookups = time.perf_counter() - started
    started = time.perf_counter()
    many = store.get_many(ids)
    batched = time.perf_counter() - started
    assert len(many) == len(set(ids)) and not store.misses
    print(json.dumps({"open_seconds": opened, "get_seconds": lookups, "get_many_seconds": batched,
                      "built": store.index.built, "chars": total, "max_rss_mb": peak_rss_mb(),
                      "ru_maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def worker(*args: str) -> dict:
    result = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=int, default=1_000_000)
    parser.add_argument("--lookups", type=int, default=10_000)
    parser.add_argument("--scan-sample", type=int, default=20)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--out", type=Path, default=HERE / "out")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"collection-{args.docs}.jsonl"

    started = time.perf_counter()
    ids = generate(path, args.docs, args.seed)
    size = path.stat().st_size
    print(f"collection: {path} ({args.docs} documents, {size / 1e6:.0f} MB, "
          f"{size / args.docs:.0f} bytes/line; ready in {time.perf_counter() - started:.1f} s)")

    build = worker("--build-worker", str(path))
    print(f"index build: {build['seconds']:.2f} s, peak RSS {build['max_rss_mb']:.0f} MB, "
          f"index {build['index_bytes'] / 1e6:.0f} MB")

    rng = random.Random(args.seed + 1)
    sample = rng.sample(ids, args.lookups)
    ids_file = args.out / "lookup-ids.txt"
    ids_file.write_text("\n".join(sample))
    lookup = worker("--lookup-worker", str(path), str(ids_file))
    assert not lookup["built"], "the lookup process should reuse the index"
    print(f"indexed lookups: open {lookup['open_seconds'] * 1e3:.1f} ms, {args.lookups} x get "
          f"{lookup['get_seconds']:.3f} s ({lookup['get_seconds'] / args.lookups * 1e6:.1f} us/id), "
          f"get_many {lookup['get_many_seconds']:.3f} s; lookup process peak RSS {lookup['max_rss_mb']:.0f} MB "
          f"(its ru_maxrss, inherited from this parent at spawn, says {lookup['ru_maxrss_mb']:.0f} MB)")

    scan_ids = sample[: args.scan_sample]
    started = time.perf_counter()
    assert all(scan_for(path, identifier) for identifier in scan_ids)
    scan_seconds = time.perf_counter() - started
    per_id = scan_seconds / len(scan_ids)
    extrapolated = per_id * args.lookups
    started = time.perf_counter()
    assert scan_batch(path, set(sample)) == len(set(sample))
    batch_seconds = time.perf_counter() - started
    indexed = lookup["get_seconds"]
    print(f"per-id linear scan: {len(scan_ids)} ids in {scan_seconds:.1f} s = {per_id:.3f} s/id, "
          f"extrapolated to {args.lookups} ids: {extrapolated:.0f} s -> indexed is {extrapolated / indexed:,.0f}x faster")
    print(f"single batched scan for all {args.lookups} ids: {batch_seconds:.2f} s "
          f"-> indexed is {batch_seconds / indexed:,.1f}x faster")

    results = {
        "docs": args.docs, "bytes": size, "lookups": args.lookups, "build": build, "lookup": lookup,
        "scan_sample": len(scan_ids), "scan_sample_seconds": scan_seconds, "scan_per_id_seconds": per_id,
        "scan_extrapolated_seconds": extrapolated, "speedup_vs_per_id_scan": extrapolated / indexed,
        "batched_scan_seconds": batch_seconds, "speedup_vs_batched_scan": batch_seconds / indexed,
        "python": sys.version.split()[0],
    }
    (args.out / "bench_collection.json").write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--build-worker":
        build_worker(sys.argv[2])
    elif len(sys.argv) > 1 and sys.argv[1] == "--lookup-worker":
        lookup_worker(sys.argv[2], sys.argv[3])
    else:
        main()
