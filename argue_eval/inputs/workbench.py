"""A workbench database as a source of judgments, nuggets and reports: a round in progress scored without an
export (``score --nuggets round.sqlite --judgments round.sqlite``).

The database is recognised by its first 16 bytes (every SQLite file starts with ``SQLite format 3\\0``; no
text format does), so ``--judgments`` and ``--nuggets`` take it where they take a file, and ``api.score``,
``api.judge`` and ``api.evaluate`` take its path as they take any other. It is opened read-only, in one read
transaction (a server answering at the same time is neither blocked nor seen half-way).

What is read is exactly what ``assess export-db`` writes (``workbench.exporting.export_round`` calls these
functions): the bank of every topic that has nuggets, with each answer's selections; one judgment per answer
given (``human:NAME``), an adjudicated item's decision after them (``human:NAME:adjudication``, so the later
judgment wins as in a file), answers about nugget answers since edited or deleted left out; in the export's
order. Scoring the database and scoring its export give the same table. Prior judgments given at
``assess init --judgments`` are not repeated: pass that file first, as with the export.

The schema is the workbench's (``workbench/store.py``, the only module that holds SQL); this module reads
through its ``Store`` and never names a table.
"""
from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..model import Judgment, Report, TopicNuggets, normalize_text
from ..workbench.store import Store, is_sqlite_file, order_key, verdict_judgment

__all__ = ["RoundJudgments", "is_workbench_database", "read_bank", "read_round", "round_bank", "round_judgments"]


def is_workbench_database(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is an SQLite file, to be read as a workbench database (any other SQLite file is then
    refused as "not a workbench database", not read as text)."""
    return is_sqlite_file(path)


@dataclass
class RoundJudgments:
    """The judgments of a round, in the export's order, and what the export counts about them."""

    judgments: list[Judgment] = field(default_factory=list)
    by_kind: Counter[str] = field(default_factory=Counter)
    adjudicated: int = 0
    """Items with an adjudicator's decision."""
    unresolved: int = 0
    """Items whose assessors disagree, with no decision: the last assessor's answer (by name) counts."""
    stale: int = 0
    """Answers about a nugget answer since edited or deleted: left out."""

    def notes(self) -> list[str]:
        out = []
        if self.unresolved:
            out.append(f"{self.unresolved} item(s) have assessors who disagree and no adjudication; the last "
                       "assessor's answer (by name) is used for them: adjudicate them in the workbench")
        if self.stale:
            out.append(f"{self.stale} answer(s) about nugget answers since edited or deleted are left out")
        return out


def round_bank(store: Store) -> list[TopicNuggets]:
    """The current bank of every topic that has nuggets, with each binding's selection on its answer."""
    out = []
    for request_id in store.requests():
        topic = store.topic_nuggets(request_id, selections=True)
        if topic.nuggets:
            out.append(topic)
    return out


def round_judgments(store: Store, bank: list[TopicNuggets]) -> RoundJudgments:
    """Every answer given in the workbench as a judgment (see the module docstring), against ``bank``."""
    result = RoundJudgments()
    live = {(n.nugget_id, normalize_text(a.text)) for t in bank for n in t.nuggets for a in n.answers}
    kept = []
    for row in store.verdict_rows():
        if row["kind"] in ("answers", "nugget_agrees") and (row["nugget_id"], normalize_text(row["answer"] or "")) not in live:
            result.stale += 1  # the answer was edited or deleted after this verdict
            continue
        kept.append(row)
    kept.sort(key=lambda r: (order_key(r["ord"]), r["item_id"], r["role"] == "adjudication", r["user"]))
    values: dict[str, set[bool]] = {}
    adjudicated = set()
    for row in kept:
        provenance: dict[str, Any] = {"stage": row["stage"], "time": row["at"]}
        if row["role"] == "adjudication":
            judge = f"human:{row['user']}:adjudication"
            adjudicated.add(row["item_id"])
        else:
            judge = f"human:{row['user']}"
            values.setdefault(row["item_id"], set()).add(row["value"])
        if row["suggested_judge"] is not None:
            provenance["suggested"] = {"judge": row["suggested_judge"], "value": row["suggested_value"]}
        result.judgments.append(verdict_judgment(row, judge, provenance))
        result.by_kind[row["kind"]] += 1
    result.adjudicated = len(adjudicated)
    result.unresolved = sum(1 for item, vals in values.items() if len(vals) > 1 and item not in adjudicated)
    return result


def read_bank(path: str | os.PathLike[str]) -> list[TopicNuggets]:
    """The bank of the workbench database at ``path``, as it stands (``--nuggets W.sqlite``)."""
    store = Store.open(path, read_only=True)
    try:
        return round_bank(store)
    finally:
        store.close()


def read_round(path: str | os.PathLike[str]) -> tuple[list[TopicNuggets], RoundJudgments, list[Report]]:
    """The bank, the judgments and the reports of the workbench database at ``path``, read in one snapshot."""
    store = Store.open(path, read_only=True)
    try:
        with store.snapshot():
            bank = round_bank(store)
            return bank, round_judgments(store, bank), store.reports()
    finally:
        store.close()
