"""Request readers and the canonical request writer."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import orjson
import pytest

from argue_eval.errors import InputError, Problem
from argue_eval.formats import read_requests, write
from argue_eval.formats.requests import parse_request
from argue_eval.model import Location, Request

F = Path(__file__).parent / "fixtures" / "formats"


def modelled(request: Request) -> tuple:
    return tuple(getattr(request, f.name) for f in dataclasses.fields(request) if f.name != "source")


def test_neuclir24_requests():
    [request] = read_requests(F / "requests.neuclir24.jsonl")
    assert request.request_id == "101"
    assert request.title == "Lake Erie algal blooms"
    assert request.background.startswith("I am a staff writer")
    assert request.problem_statement.endswith("drinking water in Toledo.")
    assert (request.limit, request.limit_unit, request.collection_ids) == (2000, "chars", ("neuclir/1/zho",))
    assert (request.aspects, request.language, request.extra) == ((), None, {})
    assert request.source == Location(str(F / "requests.neuclir24.jsonl"), 1)


def test_ragtime26_topics_use_topic_id_and_single_collection():
    [request] = read_requests(F / "requests.ragtime26.jsonl")
    assert (request.request_id, request.collection_ids, request.limit) == ("2101", ("ragtime/2/all",), 5000)
    assert request.background == "Regional reporter."


def test_canonical_requests_keep_every_field():
    first, second = read_requests(F / "requests.argue.jsonl")
    assert first == Request(
        "2024-105741", "Tïtle", "bg", "ps", 250, "words", ("neuclir/1/zho",), ("causes", "effects"), "zho",
        {"owner": "organizer-7"},
    )
    assert second.request_id == "0102" and second.limit is None and second.source.line == 2


def test_rag24_tsv_topics():
    first, second = read_requests(F / "topics.rag24.tsv")
    assert (first.request_id, first.title, first.problem_statement) == (
        "2024-101", "how did algae affect toledo drinking water", "how did algae affect toledo drinking water"
    )
    assert (second.request_id, second.source.line) == ("2024-102", 2)


def test_rag24_tsv_skips_header_and_blank_lines_keeps_tabs_in_text():
    first, second = read_requests(F / "topics.rag24.header.tsv", "rag24")
    assert (first.request_id, first.problem_statement, first.source.line) == ("2024-105741", "café\tand a tab inside", 2)
    assert (second.request_id, second.source.line) == ("0102", 4)


def test_rag24_line_without_tab_is_located(tmp_path):
    path = tmp_path / "topics.tsv"
    path.write_text("1\tfine\n2 no tab here\n")
    with pytest.raises(InputError) as err:
        list(read_requests(path, "rag24"))
    assert str(err.value) == f"{path}:2: expected 'topic_id<TAB>query text' (no tab found on this line)"


def test_rag25_narrative_is_title_and_problem_statement():
    [request] = read_requests(F / "topics.rag25.jsonl")
    assert request.request_id == "7"
    assert request.problem_statement == request.title
    assert request.title.startswith("I live near Lake Erie")


@pytest.mark.parametrize(
    "obj, field, message",
    [
        ({"request_id": "1", "problem_statement": "p", "limit": "2000"}, "limit",
         "expected a positive whole number (the length limit), found a string ('2000')"),
        ({"request_id": "1", "problem_statement": "p", "limit_unit": "pages"}, "limit_unit",
         "expected one of 'chars', 'words', found a string ('pages')"),
        ({"request_id": "1", "problem_statement": "p", "aspects": "causes"}, "aspects",
         "expected a list of aspect strings, found a string ('causes')"),
        ({"problem_statement": "p"}, "request_id", "missing required field 'request_id' (expected a string id)"),
        ({"request_id": "1", "title": 3}, "title", "expected a string, found a number (3)"),
    ],
)
def test_request_errors_are_located(tmp_path, obj, field, message):
    path = tmp_path / "req.jsonl"
    path.write_bytes(orjson.dumps({"request_id": "0", "problem_statement": "ok"}) + b"\n" + orjson.dumps(obj) + b"\n")
    with pytest.raises(InputError) as err:
        list(read_requests(path, "argue"))
    assert str(err.value) == f"{path}:2: {field}: {message}"


def test_parse_request_lenient_collects_problems():
    problems: list[Problem] = []
    request = parse_request({"topic_id": 12, "collection_id": "c", "limit": -5}, "ragtime26", "t.jsonl", 3, problems)
    assert request is not None and request.request_id == "12" and request.limit is None
    assert [(p.field, p.severity) for p in problems] == [("topic_id", "warning"), ("limit", "error")]


@pytest.mark.parametrize(
    "name", ["requests.neuclir24.jsonl", "requests.ragtime26.jsonl", "requests.argue.jsonl", "topics.rag24.tsv",
             "topics.rag25.jsonl", "topics.rag24.header.tsv"],
)
def test_round_trip_through_canonical(name, tmp_path):
    original = list(read_requests(F / name))
    out = tmp_path / "requests.jsonl"
    assert write(original, out, "argue", "requests") == len(original)
    again = list(read_requests(out))  # detected as canonical: the writer always writes limit_unit etc.
    assert [modelled(r) for r in again] == [modelled(r) for r in original]
