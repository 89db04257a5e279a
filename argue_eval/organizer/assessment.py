"""The human assessment loop: export the judgments scoring still lacks, import the assessors' answers.

``export_pool`` runs the same flowchart as ``score`` over every report, in "explore" mode: where an
answer is missing, both of its branches are followed, so one round of assessment is always enough to
score (items that only matter under a given answer of another item say so in ``needed_if``; assessors
may leave those blank). Items are deduplicated by judgment identity, so a sentence that cites the same
document in ten runs is one item (``occurrences`` says how often it occurs).

Each item carries a stable ``item_id`` (derived from the judgment identity) and a ``hash`` of the fields
that define the question (kind, request, sentence, document, nugget, answer, run, sentence index) as
exported. ``import_pool`` recomputes both and rejects an item whose question was edited, and any answer
other than yes/no, with ``FILE:LINE: field: message``. The hash detects accidental edits in a
spreadsheet; it is not a signature.
"""
from __future__ import annotations

import csv
import hashlib
import json
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from .. import csvsafe
from ..argue.api import Evaluation
from ..argue.questions import KIND_ORDER, PendingQuestion, list_questions
from ..errors import InputError, OptionError
from ..judges.base import JudgmentLookup, make_key
from ..model import JUDGMENT_KINDS, Judgment, JudgmentKey, Location, Report, normalize_text
from ..reading import iter_jsonl, open_binary, text_lines
from ..writing import atomic_writer, write_jsonl

__all__ = ["PROMPTS", "CSV_COLUMNS", "export_pool", "write_pool", "read_pool", "import_pool", "ImportSummary",
           "item_id_for", "question_hash"]

PROMPTS: dict[str, str] = {
    "relevant": "Is the cited document relevant to the request: does it hold information the requester needs?",
    "answers": "Does the sentence give this answer to the nugget question (as the cited document attests it)?",
    "attested": "Does the cited document support everything the sentence claims?",
    "negative": "Is the sentence a negative assertion (it says something is absent, unknown or not the case)?",
    "nugget_agrees": "Does this negative nugget (question and answer) agree with the sentence's negative assertion?",
    "requires_citation": ("Does the sentence make a claim that needs a citation (not an introduction, a restatement "
                          "of the request, or a summary of earlier cited sentences)?"),
    "first_instance": "Is this the first time the report makes this claim (no earlier sentence already made it)?",
}
_ANSWERS_NO_DOC = "Does the sentence give this answer to the nugget question?"

CSV_COLUMNS: tuple[str, ...] = (
    "item_id", "kind", "question", "judgment", "rationale",
    "request_id", "request_title", "request_text",
    "run_id", "sentence_index", "previous_sentence", "sentence", "next_sentence", "earlier_sentences",
    "doc_id", "doc_title", "doc_text",
    "nugget_id", "nugget_question", "nugget_answer", "nugget_answers",
    "needed_if", "occurrences", "hash",
)
_LIST_SEPARATOR = " | "


def _digest(values: list[Any]) -> str:
    return hashlib.sha256(json.dumps(values, ensure_ascii=False, separators=(",", ":")).encode("utf-8")).hexdigest()


def item_id_for(key: JudgmentKey) -> str:
    """Stable id of a judgment: the same question gets the same id in every export."""
    return "q" + _digest(list(key))[:15]


def question_hash(kind: str, request_id: str, sentence: str, doc_id: str | None, nugget_id: str | None,
                  nugget_answer: str | None, run_id: str | None, sentence_index: int | None) -> str:
    """Integrity hash of the fields that define an item's question, exactly as exported."""
    return _digest([kind, request_id, sentence, doc_id, nugget_id, nugget_answer, run_id, sentence_index])[:20]


def export_pool(
    reports: Iterable[Report],
    evaluation: Evaluation,
    source: JudgmentLookup,
    collection: Any = None,
) -> list[dict[str, Any]]:
    """Every judgment scoring these reports would need and ``source`` lacks, one item per judgment identity.

    Where an unanswered question decides the path, both branches' questions are listed (with
    ``needed_if``), so one round of assessment is always enough (``argue.questions``, ``unknown="both"``).
    """
    pending = list_questions(reports, evaluation, source, unknown="both")
    documents: dict[str, Any] = {}
    if collection is not None:
        wanted = sorted({item.key.doc_id for item in pending if item.key.doc_id is not None})
        for doc_id in wanted:
            documents[doc_id] = collection.lookup(doc_id)
    return [_item_record(item, evaluation, documents) for item in pending]


def _condition(dependent: str, gate: str) -> str:
    """The answer of ``gate`` under which an item of kind ``dependent`` is needed."""
    if gate == "negative" and dependent in ("requires_citation", "first_instance"):
        return "no"
    return "yes"


def _item_record(item: PendingQuestion, evaluation: Evaluation, documents: dict[str, Any]) -> dict[str, Any]:
    key = item.key
    sentence = item.sentence
    request = evaluation.requests.get(key.request_id)
    topic = evaluation.topics[key.request_id]
    unit = item.unit
    scored = topic.nuggets[unit.nugget_index] if unit is not None else None
    nugget_answer = unit.text if unit is not None else None
    document = documents.get(key.doc_id) if key.doc_id is not None else None
    prompt = PROMPTS[key.kind] if not (key.kind == "answers" and key.doc_id is None) else _ANSWERS_NO_DOC
    request_text = ""
    if request is not None:
        request_text = "\n\n".join(part for part in (request.background, request.problem_statement) if part)
    needed_if = [
        {"item_id": item_id_for(gate), "answer": _condition(key.kind, gate.kind)}
        for gate in sorted(item.gates, key=lambda g: (KIND_ORDER[g.kind], item_id_for(g)))
    ]
    return {
        "item_id": item_id_for(key),
        "kind": key.kind,
        "question": prompt,
        "judgment": "",
        "rationale": "",
        "request_id": key.request_id,
        "request_title": request.title if request is not None else "",
        "request_text": request_text,
        "run_id": key.run_id,
        "sentence_index": key.sentence_index,
        "previous_sentence": item.previous,
        "sentence": sentence,
        "next_sentence": item.following,
        "earlier_sentences": list(item.earlier),
        "doc_id": key.doc_id,
        "doc_title": document.title if document is not None else None,
        "doc_text": document.text if document is not None else None,
        "nugget_id": key.nugget_id,
        "nugget_question": scored.nugget.question if scored is not None else None,
        "nugget_answer": nugget_answer,
        "nugget_answers": [u.text for u in scored.units if u.text is not None] if scored is not None else [],
        "needed_if": needed_if,
        "occurrences": item.occurrences,
        "hash": question_hash(key.kind, key.request_id, sentence, key.doc_id, key.nugget_id, nugget_answer,
                              key.run_id, key.sentence_index),
    }


def _is_csv(path: str | PathLike[str], csv_flag: bool | None = None) -> bool:
    return csv_flag if csv_flag is not None else Path(path).suffix.lower() == ".csv"


def write_pool(items: list[dict[str, Any]], path: str | PathLike[str], as_csv: bool | None = None) -> int:
    """Write the pool as JSONL (one item per line) or CSV (``as_csv``, or a ``.csv`` name); atomically."""
    if not _is_csv(path, as_csv):
        return write_jsonl(path, items)
    with atomic_writer(path) as handle:
        writer = csvsafe.writer(handle)
        writer.writerow(CSV_COLUMNS)
        for item in items:
            writer.writerow([_csv_cell(name, item.get(name)) for name in CSV_COLUMNS])
    return len(items)


# A CSV pool is opened in a spreadsheet and its cells hold untrusted report text: ``csvsafe`` quotes every
# cell and guards formula-like starts; the round trip gives back exactly the exported text (which the
# integrity hash checks).


def _csv_cell(name: str, value: Any) -> str:
    if value is None:
        return ""
    if name == "needed_if":
        text = _LIST_SEPARATOR.join(f"{c['item_id']}={c['answer']}" for c in value)
    elif isinstance(value, list):
        text = _LIST_SEPARATOR.join(str(v) for v in value)
    else:
        text = str(value)
    return csvsafe.guard(text)


def _csv_value(text: str) -> str | None:
    """A CSV cell as exported: blank is ``None``; the apostrophe that guarded a formula-like cell is removed."""
    if text == "":
        return None
    return csvsafe.unguard(text)


def read_pool(path: str | PathLike[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Filled pool items as ``(line, item)``: JSONL, or CSV (by ``.csv`` name or content); a BOM is tolerated."""
    path = Path(path)
    if not path.exists():
        raise InputError(path, None, None, "no such file")
    if path.is_dir():
        raise InputError(path, None, None, "is a directory; expected a filled assessment pool (JSONL or CSV)")
    with open_binary(path) as handle:  # a pipe is read once (reading.spooled), then from memory
        head = handle.read(4096).lstrip(b"\xef\xbb\xbf").lstrip()
    if not head:
        raise InputError(path, None, None, "file is empty; expected a filled assessment pool (JSONL or CSV)")
    if path.suffix.lower() != ".csv" and head.startswith(b"{"):
        yield from iter_jsonl(path)
        return
    yield from _read_csv(path)


def _not_utf8(path: Path) -> InputError:
    """The located error for a pool that is not UTF-8 (the decoder reads in blocks, so the line is found here)."""
    with open_binary(path) as handle:
        for lineno, raw in enumerate(handle, start=1):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as error:
                return InputError(path, lineno, None, f"not valid UTF-8 (byte {error.start + 1} of the line); "
                                  "save the pool as UTF-8")
    return InputError(path, None, None, "not valid UTF-8; save the pool as UTF-8")


def _read_csv(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    with csvsafe.long_cells(), closing(text_lines(path)) as lines:  # a cited document's text is one cell
        reader = csv.DictReader(lines)
        row_start = 2
        try:
            header = reader.fieldnames or []
            absent = [name for name in ("item_id", "kind", "judgment", "hash") if name not in header]
            if absent:
                raise InputError(path, 1, None, f"not an assessment pool: the header lacks {', '.join(absent)}")
            for row in reader:
                extra = row.get(None)
                if extra:  # a shifted row (a cell split in two) must not be read as the wrong columns
                    raise InputError(path, row_start, None, f"{len(extra)} more cell(s) than the header's "
                                     f"{len(header)} columns; was a cell split by an unquoted comma?")
                yield row_start, {name: _csv_value(value or "") for name, value in row.items() if name}
                row_start = reader.line_num + 1
        except UnicodeDecodeError:
            raise _not_utf8(path) from None
        except csv.Error as error:
            raise InputError(path, row_start, None, f"not readable as CSV: {error}") from None


@dataclass
class ImportSummary:
    judgments: list[Judgment]
    answered: Counter[str] = field(default_factory=Counter)
    unanswered: int = 0


_TEXT_FIELDS = ("kind", "request_id", "sentence", "doc_id", "nugget_id", "nugget_answer", "run_id")


def _answer(value: Any, path: str, line: int) -> bool | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        text = value.strip().lower()
        if text == "":
            return None
        if text in ("yes", "no"):
            return text == "yes"
    raise InputError(path, line, "judgment", f"expected yes or no, found {value!r}")


def import_pool(path: str | PathLike[str], assessor: str) -> ImportSummary:
    """Turn a filled pool into canonical judgments with ``judge = human:<assessor>``.

    Items left blank are skipped (counted in ``unanswered``); an item whose question fields no longer match
    its hash or id, an unknown kind, or an answer other than yes/no is an error naming file, line and field.
    """
    assessor = assessor.strip()
    if not assessor:
        raise OptionError("--assessor", "give the assessor's name (judgments get judge = human:NAME)")
    control = next((c for c in assessor if unicodedata.category(c)[0] == "C"), None)
    if control is not None:
        # a name goes into every judgment's judge field and from there into tables and terminals
        raise OptionError("--assessor", f"expected a name without control characters, found {control!r} in "
                          f"{assessor!r}")
    name = str(path)
    judge = f"human:{assessor}"
    seen: dict[str, tuple[bool, int]] = {}
    summary = ImportSummary([])
    for line, item in read_pool(path):
        for required in ("item_id", "hash"):
            if not isinstance(item.get(required), str):
                raise InputError(name, line, required, "missing: not an exported assessment item (write a pool with "
                                 "`argue-eval assess export`, fill its judgment fields, and import that)")
        fields: dict[str, Any] = {}
        for field_name in _TEXT_FIELDS:
            value = item.get(field_name)
            if value is not None and not isinstance(value, str):
                raise InputError(name, line, field_name, f"expected a string, found {type(value).__name__}")
            fields[field_name] = value
        kind = fields["kind"]
        if kind not in JUDGMENT_KINDS:
            raise InputError(name, line, "kind", f"expected one of {', '.join(JUDGMENT_KINDS)}, found {kind!r}")
        if not fields["request_id"] or fields["sentence"] is None:
            raise InputError(name, line, "request_id" if not fields["request_id"] else "sentence",
                             "missing; this is not an exported assessment item")
        raw_index = item.get("sentence_index")
        try:
            index = int(raw_index) if raw_index not in (None, "") else None
        except (TypeError, ValueError):
            raise InputError(name, line, "sentence_index", f"expected an integer, found {raw_index!r}") from None
        expected_hash = question_hash(kind, fields["request_id"], fields["sentence"], fields["doc_id"],
                                      fields["nugget_id"], fields["nugget_answer"], fields["run_id"], index)
        item_id = item.get("item_id")
        if item.get("hash") != expected_hash:
            raise InputError(
                name, line, "hash",
                f"item {item_id} was altered: its question fields (kind, request_id, sentence, doc_id, nugget_id, "
                "nugget_answer, run_id, sentence_index) no longer match its integrity hash; restore them from the "
                "exported pool and answer only the judgment column",
            )
        key = make_key(kind, fields["request_id"], normalize_text(fields["sentence"]), fields["doc_id"],
                       fields["nugget_id"], fields["nugget_answer"], fields["run_id"], index)
        if item_id != item_id_for(key):
            raise InputError(name, line, "item_id", f"item id {item_id!r} does not belong to this question "
                             "(ids are derived from the question); restore it from the exported pool")
        value = _answer(item.get("judgment"), name, line)
        if value is None:
            summary.unanswered += 1
            continue
        previous = seen.get(item_id)
        if previous is not None:
            if previous[0] != value:
                raise InputError(name, line, "judgment", f"item {item_id} is answered {'yes' if value else 'no'} "
                                 f"here and {'yes' if previous[0] else 'no'} at line {previous[1]}")
            continue
        seen[item_id] = (value, line)
        rationale = item.get("rationale")
        summary.judgments.append(Judgment(
            kind=kind,
            request_id=fields["request_id"],
            sentence=fields["sentence"],
            value=value,
            judge=judge,
            doc_id=fields["doc_id"],
            nugget_id=fields["nugget_id"],
            answer=fields["nugget_answer"],
            run_id=fields["run_id"],
            sentence_index=index,
            rationale=rationale if isinstance(rationale, str) and rationale.strip() else None,
            source=Location(name, line),
        ))
        summary.answered[kind] += 1
    return summary
