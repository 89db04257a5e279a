"""``validate --track``: the track presets' formats, limits, reference caps and required fields."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.tracks import TRACKS, get_track
from argue_eval.validate import ValidateOptions, validate_runs

FORMATS = Path(__file__).resolve().parent / "fixtures" / "formats"
REAL = {  # each track's shipped example run (the shape of the track's published example)
    "neuclir24": FORMATS / "run.neuclir24.jsonl",
    "ragtime25": FORMATS / "run.ragtime.jsonl",
    "ragtime26": FORMATS / "run.ragtime.jsonl",
    "rag24": FORMATS / "run.rag24.jsonl",
    "rag25": FORMATS / "run.rag25.jsonl",
}


def validate(*args: str):
    return CliRunner().invoke(cli, ["validate", *args])


def write(tmp_path: Path, objects: list[dict], name: str = "run.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(obj) + "\n" for obj in objects), encoding="utf-8")
    return path


def errors(path: Path, track: str) -> list[tuple[str | None, str]]:
    result = validate_runs([path], options=ValidateOptions(track=track))
    return [(p.field, p.message) for p in result.problems if p.severity == "error"]


@pytest.mark.parametrize("track", sorted(REAL))
def test_each_tracks_example_run_validates_under_its_preset(track):
    result = validate(str(REAL[track]), "--track", track)
    assert result.exit_code == 0, result.output
    assert "0 errors" in result.output


def test_aliases_name_the_same_preset_and_unknown_tracks_are_usage_errors():
    assert get_track("trec-rag-2024") is TRACKS["rag24"]
    assert get_track("RAGTIME-2026") is TRACKS["ragtime26"]
    assert get_track("neuclir-2024") is TRACKS["neuclir24"]
    assert validate(str(REAL["rag24"]), "--track", "trec-rag-2024").exit_code == 0
    result = validate(str(REAL["rag24"]), "--track", "rag2030")
    assert result.exit_code == 2 and "rag2030" in result.output
    with pytest.raises(ValueError, match="unknown track"):
        ValidateOptions(track="rag2030")


@pytest.mark.parametrize("dotted", ["metadata.team_id", "metadata.run_id", "metadata.topic_id", "references",
                                    "responses[1].citations", "responses[0].text"])
def test_a_ragtime_run_stripped_of_a_required_field_is_an_error(tmp_path, dotted):
    obj = json.loads(REAL["ragtime26"].read_text(encoding="utf-8").splitlines()[0])
    stripped = copy.deepcopy(obj)
    if dotted.startswith("metadata."):
        del stripped["metadata"][dotted.split(".")[1]]
    elif dotted.startswith("responses["):
        del stripped["responses"][int(dotted[10])][dotted.split(".")[1]]
    else:
        del stripped[dotted]
    path = write(tmp_path, [stripped])
    found = errors(path, "ragtime26")
    assert any(field == dotted for field, _ in found), found
    result = validate(str(path), "--track", "ragtime-2026")
    assert result.exit_code != 0


def test_a_non_string_team_id_is_an_error(tmp_path):
    obj = json.loads(REAL["ragtime25"].read_text(encoding="utf-8").splitlines()[0])
    obj["metadata"]["team_id"] = 7
    assert errors(write(tmp_path, [obj]), "ragtime25") == [
        ("metadata.team_id", "expected a string, found int (RAGTIME 2025's validator)")]


@pytest.mark.parametrize("field", ["run_id", "topic_id", "topic", "response_length"])
def test_a_rag24_run_without_a_required_field_is_an_error(tmp_path, field):
    obj = json.loads(REAL["rag24"].read_text(encoding="utf-8").splitlines()[0])
    del obj[field]
    assert any(f == field for f, _ in errors(write(tmp_path, [obj]), "rag24"))


def test_reference_caps_are_twenty_for_rag24_and_a_hundred_for_rag25(tmp_path):
    rag24 = {"run_id": "r", "topic_id": "t1", "topic": "q", "response_length": 2,
             "references": [f"seg{i}" for i in range(21)], "answer": [{"text": "Two words.", "citations": [0]}]}
    assert errors(write(tmp_path, [rag24], "a.jsonl"), "rag24") == [
        ("references", "21 references, more than the 20 TREC RAG 2024 allows")]
    rag24["references"] = rag24["references"][:20]
    assert errors(write(tmp_path, [rag24], "b.jsonl"), "rag24") == []
    rag25 = {"metadata": {"team_id": "t", "run_id": "r", "narrative_id": "7"},
             "references": [f"seg{i}" for i in range(101)], "answer": [{"text": "Two words.", "citations": [0]}]}
    assert errors(write(tmp_path, [rag25], "c.jsonl"), "rag25") == [
        ("references", "101 references, more than the 100 TREC RAG 2025 allows")]
    rag25["references"] = rag25["references"][:100]
    assert errors(write(tmp_path, [rag25], "d.jsonl"), "rag25") == []


def test_rag_answers_are_limited_to_400_words_without_requests(tmp_path):
    text = " ".join(["word"] * 200) + "."
    obj = {"run_id": "r", "topic_id": "t1", "topic": "q", "response_length": 401, "references": ["s"],
           "answer": [{"text": text, "citations": [0]}, {"text": text + " extra", "citations": [0]}]}
    found = errors(write(tmp_path, [obj]), "rag24")
    assert found == [("answer", "report is 401 words long, over the limit of 400 words (--track rag24; counted as "
                                "the sum of the NFKC-normalized sentences' word counts)")]
    obj["answer"][1]["text"] = text
    obj["response_length"] = 400
    assert errors(write(tmp_path, [obj]), "rag24") == []


def test_unit_alone_never_rereads_the_tracks_limit(tmp_path):
    """--unit chars without --limit under rag24: the 400 stays 400 words (a 200-word answer of 1,000
    characters passes); --limit with --unit is the user's own figure."""
    obj = {"run_id": "r", "topic_id": "t1", "topic": "q", "references": ["s"], "response_length": 200,
           "answer": [{"text": " ".join(["word"] * 200) + ".", "citations": [0]}]}
    path = write(tmp_path, [obj])
    result = validate_runs([path], options=ValidateOptions(track="rag24", unit="chars"))
    assert [p for p in result.problems if p.severity == "error"] == []
    result = validate_runs([path], options=ValidateOptions(track="rag24", unit="chars", limit=400))
    assert [(p.field, p.message.split(" (")[0]) for p in result.problems if p.severity == "error"] == [
        ("answer", "report is 1000 characters long, over the limit of 400 characters")]


def test_neuclir24_reports_default_to_2000_characters_and_a_requests_limit_wins(tmp_path):
    obj = {"run_id": "r", "request_id": "101", "collection_ids": ["neuclir/1/zho"],
           "sentences": [{"text": ("The river flooded the town. " * 80)[:2001], "citations": []}]}  # English: the
    path = write(tmp_path, [obj])  # track's language check passes, so the one error is the length
    assert [f for f, _ in errors(path, "neuclir24")] == ["sentences"]
    requests = tmp_path / "requests.jsonl"
    requests.write_text(json.dumps({"request_id": "101", "collection_ids": ["neuclir/1/zho"], "title": "t",
                                    "background": "b", "problem_statement": "p", "limit": 3000}) + "\n")
    result = validate_runs([path], requests, options=ValidateOptions(track="neuclir24"))
    assert result.errors == 0


def test_a_file_in_another_tracks_format_is_an_error(tmp_path):
    result = validate(str(REAL["rag24"]), "--track", "ragtime26")
    assert result.exit_code == 1
    assert "RAGTIME 2026 runs are in the ragtime format; this file reads as rag24" in result.output


def test_two_files_with_one_run_id_are_an_error_under_a_preset(tmp_path):
    first = (tmp_path / "a.jsonl")
    first.write_bytes(REAL["rag25"].read_bytes())
    second = (tmp_path / "b.jsonl")
    second.write_bytes(REAL["rag25"].read_bytes())
    result = validate(str(first), str(second), "--track", "rag25")
    assert result.exit_code == 1
    assert "run id 'team-a-rag25' is also the run id of" in result.output


def test_an_empty_file_or_a_requests_file_keeps_its_error_under_a_preset(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    result = validate(str(empty), "--track", "rag24")
    assert result.exit_code == 2
    assert f"{empty}: file is empty" in result.output
    requests = FORMATS / "requests.neuclir24.jsonl"
    result = validate(str(requests), "--track", "neuclir24")
    assert result.exit_code == 2
    assert "it looks like a requests file (neuclir24 format)" in result.output


def test_a_missing_field_is_reported_once_under_a_preset(tmp_path):
    path = write(tmp_path, [{"a": 1}])
    found = errors(path, "rag24")
    assert sorted(field for field, _ in found) == ["answer", "references", "response_length", "run_id", "topic",
                                                   "topic_id"]
    assert ("run_id", "missing required field 'run_id' (expected a string id)") in found
    ragtime = write(tmp_path, [{"metadata": {"team_id": "t"}, "responses": [{"citations": []}]}], "r.jsonl")
    assert sorted(field for field, _ in errors(ragtime, "ragtime26")) == [
        "metadata.run_id", "metadata.topic_id", "references", "responses[0].text"]


def test_a_report_naming_a_collection_its_request_does_not_list_is_an_error_under_a_track(tmp_path):
    """NeuCLIR 2024: the request lists neuclir/1/zho; a report drawn from neuclir/1/fas cites documents the
    assessors never saw. With --track it is the collection-not-requested error at collection_ids (RAGTIME:
    metadata.collection_ids); without a track the ids are not compared (spellings vary between tools)."""
    requests = tmp_path / "requests.jsonl"
    requests.write_text(json.dumps({"request_id": "101", "collection_ids": ["neuclir/1/zho"], "title": "t",
                                    "background": "b", "problem_statement": "p", "limit": 3000}) + "\n")
    good = {"run_id": "r", "request_id": "101", "collection_ids": ["neuclir/1/zho"],
            "sentences": [{"text": "Fine.", "citations": []}]}
    bad = dict(good, run_id="s", collection_ids=["neuclir/1/zho", "neuclir/1/fas"])
    assert validate_runs([write(tmp_path, [good])], requests, options=ValidateOptions(track="neuclir24")).problems == []
    path = write(tmp_path, [bad], "bad.jsonl")
    result = validate_runs([path], requests, options=ValidateOptions(track="neuclir24"))
    assert [(p.line, p.field, p.message, p.severity) for p in result.problems] == [
        (1, "collection_ids", "names collection 'neuclir/1/fas', which request '101' does not list (neuclir/1/zho); "
         "its citations would point outside the assessed collection", "error")]
    assert validate_runs([path], requests).problems == []  # no --track: not compared
    warned = validate(str(path), "--requests", str(requests), "--track", "neuclir24", "--warn", "collection-not-requested")
    assert warned.exit_code == 0 and "warning: names collection 'neuclir/1/fas'" in warned.output
    ragtime = {"metadata": {"team_id": "t", "run_id": "r", "topic_id": "101", "collection_ids": ["neuclir/1/fas"]},
               "responses": [{"text": "Fine.", "citations": []}], "references": []}
    rt = validate_runs([write(tmp_path, [ragtime], "rt.jsonl")], requests, options=ValidateOptions(track="ragtime25"))
    assert [p.field for p in rt.problems] == ["metadata.collection_ids"]
