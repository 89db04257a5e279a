"""The workbench database: one SQLite file (WAL) that holds a whole assessment round, written and read by the
workbench through ``Store``.

Why SQLite: one file an organizer can copy, back up and inspect; transactions, so an answer is on disk
(``synchronous=FULL``) before the page moves on and a server killed with SIGKILL loses nothing it
acknowledged; WAL, so assessors' reads (and a ``score`` reading a round in progress) never wait for a
writer. Every connection is opened by ``Store`` (one per thread: the web server answers requests from a
thread pool).

The file's schema and the reads ``score`` needs are ``inputs.workbench.WorkbenchDatabase``'s (the reading
is an input's job, and the schema lives with its reader); ``Store`` builds on it with everything else the
workbench asks, as datasette keeps its queries behind its ``Database`` class. These two modules are the
only ones that speak SQL (``tests/test_workbench_structure.py`` fails on SQL anywhere else in the workbench):
one method per query, each query written once. A method that writes runs in a transaction of its own, or in
the caller's (``with store.transaction():`` groups several writes into one commit); a method that reads sees
the caller's transaction when there is one. Callers get records (``model``) and plain rows (dicts, tuples),
never a connection.

A database from a newer version, a damaged or foreign file, or a read-only one is refused with a one-line
``InputError`` (exit 2) before anything is read.
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..argue.policies import Policies
from ..errors import InputError
from ..inputs.workbench import (
    SCHEMA,
    SCHEMA_VERSION,
    VERDICT_COLUMNS,
    WorkbenchDatabase,
    order_key,
    report_json,
    request_from,
    request_json,
    unusable,
    verdict_judgment,
)
from ..model import Document, Judgment, Nugget, Report, Request, natural_key

__all__ = ["SCHEMA_VERSION", "Store", "now", "order_key", "verdict_judgment", "judgment_json"]

_READ_ONLY = ("read-only: the workbench writes its database (and its -wal and -shm files beside it); make it "
              "writable or copy it somewhere writable")


def now() -> str:
    """The time an answer is recorded: UTC, to the second, ISO 8601 (what the export writes)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


# -- how records are kept in their columns ------------------------------------------------------------
def judgment_json(judgment: Judgment) -> str:
    """A prior judgment as the ``prior`` table keeps it."""
    return json.dumps({
        "kind": judgment.kind, "request_id": judgment.request_id, "sentence": judgment.sentence,
        "doc_id": judgment.doc_id, "nugget_id": judgment.nugget_id, "answer": judgment.answer,
        "run_id": judgment.run_id, "sentence_index": judgment.sentence_index, "value": judgment.value,
        "judge": judgment.judge, "rationale": judgment.rationale,
    }, ensure_ascii=False, sort_keys=True)


def _judgment_from(obj: dict[str, Any]) -> Judgment:
    return Judgment(kind=obj["kind"], request_id=obj["request_id"], sentence=obj["sentence"], value=obj["value"],
                    judge=obj["judge"], doc_id=obj["doc_id"], nugget_id=obj["nugget_id"], answer=obj["answer"],
                    run_id=obj["run_id"], sentence_index=obj["sentence_index"], rationale=obj.get("rationale"))


class Store(WorkbenchDatabase):
    """One workbench database, opened to be written: ``Store.open`` checks the file (``create``: makes a new
    one). The connection, the schema and the reads ``score`` needs are ``inputs.workbench.WorkbenchDatabase``'s;
    here are the writes and everything else the workbench asks."""

    def __init__(self, path: str | os.PathLike[str]):
        super().__init__(path)
        # The server's threads take turns here rather than in SQLite's busy handler, which sleeps in growing
        # steps while it polls the lock (the long tail of answer times under load); other processes (a
        # concurrent `assess init`) are still waited for by SQLite's busy timeout.
        self._write_lock = threading.Lock()

    # -- opening -------------------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | os.PathLike[str], *, create: bool = False) -> Store:
        """Open (or with ``create``, create) a workbench database; a user error is a one-line ``InputError``."""
        path = Path(path)
        exists = cls._exists(path, create)
        # the write bits, not only access(2): root may write anything, yet a file without write bits is meant
        # to stay as it is
        if exists and (not os.access(path, os.W_OK) or not path.stat().st_mode & 0o222):
            raise InputError(path, None, None, _READ_ONLY)
        parent = path.resolve().parent
        if not parent.exists():
            raise InputError(path, None, None, f"directory {parent} does not exist")
        if not os.access(parent, os.W_OK):
            raise InputError(path, None, None, f"read-only directory {parent}: SQLite keeps its -wal and -shm "
                             "files beside the database, so the directory must be writable")
        store = cls(path)
        try:
            with store.transaction():
                if exists:
                    store._check()
                db = store._connection()
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        except sqlite3.OperationalError as error:
            store.close()
            if "readonly" in str(error):
                raise InputError(path, None, None, _READ_ONLY) from None
            raise unusable(path, error) from None
        except sqlite3.DatabaseError as error:
            store.close()
            raise unusable(path, error) from None
        return store

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction (``BEGIN IMMEDIATE``): committed when the outermost block ends, rolled back on
        error. Nested blocks (a write method inside a caller's transaction) join the outer one."""
        db = self._connection()
        if self._local.depth:
            if not self._local.writing:
                raise RuntimeError("a write inside a read snapshot: open the transaction first")
            self._local.depth += 1
            try:
                yield
            finally:
                self._local.depth -= 1
            return
        with self._write_lock:
            db.execute("BEGIN IMMEDIATE")
            self._local.depth, self._local.writing = 1, True
            try:
                yield
            except BaseException:
                db.execute("ROLLBACK")
                raise
            finally:
                self._local.depth, self._local.writing = 0, False
            try:
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:  # a failed commit (a full disk) leaves the transaction open: end it
                    db.execute("ROLLBACK")
                raise

    def _write(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Cursor:
        with self.transaction():
            return self._connection().execute(sql, tuple(params))

    # -- meta ----------------------------------------------------------------------------------------
    def set_meta(self, key: str, value: str) -> None:
        self._write("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (key, value))

    def policies(self) -> Policies:
        """The scoring policies the questions are listed under (set at ``init``; ``score`` must use the same)."""
        data = json.loads(self.meta("policies") or "{}")
        # a topic without nuggets yet is still assessed (its citations, its uncited sentences)
        data["evaluated_topics"] = "requests"
        return Policies(**data)

    # -- requests, documents, pool, reports ----------------------------------------------------------
    def add_request(self, request: Request) -> None:
        self._write("INSERT INTO requests(request_id, data) VALUES (?, ?) ON CONFLICT(request_id) DO UPDATE "
                    "SET data = excluded.data", (request.request_id, request_json(request)))

    def request(self, request_id: str) -> Request | None:
        data = self._value("SELECT data FROM requests WHERE request_id = ?", (request_id,))
        return request_from(data) if data is not None else None

    def add_document(self, document: Document) -> bool:
        cursor = self._write("INSERT OR IGNORE INTO documents(doc_id, title, text) VALUES (?, ?, ?)",
                             (document.doc_id, document.title or "", document.text or ""))
        return cursor.rowcount > 0

    def document(self, doc_id: str) -> Document | None:
        rows = self._rows("SELECT doc_id, text, title FROM documents WHERE doc_id = ?", (doc_id,))
        return Document(*rows[0]) if rows else None

    def document_ids(self) -> set[str]:
        return {row[0] for row in self._rows("SELECT doc_id FROM documents")}

    def documents(self) -> Iterator[Document]:
        for row in self._connection().execute("SELECT doc_id, text, title FROM documents ORDER BY doc_id"):
            yield Document(*row)

    def add_pooled(self, request_id: str, doc_id: str, source: str) -> bool:
        with self.transaction():
            position = self._value("SELECT COALESCE(MAX(position), -1) + 1 FROM pool WHERE request_id = ?",
                                   (request_id,))
            cursor = self._write("INSERT OR IGNORE INTO pool(request_id, doc_id, position, source) VALUES (?, ?, ?, ?)",
                                 (request_id, doc_id, position, source))
        return cursor.rowcount > 0

    def pool(self, request_id: str) -> list[str]:
        return [row[0] for row in self._rows("SELECT doc_id FROM pool WHERE request_id = ? ORDER BY position",
                                             (request_id,))]

    def pooled_doc_ids(self) -> set[str]:
        """The documents pooled on any topic."""
        return {row[0] for row in self._rows("SELECT doc_id FROM pool")}

    def add_report(self, report: Report) -> str:
        """Store a report; ``added``, ``same`` (already there) or ``changed`` (kept the first: answers refer to it)."""
        data = report_json(report)
        with self.transaction():
            stored = self._value("SELECT data FROM reports WHERE run_id = ? AND request_id = ?",
                                 (report.run_id, report.request_id))
            if stored is None:
                self._write("INSERT INTO reports(run_id, request_id, data) VALUES (?, ?, ?)",
                            (report.run_id, report.request_id, data))
                return "added"
        return "same" if stored == data else "changed"

    # -- the nugget bank: reading --------------------------------------------------------------------
    def nugget_rows(self, request_id: str) -> list[dict[str, Any]]:
        """The bank as the authoring page shows it: nuggets with answer ids and bindings with offsets."""
        return [{"nugget_id": row["nugget_id"], "question": row["question"], "importance": row["importance"],
                 "aggregator": row["aggregator"], "negative": row["negative"],
                 "answers": [{"answer_id": a["answer_id"], "text": a["text"], "bindings": a["bindings"]}
                             for a in row["answers"]]}
                for row in self._bank(request_id)]

    def nugget_ids(self) -> set[str]:
        """Every nugget id ever used (deleted ones too: an id is never given twice)."""
        return {row[0] for row in self._rows("SELECT nugget_id FROM nuggets")}

    def nugget_questions(self, request_id: str) -> dict[str, str]:
        """The question of every nugget of the topic, deleted ones too (an answer given before a deletion)."""
        return dict(self._rows("SELECT nugget_id, question FROM nuggets WHERE request_id = ?", (request_id,)))

    def nugget_question(self, nugget_id: str) -> str | None:
        return self._value("SELECT question FROM nuggets WHERE nugget_id = ?", (nugget_id,))

    def live_nugget(self, request_id: str, nugget_id: str) -> bool:
        """Whether ``nugget_id`` is a nugget of this topic, not deleted."""
        return self._value("SELECT 1 FROM nuggets WHERE nugget_id = ? AND request_id = ? AND deleted = 0",
                           (nugget_id, request_id)) is not None

    def live_answer(self, request_id: str, answer_id: int) -> str | None:
        """The nugget of a live answer of a live nugget of this topic (``None``: no such answer here)."""
        return self._value("SELECT a.nugget_id FROM answers a JOIN nuggets n USING(nugget_id) WHERE a.answer_id = ? "
                           "AND a.deleted = 0 AND n.deleted = 0 AND n.request_id = ?", (answer_id, request_id))

    def nugget_snapshot(self, nugget_id: str) -> dict[str, Any]:
        """A nugget as the history records it, before or after an edit (deleted or not)."""
        with self.snapshot():
            row = self._rows("SELECT question, importance, aggregator, negative, deleted FROM nuggets "
                             "WHERE nugget_id = ?", (nugget_id,))[0]
            answers = [{"answer_id": a, "text": t, "docs": self._answer_docs(a)} for a, t in self._rows(
                "SELECT answer_id, text FROM answers WHERE nugget_id = ? AND deleted = 0 ORDER BY position, answer_id",
                (nugget_id,))]
        return {"question": row[0], "importance": row[1], "aggregator": row[2], "negative": bool(row[3]),
                "deleted": bool(row[4]), "answers": answers}

    def _answer_docs(self, answer_id: int) -> list[str]:
        return [row[0] for row in self._rows("SELECT doc_id FROM bindings WHERE answer_id = ? ORDER BY position, rowid",
                                             (answer_id,))]

    # -- the nugget bank: writing --------------------------------------------------------------------
    def new_nugget_id(self, request_id: str) -> str:
        """``TOPIC-nK``: the topic's next number not yet taken by any nugget."""
        taken = self.nugget_ids()
        k = self._value("SELECT COUNT(*) FROM nuggets WHERE request_id = ?", (request_id,)) + 1
        while f"{request_id}-n{k}" in taken:
            k += 1
        return f"{request_id}-n{k}"

    def insert_nugget(self, nugget: Nugget) -> None:
        """A nugget at the end of its topic's bank, with its answers, each bound to its documents."""
        with self.transaction():
            position = self._value("SELECT COALESCE(MAX(position), -1) + 1 FROM nuggets WHERE request_id = ?",
                                   (nugget.request_id,))
            self._write("INSERT INTO nuggets(nugget_id, request_id, position, question, importance, aggregator, "
                        "negative, extra) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (nugget.nugget_id, nugget.request_id, position, nugget.question, nugget.importance,
                         nugget.aggregator, int(nugget.negative), json.dumps(nugget.extra, sort_keys=True)))
            for answer in nugget.answers:
                answer_id = self.insert_answer(nugget.nugget_id, answer.text, answer.extra)
                for doc_id in answer.doc_ids:
                    self.insert_binding(answer_id, doc_id, None, None, None, None)

    def update_nugget(self, nugget_id: str, question: str, importance: str | None, aggregator: str,
                      negative: bool) -> None:
        self._write("UPDATE nuggets SET question = ?, importance = ?, aggregator = ?, negative = ? WHERE nugget_id = ?",
                    (question, importance, aggregator, int(negative), nugget_id))

    def delete_nugget(self, nugget_id: str) -> None:
        """Marked deleted, kept: the history and earlier answers refer to it."""
        self._write("UPDATE nuggets SET deleted = 1 WHERE nugget_id = ?", (nugget_id,))

    def _next_answer_position(self, nugget_id: str) -> int:
        return int(self._value("SELECT COALESCE(MAX(position), -1) + 1 FROM answers WHERE nugget_id = ?", (nugget_id,)))

    def insert_answer(self, nugget_id: str, text: str, extra: dict[str, Any] | None = None) -> int:
        """A new answer at the end of the nugget's answers; its id."""
        with self.transaction():
            cursor = self._write("INSERT INTO answers(nugget_id, position, text, extra) VALUES (?, ?, ?, ?)",
                                 (nugget_id, self._next_answer_position(nugget_id), text,
                                  json.dumps(extra or {}, sort_keys=True)))
        return int(cursor.lastrowid or 0)

    def live_answer_ids(self, nugget_id: str) -> list[int]:
        return [row[0] for row in self._rows("SELECT answer_id FROM answers WHERE nugget_id = ? AND deleted = 0 "
                                             "ORDER BY position, answer_id", (nugget_id,))]

    def move_answer(self, answer_id: int, nugget_id: str, position: int | None = None) -> None:
        """An answer moved to another nugget: at ``position``, or after its answers."""
        with self.transaction():
            where = self._next_answer_position(nugget_id) if position is None else position
            self._write("UPDATE answers SET nugget_id = ?, position = ? WHERE answer_id = ?", (nugget_id, where, answer_id))

    def update_answer(self, answer_id: int, text: str) -> None:
        self._write("UPDATE answers SET text = ? WHERE answer_id = ?", (text, answer_id))

    def delete_answer(self, answer_id: int) -> None:
        """Marked deleted, kept: the history refers to it."""
        self._write("UPDATE answers SET deleted = 1 WHERE answer_id = ?", (answer_id,))

    def insert_binding(self, answer_id: int, doc_id: str, start: int | None, end: int | None, quote: str | None,
                       user: str | None) -> None:
        """An answer bound to a document (and the selected span, as provenance), after its other bindings."""
        with self.transaction():
            position = self._value("SELECT COALESCE(MAX(position), -1) + 1 FROM bindings WHERE answer_id = ?",
                                   (answer_id,))
            self._write("INSERT INTO bindings(answer_id, doc_id, start, end, quote, user, at, position) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (answer_id, doc_id, start, end, quote, user, now() if user else None, position))

    def delete_bindings(self, answer_id: int, doc_id: str) -> None:
        self._write("DELETE FROM bindings WHERE answer_id = ? AND doc_id = ?", (answer_id, doc_id))

    def log_history(self, request_id: str, nugget_id: str | None, user: str, action: str,
                    detail: dict[str, Any]) -> None:
        self._write("INSERT INTO history(request_id, nugget_id, user, at, action, detail) VALUES (?, ?, ?, ?, ?, ?)",
                    (request_id, nugget_id, user, now(), action, json.dumps(detail, ensure_ascii=False, sort_keys=True)))

    def history(self, request_id: str) -> list[dict[str, Any]]:
        return [{"nugget_id": n, "user": u, "at": a, "action": act, "detail": json.loads(d)}
                for n, u, a, act, d in self._rows("SELECT nugget_id, user, at, action, detail FROM history "
                                                  "WHERE request_id = ? ORDER BY id", (request_id,))]

    # -- users and sessions --------------------------------------------------------------------------
    def users(self) -> list[tuple[str, bool, bool]]:
        """``(name, admin, must_change_password)`` by name."""
        return [(n, bool(a), bool(m)) for n, a, m in self._rows("SELECT name, admin, must_change FROM users ORDER BY name")]

    def user(self, name: str) -> tuple[str, bool, bool, bytes, bytes] | None:
        """``(name, admin, must_change_password, salt, hash)``."""
        rows = self._rows("SELECT name, admin, must_change, salt, hash FROM users WHERE name = ?", (name,))
        if not rows:
            return None
        n, a, m, s, h = rows[0]
        return n, bool(a), bool(m), s, h

    def add_user(self, name: str, admin: bool, salt: bytes, digest: bytes) -> None:
        """A new user whose password is one-time (they must change it at first login)."""
        self._write("INSERT INTO users(name, admin, salt, hash, must_change, created_at) VALUES (?, ?, ?, ?, 1, ?)",
                    (name, int(admin), salt, digest, now()))

    def set_password(self, name: str, salt: bytes, digest: bytes, one_time: bool) -> None:
        self._write("UPDATE users SET salt = ?, hash = ?, must_change = ? WHERE name = ?",
                    (salt, digest, int(one_time), name))

    def add_session(self, token_hash: str, user: str, csrf: str, expires: float) -> None:
        """A session (expired ones are cleared on the way)."""
        with self.transaction():
            self._write("DELETE FROM sessions WHERE expires < ?", (time.time(),))
            self._write("INSERT INTO sessions(token_hash, user, csrf, expires) VALUES (?, ?, ?, ?)",
                        (token_hash, user, csrf, expires))

    def session(self, token_hash: str) -> tuple[str, bool, bool, str] | None:
        """``(user, admin, must_change_password, csrf)`` of a live session."""
        rows = self._rows("SELECT s.user, u.admin, u.must_change, s.csrf FROM sessions s JOIN users u ON u.name = s.user "
                          "WHERE s.token_hash = ? AND s.expires > ?", (token_hash, time.time()))
        if not rows:
            return None
        user, admin, must_change, csrf = rows[0]
        return user, bool(admin), bool(must_change), csrf

    def end_session(self, token_hash: str) -> None:
        self._write("DELETE FROM sessions WHERE token_hash = ?", (token_hash,))

    def end_sessions_of(self, user: str) -> None:
        self._write("DELETE FROM sessions WHERE user = ?", (user,))

    # -- assignments ---------------------------------------------------------------------------------
    def assign(self, request_id: str, user: str) -> None:
        self._write("INSERT OR IGNORE INTO assignments(request_id, user) VALUES (?, ?)", (request_id, user))

    def assigned(self, user: str) -> list[str]:
        rows = self._rows("SELECT request_id FROM assignments WHERE user = ?", (user,))
        return sorted((row[0] for row in rows), key=natural_key)

    def assessors(self, request_id: str) -> list[str]:
        return sorted(row[0] for row in self._rows("SELECT user FROM assignments WHERE request_id = ?", (request_id,)))

    def all_assignments(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for request_id, user in self._rows("SELECT request_id, user FROM assignments ORDER BY user"):
            out.setdefault(request_id, []).append(user)
        return out

    def may_open(self, user: str, admin: bool, request_id: str) -> bool:
        """An admin opens every topic; an assessor only the topics assigned to them."""
        if admin:
            return self.request(request_id) is not None
        return self._value("SELECT 1 FROM assignments WHERE request_id = ? AND user = ?", (request_id, user)) is not None

    # -- what an assessor has read -------------------------------------------------------------------
    def mark_seen(self, request_id: str, doc_id: str, user: str) -> None:
        self._write("INSERT OR IGNORE INTO seen(request_id, doc_id, user) VALUES (?, ?, ?)", (request_id, doc_id, user))

    def seen(self, request_id: str, user: str) -> set[str]:
        """The pooled documents of the topic this assessor has opened."""
        return {row[0] for row in self._rows("SELECT doc_id FROM seen WHERE request_id = ? AND user = ?",
                                             (request_id, user))}

    # -- judgments given at init: prior answers, suggestions, disagreements --------------------------
    def add_prior(self, item_id: str, judgment: Judgment) -> None:
        self._write("INSERT INTO prior(item_id, data) VALUES (?, ?) ON CONFLICT(item_id) DO UPDATE "
                    "SET data = excluded.data", (item_id, judgment_json(judgment)))

    def prior_judgments(self) -> list[Judgment]:
        return [_judgment_from(json.loads(row[0])) for row in self._rows("SELECT data FROM prior ORDER BY rowid")]

    def add_suggestion(self, item_id: str, judgment: Judgment) -> None:
        self._write("INSERT INTO suggestions(item_id, value, judge, rationale) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT(item_id) DO UPDATE SET value = excluded.value, judge = excluded.judge, "
                    "rationale = excluded.rationale",
                    (item_id, int(judgment.value), judgment.judge, judgment.rationale))

    def suggestion(self, item_id: str) -> tuple[bool, str, str | None] | None:
        """``(value, judge, rationale)`` of the judge's suggestion on the item."""
        return self.suggestions([item_id]).get(item_id)

    def suggestions(self, item_ids: Sequence[str]) -> dict[str, tuple[bool, str, str | None]]:
        """The suggestions for these items (one query per 500 ids)."""
        out: dict[str, tuple[bool, str, str | None]] = {}
        for start in range(0, len(item_ids), 500):
            chunk = list(item_ids[start:start + 500])
            marks = ",".join("?" * len(chunk))
            for item_id, value, judge, rationale in self._rows(
                    f"SELECT item_id, value, judge, rationale FROM suggestions WHERE item_id IN ({marks})", chunk):
                out[item_id] = (bool(value), judge, rationale)
        return out

    def add_adjudication_item(self, item_id: str, source: str, data: dict[str, Any]) -> None:
        self._write("INSERT INTO adjudication_items(item_id, source, data) VALUES (?, ?, ?) "
                    "ON CONFLICT(item_id) DO UPDATE SET source = excluded.source, data = excluded.data",
                    (item_id, source, json.dumps(data, ensure_ascii=False, sort_keys=True)))

    def adjudication_items(self) -> list[tuple[str, str, dict[str, Any]]]:
        """``(item_id, source file, disagreement)`` of every disagreement loaded at init."""
        return [(item_id, source, json.loads(data))
                for item_id, source, data in self._rows("SELECT item_id, source, data FROM adjudication_items")]

    # -- verdicts: the answers given in the workbench ------------------------------------------------
    def items_version(self, request_id: str, user: str) -> tuple[Any, ...]:
        """Changes whenever what ``user`` is asked on ``request_id`` may change: the topic's bank (every edit is
        in the history), the user's answers (every post is in the log), the reports, prior judgments and
        suggestions (``init``). Cheap: indexed maxima and counts."""
        row = self._rows(
            "SELECT (SELECT MAX(id) FROM history WHERE request_id = ?), (SELECT MAX(id) FROM verdict_log WHERE user = ?), "
            "(SELECT COUNT(*) FROM reports WHERE request_id = ?), (SELECT COUNT(*) FROM prior), "
            "(SELECT COUNT(*) FROM suggestions)", (request_id, user, request_id))
        return tuple(row[0])

    def user_judgments(self, request_id: str, user: str) -> list[Judgment]:
        """What this assessor answered on this topic, as judgments (their path through the flowchart)."""
        return [verdict_judgment(row) for row in self.verdict_rows(request_id=request_id, user=user, role="assessor")]

    def verdict(self, item_id: str, user: str, role: str) -> tuple[bool, str] | None:
        """``(value, time)`` of this user's stored answer to the item in this role."""
        rows = self._rows("SELECT value, at FROM verdicts WHERE item_id = ? AND user = ? AND role = ?",
                          (item_id, user, role))
        return (bool(rows[0][0]), rows[0][1]) if rows else None

    def save_verdict(self, row: dict[str, Any]) -> None:
        """Store an answer (``row`` has every ``VERDICT_COLUMNS`` name) over the same user's earlier one in the
        same role, keeping the first suggestion shown, and append it to ``verdict_log``."""
        values = [row[column] for column in VERDICT_COLUMNS]
        values[VERDICT_COLUMNS.index("value")] = int(row["value"])
        values[VERDICT_COLUMNS.index("ord")] = json.dumps(row["ord"], ensure_ascii=False)
        with self.transaction():
            self._write(
                f"INSERT INTO verdicts({', '.join(VERDICT_COLUMNS)}) VALUES ({', '.join('?' * len(VERDICT_COLUMNS))}) "
                "ON CONFLICT(item_id, user, role) DO UPDATE SET value = excluded.value, at = excluded.at, "
                "rationale = excluded.rationale, stage = excluded.stage, "
                "suggested_value = COALESCE(verdicts.suggested_value, excluded.suggested_value), "
                "suggested_judge = COALESCE(verdicts.suggested_judge, excluded.suggested_judge)", values)
            self._write("INSERT INTO verdict_log(item_id, user, role, value, at) VALUES (?, ?, ?, ?, ?)",
                        (row["item_id"], row["user"], row["role"], int(row["value"]), row["at"]))

    def answer_counts(self) -> dict[str, dict[str, dict[str, int]]]:
        """Assessors' answers so far: topic -> user -> stage -> count (a count, cheap for many topics)."""
        done: dict[str, dict[str, dict[str, int]]] = {}
        for topic, user, stage, count in self._rows("SELECT request_id, user, stage, COUNT(*) FROM verdicts "
                                                    "WHERE role = 'assessor' GROUP BY request_id, user, stage"):
            done.setdefault(topic, {}).setdefault(user, {})[stage] = count
        return done
