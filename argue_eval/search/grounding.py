"""Passage retrieval for ICAT over a collection too large to index in memory: a persistent index first.

``PassageIndex`` splits and indexes every document of a small collection. For millions of documents that
is neither possible nor needed: the persistent index (``lucene``: BM25 with Anserini; ``dense``: faiss
over MiniLM embeddings) finds the top ``depth`` documents of each claim, and only their passages are
ranked for it (with ``PassageIndex``, BM25 or embeddings, as for a small collection). A claim's passages
thus come from the documents the index ranks highest, which is where a supporting passage is.

The searcher is anything with ``batch_search({query_id: text}, k) -> {query_id: [(doc_id, score), ...]}``
(``LuceneSearcher``, ``DenseSearcher``); documents come from a document store (``argue_eval.collection``).
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from ..errors import ArgueError
from ..model import Document
from .passages import Hit, PassageIndex, splitter_of

__all__ = ["IndexedPassageRetriever"]


class IndexedPassageRetriever:
    """Claims -> top-k passages: documents from a persistent index, passages ranked among theirs.

    ``depth`` documents are taken per claim; their texts are fetched from ``store`` (the last
    ``keep_documents`` fetched are kept, since claims of one report hit the same stories). Their passages
    are ``words`` long every ``stride`` words, as ``PassageIndex`` cuts them (``overlap``, the older way to
    say the stride, is ``words - stride``).
    """

    def __init__(self, searcher: Any, store: Any, depth: int = 20, retriever: str = "bm25",
                 words: int | None = None, overlap: int | None = None, keep_documents: int = 2000, *,
                 stride: int | None = None) -> None:
        if depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        self.searcher = searcher
        self.store = store
        self.depth = depth
        self.retriever = retriever
        self.splitter = splitter_of(words, stride, overlap)
        self.keep_documents = max(keep_documents, depth)  # one claim's documents are never evicted mid-claim
        self.unknown_ids: dict[str, None] = {}
        """Ids the index returned that the collection does not hold (an index of another collection?)."""
        self._documents: OrderedDict[str, Document | None] = OrderedDict()

    def _fetch(self, doc_ids: Sequence[str]) -> list[Document]:
        wanted = [doc_id for doc_id in dict.fromkeys(doc_ids) if doc_id not in self._documents]
        if wanted:
            found = self.store.get_many(wanted)
            for doc_id in wanted:
                self._documents[doc_id] = found.get(doc_id)
        for doc_id in doc_ids:
            self._documents.move_to_end(doc_id)
        documents = [document for doc_id in doc_ids if (document := self._documents.get(doc_id)) is not None]
        self.unknown_ids.update((doc_id, None) for doc_id in doc_ids if self._documents.get(doc_id) is None)
        while len(self._documents) > self.keep_documents:  # after the claim's documents are taken
            self._documents.popitem(last=False)
        return documents

    def search(self, claims: Sequence[str], k: int = 10) -> list[list[Hit]]:
        """The top-``k`` passages of each claim, best first (none when the index finds no document)."""
        if not claims:
            return []
        found = self.searcher.batch_search({str(i): claim for i, claim in enumerate(claims)}, self.depth)
        results: list[list[Hit]] = []
        returned, fetched = 0, 0
        for i, claim in enumerate(claims):
            doc_ids = [doc_id for doc_id, _ in found.get(str(i), [])]
            documents = self._fetch(doc_ids)
            returned, fetched = returned + len(doc_ids), fetched + len(documents)
            if not documents:
                results.append([])
                continue
            passages = PassageIndex(documents, self.retriever, self.splitter.words, stride=self.splitter.stride)
            results.append(passages.search([claim], k)[0])
        if returned and not fetched:
            # not one returned id is in the collection: grounding would call every claim unsupported
            example = next(iter(self.unknown_ids))
            raise ArgueError(f"the index returned {returned} document id(s) and the collection holds none of them "
                             f"(e.g. {example!r}): is --index built from this --collection?")
        return results

    __call__ = search
