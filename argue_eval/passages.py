"""The one passage splitter of the kit: documents cut into windows of words.

A sentence is usually supported by one paragraph of a long news story, not by the whole story: comparing
it with the whole text drowns the evidence (word overlap) or overflows the model (NLI, embeddings), and a
claim is grounded in a passage, not a document (ICAT). So every part that reads documents cuts them here:
the lexical, semantic and NLI judges, ICAT's passage retrieval (``search.passages``, ``search.grounding``)
and ``nuggets bind --propose``.

One vocabulary: a passage is ``words`` words long and the next one starts ``stride`` words later
(``1 <= stride <= words``), so neighbours share ``words - stride`` words and any span of up to that many
words lies whole inside some passage. The last window ends at the text's end. The title, when there is
one, opens every passage of its document: it names the subject that the body's pronouns refer to. The
"overlap" of ICAT's paper and of ``icat --passage-overlap`` is ``words - stride``
(``PassageSplitter.from_overlap``).

This module sits at the bottom layer (it imports only ``model``), so judges and search share it.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .model import Document

__all__ = ["PassageSplitter", "DEFAULT_PASSAGE_WORDS", "DEFAULT_PASSAGE_STRIDE", "window_starts"]

DEFAULT_PASSAGE_WORDS = 128
"""Passage length in words, unless a caller says otherwise (the lexical and NLI judges' default)."""
DEFAULT_PASSAGE_STRIDE = 64
"""Words from one passage's start to the next's, unless a caller says otherwise (half a passage)."""


def window_starts(n_words: int, words: int, stride: int) -> list[int]:
    """The first word of each window of ``words`` words every ``stride`` words over ``n_words`` words.

    No words, no window; a text of at most ``words`` words is one window; otherwise windows start every
    ``stride`` words and, when the last regular one stops short of the end, one more ends at the end.
    Shared by ``PassageSplitter.split`` and the lexical judge's token windows (``judges.lexical_tokens.word_windows``),
    which must cut the same passages.
    """
    if n_words <= 0:
        return []
    if n_words <= words:
        return [0]
    starts = list(range(0, n_words - words + 1, stride))
    if starts[-1] + words < n_words:
        starts.append(n_words - words)  # the tail gets a window of its own
    return starts


@dataclass(frozen=True)
class PassageSplitter:
    """How documents are cut: passages of ``words`` words, one starting every ``stride`` words."""

    words: int = DEFAULT_PASSAGE_WORDS
    stride: int = DEFAULT_PASSAGE_STRIDE

    def __post_init__(self) -> None:
        if self.words < 1 or not 1 <= self.stride <= self.words:
            raise ValueError(f"passages need words >= 1 and 1 <= stride <= words, "
                             f"got words={self.words}, stride={self.stride}")

    @classmethod
    def from_overlap(cls, words: int, overlap: int) -> PassageSplitter:
        """The splitter said the other way, as ICAT's paper and ``--passage-overlap`` do: windows of ``words``
        words of which ``overlap`` are shared with the next (``stride = words - overlap``, ``0 <= overlap <
        words``)."""
        if not 0 <= overlap < words:
            raise ValueError(f"need 0 <= overlap < words, got words={words}, overlap={overlap}")
        return cls(words, words - overlap)

    def split(self, text: str) -> list[str]:
        """The passages of ``text`` (whitespace folded); an empty text gives none, a short one itself."""
        tokens = text.split()
        return [" ".join(tokens[start:start + self.words])
                for start in window_starts(len(tokens), self.words, self.stride)]

    def document(self, document: Document) -> tuple[str, ...]:
        """The passages of ``document``, its title opening each (only the title when the text is empty;
        none when both are), cached: judges ask about the same documents often."""
        return _document_passages(document.doc_id, document.title or "", document.text or "", self)


@lru_cache(maxsize=4096)
def _document_passages(doc_id: str, title: str, text: str, splitter: PassageSplitter) -> tuple[str, ...]:
    passages = splitter.split(text)
    if title.strip():
        heading = " ".join(title.split())
        passages = [f"{heading}. {passage}" for passage in passages] or [heading]
    return tuple(passages)
