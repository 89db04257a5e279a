"""The nugget authoring page's height in Chromium (1280x800) on a topic with a large bank.

Issue 32 measured the page at 18,429 px on a real topic with 117 bindings; it must stay within two screens.
A synthetic topic of that size is generated into bench/out/nugget-page/ (``--nuggets`` nuggets with
``--answers`` answers over 40 pooled documents, ``--bindings`` answer-document bindings in all, spread
unevenly as a real bank's are: a few documents attest many answers), a round is made with ``assess init``,
``assess serve`` runs on loopback, and the page is opened on three documents: one no answer is bound to,
the median one, and the one most answers are bound to (the page unfolds the nuggets bound to the open
document). Printed for each: the page's height in px and in screens, where the new-nugget form starts, and
whether the keys line is on screen (at the top and at the foot of the page), and the bank's own height (it
scrolls in its pane); then the same with every nugget unfolded (``e``); then the sample track's s01 (7 nuggets)
with nw-0004 open, the figure docs/assessment.md gives.

    python bench/bench_nugget_page.py
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))
OUT = REPO / "bench" / "out" / "nugget-page"
CLI = [sys.executable, "-m", "argue_eval.cli"]
PASSWORD = "a long enough password"
WIDTH, HEIGHT = 1280, 800


def cli(*args: object) -> str:
    result = subprocess.run([*CLI, *map(str, args)], capture_output=True, text=True, cwd=REPO)
    if result.returncode != 0:
        raise RuntimeError(f"argue-eval {' '.join(map(str, args))}: {result.stderr.strip()}")
    return result.stdout + result.stderr


def generate(nuggets: int, answers: int, bindings: int, seed: int = 3) -> list[str]:
    """The topic's files; the pooled documents, in pool order."""
    rng = random.Random(seed)
    words = ("river plant water pump flood storm town council notice health report inspector minister "
             "province budget contract station railway bridge harbour school hospital").split()
    docs = [f"d{k:02d}" for k in range(40)]
    OUT.mkdir(parents=True)
    (OUT / "requests.jsonl").write_text(json.dumps({
        "request_id": "t1", "title": "Flood defences in the province", "background": "A reader follows the "
        "province's flood defence works.", "problem_statement": "What was built, by whom, at what cost, and "
        "what failed?", "limit": 100000}) + "\n")
    with open(OUT / "collection.jsonl", "w") as out:
        for doc in docs:
            text = " ".join(" ".join(rng.choice(words) for _ in range(18)).capitalize() + "." for _ in range(30))
            out.write(json.dumps({"doc_id": doc, "title": f"Report {doc}", "text": text}) + "\n")
    sentences = [{"text": f"Sentence {k} about {' '.join(rng.choice(words) for _ in range(10))}.",
                  "citations": [docs[k]]} for k in range(len(docs))]
    (OUT / "run.jsonl").write_text(json.dumps({"run_id": "r1", "request_id": "t1", "sentences": sentences}) + "\n")
    # answers per nugget: at least one each, the rest at random; bindings per answer: at least one each, the
    # rest to answers at random; documents drawn with a skew (document k weighs 1 / (k + 1))
    per_nugget = [1] * nuggets
    for _ in range(answers - nuggets):
        per_nugget[rng.randrange(nuggets)] += 1
    per_answer = [1] * answers
    for _ in range(bindings - answers):
        per_answer[rng.randrange(answers)] += 1
    weights = [1 / (k + 1) for k in range(len(docs))]
    bank, a = [], 0
    for n in range(nuggets):
        given = []
        for _ in range(per_nugget[n]):
            chosen: set[str] = set()
            while len(chosen) < min(per_answer[a], len(docs)):
                chosen.add(rng.choices(docs, weights)[0])
            given.append({"answer": " ".join(rng.choice(words) for _ in range(rng.randint(2, 6))),
                          "doc_ids": sorted(chosen)})
            a += 1
        bank.append({"nugget_id": f"t1-n{n + 1}", "question": f"Question {n + 1}: what did the "
                     f"{rng.choice(words)} {rng.choice(words)} {rng.choice(words)} do about the "
                     f"{rng.choice(words)}?", "importance": rng.choice(["vital", "okay"]),
                     "aggregator": "OR", "negative": False, "answers": given})
    (OUT / "nuggets.jsonl").write_text(json.dumps({"request_id": "t1", "nuggets": bank}) + "\n")
    return docs


MEASURE = ("(() => { const keys = document.querySelector('footer.keys').getBoundingClientRect();"
           " return [document.documentElement.scrollHeight,"
           " document.getElementById('new-nugget').getBoundingClientRect().top + scrollY,"
           " keys.top >= 0 && keys.bottom <= innerHeight + 1,"
           " document.querySelectorAll('details.nugget-fold[open]').length,"
           " document.getElementById('bank').scrollHeight]; })()")


def round_of(name: str, *init: object) -> tuple[Path, str]:
    """A round (``assess init`` with ``init``) with alice assigned every topic; her one-time password."""
    db = OUT / f"{name}.sqlite"
    cli("assess", "init", "--db", db, *init)
    one_time = cli("assess", "users", "add", "alice", "--db", db).split("one-time password ")[1].split()[0]
    topics = sorted({json.loads(line)["request_id"] for line in Path(REPO, init[init.index("--requests") + 1])
                     .read_text().splitlines()})
    cli("assess", "assign", "--db", db, "--topics", ",".join(topics), "--to", "alice")
    return db, one_time


def measure(browser, db: Path, one_time: str, pages: list[tuple[str, str]], unfold: bool,
            screenshot: Path | None = None) -> list[tuple[str, list]]:
    """``assess serve`` on ``db``; each page of ``pages`` (label, path) measured; then, with ``unfold``, the last
    one with every nugget unfolded (``e``)."""
    from workbench_serve import served

    rows = []
    with served(db, OUT / f"{db.stem}.server.log") as port:
        base = f"http://127.0.0.1:{port}"

        def go(path: str) -> None:
            browser.evaluate("document.body && document.body.removeAttribute('data-ready')")
            browser.call("Page.navigate", {"url": base + path})
            browser.wait_for("document.readyState === 'complete' && document.body && "
                             "document.body.dataset.ready === '1'", 60)

        def submit(form: str) -> None:
            browser.evaluate(f"document.body.removeAttribute('data-ready'); document.getElementById('{form}').submit()")
            browser.wait_for("document.readyState === 'complete' && document.body && "
                             "document.body.dataset.ready === '1'", 60)

        go("/login")
        browser.evaluate(f"document.getElementById('name').value = 'alice';"
                         f"document.getElementById('password').value = {json.dumps(one_time)}")
        submit("login-form")
        browser.evaluate(f"document.getElementById('new-password').value = {json.dumps(PASSWORD)};"
                         f"document.getElementById('again').value = {json.dumps(PASSWORD)}")
        submit("password-form")
        for label, path in pages:
            go(path)
            values = browser.evaluate(MEASURE)
            browser.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
            values[2] = values[2] and browser.evaluate(MEASURE)[2]  # the keys line on screen at the top and the foot
            rows.append((label, values))
        if screenshot:
            browser.evaluate("window.scrollTo(0, 0)")
            browser.screenshot(screenshot, full_page=True)
        if unfold:
            browser.evaluate("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'e'}))")
            rows.append(("every nugget unfolded (e)", browser.evaluate(MEASURE)))
        browser.evaluate("document.body.removeAttribute('data-ready'); document.getElementById('logout').click()")
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nuggets", type=int, default=30)
    parser.add_argument("--answers", type=int, default=60)
    parser.add_argument("--bindings", type=int, default=117)
    parser.add_argument("--screenshot", type=Path, help="a PNG of the page on the most-bound document")
    args = parser.parse_args()
    from cdp import Browser

    shutil.rmtree(OUT, ignore_errors=True)
    docs = generate(args.nuggets, args.answers, args.bindings)
    bank = json.loads((OUT / "nuggets.jsonl").read_text())["nuggets"]
    bound: dict[str, set[str]] = {}
    total = 0
    for nugget in bank:
        for answer in nugget["answers"]:
            total += len(answer["doc_ids"])
            for doc in answer["doc_ids"]:
                bound.setdefault(doc, set()).add(nugget["nugget_id"])
    ranked = sorted(docs, key=lambda d: (len(bound.get(d, ())), d))
    chosen = [(f"bound to nothing ({ranked[0]})", ranked[0]),
              (f"the median ({ranked[len(ranked) // 2]}, {len(bound.get(ranked[len(ranked) // 2], ()))} nuggets)",
               ranked[len(ranked) // 2]),
              (f"the most-bound ({ranked[-1]}, {len(bound[ranked[-1]])} nuggets)", ranked[-1])]
    big = round_of("big", "--requests", OUT / "requests.jsonl", "--collection", OUT / "collection.jsonl",
                   "--run", OUT / "run.jsonl", "--nuggets", OUT / "nuggets.jsonl")
    sample = round_of("sample", "--requests", "topics/sample/requests.jsonl", "--collection",
                      "topics/sample/collection.jsonl", "--run", "runs/sample/careful.jsonl", "--run",
                      "runs/sample/hallucinating.jsonl", "--nuggets", "nuggets/sample/nuggets.jsonl")
    with Browser(OUT / "chromium", width=WIDTH, height=HEIGHT, loopback=True) as browser:
        rows = measure(browser, *big, [(label, f"/t/t1/nuggets?doc={doc}") for label, doc in chosen], True,
                       args.screenshot)
        sample_rows = measure(browser, *sample, [("sample s01, nw-0004 open", "/t/s01/nuggets?doc=nw-0004")], False)
        errors = browser.errors()
    print(f"topic t1: {len(bank)} nuggets, {sum(len(n['answers']) for n in bank)} answers, {total} bindings "
          f"over {len(docs)} pooled documents; Chromium {WIDTH}x{HEIGHT}")
    print(f"{'open document':<36} {'nuggets open':>12} {'height px':>9} {'screens':>7} {'form at px':>10} "
          f"{'keys shown':>10} {'bank px':>8}")
    worst = 0
    for label, (height, form_at, keys, opened, inner) in rows + sample_rows:
        worst = max(worst, height)
        print(f"{label:<36} {opened:>12} {height:>9} {height / HEIGHT:>7.2f} {form_at:>10.0f} {str(keys):>10} {inner:>8}")
    print(f"tallest: {worst} px = {worst / HEIGHT:.2f} screens of {HEIGHT} px ({'within' if worst <= 2 * HEIGHT else 'MORE than'} "
          "two); bank px: the bank's own height, scrolled in its pane")
    if errors:
        print("script errors:", *errors, sep="\n  ")
    return 0 if worst <= 2 * HEIGHT and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
