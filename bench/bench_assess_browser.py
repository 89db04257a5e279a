"""An assessor played through every stage of the workbench in Chromium, by key presses, on the sample track.

A fresh round is made in bench/out/assess-browser/ as docs/assessment.md sets one up (``assess init`` on the
sample track's requests, collection, bank and two runs, the offline lexical judge's answers as suggestions;
``users add``; ``assign``, bob as a second assessor on every topic) and ``argue-eval assess serve`` runs on a
free loopback port. The system Chromium (tests/cdp.py, the browser tests' driver) plays the assessors; every
answer is given by real key presses (the DevTools input domain: keyDown, char, keyUp), with the sample
assessors' answer (qrels/sample/judgments.jsonl; "no" where it has none), never the judge's suggestion:

- nugget stage (alice, ``--nugget-topic``): every pooled document in turn (``j``); on the first
  ``--nuggets`` of them a new nugget written by keyboard (``q``, the question typed, ``Tab``, an answer
  typed, bound to the document, ``Enter``);
- citation stage, by document (alice, every topic): ``d`` (or the ``?doc=`` page where no other sentence
  cites the first document), then ``y``/``n`` per sentence and ``Enter`` per document;
- citation stage, one sentence at a time (bob, every topic, double-assessed): ``y``/``n``, ``Enter``;
- sentence stage (alice, every topic): digits tick the answers given (``n`` none of them), ``Enter``; an
  uncited sentence's questions ``y``/``n``, ``Enter``;
- adjudication (carol, an admin): every queued item (an assessor changed the judge's suggestion), decided
  ``y``/``n``, ``Enter``.

Printed per stage: the judgments the database stored (checked against the answers the bench gave: one stored
answer per intended choice), key presses per judgment, seconds per judgment, and document reads per judgment
as ``assess status`` reports them; the two citation flows side by side. Opening a stage's first page (a click
on the topics page) is a page open, counted apart from key presses. The bench has no reading time: its
seconds are the machine's share of a judgment (server, browser, round trips), so each is printed beside the
median load of the topics page measured in the same run, as a ratio.

    python bench/bench_assess_browser.py
    python bench/bench_assess_browser.py --run runs/sample/careful.jsonl --nuggets 1    # smaller
"""
from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))
OUT = REPO / "bench" / "out" / "assess-browser"
CLI = [sys.executable, "-m", "argue_eval.cli"]
PASSWORD = "a long enough password"
SAMPLE = ["--requests", "topics/sample/requests.jsonl", "--nuggets", "nuggets/sample/nuggets.jsonl"]
COLLECTION = ["--collection", "topics/sample/collection.jsonl"]


def cli(*args: object) -> str:
    result = subprocess.run([*CLI, *map(str, args)], capture_output=True, text=True, cwd=REPO)
    if result.returncode != 0:
        raise RuntimeError(f"argue-eval {' '.join(map(str, args))}: {result.stderr.strip()}")
    return result.stdout + result.stderr


@dataclass
class Tally:
    """What one stage cost the bench's assessor."""
    judgments: int = 0   # choices the bench made (one per intended answer)
    keys: int = 0        # key presses sent
    opens: int = 0       # pages opened by URL (a click on the topics page or a link)
    typed: int = 0       # of the keys, characters typed into a text field
    moves: int = 0       # of the keys, j to the next document
    seconds: float = 0.0


KEY_CODES = {"Enter": 13, "Tab": 9, " ": 32}


class Player:
    """Chromium on the workbench: page loads, key presses (counted) and the page's state."""

    def __init__(self, browser, base: str):
        self.browser, self.base = browser, base
        self.tally = Tally()

    def ready(self) -> None:
        self.browser.wait_for("document.readyState === 'complete' && document.body && "
                              "document.body.dataset.ready === '1'", 60)

    def go(self, path: str, count: bool = True) -> None:
        self.browser.evaluate("document.body && document.body.removeAttribute('data-ready')")
        self.browser.call("Page.navigate", {"url": self.base + path})
        self.ready()
        if count:
            self.tally.opens += 1

    def js(self, expression: str):
        return self.browser.evaluate(expression)

    def press(self, key: str, navigates: bool = False) -> None:
        """One key press (keyDown, char, keyUp), as the browser tests send it; ``navigates``: wait for the next
        page (a save: keys typed meanwhile would be dropped by the page anyway)."""
        if navigates:
            self.js("document.body.removeAttribute('data-ready')")
        code = KEY_CODES.get(key, ord(key.upper()) if len(key) == 1 and key.isalnum() else 0)
        named = {"Enter": "Enter", "Tab": "Tab", " ": "Space"}.get(key) or \
            (f"Key{key.upper()}" if key.isalpha() else f"Digit{key}" if key.isdigit() else "")
        down = {"type": "keyDown", "key": key, "code": named, "windowsVirtualKeyCode": code}
        self.browser.call("Input.dispatchKeyEvent", down)
        if key != "Tab":
            self.browser.call("Input.dispatchKeyEvent", {"type": "char", "key": key, "text": "\r" if key == "Enter" else key})
        self.browser.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": named, "windowsVirtualKeyCode": code})
        self.tally.keys += 1
        if navigates:
            self.ready()

    def type(self, text: str) -> None:
        for character in text:
            self.press(character)
        self.tally.typed += len(text)

    def refused(self) -> str | None:
        flash = self.js("document.getElementById('flash') && document.getElementById('flash').textContent")
        return flash if flash and flash.startswith("Not saved") else None

    def stage(self, run) -> Tally:
        """Run ``run()`` and account its keys, page opens and seconds as one stage."""
        self.tally = Tally()
        started = time.perf_counter()
        run()
        self.tally.seconds = time.perf_counter() - started
        return self.tally


def log_in(player: Player, name: str, one_time: str) -> None:
    player.go("/login", count=False)
    player.js(f"document.getElementById('name').value = {json.dumps(name)};"
              f"document.getElementById('password').value = {json.dumps(one_time)}")
    player.js("document.body.removeAttribute('data-ready'); document.getElementById('login-form').submit()")
    player.ready()
    player.js(f"document.getElementById('new-password').value = {json.dumps(PASSWORD)};"
              f"document.getElementById('again').value = {json.dumps(PASSWORD)}")
    player.js("document.body.removeAttribute('data-ready'); document.getElementById('password-form').submit()")
    player.ready()
    assert player.js("location.pathname") == "/", player.js("location.pathname")


def log_out(player: Player) -> None:
    player.js("document.body.removeAttribute('data-ready'); document.getElementById('logout').click()")
    player.ready()


def write_nuggets(player: Player, topic: str, count: int) -> None:
    """Every pooled document in turn; a nugget written by keyboard on the first ``count`` of them."""
    player.go(f"/t/{topic}/nuggets")
    written = 0
    while True:
        doc = player.js("(document.getElementById('document') || {dataset: {}}).dataset.doc || null")
        if written < count and doc:
            words = player.js("document.getElementById('doc-text').textContent").split()
            answer = " ".join(words[3:9])
            player.press("q")
            assert player.js("document.activeElement.id") == "new-question"
            player.type(f"What does {doc} report?")
            player.press("Tab")
            assert player.js("document.activeElement.id") == "new-answer", player.js("document.activeElement.id")
            player.type(answer)
            player.press("Enter", navigates=True)
            flash = player.js("(document.getElementById('flash') || {}).textContent || ''")
            assert "added" in flash, flash
            written += 1
            player.tally.judgments += 1
        if not player.js("document.getElementById('next') !== null"):
            break
        player.press("j", navigates=True)
        player.tally.moves += 1


def choose_yes_no(player: Player, want: bool) -> None:
    player.press("y" if want else "n")
    player.press("Enter", navigates=True)
    player.tally.judgments += 1
    assert not player.refused(), player.refused()


def answer_one_at_a_time(player: Player, topic: str, stage: str, reference: dict[str, bool]) -> None:
    """The stage's open items of ``topic``, each on its page, until the stage is done."""
    player.go(f"/t/{topic}/{stage}")
    while player.js("document.getElementById('item') !== null"):
        assert player.js("document.getElementById('item').dataset.answered") == "0"
        boxes = player.js("Array.from(document.querySelectorAll('#choices input[type=checkbox]'))"
                          ".map(b => [b.dataset.key || null, b.value])")
        if boxes:
            ticks = [key for key, item_id in boxes if reference.get(item_id, False)]
            if None in ticks:
                raise RuntimeError("an answer past the tenth would need Tab and Space: not played here")
            for key in ticks:
                player.press(key)
            if not ticks:
                player.press("n")
            player.press("Enter", navigates=True)
            player.tally.judgments += len(boxes)
            assert not player.refused(), player.refused()
        else:
            item_id = player.js("document.querySelector('#answer-form input[name=item]').value")
            choose_yes_no(player, reference.get(item_id, False))


def answer_by_document(player: Player, topic: str, reference: dict[str, bool]) -> None:
    """The citation stage of ``topic`` by document: ``d`` from the first item (or its ``?doc=`` page where no
    other sentence cites that document), then each document's sentences on one page."""
    player.go(f"/t/{topic}/citations")
    while player.js("document.getElementById('item') !== null"):
        if player.js("document.getElementById('by-document') !== null"):
            player.press("d", navigates=True)
        else:
            doc = player.js("document.getElementById('document').dataset.doc")
            player.go(f"/t/{topic}/citations?doc={doc}")
        while player.js("document.body.dataset.page") == "bydoc":
            rows = player.js("Array.from(document.querySelectorAll('#doc-rows li[data-answered=\"0\"]'))"
                             ".map(li => li.dataset.item)")
            for item_id in rows:  # y/n answer the marked row and mark the next open one
                assert player.js("document.querySelector('#doc-rows li.current').dataset.item") == item_id
                player.press("y" if reference.get(item_id, False) else "n")
            player.press("Enter", navigates=True)
            player.tally.judgments += len(rows)
            assert not player.refused(), player.refused()


def adjudicate(player: Player, reference: dict[str, bool]) -> None:
    player.go("/adjudicate")
    while player.js("document.getElementById('item') !== null"):
        item_id = player.js("document.getElementById('item').dataset.item")
        choose_yes_no(player, reference.get(item_id, False))


def page_load_baseline(player: Player, times: int = 7) -> list[float]:
    """Seconds to load the topics page (navigate, then the page's script marks it ready)."""
    out = []
    for _ in range(times):
        started = time.perf_counter()
        player.go("/", count=False)
        out.append(time.perf_counter() - started)
    return out


def reading(db: Path) -> dict[tuple[str, str], tuple[int, int]]:
    """``assess status``'s document reads: (assessor, stage) -> (reads, judgments)."""
    out = {}
    for line in cli("assess", "status", "--db", db, "--format", "tsv").splitlines():
        cells = line.split("\t")
        if len(cells) == 5 and cells[1] in ("citations", "sentences") and cells[2].isdigit() and cells[3].isdigit():
            out[(cells[0], cells[1])] = (int(cells[2]), int(cells[3]))
    return out


def stored(db: Path, reference: dict[str, bool]) -> tuple[dict[tuple[str, str], int], int]:
    """Answers in the database per (user, stage), adjudications as stage 'adjudication', nuggets created as
    'nuggets'; and how many answers hold another value than the one the bench pressed (the reference's)."""
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = connection.execute("SELECT user, CASE WHEN role = 'assessor' THEN stage ELSE 'adjudication' END, "
                                  "item_id, value FROM verdicts").fetchall()
        nuggets = connection.execute("SELECT user, COUNT(*) FROM history WHERE action = 'create' GROUP BY user").fetchall()
    finally:
        connection.close()
    out: dict[tuple[str, str], int] = {}
    for user, stage, _, _ in rows:
        out[(user, stage)] = out.get((user, stage), 0) + 1
    out.update({(user, "nuggets"): count for user, count in nuggets})
    return out, sum(1 for _, _, item_id, value in rows if bool(value) != reference.get(item_id, False))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--run", action="append", type=Path,
                        help="a run to assess (default: the sample track's careful and hallucinating)")
    parser.add_argument("--nuggets", type=int, default=3, help="nuggets written in the nugget stage")
    parser.add_argument("--nugget-topic", default="s01")
    parser.add_argument("--no-suggest", action="store_true", help="no judge's suggestions (and so no adjudication)")
    args = parser.parse_args()
    from cdp import Browser
    from helpers import sample_reference_answers
    from workbench_serve import served

    runs = args.run or [Path("runs/sample/careful.jsonl"), Path("runs/sample/hallucinating.jsonl")]
    run_args = [a for r in runs for a in ("--run", r)]
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    db = OUT / "round.sqlite"
    cli("assess", "init", "--db", db, *SAMPLE, *COLLECTION, *run_args)
    if not args.no_suggest:
        cli("judge", *run_args, *SAMPLE, *COLLECTION, "--judge", "lexical", "-o", OUT / "lexical.jsonl", "--quiet")
        cli("assess", "init", "--db", db, "--requests", "topics/sample/requests.jsonl", "--suggest", OUT / "lexical.jsonl")
    topics = [json.loads(line)["request_id"] for line in (REPO / "topics/sample/requests.jsonl").read_text().splitlines()]
    passwords = {}
    for name, admin in (("alice", False), ("bob", False), ("carol", True)):
        passwords[name] = cli("assess", "users", "add", name, "--db", db, *(["--admin"] if admin else [])) \
            .split("one-time password ")[1].split()[0]
    cli("assess", "assign", "--db", db, "--topics", ",".join(topics), "--to", "alice")
    cli("assess", "assign", "--db", db, "--topics", ",".join(topics), "--to", "bob", "--double")
    reference = sample_reference_answers()
    tallies: dict[str, Tally] = {}
    with served(db, OUT / "server.log") as port:
        with Browser(OUT / "chromium", width=1280, height=800, loopback=True) as browser:
            player = Player(browser, f"http://127.0.0.1:{port}")
            log_in(player, "alice", passwords["alice"])
            loads = page_load_baseline(player)
            tallies["nuggets"] = player.stage(lambda: write_nuggets(player, args.nugget_topic, args.nuggets))
            tallies["citations by document"] = player.stage(
                lambda: [answer_by_document(player, t, reference) for t in topics])
            tallies["sentences"] = player.stage(
                lambda: [answer_one_at_a_time(player, t, "sentences", reference) for t in topics])
            log_out(player)
            log_in(player, "bob", passwords["bob"])
            tallies["citations one at a time"] = player.stage(
                lambda: [answer_one_at_a_time(player, t, "citations", reference) for t in topics])
            log_out(player)
            log_in(player, "carol", passwords["carol"])
            tallies["adjudication"] = player.stage(lambda: adjudicate(player, reference))
            loads += page_load_baseline(player)
            errors = browser.errors()
    baseline = statistics.median(loads)
    reads = reading(db)
    in_db, other_value = stored(db, reference)
    where = {"nuggets": ("alice", "nuggets"), "citations by document": ("alice", "citations"),
             "sentences": ("alice", "sentences"), "citations one at a time": ("bob", "citations"),
             "adjudication": ("carol", "adjudication")}
    print(f"sample track, {len(topics)} topics, runs {', '.join(r.stem for r in runs)}; Chromium 1280x800 over "
          f"DevTools; suggestions: {'none' if args.no_suggest else 'lexical judge'}")
    print(f"baseline: the topics page loads in {baseline * 1000:.0f} ms (median of {len(loads)}; "
          f"min {min(loads) * 1000:.0f}, max {max(loads) * 1000:.0f})")
    header = (f"{'stage':<25} {'user':<6} {'stored':>6} {'keys':>5} {'keys/j':>6} {'opens':>5} {'s':>6} "
              f"{'s/j':>6} {'x load':>6} {'reads':>5} {'reads/j':>7}")
    print(header)
    ok = not errors and other_value == 0
    for name, tally in tallies.items():
        user, stage = where[name]
        count = in_db.get((user, stage), 0)
        ok &= count == tally.judgments
        r = reads.get((user, stage))
        per = tally.seconds / count if count else float("nan")
        print(f"{name:<25} {user:<6} {count:>6} {tally.keys:>5} {tally.keys / count if count else float('nan'):>6.2f} "
              f"{tally.opens:>5} {tally.seconds:>6.1f} {per:>6.3f} {per / baseline:>6.2f} "
              f"{r[0] if r else '-':>5} {f'{r[0] / r[1]:.3f}' if r and r[1] else '-':>7}"
              + ("" if count == tally.judgments else f"   MISMATCH: the bench gave {tally.judgments}"))
    by_doc, one = tallies["citations by document"], tallies["citations one at a time"]
    rd, ro = reads.get(("alice", "citations")), reads.get(("bob", "citations"))
    if rd and ro and by_doc.judgments and one.judgments:
        print(f"citations, by document vs one at a time (the same {by_doc.judgments} items): key presses "
              f"{by_doc.keys} vs {one.keys} ({by_doc.keys / one.keys:.2f}x), page opens {by_doc.opens} vs {one.opens}, "
              f"seconds {by_doc.seconds:.1f} vs {one.seconds:.1f} ({by_doc.seconds / one.seconds:.2f}x), "
              f"document reads {rd[0]} vs {ro[0]} ({rd[0] / ro[0]:.2f}x)")
    nug = tallies["nuggets"]
    print(f"nuggets: judgments = nuggets written on {args.nugget_topic}, each with a typed answer bound to its document; "
          f"of the {nug.keys} keys, {nug.typed} are typed characters and {nug.moves} j to the next pooled document "
          f"({(nug.keys - nug.typed - nug.moves) / max(1, nug.judgments):.0f} other keys per nugget: q, Tab, Enter)")
    print(f"answers stored with another value than the key pressed: {other_value}")
    if errors:
        print("script errors:", *errors, sep="\n  ")
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
