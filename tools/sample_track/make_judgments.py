#!/usr/bin/env python3
"""Turn the sample assessor's annotations into canonical judgments for every sentence of every sample run.

    python tools/sample_track/make_judgments.py                    # rewrite qrels/sample/judgments.jsonl
    python tools/sample_track/make_judgments.py -o /tmp/j.jsonl    # write elsewhere (e.g. to compare)

Inputs (under ``--root``, default the repository): ``runs/sample/*.jsonl`` (canonical/NeuCLIR or RAGTIME
shape), ``nuggets/sample/nuggets.jsonl`` and ``tools/sample_track/annotations.jsonl``, which records per
(run, topic, sentence) the nugget answers the sentence states, which cited documents support it and, for a
sentence without citations, whether it is a negative assertion, which negative nuggets agree, whether it
requires a citation and whether its claim is a first instance in the report.

The output is the complete set a scorer can need, whatever path the ARGUE flowchart takes:

* each cited (sentence, document) pair: ``attested``; ``answers`` for every (nugget, answer) the document is
  bound to (true when the sentence states that answer); and ``relevant`` (true when the document attests some
  answer of the topic, ARGUE's definition, for ``score --relevance judgments``);
* each cited sentence: ``answers`` with no document for every answer of the topic's bound nuggets (for
  ``score --nugget-scope all``, which asks whether the sentence gives an answer wherever it is attested);
* each sentence without citations: ``negative``, ``nugget_agrees`` for every negative nugget of the topic,
  ``requires_citation`` and ``first_instance`` (these two carry the run id and 0-based sentence index).

Judgments are keyed as the kit keys them (the run id only for the two context-dependent kinds), so a
sentence that several runs share is judged once; two annotations that disagree on one key stop the script.
The lines are sorted, so reruns are byte-identical.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from argue_eval.model import JUDGMENT_KINDS, make_key, normalize_text  # noqa: E402
from argue_eval.reading import iter_jsonl  # noqa: E402
from argue_eval.writing import write_jsonl  # noqa: E402

JUDGE = "human:sample-assessor"
RUNS = Path("runs/sample")
NUGGETS = Path("nuggets/sample/nuggets.jsonl")
ANNOTATIONS = Path("tools/sample_track/annotations.jsonl")
JUDGMENTS = Path("qrels/sample/judgments.jsonl")

FIELDS = ("kind", "request_id", "sentence", "doc_id", "nugget_id", "answer", "run_id", "sentence_index")


class AnnotationError(SystemExit):
    """Annotations that do not match the runs or contradict each other (exit status 1 with the message)."""

    def __init__(self, message: str) -> None:
        super().__init__(f"make_judgments: {message}")


def read_runs(root: Path) -> list[tuple[str, str, list[tuple[str, list[str]]]]]:
    """Every report as ``(run_id, request_id, [(text, citations)])`` from the files in ``runs/sample/``."""
    reports = []
    for path in sorted((root / RUNS).glob("*.jsonl")):
        for _line, obj in iter_jsonl(path):
            if "responses" in obj:  # RAGTIME shape
                meta = obj["metadata"]
                sentences = [(r["text"], list(r.get("citations") or [])) for r in obj["responses"]]
                reports.append((str(meta["run_id"]), str(meta["topic_id"]), sentences))
            else:  # canonical / NeuCLIR 2024 shape
                sentences = [(s["text"], list(s.get("citations") or [])) for s in obj["sentences"]]
                reports.append((str(obj["run_id"]), str(obj["request_id"]), sentences))
    return reports


def judgment(kind: str, request_id: str, sentence: str, value: bool, **fields: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "kind": kind,
        "request_id": request_id,
        "sentence": sentence,
        "doc_id": fields.get("doc_id"),
        "nugget_id": fields.get("nugget_id"),
        "answer": fields.get("answer"),
        "run_id": fields.get("run_id"),
        "sentence_index": fields.get("sentence_index"),
        "value": value,
        "judge": JUDGE,
    }
    if fields.get("rationale"):
        row["rationale"] = fields["rationale"]
    return row


def key(row: dict[str, Any]) -> tuple[Any, ...]:
    """The kit's judgment identity (``model.make_key``), with absent fields as "" and -1 so that keys sort."""
    k = make_key(row["kind"], row["request_id"], normalize_text(row["sentence"]), row["doc_id"], row["nugget_id"],
                 row["answer"], row["run_id"], row["sentence_index"])
    return (*("" if value is None else value for value in k[:7]), -1 if k.sentence_index is None else k.sentence_index)


def sort_key(row: dict[str, Any]) -> tuple[Any, ...]:
    k = key(row)
    return (k[1], JUDGMENT_KINDS.index(k[0]), *k[2:])


def judgments_for(root: Path) -> list[dict[str, Any]]:
    topics: dict[str, list[dict[str, Any]]] = {
        str(obj["request_id"]): obj["nuggets"] for _line, obj in iter_jsonl(root / NUGGETS)
    }
    annotations: dict[tuple[str, str, int], dict[str, Any]] = {}
    for line, obj in iter_jsonl(root / ANNOTATIONS):
        where = (obj["run_id"], obj["request_id"], obj["sentence_index"])
        if where in annotations:
            raise AnnotationError(f"{ANNOTATIONS}:{line}: a second annotation for {where}")
        annotations[where] = obj

    rows: list[dict[str, Any]] = []
    used: set[tuple[str, str, int]] = set()
    for run_id, request_id, sentences in read_runs(root):
        nuggets = topics.get(request_id)
        if nuggets is None:
            raise AnnotationError(f"run {run_id}: topic {request_id} has no nuggets")
        negatives = [n for n in nuggets if n["negative"]]
        bound_docs = {doc for n in nuggets for answer in n["answers"] for doc in answer["doc_ids"]}
        bound_units = [(n["nugget_id"], a["answer"]) for n in nuggets if not n["negative"] for a in n["answers"]]
        for index, (text, citations) in enumerate(sentences):
            where = (run_id, request_id, index)
            note = annotations.get(where)
            if note is None:
                raise AnnotationError(f"no annotation for run {run_id} topic {request_id} sentence {index}")
            if note["text"] != text or note["citations"] != citations:
                raise AnnotationError(f"annotation for {where} does not match the run's sentence or citations")
            used.add(where)
            states = {tuple(pair) for pair in note["states"]}
            if citations:
                supported = set(note["supported_by"])
                for nid, answer in bound_units:
                    rows.append(
                        judgment("answers", request_id, text, (nid, answer) in states, nugget_id=nid, answer=answer)
                    )
                for doc in dict.fromkeys(citations):
                    rows.append(judgment("relevant", request_id, text, doc in bound_docs, doc_id=doc))
                    attested = doc in supported
                    rows.append(
                        judgment(
                            "attested", request_id, text, attested, doc_id=doc,
                            rationale=None if attested else note.get("note"),
                        )
                    )
                    for nugget in nuggets:
                        for answer in nugget["answers"]:
                            if doc in answer["doc_ids"]:
                                rows.append(
                                    judgment(
                                        "answers", request_id, text,
                                        (nugget["nugget_id"], answer["answer"]) in states,
                                        doc_id=doc, nugget_id=nugget["nugget_id"], answer=answer["answer"],
                                    )
                                )
            else:
                rows.append(judgment("negative", request_id, text, bool(note["negative"])))
                for nugget in negatives:
                    rows.append(
                        judgment(
                            "nugget_agrees", request_id, text, nugget["nugget_id"] in note["agrees"],
                            nugget_id=nugget["nugget_id"], answer=nugget["answers"][0]["answer"],
                        )
                    )
                context = {"run_id": run_id, "sentence_index": index}
                rows.append(judgment("requires_citation", request_id, text, bool(note["requires_citation"]), **context))
                rows.append(judgment("first_instance", request_id, text, bool(note["first_instance"]), **context))
    unused = sorted(set(annotations) - used)
    if unused:
        raise AnnotationError(f"annotations for sentences no run has: {unused[:5]}")

    unique: dict[tuple[Any, ...], dict[str, Any]] = {}
    for row in rows:
        k = key(row)
        seen = unique.get(k)
        if seen is None:
            unique[k] = row
        elif seen["value"] != row["value"]:
            raise AnnotationError(f"contradictory annotations for {dict(zip(FIELDS, k))}")
    return sorted(unique.values(), key=sort_key)


def write_judgments(root: Path, output: Path) -> int:
    """Write the judgments for the track under ``root`` to ``output``; return how many were written."""
    return write_jsonl(output, judgments_for(root))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--root", type=Path, default=REPO, help="tree holding runs/, nuggets/ and tools/ (default: the repository)"
    )
    parser.add_argument("-o", "--output", type=Path, help=f"output file (default: ROOT/{JUDGMENTS})")
    args = parser.parse_args(argv)
    output = args.output or args.root / JUDGMENTS
    count = write_judgments(args.root, output)
    print(f"wrote {count} judgments to {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
