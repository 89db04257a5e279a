"""Benchmark: the HTML report of a TREC-size round: generation time, file size, and time to first render.

The round (100 runs x 50 topics x 20 sentences by default) is generated with bench_score.py's seeded
generator into bench/out/report-round/, then scored with `argue-eval score --details`. Figures, each as a
ratio to a baseline measured in the same run:

  generation    `argue-eval report` (all statistics for every measure, 10,000 resamples) vs `argue-eval score
                --details` of the same round (the step a user runs just before it)
  size          the HTML file vs the details JSONL it is built from
  first render  headless Chromium, navigate -> leaderboard drawn (the page's data-ready mark), vs the same
                file with the report script replaced by one that only parses the main data block (so the
                ratio is the cost of drawing, over loading and parsing the same bytes)
  report view   a click on a heatmap cell -> that report drawn (its topic block parsed on demand), in ms
  hostile       `argue-eval evaluate --html` on a hostile round (bench/hostile_round.py: long sentences of markup,
                U+2028 and control characters, 12 citations each, a 60-nugget bank of 6 answers each, long
                documents) vs the same `evaluate` without --html (issue 35, item 7: normalizing each sentence
                once per question made the page cost its length times its questions)

    python bench/bench_report.py                        # the full round
    python bench/bench_report.py --runs 20 --topics 10  # quicker
    python bench/bench_report.py --hostile-only         # only the hostile case
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "tests"))

from bench_score import generate  # noqa: E402  (the same seeded round as the scoring benchmark)

OUT = REPO / "bench" / "out" / "report-round"
ARGUE = [sys.executable, "-m", "argue_eval.cli"]


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def parse_only_page(page: Path, target: Path) -> None:
    """The same bytes with the report script swapped for one that parses the main data block and stops."""
    text = page.read_text(encoding="utf-8")
    start = text.rindex("<script>\n")
    stub = ("<script>\nJSON.parse(document.getElementById('report-data').textContent);"
            "document.body.setAttribute('data-ready', '1');\n</script>\n</body>\n</html>\n")
    target.write_text(text[:start] + stub, encoding="utf-8")


def first_render(browser, page: Path, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        browser.call("Page.navigate", {"url": "about:blank"})
        start = time.perf_counter()
        browser.open(page)
        best = min(best, time.perf_counter() - start)
    return best


def cpu_timed(command: list[str]) -> float:
    """User + system CPU seconds of the command (the machine may be shared: CPU time, not wall time)."""
    before = os.times()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def hostile(args: argparse.Namespace) -> None:
    """`evaluate --html` on a hostile round vs the same `evaluate` without --html, CPU seconds, best of N."""
    from hostile_round import generate as generate_hostile

    out = args.out / f"hostile-r{args.hostile_runs}"
    if not (out / "generated.json").exists():
        print(f"generating a hostile round of {args.hostile_runs} runs into {out} ...", file=sys.stderr)
        (out / "generated.json").write_text(json.dumps(generate_hostile(out, args.hostile_runs, 3, 40, 300, 12)))
    command = ARGUE + ["evaluate", "--nuggets", str(out / "nuggets.jsonl"), "--requests", str(out / "requests.jsonl"),
                       "--collection", str(out / "collection.jsonl"), "--no-cache", "-q", "-o", str(out / "scores.tsv")]
    for run in sorted((out / "runs").glob("*.jsonl")):
        command += ["--run", str(run)]
    plain_s = min(cpu_timed(command) for _ in range(args.repeat))
    html_s = min(cpu_timed(command + ["--html", str(out / "report.html")]) for _ in range(args.repeat))
    print(f"hostile round ({args.hostile_runs} runs x 3 topics x 40 sentences of 300 words, 12 citations each): "
          f"evaluate {plain_s:.1f} s CPU   evaluate --html {html_s:.1f} s CPU   ratio {html_s / plain_s:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--sentences", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3, help="best of N timings")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--hostile-only", action="store_true", help="only the hostile evaluate --html case")
    parser.add_argument("--hostile-runs", type=int, default=4, help="runs of the hostile round (3 topics x 40 "
                        "sentences of 300 words each)")
    args = parser.parse_args()
    hostile(args)
    if args.hostile_only:
        return
    out = args.out / f"r{args.runs}-t{args.topics}-s{args.sentences}"
    if not (out / "generated.json").exists():
        print(f"generating {args.runs} runs x {args.topics} topics x {args.sentences} sentences into {out} ...",
              file=sys.stderr)
        sizes = generate(out, args.runs, args.topics, args.sentences)
        (out / "generated.json").write_text(json.dumps(sizes))
    runs = [str(path) for path in sorted((out / "runs").glob("*.jsonl"))]
    score_cmd = ARGUE + ["score", "--nuggets", str(out / "nuggets.jsonl"), "--judgments", str(out / "judgments.jsonl"),
                         "-o", str(out / "scores.tsv"), "--details", str(out / "details.jsonl"), "--quiet"]
    for run in runs:
        score_cmd += ["--run", run]
    report_cmd = ARGUE + ["report", "--scores", str(out / "scores.tsv"), "--details", str(out / "details.jsonl"),
                          "--nuggets", str(out / "nuggets.jsonl"), "--judgments", str(out / "judgments.jsonl"),
                          "-o", str(out / "report.html"), "--quiet"]
    score_s = min(timed(score_cmd) for _ in range(args.repeat))
    report_s = min(timed(report_cmd) for _ in range(args.repeat))
    page = out / "report.html"
    html_bytes = page.stat().st_size
    details_bytes = (out / "details.jsonl").stat().st_size
    print(f"round: {args.runs} runs x {args.topics} topics x {args.sentences} sentences")
    print(f"score --details {score_s:.2f} s   report {report_s:.2f} s   report / score = {report_s / score_s:.2f}x")
    print(f"report.html {html_bytes / 2**20:.1f} MiB   details.jsonl {details_bytes / 2**20:.1f} MiB   "
          f"html / details = {html_bytes / details_bytes:.2f}x")

    from cdp import Browser, find_browser

    if find_browser() is None:
        print("no Chromium found: browser figures skipped (install Debian's chromium)")
        return
    baseline_page = out / "parse-only.html"
    parse_only_page(page, baseline_page)
    with Browser(out / "chromium") as browser:
        base_s = first_render(browser, baseline_page, args.repeat)
        render_s = first_render(browser, page, args.repeat)
        print(f"first render: report {render_s:.2f} s   parse-only page of the same bytes {base_s:.2f} s   "
              f"ratio {render_s / base_s:.2f}x")
        topic = json.loads(browser.evaluate("document.getElementById('report-data').textContent"))["topics"][-1]
        browser.evaluate("location.hash = '#topics'")
        browser.wait_for("document.querySelector('#heatmap') !== null")
        start = time.perf_counter()
        browser.evaluate(f"document.querySelector('#heatmap tbody tr td[data-topic=\"{topic}\"]').click()")
        browser.wait_for("document.getElementById('s0') !== null")
        view_ms = (time.perf_counter() - start) * 1000
        browser.screenshot(out / "report-view.png", full_page=False)
        browser.evaluate("location.hash = '#leaderboard'")
        browser.screenshot(out / "leaderboard.png", full_page=False)
        browser.evaluate("location.hash = '#topics'")
        browser.screenshot(out / "topics.png", full_page=False)
        errors = browser.errors()
    print(f"report view (heatmap click -> sentences drawn, topic block parsed on demand): {view_ms:.0f} ms")
    print(f"script errors: {len(errors)}" + (f" ({errors[:3]})" if errors else ""))


if __name__ == "__main__":
    main()
