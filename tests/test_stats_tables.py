"""Table rendering for compare/agree: escaping, undefined cells, number formats, rank lists."""
from __future__ import annotations

import json

import pytest

from argue_eval.tables import Table, dumps_json, fmt_number, fmt_p, render_tables
from argue_eval.views import compress_ranks


def _table() -> Table:
    return Table(["run_id", "mean"], [["a_b|c", "0.5000"], ["50%&co", None]], "lr", "title", ["why n/a"])


def test_undefined_cells_and_notes_in_every_format():
    text = render_tables([_table()], "text")
    assert text.splitlines()[0] == "title" and "n/a" in text and text.rstrip().endswith("note: why n/a")
    tsv = render_tables([_table()], "tsv")
    assert tsv.splitlines()[:3] == ["run_id\tmean", "a_b|c\t0.5000", "50%&co\tn/a"] and "# note: why n/a" in tsv
    markdown = render_tables([_table()], "markdown")
    assert "| a_b\\|c | 0.5000 |" in markdown and "|:---|---:|" in markdown and "- Note: why n/a" in markdown
    latex = render_tables([_table()], "latex")
    assert r"a\_b|c & 0.5000 \\" in latex and r"50\%\&co & -- \\" in latex and r"\begin{tabular}{lr}" in latex


def test_text_columns_align():
    text = render_tables([Table(["x", "value"], [["long-name", "1.0"], ["s", "10.0"]], "lr")], "text")
    lines = text.splitlines()
    assert lines[2] == "long-name    1.0" and lines[3] == "s           10.0"


def test_number_formats():
    assert fmt_number(0.123456) == "0.1235" and fmt_number(float("nan")) is None and fmt_number(None) is None
    # a rounding residue of a zero difference is not a negative number; a real negative keeps its sign
    assert fmt_number(-1e-17, 3) == "0.000" and fmt_number(-0.0) == "0.0000" and fmt_number(-0.0004, 3) == "0.000"
    assert fmt_number(-0.0006, 3) == "-0.001"
    assert fmt_p(0.00001) == "<0.0001" and fmt_p(0.0) == "0.0000" and fmt_p(0.05) == "0.0500"


def test_json_refuses_nan():
    assert json.loads(dumps_json({"a": None, "b": 1.5})) == {"a": None, "b": 1.5}
    with pytest.raises(ValueError):
        dumps_json({"a": float("nan")})


def test_compress_ranks():
    assert compress_ranks([7, 2, 3, 4]) == "2-4,7"
    assert compress_ranks([]) == "" and compress_ranks([5]) == "5"
