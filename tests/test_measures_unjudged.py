"""No silent success: icat, longrecall and comprehensiveness with an LLM judge whose calls fail (the scripted
loopback server of tests/llm_server.py, HTTP 500 with no retry) exit 1, say how many claims, facts or pairs
could not be judged and why, score what was judged, and flag the scores in the summary.

The toy: one run of three sentences on topic t1 (S0 "E. coli was found ...", S1 "37 people were admitted to
hospital.", S2 "The water plant of Ridgefield flooded."), two documents (d1 on E. coli in Ridgefield's tap
water, d2 on thirty-seven people in hospital), four nuggets: n1 E. coli (d1), n2 37 (d2), n3 the mayor (d2),
n4 tap water of Ridgefield (d1). The server answers yes to every question it does not fail.
"""
from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

pytest.importorskip("aiohttp", reason="needs the llm extra (aiohttp)")

from llm_server import MockChatServer, _data, schema_keys  # noqa: E402

from argue_eval.cli import cli  # noqa: E402
from argue_eval.formats.scores import read_scores  # noqa: E402

pytestmark = pytest.mark.llm

S = ["E. coli was found in the tap water of Ridgefield in March 2025.", "37 people were admitted to hospital.",
     "The water plant of Ridgefield flooded."]
C = ["E. coli was found in the tap water of Ridgefield.", "37 people were admitted to hospital."]
"""Comprehensiveness's context statements: C0 is what S0 and S2 are judged to entail (the server says yes),
C1 what S1 is; a pair's prompt quotes the statement as its sentence (the statement is the hypothesis)."""


def write(path, records):
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return str(path)


@pytest.fixture
def toy(tmp_path):
    return {
        "run": write(tmp_path / "run.jsonl", [{"run_id": "r1", "request_id": "t1", "sentences": [
            {"text": S[0], "citations": ["d1"]}, {"text": S[1], "citations": ["d2"]}, {"text": S[2], "citations": []}]}]),
        "nuggets": write(tmp_path / "nuggets.jsonl", [{"request_id": "t1", "nuggets": [
            {"nugget_id": "n1", "question": "What contaminated the tap water in Ridgefield?",
             "answers": [{"answer": "E. coli", "doc_ids": ["d1"]}]},
            {"nugget_id": "n2", "question": "How many people were admitted to hospital?",
             "answers": [{"answer": "37", "doc_ids": ["d2"]}]},
            {"nugget_id": "n3", "question": "Who resigned?", "answers": [{"answer": "the mayor", "doc_ids": ["d2"]}]},
            {"nugget_id": "n4", "question": "Where was it found?",
             "answers": [{"answer": "tap water of Ridgefield", "doc_ids": ["d1"]}]}]}]),
        "collection": write(tmp_path / "docs.jsonl", [
            {"doc_id": "d1", "title": "Boil-water notice", "text": "E. coli was found in Ridgefield's tap water."},
            {"doc_id": "d2", "title": "Hospital", "text": "Thirty-seven people were admitted to hospital."}]),
        "context": write(tmp_path / "context.jsonl", [{"request_id": "t1", "statements": C}]),
        "out": str(tmp_path / "out.tsv"),
    }


def failing(sentence):
    """A script failing every call about ``sentence`` (``None``: every call) and saying yes to the others."""
    def script(n, body):
        if sentence is None or _data(body).get("sentence") == sentence:
            return ("status", 500, {})
        return ("content", json.dumps({key: True for key in schema_keys(body)}))
    return script


def run(toy, server, *args):
    llm = ["--judge", "llm", "--judge-option", f"llm.base_url={server.base_url}", "--judge-option", "llm.model=m",
           "--judge-option", "llm.max_retries=0", "--no-cache"]
    result = CliRunner().invoke(cli, [*args, "-o", toy["out"], *llm])
    values = {row.metric: row.value for row in read_scores(toy["out"]) if row.request_id == "t1"} if result.exit_code != 2 else {}
    return result, values


WHY = r"\(\d+ call\(s\) to the model failed, the first: HTTP 500 after 1 attempt\)"


def icat(toy, server):
    return run(toy, server, "icat", toy["run"], "--nuggets", toy["nuggets"], "--collection", toy["collection"])


def longrecall(toy, server):
    return run(toy, server, "longrecall", toy["run"], "--nuggets", toy["nuggets"], "--semantic", "off",
               "--entailment", "one-to-one")


def comprehensiveness(toy, server):
    pytest.importorskip("networkx")
    return run(toy, server, "comprehensiveness", toy["run"], "--context", toy["context"])


def test_icat_with_every_call_failing_exits_1_and_says_so(toy):
    with MockChatServer(failing(None)) as server:
        result, values = icat(toy, server)
    assert result.exit_code == 1, result.output
    # each claim's passages are its only questions, all failed: no claim judged, and each aspect might have been
    # covered by a claim that was not judged (n1, n4 by S0 or S2 through d1; n2, n3 by S1 through d2)
    assert (values["claims"], values["judged_claims"], values["unjudged_claims"]) == (3, 0, 3)
    assert (values["aspects"], values["judged_aspects"], values["unjudged_aspects"]) == (4, 0, 4)
    assert values["icat_fact_undefined"] == 1 and values["icat"] == 0.0
    assert re.search(r"warning: 3 of 3 claim\(s\) could not be judged " + WHY, result.output), result.output
    assert "warning: 4 of 4 aspect(s) could not be judged" in result.output
    # the summary flags the run's zero as built on nothing judged
    assert re.search(r"r1 +1 +0\.000 +0\.000 +0\.000 +3 claim\(s\), 4 aspect\(s\)", result.output), result.output
    assert "note: a run with unjudged items is scored on the judged ones only" in result.output


def test_icat_with_some_calls_failing_scores_the_judged_claims_and_exits_1(toy):
    with MockChatServer(failing(S[1])) as server:
        result, values = icat(toy, server)
    assert result.exit_code == 1, result.output
    # S0 and S2 grounded in d1 (yes), S1's question failed; d1's aspects n1 and n4 covered, d2's n2 and n3 only
    # S1 could cover: unjudged. icat_fact = 2/2, icat_coverage = 2/2
    assert (values["judged_claims"], values["grounded_claims"], values["unjudged_claims"]) == (2, 2, 1)
    assert (values["judged_aspects"], values["covered_aspects"], values["unjudged_aspects"]) == (2, 2, 2)
    assert (values["icat_fact"], values["icat_coverage"]) == (1.0, 1.0)
    assert re.search(r"warning: 1 of 3 claim\(s\) could not be judged " + WHY, result.output), result.output
    assert "1 claim(s), 2 aspect(s)" in result.output


def test_icat_with_every_call_answered_exits_0_without_flags(toy):
    with MockChatServer(failing("no such sentence")) as server:
        result, values = icat(toy, server)
    assert result.exit_code == 0, result.output
    assert (values["unjudged_claims"], values["unjudged_aspects"]) == (0, 0)
    assert "warning" not in result.output and "unjudged" not in result.output.split("macro averages")[1]


def test_longrecall_with_every_call_failing_exits_1(toy):
    with MockChatServer(failing(None)) as server:
        result, values = longrecall(toy, server)
    assert result.exit_code == 1, result.output
    # n1, n2, n4 have lexical candidates (S0; S1; S2 and S0): their questions failed; n3 has none: uncovered with
    # no call. longrecall = 0 covered / 1 judged
    assert (values["facts"], values["judged_facts"], values["unjudged_facts"], values["covered_facts"]) == (4, 1, 3, 0)
    assert values["longrecall"] == 0.0
    assert re.search(r"warning: 3 of 4 fact\(s\) could not be judged " + WHY, result.output), result.output
    assert re.search(r"r1 +1 +0\.000 +0\.750 +1\.000 +3 fact\(s\)", result.output), result.output


def test_longrecall_with_some_calls_failing_exits_1(toy):
    with MockChatServer(failing(S[1])) as server:
        result, values = longrecall(toy, server)
    assert result.exit_code == 1, result.output
    # n2's only candidate is S1 (failed): unjudged; n1 and n4 covered (yes); n3 uncovered: 2 / 3 judged
    assert (values["judged_facts"], values["unjudged_facts"], values["covered_facts"]) == (3, 1, 2)
    assert values["longrecall"] == pytest.approx(2 / 3)
    assert re.search(r"warning: 1 of 4 fact\(s\) could not be judged " + WHY, result.output), result.output


def test_comprehensiveness_with_every_call_failing_exits_1(toy):
    with MockChatServer(failing(None)) as server:
        result, values = comprehensiveness(toy, server)
    assert result.exit_code == 1, result.output
    # 3 response x 2 context atoms + 2 context pairs = 8; the lexical pruning keeps S0->C0, S2->C0, S1->C1, all
    # failed: both clusters unjudged, none covered or uncovered (comprehensiveness undefined)
    assert (values["pairs_all"], values["pairs_judged"], values["pairs_unjudged"]) == (8, 3, 3)
    assert (values["unjudged_clusters"], values["covered_clusters"], values["uncovered_clusters"]) == (2, 0, 0)
    assert values["comprehensiveness_undefined"] == 1
    assert re.search(r"warning: 3 of 3 entailment pair\(s\) could not be judged " + WHY + r": 2 context cluster",
                     result.output), result.output
    assert "2 cluster(s)" in result.output


def test_comprehensiveness_with_some_calls_failing_exits_1(toy):
    with MockChatServer(failing(C[1])) as server:
        result, values = comprehensiveness(toy, server)
    assert result.exit_code == 1, result.output
    # S1->C1 failed: C1 unjudged; C0 covered (S0 and S2 entail it): 1 covered / 1 decided
    assert (values["pairs_unjudged"], values["unjudged_clusters"], values["covered_clusters"]) == (1, 1, 1)
    assert values["comprehensiveness"] == 1.0
    assert re.search(r"warning: 1 of 3 entailment pair\(s\) could not be judged " + WHY, result.output)


def test_the_api_result_says_what_was_not_judged(toy):
    from argue_eval.api import icat as api_icat

    with MockChatServer(failing(S[1])) as server:
        notes = []
        result = api_icat(toy["run"], nuggets=toy["nuggets"], collection=toy["collection"], judge="llm",
                          judge_options={"llm": {"base_url": server.base_url, "model": "m", "max_retries": 0}},
                          on_note=notes.append)
    assert not result.complete
    assert [str(note) for note in notes] == [str(note) for note in result.notes]
    assert result.unjudged[0].startswith("1 of 3 claim(s) could not be judged")
    assert len(result.unjudged) == 2 and all(note.warning for note in result.notes)


def test_longrecall_says_when_the_multiple_choice_questions_failed(toy):
    """The lexical judge answers the one-candidate facts; n4's two candidates (S2, S0) make one multiple-choice
    question for the LLM, which fails: the warning blames it, not the judge, which failed nothing."""
    with MockChatServer(failing(None)) as server:
        result = CliRunner().invoke(cli, [
            "longrecall", toy["run"], "--nuggets", toy["nuggets"], "--semantic", "off", "--entailment",
            "multiple-choice", "-o", toy["out"], "--no-cache", "--judge-option", f"llm.base_url={server.base_url}",
            "--judge-option", "llm.model=m", "--judge-option", "llm.max_retries=0"])
    assert result.exit_code == 1, result.output
    values = {row.metric: row.value for row in read_scores(toy["out"]) if row.request_id == "t1"}
    assert values["unjudged_facts"] == 1
    assert "warning: 1 of 4 fact(s) could not be judged (1 multiple-choice question(s) failed)" in result.output
