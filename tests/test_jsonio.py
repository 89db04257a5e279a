"""The JSON Lines reader names each way a participant's file can be broken, with its line."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from argue_eval.errors import InputError
from argue_eval.reading import iter_jsonl, read_json
from argue_eval.writing import atomic_writer, write_jsonl


def write_bytes(tmp_path: Path, data: bytes, name: str = "f.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def error_for(path: Path) -> InputError:
    with pytest.raises(InputError) as info:
        list(iter_jsonl(path))
    return info.value


def test_reads_objects_with_line_numbers_skipping_blank_lines(tmp_path):
    path = write_bytes(tmp_path, b'{"a": 1}\n\n  \n{"b": "2024-105741"}\n')
    assert list(iter_jsonl(path)) == [(1, {"a": 1}), (4, {"b": "2024-105741"})]


def test_reads_gzipped_files(tmp_path):
    path = tmp_path / "f.jsonl.gz"
    with gzip.open(path, "wb") as handle:
        handle.write(b'{"a": 1}\n{"a": 2}\n')
    assert [value["a"] for _, value in iter_jsonl(path)] == [1, 2]


def test_pretty_printed_object_is_named_as_such(tmp_path):
    pretty = json.dumps({"request_id": "101", "sentences": []}, indent=2).encode() + b"\n"
    error = error_for(write_bytes(tmp_path, pretty))
    assert error.line == 1
    assert "pretty-printed" in str(error)
    assert str(error).startswith(f"{tmp_path / 'f.jsonl'}:1: ")


def test_concatenated_objects_are_named_as_such(tmp_path):
    error = error_for(write_bytes(tmp_path, b'{"a": 1}\n{"a": 2}{"a": 3}\n'))
    assert error.line == 2
    assert "concatenated without newlines" in str(error)


def test_byte_order_mark_is_reported(tmp_path):
    error = error_for(write_bytes(tmp_path, b'\xef\xbb\xbf{"a": 1}\n'))
    assert error.line == 1
    assert "byte-order mark" in str(error)


def test_invalid_utf8_is_reported_with_its_line(tmp_path):
    error = error_for(write_bytes(tmp_path, b'{"a": 1}\n{"a": "caf\xe9"}\n'))
    assert error.line == 2
    assert "invalid UTF-8" in str(error)


def test_truncated_last_line_is_reported(tmp_path):
    error = error_for(write_bytes(tmp_path, b'{"a": 1}\n{"a": [1, 2'))
    assert error.line == 2
    assert "truncated last line" in str(error)


def test_unterminated_object_in_the_middle_is_not_called_truncated(tmp_path):
    error = error_for(write_bytes(tmp_path, b'{"a": [1, 2\n{"a": 1}\n'))
    assert "truncated" not in str(error)
    assert "does not end on this line" in str(error)


def test_plain_syntax_error_gives_column(tmp_path):
    error = error_for(write_bytes(tmp_path, b'{"a": 1,, "b": 2}\n'))
    assert "invalid JSON" in str(error) and "column" in str(error)


def test_non_object_line_is_rejected(tmp_path):
    error = error_for(write_bytes(tmp_path, b'[1, 2]\n'))
    assert "expected a JSON object" in str(error) and "an array" in str(error)


def test_missing_file_is_an_input_error(tmp_path):
    error = error_for(tmp_path / "absent.jsonl")
    assert "no such file" in str(error)


def test_read_json_reports_line_of_syntax_error(tmp_path):
    path = write_bytes(tmp_path, b'{\n  "a": 1,\n  "b": \n}\n', "f.json")
    with pytest.raises(InputError) as info:
        read_json(path)
    assert info.value.line == 4


def test_atomic_writer_keeps_old_file_when_the_block_fails(tmp_path):
    path = tmp_path / "out.jsonl"
    write_jsonl(path, [{"a": 1}])
    with pytest.raises(RuntimeError):
        with atomic_writer(path) as handle:
            handle.write("partial")
            raise RuntimeError("boom")
    assert path.read_text() == '{"a":1}\n'
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]


def test_atomic_writer_output_gets_the_umask_mode_not_0600(tmp_path):
    import os

    old = os.umask(0o022)
    try:
        path = tmp_path / "out.tsv"
        with atomic_writer(path) as handle:
            handle.write("x\n")
    finally:
        os.umask(old)
    assert (path.stat().st_mode & 0o777) == 0o644


def test_last_line_cut_inside_a_string_is_truncated(tmp_path):
    error = error_for(write_bytes(tmp_path, b'{"a": 1}\n{"text": "In August 2014 Tol'))
    assert error.line == 2
    assert "truncated last line" in str(error)


# mtime=0: the stream (and so the test's id) is the same in every process, as pytest-xdist's workers need.
@pytest.mark.parametrize("data", [b"not gzip at all\n", gzip.compress(b'{"a": 1}\n{"a": 2}\n', mtime=0)[:-12]],
                         ids=["not-gzip", "cut-short"])
def test_broken_gzip_is_an_input_error_naming_the_file(tmp_path, data):
    # Not gzip at all, and a real gzip stream cut short (its 8-byte trailer and some data missing).
    path = write_bytes(tmp_path, data, "f.jsonl.gz")
    error = error_for(path)
    assert str(error).startswith(f"{path}: cannot decompress this .gz file")


@pytest.mark.parametrize(
    "line, message",
    [
        # Python's json accepts these; JSON (and orjson) does not, so the diagnosis must not call them fine.
        # Column 7 is where the value starts: { " s " : space = columns 1-6.
        (b'{"s": NaN}\n', "invalid JSON: NaN and Infinity are not JSON numbers (column 7); write a number or null"),
        # orjson stops after the sign: column 8 is the "I" ({ " s " : space - I = columns 1-8)
        (b'{"s": -Infinity}\n', "invalid JSON: NaN and Infinity are not JSON numbers (column 8); write a number or null"),
        (b'{"s": 1e400}\n', "invalid JSON: number is infinity when parsed as double (column 7)"),
        # A TREC line where JSON Lines was expected: Python would read "101" and then stop.
        (b"101 0 doc-1 1\n", "invalid JSON: this line is not a JSON object ('101 0 doc-1 1')"),
    ],
)
def test_values_only_python_accepts_are_named(tmp_path, line, message):
    error = error_for(write_bytes(tmp_path, b'{"a": 1}\n' + line))
    assert (error.line, error.problem.message) == (2, message)


def test_read_json_names_nan_with_its_line(tmp_path):
    path = write_bytes(tmp_path, b'{\n  "a": 1,\n  "b": NaN\n}\n', "f.json")
    with pytest.raises(InputError) as info:
        read_json(path)
    assert (info.value.line, info.value.problem.message) == (
        3, "invalid JSON: NaN and Infinity are not JSON numbers (column 8); write a number or null")


def test_atomic_writer_refuses_a_directory_and_an_unwritable_place(tmp_path):
    (tmp_path / "out").mkdir()
    with pytest.raises(InputError, match="is a directory; give the output a file name"):
        with atomic_writer(tmp_path / "out"):
            pass
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(InputError, match="cannot write the output here"):
        with atomic_writer(blocker / "sub" / "out.jsonl"):  # a parent that is a file cannot be made a directory
            pass
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "out"]  # no temporary file left behind
