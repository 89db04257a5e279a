"""Development check: a real Auto-ARGUE judgments file converted without loss, and taken apart for re-judging.

The file is the judge development set in ``/work/shared/judge-dev/`` (see its README: one NeuCLIR 2024 report on
six topics judged by Auto-ARGUE with Llama-3.3-70B, and the topics' NuggetBank v3 files). It carries no licence,
so it is read from there and every output goes under ``--out`` (default ``/tmp/inputs2/autoargue-convert``).

Steps, all through the command line as a user runs them:

1. ``convert --nuggets --to argue``: the judgments, every answer kept; prints the counts per kind before
   (Auto-ARGUE judgment types) and after (canonical kinds, yes/no);
2. ``convert --kind runs --to ragtime``: the run; checks each line equals the file's embedded ``report`` object;
3. ``convert --kind collection --to jsonl``: the cited documents; checks each text equals every citation's;
4. ``score`` on the original (its embedded reports) and on the converted judgments with the converted run, under
   several policies: the two tables must be byte-identical;
5. ``agree-judgments ORIGINAL CONVERTED --nuggets``: every judgment in common, all agreeing.

    python bench/dev_autoargue_convert.py [--shared /work/shared/judge-dev] [--out /tmp/inputs2/autoargue-convert]

It exits 1 when a check fails. Without the shared directory it says so and exits 0 (it is a development
script, not a test).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ARGUE = [sys.executable, "-m", "argue_eval.cli"]
SHARED = Path("/work/shared/judge-dev")
FILE = "autoargue-llama70b.dev.judgments.jsonl"
POLICIES = [(), ("--missing-topics", "skip", "--table-format", "autoargue"), ("--relevance", "judgments"),
            ("--unbound-questions", "negative")]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([*ARGUE, *args], cwd=REPO, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"argue-eval {' '.join(args[:3])} ... failed ({result.returncode}):\n{result.stdout}{result.stderr}")
    return result


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=SHARED)
    parser.add_argument("--out", type=Path, default=Path("/tmp/inputs2/autoargue-convert"))
    args = parser.parse_args()
    source, nuggets = args.shared / FILE, args.shared / "nuggets"
    if not source.is_file():
        print(f"skipped: {args.shared} is absent (the judge development set is not shipped with the project)")
        return 0
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    failures: list[str] = []

    judgments, run_file, docs = out / "judgments.jsonl", out / "run.ragtime.jsonl", out / "docs.jsonl"
    converted = run("convert", str(source), "--nuggets", str(nuggets), "--to", "argue", "-o", str(judgments))
    print("1. convert --nuggets --to argue")
    print("   " + converted.stderr.strip().replace("\n", "\n   "))
    before: Counter[str] = Counter()
    for obj in lines(source):
        for segment in obj["judgments"]:
            for item in segment["judgments"]:
                before[item["judgment_type_id"]] += 1
    after = Counter((j["kind"], j["value"]) for j in lines(judgments))
    print(f"   before (Auto-ARGUE types): {dict(sorted(before.items()))}")
    print(f"   after (kind, value): {dict(sorted(after.items()))}")
    if "warning" in converted.stderr:
        failures.append("the conversion of the real file warned of a loss")

    run("convert", str(source), "--kind", "runs", "--to", "ragtime", "-o", str(run_file))
    embedded = [obj["report"] for obj in lines(source)]
    same_run = lines(run_file) == embedded
    print(f"2. convert --kind runs --to ragtime: {len(embedded)} reports; equal to the embedded report objects: {same_run}")
    if not same_run:
        failures.append("the extracted run differs from the embedded reports")

    extracted = run("convert", str(source), "--kind", "collection", "--to", "jsonl", "-o", str(docs))
    texts = {d["doc_id"]: d["text"] for d in lines(docs)}
    citations = [c for obj in lines(source) for s in obj["judgments"] for c in s["citations"]]
    same_texts = all(texts.get(c["doc_id"]) == c["text"] for c in citations)
    print(f"3. convert --kind collection: {extracted.stderr.strip().splitlines()[-1].split(': ', 1)[1]}; "
          f"{len(citations)} citations, each text equal to its document's: {same_texts}")
    if not same_texts:
        failures.append("a collection text differs from a citation's")

    print("4. score: original file vs converted judgments + run")
    for options in POLICIES:
        original, again = out / "scores.original.tsv", out / "scores.converted.tsv"
        run("score", "--nuggets", str(nuggets), "--judgments", str(source), "-o", str(original), "--quiet", *options)
        run("score", "--run", str(run_file), "--nuggets", str(nuggets), "--judgments", str(judgments), "-o", str(again),
            "--quiet", *options)
        identical = original.read_bytes() == again.read_bytes()
        rows = len(original.read_text().splitlines()) - 1
        print(f"   {' '.join(options) or '(defaults)'}: {rows} rows, byte-identical: {identical}")
        if not identical:
            failures.append(f"score tables differ with {' '.join(options) or 'the defaults'}")

    agreement = json.loads(run("agree-judgments", str(source), str(judgments), "--nuggets", str(nuggets),
                               "--format", "json").stdout)
    print("5. agree-judgments ORIGINAL CONVERTED --nuggets")
    for item in agreement["kinds"]:
        print(f"   {item['kind']}: n_a {item['n_a']}, n_b {item['n_b']}, overlap {item['overlap']}, "
              f"accuracy {item['accuracy']}")
        if not (item["n_a"] == item["n_b"] == item["overlap"] and item["accuracy"] == 1.0):
            failures.append(f"agree-judgments: {item['kind']} not all in common and agreeing")

    for failure in failures:
        print(f"FAILED: {failure}")
    print("all checks passed" if not failures else f"{len(failures)} check(s) failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
