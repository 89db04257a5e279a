"""The newcomer's steps on real NeuCLIR 2024 runs (issue 34): validate, --fix, the language check (a development check).

Three real NeuCLIR 2024 Chinese runs, 59 topics each, rebuilt under bench/out by ``bench/neuclir_zho_runs.py`` from
hltcoe/rag-annotation-tool's ``resources/`` (read where they are, never copied into the repository). For each:

1. ``validate --track neuclir24`` against the 59 requests: the problems by check;
2. ``validate --fix`` under the track's 2,000 characters, and again under ``--limit 1000`` (the runs keep within
   2,000, so the second exercises the trimming at sentence ends on real text): the changes by fix, and the fixed
   runs validated again (they must have no length error left, and every kept sentence must be one of the input's,
   unchanged or cut at a sentence end);
3. the language check: every report is English (no report-language error); then a copy of the first run whose
   sentences are a Chinese sentence, which must fail the check on every report.

    .venv/bin/python bench/dev_newcomer_real.py
"""
from __future__ import annotations

import json
import tempfile
from collections import Counter
from pathlib import Path

from neuclir_zho_runs import build

from argue_eval.api.validate import fix, validate


def problems_by_check(validation) -> Counter[str]:
    out: Counter[str] = Counter()
    for problem in validation.problems:
        text = problem.message
        name = ("length" if "over the limit" in text else "report-language" if "is not in English" in text
                else "empty-report" if "no sentences" in text else text.split(":")[0][:40])
        out[f"{problem.severity} {name}"] += 1
    return out


def main() -> None:
    runs, requests = build()
    print(f"{len(runs)} runs, {sum(len(p.read_text().splitlines()) for p in runs)} reports; requests {requests}")
    checked = validate(runs, requests, track="neuclir24")
    print(f"validate --track neuclir24: {checked.summary()}")
    print(f"  by check: {dict(problems_by_check(checked))}")
    with tempfile.TemporaryDirectory() as folder:
        for label, limit in (("track (2000 chars)", None), ("--limit 1000", 1000)):
            outputs = [Path(folder) / f"{label[:5]}-{run.name}" for run in runs]
            fixing = fix(runs, outputs, requests, track="neuclir24", limit=limit)
            print(f"validate --fix, {label}: {fixing.summary()}")
            print(f"  changes by fix: {fixing.counts()}")
            left = [p for p in fixing.validation.problems if "over the limit" in p.message]
            assert not left, left[:3]
            for run, output in zip(runs, outputs):
                before = [json.loads(line) for line in run.read_text().splitlines()]
                after = [json.loads(line) for line in output.read_text().splitlines()]
                for old, new in zip(before, after):
                    texts = [s["text"] for s in old["sentences"]]
                    for position, sentence in enumerate(new["sentences"]):
                        assert sentence["text"] == texts[position] or texts[position].startswith(sentence["text"]), \
                            (output, old["request_id"], position)
    chinese = Path(tempfile.mkdtemp()) / "chinese.jsonl"
    rows = []
    for line in runs[0].read_text().splitlines():
        report = json.loads(line)
        report["sentences"] = [{"text": "据新华社报道，该事件发生后，当局立即展开调查并采取了紧急措施。", "citations": []}
                               for _ in report["sentences"] or [0]]
        rows.append(json.dumps(report, ensure_ascii=False))
    chinese.write_text("\n".join(rows) + "\n", encoding="utf-8")
    flagged = validate([chinese], requests, track="neuclir24")
    language = sum("is not in English" in p.message for p in flagged.problems)
    print(f"a Chinese-language copy of {runs[0].name}: {language} of {flagged.reports} reports flagged report-language")
    assert language == flagged.reports
    print("ok")


if __name__ == "__main__":
    main()
