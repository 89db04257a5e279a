"""Load test of the assessment workbench on loopback: many assessors answering at once against one server.

A seeded round is generated into bench/out/workbench-round/ (one topic per assessor, one report of
``--sentences`` cited sentences per topic, one nugget whose answer every cited document attests, so each
sentence asks two questions: "attested?" in the citation stage and the nugget answer in the sentence
stage). ``argue-eval assess serve`` runs in a subprocess on a free loopback port with a fresh SQLite file;
``--assessors`` threads log in over HTTP and each answers ``--answers`` items the way the pages do: GET the
stage page, read the item, POST the answer (which commits, then redirects), repeat.

Checked at the end, from the database: every acknowledged answer is there exactly once with the value
posted (zero lost, zero duplicated: verdicts per assessor = answers posted, verdict_log rows = POSTs
acknowledged). Reported: p50 and p95 latency of an answer POST and of a page GET, in ms, and each as a
ratio to the p50 of a static file GET measured by the same clients in the same run (the HTTP round trip
without the app's work), plus answers per second overall.

    python bench/bench_workbench.py                                  # 20 assessors x 500 answers
    python bench/bench_workbench.py --assessors 4 --answers 50       # quick
"""
from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))
OUT = REPO / "bench" / "out" / "workbench-round"
CLI = [sys.executable, "-m", "argue_eval.cli"]
PASSWORD = "bench password 123"


def generate(assessors: int, sentences: int, seed: int = 7) -> None:
    """Requests, collection, one run and a bank: topic tK has ``sentences`` cited sentences over 10 documents."""
    rng = random.Random(seed)
    OUT.mkdir(parents=True, exist_ok=True)
    words = "river plant water pump flood storm town council notice health report inspector".split()
    with open(OUT / "requests.jsonl", "w") as requests, open(OUT / "collection.jsonl", "w") as collection, \
            open(OUT / "run.jsonl", "w") as run, open(OUT / "nuggets.jsonl", "w") as nuggets:
        for k in range(1, assessors + 1):
            topic = f"t{k}"
            requests.write(json.dumps({"request_id": topic, "title": f"Topic {k}", "background": "b",
                                       "problem_statement": "p", "limit": 100000}) + "\n")
            docs = [f"{topic}-d{d}" for d in range(10)]
            for doc in docs:
                text = " ".join(rng.choice(words) for _ in range(120))
                collection.write(json.dumps({"doc_id": doc, "title": doc, "text": f"The answer {topic}. {text}"}) + "\n")
            report = [{"text": f"Sentence {i} of {topic} says {' '.join(rng.choice(words) for _ in range(12))}.",
                       "citations": [docs[i % 10]]} for i in range(sentences)]
            run.write(json.dumps({"run_id": "bench", "request_id": topic, "sentences": report}) + "\n")
            nuggets.write(json.dumps({"request_id": topic, "nuggets": [{
                "nugget_id": f"{topic}-n1", "question": "What is the answer?", "importance": "vital",
                "aggregator": "OR", "negative": False,
                "answers": [{"answer": f"the answer {topic}", "doc_ids": docs}]}]}) + "\n")


class Assessor(threading.Thread):
    """One simulated assessor: log in, then GET the page, POST the answer, ``answers`` times."""

    def __init__(self, port: int, name: str, topic: str, answers: int, seed: int):
        super().__init__(daemon=True)
        self.port, self.name, self.topic, self.target = port, name, topic, answers
        self.rng = random.Random(seed)
        self.cookies: dict[str, str] = {}
        self.posted: dict[str, bool] = {}
        self.acknowledged = 0
        self.post_ms: list[float] = []
        self.get_ms: list[float] = []
        self.static_ms: list[float] = []
        self.error: str | None = None

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, str, float]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            body = urlencode(form, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        start = time.perf_counter()
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        text = response.read().decode()
        elapsed = (time.perf_counter() - start) * 1000
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, val = value.split(";")[0].partition("=")
                self.cookies[key] = val
        connection.close()
        return response.status, text, elapsed

    def run(self) -> None:
        try:
            _, page, _ = self.request("GET", "/login")
            token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
            status, _, _ = self.request("POST", "/login", {"csrf": token, "name": self.name, "password": PASSWORD})
            assert status == 303, status
            while len(self.posted) < self.target:
                status, _, ms = self.request("GET", "/static/wb.css")
                self.static_ms.append(ms)
                stage = "citations"
                status, page, ms = self.request("GET", f"/t/{self.topic}/{stage}")
                if 'id="item"' not in page:
                    stage = "sentences"
                    status, page, ms = self.request("GET", f"/t/{self.topic}/{stage}")
                self.get_ms.append(ms)
                if 'id="item"' not in page:
                    break
                csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
                group = re.search(r'name="group" value="([^"]+)"', page).group(1)
                items = re.findall(r'name="item" value="([^"]+)"', page)
                form: dict[str, object] = {"csrf": csrf, "group": group, "item": items}
                value = self.rng.random() < 0.5
                for item in items:
                    form[f"seen_{item}"] = ""
                if 'id="choices"' in page:
                    form["yes"] = items if value else []
                else:
                    form["value"] = "yes" if value else "no"
                status, page, ms = self.request("POST", f"/t/{self.topic}/{stage}", form)
                assert status == 303, (status, page[:300])
                self.post_ms.append(ms)
                self.acknowledged += 1
                for item in items:
                    assert item not in self.posted, f"{item} asked twice"
                    self.posted[item] = value
        except Exception as error:  # reported, and fails the run
            self.error = f"{self.name}: {type(error).__name__}: {error}"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--assessors", type=int, default=20)
    parser.add_argument("--answers", type=int, default=500)
    args = parser.parse_args()
    sentences = (args.answers + 1) // 2
    generate(args.assessors, sentences)
    db = OUT / "round.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    subprocess.run([*CLI, "assess", "init", "--db", db, "--requests", OUT / "requests.jsonl", "--collection",
                    OUT / "collection.jsonl", "--run", OUT / "run.jsonl", "--nuggets", OUT / "nuggets.jsonl"],
                   check=True, capture_output=True)
    from argue_eval.workbench.security import set_password
    from argue_eval.workbench.store import Store

    store = Store.open(db)
    names = [f"a{k}" for k in range(1, args.assessors + 1)]
    for k, name in enumerate(names, 1):
        subprocess.run([*CLI, "assess", "users", "add", name, "--db", db], check=True, capture_output=True)
        set_password(store, name, PASSWORD)
        subprocess.run([*CLI, "assess", "assign", "--db", db, "--topics", f"t{k}", "--to", name], check=True,
                       capture_output=True)
    store.close()
    from workbench_serve import served

    with served(db, OUT / "server.log") as port:
        threads = [Assessor(port, name, f"t{k}", args.answers, seed=k) for k, name in enumerate(names, 1)]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=3600)
        wall = time.perf_counter() - started
    errors = [t.error for t in threads if t.error]
    # the database's account of it
    connection = sqlite3.connect(db)
    lost = duplicated = wrong = 0
    for thread in threads:
        rows = dict(connection.execute("SELECT item_id, value FROM verdicts WHERE user = ? AND role = 'assessor'",
                                       (thread.name,)).fetchall())
        logged = connection.execute("SELECT COUNT(*), COUNT(DISTINCT item_id) FROM verdict_log WHERE user = ?",
                                    (thread.name,)).fetchone()
        lost += sum(1 for item in thread.posted if item not in rows)
        wrong += sum(1 for item, value in thread.posted.items() if item in rows and bool(rows[item]) != value)
        duplicated += logged[0] - logged[1] + max(0, len(rows) - len(thread.posted))
    connection.close()
    posts = [ms for t in threads for ms in t.post_ms]
    gets = [ms for t in threads for ms in t.get_ms]
    statics = [ms for t in threads for ms in t.static_ms]
    answers = sum(len(t.posted) for t in threads)
    base = percentile(statics, 0.5)
    print(f"assessors {args.assessors}, answers posted {answers} ({sum(t.acknowledged for t in threads)} POSTs "
          f"acknowledged), wall {wall:.1f} s, {answers / wall:.1f} answers/s")
    print(f"lost {lost}, duplicated {duplicated}, stored with another value {wrong}")
    print(f"answer POST: p50 {percentile(posts, 0.5):.1f} ms, p95 {percentile(posts, 0.95):.1f} ms "
          f"(x{percentile(posts, 0.5) / base:.1f} and x{percentile(posts, 0.95) / base:.1f} the static GET p50)")
    print(f"page GET:    p50 {percentile(gets, 0.5):.1f} ms, p95 {percentile(gets, 0.95):.1f} ms "
          f"(x{percentile(gets, 0.5) / base:.1f} and x{percentile(gets, 0.95) / base:.1f})")
    print(f"static GET:  p50 {base:.1f} ms, p95 {percentile(statics, 0.95):.1f} ms (the baseline)")
    if errors:
        print("errors:", *errors, sep="\n  ")
    ok = not errors and lost == 0 and duplicated == 0 and wrong == 0 and answers == args.assessors * args.answers
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
