"""Run readers and writers: every run format to ``Report``, located errors, ``parse_report`` for validation,
round trips through each writer."""
from __future__ import annotations

import dataclasses
import gzip
import warnings
from pathlib import Path

import orjson
import pytest

from argue_eval.errors import InputError, Problem
from argue_eval.formats import read_reports, write
from argue_eval.formats._fields import Fields, LossyWriteWarning
from argue_eval.formats.runs import _fast_sentences, _parse_sentences_family, parse_report
from argue_eval.model import Location, Report, Sentence

F = Path(__file__).parent / "fixtures" / "formats"


def reports(name: str, format: str | None = None) -> list[Report]:
    return list(read_reports(F / name, format))


def strip(report: Report) -> tuple:
    """Everything modelled, as a comparable value: every field but ``source`` (where a record was read)."""
    return tuple(getattr(report, f.name) for f in dataclasses.fields(report) if f.name != "source")


# ---------------------------------------------------------------------------------------------- readers
def test_neuclir24_fixture():
    [report] = reports("run.neuclir24.jsonl")
    assert (report.run_id, report.request_id, report.collection_ids) == ("team-a-run1", "101", ("neuclir/1/zho",))
    assert [s.citations for s in report.sentences] == [
        ("a1f3c2e0-1111-4a2b-9c3d-000000000001",),
        ("a1f3c2e0-3333-4a2b-9c3d-000000000003", "a1f3c2e0-2222-4a2b-9c3d-000000000002"),
        (),
    ]
    assert report.references is None and report.metadata == {}
    assert report.source == Location(str(F / "run.neuclir24.jsonl"), 1)


def test_neuclir24_edges_keep_duplicates_hash_ids_and_string_ids():
    first, second, third = reports("run.neuclir24.edge.jsonl")
    assert first.sentences[0].citations == ("doc#1", "doc#1")  # duplicates kept as given
    assert first.sentences[0].text == "Twice the same document: 重复."
    assert first.sentences[2].text == "" and first.sentences[2].citations == ()
    assert second.request_id == "0101"  # never int-coerced
    assert second.metadata == {"team_id": "c-team"}  # unknown top-level field kept
    assert second.source.line == 2 and third.source.line == 3
    assert third.sentences == []


def test_canonical_run_keeps_scores_references_metadata_and_sentence_extras():
    first, second = reports("run.argue.jsonl")
    assert first.run_id == "team-b#1" and first.request_id == "2024-105741"
    s0, s1, s2 = first.sentences
    assert s0.citations == ("msmarco_v2.1_doc_11_1042#3_2265", "msmarco_v2.1_doc_11_1042#3_2265", "d2")
    assert s0.citation_scores == (0.9, 0.8, 0.1)
    assert s1.citation_scores is None and s1.extra is None
    assert s2.extra == {"confidence": 0.5}
    assert first.references == ("msmarco_v2.1_doc_11_1042#3_2265", "d2")
    assert first.metadata == {"team_id": "team-b", "notes": "日本語"}
    assert second.references is None and second.metadata == {}


def test_ragtime_dict_and_list_citations():
    [report] = reports("run.ragtime.jsonl")
    assert (report.run_id, report.request_id) == ("team-a-rt1", "2101")
    assert report.sentences[0].citations == ("a1f3c2e0-1111-4a2b-9c3d-000000000001_4",)
    assert report.sentences[0].citation_scores == (92.5,)
    assert report.sentences[1].citation_scores is None
    assert report.metadata == {"team_id": "team-a", "task": "english"}
    [edge] = reports("run.ragtime.edge.jsonl")
    assert edge.collection_ids == ("ragtime/2/all",)
    assert edge.sentences[0].citations == ("p_1", "p_2") and edge.sentences[0].citation_scores == (0.5, 1)
    assert edge.sentences[1].citations == ("p_1", "p_1")
    assert edge.metadata == {"team_id": "t", "extra_top": [1, 2]}


def test_rag24_index_citations_resolve_to_ids():
    [report] = reports("run.rag24.jsonl")
    refs = ("msmarco_v2.1_doc_11_1042#3_2265", "msmarco_v2.1_doc_52_77#0_120")
    assert report.references == refs
    # citations [0] and [1, 0] index the references list
    assert [s.citations for s in report.sentences] == [(refs[0],), (refs[1], refs[0])]
    assert (report.run_id, report.request_id) == ("team-a-rag24", "2024-101")
    assert report.metadata == {"topic": "how did algae affect toledo drinking water", "response_length": 17}


def test_rag25_index_and_id_citations():
    [report] = reports("run.rag25.edge.jsonl")
    assert (report.run_id, report.request_id) == ("t-rag25", "12")
    # [1, "msmarco_v2.1_doc_00_1#0_0"]: index 1 is the second reference, the id stays as given
    assert report.sentences[0].citations == ("msmarco_v2.1_doc_00_2#1_5", "msmarco_v2.1_doc_00_1#0_0")
    assert report.metadata == {"team_id": "t", "type": "automatic", "narrative": "n"}


def test_gzipped_run_reads_like_plain(tmp_path):
    target = tmp_path / "run.jsonl.gz"
    target.write_bytes(gzip.compress((F / "run.neuclir24.jsonl").read_bytes()))
    assert [strip(r) for r in read_reports(target)] == [strip(r) for r in reports("run.neuclir24.jsonl")]


# ------------------------------------------------------------------------------ fast path == careful path
@pytest.mark.parametrize("name", ["run.neuclir24.jsonl", "run.neuclir24.edge.jsonl", "run.argue.jsonl"])
def test_fast_path_builds_what_the_careful_parser_builds(name):
    for lineno, line in enumerate((F / name).read_bytes().splitlines(), 1):
        obj = orjson.loads(line)
        careful = _parse_sentences_family(obj, Fields(name, lineno))
        fast = _fast_sentences(obj, name, lineno)
        if fast is not None:
            assert strip(fast) == strip(careful)
            assert fast.source == careful.source


@pytest.mark.parametrize(
    "obj",
    [
        {"run_id": "r", "request_id": 5, "sentences": []},
        {"run_id": "r", "request_id": "q", "sentences": [{"text": "a", "citations": ["d", 3]}]},
        {"run_id": "r", "request_id": "q", "sentences": [{"text": "a", "citations": [""]}]},
        {"run_id": "r", "request_id": "q", "sentences": [], "references": ["d", ""]},
        {"run_id": "r", "request_id": "q", "sentences": [], "collection_ids": [" "]},
        {"run_id": "r", "request_id": "q", "sentences": [{"text": "a", "citations": ["d"], "citation_scores": [1]}]},
        {"run_id": "r", "request_id": "q", "sentences": "no"},
        {"run_id": " ", "request_id": "q", "sentences": []},
    ],
)
def test_fast_path_declines_anything_unusual(obj):
    assert _fast_sentences(obj, "x", 1) is None


# ------------------------------------------------------------------------------ errors (strict reading)
def write_lines(path: Path, *objs: object) -> Path:
    path.write_bytes(b"".join(orjson.dumps(o) + b"\n" for o in objs))
    return path


GOOD = {"request_id": "1", "run_id": "r", "collection_ids": [], "sentences": [{"text": "a", "citations": []}]}


def test_bad_citation_type_is_located(tmp_path):
    bad = {**GOOD, "sentences": [{"text": "a", "citations": []}, {"text": "b", "citations": ["d1", 3]}]}
    path = write_lines(tmp_path / "run.jsonl", GOOD, bad)
    with pytest.raises(InputError) as err:
        list(read_reports(path, "neuclir24"))
    assert str(err.value) == f"{path}:2: sentences[1].citations[1]: expected a document id string, found a number (3)"


def test_missing_run_id_is_located(tmp_path):
    path = write_lines(tmp_path / "run.jsonl", {k: v for k, v in GOOD.items() if k != "run_id"})
    with pytest.raises(InputError, match=r":1: run_id: missing required field 'run_id'"):
        list(read_reports(path, "neuclir24"))


def test_empty_reference_id_is_located(tmp_path):
    # An empty id in references is as unusable as one in citations (both name documents).
    path = write_lines(tmp_path / "run.jsonl", {**GOOD, "references": ["d1", ""]})
    with pytest.raises(InputError) as err:
        list(read_reports(path, "neuclir24"))
    assert str(err.value) == f"{path}:1: references[1]: expected a non-empty string id, found an empty string"


def test_rag24_index_out_of_range_is_located(tmp_path):
    line = {"run_id": "r", "topic_id": "t", "references": ["a", "b"], "answer": [{"text": "x", "citations": [0, 2]}]}
    path = write_lines(tmp_path / "run.jsonl", line)
    with pytest.raises(InputError) as err:
        list(read_reports(path, "rag24"))
    assert str(err.value) == (
        f"{path}:1: answer[0].citations[1]: citation index 2 is out of range: references has 2 entries (valid indexes 0-1)"
    )


def test_ragtime_non_numeric_score_is_located(tmp_path):
    line = {"metadata": {"run_id": "r", "topic_id": "t"}, "responses": [{"text": "x", "citations": {"d1": "high"}}]}
    path = write_lines(tmp_path / "run.jsonl", line)
    with pytest.raises(InputError, match=r":1: responses\[0\]\.citations\.d1: expected a numeric citation score"):
        list(read_reports(path, "ragtime"))


def test_pretty_printed_run_says_so(tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_bytes(orjson.dumps(GOOD, option=orjson.OPT_INDENT_2))
    with pytest.raises(InputError, match="pretty-printed"):
        list(read_reports(path))


# ------------------------------------------------------------------------------ parse_report, lenient
def test_parse_report_collects_every_problem_and_keeps_what_is_usable():
    problems: list[Problem] = []
    obj = {
        "run_id": "r", "request_id": 7,
        "sentences": [
            {"text": "a", "citations": ["d1", 3, ""]},
            {"text": None, "citations": []},
            "not a sentence",
            {"text": "b", "citations": ["d1", "d2"], "citation_scores": [0.5]},
            {"text": "c", "citations": ["d1"], "citation_scores": ["x"]},
        ],
    }
    report = parse_report(obj, "argue", "run.jsonl", 4, problems)
    assert [str(p) for p in problems] == [
        "run.jsonl:4: request_id: warning: id given as a number (7); ids should be JSON strings, read as '7'",
        "run.jsonl:4: sentences[0].citations[1]: expected a document id string, found a number (3)",
        "run.jsonl:4: sentences[0].citations[2]: expected a document id, found an empty string",
        "run.jsonl:4: sentences[1].text: expected a string, found null",
        "run.jsonl:4: sentences[2]: expected a sentence object {text, citations}, found a string ('not a sentence')",
        "run.jsonl:4: sentences[3].citation_scores: has 1 scores but citations has 2 entries; they must be parallel",
        "run.jsonl:4: sentences[4].citation_scores[0]: expected a number, found a string ('x')",
    ]
    assert report is not None and report.request_id == "7"
    assert [s.citations for s in report.sentences] == [("d1",), (), ("d1", "d2"), ("d1",)]
    assert [s.citation_scores for s in report.sentences] == [None, None, None, None]


def test_single_string_collection_id_is_tolerated_with_a_warning():
    problems: list[Problem] = []
    obj = {"metadata": {"run_id": "r", "topic_id": "1", "collection_ids": "ragtime/2/all"}, "responses": []}
    report = parse_report(obj, "ragtime", "f", 1, problems)
    assert report is not None and report.collection_ids == ("ragtime/2/all",)
    assert [(p.field, p.severity) for p in problems] == [("metadata.collection_ids", "warning")]
    strict = parse_report({**GOOD, "collection_ids": "neuclir/1/zho"}, "neuclir24", "f", 1)
    assert strict.collection_ids == ("neuclir/1/zho",)


def test_parse_report_returns_none_when_unusable():
    problems: list[Problem] = []
    assert parse_report({"metadata": {"run_id": "r"}, "responses": []}, "ragtime", "f", 1, problems) is None
    assert [p.field for p in problems] == ["metadata.topic_id"]
    problems.clear()
    assert parse_report({"run_id": "r", "topic_id": "t", "answer": {}}, "rag24", "f", 2, problems) is None
    assert [(p.field, p.severity) for p in problems] == [("answer", "error")]
    problems.clear()
    assert parse_report([], "argue", "f", 3, problems) is None
    assert problems[0].message == "expected a JSON object, found an array"


def test_parse_report_rag_index_problems():
    problems: list[Problem] = []
    obj = {"run_id": "r", "topic_id": "t", "answer": [{"text": "x", "citations": [0, "d", True, -1]}]}
    report = parse_report(obj, "rag24", "f", 1, problems)
    assert [p.message for p in problems] == [
        "citation index 0 cannot be resolved: the report has no references",
        "expected an index into references (an integer), found a string ('d')",
        "expected an index into references (an integer), found a boolean",
        "citation index -1 cannot be resolved: the report has no references",
    ]
    assert report is not None and report.sentences[0].citations == ()


def test_parse_report_strict_raises_first_error():
    with pytest.raises(InputError) as err:
        parse_report({"run_id": "r", "request_id": "q", "sentences": [{"citations": []}]}, "neuclir24", "f.jsonl", 9)
    assert str(err.value) == "f.jsonl:9: sentences[0].text: missing required field 'text' (expected a string)"


def test_parse_report_unknown_format_is_a_programming_error():
    with pytest.raises(ValueError):
        parse_report({}, "nope", "f", 1)


# ---------------------------------------------------------------------------------------------- writers
ALL_RUN_FIXTURES = [
    "run.neuclir24.jsonl", "run.neuclir24.edge.jsonl", "run.argue.jsonl", "run.ragtime.jsonl",
    "run.ragtime.edge.jsonl", "run.rag24.jsonl", "run.rag25.jsonl", "run.rag25.edge.jsonl",
]


@pytest.mark.parametrize("name", ALL_RUN_FIXTURES)
def test_round_trip_through_canonical_is_exact(name, tmp_path):
    original = reports(name)
    out = tmp_path / "out.jsonl"
    assert write(original, out, "argue", "runs") == len(original)
    again = list(read_reports(out, "argue"))
    assert [strip(r) for r in again] == [strip(r) for r in original]
    assert list(read_reports(out)) == again  # and it is detected as canonical


@pytest.mark.parametrize("name", ["run.neuclir24.jsonl", "run.neuclir24.edge.jsonl", "run.rag24.jsonl"])
def test_round_trip_through_neuclir24_is_exact_without_scores(name, tmp_path):
    original = reports(name)
    out = tmp_path / "out.jsonl"
    with warnings.catch_warnings():
        warnings.simplefilter("error", LossyWriteWarning)  # nothing to lose here
        write(original, out, "neuclir24", "runs")
    again = list(read_reports(out))
    assert [strip(r) for r in again] == [strip(r) for r in original]


@pytest.mark.parametrize("name", ["run.ragtime.jsonl", "run.ragtime.edge.jsonl", "run.rag24.jsonl", "run.rag25.edge.jsonl"])
def test_round_trip_through_ragtime_is_exact(name, tmp_path):
    original = reports(name)
    out = tmp_path / "out.jsonl"
    with warnings.catch_warnings():
        warnings.simplefilter("error", LossyWriteWarning)
        write(original, out, "ragtime", "runs")
    again = list(read_reports(out))
    assert [strip(r) for r in again] == [strip(r) for r in original]


def test_neuclir24_writer_drops_scores_with_a_warning(tmp_path):
    original = reports("run.argue.jsonl")
    out = tmp_path / "out.jsonl"
    with pytest.warns(LossyWriteWarning, match=r"dropped the citation scores of 1 sentence\(s\)"):
        write(original, out, "neuclir24", "runs")
    again = list(read_reports(out))
    for before, after in zip(original, again):
        assert after.sentences == [dataclasses.replace(s, citation_scores=None) for s in before.sentences]
        assert (after.references, after.metadata) == (before.references, before.metadata)


def test_ragtime_writer_keeps_repeated_scored_citation_once_and_makes_references(tmp_path):
    original = reports("run.argue.jsonl")
    out = tmp_path / "out.jsonl"
    with pytest.warns(LossyWriteWarning) as caught:
        write(original, out, "ragtime", "runs")
    messages = sorted(str(w.message) for w in caught)
    assert messages == [
        "ragtime: 1 report(s) had no references list; wrote their cited documents, in order of first citation",
        "ragtime: kept 1 repeated scored citation(s) once: a {doc_id: score} object cannot repeat a document",
    ]
    first, second = read_reports(out)
    assert first.sentences[0].citations == ("msmarco_v2.1_doc_11_1042#3_2265", "d2")
    assert first.sentences[0].citation_scores == (0.9, 0.1)
    assert first.sentences[1:] == original[0].sentences[1:]
    assert second.references == ("d3", "d4")


def test_written_lines_are_byte_identical_on_rerun(tmp_path):
    original = reports("run.argue.jsonl")
    write(original, tmp_path / "a.jsonl", "argue", "runs")
    write(original, tmp_path / "b.jsonl", "argue", "runs")
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    first = orjson.loads((tmp_path / "a.jsonl").read_bytes().splitlines()[0])
    assert list(first) == ["run_id", "request_id", "collection_ids", "sentences", "references", "metadata"]


def test_writer_is_atomic_when_reading_fails_midway(tmp_path):
    path = write_lines(tmp_path / "run.jsonl", GOOD, {**GOOD, "run_id": None})
    out = tmp_path / "out.jsonl"
    out.write_text("previous\n")
    with pytest.raises(InputError):
        write(read_reports(path, "neuclir24"), out, "argue", "runs")
    assert out.read_text() == "previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl", "run.jsonl"]


def test_report_model_helpers_on_read_records():
    [report] = reports("run.neuclir24.jsonl")
    # 60 + 39 + 37 characters, no separators
    assert report.character_count == 60 + 39 + 37
    assert isinstance(report.sentences[0], Sentence)


# ------------------------------------------------------------------------------ property: any report round-trips
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_ids = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=12).filter(lambda s: s.strip() != "")  # readers refuse control characters in ids
_json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**40, 2**40), st.text(max_size=8))
_scores = st.one_of(st.integers(-1000, 1000), st.floats(allow_nan=False, allow_infinity=False, width=64))


@st.composite
def _sentences(draw):
    citations = tuple(draw(st.lists(st.sampled_from(["d1", "d#2", "msmarco_v2.1_doc_1#0_1", "0101"]), max_size=4)))
    scores = draw(st.one_of(st.none(), st.lists(_scores, min_size=len(citations), max_size=len(citations)).map(tuple)))
    extra = draw(st.one_of(st.none(), st.dictionaries(st.sampled_from(["note", "confidence"]), _json_scalars, min_size=1)))
    return Sentence(draw(st.text(max_size=30)), citations, scores, extra)


_reports = st.builds(
    Report,
    run_id=_ids,
    request_id=_ids,
    sentences=st.lists(_sentences(), max_size=5),
    references=st.one_of(st.none(), st.lists(_ids, max_size=3).map(tuple)),
    collection_ids=st.lists(_ids, max_size=2).map(tuple),
    metadata=st.dictionaries(st.sampled_from(["team_id", "task", "type"]), _json_scalars, max_size=3),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=st.lists(_reports, min_size=1, max_size=4))
def test_any_report_round_trips_through_canonical_and_ragtime(tmp_path, batch):
    out = tmp_path / "out.jsonl"
    write(batch, out, "argue", "runs")
    assert list(read_reports(out)) == batch
    # the fast path sees these lines too when they are clean; whichever path ran, the records are equal
    for lineno, line in enumerate(out.read_bytes().splitlines(), 1):
        fast = _fast_sentences(orjson.loads(line), str(out), lineno)
        assert fast is None or fast == batch[lineno - 1]
    unique = [r for r in batch if all(s.citation_scores is None or len(set(s.citations)) == len(s.citations)
                                      for s in r.sentences) and r.references is not None]
    if unique:
        with warnings.catch_warnings():
            warnings.simplefilter("error", LossyWriteWarning)
            write(unique, out, "ragtime", "runs")
        assert list(read_reports(out, "ragtime")) == unique
    unscored = [dataclasses.replace(r, sentences=[dataclasses.replace(s, citation_scores=None) for s in r.sentences])
                for r in batch]
    with warnings.catch_warnings():
        warnings.simplefilter("error", LossyWriteWarning)
        write(unscored, out, "neuclir24", "runs")
    assert list(read_reports(out, "neuclir24")) == unscored
