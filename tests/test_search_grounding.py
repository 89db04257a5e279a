"""The indexed retriever of ICAT's grounding: documents from an index, passages ranked among theirs.

Tested with a searcher and a store made here (the Lucene and faiss paths are in test_icat_index.py)."""
from __future__ import annotations

import pytest

from argue_eval.errors import ArgueError
from argue_eval.model import Document
from argue_eval.search.grounding import IndexedPassageRetriever


class Searcher:
    """Returns the same ranked ids for every claim."""

    def __init__(self, ids: list[str]):
        self.ids = ids

    def batch_search(self, queries: dict[str, str], k: int) -> dict[str, list[tuple[str, float]]]:
        return {qid: [(doc_id, 1.0) for doc_id in self.ids[:k]] for qid in queries}


class Store:
    def __init__(self, n: int):
        self.docs = {f"d{i}": Document(f"d{i}", f"The dam number {i} failed in May.") for i in range(n)}

    def get_many(self, ids):
        return {doc_id: self.docs[doc_id] for doc_id in ids if doc_id in self.docs}


def test_a_claims_documents_survive_a_small_document_cache():
    """depth 3 > keep_documents 1: all three documents of the claim are ranked, none evicted mid-claim."""
    retriever = IndexedPassageRetriever(Searcher(["d0", "d1", "d2"]), Store(5), depth=3, keep_documents=1)
    hits = retriever.search(["dam failed"], 10)[0]
    assert sorted(hit.doc_id for hit in hits) == ["d0", "d1", "d2"]


def test_ids_missing_from_the_collection_are_recorded_and_none_found_is_an_error():
    retriever = IndexedPassageRetriever(Searcher(["x1", "d1"]), Store(2), depth=2)
    assert [hit.doc_id for hit in retriever.search(["dam failed"], 10)[0]] == ["d1"]
    assert list(retriever.unknown_ids) == ["x1"]
    with pytest.raises(ArgueError, match="holds none of them .*'x1'.*built from this --collection"):
        IndexedPassageRetriever(Searcher(["x1", "x2"]), Store(2), depth=2).search(["dam failed"], 10)
