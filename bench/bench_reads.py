"""Document reads per judgment in the citation stage, on three real NeuCLIR 2024 Chinese runs (59 topics).

hltcoe/rag-annotation-tool's citation page shows one cited document and every (run, sentence) that cites it,
so each cited document is read once and each run's sentence is a judgment. The workbench asks about each
(sentence, cited document) pair once (identical sentences of several runs are one item), either one at a time
in report order, where a document is read again whenever the next item cites another one, or by document
(``?doc=D``), one read per cited document. The runs are rebuilt from the tool's ``resources/`` by
``bench/neuclir_zho_runs.py`` (a local clone, ``--source``, or the fetched mirror) and a round is made of
them with ``assess init``; the two workbench flows are read from its items (``items.topic_items``, in the
order the pages ask them, and ``pages.by_document.documents_in_order``), so the figures are the pages', not a
model of them. A read is counted as ``Store.note_read`` counts it: a save of answers about another document
than the save before it.

    python bench/bench_reads.py            # --source PATH for a clone of hltcoe/rag-annotation-tool
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from neuclir_zho_runs import MIRROR, _read, build  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", type=Path, default=MIRROR, help="a clone (or bare mirror) of rag-annotation-tool")
    args = parser.parse_args()
    from argue_eval.workbench.items import topic_items
    from argue_eval.workbench.pages.by_document import documents_in_order
    from argue_eval.workbench.store import Store

    started = time.perf_counter()
    runs, requests = build(args.source)
    citations = json.loads(_read(args.source, "mini-test.citation-to-sentences.json"))
    # the tool's flow: one read per cited document, one judgment per (document, run, sentence)
    tool_reads = sum(1 for docs in citations.values() for runs_of in docs.values() if any(runs_of.values()))
    tool_judgments = sum(len(by_index) for docs in citations.values() for runs_of in docs.values()
                         for by_index in runs_of.values())
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "round.sqlite"
        subprocess.run([sys.executable, "-m", "argue_eval.cli", "assess", "init", "--db", str(db), "--requests",
                        str(requests), *[a for run in runs for a in ("--run", str(run))]], check=True,
                       capture_output=True, text=True)
        store = Store.open(db)
        one_at_a_time = by_document = judgments = 0
        worst = (0.0, "")
        for topic in store.requests():
            items = topic_items(store, topic, "bench")
            shown = [g.first.key.doc_id for g in items.stage("citations")]
            judgments += sum(len(g.items) for g in items.stage("citations"))
            reads = sum(1 for k, doc in enumerate(shown) if k == 0 or shown[k - 1] != doc)
            documents = len(documents_in_order(items, "citations"))
            one_at_a_time += reads
            by_document += documents
            if documents:
                worst = max(worst, (reads / documents, topic))
        topics = len(store.requests())
        store.close()
    print(f"{len(runs)} runs, {topics} topics: {tool_judgments} (run, sentence, document) citations, "
          f"{judgments} (sentence, document) items after the workbench's merging across runs, "
          f"{tool_reads} cited documents")
    print(f"{'flow':<42} {'reads':>6} {'judgments':>9} {'reads/judgment':>14} {'reads/citation':>14}")
    for name, reads, asked in (("rag-annotation-tool, per document", tool_reads, tool_judgments),
                               ("workbench, one at a time", one_at_a_time, judgments),
                               ("workbench, by document", by_document, judgments)):
        print(f"{name:<42} {reads:>6} {asked:>9} {reads / asked:>14.3f} {reads / tool_judgments:>14.3f}")
    print(f"one at a time reads {one_at_a_time / tool_reads:.2f}x the tool's (topic {worst[1]}: {worst[0]:.2f}x); "
          f"by document {by_document / tool_reads:.2f}x ({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
