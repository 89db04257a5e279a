"""A scripted stand-in for a model that creates nuggets, for ``tests/llm_server.MockChatServer``.

It answers ``nuggets create``'s two tasks from the prompt's data alone, deterministically: for a create call,
one nugget per document of the batch -- the question "What does <title> report?" and, as the answer, the first
words of the document, bound to that document -- and, when the data lists nuggets so far, the first of them
again with the batch's first document (so that replies merge into earlier nuggets); for a label call, vital
for odd-numbered nuggets and okay for the others. Its nuggets mean nothing about the documents' content: it
exercises the machinery (the bench says so when it runs without a real endpoint), not the quality.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

__all__ = ["data_of", "scripted_reply", "script", "replying", "write_track", "DOCUMENTS", "REQUESTS"]


def data_of(body: dict[str, Any]) -> dict[str, Any]:
    """The prompt's quoted data block, parsed."""
    text = body["messages"][1]["content"]
    return json.loads(text[text.index("<data>\n") + 7:text.index("\n</data>")])


def _schema(body: dict[str, Any]) -> dict[str, Any]:
    fmt = body.get("response_format") or {}
    return (fmt.get("json_schema") or {}).get("schema") or fmt.get("schema") or {}


def scripted_reply(data: dict[str, Any]) -> dict[str, Any]:
    """The reply to one create or label call's data (see the module docstring)."""
    if "documents" in data:
        nuggets = []
        for label, document in data["documents"].items():
            words = document["text"].split()[:8]
            title = document["title"] or label
            nuggets.append({"question": f"What does {title} report?",
                            "answers": [{"answer": " ".join(words), "documents": [label]}]})
        so_far = data.get("nuggets_so_far") or []
        if so_far and data["documents"]:
            first = next(iter(data["documents"]))
            words = data["documents"][first]["text"].split()[:4]
            nuggets.append({"question": so_far[0]["question"],
                            "answers": [{"answer": " ".join(words), "documents": [first]}]})
        return {"nuggets": nuggets}
    return {key: "vital" if int(key[1:]) % 2 else "okay" for key in data["nuggets"]}


def replying(answer: Callable[[dict[str, Any], dict[str, Any]], Any]) -> Callable[[int, dict[str, Any]], tuple]:
    """A ``MockChatServer`` script replying ``answer(data, body)`` (a JSON-able value, or raw text)."""

    def reply(number: int, body: dict[str, Any]) -> tuple:
        value = answer(data_of(body), body)
        return ("content", value if isinstance(value, str) else json.dumps(value))

    return reply


script = replying(lambda data, body: scripted_reply(data))
"""The scripted model as a ``MockChatServer`` script."""


# --- a tiny track to create nuggets for ------------------------------------------------------------------------

DOCUMENTS = [
    {"doc_id": "d1", "title": "Boil-water notice", "text": "E. coli was found in the tap water of Ridgefield on 3 March "
     "2025. The town issued a boil-water notice."},
    {"doc_id": "d2", "title": "Hospital admissions", "text": "E. coli made 37 people so ill that they were admitted to "
     "hospital in Ridgefield."},
    {"doc_id": "d3", "title": "Notice lifted", "text": "Thirty-seven people had been hospitalized when the boil-water "
     "notice was lifted on 12 March 2025."},
    {"doc_id": "d4", "title": "Harrow Ridge fire", "text": "A faulty power line started the Harrow Ridge fire."},
]
REQUESTS = [
    {"request_id": "t1", "title": "Ridgefield water contamination", "background": "A resident.",
     "problem_statement": "What contaminated Ridgefield's water, and who was harmed?"},
    {"request_id": "t2", "title": "Harrow Ridge fire", "background": "", "problem_statement": "What started the fire?"},
]


def write_track(folder: Any) -> dict[str, str]:
    """The tiny track in ``folder``: requests, collection, a pool (t1: d1 d2 d3; t2: d4); paths by name."""
    from pathlib import Path

    folder = Path(folder)
    files = {"requests": REQUESTS, "collection": DOCUMENTS}
    paths = {}
    for name, records in files.items():
        path = folder / f"{name}.jsonl"
        path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
        paths[name] = str(path)
    pool = folder / "pool.qrels"
    pool.write_text("t1 0 d1 -1\nt1 0 d2 -1\nt1 0 d3 -1\nt2 0 d4 -1\n", encoding="utf-8")
    paths["pool"] = str(pool)
    return paths
