"""The terminal summary `score` prints is a faithful view of the TSV's `all` rows."""
from __future__ import annotations

from argue_eval.tables import render_text
from argue_eval.views import summary_table


def test_summary_orders_by_f1_macro_and_rounds_to_three_places():
    rows = [
        ("weak", "t1", "f1", 0.1),
        ("weak", "all", "topics", 2),
        ("weak", "all", "sentences", 7),
        ("weak", "all", "f1_macro", 0.25),
        ("weak", "all", "sentence_support_macro", 0.5),
        ("strong", "all", "topics", 2),
        ("strong", "all", "sentences", 9),
        ("strong", "all", "f1_macro", 0.8125),  # prints as 0.812 (round half to even on the binary value)
        ("strong", "all", "sentence_support_macro", 2 / 3),
    ]
    table = summary_table(rows)
    assert [row[0] for row in table.rows] == ["strong", "weak"]
    strong = dict(zip(table.columns, table.rows[0]))
    assert strong["topics"] == "2" and strong["sentences"] == "9"
    assert strong["f1"] == "0.812"
    assert strong["sent_support"] == "0.667"
    assert strong["argue_prec"] is None  # not in the rows: shown as n/a, never invented
    assert "n/a" in render_text(table)


def test_summary_ties_on_f1_are_broken_by_run_id():
    rows = [(run, "all", "f1_macro", 0.5) for run in ("b", "a", "c")]
    assert [row[0] for row in summary_table(rows).rows] == ["a", "b", "c"]
