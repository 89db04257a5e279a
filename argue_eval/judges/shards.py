"""One round across many machines: each machine judges a deterministic share of every round's questions.

The unit of a share is a sentence of a topic, by its normalized text (the ``sentence`` of its questions' keys):
a sentence's path through the flowchart depends on its own answers alone, so every question it is ever asked,
in every round (its citations' ``answers`` and ``attested``, then ``negative``, ``nugget_agrees`` or
``requires_citation``, then ``first_instance``), falls in the same share, and a machine judges its share
through all rounds without waiting on the others. The same sentence in ten runs is one question on one
machine. Which share a sentence is in is a hash of its topic and text (BLAKE2b, not Python's salted
``hash``): the same on every machine, in every rerun, whatever the order or the number of the run files.

Each shard's answers go to its own cache; a run over the caches joined takes every answer from them and writes
the judgments a single machine would have written. ``api.judge(..., shard="K/N")`` and ``judge --shard K/N``
judge one share (the command writes only its cache); ``argue-eval cache merge`` (``api.merge_caches``) joins the
shards' caches, and ``judge`` without ``--shard`` over the merged cache writes the judgments (docs/judging.md,
"One round across many machines"; ``tests/test_cache_merge.py`` runs three shards as three processes).
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from ..errors import OptionError
from ..model import Report, normalize_text

__all__ = ["Shard", "parse_shard"]

_SPEC = re.compile(r"\s*(\d{1,9})\s*/\s*(\d{1,9})\s*")


@dataclass(frozen=True, slots=True)
class Shard:
    """Share ``index`` (1-based) of ``count``."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def owns(self, request_id: str, normalized: str) -> bool:
        """Whether the sentence ``normalized`` (``model.normalize_text``) of topic ``request_id`` is this share's."""
        digest = hashlib.blake2b(f"{request_id}\0{normalized}".encode("utf-8", "surrogatepass"), digest_size=8)
        return int.from_bytes(digest.digest(), "big") % self.count == self.index - 1

    def sentences(self, report: Report) -> frozenset[int]:
        """The indices of ``report``'s sentences in this share."""
        request_id = report.request_id
        return frozenset(index for index, sentence in enumerate(report.sentences)
                         if self.owns(request_id, normalize_text(sentence.text)))


def parse_shard(text: str, option: str = "--shard") -> Shard:
    """``"K/N"`` (``1 <= K <= N``) as a ``Shard``; anything else is an ``OptionError`` naming the option."""
    match = _SPEC.fullmatch(text)
    if match is None:
        raise OptionError(option, f"expected K/N, e.g. 2/8 (share K of N, K from 1 to N), got {text!r}")
    index, count = int(match.group(1)), int(match.group(2))
    if count < 1 or not 1 <= index <= count:
        raise OptionError(option, f"expected K/N with 1 <= K <= N, got {text!r}")
    return Shard(index, count)
