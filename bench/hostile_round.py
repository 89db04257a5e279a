"""A seeded round of hostile but valid inputs for `argue-eval evaluate --html` (issue 35, item 7).

What docs/robustness.md and the report tests name as hostile, at size: long reports of very long sentences,
sentences citing many documents (repeats included), report text full of markup (``</script>``, ``<!--``,
``&``), U+2028/U+2029, control characters and other non-ASCII text, a big nugget bank with long questions and
many answers, and long cited documents. Everything is valid input (ids are printable), so `evaluate` judges
and scores it; the hostility is in the size and in the text the page must carry safely.

    python bench/hostile_round.py OUT_DIR --runs 4 --topics 3 --sentences 40 --words 300 --cites 12
"""
from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

WORDS = ("water", "river", "pump", "chlorine", "notice", "hospital", "council", "inspector", "flood", "supply",
         "report", "sample", "residents", "bacteria", "plant", "treatment", "warning", "official", "March", "town")
HOSTILE = ("</script>", "<script>alert(1)</script>", "<!--", "-->", "&amp;", "&", "<img src=x onerror=1>",
           "\u2028", "\u2029", "\x07", "\x1b[31m", "\u202e", "e\u0301", "\ufeff", "\\u003c", "\"", "'", "\t")


def _text(rng: random.Random, words: int, hostile: float) -> str:
    parts = []
    for _ in range(words):
        parts.append(rng.choice(HOSTILE) if rng.random() < hostile else rng.choice(WORDS))
    return " ".join(parts)


def generate(out: Path, runs: int, topics: int, sentences: int, words: int, cites: int, nuggets: int = 60,
             answers: int = 6, docs: int = 80, doc_words: int = 3000, hostile: float = 0.15,
             seed: int = 35) -> dict[str, int]:
    """Write requests.jsonl, nuggets.jsonl, collection.jsonl and runs/*.jsonl under ``out``; return counts."""
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    (out / "runs").mkdir(exist_ok=True)
    topic_ids = [f"h{t:02d}" for t in range(topics)]
    doc_ids = {tid: [f"{tid}-doc-{d:04d}" for d in range(docs)] for tid in topic_ids}
    with open(out / "requests.jsonl", "w", encoding="utf-8") as handle:
        for tid in topic_ids:
            handle.write(json.dumps({"request_id": tid, "title": _text(rng, 8, hostile),
                                     "background": _text(rng, 60, hostile), "problem_statement": _text(rng, 60, hostile),
                                     "limit": 10 ** 9, "limit_unit": "chars", "collection_ids": ["hostile"],
                                     "language": "en"}) + "\n")
    with open(out / "collection.jsonl", "w", encoding="utf-8") as handle:
        for tid in topic_ids:
            for doc in doc_ids[tid]:
                handle.write(json.dumps({"doc_id": doc, "title": _text(rng, 10, hostile),
                                         "text": _text(rng, doc_words, hostile)}) + "\n")
    with open(out / "nuggets.jsonl", "w", encoding="utf-8") as handle:
        for tid in topic_ids:
            bank = []
            for n in range(nuggets):
                bank.append({"nugget_id": f"{tid}-n{n}", "question": _text(rng, 30, hostile) + "?",
                             "importance": rng.choice(["vital", "okay"]), "aggregator": "AND" if n % 7 == 6 else "OR",
                             "negative": n % 11 == 10,
                             "answers": [{"answer": _text(rng, 3, hostile) + f" {a}",
                                          "doc_ids": rng.sample(doc_ids[tid], 3)} for a in range(answers)]})
            handle.write(json.dumps({"request_id": tid, "nuggets": bank}) + "\n")
    for r in range(runs):
        with open(out / "runs" / f"hostile{r:02d}.jsonl", "w", encoding="utf-8") as handle:
            for tid in topic_ids:
                report = [{"text": _text(rng, words, hostile) + ".",
                           "citations": [rng.choice(doc_ids[tid]) for _ in range(cites)]} for _ in range(sentences)]
                handle.write(json.dumps({"run_id": f"hostile{r:02d}", "request_id": tid, "collection_ids": ["hostile"],
                                         "sentences": report}) + "\n")
    return {"runs": runs, "topics": topics, "sentences": runs * topics * sentences,
            "bytes": sum(path.stat().st_size for path in out.rglob("*.jsonl"))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--topics", type=int, default=3)
    parser.add_argument("--sentences", type=int, default=40)
    parser.add_argument("--words", type=int, default=300, help="words a sentence")
    parser.add_argument("--cites", type=int, default=12, help="citations a sentence")
    parser.add_argument("--nuggets", type=int, default=60, help="nuggets a topic")
    parser.add_argument("--hostile", type=float, default=0.15, help="share of hostile tokens in every text")
    args = parser.parse_args()
    print(generate(args.out, args.runs, args.topics, args.sentences, args.words, args.cites, args.nuggets,
                   hostile=args.hostile))


if __name__ == "__main__":
    main()
