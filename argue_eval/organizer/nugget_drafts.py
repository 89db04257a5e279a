"""A topic's nugget bank while an LLM builds it: the rules that merge, check and cap the proposals.

``organizer.nugget_create`` asks a model for nuggets batch after batch; every proposal comes here, and the
rules that decide what becomes of it are deterministic, so a bank depends only on the replies:

- **binding check**: an answer may be bound only to documents of the batch the model read (its labels ``D1``,
  ``D2``, ...); a binding to any other label is dropped and counted (``unseen-document``), an answer left with
  no document is dropped (``answer-without-document``), and a question left with no answer too
  (``question-without-answer``). Empty texts and texts longer than the schema allows are dropped and counted.
- **same question**: a proposal's question is the question of a nugget already in the bank (or one of the
  questions merged into it) when the two are
  equal after normalization (``key_text``: case, spacing, end punctuation), or *near duplicates*: the same
  numbers, and their word sets (content words stemmed as the lexical judge reads them, plus the question
  words who/what/when/where/which/why/how) overlap by at least ``threshold`` (Jaccard; default 0.8). "How
  many people were admitted to hospital?" and "How many people were hospitalized?" share 4 of 5 words (0.8):
  one nugget. "Who resigned?" and "When did he resign?" share 1 of 3: two. Among several near duplicates the
  most similar wins, the older on a tie. The merged nugget keeps the first question; the others are kept as
  its aliases.
- **same answer**: two answers of one nugget are one when equal after the same normalization; their
  documents are unioned, in the order first bound.
- **cap**: a bank keeps at most ``max_nuggets`` nuggets (AutoNuggetizer's 30 by default). Nuggets are ranked
  by *support*, the number of distinct documents bound to their answers, then by age (the first proposed
  first); the top ``max_nuggets`` stay, in the order they were first proposed. While the bank is built, the
  model is shown the nuggets that would stay if it ended now (so the list it reads is bounded as
  AutoNuggetizer's is); a proposal that repeats a nugget outside that list still merges into it.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..judges.lexical_tokens import content_set, numbers
from .nugget_tools import key_text

__all__ = ["DraftAnswer", "DraftNugget", "DraftBank", "question_words", "question_similarity", "DROP_REASONS",
           "DEFAULT_MERGE_THRESHOLD", "SHOWN_ANSWERS"]

DEFAULT_MERGE_THRESHOLD = 0.8
SHOWN_ANSWERS = 5
"""Answers of a nugget shown to the model in ``nuggets_so_far`` (the first ones bound)."""

DROP_REASONS = {
    "unseen-document": "a binding to a document that was not in the batch",
    "empty-question": "a nugget with an empty question (nothing but spaces and end punctuation)",
    "long-question": "a question longer than the schema allows",
    "empty-answer": "an answer with no text (nothing but spaces and end punctuation)",
    "long-answer": "an answer longer than the schema allows",
    "answer-without-document": "an answer none of whose documents was in the batch",
    "question-without-answer": "a nugget none of whose answers survived",
    "over-limit": "a nugget beyond the number a call may list",
    "rejected-binding": "a binding the verifying judge said the document does not attest",
    "answer-rejected": "an answer all of whose bindings the verifying judge rejected",
    "nugget-rejected": "a nugget all of whose answers the verifying judge rejected",
    "over-cap": "a nugget beyond --max-nuggets (the least supported)",
}
"""What is dropped and counted, by reason (the details and the summary name them)."""

_QUESTION_WORDS = frozenset({"who", "whom", "whose", "what", "when", "where", "which", "why", "how"})
_WORD = re.compile(r"[a-z]+")


@lru_cache(maxsize=4096)
def question_words(question: str) -> frozenset[str]:
    """What two questions are compared by: the content words (stemmed, numbers canonical, as the lexical judge
    reads them) and the question words, which ``content_set`` leaves out as stopwords but which say what is
    asked ("who" vs "when")."""
    asked = _QUESTION_WORDS.intersection(_WORD.findall(question.casefold()))
    return content_set(question) | asked


def question_similarity(first: str, second: str) -> float:
    """1.0 for questions equal after normalization; 0.0 when their numbers differ; otherwise the Jaccard
    overlap of their ``question_words``."""
    if key_text(first) == key_text(second):
        return 1.0
    if numbers(first) != numbers(second):
        return 0.0
    a, b = question_words(first), question_words(second)
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


@dataclass
class DraftAnswer:
    text: str
    doc_ids: list[str] = field(default_factory=list)


@dataclass
class DraftNugget:
    """A nugget being built: its first question, the aliases merged into it, its answers, where it came from."""

    question: str
    order: int
    """Position in the order nuggets were first proposed (the tie-break of the cap, and the output order)."""
    answers: list[DraftAnswer] = field(default_factory=list)
    batches: list[int] = field(default_factory=list)
    """1-based batch numbers whose replies proposed or extended it."""
    aliases: list[str] = field(default_factory=list)
    """Other questions merged into it (equal after normalization to none of its questions)."""
    importance: str | None = None
    provenance: dict[str, Any] = field(default_factory=dict)
    """Filled by the later steps (verification, labelling)."""

    @property
    def support(self) -> int:
        """Distinct documents bound to any of its answers."""
        return len({doc_id for answer in self.answers for doc_id in answer.doc_ids})

    def answer(self, text: str) -> DraftAnswer:
        """The answer equal to ``text`` after normalization, added when new."""
        key = key_text(text)
        for answer in self.answers:
            if key_text(answer.text) == key:
                return answer
        self.answers.append(DraftAnswer(text))
        return self.answers[-1]


class DraftBank:
    """One topic's nuggets under construction, with the counts of what its rules dropped."""

    def __init__(self, request_id: str, threshold: float = DEFAULT_MERGE_THRESHOLD, max_nuggets: int = 30,
                 max_proposals: int = 20, max_question_chars: int = 300, max_answer_chars: int = 200):
        self.request_id = request_id
        self.threshold = threshold
        self.max_nuggets = max_nuggets
        self.max_proposals = max_proposals
        self.max_question_chars = max_question_chars
        self.max_answer_chars = max_answer_chars
        self.nuggets: list[DraftNugget] = []
        self.dropped: Counter[str] = Counter()
        self._made = 0

    # -- finding --------------------------------------------------------------------------------------------
    def find(self, question: str) -> DraftNugget | None:
        """The nugget ``question`` repeats: equal after normalization, else the most similar near duplicate
        (at least ``threshold``; the older on a tie), else ``None``."""
        key = key_text(question)
        for nugget in self.nuggets:
            if key_text(nugget.question) == key or any(key_text(alias) == key for alias in nugget.aliases):
                return nugget
        best, best_score = None, 0.0
        for nugget in self.nuggets:
            score = max(question_similarity(question, text) for text in (nugget.question, *nugget.aliases))
            if score >= self.threshold and score > best_score:
                best, best_score = nugget, score
        return best

    # -- adding one reply -----------------------------------------------------------------------------------
    def add_reply(self, proposals: Sequence[Mapping[str, Any]], batch: int,
                  documents: Mapping[str, str]) -> list[dict[str, Any]]:
        """Merge one create call's proposals (batch ``batch``, 1-based; ``documents``: label -> doc id of the
        documents the model read). Returns one outcome per proposal, for the details: ``{"question", "result":
        "new" | "merged" | "dropped", "into"?, "dropped"?: [{"reason", ...}]}``."""
        outcomes = []
        for position, proposal in enumerate(proposals):
            if position >= self.max_proposals:
                self.dropped["over-limit"] += 1
                outcomes.append({"question": proposal["question"], "result": "dropped",
                                 "dropped": [{"reason": "over-limit"}]})
                continue
            outcomes.append(self._add(proposal, batch, documents))
        return outcomes

    def _drop(self, drops: list[dict[str, Any]], reason: str, **what: Any) -> None:
        self.dropped[reason] += 1
        drops.append({"reason": reason, **what})

    def _add(self, proposal: Mapping[str, Any], batch: int, documents: Mapping[str, str]) -> dict[str, Any]:
        question = proposal["question"]
        drops: list[dict[str, Any]] = []
        outcome: dict[str, Any] = {"question": question}
        if not key_text(question):  # nothing but spaces and end punctuation ("...")
            self._drop(drops, "empty-question")
            return {**outcome, "result": "dropped", "dropped": drops}
        if len(question) > self.max_question_chars:
            self._drop(drops, "long-question")
            return {**outcome, "result": "dropped", "dropped": drops}
        kept: list[tuple[str, list[str]]] = []
        for answer in proposal["answers"]:
            text = answer["answer"]
            if not key_text(text):
                self._drop(drops, "empty-answer")
                continue
            if len(text) > self.max_answer_chars:
                self._drop(drops, "long-answer", answer=text[:80])
                continue
            doc_ids: list[str] = []
            for label in answer["documents"]:
                if label in documents:
                    if documents[label] not in doc_ids:
                        doc_ids.append(documents[label])
                else:
                    self._drop(drops, "unseen-document", answer=text, document=label)
            if not doc_ids:
                self._drop(drops, "answer-without-document", answer=text)
                continue
            kept.append((text, doc_ids))
        if not kept:
            self._drop(drops, "question-without-answer")
            return {**outcome, "result": "dropped", "dropped": drops}
        nugget = self.find(question)
        if nugget is None:
            nugget = DraftNugget(question, self._made)
            self._made += 1
            self.nuggets.append(nugget)
            outcome["result"] = "new"
        else:
            outcome["result"] = "merged"
            outcome["into"] = nugget.question
            if key_text(question) != key_text(nugget.question) and all(
                    key_text(question) != key_text(alias) for alias in nugget.aliases):
                nugget.aliases.append(question)
        if batch not in nugget.batches:
            nugget.batches.append(batch)
        for text, doc_ids in kept:
            answer = nugget.answer(text)
            answer.doc_ids.extend(doc_id for doc_id in doc_ids if doc_id not in answer.doc_ids)
        if drops:
            outcome["dropped"] = drops
        return outcome

    # -- what stays -------------------------------------------------------------------------------------------
    def ranked(self) -> list[DraftNugget]:
        """Every nugget, most supported first, the older first on a tie."""
        return sorted(self.nuggets, key=lambda nugget: (-nugget.support, nugget.order))

    def kept(self) -> list[DraftNugget]:
        """The nuggets the cap keeps, in the order they were first proposed."""
        return sorted(self.ranked()[:self.max_nuggets], key=lambda nugget: nugget.order)

    def cap(self) -> list[DraftNugget]:
        """Apply the cap: keep ``kept()``, drop (and count) the rest; returns the dropped ones."""
        kept = self.kept()
        chosen = {id(nugget) for nugget in kept}
        dropped = [nugget for nugget in self.nuggets if id(nugget) not in chosen]
        if dropped:
            self.dropped["over-cap"] += len(dropped)
        self.nuggets = kept
        return dropped

    def shown(self) -> list[dict[str, Any]]:
        """The nuggets so far as the model reads them: those the cap would keep now, with their first answers."""
        return [{"question": nugget.question, "answers": [answer.text for answer in nugget.answers[:SHOWN_ANSWERS]]}
                for nugget in self.kept()]

    def remove_binding(self, nugget: DraftNugget, answer: DraftAnswer, doc_id: str) -> None:
        """Drop one binding (the verifying judge rejected it); an answer left without documents goes, and a nugget
        left without answers."""
        answer.doc_ids.remove(doc_id)
        self.dropped["rejected-binding"] += 1
        if not answer.doc_ids:
            nugget.answers.remove(answer)
            self.dropped["answer-rejected"] += 1
        if not nugget.answers:
            self.nuggets.remove(nugget)
            self.dropped["nugget-rejected"] += 1
