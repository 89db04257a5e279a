"""An Auto-ARGUE ``*.judgments.jsonl`` file taken apart: its judgments, its run and its cited documents.

One Auto-ARGUE line holds a judged report, the text of every document it cites and the judgments made on it
(``formats.judgments`` reads the line). Three things can be taken out of such a file, each in a format the
rest of the kit reads and writes:

* **the judgments**, as canonical judgments that keep every answer (``convert_judgments``): relevance and
  attestation as they are, and for each ``SENTENCE_ANSWERS_QUESTION`` judgment every answer its cited
  document attests in the nugget bank, yes when listed in ``matched_nuggets`` and no otherwise, under the
  bank's nugget ids. ``score`` on them (with the run below) gives the same table as on the original file;
  what a canonical file cannot hold (one question answered differently by two reports) is counted and said;
* **the run** (the ``autoargue`` runs format, read-only: ``--kind runs``), to be written as a RAGTIME run,
  the shape Auto-ARGUE embeds, or any run format we write;
* **the cited documents** (``iter_cited_documents``), ``{doc_id, text}`` with the text exactly as Auto-ARGUE
  gave it to its judge, so that another judge can re-judge the same report on the same texts.
"""
from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..model import Document, Judgment, JudgmentKey, Location, Report, TopicNuggets
from ..reading import iter_jsonl
from ._fields import Fields, type_name, warn_lossy
from .base import FormatSpec
from .judgments import AnswerBank, iter_autoargue, parse_autoargue_line, sniff_autoargue

__all__ = [
    "FORMATS",
    "JudgmentConversion",
    "DocumentExtraction",
    "convert_judgments",
    "iter_cited_documents",
    "parse_autoargue_report",
    "read_autoargue_runs",
]

# the Auto-ARGUE judgment type each of our kinds comes from, in the order they are reported
SOURCE_TYPES = {"relevant": "CITED_DOCUMENT_RELEVANCE", "answers": "SENTENCE_ANSWERS_QUESTION",
                "attested": "SENTENCE_ATTESTED"}
_KIND_ORDER = tuple(SOURCE_TYPES)


# --------------------------------------------------------------------------------------------------
# the run
# --------------------------------------------------------------------------------------------------
def read_autoargue_runs(path: Path) -> Iterator[Report]:
    """The judged reports of an Auto-ARGUE judgments file, as a run (what ``score`` scores without ``--run``).

    A report whose ``responses`` are not its judged sentences is read as the judged sentences, without the
    responses' citation scores; how many is said once at the end (a lossy-read warning).
    """
    differ = 0
    for record in iter_autoargue(path, skipped={}):  # only the reports are read: judgment types do not matter
        differ += record.responses_differ
        yield record.report
    if differ:
        warn_lossy(f"{path}: the judged sentences of {differ} report(s) are not the report's responses; the judged "
                   "sentences are read (what Auto-ARGUE scored), without the responses' citation scores")


def parse_autoargue_report(obj: dict[str, Any], f: Fields) -> Report | None:
    """One Auto-ARGUE line as a run line: the record parser of the ``autoargue`` runs format (``validate`` runs it)."""
    try:
        return parse_autoargue_line(obj, f.path, f.line or 0, {}).report
    except InputError as error:
        f.error(error.problem.field, error.problem.message)
        return None


# --------------------------------------------------------------------------------------------------
# the judgments
# --------------------------------------------------------------------------------------------------
@dataclass
class JudgmentConversion:
    """Canonical judgments converted from one Auto-ARGUE file, with what was read, written and not kept.

    The counts are per question kind (``relevant``, ``answers``, ``attested``) unless said otherwise.
    """

    path: str
    judgments: list[Judgment] = field(default_factory=list)
    """One per question, in the order each question first appears in the file."""
    reports: int = 0
    read: Counter[str] = field(default_factory=Counter)
    """Auto-ARGUE judgment type id -> judgments read (the three we use)."""
    matched: int = 0
    """(question, answer) pairs the ``SENTENCE_ANSWERS_QUESTION`` judgments list as matched."""
    skipped: dict[str, int] = field(default_factory=dict)
    """Judgment types we do not use -> judgments left out."""
    origins: Counter[str] = field(default_factory=Counter)
    """``AnswerOrigin`` -> answer judgments derived from the answer sets (before repeated ones are merged)."""
    repeated: Counter[str] = field(default_factory=Counter)
    """The same question answered again the same way (written once)."""
    replaced: Counter[str] = field(default_factory=Counter)
    """Answered again differently in the same report: the later answer is written, which is the one ``score``
    uses for that report when it reads the original file."""
    conflicts: Counter[str] = field(default_factory=Counter)
    """Answered differently by two reports: a canonical judgment is keyed by its question, not by the report,
    so the later report's answer is written and the earlier one is lost."""
    first_conflict: tuple[Location, Location] | None = None
    topics_not_in_bank: dict[str, None] = field(default_factory=dict)
    """Topics of reports the nugget bank has no nuggets for (in order of first report)."""

    @property
    def written(self) -> Counter[tuple[str, bool]]:
        """(kind, value) -> judgments written."""
        return Counter((j.kind, j.value) for j in self.judgments)

    def summary(self) -> list[str]:
        """What was read and what was written, per kind (the lines ``convert`` prints on stderr)."""
        answers = f" ({self.matched} matched answer(s))" if self.read["SENTENCE_ANSWERS_QUESTION"] else ""
        read = ", ".join(f"{SOURCE_TYPES[kind]} {self.read[SOURCE_TYPES[kind]]}" + (answers if kind == "answers" else "")
                         for kind in _KIND_ORDER)
        written = self.written
        wrote = ", ".join(f"{kind} {written[(kind, True)] + written[(kind, False)]} (yes {written[(kind, True)]}, "
                          f"no {written[(kind, False)]})" for kind in _KIND_ORDER)
        lines = [f"{self.path}: {self.reports} report(s); read {read}", f"wrote {wrote}"]
        if self.repeated:
            lines.append(f"{sum(self.repeated.values())} question(s) answered again the same way were written once "
                         f"({_per_kind(self.repeated)})")
        if self.origins["unbound"]:
            lines.append(f"{self.origins['unbound']} matched answer(s) that the nugget bank does not bind to the cited "
                         "document are kept as yes (`score` does not ask them under --nugget-scope cited)")
        return lines

    def losses(self) -> list[str]:
        """What the canonical file does not hold as the original did, or may be wrong about (warnings)."""
        out: list[str] = []
        if self.skipped:
            items = ", ".join(f"{name} {count}" for name, count in sorted(self.skipped.items()))
            out.append(f"{self.path}: left out {sum(self.skipped.values())} judgment(s) of types we do not use: {items}")
        if self.conflicts:
            assert self.first_conflict is not None
            earlier, later = self.first_conflict
            out.append(
                f"{self.path}: {sum(self.conflicts.values())} question(s) answered differently by two reports "
                f"({_per_kind(self.conflicts)}; the first at line {earlier.line} and line {later.line}): a canonical "
                "judgment is keyed by its question, not by report, so the later report's answer is written and the "
                "earlier report's is dropped; `score` of the earlier report on the converted file can differ")
        if self.replaced:
            out.append(
                f"{self.path}: {sum(self.replaced.values())} question(s) answered differently twice in one report "
                f"({_per_kind(self.replaced)}): the later answer is written, the one `score` uses for that report; "
                "the earlier answer is dropped")
        if self.topics_not_in_bank:
            topics = list(self.topics_not_in_bank)
            shown = ", ".join(topics[:5]) + (", ..." if len(topics) > 5 else "")
            out.append(f"{self.path}: {len(topics)} topic(s) judged here have no nuggets in the nugget bank ({shown}): "
                       "their answer judgments could name no answer of it")
        if self.origins["unknown-question"]:
            out.append(
                f"{self.path}: {self.origins['unknown-question']} matched answer(s) name a question the nugget bank "
                "does not have: kept as yes under the question's text as nugget id; is --nuggets the bank these "
                "judgments were made with?")
        if self.origins["unknown-answer"]:
            out.append(f"{self.path}: {self.origins['unknown-answer']} matched answer(s) are not answers of their "
                       "question in the nugget bank: kept as yes under their own text")
        return out


def _per_kind(counts: Counter[str]) -> str:
    return ", ".join(f"{kind} {counts[kind]}" for kind in _KIND_ORDER if counts[kind])


def convert_judgments(path: str | Path, nuggets: Iterable[TopicNuggets]) -> JudgmentConversion:
    """Every judgment of an Auto-ARGUE file as canonical judgments, with the bank's ids (see the module doc).

    A canonical judgment is keyed by its question, so one question answered twice becomes one judgment:
    within one report the later answer (as ``score`` reads the original), across reports the later report's
    (a conflict, counted). The file is read whole before anything is returned, so a broken line raises its
    located ``InputError`` before any output is written.
    """
    bank = AnswerBank(nuggets)
    result = JudgmentConversion(str(path))
    # key -> (judgment, index of the report that answered it)
    chosen: dict[JudgmentKey, tuple[Judgment, int]] = {}
    for index, record in enumerate(iter_autoargue(Path(path), result.skipped)):
        result.reports += 1
        if record.report.request_id not in bank.topics:
            result.topics_not_in_bank.setdefault(record.report.request_id)
        mine: dict[JudgmentKey, Judgment] = {}
        derived: list[Judgment] = []
        for judgment in record.judgments:
            if judgment.kind == "answers":
                continue  # listed by the answer sets below, with the "no" answers the bank gives
            result.read[SOURCE_TYPES[judgment.kind]] += 1
            derived.append(judgment)
        for answer_set in record.answer_sets:
            result.read[SOURCE_TYPES["answers"]] += 1
            result.matched += len(answer_set.matched)
            for judgment, origin in bank.answers(answer_set):
                result.origins[origin] += 1
                derived.append(judgment)
        for judgment in derived:
            key = judgment.key
            before = mine.get(key)
            if before is not None:
                (result.repeated if before.value == judgment.value else result.replaced)[judgment.kind] += 1
            mine[key] = judgment
        for key, judgment in mine.items():
            earlier = chosen.get(key)
            if earlier is not None:
                if earlier[0].value == judgment.value:
                    result.repeated[judgment.kind] += 1
                else:
                    result.conflicts[judgment.kind] += 1
                    if result.first_conflict is None and earlier[0].source and judgment.source:
                        result.first_conflict = (earlier[0].source, judgment.source)
            chosen[key] = (judgment, index)
    result.judgments = [judgment for judgment, _index in chosen.values()]
    return result


# --------------------------------------------------------------------------------------------------
# the cited documents
# --------------------------------------------------------------------------------------------------
@dataclass
class DocumentExtraction:
    """What ``iter_cited_documents`` saw, filled in as it goes (complete once the iterator is exhausted)."""

    documents: int = 0
    citations: int = 0
    """Citations that carried a text (each occurrence)."""
    without_text: list[str] = field(default_factory=list)
    """Ids of cited documents no citation gave a text for, in order of first citation (they are not written)."""


def iter_cited_documents(path: str | Path, seen: DocumentExtraction | None = None) -> Iterator[Document]:
    """The documents an Auto-ARGUE file cites, with the text it gave its judge (``citations[].text``), once
    each, in order of first citation.

    The same document cited twice must carry the same text: otherwise the collection could hold only one of
    them, and the error names both places. Only a digest of each text is kept to compare, so memory grows
    with the number of documents, not with their length.
    """
    name = str(path)
    seen = seen if seen is not None else DocumentExtraction()
    texts: dict[str, tuple[bytes, int, str]] = {}  # doc id -> (digest of its text, line, field)
    untexted: dict[str, None] = {}
    for line, obj in iter_jsonl(path):
        parse_autoargue_line(obj, name, line, {})  # the same located errors as every other reading
        for s_index, segment in enumerate(obj["judgments"]):
            for c_index, citation in enumerate(segment.get("citations") or ()):
                # a citation is a document id or {doc_id, text}; the line parser checked the ids are strings
                doc_id: str = citation["doc_id"] if type(citation) is dict else citation
                text = citation.get("text") if type(citation) is dict else None
                where = f"judgments[{s_index}].citations[{c_index}].text"
                if text is None:
                    if doc_id not in texts:
                        untexted.setdefault(doc_id)
                    continue
                if type(text) is not str:
                    raise InputError(name, line, where, f"expected the cited document's text, found {type_name(text)}")
                seen.citations += 1
                digest = hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()
                first = texts.get(doc_id)
                if first is None:
                    texts[doc_id] = (digest, line, where)
                    untexted.pop(doc_id, None)
                    seen.documents += 1
                    yield Document(doc_id, text)
                elif first[0] != digest:
                    raise InputError(name, line, where, f"document {doc_id!r} is cited with another text than on line "
                                     f"{first[1]} ({first[2]}); a collection holds one text per document")
    seen.without_text = list(untexted)


FORMATS: list[FormatSpec] = [
    FormatSpec(
        "autoargue", "runs",
        "the judged reports inside an Auto-ARGUE *.judgments.jsonl, read as a run (--kind runs)",
        sniff_autoargue, read_autoargue_runs, None, priority=1, aliases=("auto-argue",),
        request_id_field="report.metadata.topic_id", run_id_field="report.metadata.run_id", sentences_field="judgments",
        parse=parse_autoargue_report,
    ),
]
