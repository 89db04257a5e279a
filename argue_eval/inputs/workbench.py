"""A workbench database as a file: its schema, and what ``score`` reads from it (its bank, its answers as
judgments, its reports), so a round in progress is scored without an export
(``score --nuggets round.sqlite --judgments round.sqlite``).

The database is recognised by its first 16 bytes (every SQLite file starts with ``SQLite format 3\\0``; no
text format does), so ``--judgments`` and ``--nuggets`` take it where they take a file, and ``api.score``,
``api.judge`` and ``api.evaluate`` take its path as they take any other. It is opened read-only, in one read
transaction (a server answering at the same time is neither blocked nor seen half-way).

What is read is exactly what ``assess export-db`` writes (``workbench.exporting.export_round`` calls these
functions): the bank of every topic that has nuggets, with each answer's selections; one judgment per answer
given (``human:NAME``), an adjudicated item's decision after them (``human:NAME:adjudication``, so the later
judgment wins as in a file), answers about nugget answers since edited or deleted left out; in the export's
order. Scoring the database and scoring its export give the same table. Prior judgments given at
``assess init --judgments`` are not repeated: pass that file first, as with the export.

The schema lives here, with the file's reader, as a format's reader and writer live together: the reading is
an input's job, and the workbench's ``store.Store``, which writes the file, builds on ``WorkbenchDatabase``
(the connection, the schema, the reads below). These two modules are the only ones that speak SQL
(``tests/test_workbench_structure.py``); each query is written once, in one of them.
"""
from __future__ import annotations

import json
import os
import sqlite3
import stat
import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..model import Answer, Judgment, Nugget, Report, Request, Sentence, TopicNuggets, natural_key, normalize_text

__all__ = ["SCHEMA", "SCHEMA_VERSION", "SQLITE_HEADER", "VERDICT_COLUMNS", "WorkbenchDatabase", "RoundJudgments",
           "is_workbench_database", "order_key", "read_bank", "read_round", "report_json", "request_json",
           "round_bank", "round_judgments", "unusable", "verdict_judgment"]

SCHEMA_VERSION = 1
"""Changes only when an existing table changes its columns. A new table needs no new version: every writable
open runs ``SCHEMA`` (``CREATE ... IF NOT EXISTS``), so a database made before ``login_links`` and ``doc_reads``
existed gains them the first time a command opens it, and the read-only reader queries neither."""
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
CREATE TABLE IF NOT EXISTS login_links(token_hash TEXT PRIMARY KEY, user TEXT NOT NULL, expires REAL NOT NULL);
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
CREATE TABLE IF NOT EXISTS doc_reads(id INTEGER PRIMARY KEY, user TEXT NOT NULL, request_id TEXT NOT NULL,
    doc_id TEXT NOT NULL, stage TEXT NOT NULL, at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS doc_reads_user ON doc_reads(user, id);
"""
"""The tables: ``meta`` (schema version, policies), ``requests``, ``documents`` (the texts of pooled and cited
documents, copied at ``init`` so serving needs no collection), ``pool`` (documents per topic, in pool order),
``reports`` (the reports to assess), the nugget bank (``nuggets``, ``answers``, ``bindings``: the document an
answer is bound to and, as provenance, the offsets of the selected text) with its ``history``, ``users``,
``sessions``, ``assignments``, ``prior`` judgments (given at init: not asked again), judge ``suggestions``,
``verdicts`` (the latest answer of each assessor to each item, and the adjudicated answers), ``verdict_log``
(every answer ever posted), ``adjudication_items`` (disagreements loaded from ``agree-judgments
--disagreements``) and ``seen`` (pooled documents an assessor has opened)."""

VERDICT_COLUMNS = ("item_id", "user", "role", "kind", "request_id", "sentence", "doc_id", "nugget_id", "answer",
                   "run_id", "sentence_index", "value", "stage", "at", "rationale", "suggested_value",
                   "suggested_judge", "ord")
"""The columns of ``verdicts``, in table order: ``verdict_rows`` returns them by these names."""


def is_workbench_database(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a regular file that starts like an SQLite database, to be read as a workbench database
    (any other SQLite file is then refused as "not a workbench database", not read as text). 16 bytes are read;
    nothing is opened as a database. A pipe (a shell's ``<(...)``, ``/dev/stdin``) is never read here: its bytes are its reader's, and a
    database is never a pipe."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        with open(path, "rb") as handle:
            return handle.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


# -- how records are kept in their columns ------------------------------------------------------------
def request_json(request: Request) -> str:
    return json.dumps({
        "request_id": request.request_id, "title": request.title, "background": request.background,
        "problem_statement": request.problem_statement, "limit": request.limit, "limit_unit": request.limit_unit,
        "collection_ids": list(request.collection_ids), "aspects": list(request.aspects), "language": request.language,
    }, ensure_ascii=False, sort_keys=True)


def request_from(data: str) -> Request:
    obj = json.loads(data)
    return Request(obj["request_id"], obj["title"], obj["background"], obj["problem_statement"], obj["limit"],
                   obj["limit_unit"], tuple(obj["collection_ids"]), tuple(obj["aspects"]), obj["language"])


def report_json(report: Report) -> str:
    return json.dumps({
        "run_id": report.run_id, "request_id": report.request_id,
        "sentences": [{"text": s.text, "citations": list(s.citations)} for s in report.sentences],
        "references": list(report.references) if report.references is not None else None,
    }, ensure_ascii=False, sort_keys=True)


def report_from(data: str) -> Report:
    obj = json.loads(data)
    references = obj.get("references")
    return Report(obj["run_id"], obj["request_id"],
                  [Sentence(s["text"], tuple(s["citations"])) for s in obj["sentences"]],
                  tuple(references) if references is not None else None)


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


class WorkbenchDatabase:
    """A workbench database file: one connection per thread (the server answers from a thread pool), reads in one
    snapshot, and the reads ``score`` needs. ``open_read_only`` opens it for reading; ``workbench.store.Store``
    opens it for the workbench, which writes it."""

    def __init__(self, path: str | os.PathLike[str], read_only: bool = False):
        self.path = Path(path)
        self.read_only = read_only
        self._local = threading.local()

    @staticmethod
    def _exists(path: Path, create: bool = False) -> bool:
        """Whether the database file exists; a directory, or a missing file not to be created, is an error."""
        if path.is_dir():
            raise InputError(path, None, None, "is a directory; expected a workbench database file")
        exists = path.exists()
        if not exists and not create:
            raise InputError(path, None, None, "no such workbench database; create it with `argue-eval assess init`")
        return exists

    @classmethod
    def open_read_only(cls, path: str | os.PathLike[str]) -> WorkbenchDatabase:
        """Open a workbench database to read it (``score``): nothing is created or written; a user error is a
        one-line ``InputError``."""
        path = Path(path)
        cls._exists(path)
        store = cls(path, read_only=True)
        try:
            with store.snapshot():
                store._check()
        except sqlite3.DatabaseError as error:
            store.close()
            raise unusable(path, error) from None
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
        # a damaged file (a torn copy, a bad disk) is refused whole before anything reads or writes it, rather than
        # failing half-way through a command or being served and written into
        try:
            problems = [str(row[0]) for row in self._rows("PRAGMA quick_check(3)")]
        except sqlite3.DatabaseError as error:
            problems = [str(error)]
        if problems != ["ok"]:
            raise InputError(self.path, None, None, f"damaged database (PRAGMA quick_check: {problems[0]}): restore "
                             "it from a backup; nothing was read or written")

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

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None

    def meta(self, key: str, default: str | None = None) -> str | None:
        value = self._value("SELECT value FROM meta WHERE key = ?", (key,))
        return default if value is None else value

    def requests(self) -> dict[str, Request]:
        out = [request_from(row[0]) for row in self._rows("SELECT data FROM requests")]
        return {r.request_id: r for r in sorted(out, key=lambda r: natural_key(r.request_id))}

    def reports(self, request_id: str | None = None) -> list[Report]:
        if request_id is None:
            rows = self._rows("SELECT data FROM reports")
        else:
            rows = self._rows("SELECT data FROM reports WHERE request_id = ?", (request_id,))
        reports = [report_from(row[0]) for row in rows]
        return sorted(reports, key=lambda r: (natural_key(r.request_id), natural_key(r.run_id)))

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


@dataclass
class RoundJudgments:
    """The judgments of a round, in the export's order, and what the export counts about them."""

    judgments: list[Judgment] = field(default_factory=list)
    by_kind: Counter[str] = field(default_factory=Counter)
    adjudicated: int = 0
    """Items with an adjudicator's decision."""
    unresolved: int = 0
    """Items whose assessors disagree, with no decision: the last assessor's answer (by name) counts."""
    stale: int = 0
    """Answers about a nugget answer since edited or deleted: left out."""

    def notes(self) -> list[str]:
        out = []
        if self.unresolved:
            out.append(f"{self.unresolved} item(s) have assessors who disagree and no adjudication; the last "
                       "assessor's answer (by name) is used for them: adjudicate them in the workbench")
        if self.stale:
            out.append(f"{self.stale} answer(s) about nugget answers since edited or deleted are left out")
        return out


def round_bank(store: WorkbenchDatabase) -> list[TopicNuggets]:
    """The current bank of every topic that has nuggets, with each binding's selection on its answer."""
    out = []
    for request_id in store.requests():
        topic = store.topic_nuggets(request_id, selections=True)
        if topic.nuggets:
            out.append(topic)
    return out


def round_judgments(store: WorkbenchDatabase, bank: list[TopicNuggets]) -> RoundJudgments:
    """Every answer given in the workbench as a judgment (see the module docstring), against ``bank``."""
    result = RoundJudgments()
    live = {(n.nugget_id, normalize_text(a.text)) for t in bank for n in t.nuggets for a in n.answers}
    kept = []
    for row in store.verdict_rows():
        if row["kind"] in ("answers", "nugget_agrees") and (row["nugget_id"], normalize_text(row["answer"] or "")) not in live:
            result.stale += 1  # the answer was edited or deleted after this verdict
            continue
        kept.append(row)
    kept.sort(key=lambda r: (order_key(r["ord"]), r["item_id"], r["role"] == "adjudication", r["user"]))
    values: dict[str, set[bool]] = {}
    adjudicated = set()
    for row in kept:
        provenance: dict[str, Any] = {"stage": row["stage"], "time": row["at"]}
        if row["role"] == "adjudication":
            judge = f"human:{row['user']}:adjudication"
            adjudicated.add(row["item_id"])
        else:
            judge = f"human:{row['user']}"
            values.setdefault(row["item_id"], set()).add(row["value"])
        if row["suggested_judge"] is not None:
            provenance["suggested"] = {"judge": row["suggested_judge"], "value": row["suggested_value"],
                                       "agreed": row["value"] == row["suggested_value"]}
        result.judgments.append(verdict_judgment(row, judge, provenance))
        result.by_kind[row["kind"]] += 1
    result.adjudicated = len(adjudicated)
    result.unresolved = sum(1 for item, vals in values.items() if len(vals) > 1 and item not in adjudicated)
    return result


def read_bank(path: str | os.PathLike[str]) -> list[TopicNuggets]:
    """The bank of the workbench database at ``path``, as it stands (``--nuggets W.sqlite``)."""
    store = WorkbenchDatabase.open_read_only(path)
    try:
        return round_bank(store)
    finally:
        store.close()


def read_round(path: str | os.PathLike[str]) -> tuple[list[TopicNuggets], RoundJudgments, list[Report]]:
    """The bank, the judgments and the reports of the workbench database at ``path``, read in one snapshot."""
    store = WorkbenchDatabase.open_read_only(path)
    try:
        with store.snapshot():
            bank = round_bank(store)
            return bank, round_judgments(store, bank), store.reports()
    finally:
        store.close()


def unusable(path: Path, error: Exception) -> InputError:
    """The one-line error for a file SQLite cannot read as a workbench database."""
    return InputError(path, None, None, f"not a usable workbench database (damaged, or another kind of file: {error})")
