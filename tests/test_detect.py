"""Format detection from content: every fixture is recognized as exactly one format, near misses are not confused."""
from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from argue_eval.errors import InputError
from argue_eval.formats import Probe, all_formats, detect
from argue_eval.formats.inventory import resolve_format

F = Path(__file__).parent / "fixtures" / "formats"

EXPECTED = {
    "requests.neuclir24.jsonl": ("requests", "neuclir24"),
    "requests.ragtime26.jsonl": ("requests", "ragtime26"),
    "requests.argue.jsonl": ("requests", "argue"),
    "topics.rag24.tsv": ("requests", "rag24"),
    "topics.rag24.header.tsv": ("requests", "rag24"),
    "topics.rag25.jsonl": ("requests", "rag25"),
    "nuggets.argue.jsonl": ("nuggets", "argue"),
    "nuggets.neuclir24-sample-eval.jsonl": ("nuggets", "neuclir24-eval"),
    "nuggets.neuclir24-eval.edge.jsonl": ("nuggets", "neuclir24-eval"),
    "nuggets.report-gen-eval-bank.jsonl": ("nuggets", "report-gen-eval"),
    "nuggets.autoargue-v3": ("nuggets", "autoargue-v3"),
    "nuggets.autoargue-v3/nuggets_101.v3.json": ("nuggets", "autoargue-v3"),
    "nuggets.autoargue-v3.edge": ("nuggets", "autoargue-v3"),
    "nuggets.ragtime-bank.jsonl": ("nuggets", "ragtime-bank"),
    "nuggets.nuggetizer.jsonl": ("nuggets", "nuggetizer"),
    "nuggets.nuggetizer.edge.jsonl": ("nuggets", "nuggetizer"),
    "run.argue.jsonl": ("runs", "argue"),
    "run.neuclir24.jsonl": ("runs", "neuclir24"),
    "run.neuclir24.edge.jsonl": ("runs", "neuclir24"),
    "run.ragtime.jsonl": ("runs", "ragtime"),
    "run.ragtime.edge.jsonl": ("runs", "ragtime"),
    "run.rag24.jsonl": ("runs", "rag24"),
    "run.rag25.jsonl": ("runs", "rag25"),
    "run.rag25.edge.jsonl": ("runs", "rag25"),
    "judgments.autoargue.jsonl": ("judgments", "autoargue"),
    "qrels.trec": ("qrels", "trec-qrels"),
    "run.ranked.trec": ("ranked", "trec-run"),
}

MINE = {"requests", "nuggets", "runs"}


def test_every_fixture_is_listed():
    assert sorted(p.name for p in F.iterdir()) == sorted({name.split("/")[0] for name in EXPECTED})


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_detects_fixture(name):
    spec = detect(F / name)
    assert (spec.kind, spec.name) == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_requests_nuggets_and_runs_sniffers_are_unambiguous(name):
    """At most one of our sniffers claims any fixture, and only the right one (no reliance on priority order)."""
    probe = Probe(F / name)
    claims = [(s.kind, s.name) for s in all_formats() if s.kind in MINE and s.sniff(probe)]
    expected = [EXPECTED[name]] if EXPECTED[name][0] in MINE else []
    if EXPECTED[name] == ("nuggets", "neuclir24-eval"):  # the same file holds a gold report: a run with --kind runs
        expected.append(("runs", "neuclir24-gold"))
    if EXPECTED[name] == ("judgments", "autoargue"):  # an Auto-ARGUE file holds the judged reports: a run with --kind runs
        expected.append(("runs", "autoargue"))
    assert claims == expected


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_detect_with_the_right_kind_and_refuses_the_wrong_one(name):
    kind, fmt = EXPECTED[name]
    assert detect(F / name, kind).name == fmt
    other = "runs" if kind != "runs" else "nuggets"
    if fmt == "neuclir24-eval":
        assert detect(F / name, "runs").name == "neuclir24-gold"
        return
    if (kind, fmt) == ("judgments", "autoargue"):
        assert detect(F / name, "runs").name == "autoargue"  # the judged reports, read as a run
        assert detect(F / name).kind == "judgments"  # without a kind the file is its judgments
        return
    with pytest.raises(InputError, match=f"cannot recognize the file as a known {other} format"):
        detect(F / name, other)


def one_line(tmp_path: Path, obj: object, name: str = "f.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(orjson.dumps(obj) + b"\n")
    return path


@pytest.mark.parametrize(
    "obj, expected",
    [
        # our run = the NeuCLIR shape + a metadata object or scores; without them it is NeuCLIR 2024
        ({"run_id": "r", "request_id": "1", "sentences": [], "metadata": {}}, ("runs", "argue")),
        ({"run_id": "r", "request_id": "1", "sentences": [{"text": "a", "citations": ["d"], "citation_scores": [1]}]},
         ("runs", "argue")),
        ({"run_id": "r", "request_id": "1", "sentences": [], "references": []}, ("runs", "neuclir24")),
        # an Auto-ARGUE judgments line holds a RAGTIME report: it is judgments, not a run
        ({"report": {"metadata": {"run_id": "r", "topic_id": "1"}, "responses": [], "references": []}, "judgments": []},
         ("judgments", "autoargue")),
        # nuggetizer statements vs. our nuggets
        ({"qid": "1", "query": "q", "nuggets": [{"text": "s", "importance": "vital"}]}, ("nuggets", "nuggetizer")),
        ({"request_id": "1", "nuggets": [{"question": "q", "answers": []}]}, ("nuggets", "argue")),
        ({"request_id": "1", "nuggets": []}, ("nuggets", "argue")),
        # RAGTIME nugget bank vs RAGTIME run: both have metadata
        ({"metadata": {"topic_id": "1"}, "nugget_bank": []}, ("nuggets", "ragtime-bank")),
        ({"metadata": {"topic_id": "1", "run_id": "r"}, "responses": []}, ("runs", "ragtime")),
        # RAG 25 narrative vs RAG 25 run
        ({"id": "7", "title": "narrative"}, ("requests", "rag25")),
        ({"metadata": {"run_id": "r", "narrative_id": "7"}, "references": [], "answer": []}, ("runs", "rag25")),
        ({"run_id": "r", "topic_id": "7", "references": [], "answer": []}, ("runs", "rag24")),
        # requests: ours carries limit_unit / language / aspects
        ({"request_id": "1", "problem_statement": "p", "limit_unit": "words"}, ("requests", "argue")),
        ({"request_id": "1", "problem_statement": "p", "limit": 10}, ("requests", "neuclir24")),
        ({"topic_id": "1", "problem_statement": "p"}, ("requests", "ragtime26")),
        # a compact one-line v3 bank
        ({"query_id": "1", "format_version": "v3", "nugget_bank": {}}, ("nuggets", "autoargue-v3")),
    ],
)
def test_near_misses(tmp_path, obj, expected):
    spec = detect(one_line(tmp_path, obj))
    assert (spec.kind, spec.name) == expected


@pytest.mark.parametrize(
    "obj",
    [
        {"doc_id": "d1", "title": "t", "text": "a collection document"},
        {"id": "d1", "title": "t", "text": "a collection document, id field"},
        {"request_id": "1", "sentence": "s"},
        {"something": "else"},
    ],
)
def test_unrecognized_content(tmp_path, obj):
    with pytest.raises(InputError, match="cannot recognize the file"):
        detect(one_line(tmp_path, obj))


def test_pretty_printed_jsonl_gets_the_precise_diagnosis(tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text(json.dumps({"run_id": "r", "request_id": "1", "sentences": []}, indent=2))
    with pytest.raises(InputError, match="looks pretty-printed"):
        detect(path)


def test_directory_without_banks_and_empty_file(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="is a directory, not a known format"):
        detect(tmp_path / "empty")
    # a folder of run files given as one run says to give the files in it
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "a.jsonl").write_text('{"run_id": "a", "request_id": "1", "sentences": []}\n')
    with pytest.raises(InputError, match=r"is a directory, not a known runs format .*give the files in it "
                                         r"\(e\.g\. .*runs/\*\.jsonl\)"):
        detect(runs, "runs")
    # --nuggets and --requests take one file: the folder's glob is no answer there (its other files would
    # become runs), so the message asks for the one file
    for kind in ("nuggets", "requests"):
        with pytest.raises(InputError, match=rf"is a directory, not a known {kind} format .*; give the {kind} "
                                             r"file in it \(.*runs/FILE\), not the directory$"):
            detect(runs, kind)
    (tmp_path / "e.jsonl").write_text("\n\n")
    with pytest.raises(InputError, match="file is empty"):
        detect(tmp_path / "e.jsonl")


def test_tsv_with_three_columns_is_not_rag24_topics(tmp_path):
    path = tmp_path / "x.tsv"
    path.write_text("1\tsome\tthing\n")
    with pytest.raises(InputError):
        detect(path, "requests")


def test_bom_file_is_detected_and_reading_explains_the_bom(tmp_path):
    from argue_eval.formats import read_reports

    path = tmp_path / "run.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + (F / "run.neuclir24.jsonl").read_bytes())
    assert detect(path).name == "neuclir24"
    with pytest.raises(InputError, match="byte-order mark"):
        list(read_reports(path))


def test_format_name_shared_by_kinds_is_resolved_by_content():
    assert (resolve_format(F / "topics.rag24.tsv", None, "rag24").kind) == "requests"
    assert (resolve_format(F / "run.rag24.jsonl", None, "rag24").kind) == "runs"
    assert resolve_format(F / "run.rag24.jsonl", "requests", "rag24").kind == "requests"  # --kind wins
    with pytest.raises(InputError, match="add --kind"):
        resolve_format(F / "qrels.trec", None, "rag24")
