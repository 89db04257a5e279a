"""``argue-eval score`` end to end on the fixture files (values checked by hand in test_argue_flowchart)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli

FIXTURES = Path(__file__).parent / "fixtures" / "argue"


def run(*args: str):
    return CliRunner().invoke(cli, ["score", *args])


def base_args(tmp_path: Path, *extra: str) -> list[str]:
    return ["--run", str(FIXTURES / "runA.jsonl"), "--run", str(FIXTURES / "runB.jsonl"),
            "--nuggets", str(FIXTURES / "nuggets.jsonl"), "--requests", str(FIXTURES / "requests.jsonl"),
            "--judgments", str(FIXTURES / "judgments.jsonl"), *extra]


def read_tsv(path: Path) -> dict[tuple[str, str, str], str]:
    lines = path.read_text().splitlines()
    assert lines[0] == "run_id\trequest_id\tmetric\tvalue"
    return {tuple(line.split("\t")[:3]): line.split("\t")[3] for line in lines[1:]}  # type: ignore[misc]


def test_score_writes_the_long_table(tmp_path):
    out = tmp_path / "scores.tsv"
    result = run(*base_args(tmp_path, "-o", str(out)))
    assert result.exit_code == 0, result.output
    values = read_tsv(out)
    # T1 of runA by hand (test_argue_flowchart): support 3/6, coverage 3/4, F1 0.6, precision 3/6
    assert values[("runA", "T1", "sentence_support")] == "0.5"
    assert values[("runA", "T1", "nugget_coverage")] == "0.75"
    assert float(values[("runA", "T1", "f1")]) == pytest.approx(0.6)
    assert values[("runA", "T1", "citations")] == "6"
    assert values[("runA", "T1", "outcome_8")] == "1"
    # runB has no T2 report: scored 0 and counted; its T1 copy of s1 reuses runA's judgments
    assert values[("runB", "T2", "nugget_coverage")] == "0.0"
    assert values[("runB", "all", "missing_topics")] == "1"
    assert values[("runB", "T1", "outcome_3")] == "1"
    assert "runB: no report for 1 topic(s)" in result.output
    # no NaN anywhere, rows ordered by run then topic (natural order), `all` last per run
    text = out.read_text()
    assert "nan" not in text.lower()
    order = [tuple(line.split("\t")[:2]) for line in text.splitlines()[1:]]
    assert list(dict.fromkeys(order)) == [("runA", "T1"), ("runA", "T2"), ("runA", "all"),
                                          ("runB", "T1"), ("runB", "T2"), ("runB", "all")]


def test_rerun_is_byte_identical(tmp_path):
    first, second = tmp_path / "a.tsv", tmp_path / "b.tsv"
    details_a, details_b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert run(*base_args(tmp_path, "-o", str(first), "--details", str(details_a))).exit_code == 0
    assert run(*base_args(tmp_path, "-o", str(second), "--details", str(details_b))).exit_code == 0
    assert first.read_bytes() == second.read_bytes()
    assert details_a.read_bytes() == details_b.read_bytes()


def test_details_per_report(tmp_path):
    details = tmp_path / "details.jsonl"
    assert run(*base_args(tmp_path, "-o", str(tmp_path / "s.tsv"), "--details", str(details))).exit_code == 0
    records = [json.loads(line) for line in details.read_text().splitlines()]
    assert [(r["run_id"], r["request_id"]) for r in records] == [("runA", "T1"), ("runA", "T2"), ("runB", "T1")]
    s2 = records[0]["sentences"][2]
    assert s2["outcome"] == 3
    assert [c["outcome"] for c in s2["citations"]] == [3, 1]
    assert s2["matched"] == [{"nugget_id": "n2", "answer": "Platte", "via": "d4"}]
    assert s2["citations"][0]["path"][1] == {"question": "answers", "value": True, "judge": "human:fixture",
                                             "doc_id": "d4", "nugget_id": "n2", "answer": "Platte"}


def test_missing_judgments_stop_with_counts_and_the_export_command(tmp_path):
    partial = tmp_path / "partial.jsonl"
    lines = (FIXTURES / "judgments.jsonl").read_text().splitlines()
    partial.write_text("\n".join(line for line in lines if '"kind": "negative"' not in line) + "\n")
    args = base_args(tmp_path, "-o", str(tmp_path / "s.tsv"))
    args[args.index(str(FIXTURES / "judgments.jsonl"))] = str(partial)
    result = run(*args)
    assert result.exit_code == 2
    # the five uncited sentences of runA/T1 lack negative?; each then needs both branches explored:
    # s0 s5 s6: requires_citation + first_instance are judged already; the negatives' branch asks nugget_agrees
    # (s7 s8 judged; s0 s5 s6 not): negative 5, nugget_agrees 3; s7 s8 also need requires_citation and
    # first_instance (not judged): requires_citation 2, first_instance 2; s0's first_instance (requires = no) not needed
    assert "12 judgments missing (negative 5, nugget_agrees 3, requires_citation 2, first_instance 2)" in result.output
    assert "argue-eval assess export --run" in result.output
    assert not (tmp_path / "s.tsv").exists()
    # the export command printed asks for the same topics as the scoring that needed it
    assert "--evaluated-topics" not in result.output
    again = run(*args, "--evaluated-topics", "requests")
    assert again.exit_code == 2 and "--evaluated-topics requests -o pool.jsonl" in again.output


def test_missing_judgments_zero_is_reported(tmp_path):
    partial = tmp_path / "partial.jsonl"
    lines = (FIXTURES / "judgments.jsonl").read_text().splitlines()
    partial.write_text("\n".join(line for line in lines if '"The sky is blue."' not in line or "attested" not in line) + "\n")
    out = tmp_path / "s.tsv"
    args = base_args(tmp_path, "-o", str(out), "--missing-judgments", "zero")
    args[args.index(str(FIXTURES / "judgments.jsonl"))] = str(partial)
    result = run(*args)
    assert result.exit_code == 0, result.output
    values = read_tsv(out)
    assert values[("runA", "all", "missing_judgments")] == "1"
    assert values[("runB", "all", "missing_judgments")] == "0"
    assert values[("runA", "T2", "supporting_citations")] == "0"
    assert "run runA: 1 judgment(s) missing, counted as no" in result.output


def test_autoargue_judgments_without_run_file(tmp_path):
    out = tmp_path / "s.tsv"
    result = run("--judgments", str(FIXTURES / "autoargue.judgments.jsonl"), "--nuggets",
                 str(FIXTURES / "nuggets-v3"), "-o", str(out))
    assert result.exit_code == 0, result.output
    values = read_tsv(out)
    assert values[("team-a-rt1", "101", "nugget_coverage")] == "0.5"
    assert values[("team-a-rt1", "101", "sentence_support")] == "0.5"
    assert values[("team-a-rt1", "all", "f1_macro")] == "0.5"


def test_stdout_output_and_weights(tmp_path):
    result = run(*base_args(tmp_path, "-o", "-", "--weights", "vital=3,okay=1"))
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if line.startswith("runA\tT1\tnuggets_weighted")]
    # vital 3 (n1) + okay 1 (n2) + unlabelled 1 (n3) + vital 3 (n4) = 8
    assert lines == ["runA\tT1\tnuggets_weighted\t8"]


def test_bad_options_are_user_errors(tmp_path):
    result = run(*base_args(tmp_path, "-o", str(tmp_path / "s.tsv"), "--weights", "crucial=4"))
    assert result.exit_code == 2 and "IMPORTANCE in vital, okay, none" in result.output
    result = run(*base_args(tmp_path, "-o", str(tmp_path / "s.tsv"), "--relevance", "qrels"))
    assert result.exit_code == 2 and "--qrels" in result.output
    # a NaN or infinite weight would put NaN in every weighted ratio: refused before anything is read
    for weights in ("vital=nan", "okay=inf", "none=-1"):
        result = run(*base_args(tmp_path, "-o", str(tmp_path / "s.tsv"), "--weights", weights))
        assert result.exit_code == 2 and "must be a finite number >= 0" in result.output, weights
    assert not (tmp_path / "s.tsv").exists()


def test_relevance_from_qrels(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("T1 0 d1 1\nT1 0 d4 0\nT2 0 e1 2\n")
    out = tmp_path / "s.tsv"
    result = run("--run", str(FIXTURES / "runA.jsonl"), "--nuggets", str(FIXTURES / "nuggets.jsonl"),
                 "--judgments", str(FIXTURES / "judgments.jsonl"), "--qrels", str(qrels), "--relevance", "qrels",
                 "-o", str(out))
    assert result.exit_code == 0, result.output
    values = read_tsv(out)
    # relevant: d1 (rel 1) only; d4 has rel 0, d2/d3/d9 are absent -> s2 is now 1 (d4 and d9 unattested)
    assert values[("runA", "T1", "relevant_citations")] == "1"
    assert values[("runA", "T1", "outcome_3")] == "1"
    assert values[("runA", "T1", "outcome_1")] == "2"


def test_help_has_a_worked_example():
    result = CliRunner().invoke(cli, ["score", "--help"])
    assert result.exit_code == 0
    assert "argue-eval score --run runs/sample/" in result.output


def test_run_glob_expansion_is_accepted(tmp_path):
    """`--run runs/*.jsonl` reaches us as `--run a.jsonl b.jsonl`: the extra paths are runs too."""
    first, second = tmp_path / "a.tsv", tmp_path / "b.tsv"
    args = base_args(tmp_path, "-o", str(first))
    assert run(*args).exit_code == 0
    glob_args = ["--run", str(FIXTURES / "runA.jsonl"), str(FIXTURES / "runB.jsonl")] + args[4:]
    glob_args[glob_args.index(str(first))] = str(second)
    result = run(*glob_args)
    assert result.exit_code == 0, result.output
    assert first.read_bytes() == second.read_bytes()


def test_requests_with_topics_without_nuggets_change_no_score(tmp_path):
    """The official requests file lists topics that got no nuggets: they are named once and not averaged in
    (trec_eval's rule), so the table equals the one without them but for the row that counts them, and
    Auto-ARGUE's layout, which has no such row, is byte-identical."""
    requests = tmp_path / "requests.jsonl"
    lines = (FIXTURES / "requests.jsonl").read_text().splitlines()
    extra = [json.dumps({**json.loads(lines[1]), "request_id": topic}) for topic in ("T3", "T4", "T5")]
    requests.write_text("\n".join([*lines, *extra]) + "\n")

    def args(requests_file: Path, *extra: str) -> list[str]:
        given = base_args(tmp_path, *extra)
        given[given.index("--requests") + 1] = str(requests_file)
        return given

    plain, wider = tmp_path / "plain.tsv", tmp_path / "wider.tsv"
    assert run(*args(FIXTURES / "requests.jsonl", "-o", str(plain))).exit_code == 0
    result = run(*args(requests, "-o", str(wider)))
    assert result.exit_code == 0, result.output
    added = {(run_id, "all", "topics_without_nuggets"): "3" for run_id in ("runA", "runB")}
    assert read_tsv(wider) == {**read_tsv(plain), **added}
    assert result.output.count("3 topic(s) have no nuggets and are not evaluated") == 1
    assert "T3, T4, T5" in result.output and "outside the evaluation" not in result.output
    # runB has no T2 report: T2 has nuggets, so it still scores 0 and is counted (macro over T1 and T2)
    assert read_tsv(wider)[("runB", "T2", "nugget_coverage")] == "0.0"
    assert read_tsv(wider)[("runB", "all", "missing_topics")] == "1"
    layout = ["--table-format", "autoargue", "--missing-topics", "skip"]
    plain_aa, wider_aa = tmp_path / "plain.aa.tsv", tmp_path / "wider.aa.tsv"
    assert run(*args(FIXTURES / "requests.jsonl", "-o", str(plain_aa), *layout)).exit_code == 0
    assert run(*args(requests, "-o", str(wider_aa), *layout)).exit_code == 0
    assert wider_aa.read_bytes() == plain_aa.read_bytes()
    # the old rule on request: the three topics score 0 and count, runA's F1 macro (0.6 + 2/3) / 2 -> / 5
    old = tmp_path / "old.tsv"
    result = run(*args(requests, "-o", str(old), "--evaluated-topics", "requests"))
    assert result.exit_code == 0, result.output
    values = read_tsv(old)
    assert values[("runA", "all", "topics")] == "5" and values[("runA", "all", "f1_undefined")] == "3"
    assert float(values[("runA", "all", "f1_macro")]) == pytest.approx((0.6 + 2 / 3) / 5)
    assert ("runA", "all", "topics_without_nuggets") not in values
    assert "evaluated-topics=requests" in result.output
