"""Leave one team out: the pool and the nugget bank as they would be had a team not taken part.

The classic test of a test collection's reusability (Zobel 1998, "How reliable are the results of large-scale
information retrieval experiments?", SIGIR; Voorhees 2001, Buckley et al. 2007) takes each team's runs out of the
pool, drops the documents only that team contributed, rescores the team's runs with what is left, and asks how
far their scores and ranks move: a collection that barely moves them will judge a new system fairly. For a
nugget bank the question is the same one level up: the answers bound only to documents the team alone
contributed would not be in the bank (no assessor would have read those documents), and a nugget left with no
bound answer would not have been found at all.

Here, per team:

* **its unique documents**: per topic, the pooled documents that only the team's runs contributed (in each run's
  top ``depth``; a report run contributes the documents it cites). With a ``pool`` (the round's pool file, per
  topic its documents) only documents that made it into the pool count: a document a run ranked but the budget
  cut was never judged. A bank document that no run contributed (an assessor found it by searching) belongs to
  no team and stays.
* **the bank without them**: each answer loses its bindings to those documents; an answer left with none (it was
  bound only to them) is removed; a nugget whose bound answers are all removed is removed (it was found only
  through that team). Negative nuggets (an absence, with no documents) stay.
* **the qrels without them**: for rescoring by qrels, the unique documents are unjudged, so not relevant.

The bank's provenance (``nuggets create`` records per nugget where its documents came from; the workbench keeps
each binding's selection) is carried over untouched on every nugget and answer that stays. Everything here is
records in, records out: ``api.reusability`` reads the files and rescores.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from ..formats.ranked import Rankings
from ..model import Answer, Nugget, QrelsRow, TopicNuggets, natural_key

__all__ = ["LeaveOut", "contributors", "unique_documents", "leave_out_bank", "leave_out_qrels", "leave_team_out"]


@dataclass
class LeaveOut:
    """What leaving ``team`` out changes: its ``runs``, per topic the documents only it contributed, the bank
    without them (``nuggets``), and what that removed: answers (``(topic, nugget_id, answer)``) and nuggets
    (``(topic, nugget_id, question)``)."""

    team: str
    runs: list[str]
    unique: dict[str, list[str]]
    nuggets: list[TopicNuggets]
    removed_answers: list[tuple[str, str, str]] = field(default_factory=list)
    removed_nuggets: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def unique_count(self) -> int:
        return sum(len(docs) for docs in self.unique.values())


def contributors(rankings: Sequence[Rankings], teams: Mapping[str, str], depth: int | None = None,
                 pool: Mapping[str, Iterable[str]] | None = None) -> dict[str, dict[str, set[str]]]:
    """Per topic, per pooled document, the teams whose runs contributed it (top ``depth``; only documents in
    ``pool`` when it is given)."""
    pooled = {topic: set(docs) for topic, docs in pool.items()} if pool is not None else None
    out: dict[str, dict[str, set[str]]] = {}
    for run in rankings:
        team = teams.get(run.name, run.name)
        for topic in run.topics:
            for doc_id in run.top(topic, depth):
                if pooled is not None and doc_id not in pooled.get(topic, ()):
                    continue
                out.setdefault(topic, {}).setdefault(doc_id, set()).add(team)
    return out


def unique_documents(holders: Mapping[str, Mapping[str, set[str]]], team: str) -> dict[str, list[str]]:
    """Per topic (natural order), the documents ``team`` alone contributed, sorted."""
    out = {}
    for topic in sorted(holders, key=natural_key):
        mine = sorted(doc_id for doc_id, teams in holders[topic].items() if teams == {team})
        if mine:
            out[topic] = mine
    return out


def leave_out_bank(bank: Sequence[TopicNuggets], unique: Mapping[str, Iterable[str]]
                   ) -> tuple[list[TopicNuggets], list[tuple[str, str, str]], list[tuple[str, str, str]]]:
    """The bank without the bindings to ``unique`` documents (per topic); returns it with the removed answers
    and nuggets (see the module docstring). Topics, nuggets and answers keep their order and extra fields."""
    gone = {topic: set(docs) for topic, docs in unique.items()}
    removed_answers: list[tuple[str, str, str]] = []
    removed_nuggets: list[tuple[str, str, str]] = []
    out = []
    for topic in bank:
        drop = gone.get(topic.request_id, set())
        if not drop:
            out.append(topic)
            continue
        nuggets = []
        for nugget in topic.nuggets:
            kept, lost = _answers_without(nugget, drop)
            removed_answers.extend((topic.request_id, nugget.nugget_id, answer.text) for answer in lost)
            if nugget.bound and not any(answer.doc_ids for answer in kept) and not nugget.negative:
                removed_nuggets.append((topic.request_id, nugget.nugget_id, nugget.question))
                continue
            nuggets.append(nugget if not lost and kept == nugget.answers else replace(nugget, answers=kept))
        out.append(replace(topic, nuggets=nuggets))
    return out, removed_answers, removed_nuggets


def _answers_without(nugget: Nugget, drop: set[str]) -> tuple[list[Answer], list[Answer]]:
    """The nugget's answers with ``drop`` unbound, and the answers that were bound only to ``drop``."""
    kept, lost = [], []
    for answer in nugget.answers:
        if not answer.doc_ids or not drop.intersection(answer.doc_ids):
            kept.append(answer)
            continue
        left = tuple(doc_id for doc_id in answer.doc_ids if doc_id not in drop)
        if left:
            kept.append(replace(answer, doc_ids=left))
        else:
            lost.append(answer)
    return kept, lost


def leave_out_qrels(rows: Iterable[QrelsRow], unique: Mapping[str, Iterable[str]]) -> list[QrelsRow]:
    """The qrels without the ``unique`` documents (unjudged, so not relevant, for trec_eval and ARGUE alike)."""
    gone = {topic: set(docs) for topic, docs in unique.items()}
    return [row for row in rows if row.doc_id not in gone.get(row.request_id, ())]


def leave_team_out(team: str, runs: Sequence[str], holders: Mapping[str, Mapping[str, set[str]]],
                   bank: Sequence[TopicNuggets]) -> LeaveOut:
    """``team``'s unique documents (from ``contributors``) and the bank without them."""
    unique = unique_documents(holders, team)
    nuggets, answers, removed = leave_out_bank(bank, unique)
    return LeaveOut(team, list(runs), unique, nuggets, answers, removed)
