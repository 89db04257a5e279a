"""Proposed document bindings for nugget answers that no document attests, for an organizer to confirm.

Real assessor banks (report_gen_eval's ``dev_nuggets.jsonl``, the NeuCLIR "Dawn" bank) hold answers with no
documents, and ARGUE can only credit an answer through a cited document that attests it, so such nuggets
are dropped. Binding them by hand means searching the collection for every answer. Here each unbound answer
is searched for (its question and answer text as the query, over the collection's passages, BM25 or dense),
and when a judge is given it reads each retrieved passage and says whether the passage attests the answer
(an ``attested`` question whose sentence is "question answer"). The result is an assessor sheet, best
candidates first; an organizer marks the rows to keep (``accept`` = yes) and ``nuggets bind`` reads the
reviewed sheet back. Nothing is bound without that confirmation.

Pure: the caller opens the collection and builds the passage index and the judge; nothing here reads files.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..model import Answer, Document, Nugget, TopicNuggets, normalize_text

__all__ = ["PROPOSAL_COLUMNS", "Proposal", "propose_bindings", "proposal_rows", "unbound_answers"]

PROPOSAL_COLUMNS = ("accept", "request_id", "nugget_id", "question", "answer", "doc_id", "rank", "search_score",
                    "judge", "judge_says", "confidence", "passage")
"""The assessor sheet's columns; ``nuggets bind`` reads ``request_id, nugget_id, answer, doc_id`` of the rows
whose ``accept`` says yes."""


@dataclass(frozen=True)
class Proposal:
    """One candidate document for one unbound answer, with the evidence an assessor needs to decide."""

    request_id: str
    nugget_id: str
    question: str
    answer: str
    doc_id: str
    rank: int
    """1 = the best passage found for this answer (one row per document: its best passage)."""
    search_score: float
    judge: str | None
    judge_says: bool | None
    """The judge's verdict on "does this passage attest the answer?"; ``None`` without a judge or when it
    could not judge."""
    confidence: float
    """The judge's confidence in a yes (1 - its confidence in a no) when it gives one; its verdict as 1/0
    when it does not; without a judge, the search score relative to the answer's best hit (1 = best)."""
    passage: str


def unbound_answers(topics: Iterable[TopicNuggets]) -> Iterator[tuple[TopicNuggets, Nugget, Answer]]:
    """Every answer bound to no document, of nuggets that need documents (not negative, not statements)."""
    for topic in topics:
        for nugget in topic.nuggets:
            if nugget.negative or nugget.extra.get("statement"):
                continue
            for answer in nugget.answers:
                if not answer.doc_ids and answer.text.strip():
                    yield topic, nugget, answer


def propose_bindings(topics: Iterable[TopicNuggets], index: Any, judge: Any = None, depth: int = 5) -> list[Proposal]:
    """Candidates for every unbound answer of ``topics``: the ``depth`` best documents the passage ``index``
    (``argue_eval.search.passages.PassageIndex``) finds for "question answer", each judged by ``judge`` (a
    ``JudgeBackend``) when one is given. Per answer, the judge's yeses come first, then by search rank."""
    from ..judges.base import Question, make_key

    items = list(unbound_answers(topics))
    if not items:
        return []
    claims = [f"{nugget.question.strip()} {answer.text.strip()}" for _, nugget, answer in items]
    hits_per_item = index.search(claims, k=max(depth * 4, depth))  # several passages of a document may rank high
    proposals: list[list[Proposal]] = []
    questions: list[Question] = []
    where: list[tuple[int, int]] = []
    for item_index, ((topic, nugget, answer), claim, hits) in enumerate(zip(items, claims, hits_per_item)):
        best = hits[0].score if hits and hits[0].score > 0 else 1.0
        rows: list[Proposal] = []
        seen: set[str] = set()
        for hit in hits:
            if hit.doc_id in seen:
                continue
            seen.add(hit.doc_id)
            rows.append(Proposal(topic.request_id, nugget.nugget_id, nugget.question, answer.text, hit.doc_id, len(rows) + 1,
                                 float(hit.score), None, None, float(hit.score) / best, hit.text))
            if judge is not None:
                key = make_key("attested", topic.request_id, normalize_text(claim), doc_id=hit.doc_id)
                questions.append(Question(key=key, sentence=claim, document=Document(hit.doc_id, hit.text)))
                where.append((item_index, len(rows) - 1))
            if len(rows) == depth:
                break
        proposals.append(rows)
    if judge is not None and questions:
        verdicts = judge.answer_many(questions)
        for (item_index, row_index), verdict in zip(where, verdicts):
            row = proposals[item_index][row_index]
            if verdict is None:
                proposals[item_index][row_index] = _with(row, judge=_judge_name(judge), judge_says=None, confidence=0.0)
                continue
            confidence = verdict.confidence if verdict.confidence is not None else 1.0
            yes_confidence = confidence if verdict.value else 1.0 - confidence
            proposals[item_index][row_index] = _with(row, judge=verdict.judge, judge_says=bool(verdict.value),
                                                     confidence=yes_confidence)
        for rows in proposals:
            rows.sort(key=lambda row: (row.judge_says is not True, row.rank))
    return [row for rows in proposals for row in rows]


def _with(row: Proposal, **changes: Any) -> Proposal:
    from dataclasses import replace

    return replace(row, **changes)


def _judge_name(judge: Any) -> str:
    return str(getattr(judge, "name", "judge"))


def proposal_rows(proposals: Sequence[Proposal], passage_chars: int = 600) -> Iterator[list[Any]]:
    """The sheet's rows (``PROPOSAL_COLUMNS`` order, ``accept`` left blank for the organizer); passages cut
    to ``passage_chars`` characters on a word boundary."""
    for p in proposals:
        passage = p.passage if len(p.passage) <= passage_chars else p.passage[:passage_chars].rsplit(" ", 1)[0] + " ..."
        says = "" if p.judge_says is None else "yes" if p.judge_says else "no"
        yield ["", p.request_id, p.nugget_id, p.question, p.answer, p.doc_id, p.rank, round(p.search_score, 4),
               p.judge or "", says, round(p.confidence, 4), passage]
