"""LongRecall on hand-built examples: stage accounting, model calls, baselines, unjudged facts."""
from __future__ import annotations

import numpy as np
import pytest

from argue_eval.measures import TopicCounts, family_rows
from argue_eval.measures.longrecall import (
    Fact,
    Settings,
    TopicFacts,
    fact_tokens,
    family,
    fuzzy_coverage,
    fuzzy_jaccard,
    lcs_ratio,
    score_topics,
    substring_ratio,
    tokens,
)

SENTENCES = [
    "The fire destroyed 157 houses in Mendocino County.",          # 0: lexical match of f1
    "A firefighter died when a tree fell on him.",                 # 1: paraphrase of f2 (no shared tokens with it)
    "Officials thanked the volunteers.",                           # 2: unrelated
]
F1 = Fact("f1", "The fire destroyed 157 houses.")
F2 = Fact("f2", "One emergency worker was killed by falling timber.")
F3 = Fact("f3", "Evacuation orders covered 20,000 residents.")


class Checker:
    """Entailment verdicts given by hand; records every pair asked."""

    def __init__(self, table):
        self.table = table
        self.asked = []

    def __call__(self, pairs):
        self.asked.extend((sentence, fact.fact_id) for sentence, fact in pairs)
        return [self.table.get((sentence, fact.fact_id)) for sentence, fact in pairs]


def embedder(texts):
    """Hand-made unit vectors: sentence 1 and fact f2 point the same way (cosine 1); f1 is at cosine 0.8 to
    sentence 0; everything else is orthogonal (cosine 0)."""
    rows = []
    for text in texts:
        if text in (SENTENCES[1], F2.text):
            rows.append([1.0, 0.0, 0.0, 0.0])
        elif text == SENTENCES[0]:
            rows.append([0.0, 1.0, 0.0, 0.0])
        elif text == F1.text:
            rows.append([0.0, 0.8, 0.6, 0.0])
        elif text == SENTENCES[2]:
            rows.append([0.0, 0.0, 1.0, 0.0])
        else:
            rows.append([0.0, 0.0, 0.0, 1.0])
    return np.asarray(rows, dtype="float32")


def run(checker, embed=embedder, sentences=SENTENCES, facts=(F1, F2, F3), settings=None):
    settings = settings if settings is not None else Settings()
    return score_topics([TopicFacts("r", "t", sentences, list(facts))], checker, settings, embed)[0]


def test_stage_accounting():
    checker = Checker({(SENTENCES[0], "f1"): True, (SENTENCES[1], "f2"): True})
    topic = run(checker)
    f1, f2, f3 = topic.facts
    # f1 is matched lexically (its tokens are in sentence 0) and entailed: it never reaches the semantic stage
    assert f1.status == "covered" and f1.stage == "lexical" and f1.by == 0
    assert [i for i, *_ in f1.lexical] == [0] and f1.semantic == []
    # f2 shares no content token with any sentence: covered by the semantic candidate only
    assert f2.lexical == [] and [i for i, _ in f2.semantic] == [1]
    assert f2.status == "covered" and f2.stage == "semantic"
    # f3 has no candidate at any stage (no shared token, cosine 0 with every sentence)
    assert f3.lexical == [] and f3.semantic == [] and f3.status == "uncovered"
    counts = topic.counts
    assert counts["covered_lexical"] == 1 and counts["covered_semantic"] == 1
    assert counts["covered_entailment"] == 2 and counts["covered_facts"] == 2
    # the checker was asked exactly about the candidates: (s0, f1) then (s1, f2), and f3's candidates
    # the checker was asked exactly about the two candidates, lexical stage first
    assert checker.asked == [(SENTENCES[0], "f1"), (SENTENCES[1], "f2")]
    assert counts["model_calls"] == 2 and counts["no_candidate_facts"] == 1


LONG = ("After weeks of protests over the budget the embattled mayor resigned on Tuesday, 4 May 2021, and a council "
        "vote will name a successor next month.")
SHORT = Fact("f4", "In May 2021 the mayor resigned.")


def test_a_short_fact_inside_a_long_sentence_passes_the_gate_by_coverage():
    # the fact's tokens (stop words dropped): may 2021 mayor resigned; the sentence has all four, out of order,
    # among 17 (after, of, the, on, and, a, will are stop words): Jaccard 4/17 = 0.24 and LCS 2/4 = 0.5 are under their thresholds, coverage 4/4 = 1 is over 0.5
    fact_tokens, sentence_tokens = tokens(SHORT.text), tokens(LONG)
    assert fact_tokens == ["may", "2021", "mayor", "resigned"] and len(set(sentence_tokens)) == 17
    assert fuzzy_jaccard(fact_tokens, sentence_tokens) == pytest.approx(4 / 17)
    assert lcs_ratio(fact_tokens, sentence_tokens) == pytest.approx(0.5)
    assert fuzzy_coverage(fact_tokens, sentence_tokens) == 1.0
    checker = Checker({(LONG, "f4"): True})
    topic = run(checker, embed=None, sentences=[LONG, SENTENCES[2]], facts=(SHORT,))
    assert topic.facts[0].status == "covered" and checker.asked == [(LONG, "f4")]
    assert topic.details()["facts"][0]["lexical_candidates"] == [
        {"sentence": 0, "coverage": 1.0, "jaccard": round(4 / 17, 4), "lcs": 0.5}]
    # a sentence with half of it is still a candidate at 0.5, not at 0.75
    # (Jaccard 2/9 and LCS 2/4: officials city hall said monday mayor resigned, under the paper's gate)
    half = "Officials in the city hall said on Monday that the mayor resigned."
    assert run(Checker({}), embed=None, sentences=[half], facts=(SHORT,)).facts[0].lexical
    assert not run(Checker({}), embed=None, sentences=[half], facts=(SHORT,),
                   settings=Settings(coverage_threshold=0.75)).facts[0].lexical


def test_coverage_counts_each_sentence_token_once_and_ranks_the_candidates():
    # "colour" matches "color" fuzzily; "red" twice in the fact is one token; the sentence's one "red" is used once
    assert fuzzy_coverage(["colour", "red", "red", "car"], ["color", "red", "bike"]) == pytest.approx(2 / 3)
    assert fuzzy_coverage([], ["red"]) == 0.0
    # a quarter of the fact is not a candidate, half is; the sentence with all of it ranks first
    quarter = "Officials said the mayor left."  # mayor: 1 of may 2021 mayor resigned
    half = "The mayor resigned, officials said."  # mayor resigned: 2 of 4
    topic = run(Checker({}), embed=None, sentences=[quarter, half, LONG], facts=(SHORT,))
    assert [(c[0], c[3]) for c in topic.facts[0].lexical] == [(2, 1.0), (1, 0.5)]


BASNET = Fact("f5", "Pushpa Basnet was a CNN Hero.")  # tokens: pushpa basnet cnn hero
NAMED = "Pushpa Basnet runs a shelter in Kathmandu."     # pushpa basnet: 2 of 4
HERO = "She was named a CNN Hero in 2012."               # cnn hero: 2 of 4, by a pronoun


def test_a_fact_stated_across_adjacent_sentences_is_checked_on_the_window():
    # each sentence has half of the fact (a candidate the checker rejects); together they have all of it.
    # Sentences 1 and 2 together have no more than sentence 1: not a window
    joined = f"{NAMED} {HERO}"
    checker = Checker({(NAMED, "f5"): False, (HERO, "f5"): False, (joined, "f5"): True})
    topic = run(checker, embed=None, sentences=[NAMED, HERO, SENTENCES[2]], facts=(BASNET,))
    fact = topic.facts[0]
    assert [(c[0], c[3]) for c in fact.lexical] == [(0, 0.5), (1, 0.5)]
    assert fact.windows == [(0, 1.0)]
    assert checker.asked == [(NAMED, "f5"), (HERO, "f5"), (joined, "f5")]
    assert (fact.status, fact.stage, fact.by, fact.selected) == ("covered", "lexical", 0, [0, 1])
    assert topic.counts["covered_lexical"] == 1 and topic.counts["model_calls"] == 3
    record = topic.details()["facts"][0]
    assert record["window_candidates"] == [{"sentence": 0, "coverage": 1.0}]
    assert record["window_entailment"] == {"0": True} and record["selected"] == [0, 1]
    # window 1 asks no window; a window that could not be judged leaves the fact unjudged
    off = run(Checker(dict(checker.table)), embed=None, sentences=[NAMED, HERO], facts=(BASNET,),
              settings=Settings(window=1)).facts[0]
    assert off.windows == [] and off.status == "uncovered"
    unsure = run(Checker({(NAMED, "f5"): False, (HERO, "f5"): False}), embed=None, sentences=[NAMED, HERO],
                 facts=(BASNET,)).facts[0]
    assert unsure.window_verdicts == {0: None} and unsure.status == "unjudged"


def test_the_multiple_choice_check_asks_no_window():
    # the chooser picks sets of candidates itself: given both halves it may answer [0, 1]
    offered = []

    def choose(items):
        offered.extend(sentences for sentences, _ in items)
        return [[0, 1] for _ in items]

    topic = score_topics([TopicFacts("r", "t", [NAMED, HERO], [BASNET])], Checker({}), Settings(), None, choose)
    fact = topic[0].facts[0]
    assert offered == [[NAMED, HERO]] and fact.windows == [] and fact.selected == [0, 1]


def test_a_fact_without_candidates_costs_no_model_call():
    checker = Checker({})
    topic = run(checker, embed=None, facts=(F3,))
    assert topic.facts[0].lexical == [] and topic.facts[0].status == "uncovered"
    assert checker.asked == [] and topic.counts["model_calls"] == 0
    assert topic.counts["no_candidate_facts"] == 1


def test_semantic_stage_skips_pairs_already_checked_and_lexical_only_without_embeddings():
    # f1's lexical candidate s0 says no: the semantic stage (cosine 0.8 with s0, 0.6 with s2) must not ask
    # (s0, f1) again, and asks s2 instead
    checker = Checker({(SENTENCES[0], "f1"): False})
    topic = run(checker, facts=(F1,))
    assert checker.asked == [(SENTENCES[0], "f1"), (SENTENCES[2], "f1")]
    assert [i for i, _ in topic.facts[0].semantic] == [2]
    assert topic.facts[0].status == "unjudged"  # s2's verdict is unknown: not a no
    # without an embedder f2 has no candidate at all
    lexical_only = run(Checker({(SENTENCES[1], "f2"): True}), embed=None, facts=(F2,))
    assert lexical_only.facts[0].status == "uncovered" and lexical_only.counts["model_calls"] == 0


def test_multiple_choice_at_the_semantic_stage_offers_the_lexical_candidates_too():
    """f1: lexical candidate s0 (one candidate: asked one-to-one, says no), semantic candidate s2. The
    multiple-choice question of the semantic stage lists s0 and s2, and the chooser's pick of both (they
    state the fact together) covers f1 at the semantic stage, by s0."""
    questions = []

    def choose(items):
        questions.extend(([sentence for sentence in candidates], fact.fact_id) for candidates, fact in items)
        return [[0, 1] for _ in items]

    checker = Checker({(SENTENCES[0], "f1"): False})
    topic = score_topics([TopicFacts("r", "t", SENTENCES, [F1])], checker, Settings(), embedder, choose)[0]
    assert checker.asked == [(SENTENCES[0], "f1")]
    assert questions == [([SENTENCES[0], SENTENCES[2]], "f1")]
    fact = topic.facts[0]
    assert (fact.status, fact.stage, fact.selected, fact.by) == ("covered", "semantic", [0, 2], 0)


def test_could_not_judge_is_unjudged_and_leaves_the_denominator():
    topic = run(Checker({}), embed=None, facts=(F1, F3))  # f1's only candidate gets None
    assert topic.facts[0].status == "unjudged"
    rows = family_rows(family(), [TopicCounts("r", "t", topic.counts)])
    values = {metric: value for _, request, metric, value in rows if request == "t"}
    assert values["unjudged_facts"] == 1 and values["judged_facts"] == 1
    assert values["longrecall"] == 0.0 and "longrecall_undefined" not in values
    all_unknown = run(Checker({}), embed=None, facts=(F1,))
    rows = family_rows(family(), [TopicCounts("r", "t", all_unknown.counts)])
    assert ("r", "t", "longrecall_undefined", 1) in rows


def test_nugget_fact_with_answers_and_the_lexical_baselines():
    nugget = Fact("n1", "How many houses were destroyed?", "How many houses were destroyed?", ("157", "157 homes"))
    checker = Checker({(SENTENCES[0], "n1"): True})
    topic = run(checker, embed=None, facts=(nugget,))
    result = topic.facts[0]
    assert result.status == "covered" and result.answer_found and result.lcs_found
    # two answers: the one-to-one check counts one question per answer
    assert topic.counts["model_calls"] == 2
    # "157" must match as a whole token, not inside "1570"
    miss = run(Checker({}), embed=None, sentences=["In 1570 the town burned."], facts=(nugget,))
    assert not miss.facts[0].answer_found


def test_empty_report_and_topic_without_facts():
    empty = score_topics([TopicFacts("r", "t1", None, [F1, F2]), TopicFacts("r", "t2", SENTENCES, [])],
                         Checker({}), Settings(), None)
    rows = family_rows(family(), [TopicCounts(t.run_id, t.request_id, t.counts) for t in empty])
    by = {(topic, metric): value for _, topic, metric, value in rows}
    assert by[("t1", "facts")] == 2 and by[("t1", "longrecall")] == 0 and ("t1", "longrecall_undefined") not in by
    assert by[("t2", "longrecall_undefined")] == 1 and by[("t2", "answer_recall_undefined")] == 1
    assert by[("all", "longrecall_undefined")] == 1
    assert empty[0].details()["missing_report"] is True


def test_similarity_functions_by_hand():
    assert tokens("The Fire, destroyed 157 houses!") == ["fire", "destroyed", "157", "houses"]
    # {colour, red} vs {color, red, car}: colour~color and red match -> 2 / (2 + 3 - 2)
    assert fuzzy_jaccard(["colour", "red"], ["color", "red", "car"]) == pytest.approx(2 / 3)
    assert fuzzy_jaccard(["colour"], ["color"], ratio=0.95) == 0.0
    # fact tokens a b c d, sentence x a c d: LCS a c d = 3 of 4
    assert lcs_ratio(["a", "b", "c", "d"], ["x", "a", "c", "d"]) == 0.75
    # longest common substring "houses destroyed" (16 chars) of "houses destroyed" (16)
    assert substring_ratio("Houses destroyed", "157 houses destroyed by fire") == 1.0
    assert substring_ratio("abcd", "zzab") == 0.5


def test_a_figure_glued_to_its_unit_is_two_gate_tokens():
    # "£440million" is "440 million", as the fact writes it (the judge's tokenizer reads it so too); an ordinal
    # and a decade stay whole
    assert tokens("# 440million") == ["440", "million"] and tokens("20ft, 30mph") == ["20", "ft", "30", "mph"]
    assert tokens("the 35th minute of the 1980s") == ["35th", "minute", "1980s"]
    # total player sales 440 million since 2004: the sentence has player sales 440 million, 4 / 7 (v10: 2 / 7, and
    # no candidate)
    fact = Fact("f", "Total player sales is 440 million since 2004.")
    sentence = "porto have now received a whopping # 440million from player sales in the last 11 years ."
    assert fuzzy_coverage(tokens(fact.text), tokens(sentence)) == pytest.approx(4 / 7)
    assert run(Checker({}), embed=None, sentences=[sentence], facts=(fact,)).facts[0].lexical


def test_verbs_that_only_say_an_event_exists_are_no_part_of_a_facts_coverage():
    # masters competition augusta: "take place" is no word a summary writes of the event (it has 2 of 5 tokens
    # with them: 0.4, no candidate; 2 of 3 without: 0.67); a fact of nothing else keeps its words
    fact = Fact("f", "The Masters competition will take place in Augusta")
    sentence = "rory mcilroy is looking to complete a career grand slam this week with victory at the masters in augusta ."
    assert fact_tokens(fact.text) == ["masters", "competition", "augusta"]
    assert fuzzy_coverage(tokens(fact.text), tokens(sentence)) == pytest.approx(2 / 5)
    assert fuzzy_coverage(fact_tokens(fact.text), tokens(sentence)) == pytest.approx(2 / 3)
    assert run(Checker({}), embed=None, sentences=[sentence], facts=(fact,)).facts[0].lexical
    assert fact_tokens("It happened.") == tokens("It happened.") == ["happened"]
