"""The workbench database: one SQLite file (WAL) that holds a whole assessment round.

Why SQLite: one file an organizer can copy, back up and inspect; transactions, so an answer is on disk
(``synchronous=FULL``) before the page moves on and a server killed with SIGKILL loses nothing it
acknowledged; WAL, so assessors' reads never wait for a writer. Every connection is opened by ``Store``
(one per thread: the web server answers requests from a thread pool).

Tables (``SCHEMA``): ``meta`` (schema version, policies), ``requests``, ``documents`` (the texts of pooled
and cited documents, copied at ``init`` so serving needs no collection), ``pool`` (documents per topic, in
pool order), ``reports`` (the reports to assess), the nugget bank (``nuggets``, ``answers``, ``bindings``:
the document an answer is bound to and, as provenance, the offsets of the selected text) with its
``history``, ``users``, ``sessions``, ``assignments``, ``prior`` judgments (given at init: not asked
again), judge ``suggestions``, ``verdicts`` (the latest answer of each assessor to each item, and the
adjudicated answers), ``verdict_log`` (every answer ever posted), ``adjudication_items`` (disagreements
loaded from ``agree-judgments --disagreements``) and ``seen`` (pooled documents an assessor has opened).

A database from a newer version, a damaged or foreign file, or a read-only one is refused with a one-line
``InputError`` (exit 2) before anything is read.
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..argue.policies import Policies
from ..errors import InputError, OptionError
from ..model import Answer, Document, Judgment, Nugget, Report, Request, Sentence, TopicNuggets, natural_key

__all__ = ["SCHEMA_VERSION", "Store", "now", "STAGES", "STAGE_OF_KIND"]

SCHEMA_VERSION = 1

STAGES = ("nuggets", "citations", "sentences")
"""The assessor's stages, in the order a round runs them."""
STAGE_OF_KIND = {
    "relevant": "citations", "attested": "citations",
    "answers": "sentences", "negative": "sentences", "nugget_agrees": "sentences",
    "requires_citation": "sentences", "first_instance": "sentences",
}
"""Which stage asks each judgment kind: a (sentence, cited document) pair's relevance and support in the
citation stage; what a sentence gives (nugget answers) and the uncited sentence's questions in the
sentence stage."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS requests(request_id TEXT PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS documents(doc_id TEXT PRIMARY KEY, title TEXT NOT NULL, text TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pool(request_id TEXT NOT NULL, doc_id TEXT NOT NULL, position INTEGER NOT NULL,
    source TEXT NOT NULL, PRIMARY KEY(request_id, doc_id));
CREATE TABLE IF NOT EXISTS reports(run_id TEXT NOT NULL, request_id TEXT NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY(run_id, request_id));
CREATE TABLE IF NOT EXISTS nuggets(nugget_id TEXT PRIMARY KEY, request_id TEXT NOT NULL, position INTEGER NOT NULL,
    question TEXT NOT NULL, importance TEXT, aggregator TEXT NOT NULL DEFAULT 'OR', negative INTEGER NOT NULL DEFAULT 0,
    deleted INTEGER NOT NULL DEFAULT 0, extra TEXT NOT NULL DEFAULT '{}');
CREATE INDEX IF NOT EXISTS nuggets_topic ON nuggets(request_id, position);
CREATE TABLE IF NOT EXISTS answers(answer_id INTEGER PRIMARY KEY, nugget_id TEXT NOT NULL, position INTEGER NOT NULL,
    text TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0, extra TEXT NOT NULL DEFAULT '{}');
CREATE INDEX IF NOT EXISTS answers_nugget ON answers(nugget_id, position);
CREATE TABLE IF NOT EXISTS bindings(answer_id INTEGER NOT NULL, doc_id TEXT NOT NULL, start INTEGER, end INTEGER,
    quote TEXT, user TEXT, at TEXT, position INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS bindings_answer ON bindings(answer_id, position);
CREATE TABLE IF NOT EXISTS history(id INTEGER PRIMARY KEY, request_id TEXT NOT NULL, nugget_id TEXT, user TEXT NOT NULL,
    at TEXT NOT NULL, action TEXT NOT NULL, detail TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS users(name TEXT PRIMARY KEY, admin INTEGER NOT NULL, salt BLOB NOT NULL, hash BLOB NOT NULL,
    must_change INTEGER NOT NULL DEFAULT 1, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions(token_hash TEXT PRIMARY KEY, user TEXT NOT NULL, csrf TEXT NOT NULL,
    expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS assignments(request_id TEXT NOT NULL, user TEXT NOT NULL, PRIMARY KEY(request_id, user));
CREATE TABLE IF NOT EXISTS prior(item_id TEXT PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS suggestions(item_id TEXT PRIMARY KEY, value INTEGER NOT NULL, judge TEXT NOT NULL,
    rationale TEXT);
CREATE TABLE IF NOT EXISTS verdicts(item_id TEXT NOT NULL, user TEXT NOT NULL, role TEXT NOT NULL, kind TEXT NOT NULL,
    request_id TEXT NOT NULL, sentence TEXT NOT NULL, doc_id TEXT, nugget_id TEXT, answer TEXT, run_id TEXT,
    sentence_index INTEGER, value INTEGER NOT NULL, stage TEXT NOT NULL, at TEXT NOT NULL, rationale TEXT,
    suggested_value INTEGER, suggested_judge TEXT, ord TEXT NOT NULL, PRIMARY KEY(item_id, user, role));
CREATE INDEX IF NOT EXISTS verdicts_topic ON verdicts(request_id, user);
CREATE TABLE IF NOT EXISTS verdict_log(id INTEGER PRIMARY KEY, item_id TEXT NOT NULL, user TEXT NOT NULL,
    role TEXT NOT NULL, value INTEGER NOT NULL, at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS verdict_log_user ON verdict_log(user, id);
CREATE INDEX IF NOT EXISTS history_topic ON history(request_id, id);
CREATE TABLE IF NOT EXISTS adjudication_items(item_id TEXT PRIMARY KEY, source TEXT NOT NULL, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seen(request_id TEXT NOT NULL, doc_id TEXT NOT NULL, user TEXT NOT NULL,
    PRIMARY KEY(request_id, doc_id, user));
"""


def now() -> str:
    """The time an answer is recorded: UTC, to the second, ISO 8601 (what the export writes)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _request_json(request: Request) -> str:
    return json.dumps({
        "request_id": request.request_id, "title": request.title, "background": request.background,
        "problem_statement": request.problem_statement, "limit": request.limit, "limit_unit": request.limit_unit,
        "collection_ids": list(request.collection_ids), "aspects": list(request.aspects), "language": request.language,
    }, ensure_ascii=False, sort_keys=True)


def _request_from(data: str) -> Request:
    obj = json.loads(data)
    return Request(obj["request_id"], obj["title"], obj["background"], obj["problem_statement"], obj["limit"],
                   obj["limit_unit"], tuple(obj["collection_ids"]), tuple(obj["aspects"]), obj["language"])


def _report_json(report: Report) -> str:
    return json.dumps({
        "run_id": report.run_id, "request_id": report.request_id,
        "sentences": [{"text": s.text, "citations": list(s.citations)} for s in report.sentences],
        "references": list(report.references) if report.references is not None else None,
    }, ensure_ascii=False, sort_keys=True)


def _report_from(data: str) -> Report:
    obj = json.loads(data)
    references = obj.get("references")
    return Report(obj["run_id"], obj["request_id"],
                  [Sentence(s["text"], tuple(s["citations"])) for s in obj["sentences"]],
                  tuple(references) if references is not None else None)


class Store:
    """One workbench database. ``Store.open`` checks the file; ``Store.create`` makes a new one."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._local = threading.local()
        # The server's threads take turns here rather than in SQLite's busy handler, which sleeps in growing
        # steps while it polls the lock (the long tail of answer times under load); other processes (a
        # concurrent `assess init`) are still waited for by SQLite's busy timeout.
        self._write_lock = threading.Lock()

    # -- opening -------------------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | os.PathLike[str], *, create: bool = False) -> Store:
        """Open (or with ``create``, create) a workbench database; a user error is a one-line ``InputError``."""
        path = Path(path)
        if path.is_dir():
            raise InputError(path, None, None, "is a directory; expected a workbench database file")
        exists = path.exists()
        if not exists and not create:
            raise InputError(path, None, None, "no such workbench database; create it with `argue-eval assess init`")
        # the write bits, not only access(2): root may write anything, yet a file without write bits is meant
        # to stay as it is
        if exists and (not os.access(path, os.W_OK) or not path.stat().st_mode & 0o222):
            raise InputError(path, None, None, "read-only: the workbench writes its database (and its -wal and -shm "
                             "files beside it); make it writable or copy it somewhere writable")
        parent = path.resolve().parent
        if not parent.exists():
            raise InputError(path, None, None, f"directory {parent} does not exist")
        if not os.access(parent, os.W_OK):
            raise InputError(path, None, None, f"read-only directory {parent}: SQLite keeps its -wal and -shm "
                             "files beside the database, so the directory must be writable")
        store = cls(path)
        try:
            with store.transaction() as db:
                if exists:
                    store._check(db)
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        except sqlite3.OperationalError as error:
            store.close()
            if "readonly" in str(error):
                raise InputError(path, None, None, "read-only: the workbench writes its database (and its -wal and "
                                 "-shm files beside it); make it writable or copy it somewhere writable") from None
            raise InputError(path, None, None, f"not a usable workbench database (damaged, or another kind of "
                             f"file: {error})") from None
        except sqlite3.DatabaseError as error:
            store.close()
            raise InputError(path, None, None, f"not a usable workbench database (damaged, or another kind of file: "
                             f"{error})") from None
        return store

    def _check(self, db: sqlite3.Connection) -> None:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "meta" not in tables:
            raise InputError(self.path, None, None, "not a workbench database (an SQLite file without the workbench's "
                             "tables); create one with `argue-eval assess init`")
        row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        version = int(row[0]) if row is not None and str(row[0]).isdigit() else None
        if version is None:
            raise InputError(self.path, None, None, "not a workbench database (no schema version)")
        if version > SCHEMA_VERSION:
            raise InputError(self.path, None, None, f"made by a newer argue-eval (workbench schema {version}; this "
                             f"version reads up to {SCHEMA_VERSION}): upgrade argue-eval to open it")

    def connection(self) -> sqlite3.Connection:
        """This thread's connection (WAL, full sync, foreign writers waited for up to 30 s)."""
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA busy_timeout=30000")
            self._local.db = db
        return db

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (``BEGIN IMMEDIATE``): committed when the block ends, rolled back on error."""
        db = self.connection()
        with self._write_lock:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def read(self, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        return self.connection().execute(sql, tuple(params)).fetchall()

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None

    # -- meta ----------------------------------------------------------------------------------------
    def meta(self, key: str, default: str | None = None) -> str | None:
        row = self.read("SELECT value FROM meta WHERE key = ?", (key,))
        return row[0][0] if row else default

    def set_meta(self, db: sqlite3.Connection, key: str, value: str) -> None:
        db.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                   (key, value))

    def policies(self) -> Policies:
        """The scoring policies the questions are listed under (set at ``init``; ``score`` must use the same)."""
        data = json.loads(self.meta("policies") or "{}")
        # a topic without nuggets yet is still assessed (its citations, its uncited sentences)
        data["evaluated_topics"] = "requests"
        return Policies(**data)

    # -- requests, documents, pool, reports ----------------------------------------------------------
    def add_request(self, db: sqlite3.Connection, request: Request) -> None:
        db.execute("INSERT INTO requests(request_id, data) VALUES (?, ?) ON CONFLICT(request_id) DO UPDATE "
                   "SET data = excluded.data", (request.request_id, _request_json(request)))

    def requests(self) -> dict[str, Request]:
        rows = self.read("SELECT data FROM requests")
        out = [_request_from(row[0]) for row in rows]
        return {r.request_id: r for r in sorted(out, key=lambda r: natural_key(r.request_id))}

    def request(self, request_id: str) -> Request | None:
        rows = self.read("SELECT data FROM requests WHERE request_id = ?", (request_id,))
        return _request_from(rows[0][0]) if rows else None

    def add_document(self, db: sqlite3.Connection, document: Document) -> bool:
        cursor = db.execute("INSERT OR IGNORE INTO documents(doc_id, title, text) VALUES (?, ?, ?)",
                            (document.doc_id, document.title or "", document.text or ""))
        return cursor.rowcount > 0

    def document(self, doc_id: str) -> Document | None:
        rows = self.read("SELECT doc_id, text, title FROM documents WHERE doc_id = ?", (doc_id,))
        return Document(*rows[0]) if rows else None

    def document_ids(self) -> set[str]:
        return {row[0] for row in self.read("SELECT doc_id FROM documents")}

    def documents(self) -> Iterator[Document]:
        for row in self.connection().execute("SELECT doc_id, text, title FROM documents ORDER BY doc_id"):
            yield Document(*row)

    def add_pooled(self, db: sqlite3.Connection, request_id: str, doc_id: str, source: str) -> bool:
        position = db.execute("SELECT COALESCE(MAX(position), -1) + 1 FROM pool WHERE request_id = ?",
                              (request_id,)).fetchone()[0]
        cursor = db.execute("INSERT OR IGNORE INTO pool(request_id, doc_id, position, source) VALUES (?, ?, ?, ?)",
                            (request_id, doc_id, position, source))
        return cursor.rowcount > 0

    def pool(self, request_id: str) -> list[str]:
        return [row[0] for row in self.read("SELECT doc_id FROM pool WHERE request_id = ? ORDER BY position",
                                            (request_id,))]

    def add_report(self, db: sqlite3.Connection, report: Report) -> str:
        """Store a report; ``added``, ``same`` (already there) or ``changed`` (kept the first: answers refer to it)."""
        data = _report_json(report)
        row = db.execute("SELECT data FROM reports WHERE run_id = ? AND request_id = ?",
                         (report.run_id, report.request_id)).fetchone()
        if row is None:
            db.execute("INSERT INTO reports(run_id, request_id, data) VALUES (?, ?, ?)",
                       (report.run_id, report.request_id, data))
            return "added"
        return "same" if row[0] == data else "changed"

    def reports(self, request_id: str | None = None) -> list[Report]:
        if request_id is None:
            rows = self.read("SELECT data FROM reports")
        else:
            rows = self.read("SELECT data FROM reports WHERE request_id = ?", (request_id,))
        reports = [_report_from(row[0]) for row in rows]
        return sorted(reports, key=lambda r: (natural_key(r.request_id), natural_key(r.run_id)))

    # -- the nugget bank -----------------------------------------------------------------------------
    def topic_nuggets(self, request_id: str) -> TopicNuggets:
        """The topic's current bank (deleted nuggets and answers left out), in the authors' order."""
        nuggets = []
        for nugget_id, question, importance, aggregator, negative, extra in self.read(
                "SELECT nugget_id, question, importance, aggregator, negative, extra FROM nuggets "
                "WHERE request_id = ? AND deleted = 0 ORDER BY position", (request_id,)):
            answers = []
            for answer_id, text, answer_extra in self.read(
                    "SELECT answer_id, text, extra FROM answers WHERE nugget_id = ? AND deleted = 0 ORDER BY position",
                    (nugget_id,)):
                docs = tuple(dict.fromkeys(row[0] for row in self.read(
                    "SELECT doc_id FROM bindings WHERE answer_id = ? ORDER BY position", (answer_id,))))
                more = json.loads(answer_extra)
                answers.append(Answer(text, docs, more or None))
            nuggets.append(Nugget(nugget_id, request_id, question, answers, importance, aggregator, bool(negative),
                                  json.loads(extra)))
        return TopicNuggets(request_id, nuggets)

    def nugget_rows(self, request_id: str) -> list[dict[str, Any]]:
        """The bank as the authoring page shows it: nuggets with answer ids and bindings with offsets."""
        out = []
        for nugget_id, question, importance, aggregator, negative in self.read(
                "SELECT nugget_id, question, importance, aggregator, negative FROM nuggets "
                "WHERE request_id = ? AND deleted = 0 ORDER BY position", (request_id,)):
            answers = []
            for answer_id, text in self.read("SELECT answer_id, text FROM answers WHERE nugget_id = ? AND deleted = 0 "
                                             "ORDER BY position", (nugget_id,)):
                bindings = [
                    {"doc_id": d, "start": s, "end": e, "quote": q}
                    for d, s, e, q in self.read("SELECT doc_id, start, end, quote FROM bindings WHERE answer_id = ? "
                                                "ORDER BY position", (answer_id,))
                ]
                answers.append({"answer_id": answer_id, "text": text, "bindings": bindings})
            out.append({"nugget_id": nugget_id, "question": question, "importance": importance,
                        "aggregator": aggregator, "negative": bool(negative), "answers": answers})
        return out

    def nugget_topic(self, nugget_id: str) -> str | None:
        rows = self.read("SELECT request_id FROM nuggets WHERE nugget_id = ? AND deleted = 0", (nugget_id,))
        return rows[0][0] if rows else None

    def answer_nugget(self, answer_id: int) -> tuple[str, str] | None:
        """``(nugget_id, request_id)`` of a live answer."""
        rows = self.read("SELECT a.nugget_id, n.request_id FROM answers a JOIN nuggets n USING(nugget_id) "
                         "WHERE a.answer_id = ? AND a.deleted = 0 AND n.deleted = 0", (answer_id,))
        return (rows[0][0], rows[0][1]) if rows else None

    def new_nugget_id(self, db: sqlite3.Connection, request_id: str) -> str:
        taken = {row[0] for row in db.execute("SELECT nugget_id FROM nuggets")}
        k = db.execute("SELECT COUNT(*) FROM nuggets WHERE request_id = ?", (request_id,)).fetchone()[0] + 1
        while f"{request_id}-n{k}" in taken:
            k += 1
        return f"{request_id}-n{k}"

    def insert_nugget(self, db: sqlite3.Connection, nugget: Nugget) -> None:
        position = db.execute("SELECT COALESCE(MAX(position), -1) + 1 FROM nuggets WHERE request_id = ?",
                              (nugget.request_id,)).fetchone()[0]
        db.execute("INSERT INTO nuggets(nugget_id, request_id, position, question, importance, aggregator, negative, "
                   "extra) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   (nugget.nugget_id, nugget.request_id, position, nugget.question, nugget.importance,
                    nugget.aggregator, int(nugget.negative), json.dumps(nugget.extra, sort_keys=True)))
        for answer in nugget.answers:
            answer_id = self.insert_answer(db, nugget.nugget_id, answer.text, answer.extra)
            for doc_id in answer.doc_ids:
                self.insert_binding(db, answer_id, doc_id, None, None, None, None)

    def insert_answer(self, db: sqlite3.Connection, nugget_id: str, text: str, extra: dict[str, Any] | None = None) -> int:
        position = db.execute("SELECT COALESCE(MAX(position), -1) + 1 FROM answers WHERE nugget_id = ?",
                              (nugget_id,)).fetchone()[0]
        cursor = db.execute("INSERT INTO answers(nugget_id, position, text, extra) VALUES (?, ?, ?, ?)",
                            (nugget_id, position, text, json.dumps(extra or {}, sort_keys=True)))
        return int(cursor.lastrowid or 0)

    def insert_binding(self, db: sqlite3.Connection, answer_id: int, doc_id: str, start: int | None, end: int | None,
                       quote: str | None, user: str | None) -> None:
        position = db.execute("SELECT COALESCE(MAX(position), -1) + 1 FROM bindings WHERE answer_id = ?",
                              (answer_id,)).fetchone()[0]
        db.execute("INSERT INTO bindings(answer_id, doc_id, start, end, quote, user, at, position) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   (answer_id, doc_id, start, end, quote, user, now() if user else None, position))

    def log_history(self, db: sqlite3.Connection, request_id: str, nugget_id: str | None, user: str, action: str,
                    detail: dict[str, Any]) -> None:
        db.execute("INSERT INTO history(request_id, nugget_id, user, at, action, detail) VALUES (?, ?, ?, ?, ?, ?)",
                   (request_id, nugget_id, user, now(), action, json.dumps(detail, ensure_ascii=False, sort_keys=True)))

    def history(self, request_id: str) -> list[dict[str, Any]]:
        return [{"nugget_id": n, "user": u, "at": a, "action": act, "detail": json.loads(d)}
                for n, u, a, act, d in self.read("SELECT nugget_id, user, at, action, detail FROM history "
                                                 "WHERE request_id = ? ORDER BY id", (request_id,))]

    # -- users, sessions, assignments ----------------------------------------------------------------
    def users(self) -> list[tuple[str, bool, bool]]:
        """``(name, admin, must_change_password)`` by name."""
        return [(n, bool(a), bool(m)) for n, a, m in self.read("SELECT name, admin, must_change FROM users ORDER BY name")]

    def user(self, name: str) -> tuple[str, bool, bool, bytes, bytes] | None:
        rows = self.read("SELECT name, admin, must_change, salt, hash FROM users WHERE name = ?", (name,))
        if not rows:
            return None
        n, a, m, s, h = rows[0]
        return n, bool(a), bool(m), s, h

    def assigned(self, user: str) -> list[str]:
        rows = self.read("SELECT request_id FROM assignments WHERE user = ?", (user,))
        return sorted((row[0] for row in rows), key=natural_key)

    def assessors(self, request_id: str) -> list[str]:
        return sorted(row[0] for row in self.read("SELECT user FROM assignments WHERE request_id = ?", (request_id,)))

    def all_assignments(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for request_id, user in self.read("SELECT request_id, user FROM assignments ORDER BY user"):
            out.setdefault(request_id, []).append(user)
        return out

    def may_open(self, user: str, admin: bool, request_id: str) -> bool:
        """An admin opens every topic; an assessor only the topics assigned to them."""
        if admin:
            return self.request(request_id) is not None
        return bool(self.read("SELECT 1 FROM assignments WHERE request_id = ? AND user = ?", (request_id, user)))

    # -- judgments: prior, suggestions, verdicts -----------------------------------------------------
    def prior_judgments(self) -> list[Judgment]:
        return [_judgment_from(json.loads(row[0])) for row in self.read("SELECT data FROM prior ORDER BY rowid")]

    def suggestion(self, item_id: str) -> tuple[bool, str, str | None] | None:
        rows = self.read("SELECT value, judge, rationale FROM suggestions WHERE item_id = ?", (item_id,))
        return (bool(rows[0][0]), rows[0][1], rows[0][2]) if rows else None

    def items_version(self, request_id: str, user: str) -> tuple[Any, ...]:
        """Changes whenever what ``user`` is asked on ``request_id`` may change: the topic's bank (every edit is
        in the history), the user's answers (every post is in the log), the reports, prior judgments and
        suggestions (``init``). Cheap: indexed maxima and counts."""
        row = self.read(
            "SELECT (SELECT MAX(id) FROM history WHERE request_id = ?), (SELECT MAX(id) FROM verdict_log WHERE user = ?), "
            "(SELECT COUNT(*) FROM reports WHERE request_id = ?), (SELECT COUNT(*) FROM prior), "
            "(SELECT COUNT(*) FROM suggestions)", (request_id, user, request_id))
        return tuple(row[0])

    def suggestions(self, item_ids: list[str]) -> dict[str, tuple[bool, str, str | None]]:
        """The suggestions for these items (one query per 500 ids)."""
        out: dict[str, tuple[bool, str, str | None]] = {}
        for start in range(0, len(item_ids), 500):
            chunk = item_ids[start:start + 500]
            marks = ",".join("?" * len(chunk))
            for item_id, value, judge, rationale in self.read(
                    f"SELECT item_id, value, judge, rationale FROM suggestions WHERE item_id IN ({marks})", chunk):
                out[item_id] = (bool(value), judge, rationale)
        return out

    def verdict_rows(self, where: str = "", params: Iterable[Any] = ()) -> list[dict[str, Any]]:
        sql = ("SELECT item_id, user, role, kind, request_id, sentence, doc_id, nugget_id, answer, run_id, "
               "sentence_index, value, stage, at, rationale, suggested_value, suggested_judge, ord FROM verdicts")
        names = ("item_id", "user", "role", "kind", "request_id", "sentence", "doc_id", "nugget_id", "answer", "run_id",
                 "sentence_index", "value", "stage", "at", "rationale", "suggested_value", "suggested_judge", "ord")
        out = []
        for row in self.read(sql + (f" WHERE {where}" if where else ""), params):
            item = dict(zip(names, row))
            item["value"] = bool(item["value"])
            if item["suggested_value"] is not None:
                item["suggested_value"] = bool(item["suggested_value"])
            item["ord"] = json.loads(item["ord"])
            out.append(item)
        return out

    def user_judgments(self, request_id: str, user: str) -> list[Judgment]:
        """What this assessor answered on this topic, as judgments (their path through the flowchart)."""
        return [verdict_judgment(row) for row in self.verdict_rows("request_id = ? AND user = ? AND role = 'assessor'",
                                                                   (request_id, user))]


def verdict_judgment(row: dict[str, Any], judge: str | None = None, provenance: dict[str, Any] | None = None) -> Judgment:
    """A stored verdict as a canonical judgment (``human:NAME``)."""
    return Judgment(kind=row["kind"], request_id=row["request_id"], sentence=row["sentence"], value=bool(row["value"]),
                    judge=judge or f"human:{row['user']}", doc_id=row["doc_id"], nugget_id=row["nugget_id"],
                    answer=row["answer"], run_id=row["run_id"], sentence_index=row["sentence_index"],
                    rationale=row["rationale"], provenance=provenance)


def judgment_json(judgment: Judgment) -> str:
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


def check_topics(spec: str, known: Iterable[str]) -> list[str]:
    """``300,301-305`` as topic ids: ranges expand over numeric ids; every id must be a known topic."""
    known_set = set(known)
    out: list[str] = []
    for part in (p.strip() for p in spec.split(",")):
        if not part:
            continue
        if part in known_set:
            out.append(part)
            continue
        low, dash, high = part.partition("-")
        if dash and low.strip().isdigit() and high.strip().isdigit():
            a, b = int(low), int(high)
            if a > b:
                raise OptionError("--topics", f"empty range {part!r}")
            wanted = [str(k) for k in range(a, b + 1)]
            missing = [t for t in wanted if t not in known_set]
            if missing:
                raise OptionError("--topics", f"topic(s) {', '.join(missing[:5])} of {part!r} are not in the workbench")
            out.extend(wanted)
            continue
        raise OptionError("--topics", f"unknown topic {part!r}; the workbench has "
                          f"{', '.join(sorted(known_set, key=natural_key)[:10]) or 'no topics'}")
    if not out:
        raise OptionError("--topics", "no topic given")
    return list(dict.fromkeys(out))
