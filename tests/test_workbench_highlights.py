"""The document pane's marks (issue 32, item 2): passage spans in code points of the text as shown, the judge's
own passage where its rationale names it, the best-matching passage otherwise, bound spans and the
assessor's own selections, and the pieces the pane draws them from (which join to the text exactly)."""
from __future__ import annotations

from argue_eval.workbench.highlights import Mark, best_passage, bound_marks, legend, passage_spans, segments


def test_passage_spans_are_the_judges_windows_in_characters():
    # 5 words, windows of 2 every 2: starts 0 and 2, and one more for the tail (3), as PassageSplitter cuts them
    assert passage_spans("a bb ccc dd e", words=2, stride=2) == [(0, 4), (5, 11), (9, 13)]
    assert passage_spans("  ") == []
    # code points: an emoji is one
    assert passage_spans("😀 ab", words=1, stride=1) == [(0, 1), (2, 4)]


TEXT = " ".join(["ab"] * 200)  # word k at [3k, 3k + 2): default windows start at words 0, 64 and 72


def test_the_judges_own_passage_is_marked_where_its_rationale_names_it():
    mark = best_passage(TEXT, "nothing shared", "best passage 2/3 covers 0.8 of the sentence", "lexical")
    assert mark == Mark(3 * 64, 3 * 191 + 2, "passage", "lexical's best passage (2 of 3)")
    # a rationale about another cut of the text (4 windows) is not this text's: the best match is computed
    assert best_passage(TEXT, "nothing shared", "best passage 2/4 covers 0.8") is None


def test_otherwise_the_passage_with_most_of_the_sentences_words():
    words = ["ab"] * 200
    words[10] = "flood"  # in window 1 only
    words[150], words[151] = "flood", "Ridgefield"  # in windows 2 and 3: the first of them wins the tie
    text = " ".join(words)
    mark = best_passage(text, "The flood reached Ridgefield.")
    # word 64 starts 3 characters later than in TEXT ("flood" at word 10 is 3 longer than "ab"); word 191 ends
    # 3 + 3 + 8 later (the two "flood"s and "Ridgefield")
    assert (mark.start, mark.end) == (3 * 64 + 3, 3 * 191 + 2 + 3 + 3 + 8) == (195, 589)
    assert mark.label == "the passage that shares most words with it (2 of 3)"  # flood, reached, ridgefield


def test_bound_spans_and_the_assessors_own():
    bank = [{"nugget_id": "n1", "answers": [{"text": "Ridgefield", "bindings": [
        {"doc_id": "d1", "start": 4, "end": 8, "quote": "x"}, {"doc_id": "d2", "start": 0, "end": 3, "quote": "y"},
        {"doc_id": "d1", "start": None, "end": None, "quote": None}]}]},
        {"nugget_id": "n2", "answers": [{"text": "1999", "bindings": [{"doc_id": "d1", "start": 0, "end": 2}]}]}]
    assert bound_marks(bank, "d1", {(4, 8)}) == [Mark(4, 8, "bound", "bound to n1: Ridgefield"),
                                                 Mark(4, 8, "mine", "your selection"),
                                                 Mark(0, 2, "bound", "bound to n2: 1999")]
    assert bound_marks(bank, "d1", set(), {"n2"}) == [Mark(0, 2, "bound", "bound to n2: 1999")]
    assert legend(bound_marks(bank, "d1", {(4, 8)})) == [("bound", "bound to an answer (2)"), ("mine", "your selection")]


def test_segments_join_to_the_text_and_keep_overlaps():
    pieces = segments("abcdefghij", [Mark(2, 6, "bound", "b"), Mark(4, 8, "passage", "p"), Mark(9, 30, "bound", "x")])
    assert [(s.text, s.kinds, s.first) for s in pieces] == [
        ("ab", (), None), ("cd", ("bound",), 0), ("ef", ("bound", "passage"), 1), ("gh", ("passage",), None),
        ("ij", (), None)]  # the mark past the end is dropped
    assert "".join(s.text for s in pieces) == "abcdefghij"
    assert segments("", []) == [] and [s.text for s in segments("abc", [])] == ["abc"]


def test_progress_counts_items_as_the_pages_ask_them_not_the_answers_of_a_checklist():
    from argue_eval.judges.base import make_key
    from argue_eval.workbench.items import Group, Item, TopicItems

    def item(n: int, value: bool | None) -> Item:
        key = make_key("answers", "s01", f"sentence {n}", "d1", f"n{n}", "a", None, None)
        return Item(f"q{n}", key, "sentences", f"sentence {n}", "r", 0, None, None, (), "q", "a", 1, [], value)

    # three pages: a checklist of four answers all answered, one of three half answered, one single item open
    groups = [Group("g1", "sentences", [item(k, True) for k in range(4)], []),
              Group("g2", "sentences", [item(4, False), item(5, None), item(6, None)], []),
              Group("g3", "sentences", [item(7, None)], [])]
    items = TopicItems("s01", {"sentences": groups})
    assert items.counts("sentences") == (1, 2)  # pages: before, (5, 3) in answers beside "item 1 of 3"
    assert items.judgment_counts("sentences") == (5, 3)
