"""Validation checks, one located-message test per problem class (file, line, field and message)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from argue_eval.errors import InputError, Problem
from argue_eval.model import Report, Request, Sentence
from argue_eval.validate import CHECKS, ValidateOptions, report_length, validate_run, validate_runs

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "validate"
REQUESTS = FIXTURES / "requests.jsonl"  # 101: 200 chars, 102: 10 words, 103: no limit


def neuclir(request_id: str, sentences: list, run_id: str = "r1", **extra) -> dict:
    """A NeuCLIR 2024 run line; ``sentences`` are (text, [doc ids]) pairs or ready-made dicts."""
    items = [s if isinstance(s, dict) else {"text": s[0], "citations": s[1]} for s in sentences]
    return {"run_id": run_id, "request_id": request_id, "collection_ids": ["c"], "sentences": items, **extra}


def ragtime(topic_id: str, responses: list, references: list, run_id: str = "rt1") -> dict:
    return {"metadata": {"team_id": "t", "run_id": run_id, "topic_id": topic_id},
            "responses": [{"text": text, "citations": citations} for text, citations in responses],
            "references": references}


def write_run(tmp_path: Path, *lines: dict, name: str = "run.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def complete(*lines: dict) -> tuple[dict, ...]:
    """Pad a run with clean short reports for the requests it does not cover, so only the tested problem shows."""
    covered = {line.get("request_id") or line.get("metadata", {}).get("topic_id") for line in lines}
    as_ragtime = bool(lines) and "responses" in lines[0]  # one file holds one format
    pad = (lambda rid: ragtime(rid, [("Fine.", ["d1"])], ["d1"])) if as_ragtime else (
        lambda rid: neuclir(rid, [("Fine.", ["d1"])]))
    return lines + tuple(pad(rid) for rid in ("101", "102", "103") if rid not in covered)


def messages(problems: list[Problem]) -> list[str]:
    return [str(problem) for problem in problems]


# --- the fixture itself is clean -----------------------------------------------------------------------


def test_a_clean_run_has_no_problems(tmp_path):
    path = write_run(tmp_path, *complete())
    validation = validate_runs([path], REQUESTS)
    assert validation.problems == []
    assert (validation.reports, validation.files, validation.exit_code) == (3, 1, 0)
    assert validation.summary() == "0 errors, 0 warnings, 3 reports checked in 1 run file"


# --- schema (from the format's parser) -------------------------------------------------------------------


def test_schema_problem_is_located_by_the_format_parser(tmp_path):
    path = write_run(tmp_path, *complete(neuclir("101", [{"text": "A claim.", "citations": "d1"}])))
    [problem] = validate_run(path, REQUESTS)
    assert (problem.path, problem.line, problem.field, problem.severity) == (str(path), 1, "sentences[0].citations", "error")
    assert "expected a list of document ids" in problem.message


def test_citation_index_out_of_range(tmp_path):
    line = {"run_id": "r24", "topic_id": "101", "topic": "toledo", "references": ["d1", "d2"],
            "response_length": 3, "answer": [{"text": "Water was unsafe.", "citations": [0, 5]}]}
    path = write_run(tmp_path, line)
    assert messages(validate_run(path)) == [
        f"{path}:1: answer[0].citations[1]: citation index 5 is out of range: references has 2 entries (valid indexes 0-1)"
    ]


# --- topics ------------------------------------------------------------------------------------------------


def test_missing_topic_is_reported_at_the_run_file(tmp_path):
    # A missing report is the run's fault: the problem is located at the run file (it has no line there)
    # and names where request 102 is (line 2 of the requests fixture).
    path = write_run(tmp_path, neuclir("101", [("A.", ["d1"])]), neuclir("103", [("B.", ["d2"])]))
    validation = validate_runs([path], REQUESTS)
    assert messages(validation.problems) == [f"{path}: run 'r1' has no report for request '102' ({REQUESTS}:2)"]
    assert validation.exit_code == 1


def test_two_files_with_the_same_run_id_are_an_error(tmp_path):
    first = write_run(tmp_path, *complete(neuclir("101", [("A.", ["d1"])])), name="a.jsonl")
    second = write_run(tmp_path, *complete(neuclir("101", [("B.", ["d2"])])), name="b.jsonl")
    other = write_run(tmp_path, *(neuclir(r, [("C.", ["d3"])], run_id="r9") for r in ("101", "102", "103")), name="c.jsonl")
    validation = validate_runs([second, other, first], REQUESTS)
    assert messages(validation.problems) == [f"{second}:1: run id 'r1' is also the run id of {first}; give each run its own id"]
    assert validation.exit_code == 1


def test_missing_topic_names_the_request_formats_line(tmp_path):
    requests = tmp_path / "topics.jsonl"  # RAGTIME 2026 topics: the id field is topic_id
    requests.write_text(
        '{"topic_id": "101", "collection_id": "c", "title": "t", "background": "b", "problem_statement": "p"}\n'
        '{"topic_id": "102", "collection_id": "c", "title": "t", "background": "b", "problem_statement": "p"}\n',
        encoding="utf-8",
    )
    path = write_run(tmp_path, neuclir("101", [("A.", ["d1"])]))
    assert messages(validate_run(path, requests)) == [
        f"{path}: run 'r1' has no report for request '102' ({requests}:2)"
    ]


def test_missing_topic_can_be_a_warning(tmp_path):
    path = write_run(tmp_path, neuclir("101", [("A.", ["d1"])]))
    validation = validate_runs([path], REQUESTS, options=ValidateOptions(severity={"missing-topic": "warning"}))
    assert messages(validation.problems) == [
        f"{path}: warning: run 'r1' has no report for request '102' ({REQUESTS}:2)",
        f"{path}: warning: run 'r1' has no report for request '103' ({REQUESTS}:3)",
    ]
    assert validation.exit_code == 0


def test_duplicate_topic(tmp_path):
    path = write_run(tmp_path, *complete(neuclir("101", [("A.", ["d1"])]), neuclir("101", [("B.", ["d2"])])))
    assert messages(validate_run(path, REQUESTS)) == [
        f"{path}:2: request_id: second report for request '101' in run 'r1' (first on line 1)"
    ]


def test_unknown_request_id_names_the_format_field(tmp_path):
    path = write_run(tmp_path, *complete(ragtime("999", [("A.", ["d1"])], ["d1"])))
    assert messages(validate_run(path, REQUESTS)) == [
        f"{path}:1: metadata.topic_id: request id '999' is not in the requests file",
    ]


def test_several_run_ids_is_a_warning_and_topics_are_checked_per_run(tmp_path):
    path = write_run(tmp_path, *complete(), neuclir("101", [("A.", ["d1"])], run_id="r2"))
    validation = validate_runs([path], REQUESTS)
    assert messages(validation.problems) == [
        f"{path}:4: run_id: warning: run id 'r2' differs from 'r1' (line 1); a run file normally holds one run",
        f"{path}: run 'r2' has no report for request '102' ({REQUESTS}:2)",
        f"{path}: run 'r2' has no report for request '103' ({REQUESTS}:3)",
    ]


def test_repeated_request_in_the_requests_file(tmp_path):
    requests = tmp_path / "requests.jsonl"
    lines = REQUESTS.read_text(encoding="utf-8").splitlines()
    requests.write_text("\n".join(lines + [lines[0]]) + "\n", encoding="utf-8")
    path = write_run(tmp_path, *complete())
    # an error, as requests validate and every reading command call it (issue 34); --warn duplicate-request softens it
    assert messages(validate_run(path, requests)) == [
        f"{requests}:4: request_id: request id '101' is used again (first on line 1); the runs are checked against "
        "the first"
    ]
    softened = validate_run(path, requests, options=ValidateOptions(severity={"duplicate-request": "warning"}))
    assert [p.severity for p in softened] == ["warning"]


def test_requests_may_be_given_as_objects(tmp_path):
    path = write_run(tmp_path, neuclir("x", [("Some text.", [])]))
    assert messages(validate_run(path, [Request("x", limit=3), Request("y")])) == [
        f"{path}:1: sentences: report is 10 characters long, over the limit of 3 characters (request 'x'; "
        "counted as the sum of the NFKC-normalized sentences' lengths)",
        f"{path}: run 'r1' has no report for request 'y'",
    ]


def test_unreadable_requests_file_raises(tmp_path):
    path = write_run(tmp_path, *complete())
    with pytest.raises(InputError, match="no such file"):
        validate_run(path, tmp_path / "absent.jsonl")


# --- lengths --------------------------------------------------------------------------------------------


def test_length_counts_nfkc_characters_summed_over_sentences():
    # "\ufb01ve" is 3 code points; NFKC turns the ligature into "fi", so it counts as "five" = 4.
    # "\uff21\uff22" (full-width AB) stays 2 after NFKC ("AB"). 4 + 2 + 6 ("abc de") = 12, no separators.
    report = Report("r", "q", [Sentence("\ufb01ve"), Sentence("\uff21\uff22"), Sentence("abc de")])
    assert report_length(report, "chars") == 12
    assert report.character_count == 11  # the raw count differs: the ligature is one code point
    assert report_length(report, "words") == 4  # five | AB | abc de


def test_report_over_the_request_character_limit(tmp_path):
    # 101 allows 200 characters: 150 + 51 = 201.
    path = write_run(tmp_path, *complete(neuclir("101", [("a" * 150, ["d1"]), ("b" * 51, ["d2"])])))
    assert messages(validate_run(path, REQUESTS)) == [
        f"{path}:1: sentences: report is 201 characters long, over the limit of 200 characters (request '101'; "
        "counted as the sum of the NFKC-normalized sentences' lengths)"
    ]


def test_report_exactly_at_the_limit_passes(tmp_path):
    path = write_run(tmp_path, *complete(neuclir("101", [("a" * 150, ["d1"]), ("b" * 50, ["d2"])])))
    assert validate_run(path, REQUESTS) == []


def test_report_over_the_request_word_limit(tmp_path):
    # 102 allows 10 words: 6 + 5 = 11.
    sentences = [("one two three four five six", ["d1"]), ("seven eight nine ten eleven", ["d2"])]
    path = write_run(tmp_path, *complete(neuclir("102", sentences)))
    assert messages(validate_run(path, REQUESTS)) == [
        f"{path}:1: sentences: report is 11 words long, over the limit of 10 words (request '102'; "
        "counted as the sum of the NFKC-normalized sentences' word counts)"
    ]


def test_limit_and_unit_options_override_the_requests(tmp_path):
    # --limit 3 --unit words: "Fine." is 1 word in each padding report; report 101 has 2 + 2 = 4 words.
    path = write_run(tmp_path, *complete(neuclir("101", [("Two words.", ["d1"]), ("Two more.", ["d2"])])))
    problems = validate_run(path, REQUESTS, options=ValidateOptions(limit=3, unit="words"))
    assert messages(problems) == [
        f"{path}:1: sentences: report is 4 words long, over the limit of 3 words (--limit; "
        "counted as the sum of the NFKC-normalized sentences' word counts)"
    ]


def test_limit_without_requests(tmp_path):
    path = write_run(tmp_path, neuclir("zz", [("abcdef", [])]))
    assert messages(validate_run(path, options=ValidateOptions(limit=5))) == [
        f"{path}:1: sentences: report is 6 characters long, over the limit of 5 characters (--limit; "
        "counted as the sum of the NFKC-normalized sentences' lengths)"
    ]


# --- citations and references ----------------------------------------------------------------------------


def test_citation_not_in_references(tmp_path):
    path = write_run(tmp_path, *complete(ragtime("101", [("A.", ["d1"]), ("B.", ["d1", "d9"])], ["d1"])))
    assert messages(validate_run(path, REQUESTS)) == [
        f"{path}:1: responses[1].citations: cites 'd9', which is not in the report's references"
    ]


def test_reference_never_cited(tmp_path):
    path = write_run(tmp_path, *complete(ragtime("101", [("A.", ["d1"])], ["d1", "d2"])))
    assert messages(validate_run(path, REQUESTS)) == [
        f"{path}:1: references[1]: reference 'd2' is never cited by a sentence"
    ]


def test_uncited_references_are_normal_in_trec_rag_runs(tmp_path):
    line = {"metadata": {"run_id": "r25", "narrative_id": "101"}, "references": ["d1", "d2", "d3"],
            "answer": [{"text": "A.", "citations": [0]}, {"text": "B.", "citations": ["d7"]}]}
    path = write_run(tmp_path, line)
    # Only the cited id outside references is flagged; d2 and d3 (retrieved, not cited) are fine.
    assert messages(validate_run(path)) == [
        f"{path}:1: answer[1].citations: cites 'd7', which is not in the report's references"
    ]


def test_empty_sentence(tmp_path):
    path = write_run(tmp_path, *complete(neuclir("101", [("A.", ["d1"]), (" \t", [])])))
    assert messages(validate_run(path, REQUESTS)) == [f"{path}:1: sentences[1].text: empty sentence (no text)"]


def test_empty_report_is_a_warning(tmp_path):
    path = write_run(tmp_path, *complete(neuclir("101", [])))
    validation = validate_runs([path], REQUESTS)
    assert messages(validation.problems) == [f"{path}:1: sentences: warning: the report has no sentences"]
    assert validation.exit_code == 0


def test_too_many_citations_per_sentence(tmp_path):
    path = write_run(tmp_path, *complete(neuclir("101", [("A.", ["d1", "d2"]), ("B.", ["d1", "d2", "d3"])])))
    problems = validate_run(path, REQUESTS, options=ValidateOptions(max_citations_per_sentence=2))
    assert messages(problems) == [
        f"{path}:1: sentences[1].citations: 3 citations, more than the maximum of 2 per sentence"
    ]


def test_citation_scores_outside_the_range(tmp_path):
    line = ragtime("101", [("A.", {"d1": 0.5, "d2": 92.5}), ("B.", ["d1"])], ["d1", "d2"])
    path = write_run(tmp_path, *complete(line))
    canonical = neuclir("102", [{"text": "C.", "citations": ["d1", "d3"], "citation_scores": [-0.1, 1.0]}])
    other = write_run(tmp_path, *complete(canonical), name="canonical.jsonl")
    options = ValidateOptions(citation_score_range=(0.0, 1.0))
    assert messages(validate_runs([path, other], REQUESTS, options=options).problems) == [
        f"{other}:1: sentences[0].citations: citation score -0.1 for 'd1' is outside the expected range [0, 1]",
        f"{path}:1: responses[0].citations: citation score 92.5 for 'd2' is outside the expected range [0, 1]",
    ]
    assert validate_runs([path, other], REQUESTS).problems == []  # no range, no check


# --- the collection ------------------------------------------------------------------------------------


@pytest.fixture
def collection(tmp_path: Path) -> Path:
    target = tmp_path / "collection.jsonl"
    shutil.copy(FIXTURES / "collection.jsonl", target)
    return target


def test_cited_documents_absent_from_the_collection(tmp_path, collection):
    path = write_run(tmp_path, *complete(neuclir("101", [("A.", ["d1", "nope"]), ("B.", ["nope", "d3"])])))
    assert messages(validate_run(path, REQUESTS, collection=collection)) == [
        f"{path}:1: sentences[0].citations: cited document 'nope' is not in the collection (JSONL collection {collection})",
        f"{path}:1: sentences[1].citations: cited document 'nope' is not in the collection (JSONL collection {collection})",
    ]


def test_an_open_store_can_be_passed_and_stays_open(tmp_path, collection):
    from argue_eval.collection import open_collection

    path = write_run(tmp_path, *complete())
    with open_collection(collection) as store:
        assert validate_run(path, REQUESTS, collection=store) == []
        assert store.get("d2").title == "Algal bloom"


# --- several files, sorting, unreadable files --------------------------------------------------------------


def test_problems_are_sorted_by_file_then_line(tmp_path):
    b = write_run(tmp_path, *complete(neuclir("101", [("A.", ["d1"])]), neuclir("101", [(" ", ["d1"])])), name="b.jsonl")
    a = write_run(tmp_path, neuclir("999", [("", [])]), *complete(), name="a.jsonl")
    validation = validate_runs([b, a], REQUESTS)
    # b.jsonl:1 is the duplicate-run-id error (both files use run id r1).
    assert [(Path(p.path).name, p.line) for p in validation.problems] == [
        ("a.jsonl", 1), ("a.jsonl", 1), ("b.jsonl", 1), ("b.jsonl", 2), ("b.jsonl", 2)
    ]
    assert validation.summary() == "5 errors, 0 warnings, 8 reports checked in 2 run files"


def test_malformed_line_stops_the_file_but_keeps_earlier_problems(tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text(json.dumps(neuclir("999", [("A.", [])])) + "\n" + '{"run_id": "r1",\n', encoding="utf-8")
    validation = validate_runs([path], REQUESTS)
    assert messages(validation.problems) == [
        f"{path}:1: request_id: request id '999' is not in the requests file",
        f"{path}:2: the JSON object starting here does not end on this line: the file looks pretty-printed; "
        "JSON Lines needs exactly one object per line; read it anyway with --lenient",
    ]  # no missing-topic errors: the file was not read to the end
    assert validation.unreadable == [str(path)] and validation.exit_code == 2


def test_every_check_has_a_valid_default_severity():
    assert CHECKS and all(severity in ("error", "warning") for severity, _ in CHECKS.values())
    with pytest.raises(ValueError, match="unknown check"):
        ValidateOptions(severity={"no-such-check": "warning"})


@pytest.mark.parametrize(
    ("strip", "expected"),
    [
        (lambda o: o["metadata"].pop("team_id"), "metadata.team_id: missing required field 'team_id' (a string)"),
        (lambda o: o["metadata"].pop("run_id"), "metadata.run_id: missing required field 'run_id' (a string)"),
        (lambda o: o["metadata"].update(team_id=7), "metadata.team_id: expected a string, found int (the track's validator requires strings)"),
        (lambda o: o.pop("references"), "references: missing required field 'references' (a list of document ids)"),
        (lambda o: o["responses"][0].pop("citations"), "responses[0].citations: missing required field 'citations' (a list, possibly empty)"),
    ],
)
def test_ragtime_runs_stripped_of_required_fields_are_errors(tmp_path, strip, expected):
    """The RAGTIME / TREC RAG validators refuse these files; so do we (our reader alone would tolerate them)."""
    line = ragtime("101", [("A.", ["d1"])], ["d1"])
    strip(line)
    path = write_run(tmp_path, line)
    problems = [p for p in validate_run(path, None)]
    assert f"{path}:1: {expected}" in messages(problems)
    assert all(p.severity == "error" for p in problems if p.field and expected.startswith(p.field))


def test_a_complete_ragtime_run_has_no_official_schema_problem(tmp_path):
    path = write_run(tmp_path, ragtime("101", [("A.", ["d1"])], ["d1"]))
    assert messages(validate_run(path, None)) == []
