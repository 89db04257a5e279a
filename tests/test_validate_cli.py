"""``argue-eval validate`` through the CLI: output lines, summary, exit codes 0/1/2, malformed JSON Lines."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "validate"
REQUESTS = str(FIXTURES / "requests.jsonl")


def line(request_id: str, sentences: list[tuple[str, list[str]]], run_id: str = "r1") -> str:
    return json.dumps({"run_id": run_id, "request_id": request_id, "collection_ids": ["c"],
                       "sentences": [{"text": text, "citations": cites} for text, cites in sentences]})


CLEAN = [line("101", [("Toledo banned tap water.", ["d1"])]), line("102", [("Runoff feeds blooms.", ["d3"])]),
         line("103", [("The lake is large.", ["d2"])])]


def write(tmp_path: Path, data: str | bytes, name: str = "run.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def validate(*args: str):
    return CliRunner().invoke(cli, ["validate", *args])


def test_valid_run_exits_0_with_only_the_summary(tmp_path):
    path = write(tmp_path, "\n".join(CLEAN) + "\n")
    result = validate(str(path), "--requests", REQUESTS)
    assert result.exit_code == 0, result.output
    assert result.stdout == "0 errors, 0 warnings, 3 reports checked in 1 run file\n"


def test_warnings_alone_still_exit_0(tmp_path):
    path = write(tmp_path, "\n".join(CLEAN[:2]) + "\n")
    result = validate(str(path), "--requests", REQUESTS, "--warn", "missing-topic")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        f"{path}: warning: run 'r1' has no report for request '103' ({REQUESTS}:3)",
        "0 errors, 1 warning, 2 reports checked in 1 run file",
    ]


def test_errors_exit_1_sorted_then_summary(tmp_path):
    too_long = line("101", [("x" * 201, ["d1"])])
    path = write(tmp_path, "\n".join([CLEAN[1], too_long, CLEAN[1]]) + "\n")
    result = validate(str(path), "--requests", REQUESTS)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{path}:2: sentences: report is 201 characters long, over the limit of 200 characters (request '101'; "
        "counted as the sum of the NFKC-normalized sentences' lengths)",
        f"{path}:3: request_id: second report for request '102' in run 'r1' (first on line 1)",
        f"{path}: run 'r1' has no report for request '103' ({REQUESTS}:3)",
        "3 errors, 0 warnings, 3 reports checked in 1 run file",
    ]


def test_options_reach_the_checks(tmp_path):
    collection = tmp_path / "collection.jsonl"
    shutil.copy(FIXTURES / "collection.jsonl", collection)
    ragtime = json.dumps({"metadata": {"team_id": "t", "run_id": "rt", "topic_id": "101"}, "references": ["d1", "d4"],
                          "responses": [{"text": "One two three.", "citations": {"d1": 2.0, "d4": 0.5}}]})
    path = write(tmp_path, ragtime + "\n")
    result = validate(str(path), "--collection", str(collection), "--limit", "2", "--unit", "words",
                      "--max-citations-per-sentence", "1", "--citation-score-range", "0", "1",
                      "--error", "several-run-ids")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{path}:1: responses: report is 3 words long, over the limit of 2 words (--limit; counted as the sum of "
        "the NFKC-normalized sentences' word counts)",
        f"{path}:1: responses[0].citations: 2 citations, more than the maximum of 1 per sentence",
        f"{path}:1: responses[0].citations: citation score 2.0 for 'd1' is outside the expected range [0, 1]",
        f"{path}:1: responses[0].citations: cited document 'd4' is not in the collection (JSONL collection {collection})",
        "4 errors, 0 warnings, 1 report checked in 1 run file",
    ]


@pytest.mark.parametrize(
    ("data", "lineno", "message"),
    [
        (json.dumps({"run_id": "r1", "request_id": "101", "sentences": []}, indent=2), 1,
         "the JSON object starting here does not end on this line: the file looks pretty-printed; "
         "JSON Lines needs exactly one object per line; read it anyway with --lenient"),
        (CLEAN[0] + "\n" + CLEAN[1] + CLEAN[2] + "\n", 2,
         "several JSON objects on one line (concatenated without newlines); JSON Lines needs one object per line; read it anyway with --lenient"),
        (b"\xef\xbb\xbf" + CLEAN[0].encode() + b"\n", 1,
         "file starts with a UTF-8 byte-order mark (BOM); JSON Lines must not have one: save the file as UTF-8 without BOM"),
        (CLEAN[0].encode() + b"\n" + CLEAN[1].encode().replace(b"Runoff", b"Runoff \xe9") + b"\n",
         2, "invalid UTF-8 at byte"),
        (CLEAN[0] + "\n" + CLEAN[1][:-3], 2, "truncated last line: the JSON object is cut off before it ends"),
    ],
    ids=["pretty-printed", "concatenated", "bom", "invalid-utf8", "truncated"],
)
def test_malformed_json_lines_exit_2_with_a_located_message(tmp_path, data, lineno, message):
    path = write(tmp_path, data)
    result = validate(str(path), "--requests", REQUESTS)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    first, summary = result.stdout.splitlines()[-2:]
    assert first.startswith(f"{path}:{lineno}: {message}")
    assert summary.endswith("; 1 file could not be read to the end")


@pytest.mark.parametrize(
    "obj, field, message",
    [
        ({"run_id": "r1", "collection_ids": [], "sentences": []}, "request_id",
         "missing required field 'request_id' (expected a string id)"),
        ({"run_id": "r1", "request_id": "101", "sentences": "abc"}, "sentences",
         "expected an array of sentence objects {text, citations}, found a string ('abc')"),
        ({"metadata": {"team_id": "t", "run_id": "r1", "topic_id": "101"}, "references": [], "responses": {"text": "a"}}, "responses",
         "expected an array of sentence objects {text, citations}, found an object"),
    ],
    ids=["missing-request-id", "sentences-not-a-list", "ragtime-responses-not-a-list"],
)
def test_schema_error_on_the_first_line_is_located_not_unrecognized(tmp_path, obj, field, message):
    # Detection looks at the first line; a run whose first line is broken must still be read as a run so
    # that the parser names the field (exit 1), instead of "cannot recognize the file" (exit 2).
    path = write(tmp_path, json.dumps(obj) + "\n")
    result = validate(str(path))
    assert result.exit_code == 1, result.output
    assert result.stdout.splitlines()[0] == f"{path}:1: {field}: {message}"


def test_broken_gzip_run_exits_2_with_one_line(tmp_path):
    path = write(tmp_path, b"\x1f\x8b\x08\x00 cut short", name="run.jsonl.gz")
    result = validate(str(path), "--requests", REQUESTS)
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stdout.splitlines()[0].startswith(f"{path}: cannot decompress this .gz file")


def test_unrecognized_run_format_exits_2(tmp_path):
    path = write(tmp_path, '{"something": "else"}\n')
    result = validate(str(path))
    assert result.exit_code == 2
    assert result.stdout.splitlines()[0].startswith(f"{path}:1: cannot recognize the file as a known runs format")


def test_explicit_format_is_used(tmp_path):
    path = write(tmp_path, "\n".join(CLEAN) + "\n")
    result = validate(str(path), "--format", "ragtime")
    assert result.exit_code == 1  # the NeuCLIR lines are not RAGTIME lines
    assert f"{path}:1: metadata: missing required field 'metadata'" in result.stdout


def test_usage_errors_exit_2(tmp_path):
    assert validate().exit_code == 2  # no RUN
    path = write(tmp_path, "\n".join(CLEAN) + "\n")
    assert validate(str(path), "--unit", "pages").exit_code == 2
    result = validate(str(path), "--citation-score-range", "1", "0")
    assert result.exit_code == 2 and "MIN 1 is greater than MAX 0" in result.output
    result = validate(str(path), "--format", "no-such-format")
    assert result.exit_code == 2 and result.stderr.startswith("--format: unknown runs format 'no-such-format'")
    result = validate(str(path), "--warn", "length", "--error", "length")
    assert result.exit_code == 2 and "--warn/--error: both name length" in result.output


def test_unreadable_requests_file_is_one_line_on_stderr(tmp_path):
    path = write(tmp_path, "\n".join(CLEAN) + "\n")
    result = validate(str(path), "--requests", str(tmp_path / "absent.jsonl"))
    assert result.exit_code == 2
    assert result.stderr.strip().endswith("no such file or directory")


def test_user_errors_produce_no_traceback(tmp_path):
    path = write(tmp_path, b'{"run_id": "r1", "request_id": \n')
    for args in ([str(path), "--requests", REQUESTS], [str(path), "--requests", str(tmp_path / "absent.jsonl")],
                 [str(path), "--collection", str(tmp_path / "no-collection")]):
        result = subprocess.run(
            [sys.executable, "-c", "from argue_eval.cli import main; main()", "validate", *args],
            capture_output=True, text=True,
        )
        assert result.returncode == 2, result
        assert "Traceback" not in result.stderr + result.stdout
        assert str(tmp_path) in result.stderr + result.stdout
