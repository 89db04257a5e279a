"""The NLI judge: entailment probabilities from a local sequence-classification model (docs/judging.md).

Any Hugging Face model trained for natural language inference (a DeBERTa-v3 MNLI/FEVER/ANLI model, a
RoBERTa MNLI model, ...) works: the judge reads it from a local directory (``model_path``, the CLI's
``--nli-model PATH``) with ``local_files_only=True``, so nothing is ever downloaded, and never runs code
shipped with a model (no ``trust_remote_code``). Which output is "entailment" is read from the model's
``config.json`` (``id2label``, matched case-insensitively); a model without such a label is refused rather
than guessed at, since label orders differ between NLI models.

What it asks the model (premise => hypothesis):

- ``attested``: each passage of the cited document => the sentence. Documents are cut into overlapping
  word windows (``argue_eval.passages``: ``passage_words`` long, one every ``passage_stride`` words); a
  passage longer than the model's window is cut at its end by the tokenizer (only the premise is cut,
  never the sentence), and the overlap between windows puts that tail at the start of the next passage. The entailment probability is the maximum over
  passages: one paragraph that supports the sentence is enough.
- ``answers``: the sentence => ``The answer to the question "<question>" is <answer>.`` The sentence is the
  premise because the question is whether *the sentence* gives the answer; that the cited document
  attests the answer is already recorded in the nugget bank. The hypothesis is a declarative statement
  because NLI models are trained on declarative hypotheses, and the question stays in it because a bare
  answer ("Women", "More than 10") is not a claim.

A verdict is "yes" when the probability reaches the kind's threshold (``attested_threshold``,
``answers_threshold``); confidence is ``0.5 + |p - threshold|`` capped at 1. Probabilities are rounded to
four decimals, so reruns that batch differently give the same output.

Pairs are deduplicated across the questions of one call, sorted by length and run in batches of
``batch_size`` (by default the device kind's) on ``device`` (``search.devices``: ``auto`` takes a GPU torch
sees); passage probabilities are cached for the judge's lifetime. Neither the device nor the batch size is part
of the identity: the probabilities are rounded, so a GPU and a CPU give the same verdicts.

The model's identity (part of the cache key) is its directory name plus a SHA-256 of its config, weight
and tokenizer files, so replacing the model or its tokenizer at the same path is a new judge.
"""
from __future__ import annotations

import hashlib
import os
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .. import stopping
from ..errors import InputError, MissingDependencyError
from ..extras import offline_hub, require_modules
from ..passages import DEFAULT_PASSAGE_STRIDE, DEFAULT_PASSAGE_WORDS, PassageSplitter
from ..search.devices import DEFAULT_DEVICE
from ..search.devices import batch_size as batch_size_for
from .base import JudgeBackend, Question, Verdict
from .options import device_option, number_option, passage_options, whole_option

__all__ = ["NLIJudge", "entailment_index", "answer_statement"]

FEATURE = "the NLI judge (a transformers sequence-classification model)"
OPTION = "--nli-model"
_IDENTITY_SUFFIXES = (".safetensors", ".bin", ".json", ".txt", ".model")
"""The files whose bytes make the model's identity: weights, config, and the tokenizer's files (tokenizer.json,
vocab.txt, vocab.json, merges.txt, sentencepiece .model), since the tokenizer decides what the model reads."""
_PROBE = "The council approved the budget."
"""Plain English that any NLI model's tokenizer splits into known tokens (a check that it has a vocabulary)."""


def entailment_index(id2label: dict[Any, str] | None, where: str = "config.json") -> int:
    """The output index whose label is entailment (``ENTAILMENT``, ``entailment``, ``Entails`` ...).

    Without one -- a model fine-tuned with default ``LABEL_0``-style names, or two candidates -- this is a
    user error: guessing an index would silently turn contradictions into entailments.
    """
    labels = {int(index): str(label) for index, label in (id2label or {}).items()}
    found = [index for index, label in labels.items() if label.strip().lower().startswith("entail")]
    if len(found) != 1:
        shown = ", ".join(f"{index}={label}" for index, label in sorted(labels.items())) or "none"
        problem = "no entailment label" if not found else "more than one entailment label"
        raise InputError(where, None, "id2label",
                         f"{problem} among the model's labels ({shown}); an NLI model names one label 'entailment'")
    return found[0]


def answer_statement(question: str, answer: str) -> str:
    """The hypothesis for ``answers``: the nugget's answer stated as a claim in the context of its question."""
    question = " ".join(question.split())
    answer = " ".join(answer.split()).rstrip(".")
    if not question:
        return f"{answer}."
    return f'The answer to the question "{question}" is {answer}.'


def _confidence(probability: float, threshold: float) -> float:
    return round(min(1.0, 0.5 + abs(probability - threshold)), 4)


class NLIJudge(JudgeBackend):
    """Entailment judge for ``attested`` and ``answers`` from a local NLI model."""

    name = "nli"
    version = "1"
    cost_unit = "pairs to read"
    kinds = frozenset({"attested", "answers"})

    def __init__(
        self,
        model_path: str | os.PathLike[str] | None = None,
        attested_threshold: float = 0.5,
        answers_threshold: float = 0.5,
        batch_size: int | None = None,
        max_length: int = 512,
        passage_words: int = DEFAULT_PASSAGE_WORDS,
        passage_stride: int = DEFAULT_PASSAGE_STRIDE,
        cache_pairs: int = 200_000,
        device: str = DEFAULT_DEVICE,
    ):
        """``device``: where the model runs (``auto``, ``cpu``, ``cuda``, ``cuda:N``, ``mps``: ``search.devices``);
        ``batch_size``: pairs per batch (default: the device kind's, ``devices.BATCH_SIZES["nli"]``). Neither is
        part of the identity (``runtime`` says what a run used)."""
        attested_threshold = number_option("nli", "attested_threshold", attested_threshold, 0.0, 1.0, "a probability")
        answers_threshold = number_option("nli", "answers_threshold", answers_threshold, 0.0, 1.0, "a probability")
        batch_size = None if batch_size is None else whole_option("nli", "batch_size", batch_size)
        device = device_option("nli", device)
        cache_pairs = whole_option("nli", "cache_pairs", cache_pairs)
        max_length = whole_option("nli", "max_length", max_length, least=8)
        passage_words, passage_stride = passage_options("nli", passage_words, passage_stride)
        if model_path is None or not str(model_path).strip():
            raise InputError(OPTION, None, None,
                             "the nli judge needs a local NLI model directory: --nli-model PATH "
                             "(a transformers sequence-classification model saved with save_pretrained)")
        path = Path(str(model_path)).expanduser()  # str(): --judge-option nli.model_path=2024 arrives as 2024
        if path.is_file():
            raise InputError(path, None, None, f"{OPTION}: a file, not a model directory; give the folder that "
                                               "save_pretrained wrote (config.json, weights, tokenizer)")
        if not path.is_dir():
            raise InputError(path, None, None, f"{OPTION}: no such model directory")
        if not (path / "config.json").is_file():
            raise InputError(path, None, None,
                             f"{OPTION}: not a transformers model directory (no config.json); "
                             "give the folder that save_pretrained wrote")
        require_modules(FEATURE, "nli", ("torch", "transformers"))
        self.model_path = path
        self.attested_threshold = attested_threshold
        self.answers_threshold = answers_threshold
        self.device = device
        self._batch_given = batch_size  # None: the device kind's default, once the device is resolved (_load)
        self.batch_size = 0
        self.max_length = max_length
        self.passages = PassageSplitter(passage_words, passage_stride)
        self._cache_pairs = cache_pairs
        self._probabilities: OrderedDict[tuple[str, str], float] = OrderedDict()
        self._model: Any = None
        self._tokenizer: Any = None
        self._entailment: int | None = None
        self._fingerprint: str | None = None
        self._load()

    # -- loading -------------------------------------------------------------------------------------------

    def _load(self) -> None:
        """Tokenizer, model and label mapping, from the local directory only."""
        offline_hub()
        try:
            import torch  # noqa: F401  (imported here so a broken torch fails as a missing extra)
            import transformers  # noqa: F401
            from transformers.utils import logging as transformers_logging
        except ImportError as error:
            raise MissingDependencyError(FEATURE, "nli", str(error)) from None
        transformers_logging.disable_progress_bar()
        from ..search.devices import resolve_device

        self._where = resolve_device(self.device)  # a GPU torch does not see: one line, before the model loads
        self.batch_size = batch_size_for("nli", self._where, self._batch_given)
        with _transformers_quiet():
            self._load_files()

    def _load_files(self) -> None:
        from transformers import AutoConfig, AutoModelForSequenceClassification, AutoTokenizer

        where = str(self.model_path)
        # A damaged or foreign directory makes transformers raise almost anything (OSError, ValueError,
        # AttributeError for an id2label list, safetensors' SafetensorError, torch's UnpicklingError, a
        # RuntimeError for mismatched weights): all of it is about the user's files, so all of it is an
        # InputError naming them, never a traceback.
        try:
            config = AutoConfig.from_pretrained(where, local_files_only=True)
        except Exception as error:  # see above
            raise InputError(self.model_path / "config.json", None, None,
                             f"{OPTION}: cannot read the model's config: {_first_line(error)}") from None
        self._entailment = entailment_index(getattr(config, "id2label", None), str(self.model_path / "config.json"))
        try:
            self._tokenizer = AutoTokenizer.from_pretrained(where, local_files_only=True)
            model = AutoModelForSequenceClassification.from_pretrained(where, config=config, local_files_only=True)
        except Exception as error:  # see above
            raise InputError(self.model_path, None, None,
                             f"{OPTION}: cannot load a sequence-classification model and its tokenizer: "
                             f"{_first_line(error)}") from None
        self._check_tokenizer()
        model.eval()
        if self._where.kind != "cpu":
            model.to(self._where.name)
        self._model = model
        limit = getattr(self._tokenizer, "model_max_length", None) or self.max_length
        positions = getattr(config, "max_position_embeddings", None) or self.max_length
        self._window = int(min(self.max_length, limit, positions))

    def _check_tokenizer(self) -> None:
        """Refuse a tokenizer that reads no words: without its vocabulary files (``tokenizer.json``,
        ``vocab.txt``, ``vocab.json``, ...) transformers builds an empty one that turns every text into
        unknown tokens or nothing, and the model would then give every pair the same probability."""
        tokens = self._tokenizer.tokenize(_PROBE)
        unknown = getattr(self._tokenizer, "unk_token", None)
        if not any(token != unknown for token in tokens):
            raise InputError(self.model_path, None, None,
                             f"{OPTION}: the tokenizer knows none of the words of {_PROBE!r} (its vocabulary "
                             "files, e.g. tokenizer.json or vocab.txt, are missing from the folder?)")

    def fingerprint(self) -> str:
        """SHA-256 over the config, weight and tokenizer files (names and bytes): the model's identity in the
        cache."""
        if self._fingerprint is None:
            digest = hashlib.sha256()
            files = sorted(p for p in self.model_path.iterdir() if p.is_file() and p.name.endswith(_IDENTITY_SUFFIXES))
            for file in files:
                digest.update(file.name.encode("utf-8") + b"\0")
                with open(file, "rb") as handle:
                    for block in iter(lambda: handle.read(1 << 20), b""):
                        digest.update(block)
            self._fingerprint = digest.hexdigest()
        return self._fingerprint

    def runtime(self) -> dict[str, Any]:
        """The device the model runs on and the batch size (for the manifest, not the identity)."""
        return {"device": self._where.name, "batch_size": self.batch_size}

    def params(self) -> dict[str, Any]:
        return {
            "model": self.model_path.name,
            "model_sha256": self.fingerprint(),
            "entailment_label": int(self._entailment) if self._entailment is not None else None,
            "attested_threshold": self.attested_threshold,
            "answers_threshold": self.answers_threshold,
            "max_length": self._window,
            "passage_words": self.passages.words,
            "passage_stride": self.passages.stride,
        }

    # -- inference -----------------------------------------------------------------------------------------

    def entailment_probabilities(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """P(entailment) for each (premise, hypothesis), batched, cached, rounded to four decimals."""
        import torch

        missing = list(dict.fromkeys(pair for pair in pairs if pair not in self._probabilities))
        # Similar lengths in one batch waste less padding; the order never changes a result beyond rounding.
        missing.sort(key=lambda pair: len(pair[0]) + len(pair[1]))
        with stopping.stoppable():  # a signal asks to stop between two batches, never inside the model
            for start in range(0, len(missing), self.batch_size):
                stopping.check()
                batch = missing[start:start + self.batch_size]
                with _transformers_quiet():  # its "sequence longer than the maximum" warning: the cut is ours
                    encoded = self._tokenizer(
                        [premise for premise, _ in batch],
                        [hypothesis for _, hypothesis in batch],
                        truncation="only_first" if self._fits(batch) else "longest_first",
                        max_length=self._window,
                        padding=True,
                        return_tensors="pt",
                    )
                if self._where.kind != "cpu":
                    encoded = encoded.to(self._where.name)
                with torch.inference_mode():
                    logits = self._model(**encoded).logits
                probabilities = torch.softmax(logits.float(), dim=-1)[:, self._entailment].tolist()
                for pair, probability in zip(batch, probabilities):
                    self._probabilities[pair] = round(float(probability), 4)
        out = []
        for pair in pairs:
            out.append(self._probabilities[pair])
            self._probabilities.move_to_end(pair)
        while len(self._probabilities) > self._cache_pairs:
            self._probabilities.popitem(last=False)
        return out

    def _fits(self, batch: Sequence[tuple[str, str]]) -> bool:
        """Whether every hypothesis leaves room for some premise (else both sides must be cut)."""
        budget = self._window - 4  # [CLS] and separators, generously
        for _, hypothesis in batch:
            if len(self._tokenizer.tokenize(hypothesis)) >= budget - 8:
                return False
        return True

    def _pairs(self, question: Question) -> list[tuple[str, str]]:
        if question.kind == "attested":
            if question.document is None:
                return []
            passages = self.passages.document(question.document)
            return [(passage, question.sentence) for passage in passages]
        if question.kind == "answers":
            answer = question.answer if question.answer is not None else question.key.answer
            if answer is None or not answer.strip():
                return []
            asked = question.nugget.question if question.nugget is not None else ""
            return [(question.sentence, answer_statement(asked, answer))]
        return []

    def plan_calls(self, questions: Sequence[Question]) -> dict[str, int]:
        """(premise, hypothesis) pairs the model would read, per kind (``judge --dry-run``); an ``attested``
        question whose document is not attached counts as one pair (it has at least one passage), one whose
        document is empty as none."""
        seen: set[tuple[str, str]] = set()
        calls: dict[str, int] = {}
        for question in questions:
            if question.kind not in self.kinds:
                continue
            pairs = self._pairs(question)
            fresh = [pair for pair in dict.fromkeys(pairs) if pair not in seen and pair not in self._probabilities]
            seen.update(fresh)
            unread = not pairs and question.kind == "attested" and question.document is None
            count = 1 if unread else len(fresh)
            calls[question.kind] = calls.get(question.kind, 0) + count
        return calls

    def answer_many(self, questions: Sequence[Question]) -> list[Verdict | None]:
        asked = [self._pairs(question) if question.kind in self.kinds else [] for question in questions]
        flat = [pair for pairs in asked for pair in pairs]
        probabilities = dict(zip(flat, self.entailment_probabilities(flat))) if flat else {}
        verdicts: list[Verdict | None] = []
        for question, pairs in zip(questions, asked):
            if not pairs and question.kind == "attested" and question.document is not None:
                # a document without text attests nothing (as the lexical judge says)
                verdicts.append(Verdict(False, self.name, 1.0, "cited document is empty",
                                        provenance=self.provenance()))
                continue
            if not pairs:
                verdicts.append(None)  # unsupported kind, or nothing to read: cannot judge
                continue
            scores = [probabilities[pair] for pair in pairs]
            best = max(range(len(scores)), key=scores.__getitem__)
            probability = scores[best]
            if question.kind == "attested":
                threshold = self.attested_threshold
                rationale = (f"entailment {probability:.3f} from passage {best + 1}/{len(pairs)} "
                             f"(attested at >= {threshold:g})")
            else:
                threshold = self.answers_threshold
                rationale = f"entailment {probability:.3f} of the answer statement (answers at >= {threshold:g})"
            verdicts.append(Verdict(probability >= threshold, self.name, _confidence(probability, threshold),
                                    rationale, provenance=self.provenance()))
        return verdicts

    def forget(self) -> None:
        """The topic's passage probabilities leave memory (another topic reads other passages)."""
        self._probabilities.clear()

    def close(self) -> None:
        self._model = None
        self._tokenizer = None
        self._probabilities.clear()


@contextmanager
def _transformers_quiet() -> Iterator[None]:
    """transformers' warnings silenced (errors still pass): a weight-loading report printed before our one-line
    error, or a warning about sequences the judge truncates itself, would only mislead."""
    from transformers.utils import logging as transformers_logging

    before = transformers_logging.get_verbosity()
    transformers_logging.set_verbosity_error()
    try:
        yield
    finally:
        transformers_logging.set_verbosity(before)


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__
