"""``nuggets compare``: recall, precision and binding agreement of a created bank against a human one, with the
lexical judge's answer matching (hand-worked below) and with a judge that cannot answer."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.api.nugget_compare import compare_nuggets
from argue_eval.cli import cli


def bank(path: Path, topics: dict[str, list[tuple[str, list[tuple[str, list[str]]]]]], negative: str | None = None) -> str:
    lines = []
    for topic, nuggets in topics.items():
        records = [{"nugget_id": f"{topic}-{i}", "question": q, "answers": [{"answer": a, "doc_ids": d} for a, d in answers]}
                   for i, (q, answers) in enumerate(nuggets, start=1)]
        if negative and topic == "t1":
            records.append({"nugget_id": "t1-neg", "question": negative, "negative": True,
                            "answers": [{"answer": "no", "doc_ids": []}]})
        lines.append(json.dumps({"request_id": topic, "nuggets": records}))
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.fixture
def banks(tmp_path: Path) -> dict[str, str]:
    human = bank(tmp_path / "human.jsonl", {
        "t1": [("What contaminated the water?", [("E. coli", ["d1", "d2"])]),
               ("How many people were admitted to hospital?", [("37", ["d2", "d3"])]),
               ("Who resigned?", [("the mayor", ["d5"])])],
        "t2": [("What started the fire?", [("a power line", ["d9"])])],
    }, negative="Does the collection say what the repairs cost?")
    created = bank(tmp_path / "created.jsonl", {
        "t1": [("What contaminated the tap water?", [("E. coli bacteria", ["d1", "d4"])]),
               ("How many were hospitalized?", [("37", ["d2"])]),
               ("When was the notice lifted?", [("12 March", ["d3"])])],
        "t3": [("Who won?", [("Ada", ["d7"])])],
    })
    pool = tmp_path / "pool.qrels"
    pool.write_text("t1 0 d1 -1\nt1 0 d2 -1\nt1 0 d4 -1\n")
    return {"human": human, "created": created, "pool": str(pool), "dir": str(tmp_path)}


def test_recall_precision_and_binding_agreement_hand_worked(banks):
    """The lexical judge reads "question answer" of each created nugget as a sentence:
    - "What contaminated the tap water? E. coli bacteria" gives human "E. coli" (the answer's word and the
      question's words contaminate, water are all there): a match; not "37" (its number is missing) nor "the mayor";
    - "How many were hospitalized? 37" gives "37" (answer covered; 2 of the question's 4 other words, many and
      hospital: 0.6 x 1 + 0.4 x 0.5 = 0.8 >= 0.45): a match;
    - "When was the notice lifted? 12 March" gives none.
    t1: human answers 3 (the negative nugget does not count), created 3, 2 matched each way: recall = precision
    = 2/3. Bindings of the matched pairs: {d1, d4} vs {d1, d2}: 1 both, 1 created only, 1 human only; {d2} vs
    {d2, d3}: 1 both, 1 human only; agreement 2 / 5. t2: nothing created: recall 0, precision 0 (no answer).
    t3 is not in the human bank: a note. all: 2 of 4 human answers, 2 of 3 created, 2 / 5; t2 has no created nugget,
    so a second note gives the recall over the topics both banks cover (t1: 2 of 3)."""
    result = compare_nuggets(banks["created"], banks["human"], cache=None)
    assert result.complete
    assert result.rows == [
        ["t1", 3, 3, 2, 2, 2 / 3, 2 / 3, 2, 1, 2, 0.4, 0],
        ["t2", 1, 0, 0, 0, 0.0, 0.0, 0, 0, 0, 0.0, 0],
        ["all", 4, 3, 2, 2, 0.5, 2 / 3, 2, 1, 2, 0.4, 0],
    ]
    assert result.notes == ["1 topic(s) of the created bank are not in the human bank and are not compared: t3",
                            "1 of 2 topic(s) of the human bank have no created nugget (t2): the all row counts their "
                            "1 human answer(s) as missed; over the 1 topic(s) both banks cover, recall is 0.6667 "
                            "(2 of 3)"]  # the all row's 0.5 is not the recall on what both banks cover
    pairs = result.details[0]["pairs"]
    assert [(p["created"]["answer"], p["human"]["answer"], p["both"], p["created_only"], p["human_only"])
            for p in pairs] == [("E. coli bacteria", "E. coli", ["d1"], ["d4"], ["d2"]), ("37", "37", ["d2"], [], ["d3"])]
    assert [a["answer"] for a in result.details[0]["unmatched_human"]] == ["the mayor"]
    assert [a["answer"] for a in result.details[0]["unmatched_created"]] == ["12 March"]


def test_the_pool_keeps_unread_documents_out_of_the_binding_agreement(banks):
    """d3 was not pooled: the human binding of "37" to d3 is not counted. Pairs: 1/1/1 and 1/0/0: 2 / 4."""
    result = compare_nuggets(banks["created"], banks["human"], cache=None, pool=banks["pool"])
    assert result.rows[0][7:11] == [2, 1, 1, 0.5]


def test_pairs_a_judge_cannot_judge_are_counted_never_a_match_or_a_miss(banks):
    pytest.importorskip("aiohttp", reason="needs the llm extra (aiohttp)")
    from llm_server import MockChatServer

    with MockChatServer(lambda n, body: ("status", 500)) as server:
        result = compare_nuggets(banks["created"], banks["human"], cache=None, judge="llm",
                                 judge_options={"llm": {"base_url": server.base_url, "model": "mock", "max_retries": 0}})
    # 3 created x 3 human answers in t1, none in t2
    assert result.rows[0][3:5] == [0, 0] and result.rows[0][11] == 9 and result.rows[-1][11] == 9
    assert not result.complete
    assert result.warnings[0].startswith("9 answer pair(s) could not be judged (3 call(s) to the model failed, the "
                                         "first: HTTP 500 after 1 attempt)")


def test_the_command_writes_the_table_and_details_and_a_bank_against_itself_scores_1(banks, repo):
    out = Path(banks["dir"]) / "compare.tsv"
    details = Path(banks["dir"]) / "compare.jsonl"
    done = CliRunner().invoke(cli, ["nuggets", "compare", banks["created"], banks["human"], "--no-cache", "-o", str(out),
                                    "--details", str(details)])
    assert done.exit_code == 0, done.output
    lines = out.read_text().splitlines()
    assert lines[0].split("\t")[:7] == ["request_id", "human_answers", "created_answers", "matched_human",
                                        "matched_created", "recall", "precision"]
    assert lines[-1].split("\t")[:6] == ["all", "4", "3", "2", "2", "0.5"]
    assert [json.loads(line)["request_id"] for line in details.read_text().splitlines()] == ["t1", "t2"]
    sample = str(repo / "nuggets" / "sample" / "nuggets.jsonl")
    itself = CliRunner().invoke(cli, ["nuggets", "compare", sample, sample, "--no-cache"])
    assert itself.exit_code == 0
    last = itself.output.splitlines()[-1].split("\t")
    assert last[:7] == ["all", "51", "51", "51", "51", "1.0", "1.0"]
