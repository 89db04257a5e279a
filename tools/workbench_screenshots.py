"""Take the screenshots of docs/assessment.md: a round on the sample track in the workbench, in Chromium.

It builds a workbench on the sample track (careful and hallucinating, the sample bank, the offline lexical
judge's answers as suggestions), starts `argue-eval assess serve` on a free loopback port, and drives the
system Chromium over the DevTools protocol (tests/cdp.py): the topics page, nugget authoring with a text
selection, a citation item with the judge's suggestion and its passage marked, the citation stage by
document, a sentence item, a report item for an uncited
sentence, the report view with the answers so far, the admin's adjudication page and the people page with a
new user's login link. The PNGs go to docs/ (or --out).

    python tools/workbench_screenshots.py
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))
CLI = [sys.executable, "-m", "argue_eval.cli"]
PASSWORD = "a long enough password"


def run(*args: object) -> str:
    result = subprocess.run([*CLI, *map(str, args)], capture_output=True, text=True, check=True, cwd=REPO)
    return result.stdout + result.stderr


def main() -> None:
    from cdp import Browser
    from helpers import select_document_text
    from workbench_serve import served

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="workbench-shots-"))
    runs = ["runs/sample/careful.jsonl", "runs/sample/hallucinating.jsonl"]
    sample = ["--nuggets", "nuggets/sample/nuggets.jsonl", "--requests", "topics/sample/requests.jsonl"]
    run("judge", *[a for r in runs for a in ("--run", r)], *sample, "--collection", "topics/sample/collection.jsonl",
        "--judge", "lexical", "-o", work / "lexical.jsonl", "--quiet")
    db = work / "round.sqlite"
    run("assess", "init", "--db", db, "--requests", "topics/sample/requests.jsonl", "--collection",
        "topics/sample/collection.jsonl", *[a for r in runs for a in ("--run", r)], "--nuggets",
        "nuggets/sample/nuggets.jsonl", "--suggest", work / "lexical.jsonl")
    passwords = {}
    for name, admin in (("alice", False), ("bob", False), ("carol", True)):
        passwords[name] = run("assess", "users", "add", name, "--db", db, *(["--admin"] if admin else [])) \
            .split("one-time password ")[1].split()[0]
    run("assess", "assign", "--db", db, "--topics", "s01,s02,s03", "--to", "alice")
    run("assess", "assign", "--db", db, "--topics", "s01", "--to", "bob", "--double")
    with served(db) as port:
        base = f"http://127.0.0.1:{port}"
        with Browser(work / "chromium", width=1400, height=860, loopback=True) as browser:
            def ready() -> None:
                browser.wait_for("document.readyState === 'complete' && document.body && "
                                 "document.body.dataset.ready === '1'", 60)

            def go(path: str) -> None:
                browser.evaluate("document.body && document.body.removeAttribute('data-ready')")
                browser.call("Page.navigate", {"url": base + path})
                ready()

            def then(action: str) -> None:
                browser.evaluate("document.body.removeAttribute('data-ready')")
                browser.evaluate(action)
                ready()

            def shot(name: str) -> None:
                browser.screenshot(args.out / f"workbench-{name}.png", full_page=False)
                print(args.out / f"workbench-{name}.png")

            def log_in(name: str) -> None:
                go("/login")
                browser.evaluate(f"document.getElementById('name').value = {json.dumps(name)};"
                                 f"document.getElementById('password').value = {json.dumps(passwords[name])}")
                then("document.getElementById('login-form').submit()")
                browser.evaluate(f"document.getElementById('new-password').value = {json.dumps(PASSWORD)};"
                                 f"document.getElementById('again').value = {json.dumps(PASSWORD)}")
                then("document.getElementById('password-form').submit()")

            def key(name: str) -> None:
                browser.evaluate(f"document.dispatchEvent(new KeyboardEvent('keydown', {{key: {json.dumps(name)}}}))")

            def answer(*keys: str) -> None:
                """Choose with ``keys`` (nothing is pre-chosen), then Enter saves and the next page loads."""
                for name in keys:
                    key(name)
                browser.evaluate("document.body.removeAttribute('data-ready')")
                key("Enter")
                ready()

            def suggested() -> list[str]:
                """The keys that give the judge's suggestion on this page (the assessor here agrees with it)."""
                boxes = browser.evaluate(
                    "Array.from(document.querySelectorAll('#choices li')).map(li => [li.querySelector('input')"
                    ".dataset.key, (li.querySelector('.suggestion') || {dataset: {}}).dataset.value,"
                    " li.querySelector('.na').textContent.toLowerCase()])")
                if boxes:  # an answer without a suggestion (the nugget written above): ticked where the sentence says it
                    sentence = browser.evaluate("document.getElementById('sentence').textContent.toLowerCase()")
                    return [k for k, value, text in boxes
                            if k and (value == "yes" or (value is None and text in sentence))] or ["n"]
                value = browser.evaluate("(document.getElementById('suggestion') || {dataset: {}}).dataset.value")
                return ["y" if value == "yes" else "n"]

            log_in("alice")
            go("/t/s01/nuggets?doc=nw-0004")
            phrase = "young children or people over 70"
            select_document_text(browser, phrase)
            browser.evaluate("document.getElementById('new-question').value = 'Who was most affected by the illness?';"
                             "document.getElementById('new-question').scrollIntoView()")
            shot("authoring")
            then("document.getElementById('create-nugget').click()")
            go("/t/s01/citations")
            key("h")
            shot("citation")
            go("/t/s01/citations?doc=nw-0001")
            key("y")
            shot("by-document")
            go("/t/s01/citations")
            for _ in range(12):
                if browser.evaluate("document.getElementById('item') === null"):
                    break
                answer(*suggested())
            go("/t/s01/sentences")
            shot("sentence")
            while browser.evaluate("document.getElementById('item') !== null && "
                                   "document.getElementById('item').dataset.kind === 'answers'"):
                answer(*suggested())
            shot("uncited")
            go("/t/s01/report?run=careful")
            shot("report")
            go("/")
            shot("topics")
            then("document.getElementById('logout').click()")
            # bob answers s01 too, differing on some items; the admin adjudicates
            from argue_eval.workbench.actions import Answer, record_answers
            from argue_eval.workbench.items import topic_items
            from argue_eval.workbench.store import Store

            store = Store.open(db)
            alice = {row["item_id"]: row["value"] for row in store.verdict_rows(user="alice")}
            items = topic_items(store, "s01", "bob")
            answers = [Answer(i, (not alice[i.item_id]) if k % 4 == 0 else alice[i.item_id], None)
                       for k, i in enumerate(i for g in items.stage("citations") for i in g.items)
                       if i.item_id in alice]
            record_answers(store, "bob", "assessor", answers)
            store.close()
            log_in("carol")
            go("/adjudicate")
            shot("adjudication")
            go("/people")
            browser.evaluate("document.getElementById('new-user').value = 'dora'")
            then("document.getElementById('add-user-button').click()")
            shot("people")


if __name__ == "__main__":
    main()
