"""What leaves the workbench: the canonical nugget bank and judgments (``assess export-db``), the progress
table (``assess status``) and the items that need an adjudicator.

Judgments are written one line per answer: each assessor's answer (``judge = human:NAME``) and, for an
adjudicated item, the adjudicator's decision last (``judge = human:NAME:adjudication``), so ``score``, which
lets a later line for the same question win, scores the adjudicated answer, and ``agree-judgments`` can
compare any two assessors or an assessor and a judge. Each line's ``provenance`` records the stage, the
time and, where a judge's suggestion was shown, that suggestion (so judge-vs-human agreement per kind
falls out of the file). The order is fixed (topic, report position, kind, item, then assessor), so a rerun
writes the same bytes.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..formats.judgments import judgment_to_dict
from ..formats.nuggets import topic_to_argue
from ..inputs.workbench import round_bank, round_judgments
from ..model import JudgmentKey, natural_key
from ..stats.judgment_agreement import cohen_kappa
from ..writing import commit_together, write_jsonl
from .items import key_of_row, topic_items
from .stages import ASSESSMENT_STAGES, AUTHORING
from .store import Store

__all__ = ["ExportSummary", "export_round", "status_rows", "agreement_rows", "suggestion_rows", "adjudication_queue"]


@dataclass
class ExportSummary:
    topics: int = 0
    nuggets: int = 0
    judgments: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    adjudicated: int = 0
    unresolved: int = 0
    stale: int = 0


def export_round(store: Store, nuggets_out: str | Path, judgments_out: str | Path) -> ExportSummary:
    """Write the bank and the judgments together (both or neither): what ``score`` reads from the database
    itself (``inputs.workbench``), as files."""
    with store.snapshot():
        topics = round_bank(store)
        answers = round_judgments(store, topics)
    with commit_together():
        write_jsonl(nuggets_out, (topic_to_argue(t) for t in topics))
        write_jsonl(judgments_out, (judgment_to_dict(j) for j in answers.judgments))
    return ExportSummary(topics=len(topics), nuggets=sum(len(t.nuggets) for t in topics),
                         judgments=len(answers.judgments), by_kind=answers.by_kind, adjudicated=answers.adjudicated,
                         unresolved=answers.unresolved, stale=answers.stale)


def status_rows(store: Store) -> list[list[str | None]]:
    """Progress per topic, stage and assessor: ``topic, assessor, stage, done, open``."""
    rows: list[list[str | None]] = []
    assignments = store.all_assignments()
    for request_id in store.requests():
        pool = store.pool(request_id)
        for user in assignments.get(request_id, []):
            seen = len(store.seen(request_id, user))
            nuggets = len(store.topic_nuggets(request_id).nuggets)
            rows.append([request_id, user, AUTHORING.name, f"{seen} of {len(pool)} documents read",
                         f"{nuggets} nugget(s) in the bank"])
            items = topic_items(store, request_id, user)
            for stage in ASSESSMENT_STAGES:
                done, open_ = items.counts(stage.name)
                rows.append([request_id, user, stage.name, str(done), str(open_)])
    return rows


def agreement_rows(store: Store) -> list[list[str | None]]:
    """Agreement of each pair of assessors on the items both answered, per kind (double-assessed topics)."""
    by_item: dict[str, dict[str, tuple[str, bool]]] = {}
    for row in store.verdict_rows(role="assessor"):
        by_item.setdefault(row["item_id"], {})[row["user"]] = (row["kind"], row["value"])
    tables: dict[tuple[str, str, str], Counter[tuple[bool, bool]]] = {}
    for answers in by_item.values():
        users = sorted(answers)
        for i, a in enumerate(users):
            for b in users[i + 1:]:
                kind = answers[a][0]
                for label in (kind, "all"):
                    tables.setdefault((a, b, label), Counter())[(answers[a][1], answers[b][1])] += 1
    rows: list[list[str | None]] = []
    for (a, b, kind), counts in sorted(tables.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2] == "all", kv[0][2])):
        yy, yn, ny, nn = counts[(True, True)], counts[(True, False)], counts[(False, True)], counts[(False, False)]
        total = yy + yn + ny + nn
        kappa = cohen_kappa(yy, yn, ny, nn)
        rows.append([f"{a} / {b}", kind, str(total), f"{(yy + nn) / total:.3f}",
                     f"{kappa:.3f}" if kappa is not None else "undefined"])
    return rows


def suggestion_rows(store: Store) -> list[list[str | None]]:
    """How often assessors kept each judge's suggestion, per kind: ``judge, kind, items, kept, kappa`` (kappa
    of the judge's answers against the assessors', on the items where a suggestion was shown)."""
    tables: dict[tuple[str, str], Counter[tuple[bool, bool]]] = {}
    for row in store.verdict_rows(role="assessor", suggested=True):
        for kind in (row["kind"], "all"):
            tables.setdefault((row["suggested_judge"], kind), Counter())[(row["value"], row["suggested_value"])] += 1
    rows: list[list[str | None]] = []
    for (judge, kind), counts in sorted(tables.items(), key=lambda kv: (kv[0][0], kv[0][1] == "all", kv[0][1])):
        yy, yn, ny, nn = counts[(True, True)], counts[(True, False)], counts[(False, True)], counts[(False, False)]
        total = yy + yn + ny + nn
        kappa = cohen_kappa(yy, yn, ny, nn)
        rows.append([judge, kind, str(total), f"{(yy + nn) / total:.3f}",
                     f"{kappa:.3f}" if kappa is not None else "undefined"])
    return rows


def adjudication_queue(store: Store) -> list[dict[str, Any]]:
    """Items to adjudicate: two assessors disagree, an assessor disagrees with the judge's suggestion, or a
    disagreement loaded from ``agree-judgments --disagreements``; each with every answer and any decision."""
    verdicts = store.verdict_rows()
    by_item: dict[str, list[dict[str, Any]]] = {}
    for row in verdicts:
        by_item.setdefault(row["item_id"], []).append(row)
    queue: dict[str, dict[str, Any]] = {}
    for item_id, rows in by_item.items():
        assessors = [r for r in rows if r["role"] == "assessor"]
        decision = next((r for r in rows if r["role"] == "adjudication"), None)
        if not assessors:
            continue
        answers = [{"who": f"human:{r['user']}", "value": r["value"], "rationale": r["rationale"]} for r in assessors]
        values = {r["value"] for r in assessors}
        reasons = []
        if len(values) > 1:
            reasons.append("assessors disagree")
        suggested = [r for r in assessors if r["suggested_judge"] is not None and r["suggested_value"] != r["value"]]
        if suggested:
            reasons.append("an assessor changed the judge's suggestion")
            suggestion = store.suggestion(item_id)
            if suggestion is not None:
                answers.append({"who": suggestion[1], "value": suggestion[0], "rationale": suggestion[2]})
        if reasons:
            first = assessors[0]
            queue[item_id] = {"item_id": item_id, "row": first, "answers": answers, "reasons": reasons,
                              "decision": decision}
    for item_id, source, obj in store.adjudication_items():
        entry = queue.get(item_id)
        answers = [{"who": obj["a"].get("judge") or "A", "value": obj["a"]["value"], "rationale": obj["a"].get("rationale")},
                   {"who": obj["b"].get("judge") or "B", "value": obj["b"]["value"], "rationale": obj["b"].get("rationale")}]
        if entry is None:
            row = {key: obj.get(key) for key in ("kind", "request_id", "sentence", "doc_id", "nugget_id", "answer",
                                                 "run_id", "sentence_index")}
            row["item_id"] = item_id
            row["ord"] = [row["request_id"], row["run_id"] or "", row["sentence_index"] or 0, 0, row["doc_id"] or "",
                          row["nugget_id"] or "", row["answer"] or ""]
            decision = next((r for r in by_item.get(item_id, []) if r["role"] == "adjudication"), None)
            queue[item_id] = {"item_id": item_id, "row": row, "answers": answers,
                              "reasons": [f"disagreement from {Path(source).name}"], "decision": decision}
        else:
            entry["answers"].extend(answers)
            entry["reasons"].append(f"disagreement from {Path(source).name}")
    return sorted(queue.values(), key=lambda e: (natural_key(e["row"]["request_id"]), e["decision"] is not None,
                                                 e["item_id"]))


def key_of(entry: dict[str, Any]) -> JudgmentKey:
    return key_of_row(entry["row"])
