"""What a judge run cannot do, said before it spends anything (``judge --dry-run``, ``judge``, ``evaluate``).

Three things make part of a round unjudgeable or unscorable whatever the judge answers, and all three are
known from the inputs alone: topics without nuggets (nothing to find there), nuggets that count but that no
``answers`` question can reach (under ``--nugget-scope cited`` a nugget is found only through a citation of a
relevant document one of its answers is bound to), and runs whose reports are for topics the nuggets do not
cover (not judged at all). A round of a model judge costs hours; these are better read before it than after.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..argue.api import Evaluation
from ..argue.topic import PreparedTopic, ScoredNugget
from ..errors import few_items
from ..model import Report, natural_key

__all__ = ["Limits", "find_limits"]


@dataclass
class Limits:
    """The limits of one judge run over given reports (each list in natural order; empty when none)."""

    topics_without_nuggets: list[str] = field(default_factory=list)
    """Topics of the evaluation's request set without a nugget that counts."""
    evaluated_without_nuggets: bool = False
    """Whether those topics are evaluated all the same (``--evaluated-topics requests``: coverage 0 there)."""
    unreachable_nuggets: list[str] = field(default_factory=list)
    """``topic:nugget`` for each nugget that counts but that no ``answers`` question can find."""
    uncovered_runs: dict[str, list[str]] = field(default_factory=dict)
    """Run id -> the topics of its reports that are not judged (outside the evaluation or without nuggets)."""
    reports_per_run: dict[str, int] = field(default_factory=dict)
    """Run id -> its reports, and those not judged (to tell a run with nothing judged from one with a few
    reports left out)."""
    unjudged_per_run: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The non-empty limits, for a plan's JSON and a run's manifest: each as data, and ``limits``, every
        one as a line for people (``lines``)."""
        return {
            **({"topics_without_nuggets": self.topics_without_nuggets} if self.topics_without_nuggets else {}),
            **({"unreachable_nuggets": self.unreachable_nuggets} if self.unreachable_nuggets else {}),
            **({"uncovered_runs": self.uncovered_runs} if self.uncovered_runs else {}),
            **({"limits": self.lines()} if self.lines() else {}),
        }

    def lines(self) -> list[str]:
        """Every limit as one line (the dry run's plan, which prints no other note)."""
        lines = []
        topics = self.topics_without_nuggets
        if topics and self.evaluated_without_nuggets:
            lines.append(f"{len(topics)} evaluated topic(s) have no nuggets: every run's nugget coverage there is 0 "
                         f"whatever its report says (--evaluated-topics requests): {few_items(topics)}")
        elif topics:
            lines.append(f"{len(topics)} topic(s) have no nuggets: their reports are neither judged nor scored: "
                         f"{few_items(topics)}")
        return lines + self._unreachable() + [self._run_line(run_id) for run_id in self.uncovered_runs]

    def warnings(self) -> list[str]:
        """The limits a real run's notes do not already tell (they name the topics without nuggets and each run's
        reports for topics outside the evaluation): unreachable nuggets, and runs with nothing to judge."""
        return self._unreachable() + [self._run_line(run_id) for run_id in self.uncovered_runs
                                      if self._nothing_judged(run_id)]

    def _unreachable(self) -> list[str]:
        nuggets = self.unreachable_nuggets
        if not nuggets:
            return []
        return [f"{len(nuggets)} nugget(s) count but no answers question can reach them (no answer bound to a "
                "relevant document, so no citation can find them; --nugget-scope all asks for every nugget in "
                f"every cited sentence): {few_items(nuggets)}"]

    def _nothing_judged(self, run_id: str) -> bool:
        return self.unjudged_per_run.get(run_id, 0) == self.reports_per_run.get(run_id, 0)

    def _run_line(self, run_id: str) -> str:
        topics = self.uncovered_runs[run_id]
        total = self.reports_per_run.get(run_id, 0)
        if self._nothing_judged(run_id):
            return (f"run {run_id}: none of its {total} report(s) is for a topic the nuggets cover, so nothing of it "
                    f"is judged (its topics: {few_items(topics)}): are the nuggets or requests of another track?")
        return (f"run {run_id}: {self.unjudged_per_run[run_id]} of its {total} report(s) are for topics the nuggets "
                f"do not cover and are not judged: {few_items(topics)}")


def find_limits(reports: Iterable[Report], evaluation: Evaluation) -> Limits:
    """The limits of judging ``reports`` under ``evaluation`` (its policies decide what can be reached)."""
    limits = Limits()
    without = [tid for tid in evaluation.order if not evaluation.topics[tid].nuggets]
    limits.evaluated_without_nuggets = bool(without)
    limits.topics_without_nuggets = sorted([*evaluation.unjudged, *without], key=natural_key)
    if evaluation.policies.nugget_scope == "cited":
        by_documents = evaluation.policies.relevance != "judgments"  # else relevance is judged, not known
        for tid in evaluation.order:
            topic = evaluation.topics[tid]
            limits.unreachable_nuggets += [f"{tid}:{scored.nugget_id}" for scored in topic.nuggets
                                           if not scored.negative and not _reachable(scored, topic, by_documents)]
    uncovered: dict[str, set[str]] = {}
    for report in reports:
        limits.reports_per_run[report.run_id] = limits.reports_per_run.get(report.run_id, 0) + 1
        if report.request_id not in evaluation.topics:
            uncovered.setdefault(report.run_id, set()).add(report.request_id)
            limits.unjudged_per_run[report.run_id] = limits.unjudged_per_run.get(report.run_id, 0) + 1
    limits.uncovered_runs = {run_id: sorted(uncovered[run_id], key=natural_key)
                             for run_id in sorted(uncovered, key=natural_key)}
    return limits


def _reachable(scored: ScoredNugget, topic: PreparedTopic, by_documents: bool) -> bool:
    """Whether citations can find ``scored`` under ``--nugget-scope cited``: an answer is asked about only in a
    sentence citing a relevant document the answer is bound to; an AND nugget needs every required answer."""
    def asked(unit: Any) -> bool:
        return any(doc in topic.relevant_docs for doc in unit.doc_ids) if by_documents else bool(unit.doc_ids)

    if scored.nugget.aggregator == "AND":
        return all(asked(scored.units[i]) for i in scored.required)
    return any(asked(unit) for unit in scored.units)
