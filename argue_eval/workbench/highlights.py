"""What the document pane marks in a document's text: the passage that best matches the item, the spans bound to
the bank's answers, and the assessor's own earlier selections.

Marks are spans in code points of the text as the page shows it (``actions.display_text``), the unit the
selection offsets are kept in, and the pane draws them as ``<mark>`` around pieces of that same text, so the
text (and every offset into it) is unchanged.

The best passage is one of the windows every judge of the kit reads (``passages.window_starts``: 128 words,
one every 64, unless a judge was told otherwise). Where the suggestion's rationale names the window the
lexical judge chose ("best passage K/N") and the document has N windows, that window is the judge's own and
is marked as such; otherwise the window that holds most of the sentence's content words is marked as the
best match.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..judges.lexical_tokens import content, content_set
from ..passages import DEFAULT_PASSAGE_STRIDE, DEFAULT_PASSAGE_WORDS, window_starts

__all__ = ["Mark", "Segment", "passage_spans", "best_passage", "bound_marks", "segments", "legend", "pane"]

_WORD = re.compile(r"\S+")
_JUDGES_PASSAGE = re.compile(r"best passage (\d+)/(\d+)")


@dataclass(frozen=True)
class Mark:
    """A span to mark: ``[start, end)`` in code points, its kind (``passage``, ``bound``, ``mine``) and what it is."""

    start: int
    end: int
    kind: str
    label: str


@dataclass(frozen=True)
class Segment:
    """A piece of the text and the kinds of the marks over it (none: plain text); ``first`` is the index of the
    mark that starts here (the jump key's stops), else ``None``."""

    text: str
    kinds: tuple[str, ...]
    labels: tuple[str, ...]
    first: int | None


def passage_spans(text: str, words: int = DEFAULT_PASSAGE_WORDS,
                  stride: int = DEFAULT_PASSAGE_STRIDE) -> list[tuple[int, int]]:
    """The character spans of the text's passages (the windows of ``passages.PassageSplitter``: words are runs
    of non-space, as ``str.split`` cuts them)."""
    found = [(m.start(), m.end()) for m in _WORD.finditer(text)]
    return [(found[s][0], found[min(s + words, len(found)) - 1][1]) for s in window_starts(len(found), words, stride)]


def best_passage(text: str, query: str, rationale: str | None = None, judge: str | None = None) -> Mark | None:
    """The passage to mark for ``query`` (the item's sentence): the judge's own choice
    when its rationale names it and fits this text, else the one holding most of the query's content words;
    ``None`` when no passage shares a word with it."""
    spans = passage_spans(text)
    if not spans:
        return None
    named = _JUDGES_PASSAGE.search(rationale or "")
    if named and int(named.group(2)) == len(spans) and 1 <= int(named.group(1)) <= len(spans):
        start, end = spans[int(named.group(1)) - 1]
        return Mark(start, end, "passage", f"{judge or 'the judge'}'s best passage ({named.group(1)} of {len(spans)})")
    wanted = set(content(query))
    if not wanted:
        return None
    scores = [len(wanted & content_set(text[start:end])) for start, end in spans]
    best = max(range(len(spans)), key=lambda k: (scores[k], -k))
    if scores[best] == 0:
        return None
    start, end = spans[best]
    return Mark(start, end, "passage", f"the passage that shares most words with it ({scores[best]} of "
                f"{len(wanted)})")


def bound_marks(bank: Iterable[dict[str, Any]], doc_id: str, mine: set[tuple[int, int]],
                 nuggets: set[str] | None = None) -> list[Mark]:
    """The spans of ``doc_id`` bound to answers of the bank (``Store.nugget_rows``; of ``nuggets`` only, when
    given), and, among them, the ones ``mine`` (the assessor's own selections) marked as such too."""
    out = []
    for nugget in bank:
        if nuggets is not None and nugget["nugget_id"] not in nuggets:
            continue
        for answer in nugget["answers"]:
            for binding in answer["bindings"]:
                if binding["doc_id"] != doc_id or binding.get("start") is None:
                    continue
                span = (binding["start"], binding["end"])
                label = f"bound to {nugget['nugget_id']}: {answer['text']}"
                out.append(Mark(*span, "bound", label))
                if span in mine:
                    out.append(Mark(*span, "mine", "your selection"))
    return out


def segments(text: str, marks: Iterable[Mark]) -> list[Segment]:
    """``text`` cut where a mark starts or ends, each piece with the marks over it (overlaps keep both), in
    order; the pieces join to ``text`` exactly."""
    kept: Sequence[Mark] = sorted({m for m in marks if 0 <= m.start < m.end <= len(text)},
                                  key=lambda m: (m.start, -m.end, m.kind))
    if not kept:
        return [Segment(text, (), (), None)] if text else []
    cuts = sorted({0, len(text), *(m.start for m in kept), *(m.end for m in kept)})
    starts: dict[int, int] = {}
    for index, mark in enumerate(kept):
        starts.setdefault(mark.start, index)
    out = []
    for left, right in zip(cuts, cuts[1:]):
        over = [m for m in kept if m.start <= left and right <= m.end]
        out.append(Segment(text[left:right], tuple(dict.fromkeys(m.kind for m in over)),
                           tuple(dict.fromkeys(m.label for m in over)), starts.get(left)))
    return out


LEGEND = {"passage": "best passage", "bound": "bound to an answer", "mine": "your selection"}


def legend(marks: Iterable[Mark]) -> list[tuple[str, str]]:
    """What the pane's key line says: each kind of mark present, with how many (``(kind, text)``)."""
    counts: dict[str, int] = {}
    for mark in marks:
        counts[mark.kind] = counts.get(mark.kind, 0) + 1
    return [(kind, f"{LEGEND[kind]}" + (f" ({counts[kind]})" if counts[kind] > 1 else ""))
            for kind in LEGEND if kind in counts]


def pane(text: str, marks: Sequence[Mark]) -> dict[str, Any]:
    """The template context of a marked document: ``doc_segments`` and ``doc_marks`` (the legend)."""
    return {"doc_segments": segments(text, marks), "doc_marks": legend(marks)}
