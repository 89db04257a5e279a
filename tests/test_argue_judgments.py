"""Imported judgments: precedence between files, contradictions, foreign topic sets, Auto-ARGUE scoring."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from helpers import AUTOARGUE, DOC3, bank

from argue_eval import score
from argue_eval.errors import InputError
from argue_eval.inputs import add_judgment_file, check_topic_overlap
from argue_eval.judges.base import Question, make_key
from argue_eval.judges.imported import ImportedJudgments
from argue_eval.model import Report, Sentence, normalize_text

FIXTURES = Path(__file__).parent / "fixtures" / "argue"


def line(kind="attested", sentence="The sky is blue.", value=True, judge="llm:a", **extra):
    obj = {"kind": kind, "request_id": "T2", "sentence": sentence, "doc_id": "e1", "nugget_id": None,
           "answer": None, "run_id": None, "sentence_index": None, "value": value, "judge": judge}
    obj.update(extra)
    return json.dumps(obj)


def attested_key(sentence="The sky is blue."):
    return make_key("attested", "T2", normalize_text(sentence), "e1")


def test_later_file_overrides_earlier(tmp_path):
    auto = tmp_path / "auto.jsonl"
    human = tmp_path / "human.jsonl"
    auto.write_text(line(value=True, judge="llm:a") + "\n")
    human.write_text(line(value=False, judge="human:bo") + "\n")
    source = ImportedJudgments()
    add_judgment_file(source, auto)
    summary = add_judgment_file(source, human)
    verdict = source.answer(Question(attested_key(), "The sky is blue."))
    assert (verdict.value, verdict.judge, verdict.source.path) == (False, "human:bo", str(human))
    assert summary.overridden == 1
    # the other order: the automatic judgment wins
    reverse = ImportedJudgments()
    add_judgment_file(reverse, human)
    add_judgment_file(reverse, auto)
    assert reverse.lookup(attested_key()).value is True


def test_same_judgment_normalized_sentence_is_one_key(tmp_path):
    path = tmp_path / "j.jsonl"
    path.write_text(line(sentence="The  sky is\tblue.") + "\n")
    source = ImportedJudgments()
    add_judgment_file(source, path)
    assert source.lookup(attested_key("The sky is blue.")).value is True


def test_contradiction_within_a_file_names_both_lines(tmp_path):
    path = tmp_path / "j.jsonl"
    path.write_text("\n".join([line(value=True), line(kind="negative", doc_id=None), line(value=False)]) + "\n")
    with pytest.raises(InputError) as caught:
        add_judgment_file(ImportedJudgments(), path)
    assert caught.value.line == 3
    assert "contradicts line 1" in str(caught.value) and "llm:a" in str(caught.value)


def test_contradiction_is_found_across_another_judges_line(tmp_path):
    """llm:a says yes (line 1), human:x no (line 2, a disagreement: the later line wins), llm:a no (line 3):
    llm:a contradicts itself although the line just before line 3 is another judge's."""
    path = tmp_path / "j.jsonl"
    path.write_text("\n".join([line(value=True), line(value=False, judge="human:x"), line(value=False)]) + "\n")
    with pytest.raises(InputError) as caught:
        add_judgment_file(ImportedJudgments(), path)
    assert caught.value.line == 3 and "contradicts line 1" in str(caught.value) and "'llm:a'" in str(caught.value)
    # the same three judges agreeing with themselves load, with one disagreement between judges noted
    path.write_text("\n".join([line(value=True), line(value=False, judge="human:x"), line(value=True)]) + "\n")
    summary = add_judgment_file(ImportedJudgments(), path)
    assert summary.disagreements == 2  # yes -> no (human:x), no -> yes (llm:a again)


def test_same_value_twice_or_other_judge_is_not_an_error(tmp_path):
    path = tmp_path / "j.jsonl"
    path.write_text("\n".join([line(value=True), line(value=True), line(value=False, judge="human:x")]) + "\n")
    source = ImportedJudgments()
    summary = add_judgment_file(source, path)
    assert summary.disagreements == 1
    assert source.lookup(attested_key()).judge == "human:x"


def test_judgments_for_another_topic_set_are_reported(tmp_path):
    from helpers import load_nuggets, load_reports

    other = tmp_path / "other-track.jsonl"
    other.write_text(line().replace('"T2"', '"2024-999"') + "\n")
    with pytest.raises(InputError, match="another track or topic set"):
        score(load_reports(FIXTURES / "runA.jsonl"), load_nuggets().values(), [str(other)])


def test_partly_foreign_judgments_are_noted(tmp_path):
    from helpers import load_nuggets, load_reports

    from argue_eval.argue.api import Evaluation, run_scoring
    from argue_eval.argue.policies import Policies

    path = tmp_path / "mixed.jsonl"
    path.write_text((FIXTURES / "judgments.jsonl").read_text() + line().replace('"T2"', '"X9"') + "\n")
    source = ImportedJudgments(load_nuggets().values())
    add_judgment_file(source, path)
    evaluation = Evaluation.build(load_nuggets().values(), Policies())
    check_topic_overlap(source, evaluation.order, evaluation.notes)  # input assembly notes file problems
    result = run_scoring(load_reports(FIXTURES / "runA.jsonl"), evaluation, source)
    assert any("1 topic(s) not being scored" in note and "X9" in note for note in result.notes)


def score_autoargue(*paths, runs=None, **policies):
    result = score(runs, [bank()], [str(p) for p in paths], **policies)
    return {(r.run_id, r.request_id, r.metric): r.value for r in result.table.itertuples()}, result


def test_autoargue_judgments_scored_by_hand():
    """Sentence 1 cites DOC1: answers "August 2014", attested -> 3. Sentence 2 cites DOC3: answers "phosphorus",
    not attested -> 3. Nuggets: OR found; AND lacks "microcystin" -> 1 of 2."""
    v, _ = score_autoargue(AUTOARGUE)
    run = "team-a-rt1"
    assert v[(run, "101", "outcome_3")] == 2
    assert v[(run, "101", "supporting_citations")] == 1 and v[(run, "101", "correctly_cited_sentences")] == 1
    assert v[(run, "101", "sentence_support")] == 0.5
    assert v[(run, "101", "nugget_coverage")] == 0.5
    assert v[(run, "101", "f1")] == 0.5  # 2 * 0.5 * 0.5 / 1.0
    assert v[(run, "101", "argue_precision")] == 1.0
    assert v[(run, "101", "character_count")] == len("In August 2014 Toledo told residents not to drink tap water.") \
        + len("The bloom was fed by phosphorus runoff.")


def _two_reports_file(tmp_path: Path) -> Path:
    """Two runs with the same second sentence; Auto-ARGUE judged it attested in r1 and not in r2."""
    obj = json.loads(AUTOARGUE.read_text().splitlines()[0])
    first = copy.deepcopy(obj)
    first["report"]["metadata"]["run_id"] = "r1"
    first["judgments"][1]["judgments"][2]["response"]["is_attested"] = True
    second = copy.deepcopy(obj)
    second["report"]["metadata"]["run_id"] = "r2"
    path = tmp_path / "two.judgments.jsonl"
    path.write_text(json.dumps(first) + "\n" + json.dumps(second) + "\n")
    return path


def test_autoargue_judgment_is_used_for_the_report_it_was_made_on(tmp_path):
    path = _two_reports_file(tmp_path)
    v, _ = score_autoargue(path)
    assert v[("r1", "101", "supporting_citations")] == 2
    assert v[("r2", "101", "supporting_citations")] == 1
    # a third run with the same sentence but no Auto-ARGUE line of its own uses the identity table (the later line)
    r3 = Report("r3", "101", [Sentence("The bloom was fed by phosphorus runoff.", (DOC3,))])
    v3, _ = score_autoargue(path, runs=[r3])
    assert v3[("r3", "101", "supporting_citations")] == 0


def test_later_human_file_overrides_positional_autoargue(tmp_path):
    path = _two_reports_file(tmp_path)
    human = tmp_path / "human.jsonl"
    human.write_text(json.dumps({"kind": "attested", "request_id": "101",
                                 "sentence": "The bloom was fed by phosphorus runoff.", "doc_id": DOC3,
                                 "nugget_id": None, "answer": None, "run_id": None, "sentence_index": None,
                                 "value": False, "judge": "human:kim"}) + "\n")
    v, result = score_autoargue(path, human)
    assert v[("r1", "101", "supporting_citations")] == 1
    steps = result.details[0]["sentences"][1]["citations"][0]["path"]
    assert steps[-1] == {"question": "attested", "value": False, "judge": "human:kim", "doc_id": DOC3}


def test_autoargue_unmatched_answer_is_no_without_enumeration():
    source = ImportedJudgments([bank()])
    add_judgment_file(source, AUTOARGUE)
    sentence = normalize_text("The bloom was fed by phosphorus runoff.")
    assert source.lookup(make_key("answers", "101", sentence, DOC3, "77ab90", "phosphorus")).value is True
    assert source.lookup(make_key("answers", "101", sentence, DOC3, "5f0c1e", "2014")).value is False
    # an answer DOC3 does not attest was never shown to the judge: missing, not "no"
    assert source.lookup(make_key("answers", "101", sentence, DOC3, "77ab90", "microcystin")) is None


def test_autoargue_under_scope_all():
    """--nugget-scope all asks doc-free questions: a match through any cited document is a yes, an answer some
    cited document attests but was not matched is a no, anything else was never shown (missing).

    s0 cites DOC1 (attests "August 2014", "microcystin"): August 2014 yes, microcystin no, 2014 and phosphorus
    missing. s1 cites DOC3 ("2014", "phosphorus"): phosphorus yes, 2014 no, August 2014 and microcystin missing.
    """
    v, _ = score_autoargue(AUTOARGUE, nugget_scope="all", missing_judgments="zero")
    run = "team-a-rt1"
    assert v[(run, "all", "missing_judgments")] == 4
    assert v[(run, "101", "correct_nuggets")] == 1  # n1; n2 (AND) lacks microcystin
    assert v[(run, "101", "outcome_3")] == 2


def test_verdict_to_judgment_keeps_the_identity():
    from argue_eval.judges.base import Verdict, verdict_to_judgment

    key = make_key("answers", "T1", normalize_text("The  flood began."), "d1", "n1", "March  2019")
    judgment = verdict_to_judgment(Question(key, "The  flood began.", answer="March  2019"),
                                   Verdict(True, "llm:m", confidence=0.75, rationale="says so"))
    assert judgment.key == key
    assert (judgment.sentence, judgment.answer, judgment.judge, judgment.confidence) == (
        "The  flood began.", "March  2019", "llm:m", 0.75)


def test_autoargue_unbound_answer_unmatched_is_no():
    """An answer no document attests can only have been shown to a judge that saw every answer: unmatched = no."""
    topic = bank()
    topic.nuggets[0].answers.append(type(topic.nuggets[0].answers[0])("in the summer", ()))
    source = ImportedJudgments([topic])
    add_judgment_file(source, AUTOARGUE)
    sentence = normalize_text("The bloom was fed by phosphorus runoff.")
    assert source.lookup(make_key("answers", "101", sentence, None, "5f0c1e", "in the summer")).value is False
    # a bound answer the cited document does not attest stays missing
    assert source.lookup(make_key("answers", "101", sentence, None, "5f0c1e", "August 2014")) is None
