"""Asking a judge through the cache: the one read-through of the judgment cache that every user of a judge takes.

The judge runner (per topic and round), the alternate measures' entailment (``measures.entail.ask_judge``),
the LLM tasks (``llm_tasks``) and the dry run (``api.plan``, which asks no judge) all answer their questions
with ``CachedJudge.ask``, which

1. attaches the documents the questions read (``documents_needed``) from ``documents``, a document store,
   unless a question carries its own; a question whose document cannot be had is *failed* with the reason
   (``NO_COLLECTION``, ``NOT_IN_COLLECTION``), never answered "no";
2. takes the answers the cache already holds for this judge and these questions (no computation). The row
   key is the question's key, plus, with ``contexts``, a digest of the texts the judge reads
   (``cache.QuestionContexts``): the runner's answers are kept apart by the texts behind the ids, the
   measures' and the tasks' questions carry their texts in the key already (as they always have, so the
   rows an older cache holds are found);
3. streams the rest through ``judge.iter_answer_groups`` and commits every answer to the cache before the
   caller sees it, in transactions of at most ``flush_every`` answers or ``flush_seconds`` of work, half a
   second at most for a judge that pays a model for its answers (``MODEL_FLUSH_SECONDS``): a killed process
   loses little and repeats no committed answer, and fewer, larger transactions cost less. A
   transaction never splits a group, the answers of one model call, so a resumed run asks an interrupted
   call again whole. Between two groups it checks whether a signal asked the run to stop (``stopping``):
   then, as on any error, what was answered is committed before the stop goes on up.

A verdict of ``None`` is "could not judge": a failure with its reason, never cached, never "no". With
``ask=False`` (a dry run) nothing is computed and nothing is written: the questions the cache does not
answer fail with ``NOT_IN_CACHE``.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from .. import stopping
from ..model import DOCUMENT_KINDS, Document, JudgmentKey
from .base import JudgeBackend, Question, Verdict, attached_documents
from .cache import JudgmentCache, QuestionContexts, judge_fingerprint, row_keys

__all__ = ["CachedJudge", "Answers", "documents_needed", "with_documents", "NO_COLLECTION", "NOT_IN_COLLECTION",
           "NOT_IN_CACHE"]

MODEL_FLUSH_SECONDS = 0.5
"""The longest a model-backed judge's answers wait for their commit (``CachedJudge``)."""


def _pays_a_model(judge: JudgeBackend) -> bool:
    """Whether ``judge``, or a member of it (a cascade's ``judges``), has a model to pay (``cost_unit``)."""
    return any(member.cost_unit is not None for member in (*getattr(judge, "judges", ()), judge))


NO_COLLECTION = "no --collection given"
NOT_IN_COLLECTION = "the cited document is not in the collection"
NOT_IN_CACHE = "not in the cache (nothing is asked of the judge)"

Answers = list[tuple[Question, Verdict]]
"""Answers as ``CachedJudge.ask`` hands them over: a batch of (question, verdict), all committed already."""


class ReadsDocuments(Protocol):
    """What ``documents_needed`` reads of a question: a ``Question``, or a listed question before it is built."""

    @property
    def kind(self) -> str: ...

    @property
    def key(self) -> JudgmentKey: ...

    @property
    def cited_doc_ids(self) -> tuple[str, ...]: ...


def documents_needed(questions: Iterable[ReadsDocuments]) -> dict[str, None]:
    """The ids of the documents ``questions`` read (their cited document; for ``requires_citation`` every
    document the report cites), in first-seen order."""
    wanted: dict[str, None] = {}
    for question in questions:
        if question.kind in DOCUMENT_KINDS and question.key.doc_id is not None:
            wanted[question.key.doc_id] = None
        for cited_id in question.cited_doc_ids:
            wanted[cited_id] = None
    return wanted


def with_documents(question: Question, found: Mapping[str, Document],
                   cited_memo: dict[tuple[str, ...], tuple[Document, ...]] | None = None) -> Question:
    """``question`` with its documents from ``found`` attached (``document`` stays ``None`` when ``found``
    lacks it). ``cited_memo``: the cited documents already looked up for a list of ids, for one ``found``
    (the questions of one report share its list: one tuple for all of them, which ``QuestionContexts`` then
    digests once)."""
    key = question.key
    document, cited = attached_documents(key.kind, key.doc_id, question.cited_doc_ids, found, cited_memo,
                                         question.document, question.cited_documents)
    if document is question.document and cited is question.cited_documents:
        return question
    # the constructor, not dataclasses.replace: this runs once per question of a round
    return Question(key=question.key, sentence=question.sentence, request=question.request, nugget=question.nugget,
                    answer=question.answer, earlier_sentences=question.earlier_sentences, document=document,
                    cited_doc_ids=question.cited_doc_ids, cited_documents=cited)


class CachedJudge:
    """One judge behind one cache (either may be absent): ``ask`` answers questions; see the module docstring.

    ``judge``: the backend (its ``identity()`` keys the cache; with ``ask=False`` it is never called);
    ``cache``: a ``JudgmentCache`` or ``None``; ``documents``: a store with ``get_many`` or ``None``;
    ``contexts``: key the cache by the texts the judge reads too (the runner); ``only_kinds``: fail the
    questions of other kinds than the judge's ``kinds`` (the runner: it names the kind in the reason);
    ``ask``: ``False`` for the cache alone (a dry run: no judge call, no write, the judge not even registered);
    ``new_keys``: the caller never asks a key again once it was answered (the runner: an answer settles its
    question for the rest of the run), so while the cache holds no answer of this judge from before and no other
    process has written to it, nothing asked can be there and the lookup is skipped (a cold run's first round
    looked every question up in vain).
    """

    def __init__(self, judge: JudgeBackend, cache: JudgmentCache | None = None, *, documents: Any = None,
                 contexts: bool = False, only_kinds: bool = False, ask: bool = True, flush_every: int = 16384,
                 flush_seconds: float = 2.0, new_keys: bool = False) -> None:
        self.judge = judge
        self.cache = cache
        self.documents = documents
        self.contexts = contexts
        self.only_kinds = only_kinds
        self.asks = ask
        self.flush_every = flush_every
        # a model's answers cost calls, and a commit costs nothing beside a call: a kill loses half a second's
        # at most; an offline judge's answers cost a fraction of a commit, so they go in larger transactions
        self.flush_seconds = min(flush_seconds, MODEL_FLUSH_SECONDS) if _pays_a_model(judge) else flush_seconds
        self.fingerprint = ""
        if cache is not None:  # recorded for people inspecting the file; a dry run writes nothing
            self.fingerprint = cache.register(judge.identity()) if ask else judge_fingerprint(judge.identity())
        if cache is not None and ask:
            judge.use_cache(cache)
        # (the data version when the cache held no answer of this judge, or None): see ``new_keys``
        self._empty_since: int | None = None
        if cache is not None and new_keys:
            version = cache.others_version()
            if not cache.holds_answers(self.fingerprint):
                self._empty_since = version

    def ask(self, questions: Iterable[Question], answered: Callable[[Answers, bool], None],
            failed: Callable[[Question, str], None]) -> None:
        """Answer ``questions`` (one answer per distinct key): ``answered(batch, cached)`` receives the answers,
        cached ones (``cached=True``) and then new ones, each batch committed to the cache before the call;
        ``failed(question, reason)`` each question that could not be answered, as soon as that is known."""
        unique: dict[Any, Question] = {}
        for question in questions:
            unique.setdefault(question.key, question)
        ready = self._attach(list(unique.values()), failed)
        rows: dict[Any, str] = {}
        if self.cache is not None and ready:
            if self.contexts:
                # one memo per call: it keeps the documents it digested alive, and a run's cited documents are
                # not to be held at once (the runner asks one topic at a time)
                contexts = QuestionContexts()
                rows = row_keys([q.key for q in ready], {q.key: contexts(q) for q in ready})
            else:
                rows = row_keys(q.key for q in ready)
            hits = {} if self._none_cached() else self.cache.get_many(self.fingerprint, rows.keys(), rows=rows)
            if hits:
                answered([(q, hits[q.key]) for q in ready if q.key in hits], True)
                ready = [q for q in ready if q.key not in hits]
        if not self.asks:
            for question in ready:
                failed(question, NOT_IN_CACHE)
            return
        self._stream(ready, rows, answered, failed)

    def _none_cached(self) -> bool:
        """Whether no question asked now can have a cached answer (``new_keys``, a cache that had none of this
        judge, and no other process has committed to it since)."""
        if self._empty_since is None or self.cache is None:
            return False
        if self.cache.others_version() != self._empty_since:
            self._empty_since = None  # another writer: look every question up from now on
            return False
        return True

    def _attach(self, questions: list[Question], failed: Callable[[Question, str], None]) -> list[Question]:
        """The questions with their documents attached, in order; the others failed with the reason."""
        judge, store = self.judge, self.documents
        wanted = documents_needed(q for q in questions if q.document is None) if store is not None else {}
        found: Mapping[str, Document] = store.get_many(wanted) if wanted else {}
        ready: list[Question] = []
        cited: dict[tuple[str, ...], tuple[Document, ...]] = {}  # for this ``found`` only
        for question in questions:
            if self.only_kinds and question.kind not in judge.kinds:
                failed(question, f"the {judge.name} judge does not answer {question.kind} questions")
                continue
            if question.document is None:
                question = with_documents(question, found, cited)
                if question.kind in DOCUMENT_KINDS and question.key.doc_id is not None and question.document is None:
                    failed(question, NO_COLLECTION if store is None else NOT_IN_COLLECTION)
                    continue
            ready.append(question)
        return ready

    def _stream(self, questions: Sequence[Question], rows: Mapping[Any, str],
                answered: Callable[[Answers, bool], None], failed: Callable[[Question, str], None]) -> None:
        """Stream ``questions`` through the judge; commit answers in small transactions, then hand them over.
        ``rows``: the questions' cache row keys (``ask`` computed them for the lookup)."""
        if not questions:
            return
        cache, judge = self.cache, self.judge
        pending: Answers = []
        last_flush = time.perf_counter()

        def flush() -> None:
            nonlocal last_flush
            if cache is not None and pending:
                cache.put_many(self.fingerprint, ((q.key, v) for q, v in pending), rows=rows)  # committed before use
            if pending:
                answered(list(pending), False)
            pending.clear()
            last_flush = time.perf_counter()

        try:
            with stopping.stoppable():
                for group in judge.iter_answer_groups(questions):
                    for position, verdict in group:
                        question = questions[position]
                        if verdict is None:
                            failed(question, f"the {judge.name} judge could not answer")
                        else:
                            pending.append((question, verdict))
                    # never between two answers of one group (one model call): a kill leaves all of them or none
                    if len(pending) >= self.flush_every or (
                            pending and time.perf_counter() - last_flush >= self.flush_seconds):
                        flush()
                    stopping.check()
        except BaseException:
            try:  # what was answered is kept, whatever stopped the stream (a signal, a failed call)
                flush()
            except Exception:  # noqa: BLE001 -- the error that stopped the stream is the one to report
                pass
            raise
        flush()
