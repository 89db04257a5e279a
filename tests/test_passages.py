"""The one passage splitter (argue_eval.passages): windows of words every stride words, title first, one
vocabulary for the judges, ICAT's index and bind --propose."""
from __future__ import annotations

import pytest

from argue_eval.model import Document
from argue_eval.passages import DEFAULT_PASSAGE_STRIDE, DEFAULT_PASSAGE_WORDS, PassageSplitter, window_starts
from argue_eval.search.grounding import IndexedPassageRetriever
from argue_eval.search.passages import ICAT_PASSAGES, PassageIndex, splitter_of

WORDS = " ".join(f"w{i}" for i in range(10))  # w0 .. w9


def test_window_starts_by_hand():
    # 10 words, windows of 4 every 3: starts 0, 3, 6 (6 + 4 = 10 reaches the end: no tail window)
    assert window_starts(10, 4, 3) == [0, 3, 6]
    # windows of 4 every 4: 0, 4, then 4 + 4 = 8 < 10 so a tail window 6..9 ends at the end
    assert window_starts(10, 4, 4) == [0, 4, 6]
    assert window_starts(3, 4, 2) == [0] and window_starts(0, 4, 2) == []


def test_split_cuts_windows_of_words_every_stride():
    passages = PassageSplitter(4, 3).split(WORDS)
    assert passages == ["w0 w1 w2 w3", "w3 w4 w5 w6", "w6 w7 w8 w9"]
    assert PassageSplitter(4, 4).split(WORDS)[-1] == "w6 w7 w8 w9"  # the tail window ends at the text's end
    assert PassageSplitter(20, 5).split("  a\n b  ") == ["a b"]  # short text: itself, whitespace folded
    assert PassageSplitter().split("   ") == []


def test_the_title_opens_every_passage_and_stands_alone_for_an_empty_text():
    splitter = PassageSplitter(4, 3)
    passages = splitter.document(Document("d1", WORDS, "  The   Title "))
    assert passages == ("The Title. w0 w1 w2 w3", "The Title. w3 w4 w5 w6", "The Title. w6 w7 w8 w9")
    assert splitter.document(Document("d2", "", "Only a title")) == ("Only a title",)
    assert splitter.document(Document("d3", "", "")) == ()


def test_overlap_is_length_minus_stride_and_bad_windows_are_refused():
    # ICAT's paper: 128 words, 32 shared with the next passage = a new passage every 96 words
    assert PassageSplitter.from_overlap(128, 32) == PassageSplitter(128, 96) == ICAT_PASSAGES
    assert PassageSplitter() == PassageSplitter(DEFAULT_PASSAGE_WORDS, DEFAULT_PASSAGE_STRIDE) == PassageSplitter(128, 64)
    for words, stride in ((0, 1), (4, 0), (4, 5)):
        with pytest.raises(ValueError, match="stride"):
            PassageSplitter(words, stride)
    with pytest.raises(ValueError, match="overlap"):
        PassageSplitter.from_overlap(10, 10)


def test_the_index_takes_the_stride_or_the_older_overlap():
    document = Document("d1", " ".join(f"w{i}" for i in range(300)), "Title")
    by_overlap = PassageIndex([document], "bm25", 128, 32)  # the icat command's positional call
    by_stride = PassageIndex([document], words=128, stride=96)
    assert by_overlap.texts == by_stride.texts and by_overlap.splitter == ICAT_PASSAGES
    # the default is the kit's one default: 128 words every 64 (starts 0, 64, 128, then the tail at 172)
    assert [text.split()[1] for text in PassageIndex([document]).texts] == ["w0", "w64", "w128", "w172"]
    assert splitter_of(overlap=28) == PassageSplitter(128, 100)
    with pytest.raises(ValueError, match="not both"):
        splitter_of(128, stride=64, overlap=32)
    retriever = IndexedPassageRetriever(object(), object(), 5, "bm25", 128, 32)  # the icat command's call
    assert retriever.splitter == ICAT_PASSAGES


def test_judges_and_the_lexical_token_windows_cut_the_same_passages():
    from argue_eval.judges.lexical_tokens import content_set, word_windows

    text = WORDS + " rose 3.7% in July of 2019"  # 16 words: windows of 6 every 5 start at 0, 5, 10
    windows = word_windows(text, 6, 5)
    passages = PassageSplitter(6, 5).split(text)
    assert [words for words, _ in windows] == [content_set(passage) for passage in passages]
    assert len(passages) == 3

