"""The shipped sample track is complete, consistent and regenerable.

Every demo, doc example and many tests rely on ``topics/``, ``nuggets/``, ``runs/`` and ``qrels/`` under
``sample/``. These tests read the files with json and ``argue_eval.reading`` only (not the format readers),
so a broken sample is reported as a data problem, not as a reader bug, and check what the track promises:
ids resolve, nuggets are bound, every run has the property it exists to show, the qrels and judgments cover
every sentence and citation, and the generated files are exactly what the authoring sources produce.
"""
from __future__ import annotations

import filecmp
import subprocess
import sys
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from argue_eval.reading import iter_jsonl

REPO = Path(__file__).resolve().parent.parent
REQUESTS = REPO / "topics/sample/requests.jsonl"
COLLECTION = REPO / "topics/sample/collection.jsonl"
NUGGETS = REPO / "nuggets/sample/nuggets.jsonl"
RUNS = REPO / "runs/sample"
QRELS = REPO / "qrels/sample/qrels.trec"
JUDGMENTS = REPO / "qrels/sample/judgments.jsonl"
ANNOTATIONS = REPO / "tools/sample_track/annotations.jsonl"
TOOLS = REPO / "tools/sample_track"

RUN_IDS = {"careful", "hallucinating", "wrong-cites", "no-citations", "too-long", "misses-topics"}
JUDGE = "human:sample-assessor"

Report = tuple[str, str, list[tuple[str, list[str]]]]


def rows(path: Path) -> list[dict[str, Any]]:
    return [obj for _line, obj in iter_jsonl(path)]


@pytest.fixture(scope="module")
def requests() -> dict[str, dict[str, Any]]:
    return {r["request_id"]: r for r in rows(REQUESTS)}


@pytest.fixture(scope="module")
def collection() -> dict[str, dict[str, Any]]:
    return {d["doc_id"]: d for d in rows(COLLECTION)}


@pytest.fixture(scope="module")
def nuggets() -> dict[str, list[dict[str, Any]]]:
    return {t["request_id"]: t["nuggets"] for t in rows(NUGGETS)}


def read_run(path: Path) -> list[Report]:
    """Reports as (run_id, request_id, [(text, citations)]) from the canonical or the RAGTIME shape."""
    reports: list[Report] = []
    for obj in rows(path):
        if "responses" in obj:
            assert set(obj) == {"metadata", "responses", "references"}, path
            sentences = [(r["text"], list(r["citations"])) for r in obj["responses"]]
            reports.append((obj["metadata"]["run_id"], obj["metadata"]["topic_id"], sentences))
        else:
            assert {"run_id", "request_id", "collection_ids", "sentences"} <= set(obj), path
            sentences = [(s["text"], list(s["citations"])) for s in obj["sentences"]]
            reports.append((obj["run_id"], obj["request_id"], sentences))
    return reports


@pytest.fixture(scope="module")
def runs() -> dict[str, list[Report]]:
    return {path.stem: read_run(path) for path in sorted(RUNS.glob("*.jsonl"))}


@pytest.fixture(scope="module")
def judgments() -> list[dict[str, Any]]:
    return rows(JUDGMENTS)


@pytest.fixture(scope="module")
def annotations() -> dict[tuple[str, str, int], dict[str, Any]]:
    return {(a["run_id"], a["request_id"], a["sentence_index"]): a for a in rows(ANNOTATIONS)}


def nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def length(sentences: list[tuple[str, list[str]]], unit: str) -> int:
    """Report length as validate counts it: NFKC characters summed over sentences, or words."""
    if unit == "words":
        return sum(len(nfkc(text).split()) for text, _ in sentences)
    return sum(len(nfkc(text)) for text, _ in sentences)


def bound_docs(topic: list[dict[str, Any]]) -> set[str]:
    return {doc for nugget in topic for answer in nugget["answers"] for doc in answer["doc_ids"]}


def norm(text: str) -> str:
    return " ".join(nfkc(text).split())


# ----------------------------------------------------------------------------------------------- requests
def test_requests_are_canonical_and_varied(requests: dict[str, dict[str, Any]]) -> None:
    assert sorted(requests) == [f"s0{i}" for i in range(1, 9)]
    for request in requests.values():
        assert request["title"] and request["background"] and request["problem_statement"]
        assert request["collection_ids"] == ["sample-news"]
        assert request["language"] == "en"
        assert 3 <= len(request["aspects"]) <= 5
        assert request["limit_unit"] in ("chars", "words")
    units = Counter((r["limit"], r["limit_unit"]) for r in requests.values())
    assert units == {(2000, "chars"): 7, (250, "words"): 1}


def test_collection_ids_unique_and_documents_news_sized(collection: dict[str, dict[str, Any]]) -> None:
    ids = [d["doc_id"] for d in rows(COLLECTION)]
    assert len(ids) == len(set(ids)) == len(collection)
    assert 100 <= len(collection) <= 140
    for doc in collection.values():
        assert set(doc) == {"doc_id", "title", "text"}
        assert doc["doc_id"].startswith("nw-") and doc["title"]
        assert 60 <= len(doc["text"].split()) <= 200, doc["doc_id"]
        assert " 2025 (" in doc["text"][:80] or " 2024 (" in doc["text"][:80], doc["doc_id"]  # dated, sourced


# ------------------------------------------------------------------------------------------------ nuggets
def test_every_topic_has_nuggets_with_unique_ids(requests, nuggets) -> None:
    assert sorted(nuggets) == sorted(requests)
    ids = [n["nugget_id"] for topic in nuggets.values() for n in topic]
    assert len(ids) == len(set(ids))
    for request_id, topic in nuggets.items():
        assert 4 <= len(topic) <= 7
        assert all(n["nugget_id"].startswith(f"{request_id}-n") for n in topic)
        assert {n["importance"] for n in topic} == {"vital", "okay"}


def test_answers_are_bound_unless_negative(nuggets, collection) -> None:
    for topic in nuggets.values():
        for nugget in topic:
            assert nugget["aggregator"] in ("OR", "AND")
            texts = [a["answer"] for a in nugget["answers"]]
            assert len(texts) == len(set(texts)), nugget["nugget_id"]
            if nugget["negative"]:
                assert nugget["answers"] == [{"answer": "no", "doc_ids": []}], nugget["nugget_id"]
            else:
                for answer in nugget["answers"]:
                    assert answer["doc_ids"], (nugget["nugget_id"], answer["answer"])
                    assert set(answer["doc_ids"]) <= set(collection), nugget["nugget_id"]


def test_and_and_negative_nuggets_exist(nuggets) -> None:
    flat = [n for topic in nuggets.values() for n in topic]
    and_nuggets = [n for n in flat if n["aggregator"] == "AND"]
    assert and_nuggets and all(len(n["answers"]) >= 2 for n in and_nuggets)
    assert any(n["negative"] for n in flat)


# --------------------------------------------------------------------------------------------------- runs
def test_six_runs_with_unique_reports(runs, requests, collection) -> None:
    assert set(runs) == RUN_IDS
    for name, reports in runs.items():
        assert {run_id for run_id, _, _ in reports} == {name}
        topics = [request_id for _, request_id, _ in reports]
        assert len(topics) == len(set(topics)), name
        assert set(topics) <= set(requests)
        for _, request_id, sentences in reports:
            assert 4 <= len(sentences) <= 10, (name, request_id)
            for text, citations in sentences:
                assert text.strip()
                assert set(citations) <= set(collection), (name, request_id, citations)


def test_misses_topics_covers_five_topics_and_the_others_all_eight(runs) -> None:
    for name, reports in runs.items():
        assert len(reports) == (5 if name == "misses-topics" else 8), name


def test_no_citations_has_none_and_the_others_cite(runs) -> None:
    for name, reports in runs.items():
        cited = sum(len(citations) for _, _, sentences in reports for _, citations in sentences)
        assert (cited == 0) == (name == "no-citations"), name


def test_too_long_exceeds_every_limit_and_careful_stays_within(runs, requests) -> None:
    for _run_id, request_id, sentences in runs["too-long"]:
        request = requests[request_id]
        # "far over": at least a quarter above the limit (the shortest is s08, 2530 of 2000 characters).
        assert length(sentences, request["limit_unit"]) > 1.25 * request["limit"], request_id
    for _run_id, request_id, sentences in runs["careful"]:
        request = requests[request_id]
        assert length(sentences, request["limit_unit"]) <= request["limit"], request_id


def test_wrong_cites_is_ragtime_shaped_with_matching_references() -> None:
    for obj in rows(RUNS / "wrong-cites.jsonl"):
        cited = [doc for r in obj["responses"] for doc in r["citations"]]
        assert all(isinstance(r["citations"], dict) for r in obj["responses"])
        assert all(0 < score <= 1 for r in obj["responses"] for score in r["citations"].values())
        assert obj["references"] == list(dict.fromkeys(cited))


def test_realistic_touches_are_present(runs) -> None:
    sentences = [(name, s) for name, reports in runs.items() for _, _, ss in reports for s in ss]
    assert any(len(c) != len(set(c)) for _, (_, c) in sentences), "a sentence citing one document twice"
    texts = Counter(text for _, (text, _) in sentences)
    assert any(n > 1 for n in texts.values()), "a sentence shared by two runs"


def test_run_qualities_follow_from_the_judgments(runs, nuggets, judgments) -> None:
    """Careful's citations all attest; most of hallucinating's do not; most of wrong-cites' are irrelevant."""
    attested = {(j["request_id"], norm(j["sentence"]), j["doc_id"]): j["value"] for j in judgments
                if j["kind"] == "attested"}

    def share(name: str, test) -> float:
        pairs = [(rid, text, doc) for _, rid, ss in runs[name] for text, cites in ss for doc in set(cites)]
        return sum(test(rid, text, doc) for rid, text, doc in pairs) / len(pairs)

    def supported(rid: str, text: str, doc: str) -> bool:
        return attested[(rid, norm(text), doc)]

    assert share("careful", supported) == 1.0
    assert share("hallucinating", supported) < 0.5
    assert share("wrong-cites", supported) < 0.25
    assert share("wrong-cites", lambda rid, text, doc: doc in bound_docs(nuggets[rid])) < 0.3
    assert share("hallucinating", lambda rid, text, doc: doc in bound_docs(nuggets[rid])) > 0.8


# -------------------------------------------------------------------------------------------------- qrels
def test_qrels_cover_cited_and_bound_documents_with_consistent_grades(runs, nuggets, collection) -> None:
    grades: dict[tuple[str, str], int] = {}
    for line in QRELS.read_text(encoding="utf-8").splitlines():
        qid, iteration, doc, rel = line.split(" ")
        assert iteration == "0" and doc in collection and (qid, doc) not in grades
        grades[(qid, doc)] = int(rel)
    assert set(grades.values()) == {0, 1, 2}
    for reports in runs.values():
        for _, request_id, sentences in reports:
            for _, citations in sentences:
                assert all((request_id, doc) in grades for doc in citations)
    for request_id, topic in nuggets.items():
        for nugget in topic:
            for answer in nugget["answers"]:
                for doc in answer["doc_ids"]:
                    # vital -> 2; an okay answer's document is at least 1
                    assert grades[(request_id, doc)] >= (2 if nugget["importance"] == "vital" else 1)
        unbound = {doc for (qid, doc) in grades if qid == request_id} - bound_docs(topic)
        assert all(grades[(request_id, doc)] == 0 for doc in unbound)


# ---------------------------------------------------------------------------------------------- judgments
def test_judgments_are_canonical_and_unique(judgments) -> None:
    keys = set()
    for j in judgments:
        assert j["judge"] == JUDGE and isinstance(j["value"], bool)
        if j["kind"] in ("relevant", "attested"):
            assert j["doc_id"] is not None
        elif j["kind"] != "answers":  # answers without a document serve --nugget-scope all
            assert j["doc_id"] is None
        assert (j["nugget_id"] is not None) == (j["kind"] in ("answers", "nugget_agrees"))
        context = j["kind"] in ("requires_citation", "first_instance")
        assert (j["run_id"] is not None) == context and (j["sentence_index"] is not None) == context
        key = (j["kind"], j["request_id"], norm(j["sentence"]), j["doc_id"], j["nugget_id"], j["answer"],
               j["run_id"], j["sentence_index"])
        assert key not in keys, key
        keys.add(key)


def test_judgments_cover_every_sentence_and_citation_and_agree_with_annotations(
    runs, nuggets, judgments, annotations
) -> None:
    table = {
        (j["kind"], j["request_id"], norm(j["sentence"]), j["doc_id"], j["nugget_id"], j["answer"],
         j["run_id"], j["sentence_index"]): j["value"]
        for j in judgments
    }
    seen = set()
    for name, reports in runs.items():
        for _, rid, sentences in reports:
            topic = nuggets[rid]
            for index, (text, citations) in enumerate(sentences):
                note = annotations[(name, rid, index)]
                seen.add((name, rid, index))
                assert note["text"] == text and note["citations"] == citations
                states = {tuple(pair) for pair in note["states"]}
                s = norm(text)
                if citations:
                    for nugget in topic:  # --nugget-scope all: asked once per sentence, no document
                        for answer in [] if nugget["negative"] else nugget["answers"]:
                            expected = (nugget["nugget_id"], answer["answer"]) in states
                            key = ("answers", rid, s, None, nugget["nugget_id"], answer["answer"], None, None)
                            assert table[key] == expected, (name, rid, index, nugget["nugget_id"])
                    for doc in set(citations):
                        assert table[("relevant", rid, s, doc, None, None, None, None)] == (doc in bound_docs(topic))
                        assert table[("attested", rid, s, doc, None, None, None, None)] == (doc in note["supported_by"])
                        for nugget in topic:
                            for answer in nugget["answers"]:
                                if doc in answer["doc_ids"]:
                                    expected = (nugget["nugget_id"], answer["answer"]) in states
                                    got = table[("answers", rid, s, doc, nugget["nugget_id"], answer["answer"],
                                                 None, None)]
                                    assert got == expected, (name, rid, index, doc, nugget["nugget_id"])
                else:
                    assert table[("negative", rid, s, None, None, None, None, None)] == note["negative"]
                    for nugget in topic:
                        if nugget["negative"]:
                            agrees = table[("nugget_agrees", rid, s, None, nugget["nugget_id"], "no", None, None)]
                            assert agrees == (nugget["nugget_id"] in note["agrees"])
                    context = (name, index)
                    assert table[("requires_citation", rid, s, None, None, None, *context)] == \
                        note["requires_citation"]
                    assert table[("first_instance", rid, s, None, None, None, *context)] == note["first_instance"]
    assert seen == set(annotations)


def test_negative_assertions_show_both_outcomes(judgments) -> None:
    """No-citations includes one negative assertion a negative nugget records (8) and one it does not (7)."""
    negative = {(j["request_id"], norm(j["sentence"])) for j in judgments if j["kind"] == "negative" and j["value"]}
    agreed = {(j["request_id"], norm(j["sentence"])) for j in judgments
              if j["kind"] == "nugget_agrees" and j["value"]}
    assert agreed <= negative
    assert agreed and negative - agreed


# ------------------------------------------------------------------------------------------- regeneration
def test_judgments_regenerate_byte_identical(tmp_path: Path) -> None:
    out = tmp_path / "judgments.jsonl"
    subprocess.run([sys.executable, str(TOOLS / "make_judgments.py"), "-o", str(out)], check=True,
                   capture_output=True)
    assert out.read_bytes() == JUDGMENTS.read_bytes()


def test_build_reproduces_every_shipped_file(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(TOOLS / "build_track.py"), "--root", str(tmp_path)], check=True,
                   capture_output=True)
    generated = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert len(generated) == 13  # requests, collection, nuggets, 6 runs, qrels, judgments, annotations, Auto-ARGUE
    for rel in generated:
        assert filecmp.cmp(tmp_path / rel, REPO / rel, shallow=False), f"{rel} differs: rerun build_track.py"
