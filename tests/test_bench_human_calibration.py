"""bench/bench_human.py's calibrated rows: the held-out fold's answers come from options fitted without its labels,
each question goes to its fold's judge, and LongRecall's decision (covered when a candidate sentence gives the
fact) is what the REALSumm fit is scored on. Worked by hand on sets of a few items."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from argue_eval.judges.base import JudgeBackend, Question, Verdict
from argue_eval.model import make_key
from argue_eval.organizer.calibration import Answerer, Labelled

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_human", REPO / "bench" / "bench_human.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_human"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("bench_human", None)


def question(topic: str, sentence: str) -> Question:
    return Question(make_key("attested", topic, sentence, doc_id="d"), sentence)


class Says(JudgeBackend):
    name = "says"
    kinds = frozenset({"attested", "answers"})

    def __init__(self, value: bool) -> None:
        self.value = value

    def answer_many(self, questions):
        return [Verdict(self.value, f"says-{self.value}") for _ in questions]


def test_each_question_goes_to_its_folds_judge_in_order(bench):
    folded = bench.FoldedJudge([Says(True), Says(False)], lambda q: int(q.key.request_id[1:]) % 2)
    asked = [question("t1", "a"), question("t2", "b"), question("t3", "c"), question("t4", "d")]
    assert [v.value for v in folded.answer_many(asked)] == [False, True, False, True]
    assert folded.kinds == frozenset({"attested", "answers"})


class ByThreshold(Answerer):
    """Answers item i yes when its score is at least the lexical ``attested_threshold`` being tried."""

    def __init__(self, labelled: Labelled, scores: list[float]) -> None:
        super().__init__(labelled)
        self.scores = scores

    def verdicts(self, backend, options, kinds):
        if self.progress is not None:
            self.progress.update(1)
        return [Verdict(score >= options["attested_threshold"] - 1e-9, backend) for score in self.scores]


# ten topics of two items: on every topic one yes (score 0.62) and one no (score 0.50), except the labels flipped
# below. Thresholds of the grid (0.15 .. 0.85 by 0.05, and the default 0.45): at 0.55 and 0.60 every item agrees
# (kappa 1 on every resample: no spread), at the default 0.45 every "no" is said yes (kappa 0); of the two perfect
# points the one-standard-error rule takes the one closest to the default: 0.55.
TOPICS = [f"t{i:02d}" for i in range(1, 11)]


def labelled_set(flipped: set[str] = frozenset()) -> tuple[Labelled, list[float]]:
    pairs, scores = [], []
    for topic in TOPICS:
        for sentence, score, label in (("yes", 0.62, True), ("no", 0.50, False)):
            pairs.append((question(topic, sentence), label != (topic in flipped)))
            scores.append(score)
    return Labelled.build(pairs), scores


def test_the_fit_by_hand_and_no_fold_sees_its_own_labels(bench):
    row = bench.Row("lexical calibrated", "lexical", folds=5)
    labelled, scores = labelled_set()
    options, folds, fits = bench.cross_validate(row, ByThreshold(labelled, scores), resamples=50, seed=0)
    assert sorted(topic for fold in folds for topic in fold) == TOPICS and [len(f) for f in folds] == [2] * 5
    assert [o["attested_threshold"] for o in options] == [0.55] * 5
    assert all(fit["moved"] == {"lexical.attested_threshold": [0.45, 0.55]} and not fit["refused"] for fit in fits)
    assert all(fit["training_topics"] == 8 for fit in fits)

    # flip every label of the first fold's topics: its fit (on the other folds) is the same to the last figure,
    # while every other fold's training set now holds two topics that say the opposite (its fit's inner kappas fall)
    first = set(folds[0])
    flipped_options, flipped_folds, flipped_fits = bench.cross_validate(row, ByThreshold(*labelled_set(first)), 50, 0)
    assert flipped_folds == folds
    assert flipped_options[0] == options[0] and flipped_fits[0] == fits[0]
    assert all(flipped_fits[k]["inner_held_out_kappa"]["attested"][1] < 1.0 for k in range(1, 5))
    assert fits[1]["inner_held_out_kappa"]["attested"] == [0.0, 1.0]


def test_a_refused_fit_leaves_the_fold_on_its_defaults(bench):
    # t08 and t09 say the opposite of their scores. A fold whose training set holds both fits 0.55 on its eight
    # topics (six agree perfectly there), but on the inner folds the topic held out is answered with 0.55 fitted
    # on the others, and where that topic is t08 or t09 it disagrees on both items: the pooled inner kappa of the
    # fit falls below the default's, `judge calibrate` refuses the profile, and the fold is answered with 0.45
    row = bench.Row("lexical calibrated", "lexical", folds=5)
    labelled, scores = labelled_set({"t08", "t09"})
    options, folds, fits = bench.cross_validate(row, ByThreshold(labelled, scores), resamples=50, seed=0)
    refused = [k for k, fit in enumerate(fits) if fit["refused"]]
    assert refused and all({"t08", "t09"}.isdisjoint(folds[k]) for k in refused)
    for k in refused:
        assert fits[k]["moved"] == {"lexical.attested_threshold": [0.45, 0.55]}
        assert fits[k]["inner_held_out_kappa"]["attested"][1] < fits[k]["inner_held_out_kappa"]["attested"][0]
        assert options[k]["attested_threshold"] == 0.45
    for k in set(range(5)) - set(refused):
        moved = fits[k]["moved"].get("lexical.attested_threshold")
        assert options[k]["attested_threshold"] == (moved[1] if moved else 0.45)


def test_a_fact_is_covered_when_some_candidate_gives_it(bench, monkeypatch):
    # pairs: 0 yes, 1 no, 2 could not judge. Facts: {0, 1} covered; {1} not; {} (no candidate) not;
    # {1, 2} unjudged (None, never a silent no); {2, 0} covered
    answers = [Verdict(True, "x"), Verdict(False, "x"), None]

    class Fixed(JudgeBackend):
        name = "fixed"
        kinds = frozenset({"answers"})

        def answer_many(self, questions):
            return [answers[int(q.sentence)] for q in questions]

    made = []

    def make_judge(spec, options=None, profile=None):
        made.append(options)
        return Fixed()

    monkeypatch.setattr("argue_eval.judges.registry.make_judge", make_judge)
    pairs = [question("t1", str(i)) for i in range(3)]
    labelled = Labelled(pairs[:1] * 5, np.zeros(5, dtype=bool), ["t1"], np.zeros(5, dtype=np.int64),
                        np.array(["answers"] * 5, dtype=object))
    facts = bench._FactAnswerer(labelled, pairs, [[0, 1], [1], [], [1, 2], [2, 0]])
    got = facts.verdicts("lexical", {"answer_threshold": 0.5}, {"answers"})
    assert [None if v is None else v.value for v in got] == [True, False, False, None, True]
    facts.verdicts("lexical", {"answer_threshold": 0.5}, {"answers"})
    assert made == [{"lexical": {"answer_threshold": 0.5}}]  # each option set answers the pairs once
