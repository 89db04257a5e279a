"""Judgment-level agreement between two judgment files: can an automatic judge stand in for assessors?

Judgments are matched on their identity (``Judgment.key``: question kind, request, normalized sentence,
document, nugget and answer where relevant; never the run), so the same question answered in both files is
compared once however many runs contain the sentence. Per question kind we report how many judgments each
file has, how many are shared, the observed agreement (accuracy of B taking A as the truth when A is the
assessors), Cohen's kappa (agreement beyond what the two judges' yes-rates would produce by chance) and the
2x2 confusion matrix. Within one file a later judgment for the same key replaces an earlier one (the rule
every reader of judgments follows); how many were replaced, and how many of those disagreed, is noted. With
``strict`` (what ``agree-judgments`` does for canonical files) one judge answering the same key both ways in
one file is an error naming both lines, as in ``score``.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..errors import contradiction
from ..model import JUDGMENT_KINDS, Judgment, JudgmentKey, Location


@dataclass
class KindAgreement:
    """Agreement on one question kind (or ``all`` kinds pooled). Confusion counts are (A's answer, B's answer)."""

    kind: str
    n_a: int
    n_b: int
    overlap: int
    yes_yes: int
    yes_no: int
    no_yes: int
    no_no: int
    accuracy: float | None
    kappa: float | None
    note: str | None = None

    @property
    def only_a(self) -> int:
        return self.n_a - self.overlap

    @property
    def only_b(self) -> int:
        return self.n_b - self.overlap

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "n_a": self.n_a,
            "n_b": self.n_b,
            "overlap": self.overlap,
            "only_a": self.only_a,
            "only_b": self.only_b,
            "accuracy": self.accuracy,
            "kappa": self.kappa,
            "yes_rate_a": (self.yes_yes + self.yes_no) / self.overlap if self.overlap else None,
            "yes_rate_b": (self.yes_yes + self.no_yes) / self.overlap if self.overlap else None,
            "confusion": {"yes_yes": self.yes_yes, "yes_no": self.yes_no, "no_yes": self.no_yes, "no_no": self.no_no},
            "note": self.note,
        }


@dataclass
class JudgmentAgreement:
    kinds: list[KindAgreement]
    overall: KindAgreement
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kinds": [item.to_dict() for item in self.kinds],
            "overall": self.overall.to_dict(),
            "notes": list(self.notes),
        }


def cohen_kappa(yes_yes: int, yes_no: int, no_yes: int, no_no: int) -> float | None:
    """Cohen's kappa of a 2x2 table: (p_o - p_e) / (1 - p_e); ``None`` when p_e = 1 (one shared constant answer) or empty.

    p_o is the share of items both answered alike; p_e = p_yes(A) p_yes(B) + p_no(A) p_no(B) is the agreement
    expected if the two judged independently at their own yes-rates.
    """
    total = yes_yes + yes_no + no_yes + no_no
    if total == 0:
        return None
    observed = (yes_yes + no_no) / total
    yes_a, yes_b = (yes_yes + yes_no) / total, (yes_yes + no_yes) / total
    expected = yes_a * yes_b + (1 - yes_a) * (1 - yes_b)
    if expected >= 1.0:
        return None
    return (observed - expected) / (1 - expected)


def _index(judgments: Iterable[Judgment], label: str, notes: list[str], strict: bool) -> dict[JudgmentKey, bool]:
    """Last value per key, noting replaced duplicates.

    ``strict``: one judge answering the same key both ways is an error naming both lines, as when scoring
    reads a canonical file (``judges.imported``); Auto-ARGUE files judge report by report, where that is not.
    """
    out: dict[JudgmentKey, bool] = {}
    by_judge: dict[tuple[JudgmentKey, str], Judgment] = {}
    replaced = conflicting = 0
    for judgment in judgments:
        key = judgment.key
        value = bool(judgment.value)
        if strict:
            earlier = by_judge.setdefault((key, judgment.judge), judgment)
            if earlier.value != value:
                where = judgment.source or Location(label, None)
                raise contradiction(where.path, where.line, earlier.source.line if earlier.source else None, key,
                                    earlier.value, value, judgment.judge)
        if key in out:
            replaced += 1
            conflicting += out[key] != value
        out[key] = value
    if replaced:
        notes.append(f"{label}: {replaced} judgment(s) repeat an earlier key and replace it "
                     f"({conflicting} with a different answer)")
    return out


def _kind_agreement(kind: str, a: dict[JudgmentKey, bool], b: dict[JudgmentKey, bool]) -> KindAgreement:
    shared = a.keys() & b.keys()
    counts = {(True, True): 0, (True, False): 0, (False, True): 0, (False, False): 0}
    for key in shared:
        counts[(a[key], b[key])] += 1
    yy, yn, ny, nn = counts[(True, True)], counts[(True, False)], counts[(False, True)], counts[(False, False)]
    overlap = len(shared)
    accuracy = (yy + nn) / overlap if overlap else None
    kappa = cohen_kappa(yy, yn, ny, nn)
    note = None
    if not overlap:
        note = "no judgment in common: accuracy and kappa undefined"
    elif kappa is None:
        answer = "yes" if yy else "no"
        note = f"kappa undefined: both files answered '{answer}' to every shared item (chance agreement is 1)"
    return KindAgreement(kind, len(a), len(b), overlap, yy, yn, ny, nn, accuracy, kappa, note)


def judgment_agreement(judgments_a: Iterable[Judgment], judgments_b: Iterable[Judgment], *,
                       strict: tuple[bool, bool] = (False, False)) -> JudgmentAgreement:
    """Per-kind and pooled agreement of two sets of judgments (A is the reference, e.g. the assessors).

    ``strict`` (for A, for B): a judge contradicting itself on one key is an error (see ``_index``);
    ``agree-judgments`` sets it for canonical files, not for Auto-ARGUE ones.
    """
    notes: list[str] = []
    a = _index(judgments_a, "A", notes, strict[0])
    b = _index(judgments_b, "B", notes, strict[1])
    present = {key.kind for key in a} | {key.kind for key in b}
    ordered = [kind for kind in JUDGMENT_KINDS if kind in present] + sorted(present - set(JUDGMENT_KINDS))
    kinds = []
    for kind in ordered:
        item = _kind_agreement(kind, {k: v for k, v in a.items() if k.kind == kind}, {k: v for k, v in b.items() if k.kind == kind})
        kinds.append(item)
        if item.note:
            notes.append(f"{kind}: {item.note}")
    overall = _kind_agreement("all", a, b)
    if overall.note:
        notes.append(f"all kinds: {overall.note}")
    if len(kinds) > 1:
        notes.append("the 'all' row pools different questions; read the per-kind rows first")
    return JudgmentAgreement(kinds, overall, notes)


def disagreements(judgments_a: Iterable[Judgment], judgments_b: Iterable[Judgment]) -> list[tuple[Judgment, Judgment]]:
    """The questions both sets answer, differently: ``(A's judgment, B's judgment)`` per key (the last one of
    each set for a key, the rule every reader follows), in A's order. What an adjudicator looks at."""
    last_a: dict[JudgmentKey, Judgment] = {}
    for judgment in judgments_a:
        last_a.pop(judgment.key, None)
        last_a[judgment.key] = judgment
    last_b = {judgment.key: judgment for judgment in judgments_b}
    return [(a, last_b[key]) for key, a in last_a.items() if key in last_b and bool(last_b[key].value) != bool(a.value)]
