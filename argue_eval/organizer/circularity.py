"""Circularity flags: runs that may be favoured because they used what the evaluation uses.

A system that generates with the judge's own model, or that saw the evaluation's nuggets or ran its judge
(to rerank, to self-check, to tune), is scored by something it has already optimised for; the RAGTIME 2025
overview warns that such runs may be favoured. The flag is data for the reader of a leaderboard, not a penalty:
every flag names the metadata field and the text that raised it, so an organizer can check it.

Runs are flagged from their metadata (every string value, nested ones included, with its field path):

* ``judge_model``: a value names a judge's model. Names are compared folded (lower case, letters and digits
  only) and by the model's own name without its organisation (``meta-llama/Llama-3.3-70B-Instruct`` is also
  looked for as ``llama3370binstruct``), so ``Llama 3.3 70B Instruct`` matches;
* ``evaluation``: a value mentions one of ``terms`` (by default the evaluation's nugget bank and judge:
  ``DEFAULT_TERMS``), or a field whose name says so (``used_nuggets``, ``uses_judge``, ...) is true.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ..model import natural_key

__all__ = ["DEFAULT_TERMS", "FLAG_COLUMNS", "circularity_flags", "fold"]

DEFAULT_TERMS: tuple[str, ...] = ("nugget", "auto-argue", "autoargue", "argue-eval", "argue eval", "llm judge",
                                  "llm-as-a-judge", "evaluation judge", "judge prompt")
"""What a run's metadata says when it used the evaluation's nuggets or judge (matched case-insensitively)."""

FLAG_COLUMNS = ("run_id", "flag", "field", "evidence")
_FLAG_FIELDS = re.compile(r"(nugget|judge|argue|qrel)", re.IGNORECASE)
_TRUE = {"true", "yes", "1", "y"}


def fold(text: str) -> str:
    """Lower case, letters and digits only: how model names are compared."""
    return re.sub(r"[^0-9a-z]", "", text.lower())


def _model_keys(models: Sequence[str]) -> dict[str, str]:
    keys: dict[str, str] = {}
    for model in models:
        for name in (model, model.rsplit("/", 1)[-1], model.split(":", 1)[-1]):
            key = fold(name)
            if len(key) >= 4:  # a two-letter model name would match half the metadata
                keys.setdefault(key, model)
    return keys


def _strings(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    """Every leaf of a metadata value with its field path (``a.b[2]``)."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from _strings(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, (list, tuple)):
        for position, item in enumerate(value):
            yield from _strings(item, f"{path}[{position}]")
    else:
        yield path, value


def circularity_flags(metadata: Mapping[str, Mapping[str, Any]], judge_models: Sequence[str] = (),
                      terms: Sequence[str] = DEFAULT_TERMS) -> list[tuple[str, str, str, str]]:
    """``(run_id, flag, field, evidence)`` rows, runs in natural order, each flag and field once per run.

    ``metadata``: per run, its metadata (e.g. the first report's, merged with the others'); ``judge_models``: the
    models of the judges that scored the round; ``terms``: what counts as naming the evaluation's resources.
    """
    keys = _model_keys(judge_models)
    lowered = [term.lower() for term in terms if term]
    rows: list[tuple[str, str, str, str]] = []
    for run in sorted(metadata, key=natural_key):
        seen: set[tuple[str, str]] = set()
        for path, value in _strings(metadata[run], ""):
            for flag, evidence in _flags_of(path, value, keys, lowered):
                if (flag, path) not in seen:
                    seen.add((flag, path))
                    rows.append((run, flag, path, evidence))
    return rows


def _flags_of(path: str, value: Any, keys: Mapping[str, str], terms: Sequence[str]) -> Iterator[tuple[str, str]]:
    if isinstance(value, bool) or (isinstance(value, str) and value.strip().lower() in _TRUE):
        if value is not False and _FLAG_FIELDS.search(path.rsplit(".", 1)[-1]):
            yield "evaluation", f"{path} = {value}"
        return
    if not isinstance(value, str):
        return
    folded = fold(value)
    for key, model in keys.items():
        if key in folded:
            yield "judge_model", f"names the judge's model {model}: {_excerpt(value)}"
            break
    lowered = value.lower()
    for term in terms:
        if term in lowered:
            yield "evaluation", f"mentions {term!r}: {_excerpt(value)}"
            break


def _excerpt(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
