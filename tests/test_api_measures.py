"""The measures' Python API (argue_eval.api: icat, longrecall, comprehensiveness, nuggetizer, retrieval): paths or
records in, the long table as a DataFrame and its rows, the details, counts and notes out; the commands write
exactly those rows (the same bytes), and a bad option is an OptionError (a ValueError) before any work."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval import api
from argue_eval.cli import cli
from argue_eval.errors import ArgueError, OptionError
from argue_eval.formats import read_nuggets, read_reports
from argue_eval.formats.scores import score_lines

REPO = Path(__file__).resolve().parent.parent
RUN = REPO / "runs" / "sample" / "careful.jsonl"
NUGGETS = REPO / "nuggets" / "sample" / "nuggets.jsonl"
COLLECTION = REPO / "topics" / "sample" / "collection.jsonl"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "organizer"


def cli_table(tmp_path, *args):
    out = tmp_path / "cli.tsv"
    result = CliRunner().invoke(cli, [*args, "-o", str(out), "-q", "--no-cache"])
    assert result.exit_code == 0, result.output
    return out.read_text()


def test_longrecall_from_records_is_the_commands_table(tmp_path):
    notes = []
    result = api.longrecall(list(read_reports(RUN)), nuggets=list(read_nuggets(NUGGETS)), semantic="off",
                            on_note=notes.append)
    assert "".join(score_lines(result.rows)) == cli_table(tmp_path, "longrecall", str(RUN), "--nuggets", str(NUGGETS),
                                                          "--semantic", "off")
    # the sample's 8 topics have 49 nuggets, 5 of them negative: 44 facts
    assert (result.runs, len(result.topics), result.counts["unjudged_facts"]) == (["careful"], 8, 0)
    table = result.table
    assert list(table.columns) == ["run_id", "request_id", "metric", "value"]
    assert table[(table.request_id == "all") & (table.metric == "facts")].value.item() == 44
    assert result.complete and notes == result.notes == []
    assert result.records()[0] == {"measure": "longrecall", "settings": result.settings}
    assert len(result.records()) == 1 + 8


def test_icat_by_path_is_the_commands_table_and_notes_arrive_as_they_arise(tmp_path):
    seen = []
    result = api.icat(str(RUN), nuggets=str(NUGGETS), collection=COLLECTION, on_note=seen.append)
    assert "".join(score_lines(result.rows)) == cli_table(tmp_path, "icat", str(RUN), "--nuggets", str(NUGGETS),
                                                          "--collection", str(COLLECTION))
    assert result.settings["alignment"] == "bindings" and result.counts["index"] == "104 passages"
    assert seen == result.notes


def test_comprehensiveness_and_nuggetizer_by_path(tmp_path):
    pytest.importorskip("networkx")
    result = api.comprehensiveness([str(RUN)], nuggets=str(NUGGETS))
    assert "".join(score_lines(result.rows)) == cli_table(tmp_path, "comprehensiveness", str(RUN), "--nuggets",
                                                          str(NUGGETS))
    judged = api.nuggetizer(runs=[str(RUN)], nuggets=str(NUGGETS), collection=str(COLLECTION))
    assert "".join(score_lines(judged.rows)) == cli_table(tmp_path, "nuggetizer", "--run", str(RUN), "--nuggets",
                                                          str(NUGGETS), "--collection", str(COLLECTION))


def test_nuggetizer_from_an_assignment_file(tmp_path):
    path = tmp_path / "A.assignments.jsonl"
    path.write_text(json.dumps({"qid": "q1", "run_id": "A", "nuggets": [
        {"text": "v1", "importance": "vital", "assignment": "support"},
        {"text": "o1", "importance": "okay", "assignment": "partial_support"}]}) + "\n")
    result = api.nuggetizer(path)  # one path, as a Path
    values = {(r, t, m): v for r, t, m, v in result.rows}
    # all = (1 + 0.5) / 2 nuggets; vital = 1 / 1; strict_all = 1 / 2 (partial support earns nothing)
    assert values[("A", "q1", "all")] == 0.75 and values[("A", "q1", "vital")] == 1.0
    assert values[("A", "q1", "strict_all")] == 0.5
    assert result.counts == {"answers": 1, "unjudged_nuggets": 0, "vital_undefined_everywhere": False}


def test_retrieval_from_paths_and_from_rankings():
    from argue_eval.inputs.retrieval import ranked_run_rankings

    run = FIXTURES / "retrieval.tie.trec"
    by_path = api.retrieval([str(run)], qrels=str(FIXTURES / "retrieval.qrels"), measures="map P@5")
    by_record = api.retrieval(ranked_run_rankings(run), qrels=str(FIXTURES / "retrieval.qrels"), measures=["map", "P@5"])
    assert by_path.rows == by_record.rows
    values = {(t, m): v for _, t, m, v in by_path.rows}
    # t1 in trec_eval order d3 d2 d1 d9 d4, grades 0 1 2 0 1: AP = (1/2 + 2/3 + 3/5) / 3, P@5 = 3/5; the qrels'
    # t2 and t3 score 0 (-c), so the means are t1's values / 3
    assert values[("t1", "map")] == pytest.approx((1 / 2 + 2 / 3 + 3 / 5) / 3)
    assert values[("all", "P@5")] == pytest.approx(0.6 / 3)
    assert by_path.trec_eval_lines()[-1].split("\t")[1:] == ["all", f"{0.2:6.4f}"]
    assert not math.isnan(by_path.table.value.sum())


@pytest.mark.parametrize("call, flag", [
    (lambda: api.icat(str(RUN), nuggets=str(NUGGETS), collection=COLLECTION, judge="bogus"), "--judge"),
    (lambda: api.icat(str(RUN), nuggets=str(NUGGETS), collection=COLLECTION, beta=0), "--beta"),
    (lambda: api.icat(str(RUN), nuggets=str(NUGGETS), collection=COLLECTION, claims="llm"), "--judge-option"),
    (lambda: api.retrieval([str(RUN)], qrels=str(FIXTURES / "retrieval.qrels"), measures="ndgc@10"), "--measures"),
])
def test_a_bad_option_is_an_option_error(call, flag):
    with pytest.raises(OptionError) as caught:
        call()
    assert caught.value.option == flag and isinstance(caught.value, ValueError)


def test_exactly_one_source_of_reference_facts():
    with pytest.raises(ArgueError, match="exactly one of --nuggets or --reference"):
        api.longrecall([str(RUN)])
