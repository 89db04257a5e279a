#!/usr/bin/env python3
"""Fill an ``assess export`` pool with the sample assessor's answers, a seeded share of them flipped: a second
assessor for a double-assessed round on the sample track (docs/assessment.md, "A double-assessed round").

    python tools/sample_track/fill_pool.py pool.jsonl -o filled.alice.jsonl                        # the answers as given
    python tools/sample_track/fill_pool.py pool.jsonl --flip 0.1 --seed 1 -o filled.bob.jsonl      # 10% flipped

The sample track has one assessor (``qrels/sample/judgments.jsonl``, judge ``human:sample-assessor``). A real
double assessment needs a second person; this stands in for one, openly: every pool item the reference
answers gets that answer in its ``judgment`` column, and each answer is flipped (yes <-> no) with probability
``--flip``, drawn by ``random.Random(seed)`` in pool order, so the simulated assessor disagrees on a known share
of items at random, independently of how hard an item is (people's disagreements are not random; this is a
plumbing check of the round, not a model of assessors). Items the reference does not answer (the branch of a
conditional question the flowchart never took) are left blank, which ``assess import`` skips. Reruns with the
same seed write the same bytes; the flipped count goes to stderr.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from argue_eval.formats import read_judgments  # noqa: E402
from argue_eval.organizer.assessment import item_id_for  # noqa: E402
from argue_eval.reading import iter_jsonl  # noqa: E402
from argue_eval.writing import write_jsonl  # noqa: E402

REFERENCE = REPO / "qrels/sample/judgments.jsonl"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pool", type=Path, help="an `assess export` pool (JSONL)")
    parser.add_argument("-o", "--output", type=Path, required=True, help="the filled pool (JSONL)")
    parser.add_argument("--reference", type=Path, default=REFERENCE, help="the answers to fill in")
    parser.add_argument("--flip", type=float, default=0.0, help="share of answers flipped (0..1)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not 0.0 <= args.flip <= 1.0:
        parser.error("--flip takes a share between 0 and 1")
    answers = {item_id_for(judgment.key): bool(judgment.value) for judgment in read_judgments(args.reference)}
    draw = random.Random(args.seed)
    lines, filled, flipped = [], 0, 0
    for _, item in iter_jsonl(args.pool):
        value = answers.get(item["item_id"])
        if value is not None:
            flip = draw.random() < args.flip
            flipped += flip
            filled += 1
            item = {**item, "judgment": "yes" if value != flip else "no"}
        lines.append(item)
    write_jsonl(args.output, lines)
    print(f"{args.output}: {filled} of {len(lines)} item(s) filled, {flipped} flipped (seed {args.seed})",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
