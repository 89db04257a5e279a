#!/usr/bin/env python3
"""Write the sample assessor's judgments of two sample reports in Auto-ARGUE's ``*.judgments.jsonl`` shape.

    python tools/sample_track/make_autoargue.py                  # rewrite qrels/sample/hallucinating.autoargue.judgments.jsonl
    python tools/sample_track/make_autoargue.py -o /tmp/a.jsonl  # write elsewhere (e.g. to compare)

The sample track has no Auto-ARGUE output of its own, and the kit reads Auto-ARGUE files (``score``,
``convert``, ``agree-judgments``), so this gives the examples one to work on: run ``hallucinating``, topics
s01 and s03 (every sentence cited), one line per report as Auto-ARGUE writes it. The report is the run's
line in the RAGTIME shape (``{doc_id: 1.0}`` citations); per sentence, the cited documents with their text
as Auto-ARGUE gives it to its judge (``Title: ...\\n\\nContent: ...``) and, per citation, the three judgments:

* ``CITED_DOCUMENT_RELEVANCE``: a lookup in the nugget bindings (evaluator ``"null"``, as Auto-ARGUE marks it);
* ``SENTENCE_ANSWERS_QUESTION`` (relevant documents only): the (question, answers) among those the document
  attests that the assessor found in the sentence, by text;
* ``SENTENCE_ATTESTED``: the assessor's answer.

The answers come from ``qrels/sample/judgments.jsonl`` (the evaluator is ``sample-assessor``), so scoring this
file gives the same per-topic scores as scoring the run with those judgments (``tests/test_convert_autoargue.py``
checks it). Reruns are byte-identical.
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

from argue_eval.model import normalize_text  # noqa: E402
from argue_eval.reading import iter_jsonl  # noqa: E402
from argue_eval.writing import write_jsonl  # noqa: E402

RUN = Path("runs/sample/hallucinating.jsonl")
TOPICS = ("s01", "s03")
TEAM = "sample"
EVALUATOR = "sample-assessor"
COLLECTION = Path("topics/sample/collection.jsonl")
NUGGETS = Path("nuggets/sample/nuggets.jsonl")
JUDGMENTS = Path("qrels/sample/judgments.jsonl")
OUTPUT = Path("qrels/sample/hallucinating.autoargue.judgments.jsonl")


def _rows(path: Path) -> list[dict[str, Any]]:
    return [obj for _line, obj in iter_jsonl(path)]


def _judgment(type_id: str, cited: str, evaluator: str, **response: Any) -> dict[str, Any]:
    return {
        "judgment_type_id": type_id,
        "response": {"judgment_type_id": type_id, **response},
        "evaluator": evaluator,
        "provenance": {"doc_id": cited, "sentence": None, "run_id": None, "sent_id": None},
    }


def autoargue_lines(root: Path) -> list[dict[str, Any]]:
    """The Auto-ARGUE lines of ``TOPICS`` of ``RUN`` under ``root`` (see the module docstring)."""
    documents = {doc["doc_id"]: doc for doc in _rows(root / COLLECTION)}
    banks = {topic["request_id"]: topic["nuggets"] for topic in _rows(root / NUGGETS)}
    answers: dict[tuple[str, ...], bool] = {}
    for row in _rows(root / JUDGMENTS):
        key = (row["kind"], row["request_id"], normalize_text(row["sentence"]), row["doc_id"], row["nugget_id"],
               row["answer"])
        answers[key] = row["value"]
    lines = []
    for report in _rows(root / RUN):
        topic = report["request_id"]
        if topic not in TOPICS:
            continue
        nuggets = banks[topic]
        bound = {doc for nugget in nuggets for answer in nugget["answers"] for doc in answer["doc_ids"]}
        segments = []
        for sentence in report["sentences"]:
            text, normalized = sentence["text"], normalize_text(sentence["text"])
            judgments = []
            for doc_id in sentence["citations"]:
                relevant = doc_id in bound
                judgments.append(_judgment("CITED_DOCUMENT_RELEVANCE", doc_id, "null", doc_id=doc_id,
                                           is_relevant=relevant))
                if relevant:
                    matched = []
                    for nugget in nuggets:
                        found = [a["answer"] for a in nugget["answers"] if doc_id in a["doc_ids"]
                                 and answers[("answers", topic, normalized, doc_id, nugget["nugget_id"], a["answer"])]]
                        if found:
                            matched.append({"question_text": nugget["question"], "matched_answer": found,
                                            "importance": nugget["importance"]})
                    judgments.append(_judgment("SENTENCE_ANSWERS_QUESTION", doc_id, EVALUATOR, matched_nuggets=matched))
                attested = answers[("attested", topic, normalized, doc_id, None, None)]
                judgments.append(_judgment("SENTENCE_ATTESTED", doc_id, EVALUATOR, is_attested=attested))
            citations = [{"doc_id": doc_id, "text": f"Title: {documents[doc_id]['title']}\n\nContent: "
                                                    f"{documents[doc_id]['text']}"} for doc_id in sentence["citations"]]
            segments.append({"segment_type": "sentence", "text": text, "citations": citations, "judgments": judgments})
        cited = [doc_id for sentence in report["sentences"] for doc_id in sentence["citations"]]
        ragtime = {
            "metadata": {"team_id": TEAM, "run_id": report["run_id"], "topic_id": topic,
                         "collection_ids": report["collection_ids"]},
            "responses": [{"text": s["text"], "citations": {doc_id: 1.0 for doc_id in s["citations"]}}
                          for s in report["sentences"]],
            "references": list(dict.fromkeys(cited)),
        }
        lines.append({"report": ragtime, "judgments": segments})
    return lines


def write_autoargue(root: Path, output: Path) -> int:
    """Write the Auto-ARGUE file for the track under ``root`` to ``output``; return how many reports it holds."""
    return write_jsonl(output, autoargue_lines(root))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=REPO,
                        help="tree holding runs/, nuggets/, topics/ and qrels/ (default: the repository)")
    parser.add_argument("-o", "--output", type=Path, help=f"output file (default: ROOT/{OUTPUT})")
    args = parser.parse_args(argv)
    output = args.output or args.root / OUTPUT
    count = write_autoargue(args.root, output)
    print(f"wrote {count} Auto-ARGUE report lines to {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
