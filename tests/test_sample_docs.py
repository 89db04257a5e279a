"""The score tables printed in the documentation are the scorer's real output on the sample track.

They were copied by hand; this test recomputes them so that a change to the scorer or the sample data
that moves a number also forces the documentation to be updated, rather than quietly going stale.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import argue_eval

REPO = Path(__file__).resolve().parent.parent

COLUMN_METRICS = {
    "citation relevance": "citation_relevance_macro",
    "citation support": "citation_support_macro",
    "sentence support": "sentence_support_macro",
    "nugget coverage": "nugget_coverage_macro",
    "weighted coverage": "nugget_coverage_weighted_macro",
    "F1": "f1_macro",
    "ARGUE precision": "argue_precision_macro",
}


@pytest.fixture(scope="module")
def macro_scores() -> dict[tuple[str, str], float]:
    runs = sorted(str(path) for path in (REPO / "runs" / "sample").glob("*.jsonl"))
    result = argue_eval.score(
        runs,
        str(REPO / "nuggets/sample/nuggets.jsonl"),
        [str(REPO / "qrels/sample/judgments.jsonl")],
        requests=str(REPO / "topics/sample/requests.jsonl"),
        details=False,
    )
    table = result.table[result.table.request_id == "all"]
    return {(row.run_id, row.metric): float(row.value) for row in table.itertuples()}


def markdown_score_table(path: Path) -> tuple[list[str], list[list[str]]]:
    """The first Markdown table in ``path`` whose header starts with ``| run |`` and has an F1 column."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for start, line in enumerate(lines):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells[0] == "run" and "F1" in cells:
            rows = []
            for body in lines[start + 2:]:
                if not body.startswith("|"):
                    break
                rows.append([cell.strip() for cell in body.strip().strip("|").split("|")])
            return cells, rows
    raise AssertionError(f"no score table in {path}")


@pytest.mark.parametrize("doc", ["topics/sample/README.md", "docs/scoring.md"])
def test_documented_macro_scores_match_the_scorer(doc, macro_scores):
    header, rows = markdown_score_table(REPO / doc)
    assert len(rows) == 6
    checked = 0
    for row in rows:
        run_id = re.sub(r"[`*]", "", row[0])
        for title, cell in zip(header[1:], row[1:]):
            metric = COLUMN_METRICS[title]
            assert float(cell) == pytest.approx(macro_scores[(run_id, metric)], abs=0.0005), (doc, run_id, title)
            checked += 1
    assert checked >= 6 * 5
