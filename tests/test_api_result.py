"""``api.result.Result``, the one shape every API function returns: a long table, details, notes, counts."""
from __future__ import annotations

from argue_eval.api import MeasureResult, Note, Result
from argue_eval.api.measure_result import NoteLog
from argue_eval.api.result import SCORE_COLUMNS, notes_of


def test_the_table_is_the_rows_under_their_columns_with_integers_kept():
    result = Result("argue", [("A", "t1", "f1", 0.5), ("A", "all", "support_count", 3)], runs=["A"], topics=["t1"])
    assert list(result.table.columns) == list(SCORE_COLUMNS)
    assert result.table.to_dict("records") == [
        {"run_id": "A", "request_id": "t1", "metric": "f1", "value": 0.5},
        {"run_id": "A", "request_id": "all", "metric": "support_count", "value": 3},
    ]
    assert result.rows[1][3] == 3 and isinstance(result.rows[1][3], int)  # a file written from rows keeps the 3
    other = Result("qrels", [("t1", "d1", 2)], columns=("request_id", "doc_id", "grade"))
    assert other.table.to_dict("records") == [{"request_id": "t1", "doc_id": "d1", "grade": 2}]


def test_an_empty_result_has_an_empty_table_with_the_columns():
    result = Result("compare")
    assert result.table.shape == (0, 4) and result.details == [] and result.notes == [] and result.complete


def test_notes_warnings_and_what_was_not_judged():
    seen: list[Note] = []
    log = NoteLog(seen.append)
    log.note("3 topics scored")
    log.not_judged("2 claims could not be judged")
    result = Result("icat", notes=log.notes, unjudged=log.unjudged)
    assert [str(note) for note in seen] == ["note: 3 topics scored", "warning: 2 claims could not be judged"]
    assert result.warnings == [Note("2 claims could not be judged", True)]
    assert not result.complete
    assert notes_of(["a", "b"]) == [Note("a"), Note("b")]


def test_the_measure_result_name_is_the_same_class_and_keeps_its_positional_fields():
    assert MeasureResult is Result
    result = MeasureResult("longrecall", [("A", "t1", "recall", 1.0)], {"judge": "lexical"}, [{"run_id": "A"}],
                           ["A"], ["t1"], {"calls": 2}, [Note("n")], ["u"])
    assert (result.settings, result.counts, result.unjudged) == ({"judge": "lexical"}, {"calls": 2}, ["u"])
    assert result.records() == [{"measure": "longrecall", "settings": {"judge": "lexical"}}, {"run_id": "A"}]


def test_a_note_of_its_own_kind_is_printed_under_that_kind():
    assert str(Note("topic t1 document d1: 1 in a, 2 in b -> 2", kind="conflict")) == \
        "conflict: topic t1 document d1: 1 in a, 2 in b -> 2"
    assert Note("x", True).label == "warning" and Note("x").label == "note"
