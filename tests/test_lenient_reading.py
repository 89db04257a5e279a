"""--lenient: JSON that is not JSON Lines (RAGTIME 2026's glued topic objects, report_gen_eval's pretty-printed
bank, JSON arrays) is read with one warning; strict stays the default and says how to read it anyway.

Fixtures (tests/fixtures/lenient/): the same three requests r1, r2, r3 written five ways: glued on one line,
pretty-printed, a JSON array, JSON Lines under a .json name, and one good line then a pretty-printed object.
"""
from __future__ import annotations

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


def test_lenient_is_per_invocation_and_validate_has_none(lenient_dir):
    path = str(lenient_dir / "pretty.json")
    assert CliRunner().invoke(cli, ["inspect", "--lenient", path]).exit_code == 0
    assert CliRunner().invoke(cli, ["inspect", path]).exit_code == 2  # not left on by the previous call
    result = CliRunner().invoke(cli, ["validate", "--lenient", path, "--requests", path])
    assert result.exit_code == 2 and "No such option '--lenient'" in result.output
    result = CliRunner().invoke(cli, ["requests", "validate", path])
    assert result.exit_code != 0 and "looks pretty-printed" in result.output + result.stderr


def test_convert_with_lenient_writes_json_lines(lenient_dir, tmp_path):
    out = tmp_path / "requests.jsonl"
    result = CliRunner().invoke(cli, ["convert", "--lenient", str(lenient_dir / "glued.jsonl"), "--to", "argue", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert [line for line, _ in iter_jsonl(out)] == [1, 2, 3]
