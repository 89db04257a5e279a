"""The workbench database: one SQLite file (WAL) that holds a whole assessment round, and every query on it.

Why SQLite: one file an organizer can copy, back up and inspect; transactions, so an answer is on disk
(``synchronous=FULL``) before the page moves on and a server killed with SIGKILL loses nothing it
acknowledged; WAL, so assessors' reads (and a ``score`` reading a round in progress) never wait for a
writer. Every connection is opened by ``Store`` (one per thread: the web server answers requests from a
thread pool).

This module is the only one that speaks SQL (``tests/test_workbench_structure.py`` fails on SQL anywhere
else in the workbench): one method per query, each query written once, as datasette keeps its queries
behind its ``Database`` class. A method that writes runs in a transaction of its own, or in the caller's
(``with store.transaction():`` groups several writes into one commit); a method that reads sees the
caller's transaction when there is one. Callers get records (``model``) and plain rows (dicts, tuples),
never a connection.

Tables (``SCHEMA``): ``meta`` (schema version, policies), ``requests``, ``documents`` (the texts of pooled
and cited documents, copied at ``init`` so serving needs no collection), ``pool`` (documents per topic, in
pool order), ``reports`` (the reports to assess), the nugget bank (``nuggets``, ``answers``, ``bindings``:
the document an answer is bound to and, as provenance, the offsets of the selected text) with its
``history``, ``users``, ``sessions``, ``assignments``, ``prior`` judgments (given at init: not asked
again), judge ``suggestions``, ``verdicts`` (the latest answer of each assessor to each item, and the
adjudicated answers), ``verdict_log`` (every answer ever posted), ``adjudication_items`` (disagreements
loaded from ``agree-judgments --disagreements``) and ``seen`` (pooled documents an assessor has opened).

A database from a newer version, a damaged or foreign file, or a read-only one (unless opened
``read_only``) is refused with a one-line ``InputError`` (exit 2) before anything is read.
"""
from __future__ import annotations

import json
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..argue.policies import Policies
from ..errors import InputError
from ..model import Answer, Document, Judgment, Nugget, Report, Request, Sentence, TopicNuggets, natural_key

__all__ = ["SCHEMA_VERSION", "SQLITE_HEADER", "Store", "now", "order_key", "verdict_judgment", "judgment_json",
           "is_sqlite_file"]

SCHEMA_VERSION = 1
SQLITE_HEADER = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file (what tells a workbench database from a JSONL file)."""

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

VERDICT_COLUMNS = ("item_id", "user", "role", "kind", "request_id", "sentence", "doc_id", "nugget_id", "answer",
                   "run_id", "sentence_index", "value", "stage", "at", "rationale", "suggested_value",
                   "suggested_judge", "ord")
"""The columns of ``verdicts``, in table order: ``Store.verdict_rows`` returns them by these names."""

_READ_ONLY = ("read-only: the workbench writes its database (and its -wal and -shm files beside it); make it "
              "writable or copy it somewhere writable")


def now() -> str:
    """The time an answer is recorded: UTC, to the second, ISO 8601 (what the export writes)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def is_sqlite_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a regular file that starts like an SQLite database (16 bytes read; nothing is opened
    as one). A pipe (a shell's ``<(...)``, ``/dev/stdin``) is never read here: its bytes are its reader's, and a
    database is never a pipe."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        with open(path, "rb") as handle:
            return handle.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


# -- how records are kept in their columns ------------------------------------------------------------
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


def verdict_judgment(row: dict[str, Any], judge: str | None = None, provenance: dict[str, Any] | None = None) -> Judgment:
    """A stored verdict as a canonical judgment (``human:NAME``)."""
    return Judgment(kind=row["kind"], request_id=row["request_id"], sentence=row["sentence"], value=bool(row["value"]),
                    judge=judge or f"human:{row['user']}", doc_id=row["doc_id"], nugget_id=row["nugget_id"],
                    answer=row["answer"], run_id=row["run_id"], sentence_index=row["sentence_index"],
                    rationale=row["rationale"], provenance=provenance)


def order_key(order: list[Any]) -> tuple[Any, ...]:
    """Sort key of a verdict's ``ord`` column: (topic, run, sentence index, kind, document, nugget, answer)."""
    request_id, run_id, index, kind, doc_id, nugget_id, answer = order
    return natural_key(request_id), natural_key(run_id), index, kind, doc_id, nugget_id, answer


class Store:
    """One workbench database. ``Store.open`` checks the file (``create``: makes a new one; ``read_only``: opens
    it for reading only, as ``score`` does)."""

    def __init__(self, path: Path, read_only: bool = False):
        self.path = Path(path)
        self.read_only = read_only
        self._local = threading.local()
        # The server's threads take turns here rather than in SQLite's busy handler, which sleeps in growing
        # steps while it polls the lock (the long tail of answer times under load); other processes (a
        # concurrent `assess init`) are still waited for by SQLite's busy timeout.
        self._write_lock = threading.Lock()

    # -- opening -------------------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | os.PathLike[str], *, create: bool = False, read_only: bool = False) -> Store:
        """Open (or with ``create``, create) a workbench database; a user error is a one-line ``InputError``."""
        path = Path(path)
        if path.is_dir():
            raise InputError(path, None, None, "is a directory; expected a workbench database file")
        exists = path.exists()
        if not exists and not create:
            raise InputError(path, None, None, "no such workbench database; create it with `argue-eval assess init`")
        if read_only:
            return cls._open_read_only(path)
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
            raise _unusable(path, error) from None
        except sqlite3.DatabaseError as error:
            store.close()
            raise _unusable(path, error) from None
        return store

    @classmethod
    def _open_read_only(cls, path: Path) -> Store:
        store = cls(path, read_only=True)
        try:
            with store.snapshot():
                store._check()
        except sqlite3.DatabaseError as error:
            store.close()
            raise _unusable(path, error) from None
        return store

    def _check(self) -> None:
        tables = {row[0] for row in self._rows("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "meta" not in tables:
            raise InputError(self.path, None, None, "not a workbench database (an SQLite file without the workbench's "
                             "tables); create one with `argue-eval assess init`")
        value = self.meta("schema_version")
        version = int(value) if value is not None and str(value).isdigit() else None
        if version is None:
            raise InputError(self.path, None, None, "not a workbench database (no schema version)")
        if version > SCHEMA_VERSION:
            raise InputError(self.path, None, None, f"made by a newer argue-eval (workbench schema {version}; this "
                             f"version reads up to {SCHEMA_VERSION}): upgrade argue-eval to open it")

    def _connection(self) -> sqlite3.Connection:
        """This thread's connection (WAL, full sync, foreign writers waited for up to 30 s)."""
        db = getattr(self._local, "db", None)
        if db is None:
            if self.read_only:
                db = sqlite3.connect(self.path.resolve().as_uri() + "?mode=ro", uri=True, timeout=30,
                                     isolation_level=None, check_same_thread=False)
            else:
                db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA busy_timeout=30000")
            self._local.db = db
            self._local.depth, self._local.writing = 0, False
        return db

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

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Several reads that see one state of the database (a read transaction; inside a write transaction,
        that transaction), so a reader never mixes the bank before an edit with the answers after it."""
        db = self._connection()
        if self._local.depth:
            self._local.depth += 1
            try:
                yield
            finally:
                self._local.depth -= 1
            return
        db.execute("BEGIN")
        self._local.depth = 1
        try:
            yield
        finally:
            self._local.depth = 0
            db.execute("COMMIT")

    def _rows(self, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        return self._connection().execute(sql, tuple(params)).fetchall()

    def _value(self, sql: str, params: Iterable[Any] = ()) -> Any:
        """The first column of the first row (``None`` when there is no row)."""
        row = self._connection().execute(sql, tuple(params)).fetchone()
        return None if row is None else row[0]

    def _write(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Cursor:
        with self.transaction():
            return self._connection().execute(sql, tuple(params))

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None

    # -- meta ----------------------------------------------------------------------------------------
    def meta(self, key: str, default: str | None = None) -> str | None:
        value = self._value("SELECT value FROM meta WHERE key = ?", (key,))
        return default if value is None else value

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
                    "SET data = excluded.data", (request.request_id, _request_json(request)))

    def requests(self) -> dict[str, Request]:
        out = [_request_from(row[0]) for row in self._rows("SELECT data FROM requests")]
        return {r.request_id: r for r in sorted(out, key=lambda r: natural_key(r.request_id))}

    def request(self, request_id: str) -> Request | None:
        data = self._value("SELECT data FROM requests WHERE request_id = ?", (request_id,))
        return _request_from(data) if data is not None else None

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
        data = _report_json(report)
        with self.transaction():
            stored = self._value("SELECT data FROM reports WHERE run_id = ? AND request_id = ?",
                                 (report.run_id, report.request_id))
            if stored is None:
                self._write("INSERT INTO reports(run_id, request_id, data) VALUES (?, ?, ?)",
                            (report.run_id, report.request_id, data))
                return "added"
        return "same" if stored == data else "changed"

    def reports(self, request_id: str | None = None) -> list[Report]:
        if request_id is None:
            rows = self._rows("SELECT data FROM reports")
        else:
            rows = self._rows("SELECT data FROM reports WHERE request_id = ?", (request_id,))
        reports = [_report_from(row[0]) for row in rows]
        return sorted(reports, key=lambda r: (natural_key(r.request_id), natural_key(r.run_id)))

    # -- the nugget bank: reading --------------------------------------------------------------------
    def _bank(self, request_id: str) -> list[dict[str, Any]]:
        """The topic's live bank as rows: nuggets in the authors' order, each with its live answers (answer id,
        text, extra) and each answer with its bindings (document and selected span), in their order."""
        with self.snapshot():
            nuggets = self._rows("SELECT nugget_id, question, importance, aggregator, negative, extra FROM nuggets "
                                 "WHERE request_id = ? AND deleted = 0 ORDER BY position, rowid", (request_id,))
            answers = self._rows(
                "SELECT a.nugget_id, a.answer_id, a.text, a.extra FROM answers a JOIN nuggets n USING(nugget_id) "
                "WHERE n.request_id = ? AND n.deleted = 0 AND a.deleted = 0 ORDER BY a.position, a.answer_id",
                (request_id,))
            bindings = self._rows(
                "SELECT b.answer_id, b.doc_id, b.start, b.end, b.quote FROM bindings b JOIN answers a USING(answer_id) "
                "JOIN nuggets n USING(nugget_id) WHERE n.request_id = ? AND n.deleted = 0 AND a.deleted = 0 "
                "ORDER BY b.position, b.rowid", (request_id,))
        bound: dict[int, list[dict[str, Any]]] = {}
        for answer_id, doc_id, start, end, quote in bindings:
            bound.setdefault(answer_id, []).append({"doc_id": doc_id, "start": start, "end": end, "quote": quote})
        given: dict[str, list[dict[str, Any]]] = {}
        for nugget_id, answer_id, text, extra in answers:
            given.setdefault(nugget_id, []).append({"answer_id": answer_id, "text": text, "extra": json.loads(extra),
                                                    "bindings": bound.get(answer_id, [])})
        return [{"nugget_id": nugget_id, "question": question, "importance": importance, "aggregator": aggregator,
                 "negative": bool(negative), "extra": json.loads(extra), "answers": given.get(nugget_id, [])}
                for nugget_id, question, importance, aggregator, negative, extra in nuggets]

    def topic_nuggets(self, request_id: str, selections: bool = False) -> TopicNuggets:
        """The topic's current bank (deleted nuggets and answers left out), in the authors' order; with
        ``selections``, each answer bound by a text selection keeps it in ``extra["selections"]`` (the export)."""
        nuggets = []
        for row in self._bank(request_id):
            answers = []
            for answer in row["answers"]:
                extra = dict(answer["extra"])
                chosen = [b for b in answer["bindings"] if b["start"] is not None]
                if selections and chosen:
                    extra["selections"] = chosen
                docs = tuple(dict.fromkeys(b["doc_id"] for b in answer["bindings"]))
                answers.append(Answer(answer["text"], docs, extra or None))
            nuggets.append(Nugget(row["nugget_id"], request_id, row["question"], answers, row["importance"],
                                  row["aggregator"], row["negative"], row["extra"]))
        return TopicNuggets(request_id, nuggets)

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

    def verdict_rows(self, *, request_id: str | None = None, user: str | None = None, role: str | None = None,
                     answer: str | None = None, suggested: bool = False) -> list[dict[str, Any]]:
        """The stored verdicts (every one, or those of the given topic, user, role, nugget answer text; with
        ``suggested``, only those given where a judge's suggestion was shown), by ``VERDICT_COLUMNS`` name."""
        conditions = [(column, value) for column, value in
                      (("request_id", request_id), ("user", user), ("role", role), ("answer", answer))
                      if value is not None]
        where = [f"{column} = ?" for column, _ in conditions] + (["suggested_judge IS NOT NULL"] if suggested else [])
        sql = f"SELECT {', '.join(VERDICT_COLUMNS)} FROM verdicts" + (f" WHERE {' AND '.join(where)}" if where else "")
        out = []
        for row in self._rows(sql, [value for _, value in conditions]):
            item = dict(zip(VERDICT_COLUMNS, row))
            item["value"] = bool(item["value"])
            if item["suggested_value"] is not None:
                item["suggested_value"] = bool(item["suggested_value"])
            item["ord"] = json.loads(item["ord"])
            out.append(item)
        return out

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


def _unusable(path: Path, error: Exception) -> InputError:
    return InputError(path, None, None, f"not a usable workbench database (damaged, or another kind of file: {error})")
