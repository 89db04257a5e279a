"""Nugget formats: ours, NeuCLIR 2024 sample evaluation data, report_gen_eval banks, Auto-ARGUE NuggetBank v3,
RAGTIME nugget banks and nuggetizer output.

Every reader yields one ``TopicNuggets`` per topic record (a JSONL line, or a v3 file). Formats without
nugget ids use the question text as ``nugget_id`` (the judgment files name nuggets by it). Formats that
have no ids merge a question repeated within a topic into one nugget whose answers merge (an answer text
seen twice unions its documents), because ARGUE scores questions, not lines. Our canonical format keeps
nuggets exactly as written (ids are explicit there).

Negative nuggets record an absence. In NeuCLIR 2024 sample data a question whose answers all lack
documents ("no") is one; in our canonical format ``negative`` is explicit. nuggetizer statements have
no documents at all: they become nuggets whose question is the statement, with no answers and
``extra["statement"] = True``.
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import orjson

from ..errors import InputError, OptionError, Problem
from ..model import AGGREGATORS, Aggregator, Answer, Importance, Location, Nugget, TopicNuggets
from ..reading import read_json
from ..writing import (
    atomic_writer,
    current_umask,
    keep_mode_and_owner,
    refuse_unsafe_output,
    remove_stale_temps,
    temp_tag,
    write_jsonl,
)
from ._fields import Fields, type_name, unknown, warn_lossy
from .base import FormatSpec, Probe, jsonl_format, parse_named

__all__ = ["FORMATS", "LINE_FORMATS", "NuggetSource", "parse_topic", "source_field", "source_line", "topic_to_argue",
           "topic_to_v3", "v3_file_name", "v3_files"]


_ARGUE_TOPIC = frozenset({"request_id", "nuggets"})
_ARGUE_NUGGET = frozenset({"nugget_id", "question", "importance", "aggregator", "negative", "answers"})
_ARGUE_ANSWER = frozenset({"answer", "doc_ids"})
_EVAL_TOPIC = frozenset({"request_id", "questions"})
_RGE_TOPIC = frozenset({"query_id", "items"})
_RGE_ITEM = frozenset({"query_id", "question_id", "question_text", "info", "gold_answers"})
_RGE_ANSWER = frozenset({"answer", "citations"})
_V3_TOPIC = frozenset({"query_id", "format_version", "nugget_bank"})
_V3_NUGGET = frozenset({"question", "question_id", "aggregator_type", "query_id", "importance", "negative", "answers"})
_V3_ANSWER = frozenset({"answer", "references"})
_RT_TOPIC = frozenset({"metadata", "nugget_bank"})
_RT_NUGGET = frozenset({"question", "question_id", "aggregator_type", "importance", "negative", "answers"})
_RT_ANSWER = frozenset({"answer", "references"})
_NZ_TOPIC = frozenset({"qid", "nuggets"})
_NZ_NUGGET = frozenset({"text", "importance"})

# Values that mean "no label": report_gen_eval writes "NA"; nuggetizer writes "failed" when its scorer
# could not grade a nugget (castorini/nuggetizer's ScoredNugget), which real nugget files do contain.
_NO_IMPORTANCE = ("na", "n/a", "none", "", "failed")


# --------------------------------------------------------------------------------------------------
# shared pieces
# --------------------------------------------------------------------------------------------------
def _importance(value: Any, field: str, f: Fields) -> Importance | None:
    """vital / okay; ``NA``, nuggetizer's ``failed``, empty or missing mean unlabelled (``None``). Case is ignored."""
    if value is None:
        return None
    if type(value) is str:
        lowered = value.strip().lower()
        if lowered in ("vital", "okay"):
            return cast(Importance, lowered)
        if lowered in _NO_IMPORTANCE:
            return None
    f.error(field, f"expected importance 'vital', 'okay' or null/'NA', found {type_name(value)}")
    return None


def _aggregator(value: Any, field: str, f: Fields) -> Aggregator:
    if value is None:
        return "OR"
    if type(value) is str and value.strip().upper() in AGGREGATORS:
        return cast(Aggregator, value.strip().upper())
    f.error(field, f"expected aggregator 'OR' or 'AND', found {type_name(value)}")
    return "OR"


def _negative(value: Any, field: str, f: Fields) -> bool:
    if value is None:
        return False
    if type(value) is bool:
        return value
    f.error(field, f"expected true or false, found {type_name(value)}")
    return False


class _Merger:
    """Nuggets of one topic keyed by question text: a repeated question adds its answers to the first."""

    def __init__(self, request_id: str):
        self.request_id = request_id
        self.by_question: dict[str, Nugget] = {}
        self.repeats = 0
        """Items that repeated a question already seen and were folded into its nugget."""

    def nugget(self, question: str, nugget_id: str | None, importance: Importance | None, aggregator: Aggregator,
               negative: bool = False, extra: dict[str, Any] | None = None) -> Nugget:
        found = self.by_question.get(question)
        if found is None:
            found = Nugget(nugget_id or question, self.request_id, question, [], importance, aggregator, negative, extra or {})
            self.by_question[question] = found
        else:
            self.repeats += 1
            if found.importance is None:
                found.importance = importance
            found.negative = found.negative or negative
            for key, value in (extra or {}).items():
                found.extra.setdefault(key, value)
        return found

    def nuggets(self) -> list[Nugget]:
        return list(self.by_question.values())


@dataclass(frozen=True, slots=True)
class NuggetSource(Location):
    """A topic's ``FILE:LINE`` plus where each nugget and answer sits in that line, in the file's own field names.

    ``fields`` maps the model's paths (``nuggets[3]``, ``nuggets[3].question``, ``nuggets[3].answers[0].doc_ids``)
    to the source's (``items[17].question_text``, ``items[17].gold_answers[0].citations``), so that a nugget
    validator can point at what the organizer wrote: formats without ids merge repeated questions, so the
    model's positions are not the file's. Paths a format writes as we do are left out."""

    fields: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    """Model paths that sit on another line than the topic's (formats with one answer per line)."""
    merged: int = field(default=0, compare=False, repr=False)
    """Items of the topic that repeated a question of an earlier item and were merged into its nugget (formats of
    one item per question; ``nuggets validate`` says how many)."""


def source_field(topic: TopicNuggets, path: str) -> str:
    """The file's own name for the model path ``path`` of ``topic`` (``path`` itself when the file uses it)."""
    fields = getattr(topic.source, "fields", None) or {}
    return fields.get(path, path)


def source_line(topic: TopicNuggets, path: str) -> int | None:
    """The line the model path ``path`` of ``topic`` came from (the topic's line unless the format spreads it)."""
    lines = getattr(topic.source, "lines", None) or {}
    return lines.get(path, topic.source.line if topic.source is not None else None)


class _Places:
    """Collects, while a topic is parsed, where each nugget and answer came from (the first place wins)."""

    def __init__(self) -> None:
        self.nuggets: dict[int, dict[str, str]] = {}
        self.answers: dict[tuple[int, str], dict[str, str]] = {}
        self.lines: dict[tuple[int, str | None], int] = {}

    def nugget(self, nugget: Nugget, base: str, line: int | None = None, **names: str) -> None:
        self.nuggets.setdefault(id(nugget), {"": base, **{key: base + suffix for key, suffix in names.items()}})
        if line is not None:
            self.lines.setdefault((id(nugget), None), line)

    def answer(self, nugget: Nugget, text: str, base: str, line: int | None = None, **names: str) -> None:
        self.answers.setdefault((id(nugget), text), {"": base, **{key: base + suffix for key, suffix in names.items()}})
        if line is not None:
            self.lines.setdefault((id(nugget), text), line)

    def source(self, f: Fields, nuggets: list[Nugget], request_field: str = "request_id", merged: int = 0) -> NuggetSource:
        fields: dict[str, str] = {"request_id": request_field}
        lines: dict[str, int] = {}
        for index, nugget in enumerate(nuggets):
            at = f"nuggets[{index}]"
            line = self.lines.get((id(nugget), None))
            for key, where in self.nuggets.get(id(nugget), {}).items():
                fields[f"{at}.{key}" if key else at] = where
                if line is not None:
                    lines[f"{at}.{key}" if key else at] = line
            for a_index, answer in enumerate(nugget.answers):
                a_at = f"{at}.answers[{a_index}]"
                a_line = self.lines.get((id(nugget), answer.text))
                for key, where in self.answers.get((id(nugget), answer.text), {}).items():
                    fields[f"{a_at}.{key}" if key else a_at] = where
                    if a_line is not None:
                        lines[f"{a_at}.{key}" if key else a_at] = a_line
        return NuggetSource(f.path, f.line, fields, lines, merged)


def _add_answer(nugget: Nugget, text: str, doc_ids: tuple[str, ...], extra: dict[str, Any] | None = None) -> None:
    """Append an answer, or union the documents of an existing answer with the same text (order kept)."""
    for answer in nugget.answers:
        if answer.text == text:
            answer.doc_ids = tuple(dict.fromkeys(answer.doc_ids + doc_ids))
            if extra:
                answer.extra = {**extra, **(answer.extra or {})}
            return
    nugget.answers.append(Answer(text, tuple(dict.fromkeys(doc_ids)), extra or None))


# --------------------------------------------------------------------------------------------------
# careful parsers (one topic object each)
# --------------------------------------------------------------------------------------------------
def parse_topic(
    obj: dict[str, Any], format_name: str, path: str, line: int | None, problems: list[Problem] | None = None
) -> TopicNuggets | None:
    """Parse one topic object (a JSONL line, or a whole v3 file) in ``format_name``.

    Strict (raises ``InputError``) with ``problems=None``; otherwise appends every problem and returns
    the topic when it has a request id, else ``None``.
    """
    return parse_named(FORMATS, "nugget", format_name, obj, path, line, problems)


def _parse_argue(obj: dict[str, Any], f: Fields) -> TopicNuggets | None:
    request_id = f.ident(obj, "request_id")
    nuggets: list[Nugget] = []
    for index, item in enumerate(f.required_array(obj, "nuggets", "an array of nugget objects") or ()):
        where = f"nuggets[{index}]"
        if f.mapping(item, where, "a nugget object {nugget_id, question, answers, ...}") is None:
            continue
        question = f.text(item, "question", where + ".", required=True)
        nugget_id = f.ident(item, "nugget_id", where + ".", required=False) or question
        answers: list[Answer] = []
        for a_index, answer in enumerate(f.array(item.get("answers", []), where + ".answers", "an array of answers") or ()):
            a_where = f"{where}.answers[{a_index}]"
            if f.mapping(answer, a_where, "an answer object {answer, doc_ids}") is None:
                continue
            text = f.text(answer, "answer", a_where + ".", required=True)
            docs = f.id_list(answer.get("doc_ids"), a_where + ".doc_ids", key="doc_id")
            answers.append(Answer(text, docs, unknown(answer, _ARGUE_ANSWER) or None))
        nuggets.append(Nugget(
            nugget_id, request_id or "", question, answers,
            _importance(item.get("importance"), where + ".importance", f),
            _aggregator(item.get("aggregator"), where + ".aggregator", f),
            _negative(item.get("negative"), where + ".negative", f),
            unknown(item, _ARGUE_NUGGET),
        ))
    if request_id is None:
        return None
    return TopicNuggets(request_id, nuggets, unknown(obj, _ARGUE_TOPIC), Location(f.path, f.line))


def _parse_neuclir24_eval(obj: dict[str, Any], f: Fields) -> TopicNuggets | None:
    """``questions: [[question, [[answer, [doc_id...]]...]]...]``; all-documentless answers mark a negative nugget."""
    request_id = f.ident(obj, "request_id")
    merger = _Merger(request_id or "")
    places = _Places()
    questions = f.required_array(obj, "questions", "an array of [question, [[answer, [doc_id...]]...]] pairs")
    for q_index, pair in enumerate(questions or ()):
        where = f"questions[{q_index}]"
        if type(pair) is not list or len(pair) != 2 or type(pair[0]) is not str or type(pair[1]) is not list:
            f.error(where, f"expected a pair [question text, [[answer, [doc_id...]]...]], found {type_name(pair)}")
            continue
        question, raw_answers = pair
        nugget = merger.nugget(question, None, None, "OR")
        places.nugget(nugget, where, question="[0]", nugget_id="[0]", answers="[1]")
        for a_index, answer in enumerate(raw_answers):
            a_where = f"{where}[1][{a_index}]"
            if type(answer) is not list or len(answer) != 2 or type(answer[0]) is not str:
                f.error(a_where, f"expected a pair [answer text, [doc_id...]], found {type_name(answer)}")
                continue
            _add_answer(nugget, answer[0], f.id_list(answer[1], a_where + "[1]", key="doc_id"))
            places.answer(nugget, answer[0], a_where, answer="[0]", doc_ids="[1]")
    nuggets = merger.nuggets()
    for nugget in nuggets:
        nugget.negative = bool(nugget.answers) and not nugget.bound
    if request_id is None:
        return None
    return TopicNuggets(request_id, nuggets, unknown(obj, _EVAL_TOPIC), places.source(f, nuggets, merged=merger.repeats))


def _parse_report_gen_eval(obj: dict[str, Any], f: Fields) -> TopicNuggets | None:
    """One item per question-answer pair; items sharing a question text become one nugget (first id kept)."""
    request_id = f.ident(obj, "query_id")
    merger = _Merger(request_id or "")
    places = _Places()
    for index, item in enumerate(f.required_array(obj, "items", "an array of question items") or ()):
        where = f"items[{index}]"
        if f.mapping(item, where, "a question item {question_id, question_text, gold_answers, info}") is None:
            continue
        question = f.text(item, "question_text", where + ".", required=True)
        question_id = f.ident(item, "question_id", where + ".", required=False)
        info = item.get("info") or {}
        if f.mapping(info, where + ".info") is None:
            info = {}
        extra: dict[str, Any] = {}
        info_rest = {k: v for k, v in info.items() if k != "importance"}
        if info_rest:
            extra["info"] = info_rest
        extra.update(unknown(item, _RGE_ITEM))
        nugget = merger.nugget(question, question_id, _importance(info.get("importance"), where + ".info.importance", f), "OR",
                               extra=extra)
        places.nugget(nugget, where, question=".question_text", nugget_id=".question_id", importance=".info.importance",
                      answers=".gold_answers")
        ids = nugget.extra.setdefault("question_ids", [])
        if question_id is not None and question_id not in ids:
            ids.append(question_id)
        answers = f.array(item.get("gold_answers", []), where + ".gold_answers", "an array of answers") or ()
        for a_index, answer in enumerate(answers):
            a_where = f"{where}.gold_answers[{a_index}]"
            if type(answer) is str:
                _add_answer(nugget, answer, ())
                places.answer(nugget, answer, a_where, answer="", doc_ids="")
            elif type(answer) is dict:
                text = f.text(answer, "answer", a_where + ".", required=True)
                _add_answer(nugget, text, f.id_list(answer.get("citations"), a_where + ".citations", key="doc_id"),
                            unknown(answer, _RGE_ANSWER) or None)
                if text is not None:
                    places.answer(nugget, text, a_where, answer=".answer", doc_ids=".citations")
            else:
                f.error(a_where, f"expected an answer string or {{answer, citations}}, found {type_name(answer)}")
    if request_id is None:
        return None
    nuggets = merger.nuggets()
    return TopicNuggets(request_id, nuggets, unknown(obj, _RGE_TOPIC), places.source(f, nuggets, "query_id",
                                                                       merged=merger.repeats))


def _bank_nugget(f: Fields, merger: _Merger, places: _Places, item: dict[str, Any], where: str, question: Any,
                 known: frozenset[str]) -> Nugget:
    """The nugget of a question object ``{question, question_id, importance, aggregator_type, negative, answers}``
    (Auto-ARGUE v3 and RAGTIME banks read it alike), with where its fields stand; ``known``: the fields modelled."""
    nugget = merger.nugget(
        question,
        f.ident(item, "question_id", where + ".", required=False),
        _importance(item.get("importance"), where + ".importance", f),
        _aggregator(item.get("aggregator_type"), where + ".aggregator_type", f),
        _negative(item.get("negative"), where + ".negative", f),
        unknown(item, known),
    )
    places.nugget(nugget, where, question=".question", nugget_id=".question_id", importance=".importance",
                  answers=".answers")
    return nugget


def _bank_answer(f: Fields, places: _Places, nugget: Nugget, answer: dict[str, Any], where: str, text: Any,
                 known: frozenset[str]) -> None:
    """An answer object ``{answer, references}`` of a v3 or RAGTIME bank, added to ``nugget`` as ``text``."""
    _add_answer(nugget, text, f.id_list(answer.get("references"), where + ".references", key="doc_id"),
                unknown(answer, known) or None)
    places.answer(nugget, text, where, answer=".answer", doc_ids=".references")


def _parse_v3(obj: dict[str, Any], f: Fields) -> TopicNuggets | None:
    """One Auto-ARGUE NuggetBank v3 file: ``nugget_bank`` maps question text to question objects."""
    request_id = f.ident(obj, "query_id")
    version = obj.get("format_version")
    if version is not None and version != "v3":
        f.error("format_version", f"expected 'v3', found {type_name(version)}")
    merger = _Merger(request_id or "")
    places = _Places()
    bank = f.required_mapping(obj, "nugget_bank", "an object keyed by question text") or {}
    for key, item in bank.items():
        where = f"nugget_bank[{key!r}]"
        if f.mapping(item, where, "a question object {question, question_id, aggregator_type, answers}") is None:
            continue
        nugget = _bank_nugget(f, merger, places, item, where, f.text(item, "question", where + ".") or key, _V3_NUGGET)
        answers = f.mapping(item.get("answers", {}), where + ".answers", "an object keyed by answer text") or {}
        for a_key, answer in answers.items():
            a_where = f"{where}.answers[{a_key!r}]"
            if f.mapping(answer, a_where, "an answer object {answer, references}") is None:
                continue
            _bank_answer(f, places, nugget, answer, a_where, f.text(answer, "answer", a_where + ".") or a_key, _V3_ANSWER)
    if request_id is None:
        return None
    nuggets = merger.nuggets()
    return TopicNuggets(request_id, nuggets, unknown(obj, _V3_TOPIC), places.source(f, nuggets, "query_id",
                                                                       merged=merger.repeats))


def _parse_ragtime_bank(obj: dict[str, Any], f: Fields) -> TopicNuggets | None:
    """``{metadata: {topic_id, ...}, nugget_bank: [{question, aggregator_type, answers: [{answer, references}]}]}``."""
    request_id = None
    extra = unknown(obj, _RT_TOPIC)
    meta = f.required_mapping(obj, "metadata", "an object with topic_id")
    if meta is not None:
        request_id = f.ident(meta, "topic_id", "metadata.")
        rest = {k: v for k, v in meta.items() if k != "topic_id"}
        if rest:
            extra = {"metadata": rest, **extra}
    merger = _Merger(request_id or "")
    places = _Places()
    for index, item in enumerate(f.required_array(obj, "nugget_bank", "an array of questions") or ()):
        where = f"nugget_bank[{index}]"
        if f.mapping(item, where, "a question object {question, aggregator_type, answers}") is None:
            continue
        question = f.text(item, "question", where + ".", required=True)
        nugget = _bank_nugget(f, merger, places, item, where, question, _RT_NUGGET)
        for a_index, answer in enumerate(f.array(item.get("answers", []), where + ".answers", "an array of answers") or ()):
            a_where = f"{where}.answers[{a_index}]"
            if f.mapping(answer, a_where, "an answer object {answer, references}") is None:
                continue
            _bank_answer(f, places, nugget, answer, a_where, f.text(answer, "answer", a_where + ".", required=True),
                         _RT_ANSWER)
    if request_id is None:
        return None
    nuggets = merger.nuggets()
    return TopicNuggets(request_id, nuggets, extra, places.source(f, nuggets, "metadata.topic_id",
                                                                       merged=merger.repeats))


def _parse_nuggetizer(obj: dict[str, Any], f: Fields) -> TopicNuggets | None:
    """nuggetizer statements (no documents): question = statement text, no answers, ``extra["statement"] = True``."""
    request_id = f.ident(obj, "qid")
    merger = _Merger(request_id or "")
    places = _Places()
    for index, item in enumerate(f.required_array(obj, "nuggets", "an array of {text, importance}") or ()):
        where = f"nuggets[{index}]"
        if f.mapping(item, where, "a statement object {text, importance}") is None:
            continue
        nugget = merger.nugget(
            f.text(item, "text", where + ".", required=True), None,
            _importance(item.get("importance"), where + ".importance", f), "OR",
            extra={"statement": True, **unknown(item, _NZ_NUGGET)},
        )
        places.nugget(nugget, where, question=".text", nugget_id=".text", importance=".importance")
    if request_id is None:
        return None
    nuggets = merger.nuggets()
    return TopicNuggets(request_id, nuggets, unknown(obj, _NZ_TOPIC), places.source(f, nuggets, "qid", merged=merger.repeats))


# --------------------------------------------------------------------------------------------------
# readers
# --------------------------------------------------------------------------------------------------
def _v3_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.iterdir() if p.is_file() and p.name.endswith((".json", ".json.gz")))


def v3_files(path: Path) -> list[Path]:
    """The topic files of a NuggetBank v3 bank: a directory's ``*.json`` files in name order, or the one file."""
    path = Path(path)
    return _v3_files(path) if path.is_dir() else [path]


def read_v3(path: Path) -> Iterator[TopicNuggets]:
    """A NuggetBank v3 directory (one ``nuggets_<qid>.v3.json`` per topic, read in file-name order) or one file."""
    path = Path(path)
    if path.is_dir():
        files = _v3_files(path)
        if not files:
            raise InputError(path, None, None, "directory holds no *.json NuggetBank v3 files")
    else:
        files = [path]
    for file in files:
        obj = read_json(file)
        if type(obj) is not dict:
            raise InputError(file, None, None, f"expected one JSON object (a NuggetBank v3 topic), found {type_name(obj)}")
        yield _parse_v3(obj, Fields(str(file), None))  # type: ignore[misc]


def read_lancer(path: Path) -> Iterator[TopicNuggets]:
    """LANCER-style sub-question files: one JSON object ``{topic_id: [question, ...]}`` (pretty-printed or on one
    line). Questions come without answers: usable as aspects, or as nugget questions for assessors to answer
    (``assess export``); ARGUE drops unanswered nuggets unless told otherwise (``--unbound-questions``).
    Topics in file order; a repeated question in a topic is kept once."""
    name = str(path)
    obj = read_json(path)
    if type(obj) is not dict:
        raise InputError(name, None, None, f"expected one JSON object {{topic_id: [question, ...]}}, found {type_name(obj)}")
    for topic_id, questions in obj.items():
        f = Fields(name, None)
        if not str(topic_id).strip():
            f.error(repr(topic_id), "expected a topic id, found an empty key")
        texts = f.str_list(questions, str(topic_id), "question strings")
        merger = _Merger(str(topic_id))
        for text in texts:
            merger.nugget(text, None, None, "OR", extra={"lancer": True})
        yield TopicNuggets(str(topic_id), merger.nuggets(), {}, Location(name, None))


_GRADING_IDS = ("query_id", "request_id", "topic_id")
_GRADING_KEYS = frozenset({"question", "answer", "citations", *_GRADING_IDS})
_TOPIC_IN_NAME = re.compile(r"^(?:nuggets?[._-])?([A-Za-z0-9][A-Za-z0-9-]*?)(?:[._-]nuggets?)?$")
_GRADING_SUFFIXES = (".gz", ".txt", ".jsonl", ".json")


def _grading_topic(path: Path) -> str | None:
    """The topic a one-topic grading file is about, from its name: ``300.nuggets.txt``, ``nuggets_300.txt``.

    Only a name part with a digit is taken for a topic id: ``nuggets-final.txt`` or ``grading.txt`` name no topic
    (a word there is a label, and reading it as topic ``final`` would score the bank against no request)."""
    stem = path.name
    for suffix in _GRADING_SUFFIXES:
        stem = stem.removesuffix(suffix)
    match = _TOPIC_IN_NAME.match(stem)
    if match is None or not any(c.isdigit() for c in match.group(1)):
        return None
    return match.group(1)


def read_grading(path: Path, problems: list[Problem] | None = None) -> Iterator[TopicNuggets]:
    """report_gen_eval's grading ``nuggets.txt``: one ``{question, answer, citations}`` object per line, one line
    per question-answer pair (its ``tests/grading_files``; ``modify_json.py`` there turns it into a bank).

    Lines repeating a question become one nugget whose answers are the lines' answers (ids are the question
    texts, as the format has none). The file names no topic: a line's ``query_id`` (or ``request_id``,
    ``topic_id``) says which topic it belongs to, else the file name does (``300.nuggets.txt``,
    ``nuggets_300.txt``); neither is an error. Topics in order of first appearance. With ``problems``, every bad
    line is recorded there and skipped (``nuggets validate``) instead of stopping the read at the first."""
    from ..reading import iter_jsonl

    name = str(path)
    default = _grading_topic(path)
    topics: dict[str, tuple[_Merger, _Places, int]] = {}
    for lineno, obj in iter_jsonl(path):
        f = Fields(name, lineno, problems)
        key = next((k for k in _GRADING_IDS if k in obj), None)
        topic = f.ident(obj, key) if key is not None else default
        if topic is None:
            if key is None:  # a bad query_id was reported by ident
                f.error("query_id", "no topic: the line has no query_id and the file name does not say one (name the "
                                    "file <topic>.nuggets.txt or add \"query_id\" to each line)")
            continue
        question = f.text(obj, "question", required=True)
        answer = f.text(obj, "answer", required=True)
        docs = f.id_list(obj.get("citations", []), "citations", key="doc_id")
        if f.errors:
            continue  # reported (lenient reading only: strict reading raised at the first)
        merger, places, _ = topics.setdefault(topic, (_Merger(topic), _Places(), lineno))
        extra = unknown(obj, _GRADING_KEYS)
        nugget = merger.nugget(question, None, None, "OR")
        places.nugget(nugget, "question", lineno, question="", nugget_id="")
        _add_answer(nugget, answer, docs, extra or None)
        places.answer(nugget, answer, "answer", lineno, answer="", doc_ids="")
        places.answers[(id(nugget), answer)]["doc_ids"] = "citations"
    for topic, (merger, places, first) in topics.items():
        nuggets = merger.nuggets()
        source = places.source(Fields(name, first), nuggets, "query_id")
        yield TopicNuggets(topic, nuggets, {}, source)


def write_grading(topics: Iterable[TopicNuggets], path: Path) -> int:
    """One ``{query_id, question, answer, citations}`` line per answer (report_gen_eval reads the last three and
    ignores ``query_id``, which keeps several topics apart). Importance, negative marks, aggregators and nugget
    ids are not in the format (a warning says so when they would be lost). Returns the number of topics."""
    lost: set[str] = set()
    written = [0]  # topics written: the count callers report (as the other nugget writers return), not lines

    def lines() -> Iterator[dict[str, Any]]:
        for topic in topics:
            written[0] += 1
            for nugget in topic.nuggets:
                if nugget.importance is not None:
                    lost.add("importance")
                if nugget.negative:
                    lost.add("negative marks")
                if nugget.nugget_id != nugget.question:
                    lost.add("nugget ids")
                if not nugget.answers:
                    lost.add("questions without answers")
                for answer in nugget.answers:
                    yield {"query_id": topic.request_id, "question": nugget.question, "answer": answer.text,
                           "citations": list(answer.doc_ids)}

    write_jsonl(path, lines())
    if lost:
        warn_lossy(f"report-gen-eval-grading: {', '.join(sorted(lost))} not written (the format has only question, "
                   "answer and citations)")
    return written[0]


# --------------------------------------------------------------------------------------------------
# writers
# --------------------------------------------------------------------------------------------------
def topic_to_argue(topic: TopicNuggets) -> dict[str, Any]:
    """Our canonical nugget line: ``{request_id, nuggets: [...]}`` then the topic's unmodelled fields."""
    nuggets = []
    for nugget in topic.nuggets:
        item: dict[str, Any] = {
            "nugget_id": nugget.nugget_id,
            "question": nugget.question,
            "importance": nugget.importance,
            "aggregator": nugget.aggregator,
            "negative": nugget.negative,
            "answers": [_answer_dict(a, "doc_ids", list(a.doc_ids)) for a in nugget.answers],
        }
        for key, value in nugget.extra.items():
            item.setdefault(key, value)
        nuggets.append(item)
    out: dict[str, Any] = {"request_id": topic.request_id, "nuggets": nuggets}
    for key, value in topic.extra.items():
        out.setdefault(key, value)
    return out


def _answer_dict(answer: Answer, doc_key: str, docs: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"answer": answer.text, doc_key: docs}
    for key, value in (answer.extra or {}).items():
        out.setdefault(key, value)
    return out


def write_argue(topics: Iterable[TopicNuggets], path: Path) -> int:
    return write_jsonl(path, map(topic_to_argue, topics))


_V3_HEADER = ("title_query", "full_query", "full_background")
_SAFE_FILE_ID = re.compile(r"^[^/\\\x00]+$")


def v3_file_name(request_id: str) -> str:
    """``nuggets_<qid>.v3.json``, the name Auto-ARGUE looks for."""
    return f"nuggets_{request_id}.v3.json"


def topic_to_v3(topic: TopicNuggets) -> dict[str, Any]:
    """One NuggetBank v3 document. Raises ``InputError`` when the topic cannot be expressed (v3 keys questions by text)."""
    out: dict[str, Any] = {"query_id": topic.request_id}
    for key in _V3_HEADER:
        out[key] = topic.extra.get(key, "")
    for key, value in topic.extra.items():
        out.setdefault(key, value)
    out["format_version"] = "v3"
    bank: dict[str, Any] = {}
    ids: set[str] = set()
    for nugget in topic.nuggets:
        if nugget.nugget_id in ids and nugget.nugget_id != nugget.question:
            raise OptionError("--to", f"topic {topic.request_id}: the nugget id {nugget.nugget_id!r} is used twice; "
                              "judgments name nuggets by id, so a NuggetBank v3 with both could not be scored "
                              "(nuggets validate calls it duplicate-nugget-id): give each nugget its own id")
        ids.add(nugget.nugget_id)
        if nugget.question in bank:
            raise OptionError("--to", f"topic {topic.request_id}: two nuggets share the question {nugget.question!r}; NuggetBank v3 keys "
                "questions by their text, so it cannot hold both (merge them or reword one)",
            )
        item: dict[str, Any] = {"question": nugget.question}
        if nugget.nugget_id != nugget.question:
            item["question_id"] = nugget.nugget_id
        item["aggregator_type"] = nugget.aggregator
        item["query_id"] = topic.request_id
        if nugget.importance is not None:
            item["importance"] = nugget.importance
        if nugget.negative:
            item["negative"] = True
        answers: dict[str, Any] = {}
        for answer in nugget.answers:
            if answer.text in answers:
                raise OptionError("--to", f"topic {topic.request_id}: question {nugget.question!r} lists the "
                                 f"answer {answer.text!r} twice; NuggetBank v3 keys answers by their text")
            answers[answer.text] = _answer_dict(answer, "references", [{"doc_id": d} for d in answer.doc_ids])
        item["answers"] = answers
        for key, value in nugget.extra.items():
            item.setdefault(key, value)
        bank[nugget.question] = item
    out["nugget_bank"] = bank
    return out


def write_v3(topics: Iterable[TopicNuggets], path: Path) -> int:
    """Write a NuggetBank v3 directory, one pretty-printed file per topic.

    The directory is built beside the target and swapped in only when every topic was written, so a
    failure half way leaves the old directory (or none), never a partial bank.
    """
    import shutil
    import tempfile

    path = Path(path)
    refuse_unsafe_output(path)
    if path.exists() and not path.is_dir():
        raise InputError(path, None, None, "NuggetBank v3 is written as a directory (one file per topic), but a file exists here")
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temps(path)  # staging directories of killed writers
    staging = Path(tempfile.mkdtemp(prefix=f".{path.name}.{temp_tag()}.", suffix=".tmp", dir=path.parent))
    count = 0
    seen: set[str] = set()
    statements = 0
    try:
        for topic in topics:
            if not _SAFE_FILE_ID.match(topic.request_id) or topic.request_id in (".", ".."):
                raise OptionError("--to", f"request id {topic.request_id!r} cannot be used in a file name")
            if topic.request_id in seen:
                raise OptionError("--to", f"topic {topic.request_id} appears twice; NuggetBank v3 holds one file per topic")
            seen.add(topic.request_id)
            statements += sum(1 for n in topic.nuggets if n.extra.get("statement"))
            data = orjson.dumps(topic_to_v3(topic), option=orjson.OPT_INDENT_2) + b"\n"
            with atomic_writer(staging / v3_file_name(topic.request_id), "wb") as handle:
                handle.write(data)
            count += 1
        os.chmod(staging, 0o777 & ~current_umask())  # mkdtemp makes it private; the bank is an ordinary output
        keep_mode_and_owner(staging, path)  # ... unless it replaces a bank whose mode and owner were chosen
        backup = None
        if path.exists():
            backup = Path(tempfile.mkdtemp(prefix=f".{path.name}.old.", dir=path.parent))
            os.replace(path, backup / "old")
        os.replace(staging, path)
        if backup is not None:
            shutil.rmtree(backup, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if statements:
        warn_lossy(f"autoargue-v3: {statements} statement nuggets (no answers, no documents) written as questions without answers")
    return count


# --------------------------------------------------------------------------------------------------
# detection
# --------------------------------------------------------------------------------------------------
def _first(probe: Probe) -> dict[str, Any]:
    return probe.first_object or {}


def _first_item(obj: dict[str, Any], key: str) -> dict[str, Any] | None:
    items = obj.get(key)
    if type(items) is list and items and type(items[0]) is dict:
        return items[0]
    return None


def _sniff_argue(probe: Probe) -> bool:
    obj = _first(probe)
    if "request_id" not in obj or type(obj.get("nuggets")) is not list:
        return False
    item = _first_item(obj, "nuggets")
    return item is None or "question" in item


def _sniff_neuclir24_eval(probe: Probe) -> bool:
    obj = _first(probe)
    return "request_id" in obj and type(obj.get("questions")) is list


def _sniff_report_gen_eval(probe: Probe) -> bool:
    obj = _first(probe)
    return "query_id" in obj and type(obj.get("items")) is list


def _looks_v3(obj: Any) -> bool:
    return type(obj) is dict and type(obj.get("nugget_bank")) is dict and ("query_id" in obj or obj.get("format_version") == "v3")


def _sniff_v3(probe: Probe) -> bool:
    if probe.is_dir:
        files = _v3_files(probe.path)
        if not files:
            return False
        if any(p.name.startswith("nuggets_") and ".v3.json" in p.name for p in files):
            return True
        return _looks_v3(Probe(files[0]).whole_json)
    if probe.first_object is not None:  # a one-line v3 file; JSONL of other kinds never has a nugget_bank object
        return _looks_v3(probe.first_object)
    line = probe.first_line
    if line is None or not line.lstrip().startswith("{"):
        return False
    return _looks_v3(probe.whole_json)


def _sniff_ragtime_bank(probe: Probe) -> bool:
    obj = _first(probe)
    return type(obj.get("nugget_bank")) is list


def _question_lists(obj: Any) -> bool:
    """``{topic: [question, ...]}``: lists of strings, some of them text with spaces. A document pool,
    ``{topic: [doc_id, ...]}``, has the same shape, but document ids hold no spaces, questions do."""
    lists = list(obj.values())[:20] if type(obj) is dict else []
    return (bool(lists) and all(type(v) is list and v and all(type(q) is str for q in v) for v in lists)
            and any(" " in q.strip() for v in lists for q in v))


def _sniff_lancer(probe: Probe) -> bool:
    if probe.is_dir:
        return False
    if probe.first_object is not None:
        return _question_lists(probe.first_object)
    line = probe.first_line
    return line is not None and line.lstrip().startswith("{") and _question_lists(probe.whole_json)


def _sniff_grading(probe: Probe) -> bool:
    obj = _first(probe)
    return (type(obj.get("question")) is str and type(obj.get("answer")) is str
            and type(obj.get("citations", [])) is list and set(obj) <= _GRADING_KEYS)


def _sniff_nuggetizer(probe: Probe) -> bool:
    obj = _first(probe)
    if "qid" not in obj or type(obj.get("nuggets")) is not list:
        return False
    item = _first_item(obj, "nuggets")
    return item is None or "text" in item


FORMATS: list[FormatSpec] = [
    jsonl_format(
        "argue", "nuggets",
        "argue-eval canonical nuggets, one topic per line {request_id, nuggets: [{nugget_id, question, importance, "
        "aggregator, negative, answers: [{answer, doc_ids}]}]}",
        _sniff_argue, _parse_argue, write_argue, priority=10, aliases=("canonical",),
    ),
    jsonl_format(
        "neuclir24-eval", "nuggets",
        "NeuCLIR 2024 sample evaluation data {request_id, report, questions: [[question, [[answer, [doc_id]]]]]}",
        _sniff_neuclir24_eval, _parse_neuclir24_eval, None, priority=10, aliases=("neuclir24",),
    ),
    jsonl_format(
        "report-gen-eval", "nuggets",
        "report_gen_eval nugget bank {query_id, items: [{question_id, question_text, info, gold_answers}]}",
        _sniff_report_gen_eval, _parse_report_gen_eval, None, priority=10,
    ),
    FormatSpec(
        "report-gen-eval-grading", "nuggets",
        "report_gen_eval grading nuggets.txt: one {question, answer, citations} per line (topic: query_id or the "
        "file name)",
        _sniff_grading, read_grading, write_grading, priority=8, aliases=("nuggets-txt",),
    ),
    FormatSpec(
        "autoargue-v3", "nuggets",
        "Auto-ARGUE NuggetBank v3: a directory of nuggets_<qid>.v3.json files (or one such file)",
        _sniff_v3, read_v3, write_v3, priority=5, aliases=("v3", "nuggetbank-v3"), parse=_parse_v3,
    ),
    jsonl_format(
        "ragtime-bank", "nuggets",
        "RAGTIME nugget bank {metadata: {topic_id}, nugget_bank: [{question, aggregator_type, answers}]}",
        _sniff_ragtime_bank, _parse_ragtime_bank, None, priority=10, aliases=("ragtime",),
    ),
    FormatSpec(
        "lancer", "nuggets", "LANCER sub-questions {topic_id: [question, ...]} (questions without answers)",
        _sniff_lancer, read_lancer, None, priority=2,
    ),
    jsonl_format(
        "nuggetizer", "nuggets",
        "nuggetizer statements {qid, query, nuggets: [{text, importance}]} (no documents)",
        _sniff_nuggetizer, _parse_nuggetizer, None, priority=10,
    ),
]

LINE_FORMATS: frozenset[str] = frozenset(spec.name for spec in FORMATS if spec.parse is not None) - {"autoargue-v3"}
"""The JSON Lines nugget formats (``parse_topic`` reads one line of each); v3 files are whole JSON objects."""
