"""Judgment-level agreement: Cohen's kappa by hand, matching on the judgment key, the CLI on canonical files."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.model import Judgment
from argue_eval.stats.judgment_agreement import cohen_kappa, judgment_agreement


def test_kappa_by_hand():
    # yy=20, yn=5, ny=10, nn=15 (N=50): p_o = 35/50 = 0.7; yes-rates 25/50 and 30/50;
    # p_e = 0.5*0.6 + 0.5*0.4 = 0.5; kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4
    assert cohen_kappa(20, 5, 10, 15) == pytest.approx(0.4)
    assert cohen_kappa(10, 0, 0, 10) == pytest.approx(1.0)
    # perfect disagreement at 50/50 yes-rates: p_o = 0, p_e = 0.5 -> kappa = -1
    assert cohen_kappa(0, 10, 10, 0) == pytest.approx(-1.0)
    assert cohen_kappa(7, 0, 0, 0) is None and cohen_kappa(0, 0, 0, 0) is None


def _j(kind, sentence, value, doc="d1", run=None, index=None, judge="x", **extra):
    return Judgment(kind=kind, request_id="r1", sentence=sentence, value=value, judge=judge, doc_id=doc,
                    run_id=run, sentence_index=index, **extra)


def test_matching_uses_the_key_not_the_run():
    a = [_j("attested", "The sky is blue.", True, run="runA"),
         _j("attested", "Grass is green.", False),
         _j("attested", "Water is wet.", True),
         _j("relevant", "Water is wet.", True)]
    b = [_j("attested", "The sky  is blue. ", True, run="runB"),  # same key: whitespace normalized, run ignored
         _j("attested", "Grass is green.", True),
         _j("relevant", "Water is wet.", True),
         _j("relevant", "Only in B.", False)]
    result = judgment_agreement(a, b)
    attested = next(item for item in result.kinds if item.kind == "attested")
    assert (attested.n_a, attested.n_b, attested.overlap) == (3, 2, 2)
    assert (attested.yes_yes, attested.yes_no, attested.no_yes, attested.no_no) == (1, 0, 1, 0)
    assert attested.accuracy == pytest.approx(0.5)
    # p_o = 0.5; yes-rates 1/2 (A) and 1 (B): p_e = 0.5*1 + 0.5*0 = 0.5; kappa = 0
    assert attested.kappa == pytest.approx(0.0)
    relevant = next(item for item in result.kinds if item.kind == "relevant")
    assert relevant.overlap == 1 and relevant.kappa is None and "kappa undefined" in relevant.note
    assert [item.kind for item in result.kinds] == ["relevant", "attested"]
    assert result.overall.overlap == 3


def test_duplicates_in_one_file_are_counted_and_the_last_wins():
    a = [_j("attested", "S.", True), _j("attested", "S.", False)]
    b = [_j("attested", "S.", False)]
    result = judgment_agreement(a, b)
    assert result.kinds[0].accuracy == 1.0
    assert any("A: 1 judgment(s) repeat an earlier key" in note and "1 with a different answer" in note for note in result.notes)


def _write(path: Path, judgments) -> None:
    from argue_eval.formats import write

    write(judgments, path, "argue", kind="judgments")


def test_cli_on_canonical_files(tmp_path: Path):
    a = [_j("attested", f"s{k}.", k % 2 == 0) for k in range(6)] + [_j("answers", "s0.", True, nugget_id="n1", answer="yes")]
    b = [_j("attested", f"s{k}.", k % 3 == 0) for k in range(6)] + [_j("answers", "s0.", True, nugget_id="n1", answer="yes")]
    _write(tmp_path / "a.jsonl", a)
    _write(tmp_path / "b.jsonl", b)
    runner = CliRunner()
    result = runner.invoke(cli, ["agree-judgments", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"), "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    attested = next(item for item in doc["kinds"] if item["kind"] == "attested")
    # k = 0..5: A yes at 0,2,4; B yes at 0,3 -> yy {0}, yn {2,4}, ny {3}, nn {1,5}
    assert attested["confusion"] == {"yes_yes": 1, "yes_no": 2, "no_yes": 1, "no_no": 2}
    # p_o = 3/6; yes-rates 3/6 and 2/6: p_e = 0.5*(1/3) + 0.5*(2/3) = 0.5 -> kappa 0
    assert attested["accuracy"] == pytest.approx(0.5) and attested["kappa"] == pytest.approx(0.0)
    text = runner.invoke(cli, ["agree-judgments", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"), "--kind", "attested"])
    kinds_shown = {line.split()[1] for line in text.output.splitlines() if line.startswith("x ")}
    assert text.exit_code == 0 and kinds_shown == {"attested"}


def test_cli_refuses_a_judge_contradicting_itself_in_a_canonical_file(tmp_path: Path):
    """score's rule holds here too: judge x says yes at line 1 and no at line 3 (another judge between them)."""
    a = [_j("attested", "S.", True), _j("attested", "S.", False, judge="y"), _j("attested", "S.", False)]
    _write(tmp_path / "a.jsonl", a)
    _write(tmp_path / "b.jsonl", a[:1])
    result = CliRunner().invoke(cli, ["agree-judgments", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")])
    assert result.exit_code == 2
    assert result.output.startswith(f"{tmp_path / 'a.jsonl'}:3: value: contradicts line 1")
    # an unknown kind is a usage error, not an empty table
    result = CliRunner().invoke(cli, ["agree-judgments", str(tmp_path / "b.jsonl"), str(tmp_path / "b.jsonl"),
                                      "--kind", "relevance"])
    assert result.exit_code == 2 and "'relevance' is not one of" in result.output
