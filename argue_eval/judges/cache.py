"""The judgment cache: every answer a judge computed, on disk, keyed by the question and the judge.

Judging is the expensive step (an LLM call, an NLI pass), and a TREC round takes hours, so an answer is
committed here before it is used: a run killed at any point (even SIGKILL) and started again finds every
committed answer and asks only the rest, and since the answers are the same, so is the output.

The key is the judgment identity (``JudgmentKey``) plus the judge's identity (backend, version, model,
thresholds: ``JudgeBackend.identity()``), hashed. Changing a threshold therefore never reuses a stale
answer, and two judges can share one cache file. The judge runner adds a digest of what the judge reads
beyond the key (``QuestionContexts``): the key names the request, the nugget and the document only by id,
so an answer made without ``--requests``, under an edited nugget question, against another translation of
a document or after earlier sentences of the run changed is never served where the texts differ.

SQLite in WAL mode makes a commit cheap and safe against a killed process (not against power loss, which
``synchronous=NORMAL`` trades for speed); it is in the standard library and is a single file users can
inspect (``sqlite3 cache.sqlite 'select * from judges'``).
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import orjson

from ..errors import InputError
from ..model import Document, JudgmentKey, verdict_field_error
from .base import Question, Verdict

if TYPE_CHECKING:
    from ..search.embeddings import EmbeddingStore

__all__ = ["JudgmentCache", "judge_fingerprint", "QuestionContexts", "row_keys", "MergeCounts", "DEFAULT_CACHE_PATH",
           "SCHEMA_VERSION"]

DEFAULT_CACHE_PATH = Path(".argue-cache") / "judgments.sqlite"
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS judges (judge TEXT PRIMARY KEY, identity TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS answers (
    judge TEXT NOT NULL,
    key TEXT NOT NULL,
    verdict TEXT NOT NULL,
    PRIMARY KEY (judge, key)
) WITHOUT ROWID;
"""
_TABLES = frozenset({"meta", "judges", "answers", "embeddings"})
"""The tables of a judgment cache: answers by judge, and the sentence embeddings of ``search.embeddings``."""


def _canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def judge_fingerprint(identity: Mapping[str, Any]) -> str:
    """A short stable hash of a judge identity (what the cache keys answers by)."""
    return hashlib.sha256(_canonical_json(identity).encode("utf-8")).hexdigest()[:32]


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
"""The encoding of every key and verdict: compact JSON, text as it is (``json.dumps`` with options builds a new
encoder per call)."""


def _compact(value: Any) -> str:
    """``_COMPACT.encode(value)``, by orjson: the same bytes for the keys' and verdicts' values (text, numbers,
    ``None``, booleans; ``tests/test_cache_compat.py`` checks every code point), several times faster, which a
    round's hundred thousand answers feel. A lone surrogate, which orjson refuses, goes the slow way."""
    try:
        return orjson.dumps(value).decode("utf-8")
    except orjson.JSONEncodeError:
        return _COMPACT.encode(value)


def _key_text(key: JudgmentKey, context: str | None = None) -> str:
    return _compact(list(key) if context is None else [*key, context])


Contexts = str | Mapping[JudgmentKey, str] | None
"""The context answers are cached under: none, one for every key, or one per key."""


def _context_of(contexts: Contexts, key: JudgmentKey) -> str | None:
    return contexts if contexts is None or isinstance(contexts, str) else contexts[key]


def row_keys(keys: Iterable[JudgmentKey], context: Contexts = None) -> dict[JudgmentKey, str]:
    """The cache row key of each judgment key under its context: compute them once and give them to
    ``get_many`` and to the ``put_many`` that follows (the runner does; encoding a key is not free)."""
    return {key: _key_text(key, _context_of(context, key)) for key in keys}


def _digest(*texts: str) -> str:
    """A short hash of ``texts`` (each length-prefixed, so no two lists of texts share one byte string)."""
    h = hashlib.sha256()
    for text in texts:
        data = text.encode("utf-8", "surrogatepass")
        h.update(b"%d:" % len(data))
        h.update(data)
    return h.hexdigest()[:16]


class QuestionContexts:
    """Digests of what a judge reads of a question beyond its ``JudgmentKey``, for the cache key.

    A key names the request, the nugget and the cited document by id, and a context-dependent kind the run
    by id and position: the texts behind those ids can change between runs of the same cache (``--requests``
    given or not, a nugget question edited during assessment, another machine translation of the
    collection, a resubmitted run). The digest covers the request's title, problem statement and
    background, the nugget's question, the document's title and text, the documents a report cites (for
    ``requires_citation``) and the earlier sentences (for ``first_instance``). The digest of each request,
    nugget, document and list of earlier sentences is computed once per object, since thousands of questions
    share them; an instance keeps every object it digested alive, so use one per batch of questions (the
    runner: per topic and round), never one per run, which would hold every cited document in memory."""

    def __init__(self) -> None:
        self._memo: dict[int, tuple[object, str]] = {}  # id -> (the object, kept alive so ids stay unique; digest)
        self._combined: dict[tuple[str, ...], str] = {}  # the parts' digests -> the question's
        # the objects a question reads, by identity -> its digest: one lookup for the many questions that read
        # the same ones (the entry keeps the objects alive, so their ids stay theirs)
        self._by_objects: dict[tuple[int, ...], tuple[tuple[object, ...], str]] = {}

    def _of(self, obj: Any, texts: Callable[[Any], Sequence[str]]) -> str:
        hit = self._memo.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
        digest = _digest(*texts(obj))
        self._memo[id(obj)] = (obj, digest)
        return digest

    def _document(self, document: Document) -> str:
        return self._of(document, _document_texts)

    def __call__(self, question: Question) -> str:
        request, nugget, document = question.request, question.nugget, question.document
        cited, earlier = question.cited_documents, question.earlier_sentences
        objects = (request, nugget, document, cited, earlier)
        ids = (id(request), id(nugget), id(document), id(cited), id(earlier))
        hit = self._by_objects.get(ids)
        if hit is not None:  # the same objects: the entry keeps them alive, so no other object has their ids
            return hit[1]
        digest = self._digest_of(question)
        self._by_objects[ids] = (objects, digest)
        return digest

    def _digest_of(self, question: Question) -> str:
        request, nugget, document = question.request, question.nugget, question.document
        parts = (
            "" if request is None else self._of(request, _request_texts),
            "" if nugget is None else self._of(nugget, _nugget_texts),
            "" if document is None else self._of(document, _document_texts),
            "".join(self._document(d) for d in question.cited_documents) if question.cited_documents else "",
            "" if not question.earlier_sentences else self._of(question.earlier_sentences, tuple),
        )
        # thousands of questions read the same request, nugget and document: their digest is made once
        digest = self._combined.get(parts)
        if digest is None:
            digest = self._combined[parts] = _digest(*parts)
        return digest


def _request_texts(request: Any) -> tuple[str, ...]:
    return (request.title or "", request.problem_statement or "", request.background or "")


def _nugget_texts(nugget: Any) -> tuple[str, ...]:
    return (nugget.question or "",)


def _document_texts(document: Document) -> tuple[str, ...]:
    return (document.doc_id, document.title or "", document.text or "")


def _verdict_text(verdict: Verdict, provenance_texts: dict[int, tuple[Any, str]]) -> str:
    """The verdict as compact JSON. ``provenance_texts`` memoizes the provenance's JSON by object: a judge
    gives all its verdicts one provenance dict, and encoding it once per batch, not per answer, is most of
    the cost of storing an answer."""
    head = _compact({"value": verdict.value, "judge": verdict.judge, "confidence": verdict.confidence,
                     "rationale": verdict.rationale})
    provenance = verdict.provenance
    memo = provenance_texts.get(id(provenance))
    if memo is None or memo[0] is not provenance:
        memo = (provenance, _COMPACT.encode(provenance))
        provenance_texts[id(provenance)] = memo
    return f'{head[:-1]},"provenance":{memo[1]}}}'


def _row_key(row: tuple[str, str, str]) -> str:
    return row[1]


def _verdict(text: str) -> Verdict | None:
    """The stored verdict, or ``None`` for a row that is not one (edited by hand, written by something else;
    a field of the wrong type too, which would make the judgments file unreadable): such a row is a miss, so
    the answer is computed again and replaces it, never a guessed value."""
    try:
        data = json.loads(text)
    except (ValueError, TypeError):  # not JSON, or not even text (a BLOB put there by hand)
        return None
    if type(data) is not dict or verdict_field_error(data) is not None:  # the judgments reader's own rule
        return None
    return Verdict(data["value"], data["judge"], data.get("confidence"), data.get("rationale"),
                   provenance=data.get("provenance"))


def _access_error(path: Path, error: sqlite3.DatabaseError) -> InputError | None:
    """The message for a cache that is fine but cannot be used now: locked by another writer, or read-only.
    (Either read as "is the file damaged?", which sent people to delete a good cache.)"""
    text = str(error).lower()
    if "locked" in text or "busy" in text:
        return InputError(str(path), None, None, "the judgment cache is locked by another process (another run "
                          "with the same --cache still writing to it?): wait for it to finish, or give this run "
                          "another --cache file, or --no-cache")
    if "readonly" in text or "read-only" in text or "read only" in text:
        return InputError(str(path), None, None, "the judgment cache is read-only here (file or directory "
                          "permissions, a read-only mount): every answer is committed to it before use, so give a "
                          "--cache file this user can write, or --no-cache")
    return None


@dataclass(frozen=True, slots=True)
class MergeCounts:
    """What ``JudgmentCache.merge_from`` took from one cache file."""

    path: str
    answers: int
    """The answers the file holds."""
    added: int
    """Those not in the merged cache before (the others were there with the very same answer)."""
    embeddings: int
    """The sentence embeddings added (a text the merged cache had embedded already keeps its vector)."""

    @property
    def same(self) -> int:
        return self.answers - self.added


def _open_read_only(path: Path) -> sqlite3.Connection:
    """``path`` as a judgment cache opened read-only (a merge never changes its inputs), checked as ``JudgmentCache``
    checks a cache it opens: an SQLite file of the judgment cache's tables and schema version."""
    if not path.is_file():
        raise InputError(str(path), None, None, "no such judgment cache (an SQLite file judge --cache wrote)")
    try:
        db = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True, check_same_thread=False)
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables >= {"meta", "judges", "answers"} or not tables <= _TABLES:
            db.close()
            raise InputError(str(path), None, None, "is not a judgment cache (its tables: "
                             f"{', '.join(sorted(tables)) or 'none'}; judge --cache writes meta, judges, answers)")
        row = db.execute("SELECT value FROM meta WHERE name = 'schema'").fetchone()
        if row is None or row[0] != str(SCHEMA_VERSION):
            db.close()
            raise InputError(str(path), None, None, f"judgment cache of schema version {None if row is None else row[0]}; "
                             f"this argue-eval reads version {SCHEMA_VERSION}")
    except sqlite3.DatabaseError as error:
        raise _access_error(path, error) or InputError(
            str(path), None, None, f"cannot be read as a judgment cache ({error})") from None
    return db


def _shown_verdict(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


class JudgmentCache:
    """Answers by (judge fingerprint, judgment key) in one SQLite file; ``put_many`` commits before returning."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self._embeddings: EmbeddingStore | None = None
        if self.path.is_dir():
            raise InputError(str(self.path), None, None, "is a directory; --cache expects a file (SQLite), "
                             f"e.g. {self.path / 'judgments.sqlite'}")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
            tables = [name for (name,) in self._db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
            if any(name not in _TABLES for name in tables):  # another program's database: never add to it
                self._db.close()
                raise InputError(str(self.path), None, None, "is an SQLite database but not a judgment cache (its "
                                 f"tables: {', '.join(tables)}); name a new --cache path, or --no-cache")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
            row = self._db.execute("SELECT value FROM meta WHERE name = 'schema'").fetchone()
            if row is None:
                self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif row[0] != str(SCHEMA_VERSION):
                raise InputError(str(self.path), None, None, f"judgment cache of schema version {row[0]}; this "
                                 f"argue-eval writes version {SCHEMA_VERSION}: use another --cache file")
        except sqlite3.DatabaseError as error:
            raise _access_error(self.path, error) or InputError(
                str(self.path), None, None, f"cannot be used as a judgment cache ({error}); is it another kind of "
                "file? Name a new --cache path, or --no-cache") from None
        except OSError as error:
            raise InputError(str(self.path), None, None, f"cannot open the judgment cache: {error.strerror or error}; "
                             "name another with --cache PATH, or --no-cache") from None

    @contextmanager
    def _guard(self, action: str) -> Iterator[None]:
        """A database error while the cache is used (a damaged file that still opened, a full disk, a table
        of the same name made by another program) as a one-line user error naming the file."""
        try:
            yield
        except sqlite3.DatabaseError as error:
            raise _access_error(self.path, error) or InputError(
                str(self.path), None, None, f"the judgment cache failed while {action} ({error}); is the file "
                "damaged? Name a new --cache path, or --no-cache") from None

    def register(self, identity: Mapping[str, Any]) -> str:
        """Record a judge identity (for people inspecting the file); returns its fingerprint."""
        fingerprint = judge_fingerprint(identity)
        with self._guard("recording the judge"):
            self._db.execute("INSERT OR IGNORE INTO judges VALUES (?, ?)", (fingerprint, _canonical_json(identity)))
        return fingerprint

    def holds_answers(self, judge: str) -> bool:
        """Whether the file holds any answer of ``judge`` (one index probe, however large the cache)."""
        with self._guard("reading answers"):
            return self._db.execute("SELECT 1 FROM answers WHERE judge = ? LIMIT 1", (judge,)).fetchone() is not None

    def others_version(self) -> int:
        """SQLite's ``data_version`` for this connection: it changes when another connection (another process on
        the same file) commits, never for this one's own commits."""
        with self._guard("reading the cache's version"):
            return self._db.execute("PRAGMA data_version").fetchone()[0]

    def get_many(self, judge: str, keys: Iterable[JudgmentKey], context: Contexts = None, *,
                 rows: Mapping[JudgmentKey, str] | None = None) -> dict[JudgmentKey, Verdict]:
        """The cached verdicts of ``judge`` for those of ``keys`` it has answered (under ``context``: one
        string or one per key, e.g. from ``QuestionContexts``, when answers were stored with one; or
        ``rows``, the keys' ``row_keys`` computed already)."""
        found: dict[JudgmentKey, Verdict] = {}
        by_text = ({rows[key]: key for key in keys} if rows is not None
                   else {_key_text(key, _context_of(context, key)): key for key in keys})
        texts = list(by_text)
        with self._guard("reading answers"):
            for start in range(0, len(texts), 500):  # stay under SQLite's bound-parameter limit
                chunk = texts[start:start + 500]
                marks = ",".join("?" * len(chunk))
                for key_text, verdict in self._db.execute(
                    f"SELECT key, verdict FROM answers WHERE judge = ? AND key IN ({marks})", (judge, *chunk)
                ):
                    stored = _verdict(verdict)
                    if stored is not None:
                        found[by_text[key_text]] = stored
        return found

    def put_many(self, judge: str, answers: Iterable[tuple[JudgmentKey, Verdict]], context: Contexts = None, *,
                 rows: Mapping[JudgmentKey, str] | None = None) -> int:
        """Store answers (made under ``context``, one string or one per key, if given; or with ``rows``, their
        ``row_keys``) in one transaction, committed when this returns."""
        provenance_texts: dict[int, tuple[Any, str]] = {}
        stored = [(judge, rows[key] if rows is not None else _key_text(key, _context_of(context, key)),
                   _verdict_text(verdict, provenance_texts)) for key, verdict in answers]
        stored.sort(key=_row_key)  # in key order, the B-tree takes the rows with fewer page writes
        if stored:
            with self._guard("storing answers"), self._db:  # BEGIN ... COMMIT
                self._db.execute("BEGIN")
                self._db.executemany("INSERT OR REPLACE INTO answers VALUES (?, ?, ?)", stored)
        return len(stored)

    def embeddings(self) -> EmbeddingStore:
        """The cache file's store of sentence embeddings (``search.embeddings``; its table is made when first
        asked for): the semantic judge and dense retrieval embed each text once, across runs and commands."""
        from ..search.embeddings import EmbeddingStore

        if self._embeddings is None:
            with self._guard("opening the embeddings table"):
                self._embeddings = EmbeddingStore(self._db)
        return self._embeddings

    def merge_from(self, path: str | os.PathLike[str], earlier: Sequence[str | os.PathLike[str]] = ()) -> MergeCounts:
        """Add the answers (and judges, and sentence embeddings) of the cache file ``path`` to this one, in one
        transaction: all of them or, on an error, none.

        The answer to a key (judge fingerprint and question key) this cache holds already must be the very same
        (its stored JSON, rationale and provenance included, since the judgments file carries them); another one
        is an ``InputError`` naming the key and the two files (``earlier``: the files merged into this cache
        before, to find which one held it). Such a clash means two machines judged the same question with
        different results: another judge version, a sampled LLM, a changed collection; which answer a run over
        the merged cache would then take is not for a merge to guess. A sentence embedding already here is kept
        (a vector is recomputed, never scored, and two machines' floating point may differ in the last bits)."""
        source_path = Path(path)
        source = _open_read_only(source_path)
        try:
            with self._guard("reading another cache"):
                has_embeddings = source.execute(
                    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'embeddings'").fetchone() is not None
            if has_embeddings:
                self.embeddings()  # makes the table (its script commits: before the merge's transaction)
            with self._db:  # BEGIN ... COMMIT, or ROLLBACK on any error
                self._db.execute("BEGIN")
                self._db.execute("CREATE TEMP TABLE IF NOT EXISTS incoming (judge TEXT NOT NULL, key TEXT NOT NULL, "
                                 "verdict TEXT NOT NULL, PRIMARY KEY (judge, key)) WITHOUT ROWID")
                self._db.execute("DELETE FROM incoming")
                self._db.executemany("INSERT OR IGNORE INTO judges VALUES (?, ?)",
                                     source.execute("SELECT judge, identity FROM judges"))
                self._db.executemany("INSERT INTO incoming VALUES (?, ?, ?)",
                                     source.execute("SELECT judge, key, verdict FROM answers"))
                clash = self._db.execute(
                    "SELECT i.judge, i.key, a.verdict, i.verdict FROM incoming AS i JOIN answers AS a "
                    "ON a.judge = i.judge AND a.key = i.key WHERE a.verdict IS NOT i.verdict ORDER BY i.judge, i.key "
                    "LIMIT 1").fetchone()
                if clash is not None:
                    raise self._clash(source_path, earlier, *clash)
                answers = self._db.execute("SELECT count(*) FROM incoming").fetchone()[0]
                added = self._db.execute("INSERT OR IGNORE INTO answers SELECT judge, key, verdict FROM incoming "
                                         "ORDER BY judge, key").rowcount
                self._db.execute("DELETE FROM incoming")
                embeddings = 0
                if has_embeddings:
                    embeddings = self._db.executemany(
                        "INSERT OR IGNORE INTO embeddings VALUES (?, ?, ?)",
                        source.execute("SELECT model, text_sha256, vector FROM embeddings")).rowcount
        except sqlite3.DatabaseError as error:  # reading the source or writing this cache: nothing of it was added
            raise _access_error(source_path, error) or InputError(
                str(source_path), None, None, f"merging it into {self.path} failed ({error}); is the file "
                "damaged?") from None
        finally:
            source.close()
        return MergeCounts(str(source_path), answers, added, max(embeddings, 0))

    def _clash(self, path: Path, earlier: Sequence[str | os.PathLike[str]], judge: str, key: str, here: str,
               there: str) -> InputError:
        """The error of two answers to one key: the key, the two files and the two answers."""
        holder = str(self.path)
        for candidate in earlier:
            db = _open_read_only(Path(candidate))
            try:
                row = db.execute("SELECT verdict FROM answers WHERE judge = ? AND key = ?", (judge, key)).fetchone()
            finally:
                db.close()
            if row is not None and row[0] == here:
                holder = str(candidate)
                break
        return InputError(str(path), None, None, f"answers the key {key} (judge {judge}) otherwise than {holder}: "
                          f"{_shown_verdict(there)} here, {_shown_verdict(here)} there; the caches were judged "
                          "differently (another judge version or model, other documents): merge only the shards of "
                          "one round, or judge that question again without the clashing answers")

    def checkpoint(self) -> None:
        """Fold the write-ahead log into the file (before it is renamed or copied as a whole)."""
        with self._guard("writing the cache file"):
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def count(self, judge: str | None = None) -> int:
        with self._guard("counting answers"):
            if judge is None:
                return self._db.execute("SELECT count(*) FROM answers").fetchone()[0]
            return self._db.execute("SELECT count(*) FROM answers WHERE judge = ?", (judge,)).fetchone()[0]

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> JudgmentCache:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
