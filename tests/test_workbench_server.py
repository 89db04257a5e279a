"""The workbench on a real uvicorn server over a real SQLite file: the admin's people page and one-time login
links (issue 32, item 4), and the faults the probe found (issue 32, item 5), each
on the real server where it can produce it: the login throttle counts a guess before hashing it and is not reset by a
success; a password change ends the user's other sessions; a Host that is not the served address is refused;
an answer id outside SQLite's range is a 400; a full disk is a clear 503 and one log line (the one fault a
real server cannot be made to produce here, so SQLite's error is raised in the store); a damaged database
stops every ``assess`` command with one line and exit 2; ``assess import --assessor`` refuses control
characters."""
from __future__ import annotations

import hashlib
import json
import logging
import random
import re
import sqlite3
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import SAMPLE_ROOT, WorkbenchClient, free_port, serving

from argue_eval.cli import cli

pytest.importorskip("starlette", reason="the workbench extra")
uvicorn = pytest.importorskip("uvicorn", reason="the workbench extra")

from argue_eval.workbench.app import create_app, host_name  # noqa: E402
from argue_eval.workbench.security import LoginThrottle, add_user, link_user, set_password  # noqa: E402
from argue_eval.workbench.store import Store  # noqa: E402

PASSWORD = "a long enough password"
CLI = [sys.executable, "-m", "argue_eval.cli"]


def make_round(tmp_path: Path) -> Path:
    requests = tmp_path / "requests.jsonl"
    requests.write_text("".join(line + "\n" for line in (SAMPLE_ROOT / "topics" / "sample" / "requests.jsonl")
                                .read_text().splitlines() if json.loads(line)["request_id"] == "s01"))
    db = tmp_path / "round.sqlite"
    result = CliRunner().invoke(cli, ["assess", "init", "--db", str(db), "--requests", str(requests), "--collection",
                                      str(SAMPLE_ROOT / "topics" / "sample" / "collection.jsonl"), "--run",
                                      str(SAMPLE_ROOT / "runs" / "sample" / "careful.jsonl"), "--nuggets",
                                      str(SAMPLE_ROOT / "nuggets" / "sample" / "nuggets.jsonl")])
    assert result.exit_code == 0, result.output
    return db


@pytest.fixture()
def served(tmp_path: Path):
    """A one-topic round served by uvicorn in a thread (a fresh server per test: each has its own throttle):
    alice (assigned s01) and carol (admin) with chosen passwords."""
    db = make_round(tmp_path)
    store = Store.open(db)
    for name, admin in (("alice", False), ("carol", True), ("nina", False)):
        add_user(store, name, admin)
        set_password(store, name, PASSWORD)
    store.assign("s01", "alice")
    with serving(create_app(store, None, "memory", hosts=("wb.example.org",)), limit_concurrency=200) as port:
        yield {"port": port, "store": store, "db": db}
    store.close()


# -- the login throttle ------------------------------------------------------------------------------------
def test_guesses_sent_at_once_are_counted_before_they_are_hashed(served):
    port = served["port"]
    clients = [WorkbenchClient(port) for _ in range(40)]
    tokens = [re.search(r'name="csrf" value="([^"]+)"', c.request("GET", "/login")[1]).group(1)  # type: ignore[union-attr]
              for c in clients]
    barrier = threading.Barrier(len(clients))

    def guess(k: int) -> int:
        barrier.wait()
        return clients[k].request("POST", "/login", {"csrf": tokens[k], "name": "alice", "password": f"guess {k}"})[0]

    with ThreadPoolExecutor(len(clients)) as pool:
        statuses = list(pool.map(guess, range(len(clients))))
    # five guesses a minute: five are checked (and wrong), the other 35 refused unhashed; before, all 40 were 401
    assert sorted(statuses) == [401] * 5 + [429] * 35
    # the name stays locked for the minute, even with the right password
    assert WorkbenchClient(port).log_in("alice", PASSWORD) == 429


def test_a_successful_login_takes_back_its_own_count_only(served):
    port = served["port"]
    guesser = WorkbenchClient(port)
    assert [guesser.log_in("alice", f"wrong {k}") for k in range(4)] == [401] * 4
    # one's own account, from the same address, does not wipe the address's four failures (it did before)
    assert WorkbenchClient(port).log_in("carol", PASSWORD) == 303
    assert guesser.log_in("nina", "wrong 5") == 401  # the address's fifth failure
    assert guesser.log_in("nina", "wrong 6") == 429  # nina's first, but the address is spent
    assert WorkbenchClient(port).log_in("carol", PASSWORD) == 429  # the same address: locked for everyone on it


def test_the_throttle_table_is_bounded():
    throttle = LoginThrottle()
    throttle.MAX_KEYS = 10
    for k in range(100):
        wait, attempt = throttle.attempt(f"user:name{k}", f"ip:10.0.0.{k}")
        assert wait == 0 and attempt is not None
        throttle.failed(attempt)
    assert len(throttle) == 10
    # the most recent are the ones kept: name99 has its failure, and four more attempts take it to the limit
    for _ in range(4):
        assert throttle.attempt("user:name99", "ip:y")[0] == 0
    assert throttle.attempt("user:name99", "ip:z")[0] > 0  # four in flight and one failure: the fifth was the last
    for k in range(30):  # keys with attempts in flight (name99, ip:y) are never the ones dropped
        throttle.failed(throttle.attempt(f"user:other{k}", f"ip:10.1.0.{k}")[1])  # type: ignore[arg-type]
    assert len(throttle) == 10 and throttle.attempt("user:name99", "ip:w")[0] > 0


def test_a_rounds_assessors_logging_in_at_once_from_one_address_all_get_in(served):
    """Twenty assessors behind one address (a proxy, loopback here) log in at the same moment: every attempt is
    counted before it is hashed, yet none is refused, since none fails."""
    port, store = served["port"], served["store"]
    names = [f"assessor{k}" for k in range(20)]
    for name in names:
        add_user(store, name, False)
        set_password(store, name, PASSWORD)
    clients = [WorkbenchClient(port) for _ in names]
    tokens = [re.search(r'name="csrf" value="([^"]+)"', c.request("GET", "/login")[1]).group(1)  # type: ignore[union-attr]
              for c in clients]
    barrier = threading.Barrier(len(names))

    def log_in(k: int) -> int:
        barrier.wait()
        return clients[k].request("POST", "/login", {"csrf": tokens[k], "name": names[k], "password": PASSWORD})[0]

    with ThreadPoolExecutor(len(names)) as pool:
        assert list(pool.map(log_in, range(len(names)))) == [303] * 20
    assert WorkbenchClient(port).log_in("alice", PASSWORD) == 303  # and nothing is left counted against the address


# -- sessions, Host, ids -----------------------------------------------------------------------------------
def test_a_password_change_ends_the_users_other_sessions(served):
    port = served["port"]
    laptop, stolen = WorkbenchClient(port), WorkbenchClient(port)
    assert laptop.log_in("alice", PASSWORD) == stolen.log_in("alice", PASSWORD) == 303
    assert stolen.request("GET", "/")[0] == 200
    token = laptop.csrf("/password")
    status, _, location = laptop.request("POST", "/password", {"csrf": token, "password": "another long password",
                                                                "again": "another long password"})
    assert (status, location) == (303, "/")
    assert laptop.request("GET", "/")[0] == 200  # the session that changed it goes on
    assert stolen.request("GET", "/")[:3:2] == (303, "/login")  # the other one is over
    assert stolen.log_in("alice", PASSWORD) == 401 and stolen.log_in("alice", "another long password") == 303


def test_a_host_that_is_not_the_served_address_is_refused(served):
    port = served["port"]
    client = WorkbenchClient(port)
    for host in ("rebind.attacker.example", f"rebind.attacker.example:{port}", "127.0.0.2", ""):
        status, body, _ = client.request("GET", "/login", host=host)
        assert status == 400 and body.startswith("Host not served here"), host
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "LOCALHOST", f"[::1]:{port}", "wb.example.org"):
        assert client.request("GET", "/login", host=host)[0] == 200, host
    assert [host_name(h) for h in ("[::1]:80", "Example.org:8080", "::1", "10.0.0.1")] == \
        ["::1", "example.org", "::1", "10.0.0.1"]


def test_an_answer_id_outside_sqlites_range_is_a_400(served):
    port, store = served["port"], served["store"]
    client = WorkbenchClient(port)
    assert client.log_in("alice", PASSWORD) == 303
    token = client.csrf("/t/s01/nuggets")
    before = len(store.history("s01"))
    for answer_id in ("1" * 40, str(2**63), str(-2**63 - 1)):
        status, body, _ = client.request("POST", "/t/s01/nuggets", {"csrf": token, "action": "edit_answer",
                                                                     "answer_id": answer_id, "answer": "x"})
        assert status == 400 and "outside the range of answer ids" in body, answer_id
    # in range but unknown: the page's own message, as before
    status, _, location = client.request("POST", "/t/s01/nuggets", {"csrf": token, "action": "edit_answer",
                                                                     "answer_id": str(2**63 - 1), "answer": "x"})
    assert (status, location) == (303, "/t/s01/nuggets")
    assert len(store.history("s01")) == before


# -- a full disk ---------------------------------------------------------------------------------------------
def _answer_form(client: WorkbenchClient) -> dict[str, str]:
    """The first citation item's form as the page draws it, answered yes."""
    _, page, _ = client.request("GET", "/t/s01/citations")
    form = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page.split('id="answer-form"')[1]
                           .split("</form>")[0]))
    return {**form, "value": "yes"}


def test_a_full_disk_is_a_clear_503_and_one_log_line(served, monkeypatch, caplog):
    port, store = served["port"], served["store"]
    client = WorkbenchClient(port)
    assert client.log_in("alice", PASSWORD) == 303
    form = _answer_form(client)

    def full(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")  # what SQLite raises on ENOSPC

    monkeypatch.setattr(store, "_write", full)  # every write of the store, as a full disk refuses them
    caplog.set_level(logging.INFO, logger="argue_eval.workbench")
    status, page, _ = client.request("GET", "/t/s01/citations")  # reading still works (the read goes uncounted)
    assert status == 200 and 'id="answer-form"' in page
    for _ in range(3):
        status, body, _ = client.request("POST", "/t/s01/citations", form)
        assert status == 503
        assert "Not saved: the server cannot write its database (database or disk is full); nothing was lost" in body
    lines = [r for r in caplog.records if r.name == "argue_eval.workbench" and r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in lines] == [
        f"cannot write {store.path} (database or disk is full): changes are refused with 503 until it can; "
        "nothing stored is lost"]
    assert all(r.exc_info is None for r in caplog.records)  # no traceback
    assert store.verdict_rows(user="alice") == []
    monkeypatch.undo()
    assert client.request("POST", "/t/s01/citations", form)[0] == 303  # space again: the same answer goes in
    assert [r["value"] for r in store.verdict_rows(user="alice")] == [True]
    lines = [r for r in caplog.records if r.name == "argue_eval.workbench" and r.levelno >= logging.WARNING]
    assert lines[-1].getMessage() == f"writes to {store.path} work again (3 request(s) refused meanwhile)"


# -- a damaged database --------------------------------------------------------------------------------------
def _run(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *map(str, args)], capture_output=True, text=True, timeout=120)


def test_a_damaged_database_is_one_line_and_exit_2_in_every_assess_command(tmp_path):
    db = make_round(tmp_path)
    data = bytearray(db.read_bytes())
    with sqlite3.connect(db) as check:  # a page of the reports' table: before, `assess status` read it as no reports
        page_size = check.execute("PRAGMA page_size").fetchone()[0]
        page = check.execute("SELECT MAX(pageno) FROM dbstat WHERE name = 'reports' AND pagetype = 'leaf'").fetchone()[0]
    check.close()
    data[(page - 1) * page_size:page * page_size] = random.Random(0).randbytes(page_size)  # random bytes inside
    db.write_bytes(bytes(data))
    digest = hashlib.sha256(db.read_bytes()).hexdigest()
    requests = SAMPLE_ROOT / "topics" / "sample" / "requests.jsonl"
    commands = [("assess", "status", "--db", db), ("assess", "export-db", "--db", db, "--nuggets-out",
                                                    tmp_path / "n.jsonl", "--judgments-out", tmp_path / "j.jsonl"),
                ("assess", "init", "--db", db, "--requests", requests), ("assess", "users", "add", "zoe", "--db", db),
                ("assess", "serve", "--db", db, "--port", free_port())]
    for command in commands:
        result = _run(*command)
        assert result.returncode == 2, (command, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"{db}: damaged database (PRAGMA quick_check: "), \
            (command, result.stderr)
        assert "Traceback" not in result.stderr and result.stdout == ""
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest  # nothing was written into it
    assert not (tmp_path / "n.jsonl").exists() and not (tmp_path / "j.jsonl").exists()


# -- names ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["al\x1b[31mice", "bo\nb", "carol\x00", "dave\u200e"])
def test_import_refuses_an_assessor_name_with_control_characters(tmp_path, name):
    filled = tmp_path / "filled.jsonl"
    filled.write_text("")
    result = CliRunner().invoke(cli, ["assess", "import", str(filled), "--assessor", name,
                                      "-o", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 2
    assert "--assessor: expected a name without control characters" in result.output
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize("name", ["bad\x01host", "evil.example org", "example.org:8080", ""])
def test_serve_refuses_a_host_name_no_host_header_could_carry(tmp_path, name):
    # checked before the database is opened: a missing database does not hide the bad option
    result = CliRunner().invoke(cli, ["assess", "serve", "--db", str(tmp_path / "none.sqlite"), "--host-name", name,
                                      "--port", "0"])
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines() == [
        f"--host-name: expected a host name (letters, digits, dots and hyphens) or a bracketed IPv6 address, "
        f"found {name!r}"]


def test_serve_takes_dns_names_ipv4_and_bracketed_ipv6_as_host_names():
    from argue_eval.commands.assess import _HOST_NAME

    assert all(_HOST_NAME.fullmatch(name) for name in ("assess.example.org", "10.0.0.7", "[::1]", "node-3"))


# -- people: users, login links, assignments -------------------------------------------------------------
def _link(page: str) -> str:
    return re.search(r'value="(http[^"]+/welcome/[^"]+)"', page).group(1)  # type: ignore[union-attr]


def _welcome(client: WorkbenchClient, path: str, password: str) -> tuple[int, str, str]:
    _, page, _ = client.request("GET", path)
    token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    return client.request("POST", path, {"csrf": token, "password": password, "again": password})


def test_an_admin_adds_a_user_with_a_one_time_login_link_and_assigns_topics(served, caplog):
    port, store = served["port"], served["store"]
    caplog.set_level(logging.INFO, logger="argue_eval.workbench")
    carol = WorkbenchClient(port)
    assert carol.log_in("carol", PASSWORD) == 303
    token = carol.csrf("/people")
    status, page, _ = carol.request("POST", "/people", {"csrf": token, "action": "add", "name": "dora"})
    assert status == 200 and "The login link for <b>dora</b>" in page
    url = _link(page)
    assert url.startswith(f"http://127.0.0.1:{port}/welcome/") and PASSWORD not in page
    path = url.split(str(port), 1)[1]
    # the link: dora chooses her password and is in; the link then works no more
    dora = WorkbenchClient(port)
    status, page, _ = dora.request("GET", path)
    assert status == 200 and "Welcome, dora" in page
    assert dora.request("POST", path, {"csrf": "forged", "password": "dora's long password",
                                       "again": "dora's long password"})[0] == 403
    status, _, location = _welcome(dora, path, "dora's long password")
    assert (status, location) == (303, "/") and dora.request("GET", "/")[0] == 200
    status, page, _ = WorkbenchClient(port).request("GET", path)
    assert status == 200 and "This login link does not work" in page
    assert WorkbenchClient(port).log_in("dora", "dora's long password") == 303
    # the request log has the link's requests, never its token (a credential)
    logged = [r.getMessage() for r in caplog.records if r.name == "argue_eval.workbench"]
    # five: the GET, the forged POST, the GET and POST that use it, the GET after
    assert sum("/welcome/…" in line for line in logged) == 5 and not any(path in line for line in logged)
    # assignments follow assess assign's rules: s01 is alice's, so dora needs "second assessor"
    status, page, _ = carol.request("POST", "/people", {"csrf": token, "action": "assign", "name": "dora",
                                                         "topics": "s01"})
    assert status == 400 and "already have an assessor (alice)" in page and store.assessors("s01") == ["alice"]
    status, _, location = carol.request("POST", "/people", {"csrf": token, "action": "assign", "name": "dora",
                                                             "topics": "s01", "double": "1"})
    assert (status, location) == (303, "/people") and store.assessors("s01") == ["alice", "dora"]
    status, page, _ = carol.request("POST", "/people", {"csrf": token, "action": "add", "name": "bad name!"})
    assert status == 400 and "expected a user name" in page and store.user("bad name!") is None


def test_a_new_login_link_ends_the_old_password_sessions_and_link(served):
    port = served["port"]
    carol, alice = WorkbenchClient(port), WorkbenchClient(port)
    assert carol.log_in("carol", PASSWORD) == alice.log_in("alice", PASSWORD) == 303
    token = carol.csrf("/people")
    first = _link(carol.request("POST", "/people", {"csrf": token, "action": "reset", "name": "alice"})[1])
    second = _link(carol.request("POST", "/people", {"csrf": token, "action": "reset", "name": "alice"})[1])
    assert alice.request("GET", "/")[:3:2] == (303, "/login")  # her sessions ended
    assert WorkbenchClient(port).log_in("alice", PASSWORD) == 401  # and her password
    assert link_user(served["store"], first.rsplit("/", 1)[1]) is None  # the newer link replaced the first
    status, _, _ = _welcome(WorkbenchClient(port), second.split(str(port), 1)[1], "alice's new password")
    assert status == 303 and WorkbenchClient(port).log_in("alice", "alice's new password") == 303
