"""``--json``: every command's summary as one JSON object on stdout, the same content as its text (issue 34 item 3).

Each command runs on a copy of the sample sample_track, once as a person types it and once with ``--json``; the object's
figures are checked against the text's (and against the sample track's own counts, worked out from its files), and
where the text shows a table, the object's table rendered as text is the text's table, cell for cell.
"""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from helpers import leaf_commands
from helpers import run_cli as run

from argue_eval.tables import Table, render_text

RUNS = ["runs/sample/careful.jsonl", "runs/sample/hallucinating.jsonl"]
SAMPLE = ["--nuggets", "nuggets/sample/nuggets.jsonl", "--requests", "topics/sample/requests.jsonl"]
COLLECTION = ["--collection", "topics/sample/collection.jsonl"]




def as_json(*args: str, code: int = 0) -> dict:
    """The command's stdout with ``--json``: one JSON object and nothing else."""
    result = run(*args, "--json", code=code)
    document = json.loads(result.stdout)
    assert isinstance(document, dict)
    return document


def rendered(document: dict) -> list[str]:
    """The object's tables rendered as the text renders them, each line's runs of spaces collapsed (JSON does not
    keep a column's alignment, only its cells)."""
    text = "\n".join(render_text(Table(table["columns"], table["rows"], "", table["title"], table["notes"]))
                     for table in document["tables"])
    return collapsed(text)


def collapsed(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines()]


def test_every_command_takes_json():
    lacking = [path for path, command in leaf_commands() if not any("--json" in p.opts for p in command.params)]
    assert lacking == []


def test_validate_gives_the_counts_and_problems_of_its_summary_line(sample_track):
    text = run("validate", *RUNS, "--requests", "topics/sample/requests.jsonl").stdout
    document = as_json("validate", *RUNS, "--requests", "topics/sample/requests.jsonl")
    assert document["command"] == "validate"
    assert document["counts"] == {"errors": 0, "warnings": 0, "reports": 16, "files": 2, "unreadable": 0}
    assert document["summary"] == text.strip() == "0 errors, 0 warnings, 16 reports checked in 2 run files"
    # a run missing a topic: the warning is one of the problems, as the text prints it
    text = run("validate", "runs/sample/misses-topics.jsonl", "--requests", "topics/sample/requests.jsonl",
               "--warn", "missing-topic").stdout.splitlines()
    document = as_json("validate", "runs/sample/misses-topics.jsonl", "--requests", "topics/sample/requests.jsonl",
                       "--warn", "missing-topic")
    assert document["problems"] == text[:-1] and len(document["problems"]) == document["counts"]["warnings"] >= 1


def test_validate_fix_lists_every_change_and_the_fixed_runs(sample_track):
    args = ("validate", "runs/sample/too-long.jsonl", "--requests", "topics/sample/requests.jsonl", "--track",
            "neuclir24", "--fix")
    text = run(*args, "-o", "a.jsonl").stdout.splitlines()
    document = as_json(*args, "-o", "b.jsonl")
    assert Path("a.jsonl").read_bytes() == Path("b.jsonl").read_bytes()
    assert document["changes"] == text[:-1] and len(document["changes"]) == 28
    assert document["fixes"] == {"length": 8, "reference-not-cited": 20}  # the help's summary: 8 length, 20 ...
    (fixed,) = document["fixed"]
    assert (fixed["reports"], fixed["changed_reports"], fixed["sentences_dropped"]) == (8, 8, 30)


def test_the_validators_give_counts_summary_and_problems(sample_track):
    document = as_json("requests", "validate", "topics/sample/requests.jsonl")
    assert document["counts"] == {"requests": 8, "errors": 0, "warnings": 0} and document["problems"] == []
    document = as_json("nuggets", "validate", "nuggets/sample/nuggets.jsonl")
    assert document["counts"]["topics"] == 8 and document["counts"]["errors"] == 0
    assert document["summary"].startswith("nuggets/sample/nuggets.jsonl: 8 topics, ")


def test_score_gives_the_tables_it_prints(sample_track):
    args = ("score", "--run", *RUNS, "--nuggets", "nuggets/sample/nuggets.jsonl", "--judgments",
            "qrels/sample/judgments.jsonl")
    text = run(*args, "-o", "a.tsv").stdout
    document = as_json(*args, "-o", "b.tsv")
    assert Path("a.tsv").read_bytes() == Path("b.tsv").read_bytes()  # the data is written the same
    assert rendered(document) == collapsed(text)
    assert document["runs"] == ["careful", "hallucinating"] and len(document["topics"]) == 8
    macro = document["tables"][0]
    assert macro["columns"][:2] == ["run_id", "topics"] and [row[0] for row in macro["rows"]] == ["careful",
                                                                                                 "hallucinating"]
    assert document["output"] == "b.tsv" and document["summary"].startswith("scored 2 run(s) on 8 topic(s) (")


def test_a_measure_command_gives_its_leaderboard(sample_track):
    args = ("longrecall", "--run", RUNS[0], "--nuggets", "nuggets/sample/nuggets.jsonl")
    text = run(*args, "-o", "a.tsv").stdout
    document = as_json(*args, "-o", "b.tsv")
    assert rendered(document) == collapsed(text)
    assert document["counts"]["unjudged_facts"] == 0 and document["summary"].startswith("longrecall")


def test_the_tsv_commands_give_their_rows_with_numbers_as_numbers(sample_track):
    document = as_json("qrels", "stats", "qrels/sample/qrels.trec")
    table = document["tables"][0]
    assert table["columns"] == ["request_id", "judged", "relevant", "grade_0", "grade_1", "grade_2"]
    assert table["rows"][0] == ["s01", 13, 8, 5, 1, 7] and table["rows"][-1] == ["all", 106, 65, 41, 9, 56]
    document = as_json("nuggets", "stats", "nuggets/sample/nuggets.jsonl", "-o", "stats.tsv")
    written = Path("stats.tsv").read_text().splitlines()
    assert written[0].split("\t") == document["tables"][0]["columns"]
    assert [str(value) for value in document["tables"][0]["rows"][-1]] == written[-1].split("\t")


def test_the_writing_commands_give_what_they_wrote(sample_track):
    document = as_json("nuggets", "merge", "nuggets/sample/nuggets.jsonl", "nuggets/sample/nuggets.jsonl", "-o",
                       "merged.jsonl")
    assert document["topics_written"] == 8 and document["counts"]["conflicts"] == 0
    assert document["summary"] == "merged into 8 topics (0 conflicts) -> merged.jsonl"
    document = as_json("qrels", "from-nuggets", "nuggets/sample/nuggets.jsonl", "-o", "q.trec")
    assert document["judgments"] == len(Path("q.trec").read_text().splitlines())
    document = as_json("convert", "nuggets/sample/nuggets.jsonl", "--to", "autoargue-v3", "-o", "v3")
    assert document["output"] == "v3" and document["target"] == "autoargue-v3" and document["written"] > 0
    document = as_json("pool", *RUNS, "--depth", "5", "-o", "pool.qrels")
    assert document["documents"] == len(Path("pool.qrels").read_text().splitlines())
    assert document["runs"] == 2 and document["topics"] == 8
    document = as_json("requests", "export", "topics/sample/requests.jsonl", "-o", "public.jsonl")
    assert document["counts"]["requests"] == 8 and document["shape"] == "neuclir24"


def test_json_and_data_on_stdout_are_refused(sample_track):
    result = run("nuggets", "merge", "nuggets/sample/nuggets.jsonl", "nuggets/sample/nuggets.jsonl", "-o", "-",
                 "--json", code=2)
    assert "--json: prints the summary on stdout, which -o - already fills with the data" in result.stderr


def test_the_format_commands_take_json_as_format_json(sample_track):
    args = ("score", "--run", *RUNS, "--nuggets", "nuggets/sample/nuggets.jsonl", "--judgments",
            "qrels/sample/judgments.jsonl", "-o", "s.tsv")
    run(*args)
    assert json.loads(run("compare", "s.tsv", "-m", "f1", "--json").stdout) == json.loads(
        run("compare", "s.tsv", "-m", "f1", "--format", "json").stdout)
    result = run("compare", "s.tsv", "-m", "f1", "--json", "--format", "tsv", code=2)
    assert "--json: contradicts --format tsv" in result.stderr
    document = as_json("analyze", "power", "s.tsv", "-m", "f1")
    assert document == json.loads(run("analyze", "power", "s.tsv", "-m", "f1", "--format", "json").stdout)


def test_judge_and_evaluate_give_the_run_summary(sample_track):
    args = ("--run", RUNS[0], *SAMPLE, *COLLECTION, "--no-cache")
    document = as_json("judge", *args, "-o", "j.jsonl")
    counts = document["counts"]
    judged = sum(1 for line in Path("j.jsonl").read_text().splitlines() if line.strip())
    assert counts["judgments"] == counts["new"] == judged and counts["failed"] == counts["waiting"] == 0
    assert sum(document["kinds"]["new"].values()) == judged and document["judge"] == "lexical"
    text = run("evaluate", *args, "-o", "a.tsv").stdout
    document = as_json("evaluate", *args, "-o", "b.tsv")
    assert rendered(document) == collapsed(text) and document["judging"]["counts"]["failed"] == 0
    plan = as_json("judge", *args[:-1], "--dry-run")  # the dry run's --json is the plan itself, as before
    assert plan["judge"] == "lexical" and plan["reports"] == 8


def test_collection_and_search_commands(sample_track):
    document = as_json("collection", "info", "topics/sample/collection.jsonl")
    assert document["info"]["documents"] == len(Path("topics/sample/collection.jsonl").read_text().splitlines())
    document = as_json("collection", "get", "topics/sample/collection.jsonl", "nw-0001", "nope", code=1)
    assert [doc["doc_id"] for doc in document["documents"]] == ["nw-0001"] and document["counts"]["missing"] == 1
    document = as_json("collection", "index", "topics/sample/collection.jsonl")
    assert document["documents"] == 104 and document["index"]
    assert as_json("schema")["kinds"]["runs"]
    assert as_json("schema", "runs")["$schema"].startswith("https://json-schema.org/")  # the schema is the JSON


def test_assess_commands(sample_track):
    document = as_json("assess", "init", "--db", "round.sqlite", "--requests", "topics/sample/requests.jsonl",
                       *COLLECTION, "--run", RUNS[0])
    assert document["counts"]["requests"] == 8 and document["counts"]["reports_added"] == 8
    document = as_json("assess", "users", "add", "alice", "--db", "round.sqlite")
    assert document["user"] == "alice" and len(document["password"]) >= 8
    document = as_json("assess", "assign", "--db", "round.sqlite", "--topics", "s01,s02", "--to", "alice")
    assert document["topics"] == ["s01", "s02"]
    (user,) = as_json("assess", "users", "list", "--db", "round.sqlite")["users"]
    assert user == {"name": "alice", "role": "assessor", "state": "one-time password", "topics": ["s01", "s02"]}
    text = run("assess", "status", "--db", "round.sqlite").stdout
    document = as_json("assess", "status", "--db", "round.sqlite")
    assert document["tables"][0]["columns"] == ["topic", "assessor", "stage", "done", "open"]
    assert rendered(document) == collapsed(text) and document["counts"]["adjudication_open"] == 0
    document = as_json("assess", "export", "--run", RUNS[0], *SAMPLE, *COLLECTION, "-o", "pool.csv")
    with open("pool.csv", newline="", encoding="utf-8") as handle:
        assert document["counts"]["items"] == len(list(csv.DictReader(handle)))


def test_retrieval_gives_its_scores(sample_track):
    document = as_json("retrieval", "--qrels", "qrels/sample/qrels.trec", "runs/sample/ranked/bm25.trec", "-m",
                       "ndcg@10")
    rows = document["tables"][0]["rows"]
    assert rows[0] == ["bm25", "s01", "ndcg@10", 0.8883364803307394]  # the value the help's example prints
    assert document["scores"] == len(rows) == 9  # 8 topics and the all row
    document = as_json("retrieval", "--qrels", "qrels/sample/qrels.trec", "runs/sample/ranked/bm25.trec", "-m",
                       "ndcg@10", "-o", "r.tsv")
    assert "tables" not in document and document["scores"] == len(Path("r.tsv").read_text().splitlines()) - 1


def test_search_gives_its_hits(sample_track):
    import importlib.util

    missing = [name for name in ("pyserini", "jnius") if importlib.util.find_spec(name) is None]
    if missing:  # BM25 is the search extra's (found without importing jnius, which would start a JVM here)
        pytest.skip(f"not installed: {', '.join(missing)}")
    text = run("search", "-c", "topics/sample/collection.jsonl", "-q", "coral reef heat stress", "-k", "2").stdout
    document = as_json("search", "-c", "topics/sample/collection.jsonl", "-q", "coral reef heat stress", "-k", "2")
    hits = document["hits"]["query"]
    assert [hit["rank"] for hit in hits] == [1, 2] and all(hit["doc_id"] in text for hit in hits)
    assert document["counts"] == {"queries": 1, "results": 2}


def test_nuggetizer_report_and_the_organizer_commands(sample_track):
    text = run("nuggetizer", "--run", RUNS[0], "--nuggets", "nuggets/sample/nuggets.jsonl", *COLLECTION,
               "-o", "a.tsv").stdout
    document = as_json("nuggetizer", "--run", RUNS[0], "--nuggets", "nuggets/sample/nuggets.jsonl", *COLLECTION,
                       "-o", "b.tsv")
    assert rendered(document) == collapsed(text) and document["counts"]["answers"] == 8
    run("score", "--run", *RUNS, "--nuggets", "nuggets/sample/nuggets.jsonl", "--judgments",
        "qrels/sample/judgments.jsonl", "-o", "s.tsv")
    document = as_json("report", "--scores", "s.tsv", "--resamples", "200", "-o", "r.html")
    assert document["counts"]["runs"] == 2 and document["counts"]["topics"] == 8
    assert document["counts"]["bytes"] == Path("r.html").stat().st_size
    document = as_json("qrels", "merge", "qrels/sample/qrels.trec", "qrels/sample/qrels.trec", "-o", "m.trec")
    assert document["judgments"] == 106 and document["counts"]["conflicts"] == 0  # qrels stats' all row: 106 judged
    document = as_json("requests", "new", "mine.jsonl", "--request-id", "x1", "--title", "T", "--background", "B",
                       "--problem-statement", "P", "--limit", "2000")
    assert document["request_id"] == "x1" and document["counts"]["requests"] == 1
    Path("found.csv").write_text("request_id,nugget_id,answer,doc_id\ns01,s01-n1,E. coli,nw-0008\n", encoding="utf-8")
    document = as_json("nuggets", "bind", "nuggets/sample/nuggets.jsonl", "found.csv", "-o", "bound.jsonl")
    assert document["counts"]["added"] == 1 and document["counts"]["new_answers"] == 0


def test_the_analyses_and_agreement_give_their_documents(sample_track):
    run("judge", "--run", *RUNS, *SAMPLE, *COLLECTION, "--no-cache", "-o", "auto.jsonl")
    document = as_json("agree-judgments", "qrels/sample/judgments.jsonl", "auto.jsonl", "--kind", "answers")
    assert document == json.loads(run("agree-judgments", "qrels/sample/judgments.jsonl", "auto.jsonl", "--kind",
                                       "answers", "--format", "json").stdout)
    run("score", "--run", *RUNS, "--nuggets", "nuggets/sample/nuggets.jsonl", "--judgments",
        "qrels/sample/judgments.jsonl", "-o", "human.tsv")
    run("score", "--run", *RUNS, "--nuggets", "nuggets/sample/nuggets.jsonl", "--judgments", "auto.jsonl",
        "-o", "auto.tsv")
    document = as_json("agree", "human.tsv", "auto.tsv", "-m", "f1")
    assert document == json.loads(run("agree", "human.tsv", "auto.tsv", "-m", "f1", "--format", "json").stdout)
    document = as_json("analyze", "circularity", *RUNS)
    assert document["analysis"] == "circularity"


def test_the_workbench_export_and_a_password_reset(sample_track):
    run("assess", "init", "--db", "round.sqlite", "--requests", "topics/sample/requests.jsonl", *COLLECTION,
        "--run", RUNS[0], "--nuggets", "nuggets/sample/nuggets.jsonl")
    run("assess", "users", "add", "alice", "--db", "round.sqlite")
    first = as_json("assess", "users", "reset", "alice", "--db", "round.sqlite")
    assert first["user"] == "alice" and first["password"] != as_json("assess", "users", "reset", "alice", "--db",
                                                                     "round.sqlite")["password"]
    document = as_json("assess", "export-db", "--db", "round.sqlite", "--nuggets-out", "n.jsonl", "--judgments-out",
                       "h.jsonl")
    assert document["counts"]["topics"] == 8 and document["counts"]["judgments"] == 0
    assert document["nuggets_out"] == "n.jsonl" and Path("n.jsonl").is_file()
