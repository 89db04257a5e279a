"""The judge-backed entailment of the alternate measures: questions asked, memo, cache, could-not-judge."""
from __future__ import annotations

from argue_eval.judges.base import JudgeBackend, Verdict
from argue_eval.judges.cache import JudgmentCache
from argue_eval.judges.registry import make_judge
from argue_eval.measures.entail import JudgeEntailer, JudgeFactChecker, passage_id
from argue_eval.measures.longrecall import Fact


class Flaky(JudgeBackend):
    """Says yes to attested questions whose sentence contains 'yes', cannot judge those containing 'fail'."""

    name = "flaky"

    def __init__(self):
        self.asked = []

    def answer_many(self, questions):
        self.asked.extend(q.sentence for q in questions)
        return [None if "fail" in q.sentence else Verdict("yes" in q.sentence, self.name) for q in questions]


def test_attested_questions_carry_the_premise_as_the_document():
    judge = make_judge("lexical")
    entail = JudgeEntailer(judge)
    premise = "The council closed the Lynde Road plant on 4 March after floodwater disabled the pumps."
    verdicts = entail([(premise, "Floodwater disabled the pumps at the Lynde Road plant."),
                       (premise, "The mayor resigned over a budget dispute.")])
    assert verdicts == [True, False]
    assert passage_id(premise) == passage_id("  " + premise.replace(" ", "  ") + " ")


def test_memo_and_cache_and_none_is_never_stored(tmp_path):
    judge = Flaky()
    with JudgmentCache(tmp_path / "c.sqlite") as cache:
        entail = JudgeEntailer(judge, cache=cache)
        pairs = [("p", "yes one"), ("p", "no two"), ("p", "fail three"), ("p", "yes one")]
        assert entail(pairs) == [True, False, None, True]
        assert judge.asked == ["yes one", "no two", "fail three"]  # the repeat is asked once
        assert cache.count() == 2  # the could-not-judge answer is not cached
        # a new entailer on the same cache asks only the failed question again
        judge.asked.clear()
        assert JudgeEntailer(judge, cache=cache)(pairs) == [True, False, None, True]
        assert judge.asked == ["fail three"]


def test_fact_checker_or_over_answers_and_unknowns():
    class Answers(JudgeBackend):
        name = "answers"

        def answer_many(self, questions):
            return [None if q.answer == "?" else Verdict(q.answer in q.sentence, self.name) for q in questions]

    check = JudgeFactChecker(Answers())
    fact = Fact("n1", "How many?", "How many?", ("157", "?"))
    assert check([("157 houses burned", fact), ("many houses burned", fact)]) == [True, None]
    assert check([("many houses burned", Fact("n2", "How many?", "How many?", ("157",)))]) == [False]
