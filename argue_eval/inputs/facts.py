"""What LongRecall and comprehensiveness measure a report against, per topic, as ``Fact`` records: the
nugget bank's facts (a question with its answers, or each answer), reference reports' sentences, context
statements from a file; and the nugget bank by topic, which ICAT's aspects and the nuggetizer judging read too.

A negative nugget (an absence) and a question without answers give no fact: a sentence cannot state them. A
statement nugget is its own answer: ours has the statement as its question and its one answer (an SCU);
nuggetizer's has no answers (``extra["statement"]``) and becomes the same fact.
"""
from __future__ import annotations

import re
from os import PathLike
from typing import Any

from ..errors import ArgueError, InputError, id_control_character
from ..measures.longrecall import Fact
from ..model import TopicNuggets
from .runs import read_runs, report_sentences
from .scoring import read_nugget_list

__all__ = ["read_nugget_topics", "nugget_facts", "reference_facts", "nugget_atoms", "context_atoms", "FACT_UNITS"]

FACT_UNITS = ("question", "answer")

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
"""Where a context text is cut into statements: after . ! ? before what starts a sentence."""


def read_nugget_topics(nuggets: Any) -> dict[str, TopicNuggets]:
    """The nugget bank (a path in any nugget format, or ``TopicNuggets`` records) by topic; a topic given twice
    is a located error."""
    label = str(nuggets) if isinstance(nuggets, (str, PathLike)) else None
    topics: dict[str, TopicNuggets] = {}
    for topic in read_nugget_list(nuggets):
        if topic.request_id in topics:
            where = label or (topic.source.path if topic.source else "nuggets")
            raise InputError(where, topic.source.line if topic.source else None, "request_id",
                             f"nuggets for topic {topic.request_id} given twice")
        topics[topic.request_id] = topic
    return topics


def nugget_facts(nuggets: Any, unit: str = "question") -> dict[str, list[Fact]]:
    """LongRecall's reference facts from a nugget bank: one per question (stated by any of its answers) or,
    with ``unit="answer"``, one per answer (``NUGGET#1``, ``NUGGET#2``, ...)."""
    facts: dict[str, list[Fact]] = {}
    for request_id, topic in read_nugget_topics(nuggets).items():
        topic_facts: list[Fact] = []
        for nugget in topic.nuggets:
            if nugget.negative:
                continue  # an absence is not a fact a sentence can state
            if not nugget.answers:
                if nugget.extra.get("statement") and nugget.question.strip():
                    # a statement (nuggetizer's): it is its own answer, as a statement nugget of ours is
                    topic_facts.append(Fact(nugget.nugget_id, nugget.question, nugget.question, (nugget.question,)))
                continue  # a question nobody answered states nothing
            if unit == "question":
                topic_facts.append(Fact(nugget.nugget_id, nugget.question, nugget.question,
                                        tuple(a.text for a in nugget.answers)))
            else:
                topic_facts.extend(Fact(f"{nugget.nugget_id}#{i + 1}", a.text, nugget.question, (a.text,))
                                   for i, a in enumerate(nugget.answers))
        facts[request_id] = topic_facts
    return facts


def reference_facts(reference: Any) -> dict[str, list[Fact]]:
    """LongRecall's reference facts from reference reports (a run file or records): one fact per sentence,
    ``TOPIC-s1``, ``TOPIC-s2``, ...; two reference reports for one topic are an error."""
    label = str(reference) if isinstance(reference, (str, PathLike)) else "reference reports"
    facts: dict[str, list[Fact]] = {}
    for report in read_runs(reference):
        if report.request_id in facts:
            raise ArgueError(f"{label}: two reference reports for topic {report.request_id!r}; "
                             "give one reference report per topic")
        facts[report.request_id] = [Fact(f"{report.request_id}-s{i + 1}", text)
                                    for i, text in enumerate(report_sentences(report))]
    return facts


def nugget_atoms(nuggets: Any) -> dict[str, list[Fact]]:
    """Comprehensiveness's context atoms from a nugget bank: each answer, stated with its question."""
    return {request_id: [Fact(f"{n.nugget_id}#{i + 1}", a.text, n.question, (a.text,))
                         for n in topic.nuggets if not n.negative for i, a in enumerate(n.answers)]
            for request_id, topic in read_nugget_topics(nuggets).items()}


def context_atoms(path: str | PathLike[str]) -> dict[str, list[Fact]]:
    """Context atoms from a JSONL file: ``{request_id, statements: [...]}`` (one atom each) or ``{request_id,
    texts: [...]}`` (one atom per sentence); several lines of one topic add up (``TOPIC-c1``, ``TOPIC-c2``, ...)."""
    from ..reading import iter_jsonl

    atoms: dict[str, list[Fact]] = {}
    for line, record in iter_jsonl(path):
        request_id = record.get("request_id")
        if not isinstance(request_id, (str, int)) or isinstance(request_id, bool):
            raise InputError(path, line, "request_id", "expected the topic id")
        bad = id_control_character(str(request_id))
        if bad is not None:  # an id is one field of every table written: refused like every reader refuses it
            raise InputError(path, line, "request_id", f"id contains the control character {bad}; ids must be printable text")
        split = "statements" not in record
        texts = record.get("texts") if split else record["statements"]
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            raise InputError(path, line, "texts" if split else "statements", "expected a list of strings")
        pieces = [p.strip() for t in texts for p in (_SENTENCE_END.split(t) if split else [t]) if p.strip()]
        existing = atoms.setdefault(str(request_id), [])
        first = len(existing) + 1  # numbered on from the topic's earlier lines
        existing.extend([Fact(f"{request_id}-c{first + i}", piece) for i, piece in enumerate(pieces)])
    return atoms
