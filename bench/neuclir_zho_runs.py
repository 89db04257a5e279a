"""Three real NeuCLIR 2024 Chinese report runs, rebuilt as NeuCLIR 2024 run files for the dev checks.

hltcoe/rag-annotation-tool ships, in ``resources/``, the sentences of three submitted NeuCLIR 2024 runs on all
59 Chinese topics (``mini-test.report-sentences.json``: topic -> run -> sentence index -> text) and which
documents each sentence cites (``mini-test.citation-to-sentences.json``: topic -> document -> run -> sentence
index -> text), with the 59 requests (``neuclir24-test-zho.requests.jsonl``). ``build`` reads those three files
from a local clone (``--source``, or the fetched mirror) and writes one run file per run under ``bench/out``, in
the NeuCLIR 2024 run format, citations in the order the documents appear in the citations file. The files are
real data for development, read where they are and never copied into the repository or its tests.
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MIRROR = Path("/work/.mirror/hltcoe+rag-annotation-tool/repo")
OUT = REPO / "bench" / "out" / "neuclir24-zho"
_FILES = ("mini-test.report-sentences.json", "mini-test.citation-to-sentences.json", "neuclir24-test-zho.requests.jsonl")


def _read(source: Path, name: str) -> str:
    """A resource of the clone: from its work tree, else (a bare mirror) from its HEAD commit."""
    plain = source / "resources" / name
    if plain.is_file():
        return plain.read_text(encoding="utf-8")
    return subprocess.run(["git", f"--git-dir={source}", "show", f"HEAD:resources/{name}"], check=True,
                          capture_output=True, text=True).stdout


def build(source: Path = MIRROR, out: Path = OUT) -> tuple[list[Path], Path]:
    """The three run files and the requests file, written under ``out``; returns their paths."""
    sentences = json.loads(_read(source, _FILES[0]))
    citations = json.loads(_read(source, _FILES[1]))
    out.mkdir(parents=True, exist_ok=True)
    requests = out / "requests.jsonl"
    requests.write_text(_read(source, _FILES[2]), encoding="utf-8")
    cited: dict[tuple[str, str, str], list[str]] = {}
    for topic, docs in citations.items():
        for doc_id, runs in docs.items():
            for run_id, by_index in runs.items():
                for index in by_index:
                    cited.setdefault((topic, run_id, index), []).append(doc_id)
    lines: dict[str, list[str]] = {}
    for topic in sorted(sentences, key=int):
        for run_id, by_index in sentences[topic].items():
            report = [{"text": by_index[i], "citations": cited.get((topic, run_id, i), [])}
                      for i in sorted(by_index, key=int)]
            lines.setdefault(run_id, []).append(json.dumps(
                {"run_id": run_id, "request_id": topic, "collection_ids": ["neuclir/1/zho"], "sentences": report},
                ensure_ascii=False))
    paths = []
    for run_id, rows in sorted(lines.items()):
        path = out / f"{run_id}.jsonl"
        path.write_text("\n".join(rows) + "\n", encoding="utf-8")
        paths.append(path)
    return paths, requests


if __name__ == "__main__":
    runs, requests = build()
    print("\n".join(map(str, [*runs, requests])))
