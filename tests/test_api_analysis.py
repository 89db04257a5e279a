"""The analysis API (api.analysis, api.reusability): each function's table on inputs worked out by hand."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from argue_eval.api.analysis import (
    circularity,
    compare_replicates,
    compare_systems,
    discriminative_power,
    swap_rates,
    topic_set_size,
)
from argue_eval.api.reusability import reusability
from argue_eval.model import Answer, Judgment, Nugget, Report, Sentence, TopicNuggets

# --- leave one team out ---------------------------------------------------------------------------------------
# One topic. n1 ("x") is bound to d1 and d3, n2 ("y") to d3 only. Team A's run a1 gives "x" and "y" citing d3;
# team B's run b1 gives "x" citing d1, and cites d2 (in no nugget) for another sentence.
# Official nugget coverage: a1 2/2 = 1, b1 1/2 = 0.5. Only A cited d3: without A, n1 keeps d1 and n2 (bound only
# to d3) is gone, so a1 is scored on n1 alone, which it gave citing d3, no longer relevant: 0/1 = 0, below b1's
# 0.5: rank 1 -> 2. Only B cited d1 and d2 (in no nugget): without B, n1 keeps d3 and nothing is removed, so b1
# is scored on n1 and n2 with its "x" citing d1, no longer relevant: 0/2 = 0, still below a1's 1: rank 2 -> 2.
S1, S2, S3, S4 = "It was x.", "It was y.", "Also x.", "Unrelated."


def round_records() -> tuple[list[Report], list[TopicNuggets], list[Judgment]]:
    reports = [
        Report("a1", "T1", [Sentence(S1, ("d3",)), Sentence(S2, ("d3",))], metadata={"team_id": "A"}),
        Report("b1", "T1", [Sentence(S3, ("d1",)), Sentence(S4, ("d2",))], metadata={"team_id": "B"}),
    ]
    bank = [TopicNuggets("T1", [Nugget("n1", "T1", "q1?", [Answer("x", ("d1", "d3"))]),
                                Nugget("n2", "T1", "q2?", [Answer("y", ("d3",))])])]
    people = "human:test"
    judgments = [
        Judgment("attested", "T1", S1, True, people, doc_id="d3"),
        Judgment("answers", "T1", S1, True, people, doc_id="d3", nugget_id="n1", answer="x"),
        Judgment("attested", "T1", S2, True, people, doc_id="d3"),
        Judgment("answers", "T1", S2, True, people, doc_id="d3", nugget_id="n2", answer="y"),
        Judgment("attested", "T1", S3, True, people, doc_id="d1"),
        Judgment("answers", "T1", S3, True, people, doc_id="d1", nugget_id="n1", answer="x"),
        Judgment("answers", "T1", S1, False, people, doc_id="d3", nugget_id="n2", answer="y"),
        Judgment("answers", "T1", S2, False, people, doc_id="d3", nugget_id="n1", answer="x"),
        Judgment("attested", "T1", S4, False, people, doc_id="d2"),
    ]
    return reports, bank, judgments


def test_reusability_by_hand():
    reports, bank, judgments = round_records()
    result = reusability(reports, bank, judgments, metrics=["nugget_coverage"], policies=None)
    rows = {(row.team, row.run_id): row for row in result.table.itertuples()}
    a1 = rows[("A", "a1")]
    assert (a1.score, a1.score_left_out, a1.change) == (1.0, 0.0, -1.0)
    assert (a1.rank, a1.rank_left_out, a1.rank_change) == (1, 2, 1)
    b1 = rows[("B", "b1")]
    assert (b1.score, b1.score_left_out, b1.change, b1.rank, b1.rank_change) == (0.5, 0.0, -0.5, 2, 0)
    teams = result.data["teams"].set_index("team")
    assert teams.at["A", "unique_documents"] == 1 and teams.at["A", "unique_bank_documents"] == 1
    assert (teams.at["A", "removed_answers"], teams.at["A", "removed_nuggets"]) == (1, 1)
    assert teams.at["B", "unique_documents"] == 2 and teams.at["B", "unique_bank_documents"] == 1
    assert (teams.at["B", "removed_answers"], teams.at["B", "removed_nuggets"]) == (0, 0)
    assert result.details[0]["removed_nuggets"] == [["T1", "n2", "q2?"]]
    assert any("largest nugget_coverage change when a team is left out: A (-1.0000" in n.text for n in result.notes)
    # Depth 1 (each run's first cited document): a1 contributes d3, b1 d1 (not d2, in no nugget): the same scores.
    assert reusability(reports, bank, judgments, metrics="nugget_coverage", depth=1).table.equals(result.table)


def test_reusability_refuses_relevance_from_judgments():
    from argue_eval.argue.policies import Policies
    from argue_eval.errors import OptionError

    reports, bank, judgments = round_records()
    with pytest.raises(OptionError, match="relevance from the nuggets or the qrels"):
        reusability(reports, bank, judgments, policies=Policies(relevance="judgments"))


# --- the score-table analyses ---------------------------------------------------------------------------------

def write_scores(path: Path, rows: dict[str, list[float]], metric: str = "f1") -> Path:
    lines = ["run_id\trequest_id\tmetric\tvalue"]
    for run, values in rows.items():
        lines += [f"{run}\tt{k}\t{metric}\t{value}" for k, value in enumerate(values, 1)]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_replicates_from_score_tables(tmp_path: Path):
    # The hand-worked run of tests/test_stats_replicates.py: replicate 1 (0.2, 0.6), replicate 2 (0.4, 0.8).
    one = write_scores(tmp_path / "seed1.tsv", {"A": [0.2, 0.6], "B": [0.1, 0.2]})
    two = write_scores(tmp_path / "seed2.tsv", {"A": [0.4, 0.8], "B": [0.1, 0.2]})
    result = compare_replicates([one, two], "f1", resamples=500)
    table = result.table.set_index("run_id")
    assert table.at["A", "judge_share"] == pytest.approx(0.2) and table.at["A", "mean"] == pytest.approx(0.5)
    assert table.at["A", "mean[seed1.tsv]"] == pytest.approx(0.4)
    assert result.settings["replicates"] == ["seed1.tsv", "seed2.tsv"]
    assert result.details[0]["n_replicates"] == 2
    json.dumps(result.details)  # the JSON document is plain data


def test_systems_discriminative_power_swaps_and_design(tmp_path: Path):
    scores = write_scores(tmp_path / "s.tsv", {"a1": [0.2, 0.6], "a2": [0.4, 1.0], "b": [0.5, 0.5]})
    systems = compare_systems(scores, "f1", {"a1": "A", "a2": "A"}, resamples=200)
    row = systems.table.set_index("system").loc["A"]
    assert row["mean"] == pytest.approx(0.55) and row["n_runs"] == 2 and row["topic_range"] == pytest.approx(0.3)
    # the matrix of tests/test_stats_power.py (scores in eighths): two of three pairs at p = 2/64
    three = write_scores(tmp_path / "p.tsv", {"A": [1.0, 0.875, 0.75, 1.0, 0.875, 0.75],
                                             "B": [0.625, 0.5, 0.375, 0.625, 0.5, 0.375],
                                             "C": [0.5, 0.625, 0.25, 0.75, 0.375, 0.5]})
    power = discriminative_power(three, "f1", test="randomization", correction="none")
    assert power.table["power"].tolist() == pytest.approx([2 / 3])
    assert len(power.data["curve"]) == 3
    swaps = swap_rates(write_scores(tmp_path / "w.tsv", {"A": [0.9, 0.7, 0.4, 0.3], "B": [0.5] * 4}), "f1")
    assert swaps.table["swap_rate"].tolist() == pytest.approx([2 / 3, 1 / 3])
    design = topic_set_size(write_scores(tmp_path / "d.tsv", {"x": [1.0, 2.0, 3.0], "y": [2.0, 2.0, 5.0]}), "f1",
                            deltas=[1.0])
    assert design.table["topics_needed"].tolist() == [10]


def test_circularity_reads_run_metadata_and_the_judges_models(tmp_path: Path):
    run = tmp_path / "runs.jsonl"
    lines = [{"run_id": "gen-llama", "request_id": "T1", "sentences": [{"text": "x", "citations": []}],
              "metadata": {"description": "Llama-3.3-70B-Instruct writes the report"}},
             {"run_id": "plain", "request_id": "T1", "sentences": [{"text": "y", "citations": []}]}]
    run.write_text("".join(json.dumps(line) + "\n" for line in lines))
    judged = [Judgment("attested", "T1", "x", True, "llm:meta-llama/Llama-3.3-70B-Instruct", doc_id="d1")]
    result = circularity(run, judgments=judged)
    assert result.table.values.tolist() == [
        ["gen-llama", "judge_model", "description",
         "names the judge's model meta-llama/Llama-3.3-70B-Instruct: Llama-3.3-70B-Instruct writes the report"]]
    assert result.runs == ["gen-llama", "plain"]
    assert result.notes[0].text == "1 of 2 run(s) flagged: gen-llama"


def test_mapping_files_and_pairs(tmp_path: Path):
    from argue_eval.errors import InputError, OptionError
    from argue_eval.inputs.mapping import merge_mappings, parse_pairs, read_mapping

    path = tmp_path / "systems.tsv"
    path.write_text("# run system\nseed1\tOrion\n\nseed2   Orion 2\nseed1 Orion\n")
    assert read_mapping(path) == {"seed1": "Orion", "seed2": "Orion 2"}
    assert merge_mappings({"seed2": "Orion"}, [path], "--systems") == {"seed1": "Orion", "seed2": "Orion"}
    path.write_text("seed1\tOrion\nseed1\tOther\n")
    with pytest.raises(InputError) as raised:
        read_mapping(path)
    assert str(raised.value).endswith(":2: run: run 'seed1' mapped to 'Other' here and to 'Orion' on line 1")
    path.write_text("lonely\n")
    with pytest.raises(InputError, match="expected `RUN NAME`"):
        read_mapping(path)
    assert parse_pairs(["a=A", "b = B"], "--system") == {"a": "A", "b": "B"}
    with pytest.raises(OptionError, match="expected RUN=NAME"):
        parse_pairs(["a"], "--system")
    with pytest.raises(OptionError, match="two names"):
        parse_pairs(["a=A", "a=B"], "--system")
