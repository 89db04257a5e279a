"""Every command's outputs on the shipped sample track, kept in one directory, to compare two versions byte for byte.

A refactor must not change what any command writes. This runs a fixed list of commands (every command and
subcommand, on the sample track, offline) with the current checkout's code, keeps each one's output files,
stdout, stderr and exit status under OUT/<step>/, and compares two such directories:

    .venv/bin/python tools/sample_outputs.py run /tmp/after
    git worktree add /tmp/base-tree BASE && .venv/bin/python tools/sample_outputs.py run /tmp/before --code /tmp/base-tree
    .venv/bin/python tools/sample_outputs.py compare /tmp/before /tmp/after

``--code DIR`` runs another checkout's package (``PYTHONPATH=DIR``) with this one's sample files, so both sides read
the same inputs. Timings printed on stderr and the manifests' ``seconds`` differ from run to run and are masked
(``compare`` says so), and so is the path of the output directory itself; nothing else is.
"""
from __future__ import annotations

import argparse
import filecmp
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RUNS = sorted(str(p.relative_to(REPO)) for p in (REPO / "runs" / "sample").glob("*.jsonl"))
RANKED = sorted(str(p.relative_to(REPO)) for p in (REPO / "runs" / "sample" / "ranked").glob("*.trec"))
N = "nuggets/sample/nuggets.jsonl"
R = "topics/sample/requests.jsonl"
C = "topics/sample/collection.jsonl"
J = "qrels/sample/judgments.jsonl"
Q = "qrels/sample/qrels.trec"

# (step name, argv after `argue-eval`); OUT/ stands for the step's own output directory
STEPS: list[tuple[str, list[str]]] = [
    ("inspect", ["inspect", RUNS[0], "--json"]),
    ("inspect-nuggets", ["inspect", N]),
    ("validate", ["validate", *RUNS, "--requests", R, "--collection", C]),
    ("score", ["score", "--run", *RUNS, "--nuggets", N, "--requests", R, "--judgments", J,
               "-o", "OUT/scores.tsv", "--details", "OUT/details.jsonl"]),
    ("score-autoargue", ["score", "--run", *RUNS, "--nuggets", N, "--requests", R, "--judgments", J,
                         "--table-format", "autoargue", "-o", "OUT/scores.tsv"]),
    ("score-stdout", ["score", "--run", *RUNS, "--nuggets", N, "--judgments", J, "-o", "-"]),
    ("compare", ["compare", "STEP:score/scores.tsv", "--metric", "f1", "--baseline", "careful"]),
    ("compare-json", ["compare", "STEP:score/scores.tsv", "--metric", "nugget_coverage", "--format", "json"]),
    ("judge-plan", ["judge", "--run", *RUNS, "--nuggets", N, "--requests", R, "--collection", C, "--dry-run",
                    "--json", "--no-cache"]),
    ("judge", ["judge", "--run", *RUNS, "--nuggets", N, "--requests", R, "--collection", C,
               "--cache", "OUT/cache.sqlite", "-o", "OUT/judgments.jsonl"]),
    ("judge-plan-cached", ["judge", "--run", *RUNS, "--nuggets", N, "--requests", R, "--collection", C, "--dry-run",
                           "--json", "--cache", "STEP:judge/cache.sqlite"]),
    ("evaluate", ["evaluate", "--run", *RUNS, "--nuggets", N, "--requests", R, "--collection", C, "--no-cache",
                  "-o", "OUT/scores.tsv", "--judgments-out", "OUT/judgments.jsonl", "--details", "OUT/details.jsonl",
                  "--html", "OUT/report.html"]),
    ("agree", ["agree", "STEP:score/scores.tsv", "STEP:evaluate/scores.tsv", "--metric", "f1", "--resamples", "1000",
               "--systems"]),
    ("agree-judgments", ["agree-judgments", J, "STEP:evaluate/judgments.jsonl"]),
    ("report", ["report", "--scores", "STEP:score/scores.tsv", "--details", "STEP:score/details.jsonl",
                "--nuggets", N, "--requests", R, "--judgments", J, "--collection", C, "--baseline", "careful",
                "-o", "OUT/report.html"]),
    ("icat", ["icat", "--run", *RUNS, "--nuggets", N, "--collection", C, "--no-cache", "-o", "OUT/icat.tsv",
              "--details", "OUT/icat.jsonl"]),
    ("icat-request-aspects", ["icat", "--run", *RUNS, "--requests", R, "--aspects", "request", "--collection", C,
                              "--no-cache", "-o", "OUT/icat.tsv"]),
    ("longrecall", ["longrecall", "--run", *RUNS, "--nuggets", N, "--no-cache", "-o", "OUT/longrecall.tsv",
                    "--details", "OUT/longrecall.jsonl"]),
    ("longrecall-reference", ["longrecall", "--run", *RUNS[1:], "--reference", RUNS[0], "--no-cache",
                              "-o", "OUT/longrecall.tsv"]),
    ("comprehensiveness", ["comprehensiveness", "--run", *RUNS, "--nuggets", N, "--no-cache",
                           "-o", "OUT/comprehensiveness.tsv", "--details", "OUT/comprehensiveness.jsonl"]),
    ("nuggetizer", ["nuggetizer", "--run", *RUNS, "--nuggets", N, "--collection", C, "-o", "OUT/nuggetizer.tsv",
                    "--details", "OUT/nuggetizer.jsonl"]),
    ("retrieval-ranked", ["retrieval", "--qrels", Q, *RANKED, "--measures", "ndcg@10 recall@20 map P@5",
                          "-o", "OUT/retrieval.tsv"]),
    ("retrieval-cited", ["retrieval", "--qrels", Q, *RUNS, "-m", "ndcg@10 P@5", "-o", "OUT/cited.tsv"]),
    ("pool-depth", ["pool", *RANKED, "--depth", "10", "-o", "OUT/pool.qrels"]),
    ("pool-budget", ["pool", *RUNS, "--strategy", "budget", "--budget", "15", "--collection", C,
                     "--package", "OUT/pool.csv", "-o", "OUT/pool.qrels"]),
    ("qrels-from-nuggets", ["qrels", "from-nuggets", N, "-o", "OUT/qrels.trec"]),
    ("qrels-stats", ["qrels", "stats", Q]),
    ("qrels-merge", ["qrels", "merge", "STEP:qrels-from-nuggets/qrels.trec", Q, "--on-duplicate", "max",
                     "-o", "OUT/merged.trec"]),
    ("convert-run", ["convert", RUNS[0], "--to", "ragtime", "-o", "OUT/run.ragtime.jsonl"]),
    ("convert-nuggets", ["convert", N, "--to", "autoargue-v3", "-o", "OUT/v3"]),
    ("nuggets-validate", ["nuggets", "validate", N, "--collection", C]),
    ("nuggets-stats", ["nuggets", "stats", N]),
    ("requests-validate", ["requests", "validate", R]),
    ("requests-export", ["requests", "export", R, "--for", "participants", "--to", "neuclir24",
                         "-o", "OUT/public.jsonl"]),
    ("assess-export", ["assess", "export", "--run", *RUNS, "--nuggets", N, "--requests", R, "--collection", C,
                       "-o", "OUT/assess.csv"]),
    ("collection-get", ["collection", "get", C, "nw-0001", "nw-0004"]),
    ("collection-info", ["collection", "info", C]),
]

_TIMING = re.compile(rb"\b\d+(\.\d+)? ?(s|ms|seconds)\b")
_SECONDS = re.compile(rb'"seconds": [0-9.e-]+')
_SIZE = re.compile(rb"\([0-9,]+ bytes\)")


def run_steps(out: Path, code: Path | None, only: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, ARGUE_EVAL_PROGRESS="0", PYTHONHASHSEED="0")
    # ``python -m`` would put the working directory (this checkout) first on sys.path: put the code first instead
    launcher = ("import sys, runpy; sys.path.insert(0, sys.argv.pop(1)); sys.argv[0] = 'argue-eval'; "
                "runpy.run_module('argue_eval.cli', run_name='__main__')")
    python = [sys.executable, "-c", launcher, str((code or REPO).resolve())]
    for name, argv in STEPS:
        if only and name not in only:
            continue
        step = out / name
        if step.exists():
            shutil.rmtree(step)
        step.mkdir()
        args = [a.replace("OUT/", f"{step}/") for a in argv]
        args = [str(out / a[5:]) if a.startswith("STEP:") else a for a in args]
        result = subprocess.run([*python, *args], cwd=REPO, env=env,
                                capture_output=True)
        (step / "stdout").write_bytes(result.stdout.replace(str(step).encode(), b"OUT"))
        (step / "stderr").write_bytes(result.stderr.replace(str(step).encode(), b"OUT"))
        (step / "status").write_text(f"{result.returncode}\n")
        print(f"{name}: exit {result.returncode}", file=sys.stderr)


def _masked(path: Path, root: Path) -> bytes:
    data = path.read_bytes().replace(str(root).encode(), b"<OUT>")
    if path.name == "stderr":
        data = _SIZE.sub(b"(<size> bytes)", _TIMING.sub(b"<time>", data))  # a size that holds the path varies too
    if path.name.endswith(".manifest.json"):
        data = _SECONDS.sub(b'"seconds": <time>', data)
    return data


def compare(a: Path, b: Path) -> int:
    differ = 0
    names_a = {p.relative_to(a) for p in a.rglob("*") if p.is_file()}
    names_b = {p.relative_to(b) for p in b.rglob("*") if p.is_file()}
    for name in sorted(names_a ^ names_b):
        print(f"only in {'A' if name in names_a else 'B'}: {name}")
        differ += 1
    same = 0
    for name in sorted(names_a & names_b):
        if name.suffix == ".sqlite" or ".sqlite-" in name.name:
            continue  # the cache's pages hold timestamps; its answers show in the judgments and the cached plan
        left, right = a / name, b / name
        if filecmp.cmp(left, right, shallow=False) or _masked(left, a) == _masked(right, b):
            same += 1
        else:
            print(f"differs: {name}")
            differ += 1
    print(f"{same} file(s) identical (the output directory's path, stderr timings and manifest seconds masked), "
          f"{differ} different or missing")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="action", required=True)
    run = sub.add_parser("run", help="run every step into OUT")
    run.add_argument("out", type=Path)
    run.add_argument("--code", type=Path, default=None, help="another checkout whose argue_eval package to run")
    run.add_argument("--only", action="append", default=[], help="only this step (repeatable)")
    cmp = sub.add_parser("compare", help="compare two OUT directories")
    cmp.add_argument("a", type=Path)
    cmp.add_argument("b", type=Path)
    args = parser.parse_args()
    if args.action == "run":
        run_steps(args.out, args.code, args.only)
        return 0
    return compare(args.a, args.b)


if __name__ == "__main__":
    sys.exit(main())
