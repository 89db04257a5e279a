"""The HTML report's data and page, without a browser: escaping, groups, statistics, rationale, CLI errors."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.formats.details import read_details
from argue_eval.formats.scores import read_scores
from argue_eval.model import Judgment
from argue_eval.report import ReportOptions, build_report_data, script_json
from argue_eval.stats.comparison import compare
from argue_eval.stats.matrix import records_to_matrix
from argue_eval.stats.pairwise import letter_groups


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sample track scored once: scores.tsv and details.jsonl."""
    repo = Path(__file__).resolve().parent.parent
    out = tmp_path_factory.mktemp("sample")
    args = ["score", "--nuggets", str(repo / "nuggets/sample/nuggets.jsonl"),
            "--requests", str(repo / "topics/sample/requests.jsonl"),
            "--judgments", str(repo / "qrels/sample/judgments.jsonl"),
            "-o", str(out / "scores.tsv"), "--details", str(out / "details.jsonl"), "--quiet"]
    for run in sorted((repo / "runs/sample").glob("*.jsonl")):
        args += ["--run", str(run)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return {"scores": out / "scores.tsv", "details": out / "details.jsonl", "repo": repo}


def test_script_json_cannot_end_its_script_block():
    value = {"t": "</script><script>alert(1)</script><!-- \u2028 \u2029 & <b>"}
    text = script_json(value)
    assert "<" not in text and ">" not in text and "&" not in text
    assert "\u2028" not in text and "\u2029" not in text
    assert json.loads(text) == value


def test_group_letters_by_hand():
    # leaderboard order 0, 1, 2, 3; significant: 0-2, 0-3, 1-3. Maximal runs of positions with no
    # significant pair inside: {0, 1}, {1, 2}, {2, 3} -> a, ab, bc, c.
    significant = np.zeros((4, 4), dtype=bool)
    for a, b in ((0, 2), (0, 3), (1, 3)):
        significant[a, b] = significant[b, a] = True
    assert letter_groups([0, 1, 2, 3], significant) == {0: "a", 1: "ab", 2: "bc", 3: "c"}
    # nothing significant: one group; everything significant: one letter each
    assert set(letter_groups([2, 0, 1], np.zeros((3, 3), dtype=bool)).values()) == {"a"}
    full = ~np.eye(3, dtype=bool)
    assert letter_groups([2, 0, 1], full) == {2: "a", 0: "b", 1: "c"}


def test_baseline_statistics_equal_compare(sample):
    records = list(read_scores(sample["scores"]))
    options = ReportOptions(baseline="careful", resamples=2000, seed=3)
    data = build_report_data(records, options=options)
    runs = data.main["runs"]
    result = compare(records_to_matrix(records, "f1"), baseline="careful", resamples=2000, seed=3)
    systems = result.systems.set_index("run_id")
    stats = data.main["stats"]["f1"]
    for k, run in enumerate(runs):
        assert stats["mean"][k] == pytest.approx(systems.at[run, "mean"], abs=1e-6)
        assert stats["low"][k] == pytest.approx(systems.at[run, "ci_low"], abs=1e-6)
        assert stats["high"][k] == pytest.approx(systems.at[run, "ci_high"], abs=1e-6)
        assert stats["mark"][k] == systems.at[run, "vs_baseline"]
        assert stats["rank"][k] == systems.at[run, "rank"]
    # the README's sample table: careful leads on F1 with 0.989
    assert stats["mean"][runs.index("careful")] == pytest.approx(0.989, abs=5e-4)


def test_measures_runs_topics_and_reported_reports(sample):
    data = build_report_data(read_scores(sample["scores"]), read_details(sample["details"]),
                             options=ReportOptions(resamples=500))
    main = data.main
    names = [m["name"] for m in main["measures"]]
    assert names[:8] == ["sentence_support", "citation_support", "citation_relevance", "nugget_coverage",
                         "nugget_coverage_weighted", "f1", "f1_weighted", "argue_precision"]
    assert not any(name.startswith("outcome_") or name.endswith("_undefined") for name in names)
    assert main["runs"] == ["careful", "hallucinating", "misses-topics", "no-citations", "too-long", "wrong-cites"]
    assert main["topics"] == [f"s0{k}" for k in range(1, 9)]
    # misses-topics has no report for s03, s05, s08 (topics/sample/README.md): no report link there
    assert "misses-topics" not in main["reported"]["s03"] and "misses-topics" in main["reported"]["s01"]
    block = data.topics[main["topics"].index("s01")]
    strings = block["strings"]
    sentences = block["reports"]["no-citations"][0]
    # no-citations on s01: an introduction (4), then an uncited claim (5)
    assert [sentences[0][1], sentences[1][1]] == [4, 5]
    # the counts each report shows, as the scorer counted them (careful's s01 details: 7 sentences, 6 citations,
    # 7 of 7 nuggets; no-citations: 6 sentences, no citation, 1 of 7, its negative nugget)
    assert block["reports"]["careful"][3] == [7, 6, 7, 7]
    assert block["reports"]["no-citations"][3] == [6, 0, 1, 7]
    careful = block["reports"]["careful"][0][0]
    assert careful[1] == 3 and strings[careful[2][0][0]] == "nw-0001"
    assert main["judges"][0]["name"] in {"human:sample-assessor", "nuggets"}


def test_runs_option_keeps_only_those_runs(sample):
    data = build_report_data(read_scores(sample["scores"]), read_details(sample["details"]),
                             options=ReportOptions(resamples=200), run_ids=["no-citations", "careful"])
    assert data.main["runs"] == ["careful", "no-citations"]
    assert set(data.topics[0]["reports"]) == {"careful", "no-citations"}
    assert len(data.main["values"]["f1"]) == 2 and all(len(row) == 8 for row in data.main["values"]["f1"])


def test_rationale_and_confidence_reach_the_step(sample):
    details = list(read_details(sample["details"]))
    careful = next(d for d in details if d["run_id"] == "careful" and d["request_id"] == "s01")
    sentence = careful["sentences"][0]["text"]
    judgment = Judgment("attested", "s01", sentence, True, "llm:test", doc_id="nw-0001",
                        confidence=0.75, rationale="The story reports E. coli in the tap water.",
                        provenance={"model": "test-model", "prompt": "v1"})
    data = build_report_data(read_scores(sample["scores"]), details, judgments=[judgment],
                             options=ReportOptions(resamples=200))
    block = data.topics[data.main["topics"].index("s01")]
    strings = block["strings"]
    steps = block["reports"]["careful"][0][0][2][0][5]
    attested = [step for step in steps if strings[step[0]] == "attested"]
    assert len(attested) == 1 and len(attested[0]) == 8
    assert strings[attested[0][6]] == "The story reports E. coli in the tap water." and attested[0][7] == 0.75
    # other steps carry no rationale
    assert all(len(step) == 6 for step in steps if strings[step[0]] != "attested")
    assert build_report_data(read_scores(sample["scores"]), details, judgments=[judgment],
                             options=ReportOptions(resamples=200)).main == data.main


def test_page_is_self_contained_and_byte_identical(tmp_path, sample):
    repo = sample["repo"]
    args = ["report", "--scores", str(sample["scores"]), "--details", str(sample["details"]),
            "--nuggets", str(repo / "nuggets/sample/nuggets.jsonl"), "--requests", str(repo / "topics/sample/requests.jsonl"),
            "--resamples", "300", "-q"]
    runner = CliRunner()
    first = runner.invoke(cli, args + ["-o", str(tmp_path / "a.html")])
    second = runner.invoke(cli, args + ["-o", str(tmp_path / "b.html")])
    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    page = (tmp_path / "a.html").read_text()
    assert page == (tmp_path / "b.html").read_text()
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:|//)""", page, re.I)
    assert not re.search(r"""url\(\s*["']?\s*(?:https?:|//)""", page, re.I)
    assert "<link" not in page and "@import" not in page
    assert page.count('<script type="application/json"') == 1 + 8  # main data + one block per topic


def test_report_cli_errors_are_one_line(tmp_path, sample):
    runner = CliRunner()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"run_id": "careful", "request_id": "s01", "sentences": []}\n')
    result = runner.invoke(cli, ["report", "--scores", str(sample["scores"]), "--details", str(bad), "-o", str(tmp_path / "r.html")])
    assert result.exit_code == 2
    assert result.output.strip() == f"{bad}:1: nuggets: missing (is this a `score --details` file?)"
    assert not (tmp_path / "r.html").exists()
    result = runner.invoke(cli, ["report", "--scores", str(sample["scores"]), "--baseline", "nope", "-o", str(tmp_path / "r.html")])
    assert result.exit_code == 2 and "--baseline: 'nope' is not among the runs" in result.output
    result = runner.invoke(cli, ["report", "--scores", str(sample["scores"]), "--measure", "nope", "-o", str(tmp_path / "r.html")])
    assert result.exit_code == 2 and "--measure: 'nope'" in result.output


def test_report_help_has_a_worked_example():
    result = CliRunner().invoke(cli, ["report", "--help"])
    assert result.exit_code == 0 and "argue-eval report --scores scores.tsv --details details.jsonl" in result.output


def test_evaluate_html_writes_the_report_of_what_it_judged(tmp_path):
    import shutil

    fixtures = Path(__file__).parent / "fixtures" / "argue"
    collection = tmp_path / "collection.jsonl"
    shutil.copy(fixtures / "collection.jsonl", collection)
    page = tmp_path / "report.html"
    result = CliRunner().invoke(cli, [
        "evaluate", "--run", str(fixtures / "runA.jsonl"), "--nuggets", str(fixtures / "nuggets.jsonl"),
        "--collection", str(collection), "--cache", str(tmp_path / "cache.sqlite"),
        "-o", str(tmp_path / "scores.tsv"), "--html", str(page), "--quiet"])
    assert result.exit_code == 0, result.output
    text = page.read_text()
    main = json.loads(re.search(r'<script type="application/json" id="report-data">(.*?)</script>', text).group(1))
    assert main["runs"] == sorted({r.run_id for r in read_scores(tmp_path / "scores.tsv")})
    assert main["reported"]  # the details were produced for the page even without --details
    judges = {judge["name"] for judge in main["judges"]}
    assert any(name.startswith("lexical") for name in judges), judges


def test_alternate_measure_tables_offer_their_ratios_not_their_counts():
    rows = []
    for run, icat, recall in (("a", (0.5, 0.7, 0.9), (0.2, 0.4, 0.6)), ("b", (0.1, 0.2, 0.3), (0.3, 0.3, 0.3))):
        for k in range(3):
            rows += [(run, f"t{k}", "claims", 4), (run, f"t{k}", "grounded_claims", 2), (run, f"t{k}", "icat", icat[k]),
                     (run, f"t{k}", "longrecall", recall[k]), (run, f"t{k}", "facts", 5)]
        rows += [(run, "t0", "icat_undefined", 1), (run, "all", "param_beta", 1.0), (run, "all", "icat_macro", sum(icat) / 3)]
    data = build_report_data(rows, options=ReportOptions(resamples=200))
    assert [m["name"] for m in data.main["measures"]] == ["icat", "longrecall"]
    assert [m["label"] for m in data.main["measures"]] == ["ICAT", "LongRecall"]
    assert data.main["measure"] == "icat"  # f1 is absent: the first measure leads
    assert data.main["stats"]["icat"]["mean"] == [pytest.approx(0.7), pytest.approx(0.2)]
    assert data.main["stats"]["icat"]["rank"] == [1, 2]


def test_another_measures_details_file_is_noted_not_refused(tmp_path, sample):
    """LongRecall's and ICAT's --details start with a {measure, settings} record and hold no flowchart outcomes:
    the report is written with the ARGUE details given beside them, and one note names each such file."""
    other = tmp_path / "lr.jsonl"
    other.write_text(json.dumps({"measure": "longrecall", "settings": {"facts": "nuggets"}}) + "\n"
                     + json.dumps({"measure": "longrecall", "run_id": "careful", "request_id": "s01",
                                   "counts": {"facts": 6}, "sentences": ["A sentence."]}) + "\n", encoding="utf-8")
    out = tmp_path / "r.html"
    result = CliRunner().invoke(cli, ["report", "--scores", str(sample["scores"]), "--details", str(sample["details"]),
                                      "--details", str(other), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert (f"note: {other}: longrecall details (1 record(s)) hold no ARGUE sentence outcomes: the report's sentence "
            "and nugget views come from `score --details`; give the longrecall scores with --scores to rank by them"
            ) in result.output
    notes: list[str] = []
    assert list(read_details(other, notes)) == [] and len(notes) == 1
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps({"measure": "icat", "settings": {}}) + "\n{not json\n", encoding="utf-8")
    assert CliRunner().invoke(cli, ["report", "--scores", str(sample["scores"]), "--details", str(broken), "-o",
                                    str(tmp_path / "b.html")]).exit_code == 2  # read to its end: still located
