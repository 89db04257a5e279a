"""Judgment formats: our canonical judgment JSONL (``argue``) and Auto-ARGUE's ``*.judgments.jsonl`` (``autoargue``).

Judgments are the reusable artifact between judging and scoring (docs/architecture.md), so both readers keep where
each judgment came from (``Judgment.source`` = file and line): a contradiction or a bad value must be
reported as ``FILE:LINE`` that a person can open and fix.

Auto-ARGUE writes one line per *report*: the report itself (a RAGTIME run line) and, per sentence, the
cited documents and three judgment types. They map onto our kinds as follows:

* ``CITED_DOCUMENT_RELEVANCE`` (``is_relevant``) -> ``relevant``;
* ``SENTENCE_ATTESTED`` (``is_attested``) -> ``attested``;
* ``SENTENCE_ANSWERS_QUESTION`` (``matched_nuggets``) -> ``answers`` true for each matched (question,
  answer). Auto-ARGUE shows its judge the answers that the cited document attests and records only the
  matches, so the answers it did *not* match are "no" judgments that only the nugget bank can enumerate:
  ``read_autoargue(path, nuggets)`` emits them (false) when given the nuggets (``AnswerBank``), and
  ``iter_autoargue`` exposes the raw ``AnswerSet`` so the imported judge can answer such questions without
  enumerating them.

The judged report is the judged sentences (``judgments[].text`` and their citations), which is what
Auto-ARGUE scored; when they are the report's ``responses``, position by position, the report object is read
as the RAGTIME run line it is, so citation scores and the other fields come along.

``judge`` is ``autoargue:<evaluator>`` (Auto-ARGUE's evaluator string, e.g. ``autoargue:from_env``; the
relevance lookups it marks ``"null"`` become ``autoargue:null``).
"""
from __future__ import annotations

import os
import tempfile
import warnings
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, Literal, cast

import orjson

from ..errors import InputError, Problem, id_control_character
from ..model import (
    CONTEXT_KINDS,
    JUDGMENT_KINDS,
    NUGGET_KINDS,
    AnswerSet,
    AutoArgueReport,
    Judgment,
    JudgmentKind,
    JudgmentRow,
    Location,
    Report,
    Sentence,
    TopicNuggets,
    normalize_text,
    verdict_field_error,
)
from ..reading import iter_jsonl
from ..writing import atomic_writer, write_jsonl
from ._fields import type_name
from .base import FormatSpec, Probe
from .runs import parse_report

__all__ = [
    "FORMATS",
    "AnswerBank",
    "AnswerSet",
    "AutoArgueReport",
    "JudgmentSpool",
    "UnknownJudgmentTypeWarning",
    "JudgmentRow",
    "iter_autoargue",
    "iter_judgment_rows",
    "judgment_to_dict",
    "parse_autoargue_line",
    "parse_judgment",
    "read_argue",
    "read_autoargue",
    "read_autoargue_reports",
    "sniff_autoargue",
    "write_argue",
]


class UnknownJudgmentTypeWarning(UserWarning):
    """An Auto-ARGUE file holds a judgment type we do not map (it is skipped, once reported per file)."""


# --------------------------------------------------------------------------------------------------
# canonical judgments
# --------------------------------------------------------------------------------------------------
DOC_REQUIRED = frozenset({"relevant", "attested"})
"""Kinds whose ``doc_id`` must be set (``answers`` has it too, except under ``--nugget-scope all``)."""


def parse_judgment(obj: dict[str, Any], path: str, line: int | None) -> Judgment:
    """One canonical judgment line -> ``Judgment``; the first schema error raises a located ``InputError``."""

    def fail(field: str, message: str) -> InputError:
        return InputError(path, line, field, message)

    def text(key: str, required: bool) -> str | None:
        value = obj.get(key)
        if value is None:
            if required:
                raise fail(key, f"missing required field {key!r} (expected a string)")
            return None
        if type(value) is not str:
            raise fail(key, f"expected a string, found {type_name(value)}")
        if key in _ID_FIELDS:
            bad = id_control_character(value)
            if bad is not None:  # an id is echoed in notes and written into pools and tables
                raise fail(key, f"id contains the control character {bad}; ids must be printable text")
        return value

    kind = obj.get("kind")
    if kind not in JUDGMENT_KINDS or type(kind) is not str:
        raise fail("kind", f"expected one of {', '.join(JUDGMENT_KINDS)}, found {type_name(kind)}")
    request_id = text("request_id", True)
    if not request_id:
        raise fail("request_id", "expected a non-empty string id")
    sentence = text("sentence", True)
    doc_id = text("doc_id", kind in DOC_REQUIRED)
    nugget_id = text("nugget_id", kind in NUGGET_KINDS)
    answer = text("answer", False)
    run_id = text("run_id", kind in CONTEXT_KINDS)
    index = obj.get("sentence_index")
    if kind in CONTEXT_KINDS:
        if type(index) is not int or index < 0:
            raise fail("sentence_index", f"expected a 0-based sentence index (an integer >= 0), found {type_name(index)}")
    elif index is not None and type(index) is not int:
        raise fail("sentence_index", f"expected an integer or null, found {type_name(index)}")
    wrong = verdict_field_error(obj)
    if wrong is not None:
        raise fail(*wrong)
    confidence = obj.get("confidence")
    return Judgment(
        kind=cast(JudgmentKind, kind),  # one of JUDGMENT_KINDS, checked above
        request_id=request_id,
        sentence=sentence,  # type: ignore[arg-type]
        value=obj["value"],
        judge=obj["judge"],
        doc_id=doc_id,
        nugget_id=nugget_id,
        answer=answer,
        run_id=run_id,
        sentence_index=index,
        confidence=float(confidence) if confidence is not None else None,
        rationale=obj.get("rationale"),
        source=Location(path, line),
        provenance=obj.get("provenance"),
    )


_KINDS = frozenset(JUDGMENT_KINDS)
_ID_FIELDS = frozenset({"request_id", "doc_id", "nugget_id", "run_id"})


def iter_judgment_rows(path: Path) -> Iterator[JudgmentRow]:
    """Canonical judgment lines as ``JudgmentRow`` tuples, without building ``Judgment`` objects (scoring's fast path).

    A line that passes these quick type checks is exactly one ``parse_judgment`` accepts; any other line
    goes through ``parse_judgment``, which raises the located error (or accepts it, and is used).
    """
    name = str(path)
    for line, obj in iter_jsonl(path):
        kind = obj.get("kind")
        request_id = obj.get("request_id")
        sentence = obj.get("sentence")
        doc_id = obj.get("doc_id")
        nugget_id = obj.get("nugget_id")
        answer = obj.get("answer")
        run_id = obj.get("run_id")
        index = obj.get("sentence_index")
        value = obj.get("value")
        judge = obj.get("judge")
        if (
            kind in _KINDS
            and type(request_id) is str and request_id
            and type(sentence) is str
            and type(value) is bool
            and type(judge) is str and judge
            and (type(doc_id) is str if kind in DOC_REQUIRED else (doc_id is None or type(doc_id) is str))
            and (type(nugget_id) is str if kind in NUGGET_KINDS else (nugget_id is None or type(nugget_id) is str))
            and (answer is None or type(answer) is str)
            and ((type(run_id) is str and type(index) is int and index >= 0) if kind in CONTEXT_KINDS
                 else ((run_id is None or type(run_id) is str) and (index is None or type(index) is int)))
            and obj.get("confidence") is None and obj.get("rationale") is None
            and (obj.get("provenance") is None or type(obj.get("provenance")) is dict)
            # printable ids (the common case, checked cheaply); any other line goes to parse_judgment, which
            # refuses a control character and takes other non-printable text (a no-break space)
            and request_id.isprintable() and (doc_id is None or doc_id.isprintable())
            and (nugget_id is None or nugget_id.isprintable()) and (run_id is None or run_id.isprintable())
        ):
            yield (kind, request_id, sentence, doc_id, nugget_id, answer, run_id, index, value, judge, line)
            continue
        j = parse_judgment(obj, name, line)
        yield (j.kind, j.request_id, j.sentence, j.doc_id, j.nugget_id, j.answer, j.run_id, j.sentence_index,
               j.value, j.judge, line)



def read_argue(path: Path) -> Iterator[Judgment]:
    """Stream canonical judgments (one JSON object per line) with their ``FILE:LINE`` source."""
    name = str(path)
    for line, obj in iter_jsonl(path):
        yield parse_judgment(obj, name, line)


def judgment_to_dict(judgment: Judgment) -> dict[str, Any]:
    """The canonical JSON object of a judgment: fixed key order; ``confidence``/``rationale``/``provenance`` only when set."""
    out: dict[str, Any] = {
        "kind": judgment.kind,
        "request_id": judgment.request_id,
        "sentence": judgment.sentence,
        "doc_id": judgment.doc_id,
        "nugget_id": judgment.nugget_id,
        "answer": judgment.answer,
        "run_id": judgment.run_id,
        "sentence_index": judgment.sentence_index,
        "value": judgment.value,
        "judge": judgment.judge,
    }
    if judgment.confidence is not None:
        out["confidence"] = judgment.confidence
    if judgment.rationale is not None:
        out["rationale"] = judgment.rationale
    if judgment.provenance is not None:
        out["provenance"] = judgment.provenance
    return out


def write_argue(judgments: Iterable[Judgment], path: Path) -> int:
    """Atomically write canonical judgment JSONL in the order given; return the number of lines. A
    ``JudgmentSpool``'s lines are copied as they are (the same bytes)."""
    if isinstance(judgments, JudgmentSpool):
        with atomic_writer(path, "wb") as handle:
            judgments.copy_to(handle)
        return len(judgments)
    return write_jsonl(path, map(judgment_to_dict, judgments))


class JudgmentSpool:
    """Judgments kept as their canonical lines in an anonymous temporary file, in the order added, instead of
    as records: what a judge run that only writes its judgments holds (``api.judge`` with ``keep_table=False``),
    so its memory does not grow with the round's judgments. ``extend`` encodes each batch once (the bytes
    ``write_argue`` writes for them); ``write_argue`` copies the lines; iterating reads them back as records
    (``source`` ``None``, as a judge makes them). The file is gone once the spool is closed or collected."""

    _CHUNK = 1 << 20

    def __init__(self) -> None:
        self._file: IO[bytes] | None = None
        self._count = 0

    def extend(self, judgments: Iterable[Judgment]) -> None:
        lines = b"".join([orjson.dumps(judgment_to_dict(judgment)) + b"\n" for judgment in judgments])
        if not lines:
            return
        if self._file is None:
            self._file = tempfile.TemporaryFile()
        self._file.seek(0, os.SEEK_END)
        self._file.write(lines)
        self._count += lines.count(b"\n")  # orjson escapes a newline inside a string: one per line

    def __len__(self) -> int:
        return self._count

    def _chunks(self) -> Iterator[bytes]:
        """The spooled bytes, in order, a chunk at a time (whatever ``extend`` does between two chunks)."""
        if self._file is None:
            return
        position = 0
        while True:
            self._file.seek(position)
            chunk = self._file.read(self._CHUNK)
            if not chunk:
                return
            position += len(chunk)
            yield chunk

    def copy_to(self, handle: IO[bytes]) -> None:
        """Write every spooled line to the binary ``handle``."""
        for chunk in self._chunks():
            handle.write(chunk)

    def __iter__(self) -> Iterator[Judgment]:
        rest = b""
        for chunk in self._chunks():
            lines = (rest + chunk).split(b"\n")
            rest = lines.pop()
            for line in lines:
                obj = orjson.loads(line)
                yield Judgment(**obj)

    def __contains__(self, judgment: object) -> bool:
        return any(judgment == item for item in self)

    def close(self) -> None:
        """Let the temporary file go; the spool is empty afterwards (``len`` 0, nothing to iterate)."""
        if self._file is not None:
            self._file.close()
            self._file = None
        self._count = 0


# --------------------------------------------------------------------------------------------------
# Auto-ARGUE judgments
# --------------------------------------------------------------------------------------------------
_RELEVANCE = "CITED_DOCUMENT_RELEVANCE"
_ANSWERS = "SENTENCE_ANSWERS_QUESTION"
_ATTESTED = "SENTENCE_ATTESTED"


def _object_or_empty(value: Any) -> dict[str, Any]:
    """An optional JSON object of Auto-ARGUE's output: anything else reads as no entries."""
    return value if type(value) is dict else {}


def _judge_name(evaluator: Any) -> str:
    return "autoargue" if evaluator is None else f"autoargue:{evaluator}"


_Fail = Callable[[str, str], InputError]
"""``fail(field, message)``: the located error of the line being parsed."""


def parse_autoargue_line(obj: dict[str, Any], path: str, line: int, unknown_types: dict[str, int]) -> AutoArgueReport:
    """One Auto-ARGUE output line (a judged report) -> the report, its judgments and its answer sets.

    The steps: the report's ids; per judged sentence its text and citations (``_sentence``), then its
    judgments (``_add_judgment``; the nuggets an answer judgment matched come from ``_matched_nuggets``);
    then the report itself (``_judged_report``). Judgment types we do not use are counted in
    ``unknown_types`` (type id -> judgments) and skipped.
    """
    def fail(field: str, message: str) -> InputError:
        return InputError(path, line, field, message)

    report_obj = obj.get("report")
    if type(report_obj) is not dict:
        raise fail("report", f"expected the judged report (a RAGTIME run object), found {type_name(report_obj)}")
    metadata = _object_or_empty(report_obj.get("metadata"))
    request_id, run_id = _report_ids(report_obj, metadata, fail)
    segments = obj.get("judgments")
    if type(segments) is not list:
        raise fail("judgments", f"expected a list of judged sentences, found {type_name(segments)}")
    location = Location(path, line)
    sentences: list[Sentence] = []
    judgments: list[Judgment] = []
    answer_sets: list[AnswerSet] = []
    for s_index, segment in enumerate(segments):
        prefix = f"judgments[{s_index}]"
        sentence = _sentence(segment, prefix, fail)
        sentences.append(sentence)
        items = segment.get("judgments") or []
        if type(items) is not list:
            raise fail(f"{prefix}.judgments", f"expected a list of judgments, found {type_name(items)}")
        for j_index, item in enumerate(items):
            type_id = _add_judgment(item, f"{prefix}.judgments[{j_index}]", request_id, sentence.text, location, fail,
                                    judgments, answer_sets)
            if type_id is not None:
                unknown_types[type_id] = unknown_types.get(type_id, 0) + 1
    report, responses_differ = _judged_report(report_obj, metadata, request_id, run_id, sentences, location)
    return AutoArgueReport(report, judgments, answer_sets, responses_differ)


def _judged_report(report_obj: dict[str, Any], metadata: dict[str, Any], request_id: str, run_id: str,
                   sentences: list[Sentence], location: Location) -> tuple[Report, bool]:
    """The report Auto-ARGUE judged, and whether its ``responses`` differ from the judged sentences.

    When the report object reads as a RAGTIME run line whose responses are the judged sentences (same text,
    same cited ids, in order), that reading is the report: citation scores, collection ids and the other
    fields are kept. Otherwise the judged sentences are the report (they are what Auto-ARGUE scored).
    """
    problems: list[Problem] = []
    parsed = parse_report(report_obj, "ragtime", location.path, location.line, problems)
    if (
        parsed is not None
        and not any(problem.severity == "error" for problem in problems)
        and (parsed.run_id, parsed.request_id) == (run_id, request_id)
        and len(parsed.sentences) == len(sentences)
        and all(a.text == b.text and a.citations == b.citations for a, b in zip(parsed.sentences, sentences))
    ):
        return parsed, False
    references = report_obj.get("references")
    report = Report(
        run_id=run_id,
        request_id=request_id,
        sentences=sentences,
        references=tuple(references) if type(references) is list else None,
        metadata={k: v for k, v in metadata.items() if k not in ("run_id", "topic_id")},
        source=location,
    )
    responses = report_obj.get("responses")
    return report, type(responses) is list and bool(responses)


def _report_ids(report_obj: dict[str, Any], metadata: dict[str, Any], fail: _Fail) -> tuple[str, str]:
    """The judged report's (request id, run id): from its metadata (TREC RAG style) or its top level."""
    request_id = metadata.get("topic_id", metadata.get("request_id", report_obj.get("request_id", report_obj.get("topic_id"))))
    run_id = metadata.get("run_id", report_obj.get("run_id"))
    if type(request_id) is int:
        request_id = str(request_id)
    if type(request_id) is not str or not request_id:
        raise fail("report.metadata.topic_id", f"expected the report's topic id (a string), found {type_name(request_id)}")
    if type(run_id) is not str or not run_id:
        raise fail("report.metadata.run_id", f"expected the report's run id (a string), found {type_name(run_id)}")
    for field, ident in (("report.metadata.topic_id", request_id), ("report.metadata.run_id", run_id)):
        bad = id_control_character(ident)
        if bad is not None:
            raise fail(field, f"id contains the control character {bad}; ids must be printable text")
    return request_id, run_id


def _sentence(segment: Any, prefix: str, fail: _Fail) -> Sentence:
    """A judged sentence's text and cited document ids (a citation is an id or an object with ``doc_id``)."""
    if type(segment) is not dict:
        raise fail(prefix, f"expected a judged sentence object, found {type_name(segment)}")
    text = segment.get("text")
    if type(text) is not str:
        raise fail(f"{prefix}.text", f"expected the sentence text, found {type_name(text)}")
    raw_citations = segment.get("citations") or []
    if type(raw_citations) is not list:
        raise fail(f"{prefix}.citations", f"expected a list of cited documents, found {type_name(raw_citations)}")
    citations: list[str] = []
    for c_index, citation in enumerate(raw_citations):
        doc_id = citation.get("doc_id") if type(citation) is dict else citation
        if type(doc_id) is not str:
            raise fail(f"{prefix}.citations[{c_index}].doc_id", f"expected a document id, found {type_name(doc_id)}")
        bad = id_control_character(doc_id)
        if bad is not None:
            raise fail(f"{prefix}.citations[{c_index}].doc_id", f"id contains the control character {bad}; ids "
                       "must be printable text")
        citations.append(doc_id)
    return Sentence(text, tuple(citations))


def _add_judgment(item: Any, field: str, request_id: str, text: str, location: Location, fail: _Fail,
                  judgments: list[Judgment], answer_sets: list[AnswerSet]) -> str | None:
    """Append what one Auto-ARGUE judgment of sentence ``text`` says; its type id when we do not use that type.

    Relevance and attestation are one yes/no judgment each; an answer judgment is an answer set (the
    nuggets the sentence answers) plus one ``answers`` judgment per matched (question, answer).
    """
    if type(item) is not dict:
        raise fail(field, f"expected a judgment object, found {type_name(item)}")
    type_id = item.get("judgment_type_id")
    response = item.get("response")
    if type(response) is not dict:
        raise fail(f"{field}.response", f"expected an object, found {type_name(response)}")
    provenance = _object_or_empty(item.get("provenance"))
    doc_id = provenance.get("doc_id") or response.get("doc_id")
    judge = _judge_name(item.get("evaluator"))
    if type_id not in (_RELEVANCE, _ANSWERS, _ATTESTED):
        return str(type_id)
    if type(doc_id) is not str:
        raise fail(f"{field}.provenance.doc_id", f"expected the judged document id, found {type_name(doc_id)}")
    bad = id_control_character(doc_id)
    if bad is not None:
        raise fail(f"{field}.provenance.doc_id", f"id contains the control character {bad}; ids must be printable text")
    if type_id == _ANSWERS:
        matched = _matched_nuggets(response, field, fail)
        answer_sets.append(AnswerSet(request_id, text, doc_id, frozenset(matched), judge, location))
        for question, answer in sorted(matched):
            judgments.append(
                Judgment("answers", request_id, text, True, judge, doc_id=doc_id, nugget_id=question,
                         answer=answer, source=location)
            )
        return None
    key: str
    kind: JudgmentKind
    key, kind = ("is_relevant", "relevant") if type_id == _RELEVANCE else ("is_attested", "attested")
    value = response.get(key)
    if type(value) is not bool:
        raise fail(f"{field}.response.{key}", f"expected true or false, found {type_name(value)}")
    judgments.append(Judgment(kind, request_id, text, value, judge, doc_id=doc_id, source=location))
    return None


def _matched_nuggets(response: dict[str, Any], field: str, fail: _Fail) -> set[tuple[str, str]]:
    """The normalized (question, answer) pairs an answer judgment's ``matched_nuggets`` lists."""
    matched_raw = response.get("matched_nuggets") or []
    if type(matched_raw) is not list:
        raise fail(f"{field}.response.matched_nuggets", f"expected a list, found {type_name(matched_raw)}")
    matched: set[tuple[str, str]] = set()
    for m_index, match in enumerate(matched_raw):
        m_field = f"{field}.response.matched_nuggets[{m_index}]"
        question = match.get("question_text") if type(match) is dict else None
        if type(question) is not str:
            raise fail(f"{m_field}.question_text", f"expected the question text, found {type_name(question)}")
        answers = match.get("matched_answer") or []
        if type(answers) is str:
            answers = [answers]
        if type(answers) is not list or any(type(a) is not str for a in answers):
            raise fail(f"{m_field}.matched_answer", "expected a list of answer texts")
        for answer in answers:
            matched.add((normalize_text(question), normalize_text(answer)))
    return matched


def iter_autoargue(path: Path, skipped: dict[str, int] | None = None) -> Iterator[AutoArgueReport]:
    """Stream an Auto-ARGUE judgments file report by report.

    Judgment types we do not use are skipped: counted into ``skipped`` (type id -> judgments) when the caller
    passes a dict to say what was left out itself, else warned about once at the end.
    """
    name = str(path)
    unknown_types: dict[str, int] = {} if skipped is None else skipped
    for line, obj in iter_jsonl(path):
        yield parse_autoargue_line(obj, name, line, unknown_types)
    if unknown_types and skipped is None:
        warnings.warn(
            f"{name}: skipped Auto-ARGUE judgment types we do not use: {', '.join(sorted(unknown_types))}",
            UnknownJudgmentTypeWarning,
            stacklevel=2,
        )


AnswerOrigin = Literal["shown", "unbound", "unknown-answer", "unknown-question"]
"""How the bank knows an answer judgment it derives from an answer set (``AnswerBank.answers``)."""


class AnswerBank:
    """The nugget bank as Auto-ARGUE's answer judgments need it, to turn one into every answer it stands for.

    A ``SENTENCE_ANSWERS_QUESTION`` judgment was shown the answers its cited document attests and lists the
    matches by question and answer *text*. The bank gives their nugget ids and its own spelling of each
    answer, and it lists the answers that were shown and not matched: those are "no" answers.
    """

    def __init__(self, nuggets: Iterable[TopicNuggets]):
        # (request, doc) -> [(nugget id, normalized question, normalized answer, answer text)]: what was shown
        self._shown: dict[tuple[str, str], list[tuple[str, str, str, str]]] = {}
        # (request, normalized question) -> [(nugget id, {normalized answer: answer text})]: a question may
        # be asked by two nuggets of one topic, and both get the match
        self._questions: dict[tuple[str, str], list[tuple[str, dict[str, str]]]] = {}
        self.topics: set[str] = set()
        """The request ids the bank has nuggets for."""
        for topic in nuggets:
            self.topics.add(topic.request_id)
            for nugget in topic.nuggets:
                question = normalize_text(nugget.question)
                spelling: dict[str, str] = {}
                listed: set[tuple[str, str]] = set()
                for answer in nugget.answers:
                    normalized = normalize_text(answer.text)
                    text = spelling.setdefault(normalized, answer.text)
                    for doc_id in answer.doc_ids:
                        if (doc_id, normalized) not in listed:  # an answer listed twice is shown once
                            listed.add((doc_id, normalized))
                            self._shown.setdefault((topic.request_id, doc_id), []).append(
                                (nugget.nugget_id, question, normalized, text))
                self._questions.setdefault((topic.request_id, question), []).append((nugget.nugget_id, spelling))

    def answers(self, answer_set: AnswerSet) -> Iterator[tuple[Judgment, AnswerOrigin]]:
        """Every ``answers`` judgment ``answer_set`` stands for, with where the bank has it (``AnswerOrigin``).

        ``shown``: an answer the cited document attests in the bank, yes if matched, else no. A match the
        bank does not bind to the document is kept as a yes: ``unbound`` (the bank has the answer),
        ``unknown-answer`` (the question but not that answer; the answer keeps its text) or
        ``unknown-question`` (neither: the nugget id is the normalized question text).
        """
        request_id, sentence, doc_id = answer_set.request_id, answer_set.sentence, answer_set.doc_id
        judge, source, matched = answer_set.judge, answer_set.source, answer_set.matched

        def judgment(nugget_id: str, answer: str, value: bool) -> Judgment:
            return Judgment("answers", request_id, sentence, value, judge, doc_id=doc_id, nugget_id=nugget_id,
                            answer=answer, source=source)

        shown: set[tuple[str, str]] = set()
        for nugget_id, question, normalized, text in self._shown.get((request_id, doc_id), ()):
            shown.add((question, normalized))
            yield judgment(nugget_id, text, (question, normalized) in matched), "shown"
        for question, answer in sorted(matched - shown):
            entries = self._questions.get((request_id, question))
            if not entries:
                yield judgment(question, answer, True), "unknown-question"
                continue
            for nugget_id, spelling in entries:
                known = spelling.get(answer)
                yield judgment(nugget_id, known or answer, True), ("unbound" if known is not None else "unknown-answer")


def read_autoargue(path: Path, nuggets: Iterable[TopicNuggets] | None = None) -> Iterator[Judgment]:
    """Auto-ARGUE judgments as canonical ``Judgment`` records, in file order.

    Without ``nuggets`` the ``answers`` judgments are the matches only, keyed by question text. With the
    nugget bank (``AnswerBank``), question texts become nugget ids, matched answer texts take the bank's
    spelling, and every answer that the cited document attests but the judge did not match is emitted as a
    "no" judgment.
    """
    bank = AnswerBank(nuggets) if nuggets is not None else None
    for record in iter_autoargue(path):
        if bank is None:
            yield from record.judgments
            continue
        for judgment in record.judgments:
            if judgment.kind != "answers":
                yield judgment
        for answer_set in record.answer_sets:
            for judgment, _origin in bank.answers(answer_set):
                yield judgment


def read_autoargue_reports(path: Path) -> Iterator[Report]:
    """The reports embedded in an Auto-ARGUE judgments file (so it can be scored without the run file)."""
    for record in iter_autoargue(path):
        yield record.report


# --------------------------------------------------------------------------------------------------
# detection
# --------------------------------------------------------------------------------------------------
def _sniff_argue(probe: Probe) -> bool:
    # a judgment kind and a request id are enough to know the file; a missing value or judge is then reported
    # by the reader as a located field error rather than as an unrecognized file
    obj = probe.first_object or {}
    return obj.get("kind") in JUDGMENT_KINDS and "request_id" in obj


def sniff_autoargue(probe: Probe) -> bool:
    obj = probe.first_object or {}
    return type(obj.get("report")) is dict and type(obj.get("judgments")) is list


FORMATS: list[FormatSpec] = [
    FormatSpec(
        "argue", "judgments",
        "argue-eval canonical judgments, one {kind, request_id, sentence, doc_id, nugget_id, answer, run_id, "
        "sentence_index, value, judge} per line (JSONL)",
        _sniff_argue, read_argue, write_argue, priority=10, aliases=("canonical",),
    ),
    FormatSpec(
        "autoargue", "judgments",
        "Auto-ARGUE *.judgments.jsonl: one {report, judgments: [per sentence: relevance, answers-question, "
        "attested]} per line (read only)",
        sniff_autoargue, read_autoargue, None, priority=20, aliases=("auto-argue",),
    ),
]
