"""Judgments from files (human assessors, Auto-ARGUE, an earlier judge run), answering flowchart questions.

Precedence: files are loaded in the order given and a later file overrides an earlier one for the same
judgment (``Judgment.key``) -- the usual use is human judgments over automatic ones. Inside one canonical
file, the same key judged twice with different values by the same judge is a contradiction and an error
that names both lines; by different judges, the later line wins (counted in ``FileSummary.disagreements``).

Auto-ARGUE files are judged report by report, and an LLM judge may answer the same question differently
in two reports. So each Auto-ARGUE judgment is also kept *by position* (run, topic, sentence index, after
checking that the sentence text is the same): when the report it was made on is scored, that positional
judgment is used, so the report is scored with exactly the judgments Auto-ARGUE made on it even when
several runs' files are loaded together; other reports use the identity table,
where a later Auto-ARGUE line overrides an earlier one (counted as a disagreement, not an error).
A positional judgment still loses to an identity judgment from a *later* file (e.g. human corrections).

``SENTENCE_ANSWERS_QUESTION`` records only the matched answers; an answer the cited document attests but
the judge did not match is answered "no" from the ``AnswerSet``, without enumerating it up front.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..errors import contradiction
from ..gc_tuning import paused_gc
from ..model import (
    AutoArgueReport,
    Judgment,
    JudgmentKey,
    JudgmentRow,
    Location,
    Report,
    TopicNuggets,
    normalize_text,
)
from .base import Question, Verdict, answer_all, make_key

__all__ = ["ImportedJudgments", "FileSummary"]


# entry: (value, judge, file index, line)
_Entry = tuple[bool, str, int, "int | None"]


@dataclass(slots=True)
class FileSummary:
    """What one judgments file contributed, for the notes ``score`` prints."""

    path: str
    format: str
    judgments: int = 0
    topics: set[str] = field(default_factory=set)
    overridden: int = 0
    """Judgments of earlier files this file replaced."""
    disagreements: int = 0
    """Keys judged differently inside this file by different judges (Auto-ARGUE: by different reports)."""
    reports: int = 0
    """Auto-ARGUE files: reports (lines) read."""
    notes: list[str] = field(default_factory=list)
    """What the reader of this source has to say about it (a workbench database: its unresolved items)."""


class ImportedJudgments:
    """A ``JudgmentSource`` over judgment files: answers what the files say, ``None`` for what they lack."""

    name = "imported"

    def __init__(self, nuggets: Iterable[TopicNuggets] | None = None):
        self._table: dict[JudgmentKey, _Entry] = {}
        self._answer_sets: dict[tuple[str, str, str], tuple[frozenset[tuple[str, str]], str, int, int | None]] = {}
        self._answer_docs: dict[tuple[str, str], set[str]] = {}
        self._positional: dict[tuple[str, str, int], tuple[str, int, dict[tuple[str, str], tuple[object, str]], int | None]] = {}
        self._strings: dict[str, str] = {}
        self._paths: list[str] = []
        self.files: list[FileSummary] = []
        self.embedded_reports: list[Report] = []
        self._question_text: dict[tuple[str, str], str] = {}
        self._bound_docs: dict[tuple[str, str, str], frozenset[str]] = {}
        if nuggets is not None:
            self.set_nuggets(nuggets)

    # -- loading ---------------------------------------------------------------------------------------
    def set_nuggets(self, nuggets: Iterable[TopicNuggets]) -> None:
        """Learn nugget ids -> question texts and answer bindings (needed to read Auto-ARGUE answer sets)."""
        for topic in nuggets:
            for nugget in topic.nuggets:
                question = normalize_text(nugget.question)
                self._question_text[(topic.request_id, nugget.nugget_id)] = question
                for answer in nugget.answers:
                    key = (topic.request_id, nugget.nugget_id, normalize_text(answer.text))
                    self._bound_docs[key] = self._bound_docs.get(key, frozenset()) | frozenset(answer.doc_ids)

    def add_judgments(self, judgments: Iterable[Judgment], label: str = "<judgments>",
                      format: str = "records") -> FileSummary:
        """Load judgment records (the Python API, a judge's output), as if they were one more file."""
        index, summary = self._new_source(label, format)
        with paused_gc():
            self._add_judgments(judgments, index, summary)
        return summary

    def add_rows(self, rows: Iterable[JudgmentRow], label: str, format: str = "argue") -> FileSummary:
        """Load canonical judgments given as ``JudgmentRow`` tuples (the fast reader of canonical files)."""
        index, summary = self._new_source(label, format)
        with paused_gc():
            self._add_rows(rows, index, summary)
        return summary

    def add_autoargue(self, records: Iterable[AutoArgueReport], label: str, keep_reports: bool = False) -> FileSummary:
        """Load Auto-ARGUE report records (one per judged report), keeping their positional judgments."""
        index, summary = self._new_source(label, "autoargue")
        with paused_gc():
            self._add_autoargue(records, index, summary, keep_reports)
        return summary

    def _new_source(self, label: str, format: str) -> tuple[int, FileSummary]:
        index = len(self._paths)
        self._paths.append(label)
        summary = FileSummary(label, format)
        self.files.append(summary)
        return index, summary

    def _intern(self, text: str) -> str:
        return self._strings.setdefault(text, text)

    def _add_judgments(self, judgments: Iterable[Judgment], index: int, summary: FileSummary) -> None:
        self._add_rows(
            ((j.kind, j.request_id, j.sentence, j.doc_id, j.nugget_id, j.answer, j.run_id, j.sentence_index,
              j.value, j.judge, j.source.line if j.source is not None else None) for j in judgments),
            index, summary,
        )

    def _add_rows(self, rows: Iterable[JudgmentRow], index: int, summary: FileSummary) -> None:
        """Store judgments given as ``JudgmentRow`` tuples under their ``JudgmentKey`` (see ``Judgment.key``)."""
        table = self._table
        strings = self._strings
        normalized_cache: dict[str, str] = {}
        # this file's entries that a later line by another judge replaced in ``table``, by (key, judge): a
        # contradiction is "same key, same judge", also when another judge's line stands between the two
        replaced: dict[tuple[JudgmentKey, str], _Entry] = {}
        topics = summary.topics
        count = 0
        for kind, request_id, sentence, doc_id, nugget_id, answer, run_id, sentence_index, value, judge, line in rows:
            normalized = normalized_cache.get(sentence)
            if normalized is None:
                fresh = normalize_text(sentence)
                normalized = strings.setdefault(fresh, fresh)
                normalized_cache[sentence] = normalized
            request_id = strings.setdefault(request_id, request_id)
            key = make_key(kind, request_id, normalized, doc_id, nugget_id, answer, run_id, sentence_index)
            judge = strings.setdefault(judge, judge)
            count += 1
            topics.add(request_id)
            previous = table.get(key)
            if previous is not None:
                if previous[2] != index:
                    summary.overridden += 1
                else:
                    earlier = previous if previous[1] == judge else replaced.get((key, judge))
                    if earlier is not None and earlier[0] != value:
                        raise contradiction(self._paths[index], line, earlier[3], key, earlier[0], value, judge)
                    if previous[1] != judge:
                        replaced[(key, previous[1])] = previous
                        if previous[0] != value:
                            summary.disagreements += 1
            table[key] = (value, judge, index, line)
        summary.judgments += count

    def _add_autoargue(self, records: Iterable[AutoArgueReport], index: int, summary: FileSummary,
                       keep_reports: bool) -> None:
        table = self._table
        intern = self._intern
        for record in records:
            summary.reports += 1
            report = record.report
            summary.topics.add(report.request_id)
            if keep_reports:
                self.embedded_reports.append(report)
            line = report.source.line if report.source is not None else None
            # positional view, per normalized sentence text: (kind, doc) -> (value or matched set, judge)
            by_text: dict[str, dict[tuple[str, str], tuple[object, str]]] = {}
            for judgment in record.judgments:
                if judgment.kind == "answers":
                    continue  # carried by the answer sets below
                summary.judgments += 1
                raw = judgment.key  # relevant or attested: keyed by request, sentence and document
                key = raw._replace(request_id=intern(raw.request_id), sentence=intern(raw.sentence))
                judge = intern(judgment.judge)
                previous = table.get(key)
                if previous is not None:
                    if previous[2] != index:
                        summary.overridden += 1
                    elif previous[0] != judgment.value:
                        summary.disagreements += 1
                table[key] = (judgment.value, judge, index, line)
                by_text.setdefault(key.sentence, {})[(key.kind, key.doc_id or "")] = (judgment.value, judge)
            for answer_set in record.answer_sets:
                summary.judgments += 1
                sentence = intern(normalize_text(answer_set.sentence))
                akey = (intern(answer_set.request_id), sentence, answer_set.doc_id)
                judge = intern(answer_set.judge)
                previous_set = self._answer_sets.get(akey)
                if previous_set is not None:
                    if previous_set[2] != index:
                        summary.overridden += 1
                    elif previous_set[0] != answer_set.matched:
                        summary.disagreements += 1
                self._answer_sets[akey] = (answer_set.matched, judge, index, line)
                self._answer_docs.setdefault((akey[0], sentence), set()).add(answer_set.doc_id)
                by_text.setdefault(sentence, {})[("answers", answer_set.doc_id)] = (answer_set.matched, judge)
            for s_index, report_sentence in enumerate(report.sentences):
                normalized = intern(normalize_text(report_sentence.text))
                facts = by_text.get(normalized)
                if facts:
                    self._positional[(report.run_id, report.request_id, s_index)] = (normalized, index, facts, line)

    # -- answering -------------------------------------------------------------------------------------
    def answer(self, question: Question) -> Verdict | None:
        return self.lookup(question.key)

    def answer_many(self, questions: Sequence[Question]) -> list[Verdict | None]:
        return answer_all(self, questions)

    def plain_table(self) -> dict[JudgmentKey, _Entry] | None:
        """The identity table, when it alone answers every question (no Auto-ARGUE answer sets or positions)."""
        if self._answer_sets or self._positional:
            return None
        return self._table

    def lookup(self, key: JudgmentKey, position: tuple[str, int] | None = None) -> Verdict | None:
        """The verdict for ``key``; ``position`` = (run id, sentence index) of the asking report, if any.

        Candidates are the identity-table entry, an Auto-ARGUE answer set (``answers`` only) and the
        positional Auto-ARGUE judgment of the same report; the one from the latest file wins, and inside
        one Auto-ARGUE file the positional one wins.
        """
        best: tuple[int, int, Verdict] | None = None  # (file index, tie rank, verdict)
        entry = self._table.get(key)
        if entry is not None:
            best = (entry[2], 0, Verdict(entry[0], entry[1], source=Location(self._paths[entry[2]], entry[3])))
        if key.kind == "answers":
            derived = self._from_answer_sets(key)
            if derived is not None and (best is None or derived[0] > best[0]):
                best = (derived[0], 0, derived[1])
        if position is not None and self._positional:
            positional = self._from_position(key, position)
            if positional is not None and (best is None or positional[0] >= best[0]):
                best = (positional[0], 1, positional[1])
        return best[2] if best is not None else None

    def _question(self, key: JudgmentKey) -> str:
        assert key.nugget_id is not None
        return self._question_text.get((key.request_id, key.nugget_id)) or normalize_text(key.nugget_id)

    def _answer_value(self, key: JudgmentKey, matched: frozenset[tuple[str, str]], doc_id: str) -> bool | None:
        """Whether an answer set (for ``doc_id``) says yes/no to ``key``, or ``None`` if it was not shown."""
        pair = (self._question(key), key.answer or "")
        if pair in matched:
            return True
        if not self._bound_docs:
            return False  # no bank to tell what was shown: unmatched means no
        bound = self._bound_docs.get((key.request_id, key.nugget_id or "", key.answer or ""), frozenset())
        if not bound:
            # attested by no document: only a judge shown every answer of the topic (Auto-ARGUE without
            # bindings, e.g. RAGTIME banks) could have matched it, so not matching it is a no
            return False
        return False if doc_id in bound else None

    def _from_answer_sets(self, key: JudgmentKey) -> tuple[int, Verdict] | None:
        if key.doc_id is not None:
            found = self._answer_sets.get((key.request_id, key.sentence, key.doc_id))
            if found is None:
                return None
            matched, judge, index, line = found
            value = self._answer_value(key, matched, key.doc_id)
            if value is None:
                return None
            return index, Verdict(value, judge, source=Location(self._paths[index], line))
        # scope "all": yes if any cited document's answer set matched it, no if some set was shown it
        docs = self._answer_docs.get((key.request_id, key.sentence))
        if not docs:
            return None
        result: tuple[int, Verdict] | None = None
        for doc_id in sorted(docs):
            matched, judge, index, line = self._answer_sets[(key.request_id, key.sentence, doc_id)]
            value = self._answer_value(key, matched, doc_id)
            if value is None:
                continue
            verdict = Verdict(value, judge, source=Location(self._paths[index], line))
            if value:
                return index, verdict
            result = result or (index, verdict)
        return result

    def _from_position(self, key: JudgmentKey, position: tuple[str, int]) -> tuple[int, Verdict] | None:
        found = self._positional.get((position[0], key.request_id, position[1]))
        if found is None:
            return None
        sentence, index, facts, line = found
        if sentence != key.sentence:
            return None
        fact = facts.get((key.kind, key.doc_id or ""))
        if fact is None:
            return None
        value, judge = fact
        source = Location(self._paths[index], line)
        if key.kind == "answers":
            answered = self._answer_value(key, value, key.doc_id or "")  # type: ignore[arg-type]
            return None if answered is None else (index, Verdict(answered, judge, source=source))
        return index, Verdict(bool(value), judge, source=source)

    # -- reporting -------------------------------------------------------------------------------------
    def topics(self) -> set[str]:
        """Every request id any loaded file judged."""
        out: set[str] = set()
        for summary in self.files:
            out |= summary.topics
        return out

    def __len__(self) -> int:
        return len(self._table) + len(self._answer_sets)
