"""The workbench's shape, datasette's: SQL in its database's two modules only (``inputs/workbench.py``, the file's
schema and what ``score`` reads; ``workbench/store.py``, the rest; each query once), pages registered in one table
whose access and CSRF rules hold for every row (checked on a real uvicorn server over a real SQLite file), and
the stages named in the templates only through the stage list. Each scanner is also shown to find what it
looks for, so a pass means the thing is absent, not that the scanner is blind."""
from __future__ import annotations

import ast
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import SAMPLE_ROOT, WorkbenchClient, serving

from argue_eval.cli import cli

PACKAGE = Path(__file__).resolve().parent.parent / "argue_eval"
WORKBENCH = PACKAGE / "workbench"
SQL_HOMES = (PACKAGE / "inputs" / "workbench.py", WORKBENCH / "store.py")
"""The workbench database's schema and reads (an input's), and the workbench's ``Store`` built on them."""
SCANNED = sorted(WORKBENCH.rglob("*.py")) + [PACKAGE / "commands" / "assess.py", PACKAGE / "inputs" / "workbench.py"]
"""The workbench, its command and the reader of its database: none but ``SQL_HOMES`` may speak SQL."""

SQL = re.compile(r"\bSELECT\b.*\bFROM\b|\bINSERT\b.*\bINTO\b|\bUPDATE\b\s+\w+\s+SET\b|\bDELETE\s+FROM\b|"
                 r"\bCREATE\s+(TABLE|INDEX)\b|\bPRAGMA\s+\w+|^\s*(BEGIN|COMMIT|ROLLBACK)\b", re.S)
"""A statement in a string (SQL is written in capitals here; ``Select text in the document`` is prose)."""


def _string_parts(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):  # an f-string: its literal parts, joined where the values were
        return ["\x00".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))]
    return []


def sql_in(source: str) -> list[str]:
    """``line: what`` for every way ``source`` speaks SQL: importing sqlite3, calling ``execute`` (or
    ``executemany``, ``executescript``), or holding a statement in a string."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [alias.name for alias in node.names] + [getattr(node, "module", None) or ""]
            if "sqlite3" in names:
                found.append(f"{node.lineno}: imports sqlite3")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                "execute", "executemany", "executescript"):
            found.append(f"{node.lineno}: calls {node.func.attr}")
        elif isinstance(node, ast.JoinedStr) or isinstance(node, ast.Constant) and isinstance(node.value, str):
            found += [f"{node.lineno}: {text[:60]!r}" for text in _string_parts(node) if SQL.search(text)]
    return found


def test_sql_is_in_the_database_modules_only():
    found = {str(path.relative_to(PACKAGE)): sql_in(path.read_text(encoding="utf-8"))
             for path in SCANNED if path not in SQL_HOMES}
    assert {path: lines for path, lines in found.items() if lines} == {}
    # the queries are there, and the scanner sees them
    assert [len(sql_in(path.read_text(encoding="utf-8"))) > 10 for path in SQL_HOMES] == [True, True]


def test_the_sql_scanner_finds_each_way_of_speaking_sql():
    source = '''
import sqlite3
from sqlite3 import connect
db.execute("SELECT 1")
rows = store._rows("SELECT doc_id FROM seen WHERE request_id = ?", (topic,))
query = f"UPDATE users SET salt = ? WHERE name = {name}"
note = "INSERT OR IGNORE INTO assignments(request_id, user) VALUES (?, ?)"
prose = "Select text in the document: it fills the answer from the selection."
'''
    assert sorted({int(line.split(":")[0]) for line in sql_in(source)}) == [2, 3, 4, 5, 6, 7]  # not the prose


def test_each_query_is_written_once():
    written: Counter[str] = Counter()
    for path in SQL_HOMES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args and \
                    node.func.attr in ("_rows", "_value", "_write", "execute"):
                for text in _string_parts(node.args[0]):
                    written[" ".join(text.split())] += 1
    repeated = {sql: n for sql, n in written.items() if n > 1 and sql not in ("BEGIN", "COMMIT", "ROLLBACK")}
    assert repeated == {} and len(written) > 60


# --- the stage list ------------------------------------------------------------------------------------------
JINJA = re.compile(r"{{.*?}}|{%.*?%}|{#.*?#}", re.S)


def stages_named_by_hand(template: str, names: tuple[str, ...]) -> list[str]:
    """Where a template uses a stage's name itself: quoted in its Jinja code, or in its HTML as a URL segment
    (``/t/.../citations``), an attribute value or a numbered column label (``2. citations``). The same words in
    prose ("earlier sentences of the report") are not a stage's name."""
    found = []
    for code in JINJA.findall(template):
        found += [f"{name!r} in {code}" for name in names if re.search(rf"""["']{name}["']""", code)]
    text = JINJA.sub(" ", template)
    alternatives = "|".join(names)
    for pattern in (rf"/({alternatives})(?=[\"'?#/])", rf"=[\"']({alternatives})[\"']", rf"\d\.\s*({alternatives})\b"):
        found += [f"{m.group(0)!r} in the HTML" for m in re.finditer(pattern, text)]
    return found


def test_the_templates_name_the_stages_only_through_the_stage_list():
    from argue_eval.workbench.stages import STAGES

    names = tuple(stage.name for stage in STAGES)
    found = {path.name: stages_named_by_hand(path.read_text(encoding="utf-8"), names)
             for path in sorted((WORKBENCH / "templates").glob("*.html"))}
    assert {name: hits for name, hits in found.items() if hits} == {}
    # what the templates named by hand before the stage list, found
    before = ('<th>2. citations</th><a href="/t/{{ t }}/nuggets">'
              '{% for stage in ["citations", "sentences"] %}{{ stage_titles["sentences"] }}{% endfor %}')
    assert len(stages_named_by_hand(before, names)) == 5


# --- the page table ------------------------------------------------------------------------------------------
starlette = pytest.importorskip("starlette", reason="the workbench extra")
uvicorn = pytest.importorskip("uvicorn", reason="the workbench extra")


def test_the_page_table_has_a_row_per_stage_and_a_token_for_every_change():
    from argue_eval.workbench.pages import AssessmentPage, AuthoringPage, pages
    from argue_eval.workbench.stages import STAGES
    from argue_eval.workbench.web import View

    table = pages()
    routes = [(page.path, method) for page in table for method in page.methods]
    assert len(routes) == len(set(routes))
    for stage in STAGES:
        row = next(page for page in table if page.path == f"/t/{{topic}}/{stage.name}")
        assert isinstance(row.view, AssessmentPage if stage.asks else AuthoringPage) and row.view.stage is stage
        assert (row.access, row.csrf, row.methods) == ("topic", "session", ("GET", "POST"))
    for page in table:  # a page answers what its row says it takes, and nothing it does not
        assert (type(page.view).post is not View.post) == ("POST" in page.methods), page.path
        assert (type(page.view).get is not View.get) == ("GET" in page.methods), page.path
    # only the page for a stage that does not exist takes a POST without a token: it changes nothing
    assert [page.path for page in table if "POST" in page.methods and page.csrf is None] == ["/t/{topic}/{stage}"]
    assert sorted(page.path for page in table if page.access == "public") == ["/favicon.ico", "/login",
                                                                               "/static/{name}", "/welcome/{token}"]
    # the one-time login link's form carries the link's own token (there is no session yet)
    assert [page.csrf for page in table if page.path == "/welcome/{token}"] == ["link"]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    """A round on two topics, served by uvicorn in a thread: alice (assigned s01), carol (admin), and nina,
    who has not replaced her one-time password."""
    from argue_eval.workbench.app import create_app
    from argue_eval.workbench.security import add_user, set_password
    from argue_eval.workbench.store import Store

    tmp_path = tmp_path_factory.mktemp("served")
    requests = tmp_path / "requests.jsonl"
    requests.write_text("".join(line + "\n" for line in (SAMPLE_ROOT / "topics" / "sample" / "requests.jsonl")
                                .read_text().splitlines() if json.loads(line)["request_id"] in ("s01", "s02")))
    db = tmp_path / "round.sqlite"
    result = CliRunner().invoke(cli, ["assess", "init", "--db", str(db), "--requests", str(requests), "--collection",
                                      str(SAMPLE_ROOT / "topics" / "sample" / "collection.jsonl"), "--run",
                                      str(SAMPLE_ROOT / "runs" / "sample" / "careful.jsonl"), "--nuggets",
                                      str(SAMPLE_ROOT / "nuggets" / "sample" / "nuggets.jsonl")])
    assert result.exit_code == 0, result.output
    store = Store.open(db)
    passwords = {name: "a long enough password" for name in ("alice", "carol")}
    for name, admin in (("alice", False), ("carol", True), ("nina", False)):
        one_time = add_user(store, name, admin)
        if name in passwords:
            set_password(store, name, passwords[name])
        else:
            passwords[name] = one_time
    store.assign("s01", "alice")
    with serving(create_app(store, None, "memory")) as port:
        yield {"port": port, "passwords": passwords, "store": store}
    store.close()


def _url(path: str, topic: str) -> str:
    return path.replace("{topic}", topic).replace("{stage}", "elsewhere").replace("{name}", "wb.js").replace(
        "{token}", "not-a-link")


def _counts(store) -> tuple[int, int, int]:
    return len(store.verdict_rows()), len(store.history("s01")), len(store.history("s02"))


def test_every_row_is_served_under_its_access_and_csrf_rule(served):
    from argue_eval.workbench.pages import pages

    port, passwords, store = served["port"], served["passwords"], served["store"]
    anonymous, alice, carol, nina = WorkbenchClient(port), WorkbenchClient(port), WorkbenchClient(port), WorkbenchClient(port)
    assert alice.log_in("alice", passwords["alice"]) == 303
    assert carol.log_in("carol", passwords["carol"]) == 303
    assert nina.log_in("nina", passwords["nina"]) == 303
    before = _counts(store)
    for page in pages():
        own, foreign = _url(page.path, "s01"), _url(page.path, "s02")
        method = "GET" if "GET" in page.methods else "POST"
        form = {} if method == "POST" else None
        if page.access == "public":
            assert anonymous.request(method, own, form)[0] < 400, page.path
            continue
        # nobody logged in: to the login page; a one-time password: to the password page first
        assert anonymous.request(method, own, form)[:3:2] == (303, "/login"), page.path
        if page.access != "session":
            assert nina.request(method, own, form)[:3:2] == (303, "/password"), page.path
        if page.access == "topic":
            status, body, _ = alice.request(method, foreign, form)
            assert status == 403 and "Topic s02 is not assigned to you." in body, page.path
            assert carol.request("GET", foreign)[0] in (200, 404), page.path  # an admin opens every topic
        if page.access == "admin":
            status, body, _ = alice.request(method, own, form)
            assert status == 403 and "is for admins" in body, page.path
        if "POST" in page.methods and page.csrf == "session":
            for token in (None, "forged"):
                sent = {"action": "create", "question": "Who?", "value": "yes", **({"csrf": token} if token else {})}
                status, body, _ = carol.request("POST", own, sent)
                assert status == 403 and "CSRF" in body, page.path
    assert _counts(store) == before  # nothing was written by any refused request
    # the login form's own token: a POST without the cookie's token is refused before any password is checked
    status, body, _ = WorkbenchClient(port).request("POST", "/login", {"csrf": "x", "name": "alice", "password": "wrong"})
    assert status == 403 and "login form expired" in body
