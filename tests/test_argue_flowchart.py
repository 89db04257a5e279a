"""The ARGUE flowchart and per-topic measures on a hand-built topic whose every number is checked by hand.

Topic T1 (tests/fixtures/argue): nuggets n1 (OR, vital, "March 2019" via d1/d2, "2019" via d3), n2 (AND,
okay, "Missouri" via d1, "Platte" via d4), n3 (OR, unlabelled, "three" via d5), n4 (negative, vital,
"no"), n5 (unbound, okay: dropped by default). Report runA/T1 has ten sentences, one per flowchart path:

  s0 uncited, not negative, needs no citation            -> 4
  s1 cites d1 twice (checked once): answers n1+n2, attested -> 3
  s2 cites d4 (answers n2 "Platte", not attested) and d9 (irrelevant, not attested) -> citation 3 and 1 -> 3
  s3 cites d9: irrelevant, attested                      -> 2
  s4 cites d2: relevant, does not answer, attested       -> 2
  s5 uncited, needs a citation, first instance           -> 5
  s6 uncited, needs a citation, repeats s1               -> 6
  s7 uncited negative assertion, n4 agrees               -> 8
  s8 uncited negative assertion, no nugget agrees        -> 7
  s9 cites d3: relevant, does not answer, not attested   -> 1
"""
from __future__ import annotations

import pytest
from helpers import ARGUE_FIXTURES, load_judgments, load_nuggets, load_reports

from argue_eval.argue.counting import FAMILY, counts_for
from argue_eval.argue.flowchart import evaluate_report
from argue_eval.argue.policies import Policies
from argue_eval.argue.topic import prepare_topic
from argue_eval.judges.imported import ImportedJudgments
from argue_eval.model import Judgment, Report, Sentence


@pytest.fixture
def source() -> ImportedJudgments:
    judged = ImportedJudgments(load_nuggets().values())
    judged.add_judgments(load_judgments())
    return judged


def run_t1(source, policies=None, details=True):
    policies = policies or Policies()
    report = load_reports(ARGUE_FIXTURES / "runA.jsonl")[0]
    topic = prepare_topic(load_nuggets()["T1"], "T1", policies)
    outcome = evaluate_report(report, topic, _ask(source), policies, details=details)
    return report, topic, outcome


def _ask(source):
    from argue_eval.argue.flowchart import Asker

    return Asker(source)


def test_every_outcome_of_the_flowchart(source):
    _, _, outcome = run_t1(source)
    assert [s.outcome for s in outcome.sentences] == [4, 3, 3, 2, 2, 5, 6, 8, 7, 1]


def test_citation_sub_outcomes_and_duplicate_citations(source):
    _, _, outcome = run_t1(source)
    s1, s2 = outcome.sentences[1], outcome.sentences[2]
    # s1 cites d1 twice: checked once, the duplicate is reported
    assert [c.doc_id for c in s1.citations] == ["d1"] and s1.duplicate_citations == 1
    # s2: d4 answers "Platte" (3) although not attested; d9 is irrelevant and unattested (1)
    assert [(c.doc_id, c.outcome, c.relevant, c.attested) for c in s2.citations] == [
        ("d4", 3, True, False), ("d9", 1, False, False)]


def test_matches_record_nugget_answer_and_citation(source):
    _, topic, outcome = run_t1(source)
    matched = [(topic.nuggets[n].nugget_id, topic.nuggets[n].units[u].text, via)
               for s in outcome.sentences for n, u, via in s.matches]
    assert matched == [("n1", "March 2019", "d1"), ("n2", "Missouri", "d1"), ("n2", "Platte", "d4"),
                       ("n4", "no", None)]


def test_measures_of_t1_by_hand(source):
    report, topic, outcome = run_t1(source)
    counts = counts_for(outcome, topic, report.character_count)
    expected_counts = {
        "sentences": 10,
        # distinct documents per sentence: s1 1 (d1 twice), s2 2, s3 1, s4 1, s9 1
        "citations": 6,
        # d1 (s1), d4 (s2), d2 (s4), d3 (s9); d9 twice is not relevant
        "relevant_citations": 4,
        # attested: d1 (s1), d9 (s3), d2 (s4)
        "supporting_citations": 3,
        # cited s1 s2 s3 s4 s9, plus s5 (uncited, requires a citation, first instance)
        "sentences_with_citations_or_requiring_citations": 6,
        # every citation attests: s1, s3, s4
        "correctly_cited_sentences": 3,
        # uncited, requires a citation, first instance: s5 (Auto-ARGUE's name for outcome 5)
        "first_instance_sentences_missing_citation": 1,
        # n1 n2 n3 n4 (n5 is unbound and dropped)
        "nuggets": 4,
        # vital 2 + okay 1 + unlabelled 1 + vital 2
        "nuggets_weighted": 6,
        # n1 (March 2019 in s1), n2 AND (Missouri s1 + Platte s2), n4 (s7 agrees); n3 never found
        "correct_nuggets": 3,
        "correct_nuggets_weighted": 5,
        "outcome_1": 1, "outcome_2": 2, "outcome_3": 2, "outcome_4": 1,
        "outcome_5": 1, "outcome_6": 1, "outcome_7": 1, "outcome_8": 1,
    }
    assert {k: counts[k] for k in expected_counts} == expected_counts
    assert counts["character_count"] == sum(len(s.text) for s in report.sentences)
    values, undefined = FAMILY.values(counts)
    assert undefined == set()
    assert values["citation_relevance"] == pytest.approx(4 / 6)
    assert values["citation_support"] == pytest.approx(3 / 6)
    assert values["sentence_support"] == pytest.approx(3 / 6)
    assert values["nugget_coverage"] == pytest.approx(3 / 4)
    assert values["nugget_coverage_weighted"] == pytest.approx(5 / 6)
    # F1 = 2 * 0.5 * 0.75 / (0.5 + 0.75) = 0.6 ; weighted: 2 * 0.5 * 5/6 / (0.5 + 5/6) = 0.625
    assert values["f1"] == pytest.approx(0.6)
    assert values["f1_weighted"] == pytest.approx(0.625)
    # rewarded 3,8 -> s1 s2 s7 = 3 ; penalized 1,5,7 -> s9 s5 s8 = 3 ; 3 / 6
    assert values["argue_precision"] == pytest.approx(0.5)


def test_and_nugget_needs_every_bound_answer(source):
    """Without s2 (the only "Platte"), n2 (AND) is not correct although "Missouri" was found."""
    policies = Policies()
    report = load_reports(ARGUE_FIXTURES / "runA.jsonl")[0]
    report.sentences.pop(2)
    topic = prepare_topic(load_nuggets()["T1"], "T1", policies)
    outcome = evaluate_report(report, topic, _ask(source), policies, unknown="no")
    counts = counts_for(outcome, topic, report.character_count)
    # n1 and n4 remain: 2 of 4 ; weighted vital 2 + vital 2 = 4 of 6
    assert counts["correct_nuggets"] == 2
    assert counts["correct_nuggets_weighted"] == 4


def test_answer_repeated_across_sentences_counts_once(source):
    """Question-level recall: "March 2019" found twice (s1 and a copy of s1) is still one correct nugget."""
    policies = Policies()
    report = load_reports(ARGUE_FIXTURES / "runA.jsonl")[0]
    report.sentences.append(Sentence("The flood began in March 2019 along the Missouri.", ("d1",)))
    topic = prepare_topic(load_nuggets()["T1"], "T1", policies)
    outcome = evaluate_report(report, topic, _ask(source), policies)
    counts = counts_for(outcome, topic, report.character_count)
    assert counts["outcome_3"] == 3  # s1, s2 and the copy
    assert counts["correct_nuggets"] == 3  # unchanged: n1, n2, n4


def test_configured_weights():
    """vital=3, okay=0.5, none=1: nuggets_weighted = 3 + 0.5 + 1 + 3 = 7.5; correct n1+n2+n4 = 6.5."""
    judged = ImportedJudgments(load_nuggets().values())
    judged.add_judgments(load_judgments())
    policies = Policies(weights={"vital": 3, "okay": 0.5})
    report, topic, outcome = run_t1(judged, policies)
    counts = counts_for(outcome, topic, report.character_count)
    assert counts["nuggets_weighted"] == 7.5
    assert counts["correct_nuggets_weighted"] == 6.5
    assert FAMILY.values(counts)[0]["nugget_coverage_weighted"] == pytest.approx(6.5 / 7.5)


def test_unbound_questions_as_negative_nuggets(source):
    """--unbound-questions negative: n5 joins the nuggets (okay, weight 1) and is asked with nugget_agrees."""
    policies = Policies(unbound_questions="negative", missing_judgments="zero")
    report, topic, outcome = run_t1(source, policies)
    counts = counts_for(outcome, topic, report.character_count)
    assert counts["nuggets"] == 5 and counts["nuggets_weighted"] == 7
    # s7 and s8 are asked about n5 "the state" too: no judgment -> missing -> no (zero mode)
    assert outcome.missing == 2
    assert counts["correct_nuggets"] == 3


def test_empty_report_and_topic_without_nuggets(source):
    policies = Policies()
    empty_topic = prepare_topic(None, "T9", policies)
    report = Report("runA", "T9", [])
    outcome = evaluate_report(report, empty_topic, _ask(source), policies)
    counts = counts_for(outcome, empty_topic, 0)
    rows = dict(FAMILY.topic_rows(counts))
    assert rows["sentences"] == 0 and rows["nuggets"] == 0
    # every ratio has an empty denominator: 0, flagged undefined, never NaN
    for name in ("citation_relevance", "citation_support", "sentence_support", "nugget_coverage",
                 "nugget_coverage_weighted", "f1", "f1_weighted", "argue_precision"):
        assert rows[name] == 0.0
        assert rows[f"{name}_undefined"] == 1


def test_questions_only_where_the_flowchart_reaches(source):
    """A cited sentence is never asked negative?; an irrelevant citation is never asked answers?."""
    asked = []

    class Recorder:
        """A judgment lookup that records what the scorer looks up."""

        def lookup(self, key, position=None):
            asked.append(key)
            return source.lookup(key, None)

        def plain_table(self):
            return None

    run_t1(Recorder())
    by_sentence = {}
    for key in asked:
        by_sentence.setdefault(key.sentence, []).append((key.kind, key.doc_id))
    assert by_sentence["The Platte also overflowed its banks."] == [
        ("answers", "d4"), ("attested", "d4"), ("attested", "d9")]
    assert by_sentence["Officials said the damage exceeded $1 billion."] == [("attested", "d9")]
    assert [k for k, _ in by_sentence["This report covers the 2019 Midwest floods."]] == ["negative", "requires_citation"]
    assert [k for k, _ in by_sentence["No one was arrested in connection with the levee failures."]] == [
        "negative", "nugget_agrees"]


def test_scope_all_asks_any_answer_once_per_sentence():
    """nugget_scope=all: a cited sentence supplies any answer of the topic whatever it cites (doc_id null)."""
    topics = load_nuggets()
    judged = ImportedJudgments(topics.values())
    judged.add_judgments([
        Judgment("answers", "T2", "The sky is blue.", True, "h", doc_id=None, nugget_id="m1", answer="blue"),
        Judgment("answers", "T2", "The sky is blue.", True, "h", doc_id=None, nugget_id="m2", answer="red"),
        Judgment("attested", "T2", "The sky is blue.", True, "h", doc_id="e9"),
    ])
    policies = Policies(nugget_scope="all")
    report = Report("r", "T2", [Sentence("The sky is blue.", ("e9",))])
    topic = prepare_topic(topics["T2"], "T2", policies)
    outcome = evaluate_report(report, topic, _ask(judged), policies)
    counts = counts_for(outcome, topic, 16)
    # e9 attests nothing: not relevant -> outcome 2; both nuggets found anyway (scope all)
    assert outcome.sentences[0].outcome == 2
    assert counts["correct_nuggets"] == 2 and counts["relevant_citations"] == 0


def test_relevance_from_qrels():
    """--relevance qrels: d9 relevant in qrels -> its sentence is asked answers? (none bound) -> 2; d1 not in qrels -> 2."""
    topics = load_nuggets()
    policies = Policies(relevance="qrels")
    topic = prepare_topic(topics["T1"], "T1", policies, qrels_relevant={"d9"})
    judged = ImportedJudgments(topics.values())
    judged.add_judgments(load_judgments())
    report = Report("runA", "T1", [Sentence("Officials said the damage exceeded $1 billion.", ("d9",)),
                                   Sentence("The flood began in March 2019 along the Missouri.", ("d1",))])
    outcome = evaluate_report(report, topic, _ask(judged), policies)
    counts = counts_for(outcome, topic, 0)
    assert [c.relevant for s in outcome.sentences for c in s.citations] == [True, False]
    assert [s.outcome for s in outcome.sentences] == [2, 2]
    assert counts["relevant_citations"] == 1 and counts["correct_nuggets"] == 0


def test_explore_mode_follows_both_branches_of_a_missing_gate():
    topics = load_nuggets()
    empty = ImportedJudgments(topics.values())
    policies = Policies()
    report = Report("runX", "T1", [Sentence("Nobody knows who paid.", ())])
    topic = prepare_topic(topics["T1"], "T1", policies)
    missing = []
    outcome = evaluate_report(report, topic, _ask(empty), policies, unknown="both", on_missing=missing.append)
    assert outcome.sentences[0].outcome is None
    kinds = [(m.key.kind, tuple(g.kind for g in m.gates)) for m in missing]
    # the first sentence is a first instance by definition: that question is never asked
    assert kinds == [("negative", ()), ("nugget_agrees", ("negative",)), ("requires_citation", ("negative",))]
    later = Report("runX", "T1", [Sentence("The flood began in March 2019.", ("d1",)),
                                  Sentence("Nobody knows who paid.", ())])
    missing = []
    evaluate_report(later, topic, _ask(empty), policies, unknown="both", on_missing=missing.append)
    kinds = [(m.key.kind, tuple(g.kind for g in m.gates)) for m in missing if m.sentence_index == 1]
    assert kinds == [("negative", ()), ("nugget_agrees", ("negative",)), ("requires_citation", ("negative",)),
                     ("first_instance", ("negative", "requires_citation"))]


def test_stop_mode_lists_only_the_questions_certainly_reached():
    topics = load_nuggets()
    empty = ImportedJudgments(topics.values())
    policies = Policies()
    topic = prepare_topic(topics["T1"], "T1", policies)
    report = Report("runX", "T1", [Sentence("The flood began in March 2019.", ("d1",)),
                                   Sentence("Nobody knows who paid.", ())])
    missing = []
    evaluate_report(report, topic, _ask(empty), policies, unknown="stop", on_missing=missing.append)
    # cited: both answers d1 attests and attested; uncited: only "negative?" until it is answered
    assert [(m.sentence_index, m.key.kind, m.key.answer) for m in missing] == [
        (0, "answers", "March 2019"), (0, "answers", "Missouri"), (0, "attested", None), (1, "negative", None)]


def test_empty_report_on_a_topic_with_nuggets(source):
    """An empty report: no sentences, no citations; coverage 0 of 4 nuggets (weights 6); ratios of empty counts flagged."""
    policies = Policies()
    topic = prepare_topic(load_nuggets()["T1"], "T1", policies)
    outcome = evaluate_report(Report("runA", "T1", []), topic, _ask(source), policies)
    rows = dict(FAMILY.topic_rows(counts_for(outcome, topic, 0)))
    assert (rows["nuggets"], rows["nuggets_weighted"], rows["correct_nuggets"]) == (4, 6, 0)
    assert rows["nugget_coverage"] == 0.0 and "nugget_coverage_undefined" not in rows
    assert rows["sentence_support_undefined"] == 1 and rows["citation_support_undefined"] == 1
    assert rows["f1"] == 0.0 and rows["f1_undefined"] == 1


def test_unbound_questions_kept_count_but_only_scope_all_finds_them():
    """--unbound-questions keep: n5 (okay, "the state", no document) counts as an ordinary nugget.

    nuggets 4 + 1 = 5, weighted 6 + 1 = 7. Scope cited: no document attests "the state", so no citation can
    deliver it -> correct 3 (n1 n2 n4), as before. Scope all asks doc-free `answers` questions; the fixture has
    none, so with missing = no only the one added here (cited sentence s3 gives "the state") and n4 (through
    nugget_agrees, unchanged) are found: correct 2 of 5, weighted okay 1 + vital 2 = 3 of 7.
    """
    topics = load_nuggets()
    report = load_reports(ARGUE_FIXTURES / "runA.jsonl")[0]
    cited = Policies(unbound_questions="keep")
    topic = prepare_topic(topics["T1"], "T1", cited)
    judged = ImportedJudgments(topics.values())
    judged.add_judgments(load_judgments())
    counts = counts_for(evaluate_report(report, topic, _ask(judged), cited), topic, report.character_count)
    assert (counts["nuggets"], counts["nuggets_weighted"], counts["correct_nuggets"]) == (5, 7, 3)

    scope_all = Policies(unbound_questions="keep", nugget_scope="all", missing_judgments="zero")
    topic = prepare_topic(topics["T1"], "T1", scope_all)
    judged.add_judgments([Judgment("answers", "T1", "Officials said the damage exceeded $1 billion.", True, "h",
                                   nugget_id="n5", answer="the state")])
    outcome = evaluate_report(report, topic, _ask(judged), scope_all)
    counts = counts_for(outcome, topic, report.character_count)
    assert [(topic.nuggets[n].nugget_id, topic.nuggets[n].units[u].text, via)
            for s in outcome.sentences for n, u, via in s.matches] == [("n5", "the state", None), ("n4", "no", None)]
    assert (counts["nuggets"], counts["nuggets_weighted"]) == (5, 7)
    assert (counts["correct_nuggets"], counts["correct_nuggets_weighted"]) == (2, 3)


@pytest.mark.parametrize("scope", ["cited", "all"])
def test_every_question_the_flowchart_asks_is_keyed_by_make_key(scope):
    """The scorer builds its question keys inline (the hot path: a plain tuple costs a fraction of a
    ``make_key`` call); each must be exactly the key ``make_key`` gives for the same question."""
    from argue_eval.model import make_key, normalize_text

    asked = []

    def ask(key, report, index):
        asked.append((key, normalize_text(report.sentences[index].text), index, report.run_id))
        return None

    policies = Policies(relevance="judgments", nugget_scope=scope, unbound_questions="keep")
    report = load_reports(ARGUE_FIXTURES / "runA.jsonl")[0]
    topic = prepare_topic(load_nuggets()["T1"], "T1", policies)
    evaluate_report(report, topic, ask, policies, unknown="both")
    kinds = {key[0] for key, *_ in asked}
    assert kinds == {"relevant", "answers", "attested", "negative", "nugget_agrees", "requires_citation",
                     "first_instance"}
    for key, sentence, index, run_id in asked:
        assert tuple(key) == tuple(make_key(*key))
        assert key[2] == sentence
        if key[0] in ("requires_citation", "first_instance"):
            assert (key[6], key[7]) == (run_id, index)
