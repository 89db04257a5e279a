"""The canonical model every reader produces and every other module consumes.

Readers (``argue_eval.formats``) normalize each track's file shapes into these records; nothing outside
``formats`` knows a file format. Ids are always ``str``: topic ids such as ``2024-105741`` or segment ids
such as ``msmarco_v2.1_doc_11_1042#3_2265`` must survive untouched, so no reader may coerce them to numbers.

Records are plain slotted dataclasses (cheap to build in the millions while streaming a run) with an
``extra`` dict that keeps fields a format has but we do not model, so that read -> write -> read round trips
lose nothing that the target format can express.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal, NamedTuple

from .errors import type_name

Importance = Literal["vital", "okay"]
Aggregator = Literal["OR", "AND"]
LengthUnit = Literal["chars", "words"]

IMPORTANCE_LEVELS: tuple[str, ...] = ("vital", "okay")
AGGREGATORS: tuple[str, ...] = ("OR", "AND")
LENGTH_UNITS: tuple[str, ...] = ("chars", "words")


@dataclass(frozen=True, slots=True)
class Location:
    """Where a record came from, so later errors (validation, scoring) can point at ``FILE:LINE``."""

    path: str
    line: int | None = None

    def __str__(self) -> str:
        return self.path if self.line is None else f"{self.path}:{self.line}"


@dataclass(slots=True)
class Request:
    """A report request (topic): who asks, what they need, and how long the report may be."""

    request_id: str
    title: str = ""
    background: str = ""
    problem_statement: str = ""
    limit: int | None = None
    limit_unit: LengthUnit = "chars"
    collection_ids: tuple[str, ...] = ()
    aspects: tuple[str, ...] = ()
    """Subtopics the report should cover (ICAT needs them); organizer-only, stripped for participants."""
    language: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    source: Location | None = field(default=None, compare=False)


@dataclass(slots=True)
class Answer:
    """One acceptable answer to a nugget question and the documents that attest it."""

    text: str
    doc_ids: tuple[str, ...] = ()
    extra: dict[str, Any] | None = None
    """Other fields of the answer object in its source format, kept for round trips (``None`` when none)."""


@dataclass(slots=True)
class Nugget:
    """A question a good report answers, with its acceptable answers.

    ``negative`` nuggets record an absence ("the collection does not say how many fell ill"); they are the
    only nuggets that may have answers with no attesting documents. ``importance`` is ``None`` when the
    source format does not label it (weighted measures then weigh every nugget 1).
    """

    nugget_id: str
    request_id: str
    question: str
    answers: list[Answer] = field(default_factory=list)
    importance: Importance | None = None
    aggregator: Aggregator = "OR"
    negative: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def bound(self) -> bool:
        """True when at least one answer is attested by a document (the nugget can be found via a citation)."""
        return any(answer.doc_ids for answer in self.answers)


@dataclass(slots=True)
class TopicNuggets:
    """All nuggets of one request, the unit nugget readers stream (one line of our canonical file).

    ``extra`` holds topic-level fields some formats carry (query text, title, test collection).
    """

    request_id: str
    nuggets: list[Nugget] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    source: Location | None = field(default=None, compare=False)


@dataclass(slots=True)
class Sentence:
    """One report sentence and the documents it cites, in citation order (duplicates are kept as given)."""

    text: str
    citations: tuple[str, ...] = ()
    citation_scores: tuple[float, ...] | None = None
    """Parallel to ``citations`` when the run gave scores (RAGTIME dict citations), else ``None``."""
    extra: dict[str, Any] | None = None
    """Other fields of the sentence object, kept for round trips (``None``, not ``{}``, when there are none)."""


@dataclass(slots=True)
class Report:
    """A participant's report for one request: ordered sentences plus the run's reference list, if any."""

    run_id: str
    request_id: str
    sentences: list[Sentence] = field(default_factory=list)
    references: tuple[str, ...] | None = None
    collection_ids: tuple[str, ...] = ()
    metadata: dict[str, Any] = field(default_factory=dict)
    """Other fields of the source line (team_id, type, narrative, ...), kept for round trips."""
    source: Location | None = field(default=None, compare=False)

    @property
    def text(self) -> str:
        """The report as one string, sentences joined by single spaces (for length limits and display)."""
        return " ".join(sentence.text for sentence in self.sentences)

    @property
    def character_count(self) -> int:
        """Sum of sentence lengths in characters, no separators (the ARGUE ``character_count`` measure)."""
        return sum(len(sentence.text) for sentence in self.sentences)


class RankedRow(NamedTuple):
    """One line of a TREC 6-column ranked run: ``qid Q0 docno rank score tag`` (the qid is the topic's request id)."""

    request_id: str
    doc_id: str
    rank: int
    score: float
    run_id: str


class QrelsRow(NamedTuple):
    """One line of TREC qrels: ``qid iteration docno relevance`` (the qid is the topic's request id)."""

    request_id: str
    doc_id: str
    relevance: int
    iteration: str = "0"


class Document(NamedTuple):
    """A collection document as the document store returns it."""

    doc_id: str
    text: str
    title: str = ""


JudgmentKind = Literal[
    "relevant", "answers", "attested", "negative", "nugget_agrees", "requires_citation", "first_instance"
]
JUDGMENT_KINDS: tuple[str, ...] = (
    "relevant",
    "answers",
    "attested",
    "negative",
    "nugget_agrees",
    "requires_citation",
    "first_instance",
)
DOCUMENT_KINDS = frozenset({"relevant", "answers", "attested"})
"""Kinds asked about a (sentence, cited document) pair: ``doc_id`` is set."""
NUGGET_KINDS = frozenset({"answers", "nugget_agrees"})
"""Kinds asked about a nugget answer: ``nugget_id`` and ``answer`` are set."""
CONTEXT_KINDS = frozenset({"requires_citation", "first_instance"})
"""Kinds whose answer depends on the sentence's place in its report: ``run_id`` and ``sentence_index`` are set."""


def normalize_text(text: str) -> str:
    """Unicode NFKC with runs of whitespace collapsed: the form sentences are compared and keyed in."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


_DIGIT_RUNS = re.compile(r"(\d+)")


@lru_cache(maxsize=65536)  # ids repeat (every question of a topic and run sorts by them)
def natural_key(text: str) -> tuple[tuple[tuple[int, int | str], ...], str]:
    """Sort key for ids in natural order: ``t2`` before ``t10``, ``2024-9`` before ``2024-10``.

    Ids are strings (see above), yet people number topics and runs, and a table ordered ``1, 10, 2`` is hard
    to read. Digit runs compare as numbers, other text as text; ids that compare equal that way (``02`` and
    ``2``) are ordered by their text, so the order never depends on the order the ids were met in.
    """
    parts = _DIGIT_RUNS.split(text)  # digit runs at the odd positions
    return tuple((0, int(part)) if k % 2 else (1, part) for k, part in enumerate(parts) if part), text


class JudgmentKey(NamedTuple):
    """The identity of a judgment. It never contains the run id, except for context-dependent kinds."""

    kind: str
    request_id: str
    sentence: str
    doc_id: str | None
    nugget_id: str | None
    answer: str | None
    run_id: str | None
    sentence_index: int | None


def make_key(
    kind: str,
    request_id: str,
    normalized_sentence: str,
    doc_id: str | None = None,
    nugget_id: str | None = None,
    answer: str | None = None,
    run_id: str | None = None,
    sentence_index: int | None = None,
) -> JudgmentKey:
    """The identity of a judgment: the one place its rules live (judgment files, caches, the question list,
    the assessment pool and the scorer all key by it).

    The sentence comes already normalized (``normalize_text``; callers normalize each sentence once, not once
    per question); the answer is normalized here. A field the kind does not depend on is dropped, so the same
    sentence citing the same document in ten runs is one question: the document only for ``relevant``,
    ``answers`` and ``attested``; nugget and answer only for ``answers`` and ``nugget_agrees``; run id and
    sentence index only for the context-dependent ``requires_citation`` and ``first_instance``.
    """
    context = kind in CONTEXT_KINDS
    nugget = kind in NUGGET_KINDS
    return JudgmentKey(
        kind,
        request_id,
        normalized_sentence,
        doc_id if kind in DOCUMENT_KINDS else None,
        nugget_id if nugget else None,
        normalize_text(answer) if nugget and answer is not None else None,
        run_id if context else None,
        sentence_index if context else None,
    )


def verdict_field_error(obj: dict[str, Any]) -> tuple[str, str] | None:
    """The first unusable answer field of a judgment object (``value``, ``judge``, ``confidence``,
    ``rationale``, ``provenance``) as ``(field, message)``, or ``None`` when all are usable.

    One rule for the two places that take a stored answer back: the judgments reader (a user's file: the
    message is the error it raises) and the judge cache (a row that fails is a miss, recomputed), so that
    nothing the cache serves could make the judgments file it writes unreadable.
    """
    value = obj.get("value")
    if type(value) is not bool:
        return "value", f"expected true or false, found {type_name(value)}"
    judge = obj.get("judge")
    if judge is None:
        return "judge", "missing required field 'judge' (expected a string)"
    if type(judge) is not str:
        return "judge", f"expected a string, found {type_name(judge)}"
    if not judge:
        return "judge", "expected a non-empty judge name (e.g. human:assessor3, lexical, llm:<model>)"
    confidence = obj.get("confidence")
    if confidence is not None and type(confidence) not in (int, float):
        return "confidence", f"expected a number or null, found {type_name(confidence)}"
    rationale = obj.get("rationale")
    if rationale is not None and type(rationale) is not str:
        return "rationale", f"expected a string, found {type_name(rationale)}"
    provenance = obj.get("provenance")
    if provenance is not None and type(provenance) is not dict:
        return "provenance", f"expected an object or null, found {type_name(provenance)}"
    return None


@dataclass(slots=True)
class Judgment:
    """One yes/no answer to a flowchart question, with its provenance (our canonical judgment JSONL line)."""

    kind: JudgmentKind
    request_id: str
    sentence: str
    value: bool
    judge: str
    doc_id: str | None = None
    nugget_id: str | None = None
    answer: str | None = None
    run_id: str | None = None
    sentence_index: int | None = None
    confidence: float | None = None
    rationale: str | None = None
    source: Location | None = field(default=None, compare=False)
    provenance: dict[str, Any] | None = field(default=None, compare=False)
    """How an automatic judge was configured (backend, version, model, thresholds); ``None`` for humans."""

    @property
    def key(self) -> JudgmentKey:
        """Identity for caching, deduplication and overriding (later files win for the same key)."""
        return make_key(self.kind, self.request_id, normalize_text(self.sentence), self.doc_id, self.nugget_id,
                        self.answer, self.run_id, self.sentence_index)


ALL_TOPICS = "all"
"""The topic id of a score table's aggregate rows (trec_eval's ``all``): the one spelling of it."""


class ScoreRecord(NamedTuple):
    """One per-topic (or ``all``) value of a score table, with where it came from."""

    run_id: str
    request_id: str
    metric: str
    value: float
    path: str
    line: int


JudgmentRow = tuple[str, str, str, "str | None", "str | None", "str | None", "str | None", "int | None", bool, str,
                    "int | None"]
"""A canonical judgment as a plain tuple (the fast reader's record): (kind, request_id, sentence, doc_id,
nugget_id, answer, run_id, sentence_index, value, judge, line)."""


@dataclass(frozen=True, slots=True)
class AnswerSet:
    """One Auto-ARGUE ``SENTENCE_ANSWERS_QUESTION`` judgment: which (question, answer) pairs a sentence gave
    via one document.

    ``matched`` holds ``(normalized question text, normalized answer text)`` pairs; every other answer the
    document attests was shown to the judge and not matched, i.e. is a "no".
    """

    request_id: str
    sentence: str
    doc_id: str
    matched: frozenset[tuple[str, str]]
    judge: str
    source: Location


@dataclass(slots=True)
class AutoArgueReport:
    """One line of an Auto-ARGUE judgments file: the judged report and what was judged about it."""

    report: Report
    judgments: list[Judgment]
    answer_sets: list[AnswerSet]
    responses_differ: bool = False
    """The judged sentences are not the report's ``responses`` (text and cited ids, position by position): the
    report holds the judged sentences, without the responses' citation scores."""


class Assigned(NamedTuple):
    """One nugget of one answer in a nuggetizer assignment: its text, importance (``vital``/``okay``/``None``)
    and assignment (``support``/``partial_support``/``not_support``, or ``None`` when it could not be graded)."""

    text: str
    importance: str | None
    assignment: str | None
