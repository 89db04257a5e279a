"""Everything an assessor or admin changes: answers (verdicts) and the nugget bank, each in one transaction.

An answer is committed before the page moves on. Each post carries what the page showed for each item
(``seen``: the answer then, or none); if the stored answer changed since (the same assessor in another tab),
nothing is written and the assessor is told, rather than one answer silently replacing the other. Two
assessors on one item each keep their own answer (double assessment). Every post is also appended to
``verdict_log``, so a changed answer keeps its history.

Bank edits (create, edit, delete, merge, split nuggets; add, edit, delete answers; bind an answer to a
document, with the selected text's offsets as provenance) are logged in ``history`` with what changed.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..model import IMPORTANCE_LEVELS, Nugget
from .items import Item
from .store import Store, now

__all__ = ["Conflict", "BankError", "Answer", "record_answers", "bank_action", "display_text"]


def display_text(text: str) -> str:
    """A document's text as the page shows it (an HTML parser turns CR LF and CR into LF, and NUL into U+FFFD):
    selection offsets are offsets into this text, in code points."""
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "\ufffd")


class Conflict(Exception):
    """The stored answer is not the one the page showed: someone (another tab) answered in between."""


class BankError(Exception):
    """A bank edit that cannot be made (an unknown nugget, an empty question); shown to the author."""


@dataclass
class Answer:
    item: Item
    value: bool
    seen: bool | None
    """The answer the page showed (``None``: unanswered)."""


def record_answers(store: Store, user: str, role: str, answers: Sequence[Answer], rationale: str | None = None) -> int:
    """Store ``answers`` by ``user`` in one transaction; raise ``Conflict`` if any changed since it was shown."""
    at = now()
    written = 0
    with store.transaction():
        for entry in answers:
            item = entry.item
            stored = store.verdict(item.item_id, user, role)
            current = None if stored is None else stored[0]
            if current != entry.seen:
                shown = "unanswered" if entry.seen is None else ("yes" if entry.seen else "no")
                raise Conflict(f"this item was answered {'yes' if current else 'no'} at {stored[1] if stored else '?'} "
                               f"(perhaps in another tab) while this page showed it {shown}; nothing was saved: "
                               "reload to see it and answer again")
            key = item.key
            suggestion = item.suggestion if role == "assessor" else None
            store.save_verdict({
                "item_id": item.item_id, "user": user, "role": role, "kind": key.kind, "request_id": key.request_id,
                "sentence": item.sentence, "doc_id": key.doc_id, "nugget_id": key.nugget_id, "answer": item.answer,
                "run_id": key.run_id, "sentence_index": key.sentence_index, "value": entry.value,
                "stage": "adjudication" if role == "adjudication" else item.stage, "at": at,
                "rationale": rationale or None,
                "suggested_value": None if suggestion is None else int(suggestion[0]),
                "suggested_judge": None if suggestion is None else suggestion[1], "ord": item.order,
            })
            written += 1
    return written


def _clean(text: str | None, what: str, limit: int = 2000) -> str:
    text = " ".join((text or "").split())
    if not text:
        raise BankError(f"the {what} is empty")
    if len(text) > limit:
        raise BankError(f"the {what} is longer than {limit} characters")
    return text


def _options(form: dict[str, str]) -> tuple[str | None, str, bool]:
    importance = form.get("importance") or None
    if importance not in (None, *IMPORTANCE_LEVELS):
        raise BankError(f"importance must be vital or okay, not {importance!r}")
    aggregator = form.get("aggregator") or "OR"
    if aggregator not in ("OR", "AND"):
        raise BankError(f"aggregator must be OR or AND, not {aggregator!r}")
    return importance, aggregator, form.get("negative") == "1"


def _nugget_of(store: Store, request_id: str, nugget_id: str | None) -> str:
    if not nugget_id or not store.live_nugget(request_id, nugget_id):
        raise BankError(f"no nugget {nugget_id!r} on this topic")
    return nugget_id


def _answer_of(store: Store, request_id: str, answer_id: str | None) -> tuple[int, str]:
    try:
        ident = int(answer_id or "")
    except ValueError:
        raise BankError("no such answer") from None
    nugget_id = store.live_answer(request_id, ident)
    if nugget_id is None:
        raise BankError("no such answer on this topic")
    return ident, nugget_id


def _binding(store: Store, form: dict[str, str]) -> tuple[str, int | None, int | None, str | None] | None:
    """The document (and selected span) an answer is bound to, checked against the stored text."""
    doc_id = form.get("doc_id") or ""
    if not doc_id:
        return None
    document = store.document(doc_id)
    if document is None:
        raise BankError(f"document {doc_id!r} is not in the workbench")
    start_text, end_text = form.get("start", ""), form.get("end", "")
    if not start_text and not end_text:
        return doc_id, None, None, None
    try:
        start, end = int(start_text), int(end_text)
    except ValueError:
        raise BankError("the selection's offsets are not numbers") from None
    text = display_text(document.text)
    if not 0 <= start < end <= len(text):
        raise BankError("the selection is outside the document's text")
    quote = text[start:end]
    if form.get("quote") is not None and form.get("quote") != quote:
        raise BankError("the selection does not match the document's text; select it again")
    return doc_id, start, end, quote


def bank_action(store: Store, request_id: str, user: str, form: dict[str, str]) -> str:
    """Apply one authoring action from a form, in one transaction; return a short message for the page."""
    action = form.get("action", "")
    with store.transaction():
        if action == "create":
            question = _clean(form.get("question"), "question")
            importance, aggregator, negative = _options(form)
            nugget_id = store.new_nugget_id(request_id)
            store.insert_nugget(Nugget(nugget_id, request_id, question, [], importance, aggregator, negative))  # type: ignore[arg-type]
            if form.get("answer"):
                answer_id = store.insert_answer(nugget_id, _clean(form.get("answer"), "answer"))
                binding = _binding(store, form)
                if binding is not None:
                    store.insert_binding(answer_id, *binding, user)
            store.log_history(request_id, nugget_id, user, "create", {"after": store.nugget_snapshot(nugget_id)})
            return f"nugget {nugget_id} added"
        if action == "edit":
            nugget_id = _nugget_of(store, request_id, form.get("nugget_id"))
            before = store.nugget_snapshot(nugget_id)
            importance, aggregator, negative = _options(form)
            store.update_nugget(nugget_id, _clean(form.get("question"), "question"), importance, aggregator, negative)
            store.log_history(request_id, nugget_id, user, "edit", {"before": before,
                                                                      "after": store.nugget_snapshot(nugget_id)})
            return f"nugget {nugget_id} saved"
        if action == "delete":
            nugget_id = _nugget_of(store, request_id, form.get("nugget_id"))
            before = store.nugget_snapshot(nugget_id)
            store.delete_nugget(nugget_id)
            store.log_history(request_id, nugget_id, user, "delete", {"before": before})
            return f"nugget {nugget_id} deleted (kept in the history)"
        if action == "merge":
            target = _nugget_of(store, request_id, form.get("nugget_id"))
            source = _nugget_of(store, request_id, form.get("other_id"))
            if source == target:
                raise BankError("a nugget cannot be merged into itself")
            before = {"into": store.nugget_snapshot(target), "from": store.nugget_snapshot(source)}
            for answer_id in store.live_answer_ids(source):
                store.move_answer(answer_id, target)
            store.delete_nugget(source)
            store.log_history(request_id, target, user, "merge", {"before": before, "merged": source,
                                                                    "after": store.nugget_snapshot(target)})
            return f"nugget {source} merged into {target}"
        if action == "split":
            source = _nugget_of(store, request_id, form.get("nugget_id"))
            chosen = [a for a in form.get("answer_ids", "").split(",") if a]
            moved = [_answer_of(store, request_id, a) for a in chosen]
            if not moved or any(nugget != source for _, nugget in moved):
                raise BankError("tick the answers of this nugget that go to the new nugget")
            before = store.nugget_snapshot(source)
            nugget_id = store.new_nugget_id(request_id)
            question = _clean(form.get("question") or before["question"], "question")
            store.insert_nugget(Nugget(nugget_id, request_id, question, [], before["importance"], before["aggregator"],
                                       before["negative"]))
            for position, (answer_id, _) in enumerate(moved):
                store.move_answer(answer_id, nugget_id, position)
            store.log_history(request_id, source, user, "split", {
                "before": before, "after": store.nugget_snapshot(source), "new": nugget_id,
                "new_after": store.nugget_snapshot(nugget_id)})
            return f"{len(moved)} answer(s) of {source} moved to the new nugget {nugget_id}"
        if action == "add_answer":
            nugget_id = _nugget_of(store, request_id, form.get("nugget_id"))
            before = store.nugget_snapshot(nugget_id)
            binding = _binding(store, form)
            text = form.get("answer") or (binding[3] if binding is not None else None)
            answer_id = store.insert_answer(nugget_id, _clean(text, "answer"))
            if binding is not None:
                store.insert_binding(answer_id, *binding, user)
            store.log_history(request_id, nugget_id, user, "add_answer", {"before": before,
                                                                            "after": store.nugget_snapshot(nugget_id)})
            return f"answer added to {nugget_id}" + (f", bound to {binding[0]}" if binding is not None else "")
        if action in ("bind", "edit_answer", "delete_answer", "unbind"):
            answer_id, nugget_id = _answer_of(store, request_id, form.get("answer_id"))
            before = store.nugget_snapshot(nugget_id)
            if action == "bind":
                binding = _binding(store, form)
                if binding is None:
                    raise BankError("open a document to bind the answer to")
                store.insert_binding(answer_id, *binding, user)
                message = f"answer bound to {binding[0]}"
            elif action == "unbind":
                doc_id = form.get("doc_id") or ""
                store.delete_bindings(answer_id, doc_id)
                message = f"answer no longer bound to {doc_id}"
            elif action == "edit_answer":
                store.update_answer(answer_id, _clean(form.get("answer"), "answer"))
                message = "answer saved"
            else:
                store.delete_answer(answer_id)
                message = "answer deleted (kept in the history)"
            store.log_history(request_id, nugget_id, user, action, {"before": before,
                                                                      "after": store.nugget_snapshot(nugget_id)})
            return message
    raise BankError(f"unknown action {action!r}")
