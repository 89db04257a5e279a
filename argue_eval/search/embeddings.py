"""Every text embedded once: sentence embeddings by (model, hash of the text), in memory for a run and on disk
in the judgment cache, so that a rerun or another command reuses them.

A round's texts repeat: a document cited by fifty runs has its passages compared with fifty sentences, and the
same sentence recurs across runs. The semantic judge and dense retrieval (ICAT's passages, the dense index's
queries) embed through a ``TextEmbedder``: it keeps every vector it made or read for the run, reads the ones it
lacks from the ``EmbeddingStore`` (a table of the SQLite judgment cache, keyed by the model's identity and the
SHA-256 of the text: a text is never stored, only its hash), and encodes only what neither holds, in batches of
texts of similar length cut where padding costs most (``batches``), committing the new vectors before they are used. Between two batches it
checks whether a signal asked the run to stop (``stopping``): the vectors made so far are committed first, so a
rerun encodes only the rest.

Vectors are float32 rows stored as raw bytes (never pickled); a row of the wrong size is a miss, encoded again
and replaced.
"""
from __future__ import annotations

import hashlib
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .. import stopping

__all__ = ["EmbeddingStore", "TextEmbedder", "text_key", "batches", "BATCH_OVERHEAD_CHARS"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS embeddings (
    model TEXT NOT NULL,
    text_sha256 TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (model, text_sha256)
) WITHOUT ROWID;
"""
TABLE = "embeddings"


def text_key(text: str) -> str:
    """The SHA-256 of ``text`` (UTF-8), hex: what a stored vector is found by, with the model."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class EmbeddingStore:
    """Vectors by (model identity, text hash) in the ``embeddings`` table of an SQLite database (the judgment
    cache's file: ``JudgmentCache.embeddings()``). ``put_many`` commits before it returns."""

    def __init__(self, db: sqlite3.Connection):
        self._db = db
        self._db.executescript(_SCHEMA)

    def get_many(self, model: str, keys: Sequence[str], dimension: int) -> dict[str, Any]:
        """The stored vectors of ``keys`` (text hashes) for ``model``; rows that are not ``dimension`` floats
        are left out (a miss)."""
        import numpy as np

        found: dict[str, Any] = {}
        size = 4 * dimension
        for start in range(0, len(keys), 500):  # under SQLite's bound-parameter limit
            chunk = list(keys[start:start + 500])
            marks = ",".join("?" * len(chunk))
            for key, blob in self._db.execute(
                    f"SELECT text_sha256, vector FROM {TABLE} WHERE model = ? AND text_sha256 IN ({marks})",
                    (model, *chunk)):
                if isinstance(blob, bytes) and len(blob) == size:
                    found[key] = np.frombuffer(blob, dtype="<f4")
        return found

    def put_many(self, model: str, items: Iterable[tuple[str, Any]]) -> int:
        """Store ``(text hash, vector)`` pairs for ``model`` in one transaction."""
        import numpy as np

        rows = [(model, key, np.asarray(vector, dtype="<f4").tobytes()) for key, vector in items]
        if rows:
            with self._db:
                self._db.execute("BEGIN")
                self._db.executemany(f"INSERT OR REPLACE INTO {TABLE} VALUES (?, ?, ?)", rows)
        return len(rows)

    def count(self, model: str | None = None) -> int:
        if model is None:
            return self._db.execute(f"SELECT count(*) FROM {TABLE}").fetchone()[0]
        return self._db.execute(f"SELECT count(*) FROM {TABLE} WHERE model = ?", (model,)).fetchone()[0]


BATCH_OVERHEAD_CHARS = 2000
"""What one more batch costs, in characters of padded text: a forward pass's fixed cost (the model's layers called
once more, its thread pool woken) is about that of 400 word pieces of MiniLM on a CPU. ``batches`` starts a new
batch only where the padding it saves is worth more."""


def batches(texts: Sequence[str], size: int, overhead: int = BATCH_OVERHEAD_CHARS) -> list[list[str]]:
    """``texts`` longest first (by characters, as sentence-transformers sorts them), cut into batches of at most
    ``size`` whose cost is least: a batch costs ``overhead`` plus its texts times its longest one (every text is
    padded to it). Cutting the sorted texts every ``size`` mixes a topic's long passages with its short sentences
    in one batch, all padded to the passages' length (on the sample track 1.4x the word pieces of one sorted
    pass over all its texts); the least-cost cut puts a batch's end where the lengths drop (1.05x).

    Exact dynamic programming over the sorted lengths (``len(texts) * size`` steps). A text's vector does not
    depend on the batch it is in beyond the last float digits, below the four decimals every score is rounded to.
    """
    order = sorted(texts, key=len, reverse=True)
    count = len(order)
    if count <= 1:
        return [order] if order else []
    lengths = [len(text) for text in order]
    best = [0] * (count + 1)  # best[j]: the least cost of the first j texts (best[0] = 0: no text, no cost)
    cut = [0] * (count + 1)  # cut[j]: where the last batch of that least cost starts
    for end in range(1, count + 1):
        # the last batch is order[first:end], padded to its longest text, order[first]; ties: the earliest first
        start = max(0, end - size)
        least = best[start] + overhead + (end - start) * lengths[start]
        for first in range(start + 1, end):
            cost = best[first] + overhead + (end - first) * lengths[first]
            if cost < least:
                least, start = cost, first
        best[end], cut[end] = least, start
    found: list[list[str]] = []
    end = count
    while end:
        found.append(order[cut[end]:end])
        end = cut[end]
    found.reverse()
    return found


class TextEmbedder:
    """Normalized embeddings of texts, each unique text encoded at most once (per run, and across runs with a
    store). ``encode(texts, batch_size)`` returns one float32 row per text; ``model`` names the model and its
    release (the store's key: another model's vectors are never served).

    Counts for the benchmark and the manifest: ``encoded`` (texts the model encoded), ``stored`` (texts read
    from the store), ``reused`` (asked again and found in memory). ``runtime``: how the vectors are computed (the
    device and batch size, for the manifest; never part of the store's key, since they do not change a vector
    beyond the rounding every score gets)."""

    def __init__(self, model: str, encode: Callable[..., Any], store: EmbeddingStore | None = None,
                 batch_size: int = 64, dimension: int | None = None, runtime: dict[str, Any] | None = None):
        self.model = model
        self.runtime = dict(runtime or {"batch_size": batch_size})
        self._encode = encode
        self.store = store
        self.batch_size = batch_size
        self.dimension = dimension
        self._vectors: dict[str, Any] = {}
        self.encoded = 0
        self.stored = 0
        self.reused = 0

    def __contains__(self, text: str) -> bool:
        return text in self._vectors

    def fill(self, texts: Iterable[str]) -> None:
        """Make sure every text of ``texts`` has its vector: memory, then the store, then one encoding pass."""
        missing = [text for text in dict.fromkeys(texts) if text not in self._vectors]
        if not missing:
            return
        if self.store is not None and self.dimension is not None:
            keys = {text: text_key(text) for text in missing}
            found = self.store.get_many(self.model, list(keys.values()), self.dimension)
            for text in missing:
                vector = found.get(keys[text])
                if vector is not None:
                    self._vectors[text] = vector
            self.stored += len(found)
            missing = [text for text in missing if text not in self._vectors]
        if not missing:
            return
        unstored: list[tuple[str, Any]] = []
        last = time.perf_counter()
        try:
            with stopping.stoppable():
                for batch in batches(missing, self.batch_size):
                    stopping.check()
                    vectors = self._encode(batch, batch_size=self.batch_size)
                    self.encoded += len(batch)
                    if self.dimension is None:
                        self.dimension = int(vectors.shape[1])
                    self._vectors.update(zip(batch, vectors))
                    unstored.extend(zip(batch, vectors))
                    if len(unstored) >= 4096 or time.perf_counter() - last >= 2.0:
                        self._store(unstored)
                        last = time.perf_counter()
        finally:
            self._store(unstored)  # committed before any answer uses them; on a stop, what was encoded is kept

    def _store(self, unstored: list[tuple[str, Any]]) -> None:
        """Commit ``unstored`` (text, vector) pairs to the store, if there is one, and empty the list."""
        if self.store is not None and unstored:
            self.store.put_many(self.model, ((text_key(text), vector) for text, vector in unstored))
        unstored.clear()

    def vectors(self, texts: Sequence[str]) -> Any:
        """The rows of ``texts`` as one float32 matrix (encoding what is missing first)."""
        import numpy as np

        if any(text not in self._vectors for text in texts):
            self.fill(texts)
        else:
            self.reused += len(texts)
        return np.vstack([self._vectors[text] for text in texts]) if texts else np.zeros((0, self.dimension or 0),
                                                                                          dtype="float32")

    def forget(self) -> None:
        """Drop the vectors held in memory (the store keeps them)."""
        self._vectors.clear()
