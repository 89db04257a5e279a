"""The assessment pool as files: what people judge outside the workbench (``assess export``), and their filled
answers back as judgments (``assess import``).

``organizer.assessment`` builds and reads the items; these functions assemble its inputs from the files a
command names (the runs, the bank, the judgments already made, the collection whose texts the items quote) and
write what it returns, so that ``commands/assess.py`` only parses, calls and renders.
"""
from __future__ import annotations

from collections.abc import Sequence
from os import PathLike
from typing import Any

from .result import Note, Result

__all__ = ["export_assessment_pool", "write_assessment_pool", "import_assessment_pool", "write_human_judgments"]

PathArg = str | PathLike[str]


def export_assessment_pool(runs: Sequence[PathArg], nuggets: PathArg, *, judgments: Sequence[PathArg] = (),
                           requests: PathArg | None = None, qrels: PathArg | None = None,
                           collection: PathArg | None = None, **policies: Any) -> Result:
    """The questions a round on ``runs`` still needs answered, one item each (``organizer.assessment.export_pool``),
    with the cited documents' texts from ``collection`` when given. ``rows``: the items (dicts, in pool order);
    ``notes``: the evaluation's notes; ``counts``: ``items``, ``conditional`` (asked only if another answer
    says so) and per-kind ``kinds``. ``policies``: keywords of ``argue.policies.Policies``."""
    from collections import Counter

    from ..argue.policies import make_policies
    from ..inputs import load_inputs
    from ..organizer.assessment import export_pool

    inputs = load_inputs(list(runs), nuggets, list(judgments), requests, qrels, make_policies(**policies))
    store = None
    if collection:
        from ..collection import open_collection

        store = open_collection(collection)
    try:
        items = export_pool(inputs.reports(), inputs.evaluation, inputs.source, store)
    finally:
        if store is not None:
            store.close()
    by_kind = Counter(item["kind"] for item in items)
    return Result("assess export", items, notes=[Note(str(note)) for note in inputs.evaluation.notes],
                  counts={"items": len(items), "conditional": sum(1 for item in items if item["needed_if"]),
                          "kinds": dict(sorted(by_kind.items()))})


def write_assessment_pool(items: list[dict[str, Any]], output: PathArg, as_csv: bool | None = None) -> int:
    """The pool as JSONL, or CSV (``as_csv``, or a ``.csv`` name) with every cell guarded; atomically. The count."""
    from ..organizer.assessment import write_pool

    return write_pool(items, output, as_csv)


def import_assessment_pool(filled: PathArg, assessor: str) -> Any:
    """A filled pool (JSONL or CSV) read back: ``organizer.assessment.ImportSummary`` (the judgments, by
    ``human:<assessor>``, the answered count per kind, the items left blank)."""
    from ..organizer.assessment import import_pool

    return import_pool(filled, assessor)


def write_human_judgments(judgments: Sequence[Any], output: PathArg) -> int:
    """Canonical judgments JSONL, atomically; the count."""
    from pathlib import Path

    from ..formats.judgments import write_argue

    return write_argue(judgments, Path(output))
