"""Request tools: validate, new (append), export for participants in the published shapes."""
from __future__ import annotations

import orjson
import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.errors import ArgueError
from argue_eval.formats import read_requests
from argue_eval.organizer.request_tools import check_requests, export_record, new_request


def test_check_requests_reports_schema_and_content_problems_once(fixtures):
    path = fixtures / "organizer" / "requests.problems.jsonl"
    requests, problems = check_requests(path, collections=["sample"])
    assert [r.request_id for r in requests] == ["s01", "s02", "s01"]
    text = [str(p).replace(str(path), "F") for p in problems]
    assert text == [
        "F:3: limit: expected a positive whole number (the length limit), found a number (-5)",
        "F:3: limit_unit: expected one of 'chars', 'words', found a string ('pages')",
        "F:2: problem_statement: the request has neither a title nor a problem statement",
        "F:2: background: warning: no background",
        "F:2: limit: no length limit (expected a positive number of characters or words)",
        "F:2: collection_ids: unknown collection 'other' (known: sample)",
        "F:3: request_id: request id 's01' is used again (first on line 1)",
        "F:3: collection_ids: warning: no collection id (participants cannot tell which collection to search)",
    ]


def test_validate_command(fixtures, tmp_path):
    bad = CliRunner().invoke(cli, ["requests", "validate", str(fixtures / "organizer" / "requests.problems.jsonl")])
    assert bad.exit_code == 1
    assert "3 requests, 5 errors, 2 warnings" in bad.output
    good = tmp_path / "ok.jsonl"
    good.write_text(orjson.dumps(export_record(_request(), "argue", for_participants=False)).decode() + "\n")
    result = CliRunner().invoke(cli, ["requests", "validate", str(good), "--collections", "sample"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"{good}: 1 requests, 0 errors, 0 warnings"


def _request():
    return new_request([], "s01", "Outbreak", "A reporter.", "What happened?", 2000, "chars", ["sample"], "en", ["cause"])


def test_new_request_is_checked():
    request = _request()
    assert (request.request_id, request.aspects, request.collection_ids) == ("s01", ("cause",), ("sample",))
    with pytest.raises(ArgueError, match="already in the file"):
        new_request([request], "s01", "Other")
    with pytest.raises(ArgueError, match="neither a title nor a problem statement"):
        new_request([], "s02", "", limit=100)
    for bad in ("", " s03"):
        with pytest.raises(ArgueError, match="request id: expected a non-empty id"):
            new_request([], bad, "Title", limit=100)


def test_new_command_appends_with_prompts(tmp_path):
    path = tmp_path / "requests.jsonl"
    args = ["requests", "new", str(path), "--request-id", "s01", "--title", "Harbour", "--background", "b",
            "--problem-statement", "Why did it close?", "--limit", "1500", "--collection", "sample", "--aspect", "cause"]
    assert CliRunner().invoke(cli, args).exit_code == 0
    # The second request is typed in at the prompts (id, title, background, problem statement, limit).
    result = CliRunner().invoke(cli, ["requests", "new", str(path), "--collection", "sample"],
                                input="s02\nFerry\nA commuter.\nWhen does the ferry run again?\n800\n")
    assert result.exit_code == 0, result.output
    requests = list(read_requests(path))
    assert [(r.request_id, r.title, r.limit) for r in requests] == [("s01", "Harbour", 1500), ("s02", "Ferry", 800)]
    assert requests[0].aspects == ("cause",)
    again = CliRunner().invoke(cli, args)
    assert again.exit_code == 2 and "request id 's01' is already in the file" in again.output
    blank = CliRunner().invoke(cli, [*args[:3], "--request-id", " ", *args[5:]])
    assert blank.exit_code == 2 and blank.output == "request id: expected a non-empty id without surrounding spaces, found ''\n"
    assert len(path.read_text().splitlines()) == 2


def test_export_strips_organizer_fields(fixtures, tmp_path):
    source = fixtures / "organizer" / "requests.problems.jsonl"
    first = next(iter(read_requests(source)))
    assert first.aspects == ("cause", "response") and first.extra == {"notes": "organizer only"}
    participant = export_record(first, "argue")
    assert participant["aspects"] == [] and "notes" not in participant
    assert export_record(first, "argue", for_participants=False)["notes"] == "organizer only"
    assert export_record(first, "neuclir24") == {
        "request_id": "s01", "collection_ids": ["sample"], "title": "Outbreak", "background": "A reporter.",
        "problem_statement": "What happened?", "limit": 2000,
    }
    assert export_record(first, "ragtime26")["topic_id"] == "s01"
    assert export_record(first, "ragtime26")["collection_id"] == "sample"
    assert export_record(first, "rag25") == {"id": "s01", "title": "What happened?"}


def test_export_command_output_reads_back_in_its_format(tmp_path, fixtures):
    source = tmp_path / "requests.jsonl"
    source.write_text(orjson.dumps(export_record(_request(), "argue", for_participants=False)).decode() + "\n")
    for shape, detected in [("neuclir24", "neuclir24"), ("ragtime26", "ragtime26"), ("rag25", "rag25")]:
        out = tmp_path / f"{shape}.jsonl"
        result = CliRunner().invoke(cli, ["requests", "export", str(source), "--to", shape, "-o", str(out)])
        assert result.exit_code == 0, result.output
        from argue_eval.formats import detect

        assert detect(out, "requests").name == detected
        (request,) = read_requests(out)
        assert request.request_id == "s01" and request.aspects == ()


WEB_XML = """<webtrack2012>
<topic number="201" type="faceted">
  <query>raspberry pi</query>
  <description>What is a raspberry pi?</description>
  <subtopic number="1" type="inf">What is a raspberry pi?</subtopic>
</topic>
<topic number="202" type="single">
  <query>uss carl vinson</query>
  <description>Find information on the aircraft carrier.</description>
</topic>
</webtrack2012>
"""


def test_validate_reads_web_track_xml(tmp_path):
    """`requests validate --format web-xml` reads the XML it names (it was read as JSON Lines: 'invalid JSON' on
    line 1). Web Track topics have no limit, background or collection: with --no-limit-ok, four warnings, each
    naming its topic (the format has no lines to point at)."""
    path = tmp_path / "topics.xml"
    path.write_text(WEB_XML, encoding="utf-8")
    for args in (["--format", "web-xml"], []):
        result = CliRunner().invoke(cli, ["requests", "validate", str(path), "--no-limit-ok", *args])
        assert result.exit_code == 0, result.output
        assert result.output.splitlines() == [
            f"{path}: background: warning: request '201': no background",
            f"{path}: collection_ids: warning: request '201': no collection id (participants cannot tell which "
            "collection to search)",
            f"{path}: background: warning: request '202': no background",
            f"{path}: collection_ids: warning: request '202': no collection id (participants cannot tell which "
            "collection to search)",
            f"{path}: 2 requests, 0 errors, 4 warnings",
        ]
    strict = CliRunner().invoke(cli, ["requests", "validate", str(path), "--no-limit-ok", "--strict"])
    assert strict.exit_code == 1 and strict.output.splitlines()[-1] == f"{path}: 2 requests, 4 errors, 0 warnings"
    limited = CliRunner().invoke(cli, ["requests", "validate", str(path)])  # no limit: an error per topic
    assert limited.exit_code == 1 and limited.output.splitlines()[-1] == f"{path}: 2 requests, 2 errors, 4 warnings"
