"""In-memory passage retrieval over a small collection: BM25 (``bm25s``) or dense (MiniLM embeddings).

ICAT grounds each claim in the top-k *passages* of the collection (the paper: ~128 words, 32 words of
overlap, i.e. a stride of 96: ``ICAT_PASSAGES``), not in whole documents: a claim is usually supported by
one paragraph of a long story, and an entailment judge reads a passage better than a whole story. The
passages are cut by the kit's one splitter (``argue_eval.passages``: passage length and stride in words).
For a collection that fits in memory (a track's JSONL sample, the documents cited by the runs) this builds
the index on the fly in seconds; the persistent Lucene/faiss indexes of ``argue_eval.search`` remain the
tools for millions of documents.

Both retrievers return, for each query, ``Hit(doc_id, passage text, score)`` best first, with ties broken
by (document order, passage order) so that reruns give the same ranking; passages with no query term in
common (BM25 score 0) are not returned.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import MissingDependencyError, unknown_name
from ..model import Document
from ..passages import PassageSplitter

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Hit", "PassageIndex", "ICAT_PASSAGES", "splitter_of", "RETRIEVERS"]

ICAT_PASSAGES = PassageSplitter(128, 96)
"""ICAT's passages (the paper's 128 words with 32 of overlap): the ``icat`` command's defaults, and what
``nuggets bind --propose`` searches."""
RETRIEVERS = ("bm25", "dense")


class Hit(NamedTuple):
    """One retrieved passage: its document, its text, its rank score."""

    doc_id: str
    text: str
    score: float


def splitter_of(words: int | None = None, stride: int | None = None, overlap: int | None = None) -> PassageSplitter:
    """The splitter of ``words`` and ``stride``, or of ``words`` and the older ``overlap`` (not both); what is
    not given is ``argue_eval.passages``' default."""
    default = PassageSplitter()
    words = default.words if words is None else words
    if overlap is not None:
        if stride is not None:
            raise ValueError("give the passage stride or the overlap, not both")
        return PassageSplitter.from_overlap(words, overlap)
    return PassageSplitter(words, default.stride if stride is None else stride)


class PassageIndex:
    """The passages of ``documents`` (title first in each), searchable by BM25 or by embeddings."""

    def __init__(self, documents: Iterable[Document], retriever: str = "bm25", words: int | None = None,
                 overlap: int | None = None, *, stride: int | None = None, embedder: Any = None) -> None:
        """Index the passages of ``documents``, ``words`` long every ``stride`` words (``splitter_of``; the
        older ``overlap`` is ``words - stride``, kept for callers written with ``icat --passage-overlap``).
        ``embedder``: a ``search.embeddings.TextEmbedder`` for dense retrieval (each passage and query embedded
        once, kept in the judgment cache when it has a store); without one, ``dense.encode`` embeds them."""
        if retriever not in RETRIEVERS:
            raise unknown_name("--retriever", "retriever", retriever, RETRIEVERS)
        self.splitter = splitter_of(words, stride, overlap)
        self.retriever = retriever
        self.doc_ids: list[str] = []
        self.texts: list[str] = []
        for document in documents:
            for passage in self.splitter.document(document):
                self.doc_ids.append(document.doc_id)
                self.texts.append(passage)
        self._bm25 = None
        self._vectors = None
        self._embedder = embedder
        if not self.texts:
            return
        if retriever == "bm25":
            import bm25s

            self._bm25 = bm25s.BM25()
            self._bm25.index(bm25s.tokenize(self.texts, stopwords="en", show_progress=False), show_progress=False)
        elif embedder is not None:
            self._vectors = embedder.vectors(self.texts)
        else:
            from .dense import encode

            self._vectors = encode(self.texts)

    def __len__(self) -> int:
        return len(self.texts)

    def search(self, queries: Sequence[str], k: int = 10) -> list[list[Hit]]:
        """The top-``k`` passages of each query, best first (fewer when fewer match)."""
        if not queries:
            return []
        if not self.texts or k < 1:
            return [[] for _ in queries]
        if self._bm25 is not None:
            return self._search_bm25(self._bm25, queries, k)
        assert self._vectors is not None  # __init__ builds one of the two whenever there are passages
        return self._search_dense(self._vectors, queries, k)

    __call__ = search

    def _ranked(self, scores: Sequence[float], k: int) -> list[Hit]:
        import numpy as np

        values = np.asarray(scores, dtype=float)
        order = np.lexsort((np.arange(len(values)), -values))[:k]  # score desc, then passage order
        return [Hit(self.doc_ids[i], self.texts[i], float(values[i])) for i in order if values[i] > 0]

    def _search_bm25(self, bm25: Any, queries: Sequence[str], k: int) -> list[list[Hit]]:
        import bm25s

        tokens = bm25s.tokenize(list(queries), stopwords="en", return_ids=False, show_progress=False)
        results: list[list[Hit]] = []
        for query in tokens:
            known = [token for token in query if token in bm25.vocab_dict]
            if not known:
                results.append([])
                continue
            results.append(self._ranked(bm25.get_scores(known), k))
        return results

    def _search_dense(self, vectors: np.ndarray, queries: Sequence[str], k: int) -> list[list[Hit]]:
        try:
            from .dense import encode
        except ImportError as error:  # pragma: no cover - dense imports lazily
            raise MissingDependencyError("dense retrieval", "dense", str(error)) from None
        queried = self._embedder.vectors(list(queries)) if self._embedder is not None else encode(list(queries))
        similarities = queried @ vectors.T
        return [self._ranked(row, k) for row in similarities]
