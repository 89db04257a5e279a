"""Entailment for the alternate measures: "does this premise support this hypothesis?", batched and memoized.

ICAT asks it of (retrieved passage, report claim) pairs, LongRecall of (report sentence, reference fact)
pairs. Both are the flowchart's ``attested`` question with the premise as the "cited document", so any
judge backend answers them: ``JudgeEntailer`` wraps a ``JudgeBackend`` that way. A verdict of ``None``
means "could not judge" and the measures keep it apart (``*_unjudged`` counts); it is never a "no".

An ``Entailer`` is any callable from a list of ``(premise, hypothesis)`` pairs to a list of
``True``/``False``/``None``; it also tells how many questions it really asked (``calls``), which the
benchmarks compare against checking every pair.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..model import Document, normalize_text

if TYPE_CHECKING:
    from ..judges.base import JudgeBackend

__all__ = ["Pair", "Entailer", "JudgeEntailer", "JudgeAligner", "JudgeFactChecker", "TableEntailer", "passage_id",
           "ask_judge"]

Pair = tuple[str, str]
"""``(premise, hypothesis)``: does the premise (passage, report sentence) support the hypothesis?"""


@runtime_checkable
class Entailer(Protocol):
    """Answers entailment pairs in order; ``None`` is "could not judge"."""

    name: str
    calls: int

    def __call__(self, pairs: Sequence[Pair]) -> list[bool | None]: ...

    def identity(self) -> dict[str, Any]: ...


def ask_judge(judge: JudgeBackend, questions: Sequence[Any], cache: Any = None) -> list[Any]:
    """The judge's verdicts for ``questions``, through the judgment cache when one is given.

    The judge runner's read-through (``judges.asking.CachedJudge``): cached answers (keyed by the question
    and the judge's identity) are reused; new ones are committed to the cache before they are returned, so a
    killed run resumes without asking again. ``None`` ("could not judge") is never cached.
    """
    from ..judges.asking import CachedJudge

    found: dict[Any, Any] = {}

    def answered(answers: list[tuple[Any, Any]], cached: bool) -> None:
        found.update((question.key, verdict) for question, verdict in answers)

    CachedJudge(judge, cache).ask(questions, answered, lambda question, reason: None)
    return [found.get(question.key) for question in questions]


def passage_id(text: str) -> str:
    """A stable id for a premise text, so that the same passage is the same "document" to a judge and a cache."""
    return "passage:" + hashlib.sha1(normalize_text(text).encode("utf-8")).hexdigest()[:20]


class _Memo:
    """Shared memoization: each distinct pair is asked once per process (runs share sentences and passages)."""

    name = "entailer"

    def __init__(self) -> None:
        self.calls = 0
        self._memo: dict[Pair, bool | None] = {}

    def _answer(self, pairs: list[Pair]) -> list[bool | None]:
        raise NotImplementedError

    def __call__(self, pairs: Sequence[Pair]) -> list[bool | None]:
        keys = [(normalize_text(premise), normalize_text(hypothesis)) for premise, hypothesis in pairs]
        todo = list(dict.fromkeys(key for key in keys if key not in self._memo))
        if todo:
            answers = self._answer(todo)
            self.calls += len(todo)
            for key, answer in zip(todo, answers):
                if answer is not None:  # "could not judge" is asked again next time
                    self._memo[key] = answer
            pending = dict(zip(todo, answers))
        else:
            pending = {}
        return [self._memo[key] if key in self._memo else pending.get(key) for key in keys]

    def identity(self) -> dict[str, Any]:
        return {"entailer": self.name}


class JudgeEntailer(_Memo):
    """Entailment by a judge backend: each pair is an ``attested`` question whose document is the premise."""

    def __init__(self, judge: JudgeBackend, batch_size: int = 256,
                 progress: Callable[[int], None] | None = None, cache: Any = None) -> None:
        super().__init__()
        self.judge = judge
        self.cache = cache
        self.name = getattr(judge, "name", "judge")
        self.batch_size = batch_size
        self.progress = progress

    def _answer(self, pairs: list[Pair]) -> list[bool | None]:
        from ..judges.base import Question, make_key

        answers: list[bool | None] = []
        for start in range(0, len(pairs), self.batch_size):
            questions = []
            for premise, hypothesis in pairs[start:start + self.batch_size]:
                doc_id = passage_id(premise)
                key = make_key("attested", "entailment", hypothesis, doc_id=doc_id)
                questions.append(Question(key=key, sentence=hypothesis, document=Document(doc_id, premise)))
            verdicts = ask_judge(self.judge, questions, self.cache)
            answers.extend(None if verdict is None else bool(verdict.value) for verdict in verdicts)
            if self.progress is not None:
                self.progress(len(questions))
        return answers

    def identity(self) -> dict[str, Any]:
        identity = getattr(self.judge, "identity", None)
        return {"entailer": "judge", **(identity() if callable(identity) else {"backend": self.name})}


class TableEntailer(_Memo):
    """Entailment from a table of known answers (pairs absent from it cannot be judged: ``None``).

    For hand-built examples and for judgments made elsewhere (e.g. by people) and read back.
    """

    name = "table"

    def __init__(self, table: dict[Pair, bool]) -> None:
        super().__init__()
        self.table = {(normalize_text(p), normalize_text(h)): value for (p, h), value in table.items()}

    def _answer(self, pairs: list[Pair]) -> list[bool | None]:
        return [self.table.get(pair) for pair in pairs]


class JudgeAligner:
    """ICAT-S alignment by a judge: does a grounded claim cover an aspect?

    For an aspect with answers (a nugget), the claim covers it when the judge says it gives one of the
    answers (the flowchart's ``answers`` question, the claim's supporting passage as the document); for
    a plain-text aspect (a request's aspect), when the claim supports the aspect's text (``attested``
    with the claim as the document). ``None`` when no answer could be judged and none was yes.
    """

    def __init__(self, judge: JudgeBackend, cache: Any = None) -> None:
        self.judge = judge
        self.cache = cache
        self.calls = 0

    def __call__(self, triples: Sequence[tuple[str, Any, str | None]]) -> list[bool | None]:
        from ..judges.base import Question, make_key
        from ..model import Nugget

        questions: list[Any] = []
        owners: list[int] = []
        for position, (claim, aspect, passage) in enumerate(triples):
            if aspect.answers:
                nugget = Nugget(aspect.aspect_id, "aspect", aspect.text)
                document = Document(passage_id(passage), passage) if passage else None
                for answer in aspect.answers:
                    key = make_key("answers", "aspect", normalize_text(claim),
                                   doc_id=document.doc_id if document else None,
                                   nugget_id=aspect.aspect_id, answer=answer)
                    questions.append(Question(key=key, sentence=claim, nugget=nugget, answer=answer,
                                              document=document))
                    owners.append(position)
            else:
                doc_id = passage_id(claim)
                key = make_key("attested", "aspect", normalize_text(aspect.text), doc_id=doc_id)
                questions.append(Question(key=key, sentence=aspect.text, document=Document(doc_id, claim)))
                owners.append(position)
        verdicts = ask_judge(self.judge, questions, self.cache) if questions else []
        self.calls += len(questions)
        results: list[bool | None] = [False] * len(triples)
        unknown = [False] * len(triples)
        for owner, verdict in zip(owners, verdicts):
            if verdict is None:
                unknown[owner] = True
            elif verdict.value:
                results[owner] = True
        return [True if value else (None if unknown[i] else False) for i, value in enumerate(results)]


class JudgeFactChecker:
    """LongRecall's entailment check by a judge: does a report sentence state a reference fact?

    A fact with answers (a nugget) is stated when the judge says the sentence gives one of its answers
    (``answers``, the question as context, no document); a plain fact (a reference-report sentence) when
    the sentence, as the document, supports it (``attested``). Each distinct question is asked once per
    process; ``calls`` counts the questions really asked.
    """

    def __init__(self, judge: JudgeBackend, batch_size: int = 256, cache: Any = None,
                 progress: Callable[[int], None] | None = None) -> None:
        self.judge = judge
        self.cache = cache
        self.batch_size = batch_size
        self.progress = progress
        self.calls = 0
        self._memo: dict[Any, bool | None] = {}

    def identity(self) -> dict[str, Any]:
        identity = getattr(self.judge, "identity", None)
        return {"checker": "judge", **(identity() if callable(identity) else {"backend": self.judge.name})}

    def _question(self, sentence: str, fact: Any, answer: str | None) -> Any:
        from ..judges.base import Question, make_key
        from ..model import Nugget

        if answer is not None:
            nugget = Nugget(fact.fact_id, "facts", fact.question or "", [])
            key = make_key("answers", "facts", normalize_text(sentence), nugget_id=fact.fact_id, answer=answer)
            return Question(key=key, sentence=sentence, nugget=nugget, answer=answer)
        doc_id = passage_id(sentence)
        key = make_key("attested", "facts", normalize_text(fact.text), doc_id=doc_id)
        return Question(key=key, sentence=fact.text, document=Document(doc_id, sentence))

    def __call__(self, pairs: Sequence[tuple[str, Any]]) -> list[bool | None]:
        asks: list[list[Any]] = []
        todo: dict[Any, Any] = {}
        for sentence, fact in pairs:
            keys = []
            for answer in (fact.answers or (None,)):
                question = self._question(sentence, fact, answer)
                keys.append(question.key)
                if question.key not in self._memo:
                    todo.setdefault(question.key, question)
            asks.append(keys)
        questions = list(todo.values())
        for start in range(0, len(questions), self.batch_size):
            batch = questions[start:start + self.batch_size]
            for question, verdict in zip(batch, ask_judge(self.judge, batch, self.cache)):
                self._memo[question.key] = None if verdict is None else bool(verdict.value)
            self.calls += len(batch)
            if self.progress is not None:
                self.progress(len(batch))
        results: list[bool | None] = []
        for keys in asks:
            values = [self._memo[key] for key in keys]
            results.append(True if any(values) else (None if any(v is None for v in values) else False))
        # "could not judge" is asked again by a later call
        for key in [key for key, value in self._memo.items() if value is None]:
            del self._memo[key]
        return results
