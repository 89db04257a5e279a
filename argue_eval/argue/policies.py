"""Scoring policies: every choice the flowchart (docs/scoring.md) leaves open is an explicit, named option with a default.

Policies are plain values so that a score table can say how it was made (``score`` prints them) and so
that two tables can only be compared when they were made the same way.

The dataclass's defaults are the only defaults: the click options (``commands._options``) and the API's keywords
read them from ``DEFAULTS``, and ``make_policies`` is the one place that builds ``Policies`` from keyword options
(``PolicyOptions`` types them); ``tests/test_policies_defaults.py`` fails on a default written anywhere else.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal, TypedDict

from ..errors import OptionError

Relevance = Literal["nuggets", "qrels", "judgments"]
NuggetScope = Literal["cited", "all"]
MissingTopics = Literal["zero", "skip"]
MissingJudgments = Literal["error", "zero", "skip"]
UnboundQuestions = Literal["drop", "negative", "keep"]
EvaluatedTopics = Literal["judged", "requests"]

RELEVANCE_SOURCES = ("nuggets", "qrels", "judgments")
NUGGET_SCOPES = ("cited", "all")
MISSING_TOPICS = ("zero", "skip")
MISSING_JUDGMENTS = ("error", "zero", "skip")
UNBOUND_QUESTIONS = ("drop", "negative", "keep")
EVALUATED_TOPICS = ("judged", "requests")

DEFAULT_WEIGHTS: dict[str, float] = {"vital": 2, "okay": 1, "none": 1}
"""Nugget weights by importance; ``none`` is the weight of a nugget whose bank gives no importance."""


@dataclass(frozen=True)
class Policies:
    """How to score; the defaults are those of docs/scoring.md.

    * ``relevance``: a citation is relevant when the cited document attests an answer of a nugget of the
      request (``nuggets``, a lookup), when qrels say ``rel > 0`` (``qrels``; documents absent from the
      qrels are not relevant), or as ``relevant`` judgments say (``judgments``, e.g. Auto-ARGUE's).
    * ``nugget_scope``: ``cited`` -- a sentence can only supply answers its (relevant) cited document
      attests, asked per citation; ``all`` -- a cited sentence may supply any answer of any nugget of the
      topic, asked once per sentence with no document (``answers`` judgments with ``doc_id`` null).
    * ``missing_topics``: a topic of the evaluation without a report scores 0 (``zero``) or is left out
      of the run's aggregates (``skip``).
    * ``missing_judgments``: stop with an error listing what is missing (``error``), count a missing
      answer as "no" (``zero``), or leave out each report that lacks any judgment (``skip``).
    * ``unbound_questions``: nuggets none of whose answers is attested by a document are dropped and
      listed (``drop``), treated as negative nuggets (``negative``), or kept as ordinary nuggets that only
      ``nugget_scope=all`` can find (``keep``).
    * ``weights``: weight per importance (``vital``, ``okay``, ``none``) for the weighted measures.
    * ``evaluated_topics``: which topics a run is evaluated on. ``judged`` (trec_eval's rule): the topics that
      have nuggets (at least one nugget that counts under the policies above), intersected with the requests
      when requests are given; a requested topic without nuggets is not evaluated (its reports are neither
      judged nor scored, and it is listed once), since with nothing to find its coverage is undefined and a 0
      there would only measure how many such topics the requests file lists. ``requests``: every topic of the
      requests (without requests, of the nugget bank), a topic without nuggets scoring 0 with its coverage
      undefined -- the behaviour before this policy, kept for whoever needs those numbers. Either way an
      evaluated topic with no report in the run follows ``missing_topics`` (0 by default, as ``trec_eval -c``).
    """

    relevance: Relevance = "nuggets"
    nugget_scope: NuggetScope = "cited"
    missing_topics: MissingTopics = "zero"
    missing_judgments: MissingJudgments = "error"
    unbound_questions: UnboundQuestions = "drop"
    weights: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    evaluated_topics: EvaluatedTopics = "judged"

    def __post_init__(self) -> None:
        for name, value, allowed in (
            ("relevance", self.relevance, RELEVANCE_SOURCES),
            ("nugget_scope", self.nugget_scope, NUGGET_SCOPES),
            ("missing_topics", self.missing_topics, MISSING_TOPICS),
            ("missing_judgments", self.missing_judgments, MISSING_JUDGMENTS),
            ("unbound_questions", self.unbound_questions, UNBOUND_QUESTIONS),
            ("evaluated_topics", self.evaluated_topics, EVALUATED_TOPICS),
        ):
            if value not in allowed:
                raise OptionError(f"--{name.replace('_', '-')}", f"expected one of {', '.join(allowed)}, found {value!r}")
        merged = dict(DEFAULT_WEIGHTS)
        merged.update(self.weights)
        for name, weight in merged.items():
            # a NaN or infinite weight would make every weighted ratio NaN, which no score table may hold
            if not math.isfinite(weight) or weight < 0:
                raise OptionError("--weights", f"weight for {name!r} must be a finite number >= 0, "
                                 f"found {weight!r}")
        object.__setattr__(self, "weights", merged)

    def weight(self, importance: str | None) -> float:
        """The weight of a nugget with this importance (``None`` = unlabelled)."""
        return self.weights["none" if importance is None else importance]

    def describe(self) -> str:
        """One line naming every policy, for logs and the ``--details`` header."""
        return (f"relevance={self.relevance} nugget-scope={self.nugget_scope} missing-topics={self.missing_topics} "
                f"missing-judgments={self.missing_judgments} unbound-questions={self.unbound_questions} "
                f"weights={format_weights(self.weights)} evaluated-topics={self.evaluated_topics}")

    def options(self) -> PolicyOptions:
        """The policies as keyword options (``make_policies(**p.options()) == p``), to pass them on to the API."""
        return {name: getattr(self, name) for name in POLICY_FIELDS}  # type: ignore[return-value]


class PolicyOptions(TypedDict, total=False):
    """The policies as keyword options, each optional (an option left out takes ``Policies``' default): what the
    API functions that score or judge take as ``**policies``."""

    relevance: Relevance
    nugget_scope: NuggetScope
    missing_topics: MissingTopics
    missing_judgments: MissingJudgments
    unbound_questions: UnboundQuestions
    weights: Mapping[str, float]
    evaluated_topics: EvaluatedTopics


POLICY_FIELDS: tuple[str, ...] = tuple(item.name for item in fields(Policies))
"""The policies' names, in the dataclass's order (the command line spells them with dashes: ``--nugget-scope``)."""

DEFAULTS = Policies()
"""The default policies (docs/scoring.md): where the click options and the API read every default."""


def make_policies(**options: Any) -> Policies:
    """``Policies`` from keyword options, ignoring ``None`` (an option not given): the one place the CLI and the
    API build them. An unknown name is an error that lists the policies."""
    unknown = sorted(set(options) - set(POLICY_FIELDS))
    if unknown:
        raise TypeError(f"unknown policy option(s) {', '.join(unknown)}; the policies are {', '.join(POLICY_FIELDS)}")
    return Policies(**{name: value for name, value in options.items() if value is not None})


def format_weights(weights: Mapping[str, float]) -> str:
    """``{"vital": 2, "okay": 1, "none": 1}`` -> ``"vital=2,okay=1,none=1"`` (what ``parse_weights`` reads)."""
    return ",".join(f"{name}={_num(weight)}" for name, weight in weights.items())


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def parse_weights(text: str) -> dict[str, float]:
    """``"vital=2,okay=1,none=1"`` -> weights; integers stay integers so counts print without ``.0``."""
    weights: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        name = name.strip().lower()
        if not sep or name not in DEFAULT_WEIGHTS:
            raise OptionError("--weights", f"expected IMPORTANCE=WEIGHT items with IMPORTANCE in vital, okay, none; found {part!r}")
        try:
            number = float(value)
        except ValueError:
            raise OptionError("--weights", f"weight for {name!r} is not a number: {value!r}") from None
        weights[name] = int(number) if number.is_integer() else number  # range checked by Policies
    return weights
