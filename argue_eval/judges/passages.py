"""Cutting documents into overlapping passages, the unit every document-reading judge compares against.

A sentence is usually supported by one paragraph of a long news story, not by the whole story: comparing
it with the whole text drowns the evidence (lexical overlap) or overflows the model (NLI, embeddings).
Passages are windows of ``size`` words that start every ``stride`` words, so any span of up to
``size - stride`` words lies whole inside some passage. The title, when there is one, opens every passage:
it names the subject that the body's pronouns refer to.
"""
from __future__ import annotations

from functools import lru_cache

from ..model import Document

__all__ = ["split_passages", "document_passages", "DEFAULT_PASSAGE_WORDS", "DEFAULT_PASSAGE_STRIDE"]

DEFAULT_PASSAGE_WORDS = 128
DEFAULT_PASSAGE_STRIDE = 64


def split_passages(text: str, size: int = DEFAULT_PASSAGE_WORDS, stride: int = DEFAULT_PASSAGE_STRIDE) -> list[str]:
    """Windows of ``size`` words every ``stride`` words; the last window ends at the text's end.

    An empty text gives no passage; a text of at most ``size`` words gives itself (whitespace folded).
    """
    if size < 1 or not 1 <= stride <= size:
        raise ValueError(f"need size >= 1 and 1 <= stride <= size, got size={size}, stride={stride}")
    words = text.split()
    if not words:
        return []
    if len(words) <= size:
        return [" ".join(words)]
    starts = list(range(0, len(words) - size + 1, stride))
    if starts[-1] + size < len(words):
        starts.append(len(words) - size)  # the tail gets a window of its own
    return [" ".join(words[start:start + size]) for start in starts]


@lru_cache(maxsize=4096)
def _cached(doc_id: str, title: str, text: str, size: int, stride: int) -> tuple[str, ...]:
    passages = split_passages(text, size, stride)
    if title and title.strip():
        heading = " ".join(title.split())
        passages = [f"{heading}. {p}" for p in passages] or [heading]
    return tuple(passages)


def document_passages(document: Document, size: int = DEFAULT_PASSAGE_WORDS,
                      stride: int = DEFAULT_PASSAGE_STRIDE) -> tuple[str, ...]:
    """The passages of ``document`` (title first in each), cached: judges ask about the same documents often."""
    return _cached(document.doc_id, document.title or "", document.text or "", size, stride)
