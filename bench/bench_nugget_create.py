"""Benchmark: LLM-created nugget banks against the human ones of ../shared/judge-dev (create + compare).

The judge-dev set (its README) holds a real NeuCLIR 2024 report on six topics, the cited documents' texts
inside Auto-ARGUE's judgments, and the assessors' NuggetBank v3 files of those topics. This reads them where
they are (nothing is copied into the repository) and, in a temporary directory:

1. takes the documents out of the judgments (``argue-eval convert --kind collection``) and the report
   (``--kind runs``), pools the report's cited documents (``argue-eval pool``: the documents to read) and
   writes the six requests from the v3 files' ``title_query``, ``full_query`` and ``full_background``;
2. creates a bank (``argue-eval nuggets create``) with the endpoint given (``--base-url``, ``--model``);
3. compares it with the human banks (``argue-eval nuggets compare --pool``: human bindings to documents the
   model never read are not counted), per topic and over all: recall, precision, binding agreement.

The baseline, made in the same run and compared the same way, is the scripted stand-in model of
tests/nugget_model.py on the loopback server: one nugget per document, "What does <title> report?" answered
by the document's first eight words. Without ``--base-url`` only the baseline runs, and its figures mean
nothing about the quality of any model: they show the machinery works end to end.

    .venv/bin/python bench/bench_nugget_create.py                                   # the scripted server only
    .venv/bin/python bench/bench_nugget_create.py --base-url http://gpu01:8000/v1 --model Llama-3.3-70B-Instruct
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

JUDGE_DEV = REPO.parent / "shared" / "judge-dev"
CLI = [sys.executable, "-m", "argue_eval.cli"]


def run(*args: str, ok: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([*CLI, *args], cwd=REPO, capture_output=True, text=True)
    if done.returncode not in ok:
        raise SystemExit(f"argue-eval {' '.join(args[:2])} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return done


def prepare(judge_dev: Path, work: Path) -> dict[str, str]:
    """Collection, run, pool and requests of the judge-dev topics in ``work``."""
    judgments = judge_dev / "autoargue-llama70b.dev.judgments.jsonl"
    paths = {name: str(work / name) for name in ("docs.jsonl", "run.jsonl", "pool.qrels", "requests.jsonl")}
    run("convert", str(judgments), "--kind", "collection", "--to", "jsonl", "-o", paths["docs.jsonl"])
    run("convert", str(judgments), "--kind", "runs", "--to", "ragtime", "-o", paths["run.jsonl"])
    run("pool", paths["run.jsonl"], "--depth", "100", "-o", paths["pool.qrels"])
    with open(paths["requests.jsonl"], "w", encoding="utf-8") as out:
        for path in sorted((judge_dev / "nuggets").glob("nuggets_*.v3.json")):
            bank = json.loads(path.read_text(encoding="utf-8"))
            out.write(json.dumps({"request_id": bank["query_id"], "title": bank.get("title_query", ""),
                                  "background": bank.get("full_background", ""),
                                  "problem_statement": bank.get("full_query", ""), "limit": 2000}) + "\n")
    return paths


def create(paths: dict[str, str], work: Path, name: str, base_url: str, model: str, options: list[str]) -> dict:
    """Create a bank with the model at ``base_url``; return its output path, the summary lines and the time."""
    out = work / f"{name}.jsonl"
    started = time.perf_counter()
    done = run("nuggets", "create", "--requests", paths["requests.jsonl"], "--pool", paths["pool.qrels"],
               "--collection", paths["docs.jsonl"], "--llm-base-url", base_url, "--llm-model", model,
               "--cache", str(work / "cache.sqlite"), "-o", str(out), "--details", str(work / f"{name}.details.jsonl"),
               *options, ok=(0, 1))
    return {"bank": str(out), "seconds": time.perf_counter() - started, "stderr": done.stderr.strip(),
            "complete": done.returncode == 0}


def compare(paths: dict[str, str], bank: str, judge_dev: Path, judge: str) -> list[list[str]]:
    done = run("nuggets", "compare", bank, str(judge_dev / "nuggets"), "--pool", paths["pool.qrels"], "--requests",
               paths["requests.jsonl"], "--judge", judge, "--no-cache", ok=(0, 1))
    return [line.split("\t") for line in done.stdout.strip().splitlines()]


def show(name: str, made: dict, rows: list[list[str]]) -> None:
    print(f"\n== {name}: created in {made['seconds']:.1f} s{'' if made['complete'] else ' (some calls failed)'}")
    for line in made["stderr"].splitlines():
        print(f"   {line}")
    header = rows[0]
    wanted = ["request_id", "human_answers", "created_answers", "recall", "precision", "binding_agreement"]
    index = [header.index(column) for column in wanted]
    print("   " + "  ".join(f"{column:>17}" for column in wanted))
    for row in rows[1:]:
        print("   " + "  ".join(f"{_cell(row[i]):>17}" for i in index))


def _cell(value: str) -> str:
    try:
        number = float(value)
    except ValueError:
        return value
    return value if number.is_integer() and "." not in value else f"{number:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", help="OpenAI-compatible endpoint of the model to measure (omit: baseline only)")
    parser.add_argument("--model", help="the served model's name (with --base-url)")
    parser.add_argument("--api-key-env", default=None, help="environment variable holding the endpoint's key")
    parser.add_argument("--response-format", default=None, choices=["json_schema", "json_object", "none"])
    parser.add_argument("--judge", default="lexical", help="the judge that matches answers in compare")
    parser.add_argument("--verify", default=None, help="verify the model's bindings with this judge")
    parser.add_argument("--max-nuggets", default="30")
    parser.add_argument("--batch-size", default="10")
    parser.add_argument("--max-documents", default=None, help="read at most this many documents per topic")
    parser.add_argument("--max-doc-tokens", default=None, help="cut each document to this many tokens (default 1500)")
    parser.add_argument("--judge-dev", type=Path, default=JUDGE_DEV)
    args = parser.parse_args()
    if args.base_url and not args.model:
        parser.error("--base-url needs --model")
    from llm_server import MockChatServer
    from nugget_model import script

    options = ["--max-nuggets", args.max_nuggets, "--batch-size", args.batch_size,
               *(["--max-documents", args.max_documents] if args.max_documents else []),
               *(["--llm-max-doc-tokens", args.max_doc_tokens] if args.max_doc_tokens else [])]
    with tempfile.TemporaryDirectory() as folder, MockChatServer(script) as scripted:
        work = Path(folder)
        paths = prepare(args.judge_dev, work)
        baseline = create(paths, work, "baseline", scripted.base_url, "scripted-baseline", options)
        show("baseline: the scripted stand-in model (first eight words of each document)", baseline,
             compare(paths, baseline["bank"], args.judge_dev, args.judge))
        if not args.base_url:
            print("\nNo --base-url: only the scripted server ran. These figures mean nothing about the quality of a "
                  "model; they show that pool -> create -> compare works end to end on the judge-dev data.")
            return
        extra = [*(["--llm-api-key-env", args.api_key_env] if args.api_key_env else []),
                 *(["--llm-response-format", args.response_format] if args.response_format else []),
                 *(["--verify", args.verify] if args.verify else [])]
        model = create(paths, work, "model", args.base_url, args.model, options + extra)
        show(f"{args.model} at {args.base_url}", model, compare(paths, model["bank"], args.judge_dev, args.judge))
        print(f"\nMatches are decided by the {args.judge} judge; the baseline above is the reference made in the "
              "same run.")


if __name__ == "__main__":
    main()
