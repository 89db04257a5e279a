"""The numeric option checks every judge backend shares (``judges.options``) and the registry's type check.

Each backend once wrote its own "a number, not a bool" check, and they drifted: the lexical judge took
numpy scalars and refused NaN, the others refused numpy scalars. These tests pin the one rule they now share.
"""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from argue_eval.errors import InputError
from argue_eval.judges import registry
from argue_eval.judges.base import JudgeBackend
from argue_eval.judges.cascade import CascadeJudge
from argue_eval.judges.lexical import LexicalJudge
from argue_eval.judges.nli import NLIJudge
from argue_eval.judges.options import number_option, passage_options, whole_option


def test_a_number_is_any_real_but_a_bool_or_nan() -> None:
    value = number_option("lexical", "answer_threshold", np.float32(0.25), 0.0, 1.0)
    assert value == 0.25 and type(value) is float  # a plain float: the judge identity must be JSON
    assert number_option("cascade", "threshold", 1, 0.0, 1.0) == 1.0
    assert number_option("lexical", "entity_weight", -3) == -3.0  # no range: any number
    for bad, shown in ((True, "True"), ("abc", "'abc'"), (math.nan, "nan"), (None, "None")):
        with pytest.raises(InputError) as caught:
            number_option("lexical", "entity_weight", bad)
        assert str(caught.value) == f"--judge-option: lexical.entity_weight: expected a number, found {shown}"


def test_infinity_and_numbers_too_large_for_a_float_are_not_numbers() -> None:
    # accepted, an infinite weight or threshold went into the judge identity and was written into every
    # judgment's provenance as null (orjson has no infinity), and made the lexical scores NaN
    for bad in (math.inf, -math.inf, np.float64(math.inf)):
        with pytest.raises(InputError, match="lexical.number_weight: expected a number, found "):
            number_option("lexical", "number_weight", bad)
        with pytest.raises(InputError, match="lexical.negative_threshold: expected a number, found "):
            LexicalJudge(negative_threshold=bad)
        with pytest.raises(InputError, match="third.weight: expected a number, found "):
            registry._construct(ThirdParty, "third", {"weight": bad})
    with pytest.raises(InputError, match="third.weight: expected a number, found 1000"):  # was an OverflowError
        registry._construct(ThirdParty, "third", {"weight": 10 ** 400})
    assert number_option("lexical", "entity_weight", 1e300) == 1e300  # large but finite is a number


def test_the_range_and_the_noun_are_in_the_message() -> None:
    with pytest.raises(InputError) as caught:
        number_option("semantic", "answers_threshold", -1.5, -1.0, 1.0, "a cosine")
    assert str(caught.value) == ("--judge-option: semantic.answers_threshold: expected a cosine between -1 and 1, "
                                 "found -1.5")
    assert number_option("semantic", "answers_threshold", -1.0, -1.0, 1.0) == -1.0  # the bounds are allowed


def test_a_whole_number_is_integral_and_not_a_bool() -> None:
    value = whole_option("nli", "batch_size", np.int64(16))
    assert value == 16 and type(value) is int
    for bad in (1.5, True, "8", 7):
        with pytest.raises(InputError, match=f"nli.max_length: expected a whole number of at least 8, found {bad!r}"):
            whole_option("nli", "max_length", bad, least=8)


def test_a_stride_longer_than_the_passage_is_refused() -> None:
    assert passage_options("lexical", 10, 10) == (10, 10)
    with pytest.raises(InputError, match=r"lexical.passage_stride: expected at most passage_words \(10\), found 11"):
        passage_options("lexical", 10, 11)
    with pytest.raises(InputError, match="lexical.passage_words: expected a whole number of at least 1, found 0"):
        passage_options("lexical", 0, 1)


def test_every_backend_applies_the_same_rule() -> None:
    # numpy scalars (a threshold sweep) were refused by the NLI, semantic and cascade checks and kept as
    # numpy values by the lexical judge; now every backend takes them and keeps a plain number.
    with pytest.raises(InputError, match="nli.attested_threshold: expected a probability between 0 and 1, found nan"):
        NLIJudge(model_path="unused", attested_threshold=math.nan)
    with pytest.raises(InputError, match="cascade.threshold: expected a confidence between 0 and 1, found True"):
        CascadeJudge([LexicalJudge()], threshold=True)
    with pytest.raises(InputError, match="no such model directory"):  # the threshold passed; the path did not
        NLIJudge(model_path="unused", answers_threshold=np.float32(0.5))
    cascade = CascadeJudge([LexicalJudge()], threshold=np.float32(0.5))
    assert cascade.params()["threshold"] == 0.5 and type(cascade.params()["threshold"]) is float
    lexical = LexicalJudge(answer_threshold=np.float32(0.5), passage_words=np.int64(400))
    # plain numbers in the identity: it is written as JSON into every verdict's provenance and the cache key
    assert json.dumps(lexical.identity()) == json.dumps(LexicalJudge(answer_threshold=0.5, passage_words=400).identity())
    with pytest.raises(InputError, match="lexical.negative_threshold: expected a number, found nan"):
        LexicalJudge(negative_threshold=math.nan)


class ThirdParty(JudgeBackend):
    """A backend that checks nothing itself: the registry's type check is all that guards its options."""

    name = "third"
    version = "1"
    kinds = frozenset({"answers"})

    def __init__(self, weight: float = 0.5, rounds: int = 3):
        self.weight, self.rounds = weight, rounds

    def params(self) -> dict[str, object]:
        return {"weight": self.weight, "rounds": self.rounds}

    def answer_many(self, questions):  # pragma: no cover - never asked here
        return [None for _ in questions]


def test_the_registry_checks_a_third_party_backends_options_by_their_defaults() -> None:
    built = registry._construct(ThirdParty, "third", {"weight": 1, "rounds": np.int64(4)})
    assert built.params() == {"weight": 1.0, "rounds": 4}
    assert type(built.weight) is float and type(built.rounds) is int
    with pytest.raises(InputError, match="third.weight: expected a number, found nan"):
        registry._construct(ThirdParty, "third", {"weight": math.nan})
    with pytest.raises(InputError, match="third.rounds: expected a whole number, found 2.5"):
        registry._construct(ThirdParty, "third", {"rounds": 2.5})
