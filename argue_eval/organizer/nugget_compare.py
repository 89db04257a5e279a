"""How close a created nugget bank comes to a human one (``argue-eval nuggets compare``).

An LLM-proposed bank is a draft for assessors; before trusting it as one, an organizer wants to know how much
of what assessors wrote it finds, how much of what it proposes they would have written, and whether it binds
the same documents. Per topic of the human bank:

- **recall**: the share of human answers that some created answer matches;
- **precision**: the share of created answers that match some human answer;
- **binding agreement** on the matched pairs: of the documents bound to either answer of a matched pair,
  the share bound to both (``both / (both + created_only + human_only)``, summed over the pairs). With a
  pool, a human binding to a document outside it is not counted: the model never read that document.

A created answer matches a human answer when the judge says the created nugget's "question answer", read as
a report sentence, gives the human nugget's answer (an ``answers`` question without a document; by default
the offline lexical judge's answer matching). Every pair of a topic is asked, through the judgment cache. A
pair the judge could not judge is counted (``unjudged_pairs``) and never taken as a match or a miss.
Only answers with text of nuggets that need documents count (not negative nuggets, not statements).

Pure: the caller reads the banks and builds the judge.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..model import ALL_TOPICS, Answer, Nugget, Request, TopicNuggets, normalize_text

__all__ = ["COMPARE_COLUMNS", "TopicComparison", "answer_items", "compare_banks", "comparison_rows"]

COMPARE_COLUMNS = ("request_id", "human_answers", "created_answers", "matched_human", "matched_created", "recall",
                   "precision", "bindings_both", "bindings_created_only", "bindings_human_only",
                   "binding_agreement", "unjudged_pairs")


@dataclass
class TopicComparison:
    """One topic's counts, and the matched pairs for the details."""

    request_id: str
    human_answers: int = 0
    created_answers: int = 0
    matched_human: int = 0
    matched_created: int = 0
    both: int = 0
    created_only: int = 0
    human_only: int = 0
    unjudged_pairs: int = 0
    pairs: list[dict[str, Any]] = field(default_factory=list)
    unmatched_human: list[dict[str, str]] = field(default_factory=list)
    unmatched_created: list[dict[str, str]] = field(default_factory=list)

    def row(self) -> list[Any]:
        return [self.request_id, self.human_answers, self.created_answers, self.matched_human, self.matched_created,
                _ratio(self.matched_human, self.human_answers), _ratio(self.matched_created, self.created_answers),
                self.both, self.created_only, self.human_only,
                _ratio(self.both, self.both + self.created_only + self.human_only), self.unjudged_pairs]

    def details(self) -> dict[str, Any]:
        return {"request_id": self.request_id, "pairs": self.pairs, "unmatched_human": self.unmatched_human,
                "unmatched_created": self.unmatched_created}


def _ratio(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def answer_items(topic: TopicNuggets | None) -> list[tuple[Nugget, Answer]]:
    """The answers that count: with text, of nuggets that are neither negative nor statements."""
    if topic is None:
        return []
    return [(nugget, answer) for nugget in topic.nuggets
            if not nugget.negative and not nugget.extra.get("statement")
            for answer in nugget.answers if answer.text.strip()]


def _label(nugget: Nugget, answer: Answer) -> dict[str, str]:
    return {"nugget_id": nugget.nugget_id, "question": nugget.question, "answer": answer.text}


def compare_banks(created: Sequence[TopicNuggets], human: Sequence[TopicNuggets], judge: Any, cache: Any = None,
                  requests: Mapping[str, Request] | None = None,
                  pool: Mapping[str, Sequence[str]] | None = None) -> tuple[list[TopicComparison], list[str]]:
    """Per topic of ``human`` (in its order), the comparison with ``created``; and notes (created topics the
    human bank does not have). ``judge``: a ``JudgeBackend`` answering ``answers``; ``requests`` give the
    judge the request as context; ``pool`` (topic -> documents the creation read) limits the human bindings
    counted in the binding agreement."""
    from ..judges.asking import CachedJudge
    from ..judges.base import Question, make_key

    by_topic = {topic.request_id: topic for topic in created}
    human_ids = [topic.request_id for topic in human]
    notes = []
    extra = [topic for topic in by_topic if topic not in set(human_ids)]
    if extra:
        notes.append(f"{len(extra)} topic(s) of the created bank are not in the human bank and are not compared: "
                     + ", ".join(extra[:5]) + (" ..." if len(extra) > 5 else ""))
    questions: list[Question] = []
    asked: set[Any] = set()
    plans = []
    for topic in human:
        made = answer_items(by_topic.get(topic.request_id))
        truth = answer_items(topic)
        request = (requests or {}).get(topic.request_id)
        keys = {}
        for c_index, (c_nugget, c_answer) in enumerate(made):
            sentence = f"{c_nugget.question} {c_answer.text}"
            normalized = normalize_text(sentence)
            for h_index, (h_nugget, h_answer) in enumerate(truth):
                key = make_key("answers", topic.request_id, normalized, None, h_nugget.nugget_id, h_answer.text)
                if key not in asked:
                    asked.add(key)
                    questions.append(Question(key=key, sentence=sentence, request=request, nugget=h_nugget,
                                              answer=h_answer.text))
                keys[(c_index, h_index)] = key
        plans.append((topic.request_id, made, truth, keys))
    verdicts: dict[Any, bool] = {}
    CachedJudge(judge, cache).ask(questions, lambda answers, cached: verdicts.update((q.key, v.value) for q, v in answers),
                                  lambda question, reason: None)
    results = []
    for request_id, made, truth, keys in plans:
        result = TopicComparison(request_id, human_answers=len(truth), created_answers=len(made))
        seen = set(pool[request_id]) if pool is not None and request_id in pool else None
        matched_h: set[int] = set()
        matched_c: set[int] = set()
        for (c_index, h_index), key in keys.items():
            value = verdicts.get(key)
            if value is None:
                result.unjudged_pairs += 1
                continue
            if not value:
                continue
            matched_c.add(c_index)
            matched_h.add(h_index)
            c_docs = list(made[c_index][1].doc_ids)
            h_docs = [d for d in truth[h_index][1].doc_ids if seen is None or d in seen]
            both = [d for d in c_docs if d in h_docs]
            created_only = [d for d in c_docs if d not in h_docs]
            human_only = [d for d in h_docs if d not in c_docs]
            result.both += len(both)
            result.created_only += len(created_only)
            result.human_only += len(human_only)
            result.pairs.append({"created": _label(*made[c_index]), "human": _label(*truth[h_index]), "both": both,
                                 "created_only": created_only, "human_only": human_only})
        result.matched_human, result.matched_created = len(matched_h), len(matched_c)
        result.unmatched_human = [_label(*truth[i]) for i in range(len(truth)) if i not in matched_h]
        result.unmatched_created = [_label(*made[i]) for i in range(len(made)) if i not in matched_c]
        results.append(result)
    uncovered = [result for result in results if not result.created_answers]
    if uncovered and len(uncovered) < len(results):  # the all row would mix in topics the created bank never had
        shared = [result for result in results if result.created_answers]
        answers = sum(result.human_answers for result in shared)
        matched = sum(result.matched_human for result in shared)
        ids = ", ".join(result.request_id for result in uncovered[:5]) + (" ..." if len(uncovered) > 5 else "")
        notes.append(f"{len(uncovered)} of {len(results)} topic(s) of the human bank have no created nugget ({ids}): "
                     f"the all row counts their {sum(result.human_answers for result in uncovered)} human answer(s) as "
                     f"missed; over the {len(shared)} topic(s) both banks cover, recall is "
                     f"{matched / answers if answers else 0.0:.4f} ({matched} of {answers})")
    return results, notes


def comparison_rows(results: Sequence[TopicComparison]) -> list[list[Any]]:
    """One row per topic (``COMPARE_COLUMNS``), then the ``all`` row: ratios of the summed counts (micro)."""
    total = TopicComparison(ALL_TOPICS)
    for result in results:
        for name in ("human_answers", "created_answers", "matched_human", "matched_created", "both", "created_only",
                     "human_only", "unjudged_pairs"):
            setattr(total, name, getattr(total, name) + getattr(result, name))
    return [result.row() for result in results] + [total.row()]
