"""Development check: the analyses of issue 31 on a real NeuCLIR 2024 round, end to end through the CLI.

The round: three Chinese report runs of NeuCLIR 2024 on all 59 topics, as ``hltcoe/rag-annotation-tool`` ships
them in ``resources/`` (``mini-test.report-sentences.json``: each run's sentences per topic;
``mini-test.citation-to-sentences.json``: which sentences cite which document; ``neuclir24-test-zho.requests.jsonl``:
the requests), read from a git mirror of that repository (``--mirror``, its git directory; nothing is copied into
the project). Two runs are one team's (``zho-jhu-orion-aggregated-w-claude`` and ``-w-gpt4o``), one another's
(``zho_irlab-ams-postcite``).

What is not there: the official NuggetBank v3 files exist offline only for six of the topics (300, 309, 335,
352, 372, 380: ``/work/shared/judge-dev/nuggets``), and the collection (``neuclir/1/zho``) is not available, so
only the 74 documents whose text the judge-dev judgments carry can be read. So the round is scored on those six
topics with the lexical judge and ``--nugget-scope all`` (a sentence's answers are matched against the nugget
answers without its cited document, which the judge does not need for that question) and ``--missing-judgments
zero`` (the ``attested`` questions about documents without text count as no; the warnings say how many): nugget
coverage is measured, citation support mostly is not. Replicates: the same judge at two other settings of its
thresholds (``answer_threshold`` 0.35 and 0.55): three judges of one round.

Steps, each an ``argue-eval`` call whose output lands under ``--out`` (default ``bench/out/round-real``): the runs
and a collection derived from the sources; ``evaluate`` x 3 (replicates); ``compare`` (runs, then the jhu runs as
one system), ``compare --replicates``; ``analyze power``, ``swaps``, ``topic-set-size``, ``reusability`` (teams by
``^zho[-_]([a-z]+)``), ``circularity`` (judge model Llama-3.3-70B-Instruct, Auto-ARGUE's, and GPT-4o to see a flag);
``report --figures --packets --flags --reusability``; then every packet file is scanned for the other team's run
ids and for sentences only the other team wrote. Prints what each step found.

    python bench/dev_round_real.py [--mirror /work/.mirror/hltcoe+rag-annotation-tool/repo] [--out bench/out/round-real]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ARGUE = [sys.executable, "-m", "argue_eval.cli"]
MIRROR = Path("/work/.mirror/hltcoe+rag-annotation-tool/repo")
SHARED = Path("/work/shared/judge-dev")
TEAM_PATTERN = r"^zho[-_]([a-z]+)"


def show(mirror: Path, path: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(mirror), "show", f"HEAD:{path}"], capture_output=True,
                          check=True).stdout


def derive(mirror: Path, shared: Path, out: Path) -> dict[str, list[dict]]:
    """The runs (canonical JSONL, sentences in id order, each with the documents that cite it), the requests and
    the collection of every document whose text the judge-dev judgments carry."""
    sentences = json.loads(show(mirror, "resources/mini-test.report-sentences.json"))
    citing = json.loads(show(mirror, "resources/mini-test.citation-to-sentences.json"))
    runs: dict[str, list[dict]] = {}
    for topic, by_run in sentences.items():
        for run, texts in by_run.items():
            cites: dict[str, list[str]] = {}
            for doc_id, cited_by in citing.get(topic, {}).items():
                for sentence_id in cited_by.get(run, {}):
                    cites.setdefault(sentence_id, []).append(doc_id)
            runs.setdefault(run, []).append({
                "run_id": run, "request_id": topic, "collection_ids": ["neuclir/1/zho"],
                "sentences": [{"text": texts[k], "citations": cites.get(k, [])} for k in sorted(texts, key=int)]})
    (out / "runs").mkdir(parents=True, exist_ok=True)
    for run, records in runs.items():
        (out / "runs" / f"{run}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    (out / "requests.jsonl").write_bytes(show(mirror, "resources/neuclir24-test-zho.requests.jsonl"))
    documents: dict[str, str] = {}
    for line in (shared / "autoargue-llama70b.dev.judgments.jsonl").read_text(encoding="utf-8").splitlines():
        for segment in json.loads(line)["judgments"]:
            for citation in segment.get("citations", []):
                if citation.get("text"):
                    documents.setdefault(citation["doc_id"], citation["text"])
    (out / "collection.jsonl").write_text("".join(json.dumps({"doc_id": d, "text": t}) + "\n"
                                                  for d, t in sorted(documents.items())), encoding="utf-8")
    return runs


def argue(*args: object, out: Path, check: bool = True) -> str:
    started = time.monotonic()
    result = subprocess.run([*ARGUE, *map(str, args)], cwd=out, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise SystemExit(f"argue-eval {' '.join(map(str, args))} exited {result.returncode}:\n{result.stderr}")
    print(f"$ argue-eval {' '.join(map(str, args))}  ({time.monotonic() - started:.1f} s)")
    return result.stdout + result.stderr


def leaks(packets: Path, runs: dict[str, list[dict]], team_of) -> list[str]:
    """Every (file, run id or sentence) of a packet that belongs to another team's runs only."""
    found = []
    for folder in sorted(p for p in packets.iterdir() if p.is_dir()):
        team = folder.name
        own = {s["text"] for run, records in runs.items() if team_of(run) == team for r in records for s in r["sentences"]}
        others = {run for run in runs if team_of(run) != team}
        foreign = {s["text"] for run in others for r in runs[run] for s in r["sentences"]} - own
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix not in (".png", ".pdf")):
            text = path.read_text(encoding="utf-8")
            decoded = text.replace("\\u003c", "<").replace("\\u003e", ">").replace("\\u0026", "&").replace('\\"', '"')
            found += [f"{path}: run {run}" for run in others if run in text]
            found += [f"{path}: sentence {s[:40]!r}" for s in foreign if len(s) > 30 and s in decoded]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirror", type=Path, default=MIRROR, help="git directory of hltcoe/rag-annotation-tool")
    parser.add_argument("--shared", type=Path, default=SHARED)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "out" / "round-real")
    args = parser.parse_args()
    if not args.mirror.exists() or not args.shared.exists():
        print(f"needs {args.mirror} (fetch github:hltcoe/rag-annotation-tool) and {args.shared}; nothing done")
        return
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    runs = derive(args.mirror, args.shared, out)
    print(f"runs: {', '.join(f'{run} ({len(records)} topics)' for run, records in sorted(runs.items()))}")
    run_files = sorted(str(p) for p in (out / "runs").glob("*.jsonl"))
    common = ["--nuggets", args.shared / "nuggets", "--requests", "requests.jsonl", "--collection", "collection.jsonl",
              "--judge", "lexical", "--cache", "cache.sqlite", "--nugget-scope", "all", "--missing-judgments", "zero"]
    replicates = {"scores.tsv": [], "scores.a035.tsv": ["--judge-option", "lexical.answer_threshold=0.35"],
                  "scores.a055.tsv": ["--judge-option", "lexical.answer_threshold=0.55"]}
    for name, options in replicates.items():
        text = argue("evaluate", *[a for run in run_files for a in ("--run", run)], *common, *options, "-o", name,
                     *(["--details", "details.jsonl"] if name == "scores.tsv" else []), "-q", out=out)
        print("\n".join(line for line in text.splitlines() if line.startswith("warning"))[:400])
    for metric in ("nugget_coverage", "f1"):
        print(argue("compare", "scores.tsv", "-m", metric, "--table", "systems", "--resamples", "10000", out=out))
    jhu = [a for run in runs if run.startswith("zho-jhu") for a in ("--system", f"{run}=jhu-orion")]
    print(argue("compare", "scores.tsv", "-m", "nugget_coverage", *jhu, "--table", "systems", out=out))
    print(argue("compare", "--replicates", *replicates, "-m", "nugget_coverage", out=out))
    print(argue("analyze", "power", "scores.tsv", "-m", "nugget_coverage", "-m", "f1", "-m", "citation_relevance",
                "--curve", "asl.tsv", out=out))
    print(argue("analyze", "swaps", "scores.tsv", "-m", "nugget_coverage", "-m", "f1", out=out))
    print(argue("analyze", "topic-set-size", "scores.tsv", "-m", "nugget_coverage", "-m", "f1", "--delta", "0.05",
                "--delta", "0.1", out=out))
    argue("analyze", "reusability", *[a for run in run_files for a in ("--run", run)], "--nuggets",
          args.shared / "nuggets", "--judgments", _judgments(out), "--requests", "requests.jsonl", "--nugget-scope",
          "all", "--missing-judgments", "zero", "--team-pattern", TEAM_PATTERN, "-m", "nugget_coverage", "-m",
          "citation_relevance", "--format", "tsv", "-o", "reuse.tsv", "--details", "reuse.teams.json", out=out)
    print((out / "reuse.tsv").read_text())
    for team in json.loads((out / "reuse.teams.json").read_text()):
        print(f"  {team['team']}: {sum(map(len, team['unique_documents'].values()))} unique document(s), "
              f"{len(team['removed_answers'])} answer(s) and {len(team['removed_nuggets'])} nugget(s) bound only to them")
    print(argue("analyze", "circularity", *[a for run in run_files for a in ("--run", run)], "--judge-model",
                "meta-llama/Llama-3.3-70B-Instruct", "--judge-model", "gpt-4o", "--format", "tsv", "-o", "flags.tsv",
                out=out))
    print((out / "flags.tsv").read_text())
    print(argue("report", "--scores", "scores.tsv", "--details", "details.jsonl", "--nuggets", args.shared / "nuggets",
                "--requests", "requests.jsonl", "--collection", "collection.jsonl", "--measure", "nugget_coverage",
                "--flags", "flags.tsv", "--reusability", "reuse.tsv", "--figures", "figures", "--packets", "packets",
                "--team-pattern", TEAM_PATTERN, "-o", "report.html", out=out))
    import re

    team_of = lambda run: re.match(TEAM_PATTERN, run).group(1)  # noqa: E731
    found = leaks(out / "packets", runs, team_of)
    print(f"packets: {sorted(p.name for p in (out / 'packets').iterdir())}; leaks found: {len(found)}")
    for item in found[:20]:
        print("  ", item)
    print(f"figures: {sorted(p.name for p in (out / 'figures').glob('*.png'))}")


def _judgments(out: Path) -> Path:
    """The lexical judge's judgments of the round (written once from its cache by `judge`)."""
    path = out / "judgments.jsonl"
    if not path.exists():
        run_files = sorted(str(p) for p in (out / "runs").glob("*.jsonl"))
        argue("judge", *[a for run in run_files for a in ("--run", run)], "--nuggets", SHARED / "nuggets",
              "--requests", "requests.jsonl", "--collection", "collection.jsonl", "--judge", "lexical", "--cache",
              "cache.sqlite", "--nugget-scope", "all", "-o", path.name, "-q", out=out, check=False)
    return path


if __name__ == "__main__":
    main()
