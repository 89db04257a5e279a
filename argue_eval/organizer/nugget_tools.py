"""Nugget-bank tools for organizers: validate, summarize, merge two banks, add answer-document bindings.

All work on canonical ``TopicNuggets`` (any nugget format reads into them; ``formats.write`` writes them
back in ours or Auto-ARGUE's v3). Questions and answers are compared in a normalized form (NFKC,
whitespace collapsed, case folded, trailing punctuation ignored) so that "When did it start?" and
"when did it start" are recognized as one question when merging or flagging duplicates.
"""
from __future__ import annotations

import copy
import csv
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from ..csvsafe import long_cells, unguard
from ..errors import ArgueError, InputError, Problem, Severity, id_control_character
from ..formats.nuggets import source_field, source_line
from ..model import ALL_TOPICS, IMPORTANCE_LEVELS, Answer, Nugget, TopicNuggets, normalize_text
from ..reading import text_lines

# --- reading with every problem collected ---------------------------------------------------------------------


def key_text(text: str) -> str:
    """The form in which questions and answers are compared: normalized, case-folded, end punctuation dropped."""
    return normalize_text(text).casefold().rstrip(" ?.!:;")


def read_topics_collecting(path: str | PathLike[str], format: str | None = None) -> tuple[list[TopicNuggets], list[Problem]]:
    """Read a nugget file collecting every schema problem instead of stopping at the first.

    JSONL formats are parsed line by line with the format's careful parser (report_gen_eval's grading file by
    its reader, which groups lines into topics); a NuggetBank v3 bank file by file, each with the same
    careful parser, so that one broken topic file does not hide the others; LANCER files whole.
    """
    from ..formats import resolve
    from ..formats.collecting import read_collecting
    from ..formats.nuggets import LINE_FORMATS, parse_topic, read_grading

    name = resolve(path, "nuggets", format).name
    problems: list[Problem] = []
    if name == "report-gen-eval-grading":  # lines grouped into topics: its own reader
        return list(read_grading(Path(path), problems)), problems
    if name == "autoargue-v3":
        return _read_v3_collecting(Path(path), problems), problems
    return read_collecting(path, "nuggets", format, parse_topic, LINE_FORMATS)


def _read_v3_collecting(path: Path, problems: list[Problem]) -> list[TopicNuggets]:
    from ..formats.nuggets import parse_topic, v3_files
    from ..reading import read_json

    topics = []
    for file in v3_files(path):
        try:
            obj = read_json(file)
        except InputError as error:
            problems.append(error.problem)
            continue
        if type(obj) is not dict:
            problems.append(Problem(str(file), None, None, "expected one JSON object (a NuggetBank v3 topic), "
                                    f"found {type(obj).__name__}", "error"))
            continue
        topic = parse_topic(obj, "autoargue-v3", str(file), None, problems)
        if topic is not None:
            topics.append(topic)
    return topics


# --- validate -------------------------------------------------------------------------------------------------

NUGGET_CHECKS: dict[str, tuple[Severity, str]] = {
    # errors: the scorer refuses the bank, or would score it wrongly
    "duplicate-topic": ("error", "a topic appears twice (the scorer refuses the bank)"),
    "duplicate-nugget-id": ("error", "a nugget id is repeated within a topic (judgments name nuggets by id; the scorer refuses it)"),
    "empty-question": ("error", "a question without text (nothing for a judge or an assessor to answer)"),
    "empty-answer": ("error", "an answer without text (it would be matched against every sentence)"),
    "unknown-importance": ("error", "an importance other than vital, okay or none (its weight is unknown)"),
    "missing-document": ("error", "a bound document is not in --collection (a wrong id: the document that "
                                  "attests the answer is not recognized as relevant)"),
    # warnings: unusual, but the scorer uses the bank as it is, by a documented rule
    "unbound-question": ("warning", "no answer of a (non-negative) question is bound to a document: the scorer "
                                    "drops it (--unbound-questions drop; 'negative' counts it as a negative nugget)"),
    "unbound-answer": ("warning", "an answer bound to no document, beside bound ones: no citation can find it, and "
                                  "an AND nugget needs only its bound answers (as Auto-ARGUE)"),
    "missing-importance": ("warning", "nuggets without importance in a bank that labels others: weighted like "
                                      "okay (1); a bank with no labels at all is not flagged (weighted = plain)"),
    "duplicate-question": ("warning", "the same question twice in a topic (case and end punctuation ignored)"),
    "duplicate-answer": ("warning", "the same answer twice in a nugget (case and end punctuation ignored)"),
    "statement": ("warning", "a nuggetizer statement: no answers to bind; ARGUE cannot score it, the nuggetizer "
                             "measures can"),
    "unknown-topic": ("warning", "a topic that is not one of --requests: never scored (a run is evaluated on the "
                                 "judged topics within the requests)"),
    "request-without-nuggets": ("warning", "a request of --requests without nuggets: not evaluated"),
}
"""``nuggets validate``'s checks: name -> (severity, what it catches and why it has that severity). Schema
problems (a field missing or of the wrong type) come from the format's parser and are errors; a file that is
not JSON Lines, read with ``--lenient``, is a warning."""


def validate_topics(
    topics: Sequence[TopicNuggets],
    path: str,
    store: Any = None,
    request_ids: Iterable[str] | None = None,
) -> list[Problem]:
    """Problems of a nugget bank, each located at its topic's line and the nugget's position in the file's
    own field names, with the severity of its check in ``NUGGET_CHECKS``.

    An error is what the scorer cannot use or would score wrongly; a warning is unusual but scored by a
    documented rule (an unbound question is dropped, an unbound answer is never found, a missing importance
    weighs like okay). A question with no bound answer is one ``unbound-question`` warning, not one per answer.
    """
    problems: list[Problem] = []
    seen_topics: dict[str, int | None] = {}
    wanted = list(dict.fromkeys(request_ids)) if request_ids is not None else None
    doc_cache: dict[str, bool] = {}
    unlabelled: list[tuple[TopicNuggets, int]] = []  # topics with nuggets lacking an importance, and how many

    def exists(doc_id: str) -> bool:
        if doc_id not in doc_cache:
            doc_cache[doc_id] = doc_id in store
        return doc_cache[doc_id]

    for topic in topics:
        line = topic.source.line if topic.source is not None else None
        where = topic.source.path if topic.source is not None else path

        def report(check: str, field: str | None, message: str, where: str = where,
                   line: int | None = line, topic: TopicNuggets = topic) -> None:
            # located in the file's own field names (items[17].gold_answers[0]), not the model's
            shown = source_field(topic, field) if field is not None else None
            at_line = source_line(topic, field) if field is not None else line
            problems.append(Problem(where, at_line, shown, message, NUGGET_CHECKS[check][0]))

        def named(path: str, topic: TopicNuggets = topic) -> str:
            return source_field(topic, path)

        if topic.request_id in seen_topics:
            report("duplicate-topic", "request_id",
                   f"topic {topic.request_id!r} appears again (first on line {seen_topics[topic.request_id]})")
        seen_topics.setdefault(topic.request_id, line)
        if wanted is not None and topic.request_id not in wanted:
            report("unknown-topic", "request_id", f"topic {topic.request_id!r} is not one of the requests; it is "
                   "never scored")
        ids: dict[str, int] = {}
        questions: dict[str, str] = {}
        missing_importance = 0
        for index, nugget in enumerate(topic.nuggets):
            at = f"nuggets[{index}]"
            label = f"nugget {nugget.nugget_id!r}"
            if nugget.nugget_id in ids:
                report("duplicate-nugget-id", f"{at}.nugget_id",
                       f"{label} repeats the id of {named(f'nuggets[{ids[nugget.nugget_id]}]')}")
            ids.setdefault(nugget.nugget_id, index)
            if not nugget.question.strip():
                report("empty-question", f"{at}.question", f"{label} has an empty question")
            else:
                key = key_text(nugget.question)
                if key in questions:
                    report("duplicate-question", f"{at}.question", f"{label} repeats the question of nugget {questions[key]!r}")
                questions.setdefault(key, nugget.nugget_id)
            if nugget.importance is None:
                missing_importance += 1
            elif nugget.importance not in IMPORTANCE_LEVELS:
                report("unknown-importance", f"{at}.importance",
                       f"{label}: importance {nugget.importance!r} is not vital, okay or null")
            if nugget.extra.get("statement"):
                report("statement", f"{at}", f"{label} is a statement without answers (nuggetizer); it cannot be bound to documents")
                continue
            if not nugget.negative and not nugget.bound:
                what = "has no answers" if not nugget.answers else "has no answer bound to a document"
                report("unbound-question", f"{at}.answers" if not nugget.answers else at,
                       f"{label} {what}: the scorer drops it (--unbound-questions negative counts it as a negative nugget)")
            answers: dict[str, int] = {}
            for a_index, answer in enumerate(nugget.answers):
                a_at = f"{at}.answers[{a_index}]"
                if not answer.text.strip():
                    report("empty-answer", f"{a_at}.answer", f"{label} has an empty answer")
                a_key = key_text(answer.text)
                if a_key in answers:
                    report("duplicate-answer", f"{a_at}.answer", f"{label} repeats answer {answer.text!r} "
                           f"({named(f'{at}.answers[{answers[a_key]}]').removeprefix(at + '.')})")
                answers.setdefault(a_key, a_index)
                if not answer.doc_ids and not nugget.negative and nugget.bound:
                    report("unbound-answer", f"{a_at}.doc_ids", f"{label}, answer {answer.text!r} is bound to no document: "
                           "no citation can find it (the nugget's bound answers count)")
                if store is not None:
                    for doc_id in answer.doc_ids:
                        if not exists(doc_id):
                            report("missing-document", f"{a_at}.doc_ids",
                                   f"{label}, answer {answer.text!r}: document {doc_id!r} is not in the collection")
        if missing_importance:
            unlabelled.append((topic, missing_importance))
    nuggets = sum(len(topic.nuggets) for topic in topics)
    if sum(count for _, count in unlabelled) < nuggets:  # a bank with no importance at all weighs every nugget 1: fine
        for topic, count in unlabelled:
            where = topic.source.path if topic.source is not None else path
            problems.append(Problem(where, topic.source.line if topic.source is not None else None, None,
                                    f"topic {topic.request_id!r}: {count} of {len(topic.nuggets)} nuggets have no "
                                    "importance (weighted like okay, 1)",
                                    NUGGET_CHECKS["missing-importance"][0]))
    if wanted is not None:
        for request_id in wanted:
            if request_id not in seen_topics:
                problems.append(Problem(path, None, None, f"request {request_id!r} has no nuggets; it is not evaluated",
                                        NUGGET_CHECKS["request-without-nuggets"][0]))
    return problems


# --- stats ----------------------------------------------------------------------------------------------------

STATS_COLUMNS = (
    "request_id", "questions", "answers", "bindings", "documents", "vital", "okay", "unlabelled", "negative",
    "unbound", "answers_per_question", "documents_per_answer",
)


def topic_stats(topics: Iterable[TopicNuggets]) -> list[list[Any]]:
    """One row per topic (``STATS_COLUMNS``) plus an ``all`` row.

    ``bindings`` counts answer-document pairs, ``documents`` distinct documents; ``unbound`` counts
    questions with no answer bound to a document (negative ones included); the two ratios are means
    (``bindings / answers`` for documents per answer), rounded to 4 decimals for reading.
    """
    rows: list[list[Any]] = []
    totals = [0] * 9
    all_docs: set[tuple[str, str]] = set()
    for topic in topics:
        docs = {d for n in topic.nuggets for a in n.answers for d in a.doc_ids}
        all_docs.update((topic.request_id, d) for d in docs)
        counts = [
            len(topic.nuggets),
            sum(len(n.answers) for n in topic.nuggets),
            sum(len(a.doc_ids) for n in topic.nuggets for a in n.answers),
            len(docs),
            sum(1 for n in topic.nuggets if n.importance == "vital"),
            sum(1 for n in topic.nuggets if n.importance == "okay"),
            sum(1 for n in topic.nuggets if n.importance is None),
            sum(1 for n in topic.nuggets if n.negative),
            sum(1 for n in topic.nuggets if not n.bound),
        ]
        totals = [a + b for a, b in zip(totals, counts)]
        rows.append([topic.request_id, *counts, *_ratios(counts)])
    totals[3] = len(all_docs)
    rows.append([ALL_TOPICS, *totals, *_ratios(totals)])
    return rows


def _ratios(counts: list[int]) -> list[float]:
    questions, answers, bindings = counts[0], counts[1], counts[2]
    return [round(answers / questions, 4) if questions else 0.0, round(bindings / answers, 4) if answers else 0.0]


# --- merge ----------------------------------------------------------------------------------------------------


@dataclass
class MergeReport:
    topics: list[TopicNuggets]
    conflicts: list[str] = field(default_factory=list)
    """Importance or aggregator disagreements (first bank's value kept)."""
    renamed: list[str] = field(default_factory=list)
    """Nuggets of the second bank whose id was taken in the first for a different question."""


def merge_banks(first: Iterable[TopicNuggets], second: Iterable[TopicNuggets]) -> MergeReport:
    """Union of two banks: nuggets matched by normalized question, answers by normalized text, bindings
    unioned (first bank's order, then new ones). Importance: an unlabelled nugget takes the other's label;
    two different labels are a conflict (reported; the first bank's kept), as is a differing aggregator.
    A negative flag from either bank is kept. Topics and nuggets only in one bank are kept as they are."""
    merged: dict[str, TopicNuggets] = {}
    for topic in first:
        if topic.request_id in merged:
            raise ArgueError(f"topic {topic.request_id!r} appears twice in the first bank")
        merged[topic.request_id] = copy.deepcopy(topic)
    report = MergeReport([])
    seen_second: set[str] = set()
    for topic in second:
        if topic.request_id in seen_second:
            raise ArgueError(f"topic {topic.request_id!r} appears twice in the second bank")
        seen_second.add(topic.request_id)
        target = merged.get(topic.request_id)
        if target is None:
            merged[topic.request_id] = copy.deepcopy(topic)
            continue
        by_question = {key_text(n.question): n for n in target.nuggets}
        ids = {n.nugget_id for n in target.nuggets}
        for nugget in topic.nuggets:
            match = by_question.get(key_text(nugget.question))
            where = f"topic {topic.request_id}, question {nugget.question!r}"
            if match is None:
                new = copy.deepcopy(nugget)
                if new.nugget_id in ids:
                    base, suffix = new.nugget_id, 2
                    while f"{base}-{suffix}" in ids:
                        suffix += 1
                    new.nugget_id = f"{base}-{suffix}"
                    report.renamed.append(f"{where}: id {base!r} is taken in the first bank; renamed {new.nugget_id!r}")
                ids.add(new.nugget_id)
                target.nuggets.append(new)
                by_question[key_text(new.question)] = new
                continue
            if match.importance is None:
                match.importance = nugget.importance
            elif nugget.importance is not None and nugget.importance != match.importance:
                report.conflicts.append(f"{where}: importance {match.importance} vs {nugget.importance} (kept {match.importance})")
            if nugget.aggregator != match.aggregator:
                report.conflicts.append(f"{where}: aggregator {match.aggregator} vs {nugget.aggregator} (kept {match.aggregator})")
            match.negative = match.negative or nugget.negative
            answers = {key_text(a.text): a for a in match.answers}
            for answer in nugget.answers:
                existing = answers.get(key_text(answer.text))
                if existing is None:
                    added = Answer(answer.text, tuple(dict.fromkeys(answer.doc_ids)), copy.deepcopy(answer.extra))
                    match.answers.append(added)
                    answers[key_text(answer.text)] = added
                else:
                    existing.doc_ids = tuple(dict.fromkeys(existing.doc_ids + answer.doc_ids))
    report.topics = list(merged.values())
    return report


# --- bind -----------------------------------------------------------------------------------------------------


@dataclass
class Binding:
    request_id: str
    nugget: str
    """A nugget id or the question text."""
    answer: str
    doc_ids: tuple[str, ...]
    line: int | None


_ACCEPT = frozenset({"yes", "y", "true", "1", "x", "\u2713"})
_REJECT = frozenset({"", "no", "n", "false", "0", "-"})


def read_bindings(path: str | PathLike[str]) -> Iterator[Binding]:
    """Assessor bindings: JSONL ``{request_id, nugget_id | question, answer, doc_id | doc_ids}`` or a CSV/TSV
    with columns ``request_id, nugget_id (or question), answer, doc_id``. A sheet with an ``accept`` column
    (``nuggets bind --propose``) gives only the rows marked yes (y, true, 1, x); no or empty skips a row.
    Cells guarded against spreadsheet formulas (a leading apostrophe) are read back as written."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in (".csv", ".tsv", ".txt"):
        delimiter = "\t" if suffix != ".csv" else ","
        try:
            with long_cells(), closing(text_lines(path)) as lines:  # the proposal sheet's passages are cells
                reader = csv.DictReader(lines, delimiter=delimiter)
                # headers as a spreadsheet may leave them ("Accept", "accept "): matched stripped and case-folded
                reader.fieldnames = [(name or "").strip().casefold() for name in reader.fieldnames or ()]
                names = set(reader.fieldnames)
                missing = [c for c in ("request_id", "answer", "doc_id") if c not in names]
                if missing or not names & {"nugget_id", "question"}:
                    raise InputError(path, 1, None, "expected columns request_id, nugget_id (or question), answer, doc_id")
                reviewed = "accept" in names  # an assessor sheet (`nuggets bind --propose`): only accepted rows
                if not reviewed and {"rank", "search_score", "judge_says"} <= names:
                    # a proposal sheet that lost its accept column would bind every candidate, rejected ones too
                    raise InputError(path, 1, "accept", "this proposal sheet (`nuggets bind --propose`) has no accept "
                                     "column; restore it (yes for the rows to bind) before binding")
                for record in reader:
                    record = {key: unguard(value) if isinstance(value, str) else value for key, value in record.items()}
                    if reviewed:
                        verdict = (record.get("accept") or "").strip().casefold()
                        if verdict not in _ACCEPT | _REJECT:
                            raise InputError(path, reader.line_num, "accept",
                                             f"expected yes or no (or leave it empty to skip the row), found {verdict!r}")
                        if verdict not in _ACCEPT:
                            continue
                    yield _binding(path, reader.line_num, record)  # (a proposal sheet may list no row: none to bind)
        except FileNotFoundError:
            raise InputError(path, None, None, "no such file") from None
        except csv.Error as error:
            raise InputError(path, reader.line_num, None, f"not readable as CSV: {error}") from None
        return
    from ..reading import iter_jsonl

    count = 0
    for lineno, record in iter_jsonl(path):
        count += 1
        yield _binding(path, lineno, record)
    if not count:  # an empty file bound nothing and said nothing: a forgotten export, not a review with no yes
        raise InputError(path, None, None, "no bindings: the file is empty (expected one {request_id, nugget_id, "
                         "answer, doc_id} per line)")


def _binding(path: Path, line: int, record: Mapping[str, Any]) -> Binding:
    def text(name: str, ident: bool = True) -> str:
        value = record.get(name)
        if not isinstance(value, (str, int)) or isinstance(value, bool) or str(value).strip() == "":
            raise InputError(path, line, name, f"expected a non-empty value, found {value!r}")
        bad = id_control_character(str(value)) if ident else None
        if bad is not None:  # an id is written into the bank, pools and tables: never a control character
            raise InputError(path, line, name, f"id contains the control character {bad}; ids must be printable text")
        return str(value).strip()

    request_id = text("request_id")
    nugget = text("nugget_id") if record.get("nugget_id") not in (None, "") else text("question", ident=False)
    answer = text("answer", ident=False)
    if "doc_ids" in record and record.get("doc_id") in (None, ""):
        docs = record["doc_ids"]
        if not isinstance(docs, list) or not docs or not all(isinstance(d, str) and d for d in docs):
            raise InputError(path, line, "doc_ids", "expected a non-empty list of document ids")
        for index, doc in enumerate(docs):
            bad = id_control_character(doc)
            if bad is not None:
                raise InputError(path, line, f"doc_ids[{index}]", f"id contains the control character {bad}; ids must "
                                 "be printable text")
        doc_ids = tuple(docs)
    else:
        doc_ids = (text("doc_id"),)
    return Binding(request_id, nugget, answer, doc_ids, line)


@dataclass
class BindReport:
    topics: list[TopicNuggets]
    added: int = 0
    """Answer-document bindings that were not there yet."""
    new_answers: list[str] = field(default_factory=list)


def bind(topics: Iterable[TopicNuggets], bindings: Iterable[Binding], path: str, allow_new_answers: bool = True) -> BindReport:
    """Add assessor bindings to a bank. A binding names its nugget by id or question text (normalized) and
    its answer by text (normalized); an unknown topic or nugget is an error at the binding's line; an
    unknown answer is added as a new answer of that nugget (reported), or is an error when
    ``allow_new_answers`` is false."""
    bank = [copy.deepcopy(topic) for topic in topics]
    by_topic = {topic.request_id: topic for topic in bank}
    report = BindReport(bank)
    for binding in bindings:
        topic = by_topic.get(binding.request_id)
        if topic is None:
            raise InputError(path, binding.line, "request_id", f"topic {binding.request_id!r} is not in the nugget bank")
        nugget = _find_nugget(topic.nuggets, binding.nugget)
        if nugget is None:
            raise InputError(path, binding.line, "nugget_id", f"topic {binding.request_id!r} has no nugget {binding.nugget!r} (by id or question)")
        answer = next((a for a in nugget.answers if key_text(a.text) == key_text(binding.answer)), None)
        if answer is None:
            if not allow_new_answers:
                raise InputError(path, binding.line, "answer", f"nugget {nugget.nugget_id!r} has no answer {binding.answer!r}")
            answer = Answer(binding.answer, ())
            nugget.answers.append(answer)
            report.new_answers.append(f"topic {topic.request_id}, nugget {nugget.nugget_id}: new answer {binding.answer!r}")
        fresh = [d for d in binding.doc_ids if d not in answer.doc_ids]
        answer.doc_ids = answer.doc_ids + tuple(dict.fromkeys(fresh))
        report.added += len(set(fresh))
    return report


def _find_nugget(nuggets: Sequence[Nugget], name: str) -> Nugget | None:
    for nugget in nuggets:
        if nugget.nugget_id == name:
            return nugget
    key = key_text(name)
    for nugget in nuggets:
        if key_text(nugget.question) == key:
            return nugget
    return None
