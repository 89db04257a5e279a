"""Do the measure commands write the same bytes as at another revision? (a development check, not a test)

A refactor that moves code (the measures' Python API, the readers of ``inputs``) must not change what the
commands write. This script runs ``icat``, ``longrecall``, ``comprehensiveness``, ``nuggetizer`` and
``retrieval`` on the shipped sample track, with the offline defaults and a few options each (and a scripted
LLM endpoint, tests/llm_server.py on 127.0.0.1, for the LLM variants), once with the code of each revision,
and compares every file they leave, byte for byte (``cmp``): the score table, the details, stdout, stderr and
the exit code. Both revisions read the same inputs (this checkout's sample track and the few small files
written here), through the same relative paths, so a message naming a file reads the same.

    .venv/bin/python bench/dev_outputs_unchanged.py against main      # main's code vs this checkout's
    .venv/bin/python bench/dev_outputs_unchanged.py record OUT [--code DIR]
    .venv/bin/python bench/dev_outputs_unchanged.py compare OUT_A OUT_B

``against REV`` extracts REV with ``git archive`` into a temporary folder (no git state changes), records
both sides under ``--keep DIR`` (default: a temporary folder, removed) and prints the cases whose outputs
differ, with a unified diff of each differing text file; it exits 1 when any differs. Cases listed in
``EXPECTED`` are changes made on purpose; they are printed with their reason and do not fail the check.
"""
from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

RUNS = [f"../track/runs/sample/{name}.jsonl" for name in
        ("careful", "hallucinating", "misses-topics", "no-citations", "too-long", "wrong-cites")]
RANKED = [f"../track/runs/sample/ranked/{name}.trec" for name in ("bm25", "bm25-title", "minilm")]
NUGGETS = "../track/nuggets/sample/nuggets.jsonl"
REQUESTS = "../track/topics/sample/requests.jsonl"
COLLECTION = "../track/topics/sample/collection.jsonl"
QRELS = "../track/qrels/sample/qrels.trec"
LLM = "{llm}"
"""Stands for the scripted endpoint's options: ``--judge-option llm.base_url=... llm.model=...``."""
LLM_FAILING = "{llm-failing}"
"""The same, for an endpoint whose every call answers HTTP 500 (no retries)."""

CASES: dict[str, list[str]] = {
    # ICAT
    "icat-nuggets": ["icat", "--run", *RUNS, "--nuggets", NUGGETS, "--collection", COLLECTION, "-o", "icat.tsv",
                     "--details", "icat.jsonl", "--no-cache"],
    "icat-stdout": ["icat", *RUNS, "--nuggets", NUGGETS, "--collection", COLLECTION, "-o", "-", "--no-cache"],
    "icat-request-aspects": ["icat", "--run", *RUNS, "--requests", REQUESTS, "--collection", COLLECTION,
                             "-o", "icat.tsv", "--details", "icat.jsonl", "--no-cache", "--beta", "2", "-k", "5"],
    "icat-nuggets-requests": ["icat", "--run", *RUNS, "--nuggets", NUGGETS, "--requests", "../inputs/requests-3.jsonl",
                              "--collection", COLLECTION, "-o", "icat.tsv", "--details", "icat.jsonl", "--no-cache",
                              "--missing-topics", "skip"],
    "icat-qrels": ["icat", "--run", *RUNS, "--qrels", "../inputs/subtopics.qrels", "--aspects", "qrels",
                   "--collection", COLLECTION, "-o", "icat.tsv", "--details", "icat.jsonl", "--no-cache",
                   "--passage-words", "64", "--passage-overlap", "16"],
    "icat-judge-alignment": ["icat", "--run", RUNS[0], "--nuggets", NUGGETS, "--collection", COLLECTION,
                             "--alignment", "judge", "-o", "icat.tsv", "--details", "icat.jsonl", "--no-cache"],
    "icat-llm": ["icat", "--run", RUNS[0], "--run", RUNS[2], "--requests", REQUESTS, "--collection", COLLECTION,
                 "--claims", "llm", "--aspects", "llm", "-o", "icat.tsv", "--details", "icat.jsonl", "--no-cache", LLM],
    "icat-llm-failing": ["icat", "--run", RUNS[0], "--nuggets", NUGGETS, "--collection", COLLECTION,
                         "--judge", "llm", "-o", "icat.tsv", "--details", "icat.jsonl", "--no-cache", LLM_FAILING],
    "icat-two-reports": ["icat", "--run", RUNS[0], "--run", "../inputs/careful-again.jsonl", "--nuggets", NUGGETS,
                         "--collection", COLLECTION, "-o", "icat.tsv", "--no-cache"],
    "icat-no-requests": ["icat", "--run", RUNS[0], "--aspects", "llm", "--collection", COLLECTION, "-o", "x.tsv"],
    "icat-overlap": ["icat", "--run", RUNS[0], "--nuggets", NUGGETS, "--collection", COLLECTION, "-o", "x.tsv",
                     "--passage-words", "16", "--passage-overlap", "16"],
    # LongRecall
    "longrecall-nuggets": ["longrecall", "--run", *RUNS, "--nuggets", NUGGETS, "-o", "longrecall.tsv",
                           "--details", "longrecall.jsonl", "--no-cache"],
    "longrecall-stdout": ["longrecall", *RUNS, "--nuggets", NUGGETS, "-o", "-", "--no-cache"],
    "longrecall-answers": ["longrecall", "--run", *RUNS, "--nuggets", NUGGETS, "--fact-unit", "answer",
                           "--missing-topics", "skip", "--jaccard-threshold", "0.2", "-o", "longrecall.tsv",
                           "--details", "longrecall.jsonl", "--no-cache"],
    "longrecall-reference": ["longrecall", "--run", *RUNS[1:], "--reference", RUNS[0], "-o", "longrecall.tsv",
                             "--details", "longrecall.jsonl", "--no-cache"],
    "longrecall-llm": ["longrecall", "--run", RUNS[0], "--run", RUNS[2], "--nuggets", NUGGETS, "--judge", "llm",
                       "--claims", "llm", "-o", "longrecall.tsv", "--details", "longrecall.jsonl", "--no-cache", LLM],
    "longrecall-llm-failing": ["longrecall", "--run", RUNS[0], "--nuggets", NUGGETS, "--judge", "llm",
                               "-o", "longrecall.tsv", "--details", "longrecall.jsonl", "--no-cache", LLM_FAILING],
    "longrecall-both": ["longrecall", "--run", RUNS[0], "--nuggets", NUGGETS, "--reference", RUNS[1], "-o", "x.tsv"],
    "longrecall-two-references": ["longrecall", "--run", RUNS[1], "--reference", "../inputs/careful-twice.jsonl",
                                  "-o", "x.tsv", "--no-cache"],
    # comprehensiveness
    "comprehensiveness-nuggets": ["comprehensiveness", "--run", *RUNS, "--nuggets", NUGGETS,
                                  "-o", "comprehensiveness.tsv", "--details", "comprehensiveness.jsonl", "--no-cache"],
    "comprehensiveness-stdout": ["comprehensiveness", *RUNS, "--nuggets", NUGGETS, "-o", "-", "--no-cache",
                                 "--min-overlap", "0.2", "--missing-topics", "skip"],
    "comprehensiveness-context": ["comprehensiveness", "--run", *RUNS, "--context", "../inputs/context.jsonl",
                                  "-o", "comprehensiveness.tsv", "--details", "comprehensiveness.jsonl", "--no-cache"],
    "comprehensiveness-e2e": ["comprehensiveness", "--run", RUNS[0], "--run", RUNS[2], "--nuggets", NUGGETS, "--e2e",
                              "-o", "comprehensiveness.tsv", "--details", "comprehensiveness.jsonl", "--no-cache", LLM],
    "comprehensiveness-llm-claims": ["comprehensiveness", "--run", RUNS[0], "--nuggets", NUGGETS, "--claims", "llm",
                                     "-o", "comprehensiveness.tsv", "--details", "comprehensiveness.jsonl",
                                     "--no-cache", LLM],
    "comprehensiveness-llm-failing": ["comprehensiveness", "--run", RUNS[0], "--nuggets", NUGGETS, "--judge", "llm",
                                      "-o", "comprehensiveness.tsv", "--details", "comprehensiveness.jsonl",
                                      "--no-cache", LLM_FAILING],
    "comprehensiveness-bad-context": ["comprehensiveness", "--run", RUNS[0], "--context", "../inputs/bad-context.jsonl",
                                      "-o", "x.tsv"],
    # nuggetizer
    "nuggetizer-run": ["nuggetizer", "--run", *RUNS, "--nuggets", NUGGETS, "--collection", COLLECTION,
                       "-o", "nuggetizer.tsv", "--details", "nuggetizer.jsonl", "--no-cache"],
    "nuggetizer-assignments": ["nuggetizer", "../inputs/A.assignments.jsonl", "../inputs/B.assignments.jsonl",
                               "-o", "nuggetizer.tsv", "--details", "nuggetizer.jsonl", "--okay-weight", "0.25"],
    "nuggetizer-assignments-stdout": ["nuggetizer", "../inputs/A.assignments.jsonl", "-o", "-"],
    "nuggetizer-second-answer": ["nuggetizer", "../inputs/A.assignments.jsonl", "../inputs/A.assignments.jsonl",
                                 "-o", "x.tsv"],
    "nuggetizer-nothing": ["nuggetizer", "-o", "x.tsv"],
    # retrieval
    "retrieval-ranked": ["retrieval", "--qrels", QRELS, *RANKED, "-m",
                         "ndcg@10 recall@20 map P@5 bpref infAP ERR@10 judged@10 recip_rank Rprec f1@5 hits@5 success@5"],
    "retrieval-ranked-file": ["retrieval", "--qrels", QRELS, *RANKED, "-m", "ndcg@20 recall@100 map P@10",
                              "--missing", "skip", "-o", "retrieval.tsv"],
    "retrieval-cited": ["retrieval", "--qrels", QRELS, *RUNS, "-m", "ndcg@10,P@5,recall@10", "-o", "cited.tsv"],
    "retrieval-trec-eval": ["retrieval", "--qrels", QRELS, "--run", RANKED[0], "-m", "ndcg_cut_10 P_5 map",
                            "--trec-eval"],
    "retrieval-trec-eval-file": ["retrieval", "--qrels", QRELS, RANKED[1], "-m", "ndcg@10 map", "--trec-eval",
                                 "-o", "trec_eval.txt"],
    "retrieval-nuggets": ["retrieval", "--nuggets", NUGGETS, *RUNS, "-m", "ndcg@10 P@5"],
    "retrieval-diversity": ["retrieval", "--qrels", "../inputs/subtopics.qrels", "--diversity", *RANKED,
                            "-m", "alpha-nDCG@10 ERR-IA@10 nERR-IA@10 ndcg@10"],
    "retrieval-ranx": ["retrieval", "--qrels", QRELS, RANKED[0], "-m", "ndcg@10 map bpref dcg@5", "--engine", "ranx"],
    "retrieval-unknown-measure": ["retrieval", "--qrels", QRELS, RANKED[0], "-m", "ndgc@10"],
    "retrieval-no-runs": ["retrieval", "--qrels", QRELS],
    "retrieval-duplicate-qrels": ["retrieval", "--qrels", "../inputs/duplicate.qrels", RANKED[0]],
}

EXPECTED: dict[str, str] = {
    "icat-two-reports": "a run's second report for a topic is said by errors.second_report_error, the scorer's "
                        "message (issue 22: one message, not two)",
    "icat-llm-failing": "no silent success when nothing could be judged (issue 23 item 4): one warning per kind, "
                        "the summary flags the run, exit status 1",
    "longrecall-llm-failing": "no silent success when nothing could be judged (issue 23 item 4)",
    "comprehensiveness-llm-failing": "no silent success when nothing could be judged (issue 23 item 4)",
    "comprehensiveness-context": "context atoms numbered c1, c2, c3 in order (a topic's later atoms skipped ids)",
}
"""Cases whose output changes on purpose, with the reason (printed, not counted as a failure)."""


def write_inputs(folder: Path) -> None:
    """The small inputs the cases need beyond the sample track (the same bytes on every call)."""
    folder.mkdir(parents=True, exist_ok=True)

    def jsonl(name: str, records: list[dict]) -> None:
        (folder / name).write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")

    requests = [json.loads(line) for line in (REPO / "topics/sample/requests.jsonl").read_text().splitlines()]
    jsonl("requests-3.jsonl", requests[:3])
    reports = [json.loads(line) for line in (REPO / "runs/sample/careful.jsonl").read_text().splitlines()]
    jsonl("careful-again.jsonl", reports[:1])  # the same run id: a second report for s01
    jsonl("careful-twice.jsonl", [reports[0], reports[1], dict(reports[0], run_id="other")])
    jsonl("context.jsonl", [{"request_id": r["request_id"], "texts": [r["background"]]} for r in requests[:4]]
          + [{"request_id": "s01", "statements": ["E. coli was found in the tap water.", "The plant flooded."]}])
    jsonl("bad-context.jsonl", [{"request_id": "s01", "statements": "not a list"}])
    qrels = [line.split() for line in (REPO / "qrels/sample/qrels.trec").read_text().splitlines()]
    (folder / "subtopics.qrels").write_text(
        "".join(f"{t} {1 + i % 3} {d} {g}\n" for i, (t, _, d, g) in enumerate(qrels)), encoding="utf-8")
    (folder / "duplicate.qrels").write_text("s01 0 nw-0001 1\ns01 0 nw-0001 2\n", encoding="utf-8")
    grades = ["support", "partial_support", "not_support", "failed"]
    for run_id in ("A", "B"):
        answers = []
        for t, topic in enumerate(("s01", "s02", "s03")):
            nuggets = [{"text": f"{topic} nugget {n}", "importance": ("vital", "okay", "failed")[n % 3],
                        "assignment": grades[(n + t + len(run_id) * (run_id == "B")) % 4]} for n in range(6)]
            answers.append({"qid": topic, "run_id": run_id, "query": "q", "answer_text": "...", "nuggets": nuggets})
        jsonl(f"{run_id}.assignments.jsonl", answers)


def scripted_reply(n: int, body: dict) -> tuple:
    """A deterministic stand-in for a model: claims split at commas, aspects from the title, the first
    candidate, coverage and booleans from a hash of the prompt (tests/llm_server.py's deterministic_reply)."""
    from llm_server import _data, deterministic_reply, schema_keys

    data, keys = _data(body), schema_keys(body)
    if keys == ["claims"]:
        parts = [part.strip(" .") for part in data["sentence"].split(", ")]
        return ("content", json.dumps({"claims": [part + "." for part in parts if part][:12]}))
    if keys == ["aspects"]:
        words = data["request"]["title"].split()
        return ("content", json.dumps({"aspects": [" ".join(words[:i + 2]) for i in range(min(4, len(words)))]}))
    if keys == ["selected"]:
        return ("content", json.dumps({"selected": list(data["candidates"])[:1]}))
    if data.get("statements") is not None:
        return ("content", json.dumps({key: "covered" if hashlib.sha256((key + text).encode()).digest()[0] % 2
                                       else "uncovered" for key, text in data["statements"].items()}))
    return ("content", json.dumps(deterministic_reply(body)))


def record(out: Path, code: Path, only: list[str] | None = None) -> None:
    """Run every case with the ``argue_eval`` package found in ``code``; leave its files under ``out/CASE``."""
    from llm_server import MockChatServer

    out.mkdir(parents=True, exist_ok=True)
    track = out / "track"
    if not track.exists():
        track.symlink_to(REPO, target_is_directory=True)
    write_inputs(out / "inputs")
    env = {**os.environ, "PYTHONPATH": str(code), "ARGUE_EVAL_PROGRESS": "0", "COLUMNS": "120"}
    found = subprocess.run([sys.executable, "-c", "import argue_eval; print(argue_eval.__file__)"], env=env, cwd=out,
                           capture_output=True, text=True, check=True).stdout.strip()
    if not Path(found).resolve().is_relative_to(code.resolve()):
        raise SystemExit(f"the code under test is {found}, not under {code}")
    with ExitStack() as stack:
        good = stack.enter_context(MockChatServer(scripted_reply, model="scripted"))
        failing = stack.enter_context(MockChatServer(lambda n, body: ("status", 500, {}), model="scripted"))
        options = {LLM: good.base_url, LLM_FAILING: failing.base_url}
        for name, args in CASES.items():
            if only and name not in only:
                continue
            folder = out / name
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            argv: list[str] = []
            for arg in args:
                if arg in options:
                    argv += ["--judge-option", f"llm.base_url={options[arg]}", "--judge-option", "llm.model=scripted",
                             "--judge-option", "llm.max_retries=0", "--judge-option", "llm.concurrency=2"]
                else:
                    argv.append(arg)
            with tempfile.TemporaryDirectory() as numba:  # ranx's kernels compile (and warn) afresh in each case
                done = subprocess.run([sys.executable, "-m", "argue_eval.cli", *argv], cwd=folder,
                                      env={**env, "NUMBA_CACHE_DIR": numba}, capture_output=True)
            (folder / "stdout").write_bytes(done.stdout)
            (folder / "stderr").write_bytes(done.stderr)
            (folder / "exit").write_text(f"{done.returncode}\n")
            for path in folder.iterdir():  # the endpoints' ports differ from run to run
                text = path.read_bytes()
                for url, label in ((good.base_url, "http://LLM/v1"), (failing.base_url, "http://FAILING-LLM/v1")):
                    text = text.replace(url.encode(), label.encode())
                path.write_bytes(text)
            print(f"{name}: exit {done.returncode}", file=sys.stderr)


def compare(a: Path, b: Path, only: list[str] | None = None) -> int:
    """Print every case whose files differ (``cmp``), a diff of each differing text file; 1 if any unexpected."""
    unexpected = 0
    for name in CASES:
        if only and name not in only:
            continue
        left, right = a / name, b / name
        files = sorted({p.name for p in left.iterdir()} | {p.name for p in right.iterdir()})
        differing = [f for f in files if not (left / f).exists() or not (right / f).exists()
                     or subprocess.run(["cmp", "-s", str(left / f), str(right / f)]).returncode != 0]
        if not differing:
            print(f"same  {name} ({len(files)} files: {', '.join(files)})")
            continue
        reason = EXPECTED.get(name)
        unexpected += reason is None
        print(f"DIFF  {name}: {', '.join(differing)}" + (f"   [expected: {reason}]" if reason else ""))
        for f in differing:
            before = (left / f).read_text(errors="replace").splitlines() if (left / f).exists() else []
            after = (right / f).read_text(errors="replace").splitlines() if (right / f).exists() else []
            for line in list(difflib.unified_diff(before, after, f"{a.name}/{name}/{f}", f"{b.name}/{name}/{f}",
                                                  lineterm="", n=1))[:40]:
                print("      " + line)
    print(f"{unexpected} case(s) differ unexpectedly" if unexpected else "no unexpected difference")
    return 1 if unexpected else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="action", required=True)
    p = sub.add_parser("record", help="run every case, leave the outputs under OUT")
    p.add_argument("out", type=Path)
    p.add_argument("--code", type=Path, default=REPO, help="the checkout whose argue_eval runs (default: this one)")
    p.add_argument("--case", action="append", help="only these cases")
    p = sub.add_parser("compare", help="cmp two recorded folders")
    p.add_argument("a", type=Path)
    p.add_argument("b", type=Path)
    p.add_argument("--case", action="append", help="only these cases")
    p = sub.add_parser("against", help="record REV's code and this checkout's, then compare")
    p.add_argument("rev")
    p.add_argument("--keep", type=Path, default=None, help="leave both recordings here (REV/ and here/)")
    p.add_argument("--case", action="append", help="only these cases")
    args = parser.parse_args()
    if args.action == "record":
        record(args.out, args.code, args.case)
    elif args.action == "compare":
        raise SystemExit(compare(args.a, args.b, args.case))
    else:
        with tempfile.TemporaryDirectory(prefix="argue-outputs-") as temp:
            code = Path(temp) / "code"
            code.mkdir()
            archive = subprocess.run(["git", "-C", str(REPO), "archive", args.rev, "argue_eval"], check=True,
                                     capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(code)], input=archive, check=True)
            keep = args.keep or Path(temp)
            before, after = keep / args.rev.replace("/", "_"), keep / "here"
            record(before, code, args.case)
            record(after, REPO, args.case)
            raise SystemExit(compare(before, after, args.case))


if __name__ == "__main__":
    main()
