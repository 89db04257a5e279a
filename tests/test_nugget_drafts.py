"""The rules that turn an LLM's proposals into a topic's nugget bank (organizer.nugget_drafts): the binding
check, merging questions and answers, the near-duplicate threshold and the cap, on hand-worked cases."""
from __future__ import annotations

import pytest

from argue_eval.organizer.nugget_drafts import DraftBank, question_similarity, question_words

DOCS = {"D1": "doc-a", "D2": "doc-b", "D3": "doc-c"}


def proposal(question: str, *answers: tuple[str, list[str]]) -> dict:
    return {"question": question, "answers": [{"answer": text, "documents": labels} for text, labels in answers]}


def test_question_words_keep_what_is_asked():
    # content words stemmed as the lexical judge reads them ("people" -> person, "hospitalized" -> hospit),
    # plus the question words the stopword list would drop
    assert question_words("How many people were admitted to hospital?") == {"how", "mani", "person", "admit", "hospit"}
    assert question_words("Who resigned?") == {"who", "resign"}


@pytest.mark.parametrize("first, second, expected", [
    # equal after normalization (case, spacing, end punctuation)
    ("When did the notice end?", "when did the  notice end", 1.0),
    # {how, mani, person, admit, hospit} vs {how, mani, person, hospit}: 4 shared of 5 -> 0.8
    ("How many people were admitted to hospital?", "How many people were hospitalized?", 0.8),
    # {who, resign} vs {when, resign}: 1 of 3
    ("Who resigned?", "When did he resign?", 1 / 3),
    # the same words but other numbers: never the same question
    ("How many people were admitted in 2024 to the Lynde Road hospital of Ridgefield?",
     "How many people were admitted in 2025 to the Lynde Road hospital of Ridgefield?", 0.0),
    # {what, caus, contamin} vs {what, caus, water, contamin}: 3 of 4
    ("What caused the contamination?", "What caused the water contamination?", 0.75),
])
def test_question_similarity_hand_worked(first, second, expected):
    assert question_similarity(first, second) == pytest.approx(expected)


def test_a_binding_to_a_document_outside_the_batch_is_dropped_and_counted():
    bank = DraftBank("t1")
    outcomes = bank.add_reply([
        # D7 and a real id of another batch were never shown: two bindings dropped, the answer keeps D1
        proposal("What contaminated the water?", ("E. coli", ["D1", "D7", "doc-z"])),
        # no document of the batch at all: the answer goes, and with it the question
        proposal("Who resigned?", ("the mayor", ["D9"])),
    ], batch=1, documents=DOCS)
    assert [n.question for n in bank.nuggets] == ["What contaminated the water?"]
    assert bank.nuggets[0].answers[0].doc_ids == ["doc-a"]
    assert dict(bank.dropped) == {"unseen-document": 3, "answer-without-document": 1, "question-without-answer": 1}
    assert outcomes[0] == {"question": "What contaminated the water?", "result": "new",
                           "dropped": [{"reason": "unseen-document", "answer": "E. coli", "document": "D7"},
                                       {"reason": "unseen-document", "answer": "E. coli", "document": "doc-z"}]}
    assert outcomes[1]["result"] == "dropped"


def test_empty_and_overlong_texts_and_replies_beyond_the_limit_are_dropped():
    bank = DraftBank("t1", max_proposals=3, max_question_chars=40, max_answer_chars=10)
    bank.add_reply([
        proposal("...", ("x", ["D1"])),                        # no words: an empty question
        proposal("What was found?", (" ?", ["D1"]), ("E. coli bacteria in water", ["D1"]), ("E. coli", ["D2"])),
        proposal("What is a question of more than forty characters?", ("x", ["D1"])),
        proposal("One too many?", ("x", ["D1"])),               # the 4th of a call that may list 3
    ], batch=1, documents=DOCS)
    assert dict(bank.dropped) == {"empty-question": 1, "empty-answer": 1, "long-answer": 1, "long-question": 1,
                                  "over-limit": 1}
    assert [(a.text, a.doc_ids) for a in bank.nuggets[0].answers] == [("E. coli", ["doc-b"])]


def test_answers_to_one_question_merge_across_batches_with_their_documents():
    bank = DraftBank("t1")
    bank.add_reply([proposal("When was the notice lifted?", ("12 March 2025", ["D1", "D2"]))], 1, DOCS)
    # batch 2: the same question (case, end punctuation), the same answer (a final dot, lower case) bound to the
    # same document again and to a new one, and a second answer
    second = {"D1": "doc-b", "D2": "doc-d"}
    outcomes = bank.add_reply([proposal("when was the notice lifted", ("12 march 2025.", ["D1", "D2"]),
                                        ("on 12 March", ["D2"]))], 2, second)
    assert outcomes == [{"question": "when was the notice lifted", "result": "merged",
                         "into": "When was the notice lifted?"}]
    [nugget] = bank.nuggets
    assert nugget.question == "When was the notice lifted?" and nugget.aliases == []  # equal: no alias
    assert [(a.text, a.doc_ids) for a in nugget.answers] == [("12 March 2025", ["doc-a", "doc-b", "doc-d"]),
                                                            ("on 12 March", ["doc-d"])]
    assert nugget.batches == [1, 2] and nugget.support == 3


def test_near_duplicates_merge_into_the_most_similar_and_the_older_on_a_tie():
    bank = DraftBank("t1", threshold=0.8)
    bank.add_reply([proposal("How many people were admitted to hospital?", ("37", ["D1"])),
                    proposal("How many people were admitted to hospital in Ridgefield?", ("37", ["D2"]))], 1, DOCS)
    # the second question: {how, mani, person, admit, hospit, ridgefield} vs the first's 5 words: 5/6 = 0.83 -> merged
    assert len(bank.nuggets) == 1
    assert bank.nuggets[0].aliases == ["How many people were admitted to hospital in Ridgefield?"]
    # 0.8 with the first question, 4/6 = 0.67 with its alias: merged (the best score is the one that counts)
    bank.add_reply([proposal("How many people were hospitalized?", ("thirty-seven", ["D3"]))], 2, DOCS)
    assert len(bank.nuggets) == 1 and len(bank.nuggets[0].answers) == 2
    # 3 of 4 words (0.75 < 0.8): a nugget of its own
    bank.add_reply([proposal("What caused the contamination?", ("flooding", ["D1"]))], 2, DOCS)
    bank.add_reply([proposal("What caused the water contamination?", ("flood", ["D2"]))], 3, DOCS)
    assert [n.question for n in bank.nuggets] == ["How many people were admitted to hospital?",
                                                 "What caused the contamination?",
                                                 "What caused the water contamination?"]
    # equally similar (1/2 ... 3/4) to two nuggets at a threshold of 0.7: the older one takes it
    tie = DraftBank("t2", threshold=0.7)
    tie.add_reply([proposal("What caused the flood?", ("rain", ["D1"])),
                   proposal("What caused the fire?", ("a power line", ["D1"]))], 1, DOCS)
    # {what, caus, flood, fire}: 3 of 4 with each (0.75)
    assert question_similarity("What caused the flood fire?", "What caused the flood?") == 0.75
    assert question_similarity("What caused the flood fire?", "What caused the fire?") == 0.75
    tie.add_reply([proposal("What caused the flood fire?", ("storm", ["D2"]))], 2, DOCS)
    assert [len(n.answers) for n in tie.nuggets] == [2, 1]


def test_the_cap_keeps_the_most_supported_in_the_order_first_proposed():
    """Supports 1, 3, 2, 3 (distinct documents over a nugget's answers) with max_nuggets 2: the two with 3 stay,
    the first of them proposed second; the tie between them does not matter, both fit; a tie at the border
    goes to the older nugget (the next test)."""
    bank = DraftBank("t1", max_nuggets=2)
    docs = {f"D{i}": f"d{i}" for i in range(1, 5)}
    bank.add_reply([
        proposal("Q one?", ("a", ["D1"])),
        proposal("Q two?", ("b", ["D1", "D2"]), ("b2", ["D2", "D3"])),   # d1, d2, d3: 3
        proposal("Q three?", ("c", ["D3", "D4"])),
        proposal("Q four?", ("d", ["D2", "D3", "D4"])),
    ], 1, docs)
    assert [n.support for n in bank.nuggets] == [1, 3, 2, 3]
    # what the model is shown while the bank grows: the two that would stay
    assert [n["question"] for n in bank.shown()] == ["Q two?", "Q four?"]
    dropped = bank.cap()
    assert [n.question for n in bank.nuggets] == ["Q two?", "Q four?"]
    assert [n.question for n in dropped] == ["Q one?", "Q three?"]
    assert bank.dropped["over-cap"] == 2


def test_a_tie_at_the_cap_goes_to_the_older_nugget_and_a_hidden_nugget_still_merges():
    bank = DraftBank("t1", max_nuggets=1)
    bank.add_reply([proposal("First?", ("a", ["D1"])), proposal("Second?", ("b", ["D2"]))], 1, DOCS)
    assert [n["question"] for n in bank.shown()] == ["First?"]
    # "Second?" is not shown any more, but repeating it still merges into it (now 2 documents: it takes the lead)
    bank.add_reply([proposal("Second?", ("b", ["D3"]))], 2, DOCS)
    assert len(bank.nuggets) == 2 and [n["question"] for n in bank.shown()] == ["Second?"]


def test_a_rejected_binding_takes_an_answer_and_then_its_nugget_with_it():
    bank = DraftBank("t1")
    bank.add_reply([proposal("Q?", ("a", ["D1", "D2"]), ("b", ["D3"]))], 1, DOCS)
    nugget = bank.nuggets[0]
    first, second = nugget.answers
    bank.remove_binding(nugget, first, "doc-a")
    assert first.doc_ids == ["doc-b"] and len(nugget.answers) == 2
    bank.remove_binding(nugget, second, "doc-c")
    assert nugget.answers == [first]
    bank.remove_binding(nugget, first, "doc-b")
    assert bank.nuggets == []
    assert dict(bank.dropped) == {"rejected-binding": 3, "answer-rejected": 2, "nugget-rejected": 1}
