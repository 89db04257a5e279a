"""--lenient: JSON that is not JSON Lines (RAGTIME 2026's glued topic objects, report_gen_eval's pretty-printed
bank, JSON arrays) is read with one warning; strict stays the default and says how to read it anyway.

Fixtures (tests/fixtures/lenient/): the same three requests r1, r2, r3 written five ways: glued on one line,
pretty-printed, a JSON array, JSON Lines under a .json name, and one good line then a pretty-printed object.
"""
from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.errors import InputError
from argue_eval.reading import iter_jsonl, lenient_objects, set_lenient


@pytest.fixture
def lenient_dir(fixtures):
    return fixtures / "lenient"


@pytest.fixture
def lenient_mode():
    set_lenient(True)
    yield
    set_lenient(False)


@pytest.mark.parametrize(
    ("name", "lines", "repair"),
    [
        ("glued.jsonl", [1, 1, 1], "2 objects concatenated to the one before without a newline; 3 records"),
        ("pretty.json", [1, 8, 15], "3 pretty-printed objects (over several lines); 3 records"),
        ("array.json", [1, 1, 1], "a JSON array of 3 records"),
        ("lines.json", [1, 2, 3], None),
        ("mixed.jsonl", [1, 2, 9], "1 pretty-printed object (over several lines); 3 records"),
    ],
)
def test_lenient_objects_and_what_was_repaired(lenient_dir, name, lines, repair):
    objects, repaired = lenient_objects(lenient_dir / name)
    assert [line for line, _ in objects] == lines
    assert [obj["request_id"] for _, obj in objects] == ["r1", "r2", "r3"]
    assert repaired == repair


def test_strict_reading_refuses_and_suggests_lenient(lenient_dir):
    for name, message in [("glued.jsonl", "concatenated without newlines"), ("pretty.json", "looks pretty-printed"),
                          ("array.json", "looks pretty-printed"), ("mixed.jsonl", "looks pretty-printed")]:
        with pytest.raises(InputError, match=message) as error:
            list(iter_jsonl(lenient_dir / name))
        assert str(error.value).endswith("; read it anyway with --lenient")


def test_lenient_iter_jsonl_keeps_line_numbers_after_a_good_start(lenient_dir, lenient_mode, capsys):
    assert [(line, obj["request_id"]) for line, obj in iter_jsonl(lenient_dir / "mixed.jsonl")] == [(1, "r1"), (2, "r2"), (9, "r3")]
    assert capsys.readouterr().err.count("warning: read leniently") == 1


def test_lenient_still_refuses_broken_json(tmp_path, lenient_mode):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"request_id": "r1"}\n{"request_id": "r2",\n "title": }\n')
    with pytest.raises(InputError, match=r"invalid JSON: Expecting value") as error:
        list(iter_jsonl(path))
    assert error.value.problem.line == 3


@pytest.mark.parametrize("name", ["glued.jsonl", "pretty.json", "array.json", "lines.json"])
def test_inspect_with_lenient_counts_every_record(lenient_dir, name):
    path = str(lenient_dir / name)
    strict = CliRunner().invoke(cli, ["inspect", path])
    lenient = CliRunner().invoke(cli, ["inspect", "--lenient", path])
    assert lenient.exit_code == 0, lenient.output
    assert "requests        3" in lenient.stdout
    if name == "lines.json":  # JSON Lines under a .json name is read strictly too, without a warning
        assert strict.exit_code == 0 and "warning" not in lenient.stderr
    else:
        assert strict.exit_code == 2 and strict.stderr.strip().endswith("read it anyway with --lenient")
        assert lenient.stderr.count(f"{path}: warning: read leniently:") == 1


def test_lenient_is_per_invocation(lenient_dir):
    path = str(lenient_dir / "pretty.json")
    assert CliRunner().invoke(cli, ["inspect", "--lenient", path]).exit_code == 0
    assert CliRunner().invoke(cli, ["inspect", path]).exit_code == 2  # not left on by the previous call
    result = CliRunner().invoke(cli, ["requests", "validate", path])
    assert result.exit_code == 2 and result.stderr.strip().endswith("read it anyway with --lenient")


@pytest.mark.parametrize("command", [["validate", "--requests", "REQ"], ["requests", "validate"],
                                     ["nuggets", "validate"]])
def test_every_command_that_advises_lenient_has_it(command):
    """The strict readers' messages end with "read it anyway with --lenient": every command, the validators
    included, must take the option (validate and requests validate advised it without having it)."""
    from argue_eval.cli import cli as group

    context = click.Context(group)
    target: click.Command = group
    for name in [part for part in command if not part.startswith("--") and part != "REQ"]:
        target = target.get_command(context, name)  # type: ignore[union-attr]
    assert any(param.name == "lenient" for param in target.params)


def test_requests_validate_lenient_reads_a_glued_file_and_warns(lenient_dir):
    """With --lenient the content is checked and the repair is one warning: exit status 0."""
    path = str(lenient_dir / "glued.jsonl")
    result = CliRunner().invoke(cli, ["requests", "validate", "--lenient", "--no-limit-ok", path])
    assert result.exit_code == 0, result.output
    assert (f"{path}: warning: not JSON Lines (2 objects concatenated to the one before without a newline; "
            "3 records); read with --lenient, but tools that expect JSON Lines refuse it") in result.output
    # the repair, then each request's missing collection id (all three start on line 1: they are glued)
    assert result.output.splitlines()[-1] == f"{path}: 3 requests, 0 errors, 4 warnings"


def test_validate_lenient_checks_a_pretty_printed_run_and_calls_its_shape_an_error(tmp_path, fixtures):
    """A run the tracks would refuse: --lenient reads it to report its other problems too; the shape is the
    not-json-lines error (exit status 1), which --warn makes a warning."""
    requests = fixtures / "validate" / "requests.jsonl"
    run = tmp_path / "run.jsonl"
    report = {"run_id": "r", "request_id": "101", "collection_ids": ["c"],
              "sentences": [{"text": "", "citations": []}, {"text": "Fine.", "citations": []}]}
    run.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    strict = CliRunner().invoke(cli, ["validate", str(run), "--requests", str(requests)])
    assert strict.exit_code == 2 and strict.output.rstrip().endswith("1 file could not be read to the end")
    lenient = CliRunner().invoke(cli, ["validate", "--lenient", str(run), "--requests", str(requests)])
    assert lenient.exit_code == 1
    lines = lenient.output.splitlines()
    assert lines[0] == (f"{run}: not JSON Lines (1 pretty-printed object (over several lines); 1 records); read "
                        "with --lenient, but the tracks' validators refuse it: write one JSON object per line")
    assert f"{run}:1: sentences[0].text: empty sentence (no text)" in lines  # the content is checked too
    warned = CliRunner().invoke(cli, ["validate", "--lenient", str(run), "--requests", str(requests),
                                      "--warn", "not-json-lines", "--warn", "empty-sentence", "--warn", "missing-topic"])
    assert warned.exit_code == 0, warned.output


def test_convert_with_lenient_writes_json_lines(lenient_dir, tmp_path):
    out = tmp_path / "requests.jsonl"
    result = CliRunner().invoke(cli, ["convert", "--lenient", str(lenient_dir / "glued.jsonl"), "--to", "argue", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert [line for line, _ in iter_jsonl(out)] == [1, 2, 3]
