"""Score tables: reading our TSV, trec_eval -q and ir_measures-style files, and pivoting them into a matrix."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from argue_eval.errors import ArgueError, InputError
from argue_eval.formats.scores import detect_score_format, read_scores, write_scores_tsv
from argue_eval.inputs import load_matrix
from argue_eval.stats.matrix import natural_key, records_to_matrix


@pytest.fixture
def stats_dir(fixtures: Path) -> Path:
    return fixtures / "stats"


def test_detects_each_format_from_content(stats_dir: Path, tmp_path: Path):
    assert detect_score_format(stats_dir / "scores.tsv") == "argue"
    assert detect_score_format(stats_dir / "runx.trec_eval") == "trec_eval"
    assert detect_score_format(stats_dir / "runy.q") == "trec_eval"
    assert detect_score_format(stats_dir / "runs.ir_measures.txt") == "ir_measures"
    assert detect_score_format(stats_dir / "headerless.txt") == "ir_measures"
    renamed = tmp_path / "whatever.json"
    renamed.write_bytes((stats_dir / "runx.trec_eval").read_bytes())
    assert detect_score_format(renamed) == "trec_eval"


def test_reads_our_tsv_with_locations(stats_dir: Path):
    records = list(read_scores(stats_dir / "scores.tsv"))
    assert len(records) == 21
    first = records[0]
    assert (first.run_id, first.request_id, first.metric, first.value, first.line) == ("sysA", "t1", "f1", 0.5, 2)


def test_trec_eval_run_name_from_runid_line_or_file_name(stats_dir: Path):
    named = list(read_scores(stats_dir / "runx.trec_eval"))
    assert {record.run_id for record in named} == {"runx"}
    # runid and num_q are not scores; 'all' rows are kept by the reader (the matrix ignores them)
    assert [(r.metric, r.request_id, r.value) for r in named[:2]] == [("map", "1", 0.25), ("P_5", "1", 0.4)]
    assert not any(record.metric in ("runid", "num_q") and record.request_id != "all" for record in named)
    unnamed = list(read_scores(stats_dir / "runy.q"))
    assert {record.run_id for record in unnamed} == {"runy"}  # file name without the .q suffix


def test_ir_measures_with_header_keeps_nan_for_the_matrix(stats_dir: Path):
    records = list(read_scores(stats_dir / "runs.ir_measures.txt"))
    assert len(records) == 6
    assert math.isnan(records[4].value) and records[4].line == 6


def test_format_override_and_unknown_format(stats_dir: Path):
    assert len(list(read_scores(stats_dir / "headerless.txt", format="run-topic-measure"))) == 2
    with pytest.raises(InputError, match="unknown score format 'excel'"):
        list(read_scores(stats_dir / "headerless.txt", format="excel"))
    with pytest.raises(InputError, match="expected the header"):
        list(read_scores(stats_dir / "headerless.txt", format="argue"))


@pytest.mark.parametrize(
    "content, message",
    [
        ("run_id\trequest_id\tmetric\tvalue\nA\tt1\tf1\thigh\n", r"x.tsv:2: value: expected a number, got 'high'"),
        ("run_id\trequest_id\tmetric\tvalue\nA\tt1\tf1\n", r"x.tsv:2: expected 4 tab-separated columns"),
        ("run_id\trequest_id\tmetric\tvalue\nA\tt1\tf1\tinf\n", r"x.tsv:2: value: expected a finite number"),
        ("map 1 0.5\nmap 2 0.5 extra\n", r"x.tsv:2: expected 3 whitespace-separated columns"),
        ("a b c d e\n", r"x.tsv:1: cannot recognize a score table"),
        ("", r"x.tsv: file is empty"),
        ("map 1 0.5\nrunid all r1\nrunid all r2\n", r"x.tsv:3: runid: a second run 'r2'"),
    ],
)
def test_bad_input_is_a_located_error(tmp_path: Path, content: str, message: str):
    path = tmp_path / "x.tsv"
    path.write_text(content)
    with pytest.raises(InputError, match=message):
        list(read_scores(path))


def test_written_table_reads_back_exactly(tmp_path: Path):
    rows = [("r1", "t1", "f1", 0.1 + 0.2), ("r1", "t2", "f1", 1 / 3), ("r1", "all", "f1", 0.5), ("r1", "t1", "sentences", 4)]
    path = tmp_path / "scores.tsv"
    write_scores_tsv(rows, path)
    back = [(r.run_id, r.request_id, r.metric, r.value) for r in read_scores(path)]
    assert back == [(a, b, c, float(d)) for a, b, c, d in rows]


def test_matrix_from_several_files_ignores_all_rows(stats_dir: Path):
    matrix = load_matrix([stats_dir / "runx.trec_eval", stats_dir / "runy.q"], "map")
    assert matrix.runs == ["runx", "runy"]
    assert matrix.topics == ["1", "2", "10"]  # natural order, 'all' left out
    assert matrix.values.loc["runx"].tolist() == [0.25, 0.5, 0.75]
    assert matrix.values.loc["runy"].tolist() == [0.1, 0.3, 0.2]
    assert matrix.notes == []


def test_missing_zero_fills_and_says_so(stats_dir: Path):
    # runz has NaN for topic 2 (treated as missing); runx has all three
    matrix = load_matrix([stats_dir / "runs.ir_measures.txt"], "map", missing="zero")
    assert matrix.values.loc["runz"].tolist() == [0.3, 0.0, 0.9]
    assert matrix.missing_counts() == {"runx": 0, "runz": 1}
    assert any("NaN" in note for note in matrix.notes)
    assert any("--missing zero: 1 missing" in note and "runz (1)" in note for note in matrix.notes)


def test_missing_drop_topic_drops_for_every_run(stats_dir: Path):
    matrix = load_matrix([stats_dir / "runs.ir_measures.txt"], "map", missing="drop-topic")
    assert matrix.topics == ["1", "10"]
    assert matrix.dropped_topics == ["2"]
    assert matrix.values.loc["runx"].tolist() == [0.25, 0.75]


def test_missing_topic_of_one_run_across_files(stats_dir: Path, tmp_path: Path):
    partial = tmp_path / "partial.tsv"
    partial.write_text("run_id\trequest_id\tmetric\tvalue\nnew\tt1\tf1\t1.0\n")
    matrix = load_matrix([stats_dir / "scores.tsv", partial], "f1")
    assert matrix.runs == ["new", "sysA", "sysB", "sysC"]
    assert matrix.values.loc["new"].tolist() == [1.0, 0.0, 0.0, 0.0, 0.0]
    assert matrix.missing_counts()["new"] == 4


def test_duplicate_cell_names_both_places(stats_dir: Path):
    with pytest.raises(InputError, match=r"scores.tsv:2: run 'sysA' topic 't1' metric 'f1' given twice \(also at .*scores.tsv:2\)"):
        load_matrix([stats_dir / "scores.tsv", stats_dir / "scores.tsv"], "f1")


def test_unknown_metric_lists_the_known_ones(stats_dir: Path):
    with pytest.raises(ArgueError, match=r"metric 'ndcg' not found .*metrics present: f1, sentences"):
        load_matrix([stats_dir / "scores.tsv"], "ndcg")


def test_run_with_only_aggregates_is_refused(tmp_path: Path):
    path = tmp_path / "s.tsv"
    path.write_text("run_id\trequest_id\tmetric\tvalue\nA\tt1\tf1\t0.5\nB\tall\tf1\t0.5\n")
    with pytest.raises(ArgueError, match="run\\(s\\) B have only 'all' rows"):
        load_matrix([path], "f1")


def test_drop_topic_that_leaves_nothing_is_an_error(tmp_path: Path):
    path = tmp_path / "s.tsv"
    path.write_text("run_id\trequest_id\tmetric\tvalue\nA\tt1\tf1\t0.5\nB\tt2\tf1\t0.5\n")
    with pytest.raises(ArgueError, match="left no topic"):
        load_matrix([path], "f1", missing="drop-topic")


def test_natural_key_orders_numbers_numerically():
    ids = ["t10", "t2", "2024-10", "2024-9", "t1", "a"]
    assert sorted(ids, key=natural_key) == ["2024-9", "2024-10", "a", "t1", "t2", "t10"]


def test_records_to_matrix_rejects_unknown_policy():
    with pytest.raises(ArgueError, match="unknown missing-topic policy"):
        records_to_matrix([], "f1", missing="mean")


@pytest.mark.parametrize("run_id", ["evil\tt1\tf1\t9", "two\nlines", "cr\r"])
def test_an_id_that_would_forge_rows_is_refused(tmp_path: Path, run_id: str):
    """Run ids come from participants' files; a tab or line break would shift columns or add rows."""
    path = tmp_path / "scores.tsv"
    with pytest.raises(ArgueError, match="contains a tab or line break"):
        write_scores_tsv([("ok", "t1", "f1", 0.5), (run_id, "t1", "f1", 0.5)], path)
    assert not path.exists()  # nothing half-written


def test_undetectable_table_names_the_option_that_overrides_detection(tmp_path: Path):
    path = tmp_path / "x.tsv"
    path.write_text("a b c d e\n")
    with pytest.raises(InputError, match="name the format with --scores-format"):
        list(read_scores(path))
