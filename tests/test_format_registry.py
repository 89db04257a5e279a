"""Every format is registered once (``formats.MODULES`` -> each module's ``FORMATS``), and a format's reader and
its record parser (what ``validate`` and the validators' collecting readers run on each line) agree, on every
file of the test fixtures and the sample track that reads as that format."""
from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from argue_eval.errors import InputError, OptionError
from argue_eval.formats import KINDS, MODULES, all_formats, detect
from argue_eval.formats.requests import parse_request
from argue_eval.formats.runs import parse_report
from argue_eval.reading import iter_jsonl

REPO = Path(__file__).resolve().parent.parent
FILES = sorted(path for folder in ("tests/fixtures", "runs", "nuggets", "topics", "qrels")
               for path in (REPO / folder).rglob("*") if path.is_file() and not path.name.endswith(".argue-idx"))


def examples() -> dict[tuple[str, str], list[Path]]:
    """(kind, format name) -> the files that read as that format when that kind is asked for."""
    found: dict[tuple[str, str], list[Path]] = {}
    for path in FILES:
        for kind in KINDS:
            try:
                spec = detect(path, kind)  # type: ignore[arg-type]
            except InputError:
                continue
            found.setdefault((spec.kind, spec.name), []).append(path)
    return found


def outcome(read: Callable[[], list[Any]]) -> tuple[str, Any]:
    """The records read, or the error that stopped the reading (a fixture of broken files must stop both alike)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # lossy-read notes (Auto-ARGUE's judged sentences)
            return "records", read()
    except InputError as error:
        return "error", str(error)


def test_every_format_is_registered_once_under_its_module():
    names = Counter((spec.kind, spec.name) for spec in all_formats())
    assert [pair for pair, count in names.items() if count > 1] == []
    assert sum(len(MODULES.get(module)) for module in MODULES) == len(all_formats())


def test_every_reader_reads_what_its_record_parser_parses():
    """A JSON Lines format's reader is built from its parser (``jsonl_format``), or is a faster path beside it
    (canonical and NeuCLIR runs); Auto-ARGUE's run view reads the report of each line; a v3 bank reads one
    topic per file. Each must give the records its parser gives, one per line (or file)."""
    found = examples()
    parsing = [spec for spec in all_formats() if spec.parse is not None]
    assert {spec.name for spec in parsing} >= {"argue", "neuclir24", "ragtime", "autoargue", "autoargue-v3", "crux"}
    checked = []
    for spec in parsing:
        files = found.get((spec.kind, spec.name), [])
        for path in files:
            read = outcome(lambda: list(spec.read(path)))  # noqa: B023  (called at once)
            if spec.name == "autoargue-v3":  # a bank file: one topic
                parsed = outcome(lambda: [spec.parse_record(orjson.loads(path.read_bytes()), str(path), None)])  # noqa: B023
            else:
                parsed = outcome(lambda: [spec.parse_record(obj, str(path), line)  # noqa: B023
                                          for line, obj in iter_jsonl(path)])  # noqa: B023
            assert read == parsed, (spec.kind, spec.name, path)
        if files:
            checked.append((spec.kind, spec.name))
    assert sorted(checked) == sorted((spec.kind, spec.name) for spec in parsing)  # every parser met a file


def test_a_parser_asked_for_by_an_unknown_name_lists_the_formats_that_have_one():
    with pytest.raises(OptionError, match=r"unknown run format 'ragtim'; known: neuclir24-gold, answer-text, argue, "
                                          r"neuclir24, ragtime, rag24, rag25$"):
        parse_report({}, "ragtim", "run.jsonl", 1)
    # rag24 topics are TSV, read whole: they have no record parser
    with pytest.raises(OptionError, match="unknown JSON request format 'rag24'"):
        parse_request({}, "rag24", "topics.tsv", 1)


def test_a_record_that_is_not_an_object_is_located():
    spec = next(spec for spec in all_formats() if spec.kind == "runs" and spec.name == "ragtime")
    problems: list = []
    assert spec.parse_record([1, 2], "run.jsonl", 3, problems) is None
    assert [(p.path, p.line, p.field, p.message) for p in problems] == [
        ("run.jsonl", 3, None, "expected a JSON object, found an array")]
    with pytest.raises(InputError, match="run.jsonl:3: expected a JSON object"):
        spec.parse_record("text", "run.jsonl", 3)
