"""``argue-eval schema KIND``: the JSON Schemas of the canonical files agree with the readers and the writers.

Every line of every shipped file in a canonical format (the sample track, the test fixtures, the examples of
docs/formats.md) is checked twice: by the schema, and by the format's own careful parser. A line the parser
reads without a problem must satisfy the schema, and a line the parser calls an error must not (warnings, such as
an id given as a number, are not asserted: the schema is the strict contract, the reader forgives). Then every
fixture in another format is converted to the canonical one by our writer, and the writer's lines must satisfy
the schema too.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.errors import InputError, Problem
from argue_eval.formats import detect, read, write
from argue_eval.formats.schemas import SCHEMAS, schema

jsonschema = pytest.importorskip("jsonschema")

REPO = Path(__file__).resolve().parent.parent
SHIPPED = sorted({*REPO.glob("runs/sample/*.jsonl"), *REPO.glob("topics/sample/*.jsonl"), *REPO.glob("nuggets/sample/*.jsonl"),
                  *REPO.glob("qrels/sample/*.jsonl"), *REPO.glob("tests/fixtures/**/*.jsonl")})
CANONICAL = {("requests", "argue"): "requests", ("nuggets", "argue"): "nuggets", ("runs", "argue"): "runs",
             ("runs", "neuclir24"): "runs", ("judgments", "argue"): "judgments"}
COLLECTIONS = [REPO / "topics/sample/collection.jsonl", REPO / "tests/fixtures/collection/docs.jsonl",
               REPO / "tests/fixtures/argue/collection.jsonl", REPO / "tests/fixtures/organizer/collection.jsonl",
               REPO / "tests/fixtures/validate/collection.jsonl"]


def validator(kind: str):
    return jsonschema.Draft202012Validator(schema(kind))


def canonical_files() -> list[tuple[Path, str, str]]:
    found = []
    for path in SHIPPED:
        try:
            spec = detect(path)
        except InputError:
            continue
        kind = CANONICAL.get((spec.kind, spec.name))
        if kind is not None:
            found.append((path, kind, spec.name))
    return found


def parse_problems(kind: str, format_name: str, obj: dict, path: Path, line: int) -> list[Problem]:
    """The parser's problems of one line (errors and warnings)."""
    from argue_eval.formats.judgments import parse_judgment
    from argue_eval.formats.nuggets import parse_topic
    from argue_eval.formats.requests import parse_request
    from argue_eval.formats.runs import parse_report

    problems: list[Problem] = []
    if kind == "judgments":
        try:
            parse_judgment(obj, str(path), line)
        except InputError as error:
            problems.append(error.problem)
        return problems
    parser = {"requests": parse_request, "nuggets": parse_topic, "runs": parse_report}[kind]
    parser(obj, format_name, str(path), line, problems)
    return problems


def test_every_schema_is_a_valid_draft_2020_12_schema():
    assert sorted(SCHEMAS) == ["collection", "judgments", "nuggets", "requests", "runs"]
    for kind in SCHEMAS:
        jsonschema.Draft202012Validator.check_schema(schema(kind))


def test_the_shipped_files_cover_every_canonical_kind():
    kinds = {kind for _, kind, _ in canonical_files()}
    assert kinds == {"requests", "nuggets", "runs", "judgments"}
    assert len(canonical_files()) >= 15


@pytest.mark.parametrize("path, kind, format_name", canonical_files(), ids=lambda v: str(v).rsplit("/", 1)[-1])
def test_shipped_lines_the_reader_takes_satisfy_the_schema_and_lines_it_refuses_do_not(path, kind, format_name):
    check = validator(kind)
    for line, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not text.strip():
            continue
        obj = json.loads(text)
        problems = parse_problems(kind, format_name, obj, path, line)
        schema_errors = [error.message for error in check.iter_errors(obj)]
        if not problems:
            assert schema_errors == [], f"{path}:{line}: the reader takes it, the schema says {schema_errors}"
        elif any(p.severity == "error" for p in problems):
            assert schema_errors, f"{path}:{line}: the reader refuses it ({problems[0]}), the schema takes it"


def test_the_problem_fixtures_are_refused_by_the_schema_too():
    """The fixtures made to fail reading do fail the schema: the rule above is not vacuous."""
    refused = 0
    for path, kind, format_name in canonical_files():
        if "problems" not in path.name and "edge" not in path.name:
            continue
        for line, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            obj = json.loads(text)
            if any(p.severity == "error" for p in parse_problems(kind, format_name, obj, path, line)):
                refused += not validator(kind).is_valid(obj)
    assert refused >= 2  # nuggets.problems.jsonl:2 (importance), requests.problems.jsonl:3 (limit -5, unit pages)


@pytest.mark.parametrize("path", COLLECTIONS, ids=lambda p: str(p.relative_to(REPO)))
def test_shipped_collections_satisfy_the_collection_schema(path):
    check = validator("collection")
    for line, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        assert check.is_valid(json.loads(text)), f"{path}:{line}"


def test_the_examples_of_docs_formats_satisfy_their_schemas():
    doc = (REPO / "docs" / "formats.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Canonical formats (ours)"):doc.index("## Formats we read")]
    blocks = re.findall(r"```json\n(.*?)```", section, re.S)
    assert len(blocks) == 3
    for kind, block in zip(("requests", "nuggets", "runs"), blocks):
        obj = json.loads(block)
        assert validator(kind).is_valid(obj), [e.message for e in validator(kind).iter_errors(obj)]


@pytest.mark.parametrize("source", [p for p in SHIPPED if p.parent.name == "formats" and not p.name.startswith("judgments")],
                         ids=lambda p: p.name)
def test_what_the_canonical_writer_writes_satisfies_the_schema(source, tmp_path):
    spec, records = read(source)
    if spec.kind not in ("requests", "nuggets", "runs"):
        pytest.skip(f"{spec.kind}: not a canonical JSON kind")
    target = tmp_path / "out.jsonl"
    write(records, target, "argue", spec.kind)
    for line in target.read_text(encoding="utf-8").splitlines():
        assert validator(spec.kind).is_valid(json.loads(line)), line


@pytest.mark.parametrize("kind, obj", [
    ("requests", {"request_id": "q1", "limit": "2000"}),
    ("requests", {"request_id": "q\x1b1"}),
    ("nuggets", {"request_id": "q1", "nuggets": [{"question": "Who?", "importance": "high"}]}),
    ("runs", {"run_id": "r1", "request_id": "q1"}),
    ("runs", {"run_id": "r1", "request_id": "q1", "sentences": [{"text": "x", "citations": [3]}]}),
    ("judgments", {"kind": "relevant", "request_id": "q1", "sentence": "x", "value": True, "judge": "human"}),
    ("judgments", {"kind": "first_instance", "request_id": "q1", "sentence": "x", "doc_id": None, "value": True,
                   "judge": "lexical", "run_id": "r1"}),
    ("collection", {"text": "a document without an id"}),
])
def test_lines_the_readers_refuse_fail_the_schema(kind, obj):
    assert not validator(kind).is_valid(obj)


def test_the_command_prints_the_schema_and_lists_the_kinds(tmp_path):
    result = CliRunner().invoke(cli, ["schema", "judgments"])
    assert result.exit_code == 0 and json.loads(result.output) == schema("judgments")
    result = CliRunner().invoke(cli, ["schema", "runs", "-o", str(tmp_path / "runs.schema.json")])
    assert result.exit_code == 0 and json.loads((tmp_path / "runs.schema.json").read_text()) == schema("runs")
    listing = CliRunner().invoke(cli, ["schema"]).output.splitlines()
    assert [line.split()[0] for line in listing] == list(SCHEMAS)
    result = CliRunner().invoke(cli, ["schema", "qrels"])
    assert result.exit_code == 2 and "unknown schema 'qrels'" in result.output
