"""The judge protocol (docs/judging.md): every backend answers the same yes/no questions of the ARGUE flowchart.

A ``Question`` is what the flowchart asks: its identity is ``Question.key`` (the ``JudgmentKey`` that
judgment files, caches and assessment pools share), and it carries the context a judge may need to
answer it (the request, the nugget, the report's earlier sentences). A ``JudgmentSource`` answers a
question with a ``Verdict`` (the value plus its provenance) or says it has no answer (``None``): for
imported judgments that means "missing", which the scorer reports instead of guessing.

Scoring never calls a model: it asks a source that only looks answers up (``ImportedJudgments``), and a
model-backed judge fills judgment files beforehand. Keeping both behind one protocol is what lets
``evaluate`` (= judge + score) and ``assess export`` reuse the flowchart unchanged.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from ..model import DOCUMENT_KINDS, Document, Judgment, JudgmentKey, Location, make_key

if TYPE_CHECKING:
    from ..model import Nugget, Request

__all__ = [
    "Question",
    "Verdict",
    "JudgmentSource",
    "JudgmentLookup",
    "JudgeBackend",
    "make_key",
    "verdict_to_judgment",
    "answer_all",
    "attached_documents",
]


@dataclass(slots=True, unsafe_hash=True)
class Question:
    """One flowchart question about one sentence, with the context needed to answer it.

    Read only, though not frozen: a frozen dataclass's constructor sets every field through
    ``object.__setattr__``, about three times the cost of a plain one (2.2 against 0.65 microseconds), and a round
    of judging builds one ``Question`` per question (the runner two), one ``Verdict`` per answer and, in a dry run,
    one ``llm_prompts.Prompt`` per call: hundreds of thousands. The three compare and hash as their frozen forms
    did; no code assigns to one once built (``dataclasses.replace`` makes another).

    ``sentence`` is the text as the report has it (judges read it); ``key`` is its identity, built from the
    normalized text, so the same sentence citing the same document in ten runs is one question.
    """

    key: JudgmentKey
    sentence: str
    request: Request | None = None
    nugget: Nugget | None = None
    answer: str | None = None
    """The nugget answer as the bank spells it (the key holds its normalized form)."""
    earlier_sentences: tuple[str, ...] = ()
    """The report's sentences before this one (``first_instance`` compares against them)."""
    document: Document | None = None
    """The cited document (``relevant``/``answers``/``attested``), filled in by the judge runner from the
    collection; backends never open a collection themselves. ``None`` for kinds without a document."""
    cited_doc_ids: tuple[str, ...] = ()
    """For ``requires_citation``: the documents the report cites anywhere (ids; the runner fetches them)."""
    cited_documents: tuple[Document, ...] = ()
    """For ``requires_citation``: those documents (a claim that overlaps them more than the request is a
    claim that needs a citation). Empty when the runner has no collection."""

    @property
    def kind(self) -> str:
        return self.key.kind


def attached_documents(kind: str, doc_id: str | None, cited_doc_ids: tuple[str, ...], found: Mapping[str, Document],
                       cited_memo: dict[tuple[str, ...], tuple[Document, ...]] | None = None,
                       document: Document | None = None, cited: tuple[Document, ...] = ()
                       ) -> tuple[Document | None, tuple[Document, ...]]:
    """The ``document`` and ``cited_documents`` of a question of ``kind`` about ``doc_id`` citing ``cited_doc_ids``,
    looked up in ``found`` (``document`` and ``cited``: what it holds already, kept where ``found`` has no say).

    One lookup for ``judges.asking.with_documents`` and ``PendingQuestion.question``: a dry run attaches the
    documents while it builds each question of a round, not in a second copy. ``cited_memo``: the tuples already
    built for a list of ids from this ``found`` (a report's questions share its list)."""
    if kind in DOCUMENT_KINDS and doc_id is not None:
        document = found.get(doc_id)
    if cited_doc_ids:
        known = cited_memo.get(cited_doc_ids) if cited_memo is not None else None
        if known is None:
            known = tuple(found[d] for d in cited_doc_ids if d in found)
            if cited_memo is not None:
                cited_memo[cited_doc_ids] = known
        cited = known
    return document, cited


@dataclass(slots=True, unsafe_hash=True)
class Verdict:
    """A judge's answer with its provenance (who answered, how sure, why, and from which file line).

    Read only, though not frozen (see ``Question``)."""

    value: bool
    judge: str
    confidence: float | None = None
    rationale: str | None = None
    source: Location | None = field(default=None, compare=False)
    provenance: dict[str, Any] | None = field(default=None, compare=False)
    """How the judge was configured (backend, version, model, thresholds): written with the judgment."""


@runtime_checkable
class JudgmentSource(Protocol):
    """Anything that answers flowchart questions: imported files, the lexical judge, an LLM, a cascade."""

    name: str

    def answer(self, question: Question) -> Verdict | None:
        """The verdict for ``question``, or ``None`` when this source has no answer (a missing judgment)."""
        ...

    def answer_many(self, questions: Sequence[Question]) -> list[Verdict | None]:
        """Answer several questions at once (model-backed judges batch them; lookups just loop)."""
        ...


@runtime_checkable
class JudgmentLookup(Protocol):
    """What the scorer needs: answers that already exist, looked up by identity (never computed).

    ``position`` is (run id, sentence index) of the asking sentence: a source that keeps judgments made
    on one particular report (Auto-ARGUE files) may answer differently for that report.
    ``plain_table`` returns a ``JudgmentKey -> (value, judge, ...)`` mapping when a plain dictionary
    lookup answers every question (the scorer's fast path), or ``None``.
    """

    def lookup(self, key: JudgmentKey, position: tuple[str, int] | None = None) -> Verdict | None: ...

    def plain_table(self) -> Any: ...


class JudgeBackend:
    """Base class of the judges that compute answers (lexical, semantic, nli, llm, cascade).

    A backend answers ``Question`` records (the runner has attached the cited document); it never reads
    files. ``identity()`` names everything that can change an answer (backend, version, model, thresholds):
    the cache keys answers by it, so changing a threshold never reuses a stale answer.
    ``answer_many`` may batch; ``iter_answers`` yields ``(position, verdict)`` as answers arrive (the
    runner commits each one to the cache before it moves on), by default from ``answer_many`` in order;
    ``iter_answer_groups`` yields them in the groups that must be committed together (one model call).
    A verdict of ``None`` means "could not judge" (a failure, retried next run), never "no".
    """

    name: ClassVar[str] = "judge"
    version: ClassVar[str] = "1"
    kinds: ClassVar[frozenset[str]] = frozenset()
    """The question kinds this backend can answer; the runner reports others as unanswered."""
    cost_unit: ClassVar[str | None] = None
    """What a model-backed judge's ``plan_calls`` counts ("texts to embed", "model calls"); ``None`` for a
    model-free judge, which computes its answers in a moment (a cascade's dry run tells the two apart)."""
    profile: str | None = None
    """The id of the judge profile (``judge calibrate``) whose options this judge was made with, or ``None``."""

    def params(self) -> dict[str, Any]:
        """Thresholds and model settings that change answers (part of the identity and the provenance)."""
        return {}

    def identity(self) -> dict[str, Any]:
        """Everything that can change an answer; with a profile, its id too, so that answers made under two
        profiles never share a cache row, even where the two set the same options."""
        identity = {"backend": self.name, "version": self.version, **self.params()}
        if self.profile is not None:
            identity["profile"] = self.profile
        return identity

    def use_profile(self, profile: str) -> None:
        """Record that this judge's options come from the judge profile ``profile`` (its id): the registry
        calls it once, after construction, before any question is asked."""
        self.profile = profile

    def provenance(self) -> dict[str, Any]:
        return self.identity()

    def answer(self, question: Question) -> Verdict | None:
        return self.answer_many([question])[0]

    def answer_many(self, questions: Sequence[Question]) -> list[Verdict | None]:
        raise NotImplementedError

    def iter_answers(self, questions: Sequence[Question]) -> Iterator[tuple[int, Verdict | None]]:
        yield from enumerate(self.answer_many(questions))

    def iter_answer_groups(self, questions: Sequence[Question]) -> Iterator[list[tuple[int, Verdict | None]]]:
        """``iter_answers`` in groups the runner commits whole: the answers of one model call.

        A judge whose answer to one question depends on which others it was asked with (the LLM judge asks
        every nugget answer of a sentence and cited document in one prompt) yields each call's answers as
        one group. A kill then never leaves part of a call's answers in the cache, which would make the
        resumed run re-ask the rest in a shorter prompt and perhaps answer them differently. By default
        every answer is its own group.
        """
        for item in self.iter_answers(questions):
            yield [item]

    def runtime(self) -> dict[str, Any]:
        """How this judge computes its answers on this machine: a model-backed judge's device and batch size
        (``{"device": "cuda:0", "batch_size": 256}``), for the run's manifest. Never part of the identity: a GPU and
        a CPU give the same answers. Empty for a judge without a local model."""
        return {}

    def runtimes(self) -> dict[str, dict[str, Any]]:
        """``runtime`` by backend name (a cascade's: each member's that has one), as the manifest records it."""
        runtime = self.runtime()
        return {self.name: runtime} if runtime else {}

    def kept_besides_answers(self) -> str | None:
        """What this judge committed to the cache besides answers, for a stopped run's message ("412 text
        vectors"), or ``None``."""
        return None

    def check_installed(self) -> None:
        """Raise ``errors.MissingDependencyError`` when a package the judge needs to answer is not installed.

        ``judge`` and its dry run call it before any work, so both stop with the same message (the extra to
        install). Backends that load a model check in their constructor already; the others, whose
        constructor must work without the package (the LLM judge builds prompts and estimates without its
        HTTP client), check here.
        """

    def check_ready(self) -> None:
        """``check_installed``, and for a judge that calls a server, whether it listens (the LLM judge's
        ``check_ready``): what a run that will ask calls before any work, so it stops at once when it could not ask."""
        self.check_installed()

    def use_cache(self, cache: Any) -> None:
        """The judgment cache the answers go to (``asking.CachedJudge`` hands it over before it asks): a judge
        that keeps more than answers there (the semantic judge: its embeddings) takes it; the others ignore it."""

    def forget(self) -> None:
        """Drop what the judge keeps per text (tokens, embeddings, remembered replies): the runner calls it
        when a topic is judged, since the next topic's questions read other texts. Answers never change."""

    def close(self) -> None:
        """Release models, sessions or threads (the runner calls it once at the end)."""


def verdict_to_judgment(question: Question, verdict: Verdict) -> Judgment:
    """The canonical judgment record of an answered question (what a judge writes to its judgments file)."""
    key = question.key
    return Judgment(
        kind=key.kind,  # type: ignore[arg-type]
        request_id=key.request_id,
        sentence=question.sentence,
        value=verdict.value,
        judge=verdict.judge,
        doc_id=key.doc_id,
        nugget_id=key.nugget_id,
        answer=question.answer if question.answer is not None else key.answer,
        run_id=key.run_id,
        sentence_index=key.sentence_index,
        confidence=verdict.confidence,
        rationale=verdict.rationale,
        provenance=verdict.provenance,
    )


def answer_all(source: JudgmentSource, questions: Iterable[Question]) -> list[Verdict | None]:
    """Loop ``source.answer`` over ``questions`` (the default ``answer_many`` of lookup-only sources)."""
    return [source.answer(question) for question in questions]
