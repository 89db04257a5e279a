"""SIGKILL at random points of convert, pool, score, judge and evaluate (issue 13).

A real process is killed (a signal cannot be delivered in-process): once at a seeded random moment, and once
the moment a temporary output file appears (so the kill lands while an output is being written). After each
kill every output must be entirely old or entirely new (for pool, judge and evaluate, the whole set of outputs),
and the next run must finish with the new outputs and leave no temporary file behind.
"""
from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_RUNS = sorted((ROOT / "runs" / "sample").glob("*.jsonl"))
NUGGETS = ROOT / "nuggets" / "sample" / "nuggets.jsonl"
REQUESTS = ROOT / "topics" / "sample" / "requests.jsonl"
COLLECTION = ROOT / "topics" / "sample" / "collection.jsonl"
JUDGMENTS = ROOT / "qrels" / "sample" / "judgments.jsonl"
CLI = [sys.executable, "-m", "argue_eval.cli"]


def _big_run(path: Path) -> None:
    """12,000 reports (the sample run's, under many request ids): converting it takes a moment to write."""
    lines = [json.loads(line) for line in SAMPLE_RUNS[0].read_text().splitlines()]
    with path.open("w") as handle:
        for k in range(1500):
            for record in lines:
                handle.write(json.dumps({**record, "request_id": f"{record['request_id']}-{k}"}) + "\n")


def _big_ranked(folder: Path) -> list[Path]:
    """Three ranked runs of 150 topics x 100 documents: a pool of tens of thousands of lines."""
    rng = random.Random(5)
    paths = []
    for name in ("a", "b", "c"):
        path = folder / f"{name}.trec"
        with path.open("w") as handle:
            for topic in range(150):
                docs = rng.sample(range(5000), 100)
                handle.writelines(f"t{topic} Q0 d{doc} {rank} {100 - rank} {name}\n" for rank, doc in enumerate(docs, 1))
        paths.append(path)
    return paths


def _setup(tmp: Path, command: str) -> tuple[list[str], list[Path]]:
    """The command's arguments and the outputs that must change together (big inputs made only when needed)."""
    if command == "convert":
        run = tmp / "big.jsonl"
        _big_run(run)
        return ["convert", str(run), "--to", "neuclir24", "-o", str(tmp / "conv.jsonl")], [tmp / "conv.jsonl"]
    if command == "pool":
        ranked = _big_ranked(tmp)
        return (["pool", *map(str, ranked), "--depth", "100", "-o", str(tmp / "pool.qrels"), "--package",
                 str(tmp / "pool.csv")],
                [tmp / "pool.qrels", tmp / "pool.qrels.runs.tsv", tmp / "pool.qrels.sizes.tsv", tmp / "pool.csv"])
    return {
        "score": (["score", "--run", *map(str, SAMPLE_RUNS), "--nuggets", str(NUGGETS), "--judgments", str(JUDGMENTS),
                   "-o", str(tmp / "scores.tsv"), "--details", str(tmp / "details.jsonl"), "-q"],
                  [tmp / "scores.tsv"]),
        "judge": (["judge", "--run", *map(str, SAMPLE_RUNS), "--nuggets", str(NUGGETS), "--requests", str(REQUESTS),
                   "--collection", str(COLLECTION), "--no-cache", "-q", "-o", str(tmp / "judged.jsonl")],
                  [tmp / "judged.jsonl", tmp / "judged.jsonl.manifest.json"]),
        "evaluate": (["evaluate", "--run", *map(str, SAMPLE_RUNS), "--nuggets", str(NUGGETS), "--requests",
                      str(REQUESTS), "--collection", str(COLLECTION), "--no-cache", "-q", "-o", str(tmp / "scores.tsv"),
                      "--judgments-out", str(tmp / "judged.jsonl"), "--details", str(tmp / "details.jsonl"),
                      "--html", str(tmp / "report.html")],
                     [tmp / "judged.jsonl", tmp / "judged.jsonl.manifest.json", tmp / "scores.tsv",
                      tmp / "details.jsonl", tmp / "report.html"]),
    }[command]


def _mid_write(command: str, outputs: list[Path]) -> Callable[[list[str]], bool]:
    """When to kill "mid-write", from the temporary files that exist: for pool, once all but the last output are
    written (the moment a mixed set could appear); for evaluate, once the scores are being written, after the
    judgments (which it wrote apart before, so a kill there left new judgments beside old scores); else at once."""
    if command == "pool":
        return lambda temps: len(temps) >= len(outputs) - 1
    if command == "evaluate":
        return lambda temps: any(name.startswith(".scores.tsv.") for name in temps)
    return lambda temps: len(temps) >= 1


def _contents(paths: list[Path]) -> tuple[bytes | None, ...]:
    """The outputs' bytes; the one volatile field, judge's manifest's run time, blanked."""
    return tuple(re.sub(rb'"seconds": [0-9.e+-]+', b'"seconds": 0', path.read_bytes()) if path.exists() else None
                 for path in paths)


def _temps(folder: Path) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.endswith(".tmp"))


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    result = subprocess.run([*CLI, *args], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return result


def _kill(args: list[str], cwd: Path, at: float | None, mid_write: Callable[[list[str]], bool]) -> bool:
    """Start the command and SIGKILL it after ``at`` seconds, or (``None``) as soon as ``mid_write`` says of the
    temporary files that exist.

    Returns whether the process was still running when killed."""
    process = subprocess.Popen([*CLI, *args], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    start = time.monotonic()
    try:
        while process.poll() is None and time.monotonic() - start < 120:
            if (at is not None and time.monotonic() - start >= at) or (at is None and mid_write(_temps(cwd))):
                process.send_signal(signal.SIGKILL)
                process.wait()
                return True
            time.sleep(0.0005)
        return False
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.mark.parametrize("command", ["convert", "pool", "score", "judge", "evaluate"])
def test_sigkill_leaves_old_or_new_outputs_and_the_next_run_cleans_up(tmp_path: Path, command: str):
    args, outputs = _setup(tmp_path, command)
    old = tuple(f"old {path.name}\n".encode() for path in outputs)
    rng = random.Random(f"{command}-13")
    new: tuple[bytes | None, ...] | None = None
    duration = 0.0
    for attempt in ("mid-write", "random"):
        for path, content in zip(outputs, old):
            path.write_bytes(content)
        # mid-write: as soon as a temp file exists (see _mid_write); random: a seeded moment within the time a
        # whole run takes
        at = None if attempt == "mid-write" else rng.uniform(0.3, duration)
        killed = _kill(args, tmp_path, at, _mid_write(command, outputs))
        after = _contents(outputs)
        if attempt == "mid-write":
            assert killed, f"{command} finished before any temporary file could be seen; make its input bigger"
        started = time.monotonic()
        _run(args, tmp_path)
        duration = time.monotonic() - started
        if new is None:
            new = _contents(outputs)
            assert new != old
        assert after in (old, new), f"mixed outputs after a {attempt} kill"
        assert _contents(outputs) == new  # reruns are byte-identical
        assert _temps(tmp_path) == [], "a killed writer's temporary file survived the next run"
