"""The JSON Lines reader names each way a participant's file can be broken, with its line."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from argue_eval.errors import InputError
from argue_eval.jsonio import atomic_writer, iter_jsonl, read_json, write_jsonl


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
