"""Judges measured against people (``agree-judgments`` HUMAN JUDGE...): every figure on a set small enough to
work by hand, the system-level checks on the sample track, the adjudication file, bad input."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from argue_eval.api import agree_judgments
from argue_eval.cli import cli
from argue_eval.model import Judgment
from argue_eval.stats.agreement import agreement
from argue_eval.stats.label_agreement import (
    coder_alpha,
    confusion_statistics,
    decision_agreement,
    krippendorff_alpha,
    label_agreement,
)

REPO = Path(__file__).resolve().parents[1]
SAMPLE_JUDGMENTS = REPO / "qrels/sample/judgments.jsonl"
NUGGETS = REPO / "nuggets/sample/nuggets.jsonl"
REQUESTS = REPO / "topics/sample/requests.jsonl"
COLLECTION = REPO / "topics/sample/collection.jsonl"
RUNS = sorted((REPO / "runs/sample").glob("*.jsonl"))

# The hand-worked set: 8 `attested` items over 3 topics, (people's answer, judge's answer):
#   t1: (Y,Y) (Y,N) (N,N)    t2: (Y,Y) (N,Y)    t3: (N,N) (Y,Y) (N,N)
# yy = 3, yn = 1, ny = 1, nn = 3 (N = 8).
ITEMS = [("t1", True, True), ("t1", True, False), ("t1", False, False), ("t2", True, True), ("t2", False, True),
         ("t3", False, False), ("t3", True, True), ("t3", False, False)]


def test_the_statistics_of_the_hand_worked_set():
    result = label_agreement(ITEMS, resamples=3, seed=0)
    assert result.confusion == (3, 1, 1, 3) and result.n == 8 and result.topics == ["t1", "t2", "t3"]
    value = {item.name: item.value for item in result.statistics}
    assert value["accuracy"] == pytest.approx(6 / 8)    # (yy + nn) / N
    assert value["precision"] == pytest.approx(3 / 4)   # yy / (yy + ny): the judge's yeses people share
    assert value["recall"] == pytest.approx(3 / 4)      # yy / (yy + yn): the people's yeses the judge found
    assert value["f1"] == pytest.approx(6 / 8)          # 2 yy / (2 yy + yn + ny)
    # kappa: yes-rates 4/8 and 4/8, p_e = 0.5, (0.75 - 0.5) / 0.5
    assert value["kappa"] == pytest.approx(0.5)
    # alpha, two coders: n = 16 values, n_yes = 2*3 + 1 + 1 = 8, n_no = 2*3 + 1 + 1 = 8, o_yn = yn + ny = 2:
    # 1 - (16 - 1) * 2 / (8 * 8) = 1 - 30/64
    assert value["alpha"] == pytest.approx(1 - 30 / 64)


def test_the_bootstrap_interval_with_three_resamples_by_hand():
    """default_rng(0).integers(0, 3, (3, 3)) draws topics [t3 t2 t2], [t1 t1 t1], [t1 t1 t1] (the kit's topic
    bootstrap, as scipy draws). Topic counts (yy, yn, ny, nn): t1 (1,1,0,1), t2 (1,0,1,0), t3 (1,0,0,2).
    Resample 1: t3 + 2 t2 = (3,0,2,2): accuracy 5/7, kappa: p_o 5/7, yes-rates 3/7 and 5/7, p_e 23/49, 12/26.
    Resamples 2 and 3: 3 t1 = (3,3,0,3): accuracy 6/9, kappa: yes-rates 6/9 and 3/9, p_e 4/9, (2/9)/(5/9) = 0.4.
    Percentile interval of three sorted values (v0, v1, v2) at 2.5% / 97.5% (the linear rule): v0 + 0.05 (v1 - v0)
    and v1 + 0.95 (v2 - v1)."""
    assert np.random.default_rng(0).integers(0, 3, (3, 3)).tolist() == [[2, 1, 1], [0, 0, 0], [0, 0, 0]]
    result = label_agreement(ITEMS, resamples=3, seed=0)
    accuracy, kappa = result.statistic("accuracy"), result.statistic("kappa")
    assert (accuracy.ci_low, accuracy.ci_high) == pytest.approx((2 / 3, 2 / 3 + 0.95 * (5 / 7 - 2 / 3)))
    assert (kappa.ci_low, kappa.ci_high) == pytest.approx((0.4, 0.4 + 0.95 * (12 / 26 - 0.4)))
    assert accuracy.ci_method == "percentile"


def test_undefined_statistics_say_why():
    """A judge that never says yes has no precision; people who never say yes leave recall undefined."""
    result = label_agreement([("t1", False, False), ("t2", False, False)], resamples=10)
    assert result.statistic("accuracy").value == 1.0
    for name in ("precision", "recall", "f1", "kappa", "alpha"):
        item = result.statistic(name)
        assert item.value is None and item.note.startswith("undefined: "), name
    assert np.isnan(confusion_statistics(np.zeros(4))["accuracy"])


def test_krippendorffs_alpha_on_his_published_example():
    """Krippendorff (2011), "Computing Krippendorff's alpha-reliability": 4 coders, 12 units, nominal alpha 0.743."""
    nan = np.nan
    coders_by_unit = np.array([
        [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
        [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]])
    assert krippendorff_alpha(coders_by_unit.T) == pytest.approx(0.743, abs=5e-4)
    krippendorff = pytest.importorskip("krippendorff")  # the PyPI package (the test extra): the same value
    assert krippendorff_alpha(coders_by_unit.T) == pytest.approx(
        krippendorff.alpha(reliability_data=coders_by_unit, level_of_measurement="nominal"), abs=1e-12)


def test_alpha_of_three_coders_by_hand():
    """Units (alice, bob, judge): YYY, YNN, NNN | YYY, NNY (topics t1 | t2). Coincidences, 1/(m-1) = 1/2 per
    ordered pair: YYY adds o_yy 3; YNN adds o_yn = o_ny = 1, o_nn 1; NNN adds o_nn 3. Totals o_yy 6, o_nn 5,
    o_yn = o_ny 2; n = 15, n_yes 8, n_no 7: alpha = 1 - 14 * 4 / (225 - 64 - 49) = 1 - 56/112 = 0.5."""
    def unit(topic, *values):
        return topic, dict(zip(("alice", "bob", "judge"), values))

    units = [unit("t1", True, True, True), unit("t1", True, False, False), unit("t1", False, False, False),
             unit("t2", True, True, True), unit("t2", False, False, True)]
    result = coder_alpha(units, resamples=50, seed=0)
    assert result.alpha.value == pytest.approx(0.5) and result.units == 5 and result.values == 15
    assert result.observed_agreement == pytest.approx(11 / 15)  # (o_yy + o_nn) / n
    matrix = np.array([[1, 1, 1], [1, 0, 0], [0, 0, 0], [1, 1, 1], [0, 0, 1]], dtype=float)
    assert krippendorff_alpha(matrix) == pytest.approx(0.5)
    assert result.alpha.ci_low <= 0.5 + 1e-9 and result.alpha.ci_high >= result.alpha.ci_low
    # a unit with one answer is not pairable and changes nothing
    assert coder_alpha(units + [("t3", {"alice": True})], resamples=50).alpha.value == pytest.approx(0.5)


def test_pairwise_decisions_by_hand():
    """3 runs x 6 topics, exact randomization test (2^6 = 64 sign vectors), no correction, alpha 0.05.
    A: r1 = 3, r2 = 2 everywhere, r3 = 1 3 1 3 1 3. Leaderboard r1 (3), r2 (2), r3 (2, after r2 by id).
      (r1,r2): d = 1 on every topic -> only all-plus and all-minus reach |mean| 1: p = 2/64, significant, +.
      (r1,r3): d = 2 0 2 0 2 0 -> the three nonzero signs all alike: p = 16/64, not significant.
      (r2,r3): d = 1 -1 1 -1 1 -1, mean 0 -> p = 1, not significant.
    B: r1 = 3, r2 = 2, r3 = 4 2.5 4 2.5 4 2.5.
      (r1,r2): as in A, significant, +: the same decision.
      (r1,r3): d = -1 .5 -1 .5 -1 .5, sum -1.5; |sum of signed d| >= 1.5 for 40 of 64 sign vectors: not significant.
      (r2,r3): d = -2 -.5 ... all negative: p = 2/64, significant, - (r3 better): A said not significant.
    Same decision on 2 of 3 pairs; one pair significant under B only."""
    a = np.array([[3] * 6, [2] * 6, [1, 3, 1, 3, 1, 3]], dtype=float)
    b = np.array([[3] * 6, [2] * 6, [4, 2.5, 4, 2.5, 4, 2.5]], dtype=float)
    result = decision_agreement(a, b, ["r1", "r2", "r3"], test="randomization", correction="none", resamples=1000)
    assert result.pairs == [("r1", "r2"), ("r1", "r3"), ("r2", "r3")]
    assert result.p_a.tolist() == pytest.approx([2 / 64, 16 / 64, 1.0])
    assert result.p_b.tolist() == pytest.approx([2 / 64, 40 / 64, 2 / 64])
    assert result.decision_a.tolist() == [1, 0, 0] and result.decision_b.tolist() == [1, 0, -1]
    assert result.counts == {"pairs": 3, "same": 2, "both_significant": 1, "both_not": 1, "only_a": 0, "only_b": 1,
                             "opposite": 0}
    assert result.agreement == pytest.approx(2 / 3)
    assert result.to_dict()["differ"] == [{"a": "r2", "b": "r3", "decision_a": "not significant",
                                           "decision_b": "worse", "p_a": 1.0, "p_b": pytest.approx(2 / 64)}]
    # opposite: B flips r1 and r2, each significant
    flipped = decision_agreement(a, b[[1, 0, 2]], ["r1", "r2", "r3"], test="randomization", correction="none",
                                 resamples=1000)
    assert flipped.counts["opposite"] == 1 and flipped.decision_b[0] == -1


def test_rank_agreement_of_the_leaderboards_by_hand():
    """Means under A: s1 3 > s2 2 > s3 1; under B: s1 > s3 > s2. tau-b = (2 concordant - 1 discordant) / 3.
    tau_AP of B's ranking (s1, s3, s2) against A's: position 2 (s3): s1 above, A agrees, 1/1; position 3 (s2):
    s1 and s3 above, A agrees on s1 only, 1/2; 2/(3-1) * (1 + 1/2) - 1 = 0.5."""
    import pandas as pd

    a = pd.DataFrame([[3, 3], [2, 2], [1, 1]], index=["s1", "s2", "s3"], columns=["t1", "t2"], dtype=float)
    b = pd.DataFrame([[3, 3], [1, 1], [2, 2]], index=["s1", "s2", "s3"], columns=["t1", "t2"], dtype=float)
    result = agreement(a, b, resamples=20, top_k=())
    assert result.statistic("kendall_tau_b").value == pytest.approx(1 / 3)
    assert result.statistic("tau_ap").value == pytest.approx(0.5)
    # Pearson of (3,2,1) and (3,1,2): centred (1,0,-1) and (1,-1,0), sum of products 1, norms sqrt 2 each: 1/2
    assert result.statistic("pearson").value == pytest.approx(0.5)


# ---------------------------------------------------------------------------------------------------------
# The API and the command on records and files.

def _judgment(topic, k, value, judge, confidence=None):
    return Judgment(kind="attested", request_id=topic, sentence=f"Sentence {topic}-{k}.", value=value, judge=judge,
                    doc_id="nw-0001", confidence=confidence)


def _people_and_judge():
    """ITEMS as alice's (all 8) and the judge's answers; bob answered t1 and t2 (5 items) first, alike except
    t1's second item (alice Y, bob N). Alice's lines come last, so hers are the reference."""
    counter: dict[str, int] = {}
    people, judge = [], []
    bob_values = {("t1", 0): True, ("t1", 1): False, ("t1", 2): False, ("t2", 0): True, ("t2", 1): False}
    for topic, reference, answer in ITEMS:
        k = counter[topic] = counter.get(topic, -1) + 1
        if (topic, k) in bob_values:
            people.insert(0, _judgment(topic, k, bob_values[(topic, k)], "human:bob"))
        people.append(_judgment(topic, k, reference, "human:alice"))
        judge.append(_judgment(topic, k, answer, "lexical", confidence=0.5 + k / 10))
    return people, judge


def test_the_api_on_the_hand_worked_set():
    people, judge = _people_and_judge()
    result = agree_judgments(("people", people), [("lexical", judge)], resamples=3, seed=0)
    [side] = result.judges
    attested = side.kinds["attested"]
    assert attested.confusion == (3, 1, 1, 3) and attested.statistic("kappa").value == pytest.approx(0.5)
    assert (attested.statistic("accuracy").ci_low, attested.statistic("accuracy").ci_high) == pytest.approx(
        (2 / 3, 2 / 3 + 0.95 * (5 / 7 - 2 / 3)))
    assert result.assessors == ["human:alice", "human:bob"]
    # alice vs bob on the 5 double-assessed items: yy 2, yn 1, ny 0, nn 2: p_o 0.8, yes-rates 0.6 and 0.4,
    # p_e 0.48, kappa 0.32/0.52; alpha: n 10, n_yes 5, n_no 5, 1 - 9 * 1 / 25 = 0.64
    pair = result.pairs[("human:alice", "human:bob")]["attested"]
    assert pair.confusion == (2, 1, 0, 2)
    assert pair.statistic("kappa").value == pytest.approx(0.32 / 0.52)
    assert result.people["attested"].alpha.value == pytest.approx(0.64)
    # the judge as a third coder on those 5 items (the units of test_alpha_of_three_coders_by_hand)
    assert side.with_people["attested"].alpha.value == pytest.approx(0.5)
    # the disagreements: t1's second (people yes, judge no, confidence 0.6) before t2's second (0.6)... by
    # confidence first, then the people's unanimity: t1-1 has alice Y, bob N (split); t2-1 alice N, bob N
    assert [(r["request_id"], r["sentence"], r["judges"][0]["confidence"]) for r in result.details] == [
        ("t2", "Sentence t2-1.", 0.6), ("t1", "Sentence t1-1.", 0.6)]
    assert [r["rank"] for r in result.details] == [1, 2]
    assert result.details[0]["assessors"] == {"human:alice": False, "human:bob": False}
    table = result.table
    assert set(table.columns) == {"judge", "kind", "statistic", "value", "ci_low", "ci_high"}
    row = table[(table.judge == "lexical") & (table.statistic == "f1")].iloc[0]
    assert row.value == pytest.approx(0.75)


def _write(path: Path, judgments) -> Path:
    from argue_eval.formats import write

    write(judgments, path, "argue", kind="judgments")
    return path


def test_the_command_text_tsv_json(tmp_path):
    people, judge = _people_and_judge()
    human, lexical = _write(tmp_path / "human.jsonl", people), _write(tmp_path / "lexical.jsonl", judge)
    runner = CliRunner()
    text = runner.invoke(cli, ["agree-judgments", str(human), str(lexical), "--resamples", "3"])
    assert text.exit_code == 0, text.output
    rows = [line.split() for line in text.output.splitlines()]
    assert ["lexical", "attested", "8", "0.750", "[0.667,", "0.712]"] == rows[3][:6]
    assert "double assessment: human:alice, human:bob" in text.output
    assert ["people", "attested", "5", "0.800", "0.640", "[0.401,", "0.982]"] in rows
    assert ["human:bob", "vs", "human:alice", "attested", "5", "0.800"] in [row[:6] for row in rows]
    tsv = runner.invoke(cli, ["agree-judgments", str(human), str(lexical), "--resamples", "3", "--format", "tsv"])
    lines = tsv.output.splitlines()
    assert lines[0] == "judge\tkind\tstatistic\tvalue\tci_low\tci_high"
    cells = {tuple(line.split("\t")[:3]): line.split("\t")[3:] for line in lines[1:] if not line.startswith("#")}
    assert [float(x) for x in cells[("lexical", "attested", "kappa")]] == pytest.approx(
        [0.5, 0.4, 0.4 + 0.95 * (12 / 26 - 0.4)])
    assert cells[("lexical", "attested", "yes_no")] == ["1", "n/a", "n/a"]
    assert float(cells[("people", "attested", "alpha")][0]) == pytest.approx(0.64)
    assert float(cells[("people+lexical", "attested", "alpha")][0]) == pytest.approx(0.5)
    doc = json.loads(runner.invoke(cli, ["agree-judgments", str(human), str(lexical), "--resamples", "3",
                                         "--format", "json"]).output)
    [kind] = doc["kinds"]
    assert kind["kind"] == "attested" and kind["kappa"] == pytest.approx(0.5) and kind["f1"] == pytest.approx(0.75)
    assert kind["n_a"] == 8 and kind["overlap"] == 8 and kind["alpha"] == pytest.approx(1 - 30 / 64)
    assert doc["people"]["attested"]["alpha"] == pytest.approx(0.64)
    assert doc["judges"][0]["with_people"]["attested"]["alpha"] == pytest.approx(0.5)
    # same inputs and seed, same bytes
    again = runner.invoke(cli, ["agree-judgments", str(human), str(lexical), "--resamples", "3", "--format", "json"])
    assert again.output == json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def test_identical_judgments_agree_everywhere_on_the_sample_track(tmp_path):
    """The sample assessors' file against itself under another judge name: every statistic 1, the same
    leaderboard (tau-b 1, tau_AP 1) and the same decision on every run pair."""
    copy = tmp_path / "copy.jsonl"
    copy.write_text("".join(json.dumps({**json.loads(line), "judge": "copy"}) + "\n"
                            for line in SAMPLE_JUDGMENTS.read_text().splitlines()))
    result = agree_judgments(SAMPLE_JUDGMENTS, [copy], nuggets=NUGGETS, requests=REQUESTS,
                             runs=[str(run) for run in RUNS], resamples=200)
    [side] = result.judges
    assert all(item.statistic("accuracy").value == 1.0 for item in side.kinds.values())
    assert side.systems is not None and side.decisions is not None
    assert side.systems.statistic("kendall_tau_b").value == pytest.approx(1.0)
    assert side.systems.statistic("tau_ap").value == pytest.approx(1.0)
    assert len(side.systems.runs) == len(RUNS) and side.decisions.counts["pairs"] == len(RUNS) * (len(RUNS) - 1) // 2
    assert side.decisions.agreement == 1.0 and result.details == []


def test_a_flipped_judge_on_the_sample_track_moves_the_figures(tmp_path):
    """Every `answers` judgment of topic s01 flipped: the judge disagrees there only, recall and precision
    fall for that kind, and the disagreements carry the nugget's question and the document's passage."""
    lines = [json.loads(line) for line in SAMPLE_JUDGMENTS.read_text().splitlines()]
    flipped = [{**line, "judge": "flip", "value": (not line["value"]) if line["kind"] == "answers"
                and line["request_id"] == "s01" else line["value"]} for line in lines]
    path = tmp_path / "flip.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in flipped))
    expected = sum(1 for line in lines if line["kind"] == "answers" and line["request_id"] == "s01")
    result = agree_judgments(SAMPLE_JUDGMENTS, [path], nuggets=NUGGETS, collection=COLLECTION, resamples=100)
    answers = result.judges[0].kinds["answers"]
    yy, yn, ny, nn = answers.confusion
    assert yn + ny == expected == len(result.details)
    assert result.judges[0].kinds["attested"].statistic("kappa").value == 1.0
    first = next(r for r in result.details if r["doc_id"])
    assert first["nugget_question"] and first["doc_passage"] and first["doc_title"] is not None
    assert first["request_id"] == "s01" and first["judges"][0]["judge"] == "flip"
    assert all(word in first["doc_passage"] for word in first["answer"].split()[:1])


def test_the_adjudication_file_loads_into_the_workbench(tmp_path):
    people, judge = _people_and_judge()
    human, lexical = _write(tmp_path / "human.jsonl", people), _write(tmp_path / "lexical.jsonl", judge)
    out = tmp_path / "adjudicate.jsonl"
    result = CliRunner().invoke(cli, ["agree-judgments", str(human), str(lexical), "--resamples", "3",
                                      "--disagreements", str(out)])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(line["sentence"], line["rank"], line["a"]["value"], line["b"]["value"], line["b"]["judge"])
            for line in lines] == [("Sentence t2-1.", 1, False, True, "lexical"), ("Sentence t1-1.", 2, True, False,
                                                                                    "lexical")]
    from argue_eval.workbench.loading import _check_disagreement

    for k, line in enumerate(lines, 1):
        _check_disagreement(str(out), k, line)  # what `assess init --disagreements` requires of each line


def test_bad_input_is_one_located_line_and_exit_2(tmp_path):
    people, judge = _people_and_judge()
    human = _write(tmp_path / "human.jsonl", people)
    contradicting = _write(tmp_path / "bad.jsonl", judge + [_judgment("t1", 0, False, "lexical")])
    runner = CliRunner()
    result = runner.invoke(cli, ["agree-judgments", str(human), str(contradicting)])
    assert result.exit_code == 2
    assert result.output.startswith(f"{contradicting}:9: value: contradicts line 1")
    result = runner.invoke(cli, ["agree-judgments", str(human), str(RUNS[0])])
    assert result.exit_code == 2 and result.output.startswith(f"{RUNS[0]}:1: ")
    assert len(result.output.strip().splitlines()) == 1
    result = runner.invoke(cli, ["agree-judgments", str(human), str(human), "--run", str(RUNS[0])])
    assert result.exit_code == 2 and result.output.strip() == (
        "--run: scoring the runs under both judgments needs the nugget bank (--nuggets)")
    # `--run runs/*.jsonl`: the shell leaves all but the first run to JUDGE...
    result = runner.invoke(cli, ["agree-judgments", str(SAMPLE_JUDGMENTS), str(SAMPLE_JUDGMENTS), "--run", str(RUNS[0]),
                                 str(RUNS[1]), "--nuggets", str(NUGGETS)])
    assert result.exit_code == 2 and result.output.startswith(f"{RUNS[1]}: a run file among the JUDGE files")
    result = runner.invoke(cli, ["agree-judgments", str(human)])
    assert result.exit_code == 2 and "Missing argument 'JUDGE...'" in result.output
    # the people's judgments do not cover the runs: scoring under them says what is missing, once
    partial = tmp_path / "partial.jsonl"
    partial.write_text("".join(SAMPLE_JUDGMENTS.read_text().splitlines(keepends=True)[:50]))
    result = runner.invoke(cli, ["agree-judgments", str(partial), str(SAMPLE_JUDGMENTS), "--run", str(RUNS[0]),
                                 "--nuggets", str(NUGGETS)])
    assert result.exit_code == 2 and "judgments missing" in result.output and "the people's" in result.output
    assert "Traceback" not in result.output


# ---------------------------------------------------------------------------------------------------------
# The HTML report's "judges against people" view.

def _report(tmp_path: Path, *extra: str) -> Path:
    """The sample runs scored with the sample judgments (the judge here: the same file relabelled, one
    `attested` answer of s01 flipped), reported with the people's file as --human."""
    lines = [json.loads(line) for line in SAMPLE_JUDGMENTS.read_text().splitlines()]
    first = next(k for k, line in enumerate(lines) if line["kind"] == "attested")
    judged = [{**line, "judge": "judge:x", "confidence": 0.9 if k == first else None,
               "value": (not line["value"]) if k == first else line["value"]} for k, line in enumerate(lines)]
    judge = tmp_path / "judge.jsonl"
    judge.write_text("".join(json.dumps(line) + "\n" for line in judged))
    args = ["score", "--nuggets", str(NUGGETS), "--requests", str(REQUESTS), "--judgments", str(judge),
            "-o", str(tmp_path / "scores.tsv"), "--details", str(tmp_path / "details.jsonl"), "--quiet"]
    for run in RUNS:
        args += ["--run", str(run)]
    assert CliRunner().invoke(cli, args).exit_code == 0
    out = tmp_path / "report.html"
    result = CliRunner().invoke(cli, ["report", "--scores", str(tmp_path / "scores.tsv"), "--details",
                                      str(tmp_path / "details.jsonl"), "--nuggets", str(NUGGETS), "--judgments",
                                      str(judge), "--collection", str(COLLECTION), "--resamples", "200", "-q",
                                      "-o", str(out), *extra])
    assert result.exit_code == 0, result.output
    return out


def _main_data(page: Path) -> dict:
    import re

    return json.loads(re.search(r'<script type="application/json" id="report-data">(.*?)</script>',
                                page.read_text()).group(1))


def test_the_report_embeds_the_view_only_with_human_judgments(tmp_path):
    plain = _report(tmp_path)
    assert "people" not in _main_data(plain) and 'data-view="people"' not in plain.read_text()
    page = _report(tmp_path, "--human", str(SAMPLE_JUDGMENTS))
    people = _main_data(page)["people"]
    [judge] = people["judges"]
    attested = next(row for row in judge["kinds"] if row["kind"] == "attested")
    n = attested["n"]
    # one of the n attested answers flipped: accuracy (n - 1)/n
    assert attested["accuracy"][0] == pytest.approx((n - 1) / n) and sum(attested["confusion"]) == n
    assert people["n_disagreements"] == 1 and people["disagreements"][0]["confidence"] == 0.9
    assert people["disagreements"][0]["doc_passage"]
    assert 'data-view="people"' in page.read_text()
    # the people's file without judges to compare is a one-line usage error
    result = CliRunner().invoke(cli, ["report", "--scores", str(tmp_path / "scores.tsv"), "--human",
                                      str(SAMPLE_JUDGMENTS), "-o", str(tmp_path / "x.html")])
    assert result.exit_code == 2 and result.output.startswith("--human: ") and not (tmp_path / "x.html").exists()


@pytest.mark.browser
def test_the_view_in_chromium(tmp_path):
    pytest.importorskip("websocket", reason="websocket-client (the test extra) drives the browser")
    from cdp import Browser, find_browser

    if find_browser() is None:
        pytest.skip("no Chromium on this machine (Debian's chromium package; .ci/run installs it)")
    page = _report(tmp_path, "--human", str(SAMPLE_JUDGMENTS))
    with Browser(tmp_path / "chromium") as browser:
        browser.open(page)
        browser.evaluate("location.hash = '#people'")
        browser.evaluate("new Promise(r => setTimeout(r, 200))")
        assert browser.evaluate("document.getElementById('view-people').hidden") is False
        cells = browser.evaluate("Array.from(document.querySelectorAll('#people-judge-0 tbody tr')).map("
                                 "r => Array.from(r.cells).map(c => c.textContent))")
        attested = next(row for row in cells if row[0] == "attested")
        n = int(attested[1])
        assert attested[2].startswith(f"{(n - 1) / n:.3f} [")
        assert browser.evaluate("document.querySelectorAll('#people-disagreements li').length") == 1
        assert "judge:x" in browser.evaluate("document.querySelector('#people-disagreements li').textContent")
        browser.screenshot(tmp_path / "people.png")


def test_the_simulated_second_assessor_flips_the_share_asked(tmp_path):
    """tools/sample_track/fill_pool.py (the docs' double-assessed round): --flip 0 fills the sample assessor's
    answers, --flip 1 reverses every one, the same seed writes the same bytes."""
    import subprocess
    import sys

    pool = tmp_path / "pool.jsonl"
    result = CliRunner().invoke(cli, ["assess", "export", "--run", str(REPO / "runs/sample/careful.jsonl"),
                                      "--nuggets", str(NUGGETS), "--requests", str(REQUESTS), "-o", str(pool)])
    assert result.exit_code == 0, result.output

    def fill(name: str, *args: str) -> list[dict]:
        out = tmp_path / name
        subprocess.run([sys.executable, str(REPO / "tools/sample_track/fill_pool.py"), str(pool), "-o", str(out),
                        *args], check=True, capture_output=True)
        return [json.loads(line) for line in out.read_text().splitlines()]

    same, reversed_, flipped = fill("a.jsonl"), fill("b.jsonl", "--flip", "1"), fill("c.jsonl", "--flip", "0.5")
    assert all(line["judgment"] in ("yes", "no") for line in same)
    assert [a["judgment"] != b["judgment"] for a, b in zip(same, reversed_)] == [True] * len(same)
    changed = sum(a["judgment"] != c["judgment"] for a, c in zip(same, flipped))
    assert 0 < changed < len(same) and fill("d.jsonl", "--flip", "0.5") == flipped
    from argue_eval.formats import read_judgments
    from argue_eval.organizer.assessment import item_id_for

    reference = {item_id_for(j.key): j.value for j in read_judgments(SAMPLE_JUDGMENTS)}
    assert all((line["judgment"] == "yes") == reference[line["item_id"]] for line in same)
