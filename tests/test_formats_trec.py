"""TREC ranked runs (trec-run) and qrels (trec-qrels): detection, reading, writing, located errors."""
from __future__ import annotations

import re

import pytest

from argue_eval.errors import ArgueError, InputError
from argue_eval.formats import detect, read_qrels, read_ranked, write
from argue_eval.formats.ranked import OTHER_WHITESPACE, _parse_columns, read_ranked_columns, trec_order
from argue_eval.model import QrelsRow, RankedRow


def test_detects_shared_examples(fixtures):
    assert detect(fixtures / "organizer" / "run.ranked.trec").name == "trec-run"
    assert detect(fixtures / "organizer" / "qrels.trec").name == "trec-qrels"
    assert detect(fixtures / "organizer" / "run.ranked.trec", "ranked").kind == "ranked"


def test_reads_ranked_run_with_string_ids_and_file_order(fixtures):
    rows = list(read_ranked(fixtures / "organizer" / "run.ranked.trec"))
    assert rows[1] == RankedRow("101", "a1f3c2e0-3333-4a2b-9c3d-000000000003", 2, 11.0, "bm25")
    assert all(isinstance(row.request_id, str) for row in rows)
    assert [row.rank for row in rows] == [1, 2, 3]


def test_tabs_and_mixed_whitespace_are_columns(fixtures):
    rows = list(read_ranked(fixtures / "organizer" / "pool.C.trec"))
    assert rows[0] == RankedRow("10", "c1", 1, 9.0, "C")


def test_trec_order_is_score_desc_then_docno_desc(fixtures):
    # The shared example ties 3333 and 2222 at 11.0; trec_eval puts the larger docno first: 3333, 2222.
    pairs = [(row.doc_id, row.score) for row in read_ranked(fixtures / "organizer" / "run.ranked.trec") if row.request_id == "101"]
    ordered = [doc for doc, _ in trec_order(list(reversed(pairs)))]
    assert ordered == [
        "a1f3c2e0-1111-4a2b-9c3d-000000000001",
        "a1f3c2e0-3333-4a2b-9c3d-000000000003",
        "a1f3c2e0-2222-4a2b-9c3d-000000000002",
    ]


def test_fast_reader_agrees_with_row_reader(fixtures):
    path = fixtures / "organizer" / "pool.A.trec"
    columns = read_ranked_columns(path)
    fast = list(zip(columns.request_id, columns.doc_id, columns.score, columns.run_id))
    rows = list(read_ranked(path))
    assert fast == [(row.request_id, row.doc_id, row.score, row.run_id) for row in rows]
    assert len(fast) == 5 and columns.score.dtype.kind == "f"


@pytest.mark.parametrize(
    "line, message",
    [
        ("1 Q0 d1 1 2.5\n", "expected 6 whitespace-separated columns `qid Q0 docno rank score tag`, found 5"),
        ("1 Q0 d1 first 2.5 r\n", "rank: expected an integer, found 'first'"),
        ("1 Q0 d1 1 high r\n", "score: expected a number, found 'high'"),
        ("1 Q0 d1 1 nan r\n", "score: expected a finite number, found 'nan'"),
    ],
)
def test_ranked_errors_are_located(tmp_path, line, message):
    path = tmp_path / "run.trec"
    path.write_text("1 Q0 d0 1 3.0 r\n\n" + line)
    for reader in (lambda p: list(read_ranked(p, "trec-run")), read_ranked_columns):
        with pytest.raises(InputError) as caught:
            reader(path)
        assert str(caught.value) == f"{path}:3: {message}"


def test_json_given_as_ranked_run_says_so(tmp_path):
    path = tmp_path / "run.trec"
    path.write_text('{"run_id": "x", "request_id": "1"}\n')
    with pytest.raises(InputError, match="looks like JSON"):
        list(read_ranked(path, "trec-run"))


def test_ranked_round_trip_is_exact(tmp_path):
    rows = [RankedRow("2024-105741", "msmarco_v2.1_doc_11_1042#3_2265", 1, 0.1 + 0.2, "my-run"), RankedRow("007", "d", 2, 3.0, "my-run")]
    path = tmp_path / "out.trec"
    assert write(rows, path, "trec-run") == 2
    assert path.read_text().splitlines() == [
        "2024-105741 Q0 msmarco_v2.1_doc_11_1042#3_2265 1 0.30000000000000004 my-run",
        "007 Q0 d 2 3 my-run",
    ]
    assert list(read_ranked(path)) == rows


def test_writer_refuses_ids_with_spaces(tmp_path):
    with pytest.raises(ArgueError, match="without whitespace"):
        write([RankedRow("1", "doc one", 1, 1.0, "r")], tmp_path / "x.trec", "trec-run")
    assert not (tmp_path / "x.trec").exists()
    good = RankedRow("1", "d", 1, 1.0, "r")
    for bad in [RankedRow("1", "a\tb", 2, 1.0, "r"), RankedRow("1", "d2", 2, 1.0, "r\r"), RankedRow("", "d2", 2, 1.0, "r"),
                RankedRow("1", "d\u2003x", 2, 1.0, "r"), RankedRow("1", "d\nx", 2, 1.0, "r")]:
        with pytest.raises(ArgueError, match="TREC files need non-empty ids without whitespace"):
            write([good, bad], tmp_path / "x.trec", "trec-run")
        assert not (tmp_path / "x.trec").exists()
    with pytest.raises(ArgueError, match="cannot write '1 0 d 2 1': TREC files need"):
        write([QrelsRow("1", "d 2", 1)], tmp_path / "q.trec", "trec-qrels")


def test_reads_qrels_keeping_negative_grades_and_duplicates(tmp_path):
    path = tmp_path / "q.trec"
    path.write_text("001 0 d1 2\n001 0 d2 -1\n001 0 d1 0\n")
    assert list(read_qrels(path)) == [QrelsRow("001", "d1", 2), QrelsRow("001", "d2", -1), QrelsRow("001", "d1", 0)]


def test_qrels_errors_are_located(tmp_path):
    path = tmp_path / "q.trec"
    path.write_text("1 0 d1 1\n1 0 d2 0.5\n")
    with pytest.raises(InputError) as caught:
        list(read_qrels(path, "trec-qrels"))
    assert str(caught.value) == f"{path}:2: relevance: expected an integer, found '0.5'"
    path.write_text("1 d1 1\n")
    with pytest.raises(InputError, match=r"q.trec:1: expected 4 whitespace-separated columns `qid iteration docno relevance`, found 3"):
        list(read_qrels(path, "trec-qrels"))


def test_qrels_round_trip(tmp_path, fixtures):
    rows = list(read_qrels(fixtures / "organizer" / "qrels.trec"))
    path = tmp_path / "copy.trec"
    assert write(rows, path, "trec-qrels") == 3
    assert path.read_text() == (fixtures / "organizer" / "qrels.trec").read_text()


def test_column_reader_agrees_with_row_reader_on_messy_files(tmp_path):
    from argue_eval.formats.ranked import read_ranked_columns

    path = tmp_path / "run.trec"
    path.write_text('\ufeff  1\tQ0  "d1 1 2.5 r\n\n007 Q0 NA -3 1e3 r \n   \n1 Q0 nan 2 0 s\n')
    columns = read_ranked_columns(path)
    rows = list(read_ranked(path, "trec-run"))
    assert [tuple(x) for x in zip(columns.request_id, columns.doc_id, columns.score, columns.run_id)] == [
        (row.request_id, row.doc_id, row.score, row.run_id) for row in rows
    ]
    assert list(columns.doc_id) == ['"d1', "NA", "nan"]


@pytest.mark.parametrize("text, message", [
    ("1 Q0 d1 1 2 3 r\n1 Q0 d2 2 2 3 r\n", ":1: expected 6 whitespace-separated columns"),  # 7 columns everywhere
    ("1 Q0 d1 1 2.0 r\n1 Q0 d2 2 inf r\n", ":2: score: expected a finite number, found 'inf'"),
    ("1 Q0 d1 1 2.0 r\n1 Q0 d2 2.0 1.0 r\n", ":2: rank: expected an integer, found '2.0'"),
    ("1 Q0 d1 1 2.0 r\n1 Q0 d2 2 1.0\n", ":2: expected 6 whitespace-separated columns"),
    # pandas would read these as six good columns; str.split() (the line reader) does not:
    ("1 Q0 d1 1 2.0 r\n1\xa0x Q0 d2 2 1.0 r\n", ":2: expected 6 whitespace-separated columns `qid Q0 docno rank score tag`, found 7"),
    ("1 Q0 d1 1 2.0 r\r1 Q0 d2 2 1.0 r\n", ":1: expected 6 whitespace-separated columns `qid Q0 docno rank score tag`, found 12"),
    ("1 Q0 d1 1 True r\n", ":1: score: expected a number, found 'True'"),
])
def test_column_reader_falls_back_to_located_errors(tmp_path, text, message):
    from argue_eval.formats.ranked import read_ranked_columns

    path = tmp_path / "run.trec"
    path.write_text(text)
    assert _parse_columns(path) is None  # left to the line reader
    with pytest.raises(InputError, match=re.escape(message)):
        read_ranked_columns(path)


def test_column_reader_parses_scores_exactly_like_float(tmp_path):
    # Inputs where a fast decimal converter can be off by one unit in the last place: more than 17
    # significant digits, halfway cases, subnormals, integers beyond 2**53, and an integer-only column.
    texts = ["0.1000000000000000055511151231257827", "2.2250738585072011e-308", "4.9406564584124654e-324",
             "9007199254740993", "1e23", "8.589973e9", "0.30000000000000004", "179769313486231570814527423731704356798070e267",
             "1.00000000000000011102230246251565404236316680908203125", "123456789012345678901234567890", "-0.0"]
    path = tmp_path / "run.trec"
    path.write_text("".join(f"1 Q0 d{i} {i + 1} {text} r\n" for i, text in enumerate(texts)))
    assert _parse_columns(path) is not None  # the vectorized path reads this file (no fallback)
    assert [score.hex() for score in read_ranked_columns(path).score.tolist()] == [float(text).hex() for text in texts]
    path.write_text("1 Q0 a 1 3 r\n1 Q0 b 2 -2 r\n")
    assert read_ranked_columns(path).score.tolist() == [3.0, -2.0]


def test_other_whitespace_lists_every_split_character():
    expected = {chr(code) for code in range(0x110000) if chr(code).isspace()} - set(" \t\n\r")
    assert set(OTHER_WHITESPACE) == expected


def test_a_run_whose_first_score_is_not_finite_is_recognized_and_explained(tmp_path):
    path = tmp_path / "run.trec"
    path.write_text("1 Q0 d1 1 nan r\n")
    assert detect(path).name == "trec-run"
    with pytest.raises(InputError, match=re.escape(f"{path}:1: score: expected a finite number, found 'nan'")):
        list(read_ranked(path))


@pytest.mark.parametrize("layout", [
    "q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 1.25 r\n",           # single spaces: the fast separator
    "q1  Q0 d1 1 2.5 r\nq1 Q0 d2 2 1.25 r\n",          # a double space: whitespace runs
    "q1\tQ0\td1\t1\t2.5\tr\nq1 Q0 d2 2 1.25 r\n",      # tabs
    " q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 1.25 r \n",         # spaces at a line's ends
    "q1 Q0 d1 1 2.5 r\r\nq1 Q0 d2 2 1.25 r\r\n",       # CRLF
])
def test_columns_are_the_same_whatever_the_spacing(tmp_path, layout):
    path = tmp_path / "run.trec"
    path.write_bytes(layout.encode())
    columns = read_ranked_columns(path)
    assert list(zip(columns.request_id, columns.doc_id, columns.score.tolist(), columns.run_id)) == [
        ("q1", "d1", 2.5, "r"), ("q1", "d2", 1.25, "r")]


@pytest.mark.parametrize("bad", [b"\x00", b"\x1b", b"\x7f", b"\x0b", b"\x0c", b"\r"])
def test_a_control_byte_in_an_ascii_run_goes_to_the_careful_reader(tmp_path, bad):
    path = tmp_path / "run.trec"
    path.write_bytes(b"q1 Q0 d" + bad + b"1 1 2.5 r\n")
    assert _parse_columns(path) is None
