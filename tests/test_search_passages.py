"""In-memory passage retrieval for ICAT: passages with overlap, BM25 ranking, stable ties, no empty matches."""
from __future__ import annotations

import pytest

from argue_eval.model import Document
from argue_eval.search.passages import PassageIndex


def test_passages_overlap_and_carry_the_title():
    words = " ".join(f"w{i}" for i in range(300))
    index = PassageIndex([Document("d1", words, "Title")], words=128, overlap=32)
    # windows start every 96 words: 0, 96, then the tail window 172..299
    assert len(index) == 3
    assert index.texts[0].startswith("Title. w0 ") and index.texts[1].startswith("Title. w96 ")
    assert index.texts[2].endswith("w299") and index.texts[2].startswith("Title. w172 ")


def test_bm25_ranks_the_matching_passage_first_and_drops_non_matches():
    docs = [Document("a", "The reservoir was contaminated by farm runoff after heavy rain."),
            Document("b", "The council approved a new budget for road repairs."),
            Document("c", "Runoff from farms contaminated the reservoir, officials said.")]
    index = PassageIndex(docs)
    hits = index.search(["farm runoff contaminated the reservoir", "zebra"], k=10)
    assert {hit.doc_id for hit in hits[0]} == {"a", "c"}  # b shares no content word
    assert hits[0][0].score >= hits[0][1].score > 0
    assert hits[1] == []


def test_ties_keep_collection_order_and_k_cuts():
    docs = [Document(f"d{i}", "identical text about water") for i in range(5)]
    hits = PassageIndex(docs).search(["water"], k=3)[0]
    assert [hit.doc_id for hit in hits] == ["d0", "d1", "d2"]


def test_bad_settings_and_empty_collection():
    with pytest.raises(ValueError):
        PassageIndex([], words=10, overlap=10)
    assert PassageIndex([]).search(["anything"], k=5) == [[]]
