"""nuggetizer assignment output (castorini/nuggetizer ``assign``): one answer per line with its graded nuggets.

``{"qid": ..., "run_id": ..., "query": ..., "answer_text": ..., "nuggets": [{"text": ..., "importance":
"vital"|"okay", "assignment": "support"|"partial_support"|"not_support"}]}``. nuggetizer writes ``failed``
where its LLM could not grade a nugget (importance or assignment); those become ``None`` here and the
scorer keeps them apart. A line without ``run_id`` takes the file's name (without extensions) as run.
"""
from __future__ import annotations

from collections.abc import Iterator
from os import PathLike
from pathlib import Path
from typing import NamedTuple

from ..errors import InputError, id_control_character
from ..model import Assigned
from ..reading import iter_jsonl

__all__ = ["Assigned", "AssignedAnswer", "read_assignments", "ASSIGNMENTS"]

ASSIGNMENTS = ("support", "partial_support", "not_support")



_UNLABELLED = {"failed", "na", ""}


class AssignedAnswer(NamedTuple):
    run_id: str
    request_id: str
    nuggets: list[Assigned]
    path: str
    line: int


def _label(path: Path, line: int, field: str, value: object, allowed: tuple[str, ...]) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InputError(path, line, field, f"expected a string ({', '.join(allowed)} or failed), found {value!r}")
    lowered = value.strip().lower()
    if lowered in _UNLABELLED:
        return None
    if lowered not in allowed:
        raise InputError(path, line, field, f"expected one of {', '.join(allowed)} (or failed), found {value!r}")
    return lowered


def read_assignments(path: str | PathLike[str]) -> Iterator[AssignedAnswer]:
    path = Path(path)
    default_run = path.name.split(".")[0]
    answers = 0
    for line, record in iter_jsonl(path):
        qid = record.get("qid", record.get("request_id"))
        if not isinstance(qid, (str, int)) or isinstance(qid, bool) or str(qid).strip() == "":
            raise InputError(path, line, "qid", "expected the topic id (a string)")
        run_id = record.get("run_id", default_run)
        if not isinstance(run_id, str) or not run_id.strip():
            raise InputError(path, line, "run_id", "expected a non-empty string")
        for field, ident in (("qid", str(qid)), ("run_id", run_id)):
            bad = id_control_character(ident)
            if bad is not None:
                raise InputError(path, line, field, f"id contains the control character {bad}; ids must be "
                                 "printable text")
        nuggets = record.get("nuggets")
        if not isinstance(nuggets, list):
            raise InputError(path, line, "nuggets", "expected a list of {text, importance, assignment}")
        assigned = []
        for index, nugget in enumerate(nuggets):
            where = f"nuggets[{index}]"
            if not isinstance(nugget, dict) or not isinstance(nugget.get("text"), str):
                raise InputError(path, line, where, "expected an object with a text")
            assigned.append(Assigned(
                nugget["text"],
                _label(path, line, where + ".importance", nugget.get("importance"), ("vital", "okay")),
                _label(path, line, where + ".assignment", nugget.get("assignment"), ASSIGNMENTS),
            ))
        answers += 1
        yield AssignedAnswer(run_id, str(qid), assigned, str(path), line)
    if not answers:  # a score table of nothing would look like a result
        raise InputError(path, None, None, "no assignments (the file is empty); expected nuggetizer's assignment "
                         "output, one answer per line")
