"""JSON Schemas (draft 2020-12) of the canonical files: what ``argue-eval schema KIND`` prints.

Other tools (a participant's pipeline, a track's submission site, a notebook) can check a file against the schema
without argue-eval; the schema says what our canonical writers write and what our readers take as canonical, one
line of a JSON Lines file at a time. Readers are more forgiving than the schema (an id given as a JSON number is read
as its text, with a warning; RAGTIME's ``{doc_id: score}`` citations are another format), and cross-line rules (a
request id repeated, a citation outside ``references``) are ``validate``'s, not a schema's. Fields a schema does not
name are allowed everywhere: the readers keep them and the writers write them back.

``tests/test_schemas.py`` validates every shipped example (the fixtures, the sample track, the examples of
docs/formats.md) and the canonical writers' output against these schemas.
"""
from __future__ import annotations

import copy
from typing import Any

__all__ = ["SCHEMAS", "schema"]

_DRAFT = "https://json-schema.org/draft/2020-12/schema"
_BASE = "https://argue-eval.invalid/schemas/"  # a name for each schema, not a place to fetch it from

_ID = {
    "type": "string", "minLength": 1, "pattern": r"\S",
    "not": {"pattern": "[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]"},
    "description": "an id: a non-empty string without control characters (ids like 2024-105741 stay strings)",
}
_IDS = {"type": "array", "items": {"$ref": "#/$defs/id"}}
_TEXT = {"type": "string"}

_REQUESTS = {
    "title": "argue-eval canonical requests (one JSON object per line)",
    "type": "object",
    "required": ["request_id"],
    "properties": {
        "request_id": {"$ref": "#/$defs/id"},
        "title": {"type": ["string", "null"]},
        "background": {"type": ["string", "null"]},
        "problem_statement": {"type": ["string", "null"]},
        "limit": {"type": ["integer", "null"], "minimum": 1, "description": "the report's length limit"},
        "limit_unit": {"enum": ["chars", "words"], "description": "what the limit counts (default chars)"},
        "collection_ids": {**_IDS, "description": "the collections the report is drawn from"},
        "language": {"type": ["string", "null"]},
        "aspects": {"type": "array", "items": _TEXT, "description": "subtopics (ICAT's aspects)"},
    },
}

_ANSWER = {
    "type": "object",
    "required": ["answer"],
    "properties": {
        "answer": _TEXT,
        "doc_ids": {**_IDS, "description": "the documents that attest this answer"},
    },
}

_NUGGET = {
    "type": "object",
    "required": ["question"],
    "properties": {
        "nugget_id": {"$ref": "#/$defs/id", "description": "default: the question text"},
        "question": _TEXT,
        "importance": {"enum": ["vital", "okay", None], "description": "null: unlabelled"},
        "aggregator": {"enum": ["OR", "AND"], "description": "OR: one bound answer is enough; AND: every one"},
        "negative": {"type": "boolean", "description": "the nugget records an absence"},
        "answers": {"type": "array", "items": {"$ref": "#/$defs/answer"}},
    },
}

_NUGGETS = {
    "title": "argue-eval canonical nuggets (one topic per line)",
    "type": "object",
    "required": ["request_id", "nuggets"],
    "properties": {
        "request_id": {"$ref": "#/$defs/id"},
        "nuggets": {"type": "array", "items": {"$ref": "#/$defs/nugget"}},
    },
}

_SENTENCE = {
    "type": "object",
    "required": ["text"],
    "properties": {
        "text": _TEXT,
        "citations": {"type": ["array", "null"], "items": {"$ref": "#/$defs/id"},
                      "description": "document ids, in order (a document may be cited twice)"},
        "citation_scores": {"type": ["array", "null"], "items": {"type": "number"},
                            "description": "parallel to citations"},
    },
}

_RUNS = {
    "title": "argue-eval canonical runs (one report per line; a NeuCLIR 2024 run is one without the optional fields)",
    "type": "object",
    "required": ["run_id", "request_id", "sentences"],
    "properties": {
        "run_id": {"$ref": "#/$defs/id"},
        "request_id": {"$ref": "#/$defs/id"},
        "collection_ids": {"type": ["array", "null"], "items": {"$ref": "#/$defs/id"}},
        "sentences": {"type": "array", "items": {"$ref": "#/$defs/sentence"}},
        "references": {"type": ["array", "null"], "items": {"$ref": "#/$defs/id"}},
        "metadata": {"type": ["object", "null"]},
    },
}

_KINDS = ["relevant", "answers", "attested", "negative", "nugget_agrees", "requires_citation", "first_instance"]


def _needs(kinds: list[str], fields: dict[str, Any]) -> dict[str, Any]:
    return {"if": {"properties": {"kind": {"enum": kinds}}, "required": ["kind"]},
            "then": {"required": list(fields), "properties": fields}}


_JUDGMENTS = {
    "title": "argue-eval canonical judgments (one answered question per line)",
    "type": "object",
    "required": ["kind", "request_id", "sentence", "value", "judge"],
    "properties": {
        "kind": {"enum": _KINDS},
        "request_id": {"$ref": "#/$defs/id"},
        "sentence": _TEXT,
        "doc_id": {"anyOf": [{"$ref": "#/$defs/id"}, {"type": "null"}]},
        "nugget_id": {"anyOf": [{"$ref": "#/$defs/id"}, {"type": "null"}]},
        "answer": {"type": ["string", "null"]},
        "run_id": {"anyOf": [{"$ref": "#/$defs/id"}, {"type": "null"}]},
        "sentence_index": {"type": ["integer", "null"], "minimum": 0},
        "value": {"type": "boolean"},
        "judge": {"type": "string", "minLength": 1, "description": "e.g. human:assessor3, lexical, llm:<model>"},
        "confidence": {"type": ["number", "null"]},
        "rationale": {"type": ["string", "null"]},
        "provenance": {"type": ["object", "null"]},
    },
    "allOf": [
        _needs(["relevant", "attested"], {"doc_id": {"$ref": "#/$defs/id"}}),
        _needs(["answers", "nugget_agrees"], {"nugget_id": {"$ref": "#/$defs/id"}}),
        _needs(["requires_citation", "first_instance"],
               {"run_id": {"$ref": "#/$defs/id"}, "sentence_index": {"type": "integer", "minimum": 0}}),
    ],
}

_COLLECTION = {
    "title": "a JSON Lines document collection (one document per line; the id field as on the first line)",
    "type": "object",
    "anyOf": [{"required": [name]} for name in ("doc_id", "docid", "id", "_id")],
    "properties": {
        **{name: {"$ref": "#/$defs/id"} for name in ("doc_id", "docid", "id", "_id")},
        "title": {"type": ["string", "null"]},
        "text": {"type": "string"},
        "contents": {"type": "string"},
        "body": {"type": "string"},
    },
}

SCHEMAS: dict[str, tuple[str, dict[str, Any], dict[str, Any]]] = {
    "requests": ("report requests (topics), --format argue", _REQUESTS, {}),
    "nuggets": ("nugget banks, --format argue", _NUGGETS, {"nugget": _NUGGET, "answer": _ANSWER}),
    "runs": ("report runs, --format argue (NeuCLIR 2024 runs too)", _RUNS, {"sentence": _SENTENCE}),
    "judgments": ("judgments, --format argue", _JUDGMENTS, {}),
    "collection": ("documents of a JSONL collection", _COLLECTION, {}),
}
"""Kind -> (what the file holds, the line's schema, the definitions it refers to)."""


def schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of one line of a canonical ``kind`` file (``SCHEMAS``); an unknown kind is an ``OptionError``
    naming the known ones."""
    if kind not in SCHEMAS:
        from ..errors import unknown_name

        raise unknown_name("KIND", "schema", kind, list(SCHEMAS))
    _, body, definitions = SCHEMAS[kind]
    out: dict[str, Any] = {"$schema": _DRAFT, "$id": f"{_BASE}{kind}.json"}
    out.update(copy.deepcopy(body))
    out["$defs"] = {"id": dict(_ID), **copy.deepcopy(definitions)}
    return out
