"""Qrels tools: duplicate policies, merge conflicts, qrels from nuggets, build from assessments, stats."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.errors import ArgueError, InputError
from argue_eval.model import Answer, Nugget, TopicNuggets
from argue_eval.organizer.qrels import (
    build_qrels,
    merge_qrels,
    qrels_from_nuggets,
    qrels_stats,
    read_assessments,
    read_qrels,
    write_qrels,
)


def _write(path, text):
    path.write_text(text)
    return path


def test_duplicate_pair_is_an_error_naming_both_lines(tmp_path):
    path = _write(tmp_path / "q.trec", "1 0 d1 1\n1 0 d2 0\n1 0 d1 2\n")
    with pytest.raises(InputError) as caught:
        read_qrels(path)
    assert str(caught.value) == (
        f"{path}:3: duplicate judgment for topic '1', document 'd1' (first on line 1); "
        "pass --on-duplicate max|last to resolve duplicates"
    )


def test_duplicate_policies(tmp_path):
    path = _write(tmp_path / "q.trec", "1 0 d1 2\n1 0 d1 1\n1 0 d2 0\n1 0 d2 3\n")
    assert read_qrels(path, "max") == {"1": {"d1": 2, "d2": 3}}
    assert read_qrels(path, "last") == {"1": {"d1": 1, "d2": 3}}


def test_written_qrels_are_sorted_naturally(tmp_path):
    path = tmp_path / "out.trec"
    write_qrels({"10": {"b": 1, "a": 0}, "9": {"z": 2}}, path)
    assert path.read_text() == "9 0 z 2\n10 0 a 0\n10 0 b 1\n"


def test_merge_agreeing_files_and_conflicts(tmp_path):
    a = _write(tmp_path / "a.trec", "1 0 d1 1\n1 0 d2 0\n")
    b = _write(tmp_path / "b.trec", "1 0 d1 1\n1 0 d2 2\n2 0 d9 1\n")
    with pytest.raises(InputError) as caught:
        merge_qrels([a, b])
    assert str(caught.value) == (
        f"{b}:2: topic '1', document 'd2' has grade 2 here but 0 in {a}:2; pass --on-duplicate max|last to resolve conflicts"
    )
    merged = merge_qrels([b, a], "last")
    assert merged.qrels == {"1": {"d1": 1, "d2": 0}, "2": {"d9": 1}}  # a is later: its 0 wins
    assert merged.conflicts == [("1", "d2", [(str(b), 2), (str(a), 0)])]
    assert merge_qrels([b, a], "max").qrels["1"]["d2"] == 2


def _bank() -> list[TopicNuggets]:
    return [
        TopicNuggets("s01", [
            Nugget("n1", "s01", "When?", [Answer("May 2019", ("d1", "d2")), Answer("2019", ("d2",))], "vital"),
            Nugget("n2", "s01", "Who?", [Answer("the ministry", ("d2", "d3"))], "okay"),
            Nugget("n3", "s01", "Where?", [Answer("Lyon", ("d3",))], None),
            Nugget("n4", "s01", "Deaths?", [Answer("no", ())], "okay", negative=True),
        ]),
        TopicNuggets("s02", [Nugget("n1", "s02", "How many?", [Answer("twelve", ())], "vital")]),
    ]


def test_qrels_from_nuggets_count_and_weighted():
    # count: d1 attests n1; d2 attests n1 (two answers, counted once) and n2; d3 attests n2 and n3.
    assert qrels_from_nuggets(_bank(), "count") == {"s01": {"d1": 1, "d2": 2, "d3": 2}, "s02": {}}
    # weighted (vital 2, okay 1, unlabelled 1): d1 = 2; d2 = 2 + 1 = 3; d3 = 1 + 1 = 2.
    assert qrels_from_nuggets(_bank(), "weighted") == {"s01": {"d1": 2, "d2": 3, "d3": 2}, "s02": {}}


def test_from_nuggets_command_reads_a_nugget_file(tmp_path, fixtures):
    out = tmp_path / "q.trec"
    result = CliRunner().invoke(cli, ["qrels", "from-nuggets", str(fixtures / "organizer" / "nuggets.argue.jsonl"), "--grade", "weighted", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text() == "s01 0 d1 2\ns01 0 d2 3\ns01 0 d3 2\n"
    assert "wrote 3 judgments for 2 topics" in result.output


def test_read_assessments_from_csv_skips_empty_grades(fixtures):
    assessed = read_assessments(fixtures / "organizer" / "assessed.csv")
    assert assessed.qrels == {"1": {"d1": 2, "d2": 0}, "2": {"d8": 1}}
    assert assessed.lines[("2", "d8")] == 5


def test_read_assessments_rejects_a_bad_grade(tmp_path):
    path = _write(tmp_path / "a.jsonl", '{"request_id": "1", "doc_id": "d1", "relevance": "high"}\n')
    with pytest.raises(InputError) as caught:
        read_assessments(path)
    assert str(caught.value) == f"{path}:1: relevance: expected an integer grade, found 'high'"


def test_build_checks_the_pool(fixtures):
    pool = read_qrels(fixtures / "organizer" / "pool.small.qrels")
    assessed = read_assessments(fixtures / "organizer" / "assessed.csv")
    with pytest.raises(ArgueError, match=r"1 pooled document\(s\) have no judgment: 2/d7; judge them"):
        build_qrels(pool, [assessed])
    result = build_qrels(pool, [assessed], unjudged="nonrelevant")
    assert result.qrels == {"1": {"d1": 2, "d2": 0}, "2": {"d8": 1, "d7": 0}}
    assert result.outside == [("2", "d8")]
    assert build_qrels(pool, [assessed], unjudged="drop").qrels["2"] == {"d8": 1}


def test_build_conflicting_assessors(tmp_path):
    a = read_assessments(_write(tmp_path / "a.trec", "1 0 d1 1\n1 0 d2 0\n"))
    b = read_assessments(_write(tmp_path / "b.trec", "1 0 d1 1\n1 0 d2 2\n"))
    with pytest.raises(InputError) as caught:
        build_qrels(None, [a, b])
    assert str(caught.value) == (
        f"{b.path}:2: topic '1', document 'd2' has grade 2 here but 0 in {a.path}:2; pass --on-duplicate max|last to resolve conflicts"
    )
    assert build_qrels(None, [b, a], on_duplicate="max").qrels == {"1": {"d1": 1, "d2": 2}}
    assert build_qrels(None, [b, a], on_duplicate="last").qrels == {"1": {"d1": 1, "d2": 0}}


def test_build_refuses_an_unjudged_marker(tmp_path, fixtures):
    pool_file = fixtures / "organizer" / "pool.small.qrels"
    with pytest.raises(InputError, match="grade -1 marks an unjudged pool entry"):
        build_qrels(None, [read_assessments(pool_file)])


def test_build_command(tmp_path, fixtures):
    out = tmp_path / "q.trec"
    folder = fixtures / "organizer"
    result = CliRunner().invoke(cli, ["qrels", "build", "--pool", str(folder / "pool.small.qrels"), str(folder / "assessed.csv"),
                                      "--unjudged", "drop", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text() == "1 0 d1 2\n1 0 d2 0\n2 0 d8 1\n"
    assert "1 judged document(s) are not in the pool (kept): 2/d8" in result.output
    failing = CliRunner().invoke(cli, ["qrels", "build", "--pool", str(folder / "pool.small.qrels"), str(folder / "assessed.csv"), "-o", str(out)])
    assert failing.exit_code == 2
    assert "have no judgment: 2/d7" in failing.output


def test_stats_table(tmp_path):
    qrels = {"2": {"a": 0, "b": 1, "c": 2}, "10": {"d": 0}}
    header, rows = qrels_stats(qrels)
    assert header == ["request_id", "judged", "relevant", "grade_0", "grade_1", "grade_2"]
    assert rows == [["2", 3, 2, 1, 1, 1], ["10", 1, 0, 1, 0, 0], ["all", 4, 2, 2, 1, 1]]
    path = tmp_path / "q.trec"
    write_qrels(qrels, path)
    result = CliRunner().invoke(cli, ["qrels", "stats", str(path)])
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == "request_id\tjudged\trelevant\tgrade_0\tgrade_1\tgrade_2"
    assert result.output.splitlines()[-1] == "all\t4\t2\t2\t1\t1"


def test_merge_command_lists_conflicts(tmp_path):
    a = _write(tmp_path / "a.trec", "1 0 d1 1\n")
    b = _write(tmp_path / "b.trec", "1 0 d1 0\n")
    out = tmp_path / "m.trec"
    result = CliRunner().invoke(cli, ["qrels", "merge", str(a), str(b), "--on-duplicate", "max", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert f"conflict: topic 1 document d1: 1 in {a}, 0 in {b} -> 1" in result.output
    assert out.read_text() == "1 0 d1 1\n"
    assert CliRunner().invoke(cli, ["qrels", "merge", str(a), str(b), "-o", str(out)]).exit_code == 2
