"""Helpers that several test modules share (test modules import from here, never from each other).

The hand-built ARGUE topic of tests/fixtures/argue (read with plain ``json``, not with the readers under
test), the Auto-ARGUE NuggetBank example as canonical nuggets, and the small LLM-judge topic.
"""
from __future__ import annotations

import ast
import http.client
import json
import re
import shutil
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode

from argue_eval.judges.base import Question, make_key
from argue_eval.model import (
    Answer,
    Document,
    Judgment,
    Location,
    Nugget,
    Report,
    Request,
    Sentence,
    TopicNuggets,
    normalize_text,
)

# --- the hand-built ARGUE topic (tests/fixtures/argue) ---------------------------------------------------

ARGUE_FIXTURES = Path(__file__).parent / "fixtures" / "argue"


def load_nuggets(path: Path = ARGUE_FIXTURES / "nuggets.jsonl") -> dict[str, TopicNuggets]:
    topics = {}
    for line in path.read_text().splitlines():
        obj = json.loads(line)
        nuggets = [
            Nugget(n["nugget_id"], obj["request_id"], n["question"],
                   [Answer(a["answer"], tuple(a["doc_ids"])) for a in n["answers"]],
                   n["importance"], n["aggregator"], n["negative"])
            for n in obj["nuggets"]
        ]
        topics[obj["request_id"]] = TopicNuggets(obj["request_id"], nuggets)
    return topics


def load_reports(path: Path) -> list[Report]:
    reports = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        obj = json.loads(line)
        sentences = [Sentence(s["text"], tuple(s["citations"])) for s in obj["sentences"]]
        reports.append(Report(obj["run_id"], obj["request_id"], sentences, source=Location(str(path), number)))
    return reports


def load_judgments(path: Path = ARGUE_FIXTURES / "judgments.jsonl") -> list[Judgment]:
    out = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        obj = json.loads(line)
        out.append(Judgment(obj["kind"], obj["request_id"], obj["sentence"], obj["value"], obj["judge"],
                            obj["doc_id"], obj["nugget_id"], obj["answer"], obj["run_id"], obj["sentence_index"],
                            source=Location(str(path), number)))
    return out


# --- Auto-ARGUE judgments and their nugget bank ---------------------------------------------------------

AUTOARGUE = ARGUE_FIXTURES / "autoargue.judgments.jsonl"
DOC1 = "a1f3c2e0-1111-4a2b-9c3d-000000000001"
DOC3 = "a1f3c2e0-3333-4a2b-9c3d-000000000003"


def bank() -> TopicNuggets:
    """The Auto-ARGUE NuggetBank v3 example of ../shared/formats as canonical nuggets."""
    return TopicNuggets("101", [
        Nugget("5f0c1e", "101", "When was Toledo's water contaminated?",
               [Answer("August 2014", (DOC1, "a1f3c2e0-2222-4a2b-9c3d-000000000002")), Answer("2014", (DOC3,))]),
        Nugget("77ab90", "101", "Which toxin and which nutrient were involved?",
               [Answer("microcystin", (DOC1,)), Answer("phosphorus", (DOC3,))], aggregator="AND"),
    ])


# --- the LLM judge's small topic -------------------------------------------------------------------------

REQUEST = Request(request_id="r1", title="Dam failure", problem_statement="Report on the 2023 dam failure.")
DOC = Document("d1", "Heavy rain flooded the river on Monday. The bridge stayed closed until Wednesday.", "Floods")
NUG1 = Nugget("n1", "r1", "How long was the bridge closed?", [Answer("two days", ("d1",))])
NUG2 = Nugget("n2", "r1", "What flooded?", [Answer("the river", ("d1",))])


def question(kind: str, sentence: str, *, doc: Document | None = None, nugget: Nugget | None = None,
             answer: str | None = None, run_id: str | None = None, index: int | None = None,
             earlier: tuple[str, ...] = ()) -> Question:
    """A flowchart question about ``sentence`` in request r1, keyed as the question planner keys it."""
    key = make_key(kind, "r1", normalize_text(sentence), doc.doc_id if doc else None,
                   nugget.nugget_id if nugget else None, answer, run_id, index)
    return Question(key, sentence, REQUEST, nugget, answer, earlier, doc)


# --- the assessment workbench ----------------------------------------------------------------------------

SAMPLE_ROOT = Path(__file__).resolve().parent.parent


def sample_reference_answers() -> dict[str, bool]:
    """The sample assessors' answers (qrels/sample/judgments.jsonl) by pool item id: what a test assessor
    answers in the workbench and in the CSV pool alike."""
    from argue_eval.organizer.assessment import item_id_for

    out = {}
    for line in (SAMPLE_ROOT / "qrels" / "sample" / "judgments.jsonl").read_text().splitlines():
        obj = json.loads(line)
        key = make_key(obj["kind"], obj["request_id"], normalize_text(obj["sentence"]), obj["doc_id"], obj["nugget_id"],
                       obj["answer"], obj["run_id"], obj["sentence_index"])
        out[item_id_for(key)] = obj["value"]
    return out


def answer_everything(store, request_id: str, user: str, reference: dict[str, bool], default: bool = False,
                      stages: tuple[str, ...] = ("citations", "sentences")) -> int:
    """Answer every item the workbench asks ``user`` on ``request_id`` (the reference's answer, else
    ``default``), round after round, until nothing is open; the number of answers given."""
    from argue_eval.workbench.actions import Answer as Given
    from argue_eval.workbench.actions import record_answers
    from argue_eval.workbench.items import topic_items

    given = 0
    while True:
        items = topic_items(store, request_id, user)
        open_items = [i for stage in stages for g in items.stage(stage) for i in g.items if i.value is None]
        if not open_items:
            return given
        record_answers(store, user, "assessor",
                       [Given(i, reference.get(i.item_id, default), None) for i in open_items])
        given += len(open_items)


def select_document_text(browser, phrase: str, start: int | None = None) -> None:
    """Select ``phrase`` in the workbench's document pane as a person does with the mouse, then release the
    button: the page fills the new answer and its offsets from the selection. ``start`` is where the phrase
    begins in the text as shown (a test of the offsets gives it); by default its first occurrence. The text may
    be cut into pieces by the pane's marks: the selection starts and ends in whichever piece holds each end."""
    text = "document.getElementById('doc-text').textContent"
    where = str(start) if start is not None else f"{text}.indexOf({json.dumps(phrase)})"
    browser.evaluate(f"""(() => {{
        const pane = document.getElementById('doc-text');
        const from = {where}, to = from + {json.dumps(phrase)}.length;
        const walker = document.createTreeWalker(pane, NodeFilter.SHOW_TEXT);
        const range = document.createRange();
        let seen = 0, node;
        while ((node = walker.nextNode())) {{
            const length = node.textContent.length;
            if (from >= seen && from <= seen + length) {{ range.setStart(node, from - seen); }}
            if (to >= seen && to <= seen + length) {{ range.setEnd(node, to - seen); break; }}
            seen += length;
        }}
        window.getSelection().removeAllRanges(); window.getSelection().addRange(range);
        pane.dispatchEvent(new MouseEvent('mouseup', {{bubbles: true}}));
    }})()""")


# --- a fresh folder with the sample track -----------------------------------------------------------------

SAMPLE_DIRS = ("runs", "nuggets", "topics", "qrels")
"""The shipped sample track's folders, as the README's commands and the docs' examples name them."""


def copy_sample_track(folder: Path) -> Path:
    """``folder`` with a copy of the sample track (a copy: the examples the help and the docs show write into it,
    e.g. ``search ... -o runs/sample/ranked/bm25.trec``), without collection indexes a run left behind."""
    for name in SAMPLE_DIRS:
        shutil.copytree(SAMPLE_ROOT / name, folder / name, ignore=shutil.ignore_patterns("*.argue-idx"))
    return folder


def run_cli(*args: object, code: int = 0):
    """``argue-eval ARGS`` in this process (click's runner), asserting its exit code; the result (stdout, stderr)."""
    from click.testing import CliRunner

    from argue_eval.cli import cli

    result = CliRunner().invoke(cli, [str(arg) for arg in args], catch_exceptions=False)
    assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{result.stdout}\n{result.stderr}"
    return result


def leaf_commands(command=None, path: tuple[str, ...] = ()):
    """Every command that runs (no group), depth first, as ``(name as typed after argue-eval, click command)``."""
    import click

    from argue_eval.cli import cli

    command = cli if command is None else command
    if isinstance(command, click.Group):
        context = click.Context(command)
        for name in command.list_commands(context):
            yield from leaf_commands(command.get_command(context, name), (*path, name))
    else:
        yield " ".join(path), command


# --- a workbench server spoken to over plain HTTP -----------------------------------------------------------------

def free_port() -> int:
    """A loopback port nothing listens on now (for a test's own uvicorn server)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class WorkbenchClient:
    """Plain HTTP with cookies to a workbench on loopback, for what a browser would not send (and, for the Host
    check, any Host header)."""

    def __init__(self, port: int):
        self.port, self.cookies = port, {}

    def request(self, method: str, path: str, form: dict[str, str] | None = None,
                host: str | None = None) -> tuple[int, str, str]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if host is not None:
            headers["Host"] = host
        if form is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=urlencode(form) if form is not None else None, headers=headers)
        response = connection.getresponse()
        body = response.read().decode()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, val = value.split(";")[0].partition("=")
                if val in ('""', "") or "Max-Age=0" in value:
                    self.cookies.pop(key, None)
                else:
                    self.cookies[key] = val
        return response.status, body, response.getheader("location") or ""

    def log_in(self, name: str, password: str) -> int:
        _, page, _ = self.request("GET", "/login")
        token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
        return self.request("POST", "/login", {"csrf": token, "name": name, "password": password})[0]

    def csrf(self, path: str = "/") -> str:
        _, page, _ = self.request("GET", path)
        return re.search(r'name="csrf" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]


def names_defined_in(path: Path) -> set[str]:
    """What ``path`` defines at its top level: functions, classes, assigned and imported names."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {target.id for target in targets if isinstance(target, ast.Name)}
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return names


@contextmanager
def serving(app, **config):
    """``app`` served by a real uvicorn on a free loopback port in a thread, for the block; its port."""
    import threading
    import time

    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=free_port(), log_level="warning",
                                           access_log=False, **config))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive()
        time.sleep(0.05)
    try:
        yield server.config.port
    finally:
        server.should_exit = True
        thread.join(30)
