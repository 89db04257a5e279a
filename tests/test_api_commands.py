"""The API functions the commands call (``score``, ``evaluate``, ``compare``, ``agree``, ``inspect``, the qrels,
requests and nugget tools): each returns a ``Result`` with the notes its command prints, on inputs small enough to
work out by hand. The last test checks that each command prints what its function returns."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval import api
from argue_eval.api import Note
from argue_eval.argue.api import MissingJudgmentsError
from argue_eval.cli import cli
from argue_eval.errors import ArgueError, InputError, OptionError

F = Path(__file__).parent / "fixtures" / "argue"
DROPPED = ("1 nugget question(s) with no answer bound to a document were dropped (--unbound-questions "
           "negative|keep to count them): T1:n5")


def values(result, metric: str) -> dict[tuple[str, str], float]:
    return {(run, topic): value for run, topic, name, value in result.rows if name == metric}


# --- score and evaluate -------------------------------------------------------------------------------------------


def test_score_returns_the_table_and_the_notes_the_command_prints():
    """runA T1: F1 0.6, T2: 2/3 (tests/test_argue_aggregate.py works them out); runB has no report for T2, which
    scores 0 and is noted; n5 has no answer bound to a document and is dropped."""
    result = api.score([F / "runA.jsonl", F / "runB.jsonl"], F / "nuggets.jsonl", F / "judgments.jsonl")
    f1 = values(result, "f1")
    assert f1[("runA", "T1")] == pytest.approx(0.6) and f1[("runA", "T2")] == pytest.approx(2 / 3)
    assert f1[("runB", "T2")] == 0
    assert result.notes == [Note(DROPPED), Note("run runB: no report for 1 topic(s), which score 0 (--missing-topics): T2")]
    assert (result.runs, result.topics, result.counts) == (["runA", "runB"], ["T1", "T2"], {"missing": {}})
    assert result.settings["policies"].startswith("relevance=nuggets nugget-scope=cited missing-topics=zero ")
    assert list(result.table.columns) == ["run_id", "request_id", "metric", "value"]
    assert len(result.details) == 3  # runA T1, T2; runB T1


def test_score_takes_the_policies_by_keyword():
    skip = api.score([F / "runB.jsonl"], F / "nuggets.jsonl", F / "judgments.jsonl", missing_topics="skip")
    assert skip.notes[1] == Note("run runB: no report for 1 topic(s), which are left out (--missing-topics): T2")
    assert ("runB", "T2") not in values(skip, "f1") and "missing-topics=skip" in skip.settings["policies"]
    with pytest.raises(TypeError, match="unknown policy option"):
        api.score([F / "runB.jsonl"], F / "nuggets.jsonl", F / "judgments.jsonl", missing_topic="skip")


@pytest.fixture
def without_d9(tmp_path) -> Path:
    """The fixture collection without d9, which runB's second sentence cites."""
    lines = [line for line in (F / "collection.jsonl").read_text().splitlines() if '"d9"' not in line]
    (tmp_path / "c.jsonl").write_text("\n".join(lines) + "\n")
    return tmp_path / "c.jsonl"


def test_evaluate_carries_the_judge_warnings_then_the_scoring_notes(without_d9):
    """The lexical judge cannot read d9: its one attested question is not judged (``unjudged``), and with
    ``missing_judgments="zero"`` it counts as no. runB's T1 finds n1 only (n2 needs both rivers; n5 is dropped):
    nugget coverage 1 of 4; T2 has no report and scores 0."""
    seen: list[Note] = []
    result = api.evaluate([F / "runB.jsonl"], F / "nuggets.jsonl", collection=without_d9, missing_judgments="zero",
                          on_note=seen.append)
    not_judged = "1 question(s) not judged: the cited document is not in the collection (attested 1)"
    assert result.notes == seen == [
        Note(not_judged, True),
        Note("1 cited document(s) not in the collection: d9", True),
        Note(DROPPED),
        Note("no --requests: the judge sees no request text, so it cannot tell a restatement of the request from a "
             "claim that needs a citation; give the requests file (--requests R)"),
        Note("run runB: no report for 1 topic(s), which score 0 (--missing-topics): T2"),
        Note("run runB: 1 judgment(s) missing, counted as no (--missing-judgments zero)"),
    ]
    assert result.unjudged == [not_judged] and not result.complete
    assert result.counts == {"missing": {"attested": 1}}
    assert values(result, "nugget_coverage") == {("runB", "T1"): 0.25, ("runB", "T2"): 0}
    assert result.judged.run.stats.missing_documents == ["d9"]


def test_evaluate_hands_over_the_judge_warnings_before_scoring_stops(without_d9):
    seen: list[str] = []
    with pytest.raises(MissingJudgmentsError, match="1 judgment missing .attested 1.. To produce them, ask me"):
        api.evaluate([F / "runB.jsonl"], F / "nuggets.jsonl", collection=without_d9, missing_hint="ask me",
                     on_note=lambda note: seen.append(str(note)))
    assert seen == ["warning: 1 question(s) not judged: the cited document is not in the collection (attested 1)",
                    "warning: 1 cited document(s) not in the collection: d9"]


# --- compare and agree --------------------------------------------------------------------------------------------


def write_scores(path: Path, rows: list[tuple[str, str, str, float]]) -> Path:
    path.write_text("run_id\trequest_id\tmetric\tvalue\n" + "".join(f"{r}\t{t}\t{m}\t{v}\n" for r, t, m, v in rows))
    return path


def test_compare_gives_the_leaderboard_rows_the_json_documents_and_the_notes(tmp_path):
    """A: 1.0 and 0.5, B: 0.0 and 0.5 -> means 0.75 and 0.25; over two topics every bootstrap mean of A is 1.0, 0.75
    or 0.5, so its interval is [0.5, 1.0] (B's [0, 0.5])."""
    scores = write_scores(tmp_path / "s.tsv", [("A", "t1", "f1", 1.0), ("A", "t2", "f1", 0.5),
                                               ("B", "t1", "f1", 0.0), ("B", "t2", "f1", 0.5)])
    result = api.compare(scores, "f1", resamples=200)
    assert result.columns[:6] == ("metric", "rank", "run_id", "mean", "ci_low", "ci_high")
    assert [row[:6] for row in result.rows] == [("f1", 1, "A", 0.75, 0.5, 1.0), ("f1", 2, "B", 0.25, 0.0, 0.5)]
    assert result.notes[0] == Note("only 2 topic(s): intervals and tests are unreliable (fewer than 3 topics)")
    assert (result.runs, result.topics) == (["A", "B"], ["t1", "t2"])
    assert result.settings["test"] == "tukey" and result.details[0]["systems"][0]["mean"] == 0.75
    assert result.data[0].metric == "f1"
    twice = api.compare([scores], ["f1", "f1"], baseline="B", resamples=200)
    assert len(twice.details) == 1 and twice.settings["baseline"] == "B"  # each metric once


def test_compare_refuses_a_correction_on_top_of_tukey_before_reading(tmp_path):
    with pytest.raises(OptionError, match="--test tukey .the default. already controls"):
        api.compare(tmp_path / "absent.tsv", "f1", correction="holm")
    with pytest.raises(OptionError, match="'C' is not among the runs for 'f1': A"):
        api.compare(write_scores(tmp_path / "s.tsv", [("A", "t1", "f1", 1.0)]), "f1", baseline="C")


def test_agree_of_two_rankings_in_the_same_order(tmp_path):
    """B's means are A's halved plus 0.1 (r1 0.9 -> 0.55, r2 0.5 -> 0.35, r3 0.1 -> 0.15): the same order, so
    Kendall's tau-b, Spearman and Pearson are all 1; r4 is in B only and left out, noted."""
    topics = ("t1", "t2", "t3")
    a = write_scores(tmp_path / "a.tsv", [(run, t, "f1", mean) for run, mean in (("r1", 0.9), ("r2", 0.5),
                                                                                  ("r3", 0.1)) for t in topics])
    b = write_scores(tmp_path / "b.tsv", [(run, t, "f1", mean) for run, mean in (("r1", 0.55), ("r2", 0.35),
                                                                                  ("r3", 0.15), ("r4", 1.0))
                                          for t in topics])
    result = api.agree(a, b, "f1", resamples=200)
    statistics = {row[0]: row[1] for row in result.rows}
    assert statistics["kendall_tau_b"] == pytest.approx(1) and statistics["spearman"] == pytest.approx(1)
    assert statistics["pearson"] == pytest.approx(1)
    assert result.columns == ("statistic", "value", "ci_low", "ci_high", "ci_method")
    assert (result.runs, result.topics) == (["r1", "r2", "r3"], ["t1", "t2", "t3"])
    assert any("r4" in note.text for note in result.notes)
    assert result.details[0]["a"] == str(a) and result.details[0]["kendall_tau_b"] == pytest.approx(1)


# --- inspect and qrels --------------------------------------------------------------------------------------------


def test_inspect_counts_a_qrels_file(tmp_path):
    (tmp_path / "q.trec").write_text("t1 0 d1 1\nt1 0 d2 0\nt2 0 d1 2\n")
    result = api.inspect(tmp_path / "q.trec")
    assert result.settings == {"path": str(tmp_path / "q.trec"), "kind": "qrels", "format": "trec-qrels"}
    assert {name: result.counts[name] for name in ("topics", "rows", "relevant", "documents")} == \
        {"topics": 2, "rows": 3, "relevant": 2, "documents": 2}
    assert result.counts["per_topic"] == {"t1": {"judged": 2, "relevant": 1}, "t2": {"judged": 1, "relevant": 1}}
    assert result.details == [result.data]


def test_build_qrels_notes_the_unjudged_and_the_documents_outside_the_pool(tmp_path):
    (tmp_path / "pool.qrels").write_text("t1 0 d1 -1\nt1 0 d2 -1\nt1 0 d3 -1\n")
    (tmp_path / "judged.trec").write_text("t1 0 d1 2\nt1 0 d2 0\nt1 0 d4 1\n")
    result = api.build_qrels([tmp_path / "judged.trec"], pool=tmp_path / "pool.qrels", unjudged="nonrelevant")
    assert [tuple(row[:3]) for row in result.rows] == [("t1", "d1", 2), ("t1", "d2", 0), ("t1", "d3", 0), ("t1", "d4", 1)]
    assert result.notes == [Note("1 judged document(s) are not in the pool (kept): t1/d4", True),
                            Note("1 pooled document(s) were not judged (judged 0)", True)]
    assert result.counts == {"judgments": 4, "topics": 1, "outside": 1, "unjudged": 1}
    assert api.write_qrels(result, tmp_path / "out.trec") == 4
    assert (tmp_path / "out.trec").read_text() == "t1 0 d1 2\nt1 0 d2 0\nt1 0 d3 0\nt1 0 d4 1\n"


def bank_line(request_id: str, *nuggets: dict) -> str:
    return json.dumps({"request_id": request_id, "nuggets": list(nuggets)}) + "\n"


def nugget(nugget_id: str, question: str, importance: str | None, *answers: tuple[str, list[str]]) -> dict:
    return {"nugget_id": nugget_id, "question": question, "importance": importance, "aggregator": "OR",
            "negative": False, "answers": [{"answer": text, "doc_ids": docs} for text, docs in answers]}


@pytest.fixture
def small_bank(tmp_path) -> Path:
    """t1: n1 (vital) "a" in d1 and d2, n2 (okay) "b" in d1."""
    path = tmp_path / "bank.jsonl"
    path.write_text(bank_line("t1", nugget("n1", "What is a?", "vital", ("a", ["d1", "d2"])),
                              nugget("n2", "What is b?", "okay", ("b", ["d1"]))))
    return path


def test_qrels_from_nuggets_counts_or_weighs_the_nuggets_a_document_attests(small_bank):
    """count: d1 attests n1 and n2 (2), d2 n1 (1); weighted: d1 vital 2 + okay 1 = 3, d2 2."""
    count = api.qrels_from_nuggets(small_bank)
    assert [tuple(row[:3]) for row in count.rows] == [("t1", "d1", 2), ("t1", "d2", 1)]
    weighted = api.qrels_from_nuggets(small_bank, grade="weighted")
    assert weighted.data == {"t1": {"d1": 3, "d2": 2}} and weighted.counts == {"judgments": 2, "topics": 1}


def test_merge_qrels_notes_each_conflict_it_resolves_and_qrels_stats_sums_them(tmp_path):
    (tmp_path / "a.trec").write_text("t1 0 d1 1\nt1 0 d2 0\nt2 0 d1 2\n")
    (tmp_path / "b.trec").write_text("t1 0 d1 1\nt2 0 d1 1\nt2 0 d3 0\n")
    merged = api.merge_qrels([tmp_path / "a.trec", tmp_path / "b.trec"], on_duplicate="max")
    assert merged.data == {"t1": {"d1": 1, "d2": 0}, "t2": {"d1": 2, "d3": 0}}
    assert [str(note) for note in merged.notes] == \
        [f"conflict: topic t2 document d1: 2 in {tmp_path / 'a.trec'}, 1 in {tmp_path / 'b.trec'} -> 2"]
    assert merged.counts["conflicts"] == 1 and merged.details[0]["kept"] == 2
    stats = api.qrels_stats(merged.data)
    assert stats.columns == ("request_id", "judged", "relevant", "grade_0", "grade_1", "grade_2")
    assert stats.rows == [("t1", 2, 1, 1, 1, 0), ("t2", 2, 1, 1, 0, 1), ("all", 4, 2, 2, 1, 1)]


# --- requests -----------------------------------------------------------------------------------------------------


def request(request_id: str, **fields) -> str:
    return json.dumps({"request_id": request_id, "title": "T", "background": "B", "problem_statement": "P",
                       "limit": 100, "limit_unit": "chars", "collection_ids": ["news"], **fields}) + "\n"


def test_validate_requests_counts_errors_and_warnings_strict_makes_warnings_errors(tmp_path):
    (tmp_path / "r.jsonl").write_text(request("r1") + request("r2", collection_ids=["other"]))
    result = api.validate_requests(tmp_path / "r.jsonl", collections=["news"])
    assert result.counts == {"requests": 2, "errors": 1, "warnings": 0}
    assert [problem.line for problem in result.details] == [2] and "other" in str(result.details[0])
    (tmp_path / "s.jsonl").write_text(request("r1", limit=None, background=""))
    assert api.validate_requests(tmp_path / "s.jsonl").counts == {"requests": 1, "errors": 1, "warnings": 1}
    loose = api.validate_requests(tmp_path / "s.jsonl", require_limit=False)
    assert loose.counts == {"requests": 1, "errors": 0, "warnings": 1}
    strict = api.validate_requests(tmp_path / "s.jsonl", require_limit=False, strict=True)
    assert strict.counts == {"requests": 1, "errors": 1, "warnings": 0}
    assert [problem.severity for problem in strict.details] == ["error"]


def test_add_request_appends_checks_the_id_and_refuses_gzip(tmp_path):
    path = tmp_path / "mine.jsonl"
    first = api.add_request(path, "r1", "First", problem_statement="What?", limit=200)
    assert first.counts == {"requests": 1} and first.data.request_id == "r1"
    assert api.add_request(path, "r2", "Second", problem_statement="Why?", limit=200).counts == {"requests": 2}
    assert [json.loads(line)["request_id"] for line in path.read_text().splitlines()] == ["r1", "r2"]
    with pytest.raises(ArgueError, match="r1"):
        api.add_request(path, "r1", "Again", problem_statement="?", limit=200)
    with gzip.open(tmp_path / "z.jsonl.gz", "wt") as handle:
        handle.write(request("r1"))
    with pytest.raises(ArgueError, match="gzip"):
        api.add_request(tmp_path / "z.jsonl.gz", "r2", "T", limit=200)


def test_export_requests_drops_the_organizer_fields_for_participants(tmp_path):
    (tmp_path / "r.jsonl").write_text(request("r1", aspects=["secret"]) + request("r2"))
    result = api.export_requests(tmp_path / "r.jsonl", tmp_path / "out.jsonl", shape="argue")
    assert result.counts == {"requests": 2}
    assert "secret" not in (tmp_path / "out.jsonl").read_text()
    api.export_requests(tmp_path / "r.jsonl", tmp_path / "all.jsonl", shape="argue", for_participants=False)
    assert "secret" in (tmp_path / "all.jsonl").read_text()


# --- nuggets ------------------------------------------------------------------------------------------------------


def test_validate_nuggets_finds_a_bound_document_missing_from_the_collection(small_bank, tmp_path):
    (tmp_path / "c.jsonl").write_text('{"doc_id": "d1", "text": "a b"}\n')
    result = api.validate_nuggets(small_bank, collection=tmp_path / "c.jsonl")
    assert result.counts == {"topics": 1, "nuggets": 2, "errors": 1, "warnings": 0}
    assert "d2" in str(result.details[0])
    assert api.validate_nuggets(small_bank).counts["errors"] == 0


def test_nugget_stats_rows(small_bank):
    """t1: 2 questions, 2 answers, 3 bindings (a-d1, a-d2, b-d1), 2 documents, 1 vital, 1 okay."""
    result = api.nugget_stats(small_bank)
    row = dict(zip(result.columns, result.rows[0]))
    assert (row["request_id"], row["questions"], row["answers"], row["bindings"], row["documents"]) == \
        ("t1", 2, 2, 3, 2)
    assert (row["vital"], row["okay"]) == (1, 1) and result.rows[-1][0] == "all"


def test_merge_nuggets_notes_an_importance_conflict_and_keeps_the_first(small_bank, tmp_path):
    other = tmp_path / "other.jsonl"
    other.write_text(bank_line("t1", nugget("x1", "what is a", "okay", ("a", ["d3"]))))
    result = api.merge_nuggets(small_bank, other)
    assert [note.kind for note in result.notes] == ["conflict"] and "vital" in result.notes[0].text
    first = result.data[0].nuggets[0]
    assert first.importance == "vital" and sorted(first.answers[0].doc_ids) == ["d1", "d2", "d3"]
    assert result.counts == {"topics": 1, "conflicts": 1, "renamed": 0}


def test_bind_nuggets_adds_bindings_and_notes_a_new_answer(small_bank, tmp_path):
    (tmp_path / "found.csv").write_text("request_id,nugget_id,answer,doc_id\nt1,n2,b,d2\nt1,n1,c,d3\n")
    result = api.bind_nuggets(small_bank, tmp_path / "found.csv")
    assert result.counts == {"added": 2, "new_answers": 1}
    assert [note.text for note in result.notes] == ["topic t1, nugget n1: new answer 'c'"]
    assert api.write_nuggets(result, tmp_path / "bound.jsonl") == 1
    with pytest.raises(ArgueError, match="c"):
        api.bind_nuggets(small_bank, tmp_path / "found.csv", allow_new_answers=False)


# --- the commands print what the functions return -----------------------------------------------------------------


def test_the_commands_print_the_notes_of_the_results(tmp_path):
    out = CliRunner().invoke(cli, ["score", "--run", str(F / "runB.jsonl"), "--nuggets", str(F / "nuggets.jsonl"),
                                   "--judgments", str(F / "judgments.jsonl"), "-o", str(tmp_path / "s.tsv"), "-q"])
    assert out.exit_code == 0, out.output
    result = api.score([F / "runB.jsonl"], F / "nuggets.jsonl", F / "judgments.jsonl", details=False)
    written = (tmp_path / "s.tsv").read_text().splitlines()
    api.write_scores(result.rows, tmp_path / "api.tsv")
    assert (tmp_path / "api.tsv").read_text().splitlines() == written
    loud = CliRunner().invoke(cli, ["score", "--run", str(F / "runB.jsonl"), "--nuggets", str(F / "nuggets.jsonl"),
                                    "--judgments", str(F / "judgments.jsonl"), "-o", str(tmp_path / "t.tsv")])
    assert [line for line in loud.stderr.splitlines() if line.startswith("note:")] == [str(n) for n in result.notes]
    (tmp_path / "a.trec").write_text("t1 0 d1 1\n")
    (tmp_path / "b.trec").write_text("t1 0 d1 2\n")
    merged = CliRunner().invoke(cli, ["qrels", "merge", str(tmp_path / "a.trec"), str(tmp_path / "b.trec"),
                                      "--on-duplicate", "last", "-o", str(tmp_path / "m.trec")])
    assert merged.stderr.splitlines()[0] == str(api.merge_qrels([tmp_path / "a.trec", tmp_path / "b.trec"],
                                                                on_duplicate="last").notes[0])


# --- collection ---------------------------------------------------------------------------------------------------


def test_collection_functions_index_get_and_describe(tmp_path):
    (tmp_path / "c.jsonl").write_text('{"doc_id": "d1", "title": "One", "text": "first"}\n'
                                      '{"doc_id": "d2", "text": "second"}\nnot json\n')
    with pytest.raises(InputError, match="c.jsonl:3: invalid JSON"):
        api.index_collection(tmp_path / "c.jsonl")
    built = api.index_collection(tmp_path / "c.jsonl", skip_bad_lines=True)
    assert {k: built.counts[k] for k in ("documents", "skipped", "built")} == {"documents": 2, "skipped": 1, "built": True}
    assert len(built.notes) == 1 and built.notes[0].warning and ":3" in built.notes[0].text
    assert api.index_collection(tmp_path / "c.jsonl", skip_bad_lines=True).counts["built"] is False
    (tmp_path / "clean.jsonl").write_text("".join((tmp_path / "c.jsonl").read_text().splitlines(True)[:2]))
    got = api.get_documents(tmp_path / "clean.jsonl", ["d2", "d9", "d1"])
    assert got.rows == [("d2", "", "second"), ("d1", "One", "first")]
    assert got.notes == [Note(f"{tmp_path / 'clean.jsonl'}: no document with id 'd9'", True)]
    assert got.counts == {"documents": 2, "missing": 1}
    info = dict(api.collection_info(tmp_path / "clean.jsonl").rows)
    assert (info["documents"], info["id_field"], info["text_field"]) == (2, "doc_id", "text")
    assert "skipped_lines" not in info


def test_compare_takes_a_score_result_as_it_takes_its_table(tmp_path):
    result = api.score([F / "runA.jsonl", F / "runB.jsonl"], F / "nuggets.jsonl", F / "judgments.jsonl")
    api.write_scores(result.rows, tmp_path / "s.tsv")
    from_result, from_file = api.compare(result, "f1", resamples=100), api.compare(tmp_path / "s.tsv", "f1", resamples=100)
    assert from_result.rows == from_file.rows
    # runA: (0.6 + 2/3) / 2; runB: (0.4 + 0) / 2 (T2 has no report and scores 0)
    assert [(row[2], row[3]) for row in from_result.rows] == [("runA", pytest.approx(19 / 30)), ("runB", 0.2)]
