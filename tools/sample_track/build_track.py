#!/usr/bin/env python3
"""Build the shipped sample track from its authoring sources.

    python tools/sample_track/build_track.py            # rewrite the files in the repository
    python tools/sample_track/build_track.py --root /tmp/x   # write the same tree under /tmp/x

Reads ``track_documents.py``, ``track_topics.py`` and ``track_reports.py`` (beside this script) and writes:

    topics/sample/requests.jsonl        canonical requests
    topics/sample/collection.jsonl      the documents
    nuggets/sample/nuggets.jsonl        canonical nuggets, one topic per line
    runs/sample/<run>.jsonl             six runs (NeuCLIR/canonical shape, one in the RAGTIME shape)
    qrels/sample/qrels.trec             graded relevance of every pooled, cited or bound document
    tools/sample_track/annotations.jsonl  the assessor's record of every sentence
    qrels/sample/judgments.jsonl        canonical judgments (via make_judgments.py)
    qrels/sample/hallucinating.autoargue.judgments.jsonl  two reports' judgments in Auto-ARGUE's shape
                                        (via make_autoargue.py)

Everything is written in a fixed order through ``argue_eval.writing``'s atomic writers, so a rerun is
byte-identical. The sources are checked first (every cited or bound document exists, every stated answer
and every agreeing nugget exists, supporting documents are among the cited ones); a violation stops the
build with a message naming the run, topic and sentence.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
for path in (str(REPO), str(HERE)):
    if path not in sys.path:
        sys.path.insert(0, path)

import make_autoargue  # noqa: E402
import make_judgments  # noqa: E402
from track_documents import DOCUMENTS  # noqa: E402
from track_reports import REPORTS, RUNS  # noqa: E402
from track_topics import COLLECTION_IDS, NUGGETS, REQUESTS  # noqa: E402

from argue_eval.writing import atomic_writer, write_jsonl  # noqa: E402

LANGUAGE = "en"


class SourceError(SystemExit):
    """An inconsistency in the authoring sources (exits with status 1 and the message)."""

    def __init__(self, message: str) -> None:
        super().__init__(f"build_track: {message}")


def nugget_id(request_id: str, number: int) -> str:
    return f"{request_id}-n{number}"


def build_requests() -> list[dict[str, Any]]:
    rows = []
    for request in REQUESTS:
        rows.append(
            {
                "request_id": request["request_id"],
                "title": request["title"],
                "background": request["background"],
                "problem_statement": request["problem_statement"],
                "limit": request["limit"],
                "limit_unit": request["limit_unit"],
                "collection_ids": list(COLLECTION_IDS),
                "language": LANGUAGE,
                "aspects": list(request["aspects"]),
            }
        )
    return rows


def build_collection() -> list[dict[str, str]]:
    return [{"doc_id": doc_id, "title": title, "text": text} for doc_id, _topic, title, text in DOCUMENTS]


def build_nuggets(doc_ids: set[str]) -> list[dict[str, Any]]:
    rows = []
    for request in REQUESTS:
        request_id = request["request_id"]
        nuggets = []
        for number, importance, aggregator, question, answers in NUGGETS[request_id]:
            nid = nugget_id(request_id, number)
            for answer, docs in answers.items():
                missing = [doc for doc in docs if doc not in doc_ids]
                if missing:
                    raise SourceError(f"{nid} answer {answer!r}: documents not in the collection: {missing}")
            negative = all(not docs for docs in answers.values())
            if negative and list(answers) != ["no"]:
                raise SourceError(f"{nid}: a nugget with no bound answer must be negative with the answer 'no'")
            nuggets.append(
                {
                    "nugget_id": nid,
                    "question": question,
                    "importance": importance,
                    "aggregator": aggregator,
                    "negative": negative,
                    "answers": [{"answer": answer, "doc_ids": list(docs)} for answer, docs in answers.items()],
                }
            )
        rows.append({"request_id": request_id, "nuggets": nuggets})
    return rows


def expand_states(
    request_id: str, states: list[Any], nuggets: dict[str, dict[str, Any]], where: str
) -> list[list[str]]:
    """``"n3"`` -> every answer of nugget 3; ``("n3", "text")`` -> that answer; checked against the nuggets."""
    expanded: list[list[str]] = []
    for item in states:
        short, answer = (item, None) if isinstance(item, str) else item
        nid = f"{request_id}-{short}"
        nugget = nuggets.get(nid)
        if nugget is None:
            raise SourceError(f"{where}: states unknown nugget {nid}")
        if nugget["negative"]:
            raise SourceError(f"{where}: {nid} is negative; use agrees= on an uncited sentence instead")
        texts = [a["answer"] for a in nugget["answers"]]
        if answer is not None and answer not in texts:
            raise SourceError(f"{where}: {nid} has no answer {answer!r} (answers: {texts})")
        for text in texts if answer is None else [answer]:
            if [nid, text] not in expanded:
                expanded.append([nid, text])
    return expanded


def build_runs_and_annotations(
    nugget_rows: list[dict[str, Any]], doc_ids: set[str]
) -> tuple[dict[str, list[dict[str, Any]]], list[dict[str, Any]]]:
    nuggets = {n["nugget_id"]: n for row in nugget_rows for n in row["nuggets"]}
    request_ids = [request["request_id"] for request in REQUESTS]
    runs: dict[str, list[dict[str, Any]]] = {}
    annotations: list[dict[str, Any]] = []
    for run_id in sorted(REPORTS):
        spec = RUNS[run_id]
        lines = []
        for request_id in sorted(REPORTS[run_id]):
            if request_id not in request_ids:
                raise SourceError(f"run {run_id}: unknown request {request_id}")
            sentences = REPORTS[run_id][request_id]
            references: list[str] = []
            for index, sentence in enumerate(sentences):
                where = f"run {run_id} topic {request_id} sentence {index}"
                cites = sentence["citations"]
                for doc in cites:
                    if doc not in doc_ids:
                        raise SourceError(f"{where}: cites {doc}, which is not in the collection")
                    if doc not in references:
                        references.append(doc)
                record: dict[str, Any] = {
                    "run_id": run_id,
                    "request_id": request_id,
                    "sentence_index": index,
                    "text": sentence["text"],
                    "citations": list(cites),
                    "states": expand_states(request_id, sentence["states"], nuggets, where),
                }
                if cites:
                    stray = [doc for doc in sentence["supported"] if doc not in cites]
                    if stray:
                        raise SourceError(f"{where}: supported documents {stray} are not cited")
                    record["supported_by"] = list(sentence["supported"])
                    if sentence["note"]:
                        record["note"] = sentence["note"]
                else:
                    agrees = [f"{request_id}-{short}" for short in sentence["agrees"]]
                    for nid in agrees:
                        if nid not in nuggets or not nuggets[nid]["negative"]:
                            raise SourceError(f"{where}: agrees with {nid}, which is not a negative nugget")
                    if agrees and not sentence["negative"]:
                        raise SourceError(f"{where}: only a negative assertion can agree with a negative nugget")
                    record["negative"] = sentence["negative"]
                    record["agrees"] = agrees
                    record["requires_citation"] = sentence["requires"]
                    record["first_instance"] = sentence["first"]
                annotations.append(record)
            lines.append(run_line(run_id, request_id, sentences, references, spec))
        runs[run_id] = lines
    return runs, annotations


def run_line(
    run_id: str, request_id: str, sentences: list[dict[str, Any]], references: list[str], spec: dict[str, Any]
) -> dict[str, Any]:
    """One report in the run's file shape."""
    if spec["shape"] == "ragtime":
        responses = []
        for sentence in sentences:
            scores = sentence["scores"] or [1.0] * len(sentence["citations"])
            responses.append({"text": sentence["text"], "citations": dict(zip(sentence["citations"], scores))})
        return {
            "metadata": {"team_id": spec["team_id"], "run_id": run_id, "topic_id": request_id},
            "responses": responses,
            "references": references,
        }
    line: dict[str, Any] = {
        "run_id": run_id,
        "request_id": request_id,
        "collection_ids": list(COLLECTION_IDS),
        "sentences": [{"text": s["text"], "citations": list(s["citations"])} for s in sentences],
    }
    if spec.get("references"):
        line["references"] = references
    if spec.get("metadata"):
        line["metadata"] = dict(spec["metadata"])
    return line


def build_qrels(nugget_rows: list[dict[str, Any]], annotations: list[dict[str, Any]]) -> list[tuple[str, str, int]]:
    """Grade 2: attests a vital answer; 1: attests only okay answers; 0: pooled, cited or written for the topic."""
    grades: dict[tuple[str, str], int] = {}
    for doc_id, topic, _title, _text in DOCUMENTS:
        if topic is not None:
            grades[(topic, doc_id)] = 0
    for record in annotations:
        for doc in record["citations"]:
            grades.setdefault((record["request_id"], doc), 0)
    for row in nugget_rows:
        for nugget in row["nuggets"]:
            grade = 2 if nugget["importance"] == "vital" else 1
            for answer in nugget["answers"]:
                for doc in answer["doc_ids"]:
                    key = (row["request_id"], doc)
                    grades[key] = max(grades.get(key, 0), grade)
    return [(qid, doc, grade) for (qid, doc), grade in sorted(grades.items())]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=REPO, help="tree to write into (default: the repository)")
    args = parser.parse_args(argv)
    root: Path = args.root

    collection = build_collection()
    doc_ids = {doc["doc_id"] for doc in collection}
    if len(doc_ids) != len(collection):
        raise SourceError("duplicate document ids")
    nugget_rows = build_nuggets(doc_ids)
    runs, annotations = build_runs_and_annotations(nugget_rows, doc_ids)

    write_jsonl(root / "topics/sample/requests.jsonl", build_requests())
    write_jsonl(root / "topics/sample/collection.jsonl", collection)
    write_jsonl(root / "nuggets/sample/nuggets.jsonl", nugget_rows)
    for run_id, lines in runs.items():
        write_jsonl(root / f"runs/sample/{run_id}.jsonl", lines)
    with atomic_writer(root / "qrels/sample/qrels.trec") as handle:
        for qid, doc, grade in build_qrels(nugget_rows, annotations):
            handle.write(f"{qid} 0 {doc} {grade}\n")
    annotations_path = root / "tools/sample_track/annotations.jsonl"
    write_jsonl(annotations_path, annotations)
    count = make_judgments.write_judgments(root, root / make_judgments.JUDGMENTS)
    make_autoargue.write_autoargue(root, root / make_autoargue.OUTPUT)
    print(
        f"wrote {len(REQUESTS)} requests, {len(collection)} documents, {len(runs)} runs, "
        f"{len(annotations)} annotated sentences and {count} judgments under {root}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
