"""Development check: the HTML report of a real past round, opened in headless Chromium and photographed.

The round is the judge development set in ``/work/shared/judge-dev/`` (see its README): one NeuCLIR 2024
report on six topics, judged by Auto-ARGUE with Llama-3.3-70B, the six topics' NuggetBank v3 files, and the
cited documents' text inside the judgments. The data carry no licence, so they are read from there at run
time and nothing is copied into the repository: the collection and requests this script derives from them
(documents from ``citations[].text``, requests from the v3 files' ``title_query``/``full_query``/
``full_background``) are written under ``--out`` (default ``/tmp/inputs2/real-report``).

Steps: the report as a run file through ``validate --track ragtime25`` (it must pass; copies stripped of
required fields must not); ``argue-eval score`` from the 70B judgments (``--details``), ``argue-eval report`` with the judgments,
nuggets, requests and collection, then Chromium (tests/cdp.py) opens the page and every view (leaderboard,
topics heatmap, a report as running text with its cited documents and its "why" and document boxes open,
the nugget view, about) and saves a screenshot of each. It checks that no script error was logged and that nothing but the file itself was
requested, and prints what it saw in numbers (rows, sentences per outcome, covered nuggets, the report's counts,
citation markers and cited documents, and why each uncovered nugget is uncovered).

    python bench/dev_report_real.py [--shared /work/shared/judge-dev] [--out /tmp/inputs2/real-report]

Without the shared directory it says so and exits 0 (it is a development script, not a test).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
ARGUE = [sys.executable, "-m", "argue_eval.cli"]
SHARED = Path("/work/shared/judge-dev")


def derive_inputs(shared: Path, out: Path) -> tuple[Path, Path, Path, Path]:
    """The judgments file, the v3 nugget directory, and (written under ``out``) the collection and requests."""
    judgments = shared / "autoargue-llama70b.dev.judgments.jsonl"
    nuggets = shared / "nuggets"
    documents: dict[str, str] = {}
    for line in judgments.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        for judgment in record.get("judgments", []):
            for citation in judgment.get("citations", []) if isinstance(judgment, dict) else []:
                if isinstance(citation, dict) and citation.get("doc_id") and citation.get("text"):
                    documents.setdefault(citation["doc_id"], citation["text"])
        _collect_texts(record, documents)
    collection = out / "collection.jsonl"
    collection.write_text("".join(json.dumps({"doc_id": d, "text": t}) + "\n" for d, t in sorted(documents.items())),
                          encoding="utf-8")
    requests = out / "requests.jsonl"
    lines = []
    for path in sorted(nuggets.glob("nuggets_*.v3.json")):
        bank = json.loads(path.read_text(encoding="utf-8"))
        lines.append(json.dumps({"request_id": str(bank["query_id"]), "title": bank.get("title_query", ""),
                                 "background": bank.get("full_background", ""),
                                 "problem_statement": bank.get("full_query", ""), "collection_ids": ["neuclir/1/mt"],
                                 "limit": 2000}))
    requests.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return judgments, nuggets, collection, requests


def _collect_texts(obj: object, documents: dict[str, str]) -> None:
    """Every ``{doc_id, text}`` object anywhere in an Auto-ARGUE judgment line (the cited documents' text)."""
    if isinstance(obj, dict):
        if isinstance(obj.get("doc_id"), str) and isinstance(obj.get("text"), str) and len(obj["text"]) > 200:
            documents.setdefault(obj["doc_id"], obj["text"])
        for value in obj.values():
            _collect_texts(value, documents)
    elif isinstance(obj, list):
        for value in obj:
            _collect_texts(value, documents)


def run(command: list[str]) -> None:
    result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command[2:5])} ... failed ({result.returncode}):\n{result.stdout}{result.stderr}")
    if result.stderr.strip():
        print(result.stderr.strip())


def check_track_preset(judgments: Path, requests: Path, out: Path) -> None:
    """The real report as a run file validates under ``--track ragtime25`` (its shape); copies stripped of each
    field the RAGTIME validator requires are errors, each at its line and field."""
    reports = [json.loads(line)["report"] for line in judgments.read_text(encoding="utf-8").splitlines()]
    run_file = out / "real-run.jsonl"
    run_file.write_text("".join(json.dumps(report) + "\n" for report in reports), encoding="utf-8")
    clean = subprocess.run(ARGUE + ["validate", str(run_file), "--requests", str(requests), "--track", "ragtime25"],
                           cwd=REPO, capture_output=True, text=True, check=False)
    print(f"validate --track ragtime25 (real run): exit {clean.returncode}: {clean.stdout.strip().splitlines()[-1]}")
    stripped = [json.loads(json.dumps(report)) for report in reports[:4]]
    del stripped[0]["metadata"]["team_id"]
    del stripped[1]["references"]
    del stripped[2]["metadata"]["run_id"]
    del stripped[3]["responses"][0]["citations"]
    bad_file = out / "real-run.stripped.jsonl"
    bad_file.write_text("".join(json.dumps(report) + "\n" for report in stripped), encoding="utf-8")
    bad = subprocess.run(ARGUE + ["validate", str(bad_file), "--track", "ragtime25"], cwd=REPO, capture_output=True,
                         text=True, check=False)
    wanted = ["1: metadata.team_id:", "2: references:", "3: metadata.run_id:", "4: responses[0].citations:"]
    found = [w for w in wanted if any(line.startswith(f"{bad_file}:{w}") for line in bad.stdout.splitlines())]
    print(f"validate --track ragtime25 (stripped copy): exit {bad.returncode}; {len(found)} of {len(wanted)} "
          "stripped fields reported as errors")
    if clean.returncode != 0 or bad.returncode != 1 or found != wanted:
        raise SystemExit(f"track preset check failed:\n{clean.stdout}{bad.stdout}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=SHARED)
    parser.add_argument("--out", type=Path, default=Path("/tmp/inputs2/real-report"))
    args = parser.parse_args()
    if not (args.shared / "autoargue-llama70b.dev.judgments.jsonl").is_file():
        print(f"skipped: {args.shared} is absent (the judge development set is not shipped with the project)")
        return
    args.out.mkdir(parents=True, exist_ok=True)
    judgments, nuggets, collection, requests = derive_inputs(args.shared, args.out)
    scores, details, page = args.out / "scores.tsv", args.out / "details.jsonl", args.out / "report.html"
    run(ARGUE + ["score", "--judgments", str(judgments), "--nuggets", str(nuggets), "--requests", str(requests),
                 "-o", str(scores), "--details", str(details), "--quiet"])
    run(ARGUE + ["report", "--scores", str(scores), "--details", str(details), "--nuggets", str(nuggets),
                 "--requests", str(requests), "--judgments", str(judgments), "--collection", str(collection),
                 "--title", "NeuCLIR 2024 (judge-dev, Llama-3.3-70B judgments)", "--resamples", "2000", "-o", str(page)])
    print(f"report: {page} ({page.stat().st_size:,} bytes)")
    check_track_preset(judgments, requests, args.out)

    from cdp import Browser, find_browser

    if find_browser() is None:
        print("no Chromium on this machine: the page was built but not opened")
        return
    shots = args.out / "screenshots"
    shots.mkdir(exist_ok=True)
    with Browser(args.out / "chromium") as browser:
        browser.open(page)
        rows = browser.evaluate("Array.from(document.querySelectorAll('#leaderboard-table tbody tr')).map(r => r.dataset.run)")
        print(f"leaderboard rows: {rows}")
        browser.screenshot(shots / "1-leaderboard.png")
        browser.evaluate("location.hash = '#topics'")
        browser.wait_for("document.querySelector('#heatmap') !== null")
        topics = browser.evaluate("document.querySelectorAll('#heatmap thead th.topic-head').length")
        print(f"heatmap: {topics} topic columns")
        browser.screenshot(shots / "2-topics.png")
        first = json.loads(details.read_text(encoding="utf-8").splitlines()[0])
        browser.evaluate(f"location.hash = '#report/{first['run_id']}/{first['request_id']}'")
        browser.wait_for("document.getElementById('s0') !== null")
        outcomes = browser.evaluate("Array.from(document.querySelectorAll('#sentences > li')).map(li => li.dataset.outcome)")
        print(f"report {first['run_id']}/{first['request_id']}: sentences per outcome {dict(sorted(Counter(outcomes).items()))}")
        covered = browser.evaluate("Array.from(document.querySelectorAll('#report-nuggets > li')).map(li => li.className)")
        print(f"  nuggets: {dict(Counter(covered))}")
        counts = browser.evaluate("document.getElementById('report-counts').textContent")
        print(f"  counts: {counts}")
        markers = browser.evaluate("document.querySelectorAll('#report-text a.cite').length")
        docs = browser.evaluate("document.querySelectorAll('#cited-docs > li').length")
        print(f"  running text: {markers} citation markers, {docs} cited documents listed")
        for line in browser.evaluate("Array.from(document.querySelectorAll('#report-nuggets .why-uncovered')).map(d => d.textContent)"):
            print(f"  uncovered: {line}")
        browser.screenshot(shots / "3-report.png")
        browser.evaluate("document.getElementById('report-text').scrollIntoView()")
        browser.screenshot(shots / "3-report-text.png", full_page=False)
        browser.evaluate("document.querySelectorAll('#sentences details').forEach(d => d.open = true)")
        browser.screenshot(shots / "4-report-open.png")
        browser.evaluate(f"location.hash = '#nuggets/{first['request_id']}'")
        browser.wait_for("document.querySelector('#nugget-table') !== null")
        count = browser.evaluate("document.querySelectorAll('#nugget-table tbody tr').length")
        print(f"nugget view: {count} nuggets")
        browser.screenshot(shots / "5-nuggets.png")
        browser.evaluate("location.hash = '#about'")
        browser.wait_for("document.querySelector('#view-about h2') !== null")
        browser.screenshot(shots / "6-about.png")
        errors = browser.errors()
        schemes = sorted({url.split(":", 1)[0] for url in browser.requests()})
    print(f"script errors: {errors or 'none'}; URL schemes requested: {schemes}")
    print(f"screenshots: {shots}")
    if errors or schemes != ["file"]:
        raise SystemExit("the page logged script errors or requested something other than itself")


if __name__ == "__main__":
    main()
