"""The LLM tasks that create a nugget bank: propose nuggets from a batch of documents, label them vital or okay.

TREC RAG 2024 built its nuggets with AutoNuggetizer: a model reads the top documents in batches and keeps a
list of nuggets, then labels each vital or okay. ``organizer.nugget_create`` runs that loop in the ARGUE
shape (questions, short answers, each answer bound to the documents of the batch that state it); this module
holds its two tasks, run like the measures' tasks by ``llm_tasks.LLMTasks`` (the LLM judge's client, the
judgment cache, one re-ask of an unusable reply, a failure never read as an answer):

- ``nugget_create``: the request, the nuggets found so far and a batch of documents labelled ``D1``, ``D2``,
  ... in; a list of ``{question, answers: [{answer, documents: [labels]}]}`` out;
- ``nugget_label``: the request and up to ten numbered nuggets in; ``vital`` or ``okay`` for each out.

The templates are their own versioned set (``prompts/nuggets-v1/``, with its own system prompt), beside the
measures' ``tasks-v1`` and the judge's ``llm-v1``. The reply's *shape* is checked here (a wrong shape is
re-asked); what a well-shaped reply says -- a document label outside the batch, an empty or overlong text,
more nuggets than asked -- is the organizer's to count and drop (``organizer.nugget_create``), so that the
details can show it.
"""
from __future__ import annotations

from typing import Any

from .llm_prompts import ReplyError, estimate_tokens
from .llm_tasks import Task

__all__ = ["TEMPLATE_SET", "TASKS", "CREATE", "LABEL", "MAX_PROPOSALS", "MAX_ANSWERS", "MAX_QUESTION_CHARS",
           "MAX_ANSWER_CHARS", "IMPORTANCE_LABELS"]

TEMPLATE_SET = "nuggets-v1"
"""The folder of templates (``prompts/nuggets-v1/``); a template edit changes its version hash, a change of
meaning a new folder."""

CREATE, LABEL = "nugget_create", "nugget_label"

MAX_PROPOSALS = 20
"""Nuggets one create call may list (the schema's bound; a longer list is counted and cut)."""
MAX_ANSWERS = 4
"""Answers per proposed nugget (the schema's bound)."""
MAX_QUESTION_CHARS = 300
MAX_ANSWER_CHARS = 200
"""Lengths the schema allows; a longer text (from a server that does not enforce the schema) is dropped."""
IMPORTANCE_LABELS = ("vital", "okay")


def _labels(data: dict[str, Any]) -> list[str]:
    return list(data["documents"])


def create_schema(data: dict[str, Any]) -> dict[str, Any]:
    """A list of nuggets, each a question with 1 to ``MAX_ANSWERS`` answers bound to documents of the batch."""
    answer = {"type": "object", "additionalProperties": False, "required": ["answer", "documents"],
              "properties": {"answer": {"type": "string", "maxLength": MAX_ANSWER_CHARS},
                             "documents": {"type": "array", "minItems": 1, "maxItems": len(data["documents"]),
                                           "items": {"type": "string", "enum": _labels(data)}}}}
    nugget = {"type": "object", "additionalProperties": False, "required": ["question", "answers"],
              "properties": {"question": {"type": "string", "maxLength": MAX_QUESTION_CHARS},
                             "answers": {"type": "array", "minItems": 1, "maxItems": MAX_ANSWERS, "items": answer}}}
    return {"type": "object", "additionalProperties": False, "required": ["nuggets"],
            "properties": {"nuggets": {"type": "array", "maxItems": MAX_PROPOSALS, "items": nugget}}}


def check_create(value: Any, data: dict[str, Any]) -> list[dict[str, Any]]:
    """The proposals of a reply, as ``[{"question", "answers": [{"answer", "documents"}]}]`` with texts'
    whitespace collapsed; ``ReplyError`` for a reply of another shape. Labels and texts are kept as the model
    wrote them (checked by the organizer, which counts what it drops)."""
    items = value.get("nuggets") if isinstance(value, dict) else None
    if not isinstance(items, list):
        raise ReplyError('expected {"nuggets": [...]}')
    proposals: list[dict[str, Any]] = []
    for number, item in enumerate(items):
        where = f"nuggets[{number}]"
        if not isinstance(item, dict) or not isinstance(item.get("question"), str):
            raise ReplyError(f'{where}: expected {{"question": "...", "answers": [...]}}')
        answers = item.get("answers")
        if not isinstance(answers, list):
            raise ReplyError(f"{where}.answers: expected a list")
        checked = []
        for a_number, answer in enumerate(answers):
            documents = answer.get("documents") if isinstance(answer, dict) else None
            if not isinstance(answer, dict) or not isinstance(answer.get("answer"), str) or not isinstance(documents, list):
                raise ReplyError(f'{where}.answers[{a_number}]: expected {{"answer": "...", "documents": [ids]}}')
            if not all(isinstance(label, str) for label in documents):
                raise ReplyError(f"{where}.answers[{a_number}].documents: expected document ids (strings)")
            checked.append({"answer": " ".join(answer["answer"].split()), "documents": list(documents)})
        proposals.append({"question": " ".join(item["question"].split()), "answers": checked})
    return proposals


def label_schema(data: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "required": list(data["nuggets"]),
            "properties": {key: {"type": "string", "enum": list(IMPORTANCE_LABELS)} for key in data["nuggets"]}}


def check_label(value: Any, data: dict[str, Any]) -> dict[str, str]:
    """``{nugget id: vital|okay}`` for every nugget of the data; ``ReplyError`` for anything else."""
    ids = list(data["nuggets"])
    if not isinstance(value, dict):
        raise ReplyError("expected a JSON object")
    missing = [key for key in ids if key not in value]
    if missing:
        raise ReplyError(f"missing nugget id(s) {', '.join(missing[:5])}")
    wrong = [key for key in ids if value[key] not in IMPORTANCE_LABELS]
    if wrong:
        raise ReplyError(f'expected "vital" or "okay" for {", ".join(wrong[:5])}')
    return {key: value[key] for key in ids}


def _quoted_ids(keys: Any) -> str:
    return ", ".join(f'"{key}"' for key in keys)


TASKS: dict[str, Task] = {
    CREATE: Task(
        CREATE, create_schema, check_create,
        lambda data: {"ids": _quoted_ids(data["documents"]), "limit": str(MAX_PROPOSALS)},
        # room for MAX_PROPOSALS nuggets of a question and two answers each, and the JSON around them
        lambda data: 64 + MAX_PROPOSALS * (estimate_tokens("x" * MAX_QUESTION_CHARS) // 3 + 48),
        template_set=TEMPLATE_SET),
    LABEL: Task(
        LABEL, label_schema, check_label,
        lambda data: {"ids": _quoted_ids(data["nuggets"])},
        lambda data: 24 + 12 * len(data["nuggets"]),
        template_set=TEMPLATE_SET),
}
"""The nugget-creation tasks by name, for ``LLMTasks(judge, cache, registry=TASKS)``."""
