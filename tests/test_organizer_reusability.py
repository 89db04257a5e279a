"""Leave one team out (organizer.reusability), teams (organizer.teams) and circularity flags, worked by hand."""
from __future__ import annotations

import pytest

from argue_eval.errors import OptionError
from argue_eval.formats.ranked import Rankings
from argue_eval.model import Answer, Nugget, QrelsRow, TopicNuggets
from argue_eval.organizer.circularity import circularity_flags, fold
from argue_eval.organizer.reusability import contributors, leave_out_qrels, leave_team_out, unique_documents
from argue_eval.organizer.teams import assign_teams, team_runs


def bank() -> list[TopicNuggets]:
    # n1: answer "x" bound to d1 and d2, answer "y" bound to d3; n2: "z" bound to d3 only; n3 negative (no docs).
    return [TopicNuggets("T1", [
        Nugget("n1", "T1", "q1?", [Answer("x", ("d1", "d2")), Answer("y", ("d3",))], importance="vital"),
        Nugget("n2", "T1", "q2?", [Answer("z", ("d3",))]),
        Nugget("n3", "T1", "q3?", [Answer("none")], negative=True),
    ]), TopicNuggets("T2", [Nugget("m1", "T2", "r?", [Answer("w", ("e1",))])])]


# team A's run cites d1, d3 on T1; team B's cites d1, d2 on T1 and e1 on T2; e9 is in no run (an assessor's find).
RUNS = [Rankings("a1", {"T1": ["d1", "d3"]}), Rankings("b1", {"T1": ["d1", "d2"], "T2": ["e1", "e2"]})]
TEAMS = {"a1": "A", "b1": "B"}


def test_unique_documents_and_the_bank_without_them():
    holders = contributors(RUNS, TEAMS)
    assert holders["T1"] == {"d1": {"A", "B"}, "d3": {"A"}, "d2": {"B"}}
    assert unique_documents(holders, "A") == {"T1": ["d3"]}
    assert unique_documents(holders, "B") == {"T1": ["d2"], "T2": ["e1", "e2"]}
    # Without A: "y" was bound only to d3 (removed); n2's only answer was too, so n2 goes; n1 keeps "x" (d1, d2);
    # the negative n3 and topic T2 are untouched.
    out = leave_team_out("A", ["a1"], holders, bank())
    assert out.removed_answers == [("T1", "n1", "y"), ("T1", "n2", "z")]
    assert out.removed_nuggets == [("T1", "n2", "q2?")]
    t1 = out.nuggets[0]
    assert [n.nugget_id for n in t1.nuggets] == ["n1", "n3"]
    assert [(a.text, a.doc_ids) for a in t1.nuggets[0].answers] == [("x", ("d1", "d2"))]
    assert t1.nuggets[0].importance == "vital"
    assert [(n.nugget_id, n.answers[0].doc_ids) for n in out.nuggets[1].nuggets] == [("m1", ("e1",))]
    # Without B: "x" loses d2 but keeps d1; m1 (bound only to e1) goes with T2's last nugget.
    out_b = leave_team_out("B", ["b1"], holders, bank())
    assert [(a.text, a.doc_ids) for a in out_b.nuggets[0].nuggets[0].answers] == [("x", ("d1",)), ("y", ("d3",))]
    assert out_b.removed_nuggets == [("T2", "m1", "r?")]
    assert out_b.unique_count == 3


def test_depth_and_the_pool_limit_what_a_team_contributed():
    # At depth 1 team A contributes only d1 (shared with B), so nothing is unique to it.
    assert unique_documents(contributors(RUNS, TEAMS, depth=1), "A") == {}
    # A pool that never held d3 (the budget cut it): d3 was never judged, so it is not A's contribution.
    holders = contributors(RUNS, TEAMS, pool={"T1": ["d1", "d2"], "T2": ["e1"]})
    assert unique_documents(holders, "A") == {}
    assert unique_documents(holders, "B") == {"T1": ["d2"], "T2": ["e1"]}


def test_qrels_without_the_unique_documents():
    rows = [QrelsRow("T1", "d1", 1), QrelsRow("T1", "d3", 2), QrelsRow("T2", "d3", 1)]
    assert leave_out_qrels(rows, {"T1": ["d3"]}) == [QrelsRow("T1", "d1", 1), QrelsRow("T2", "d3", 1)]


def test_teams_from_mapping_metadata_and_pattern():
    runs = ["zho-jhu-orion-claude", "zho-jhu-orion-gpt4o", "zho_irlab-ams-postcite", "other"]
    teams, notes = assign_teams(runs, pattern=r"^zho[-_]([a-z]+)")
    assert teams == {"zho-jhu-orion-claude": "jhu", "zho-jhu-orion-gpt4o": "jhu", "zho_irlab-ams-postcite": "irlab",
                     "other": "other"}
    assert any("other" in note and "own team" in note for note in notes)
    assert team_runs(teams) == {"irlab": ["zho_irlab-ams-postcite"], "jhu": ["zho-jhu-orion-claude", "zho-jhu-orion-gpt4o"],
                                "other": ["other"]}
    by_default, _ = assign_teams(["hltcoe-a", "hltcoe-b", "uva_x"])
    assert by_default == {"hltcoe-a": "hltcoe", "hltcoe-b": "hltcoe", "uva_x": "uva"}
    by_meta, notes = assign_teams(["r1", "r2"], {"r2": "T9"}, metadata={"r1": {"team_id": "T1"}, "r2": {"team_id": "T1"}})
    assert by_meta == {"r1": "T1", "r2": "T9"} and notes == ["teams of 1 run(s) from their team_id metadata"]
    with pytest.raises(OptionError, match="not among the runs: r3"):
        assign_teams(["r1"], {"r3": "T"})
    with pytest.raises(OptionError, match="needs a group"):
        assign_teams(["r1"], pattern="^r")


def test_circularity_flags_name_the_field_and_the_text():
    metadata = {
        "b-run": {"description": "Generated with Llama 3.3 70B Instruct, reranked by BM25"},
        "a-run": {"team_id": "a", "pipeline": {"steps": ["retrieve", "self-check against the NeuCLIR nuggets"]},
                  "used_judge": True},
        "c-run": {"description": "GPT-4o generation", "used_judge": False},
    }
    rows = circularity_flags(metadata, ["meta-llama/Llama-3.3-70B-Instruct"])
    assert rows == [
        ("a-run", "evaluation", "pipeline.steps[1]", "mentions 'nugget': self-check against the NeuCLIR nuggets"),
        ("a-run", "evaluation", "used_judge", "used_judge = True"),
        ("b-run", "judge_model", "description", "names the judge's model meta-llama/Llama-3.3-70B-Instruct: "
                                                "Generated with Llama 3.3 70B Instruct, reranked by BM25"),
    ]
    assert fold("Llama-3.3-70B-Instruct") == "llama3370binstruct"
    assert circularity_flags({"x": {"model": "gpt-4o"}}, ["gpt-4o"]) == [
        ("x", "judge_model", "model", "names the judge's model gpt-4o: gpt-4o")]
