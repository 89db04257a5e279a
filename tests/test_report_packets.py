"""Participant packets (report.packets, api.write_packets): each team's runs against the field, nothing of the others.

The round: the sample track's six runs renamed to opaque ids of three teams (``alpha`` careful and too-long,
``beta`` hallucinating and wrong-cites, ``gamma`` misses-topics and no-citations), scored with the sample's
judgments. Every file of every packet is scanned for the other teams' run ids and for the sentences only they wrote.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from argue_eval.api import score
from argue_eval.api.analysis import team_map
from argue_eval.model import normalize_text
from argue_eval.report.packets import build_packets, field_rows, write_packets
from argue_eval.stats.matrix import from_frame

ROOT = Path(__file__).resolve().parent.parent
RENAME = {"careful": "alpha-k1", "too-long": "alpha-k2", "hallucinating": "beta-k3", "wrong-cites": "beta-k4",
          "misses-topics": "gamma-k5", "no-citations": "gamma-k6"}


@pytest.fixture(scope="module")
def round_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("round")
    from argue_eval.formats import read_reports

    for old, new in RENAME.items():  # canonical runs under the new ids (two sample runs are RAGTIME's format)
        records = [{"run_id": new, "request_id": report.request_id, "collection_ids": list(report.collection_ids),
                    "sentences": [{"text": s.text, "citations": list(s.citations)} for s in report.sentences]}
                   for report in read_reports(ROOT / "runs" / "sample" / f"{old}.jsonl")]
        (folder / f"{new}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    judged = [json.loads(line) for line in (ROOT / "qrels/sample/judgments.jsonl").read_text().splitlines() if line]
    for judgment in judged:  # first_instance and requires_citation are judged per run
        judgment["run_id"] = RENAME.get(judgment["run_id"], judgment["run_id"])
    (folder / "judgments.json").write_text("".join(json.dumps(j) + "\n" for j in judged))
    runs = sorted(str(p) for p in folder.glob("*.jsonl"))
    result = score(runs, str(ROOT / "nuggets/sample/nuggets.jsonl"), str(folder / "judgments.json"),
                   requests=str(ROOT / "topics/sample/requests.jsonl"))
    result.table.to_csv(folder / "scores.tsv", sep="\t", index=False)
    (folder / "details.jsonl").write_text("".join(json.dumps(d) + "\n" for d in result.details))
    return folder


def sentences_of(folder: Path) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for path in folder.glob("*-k*.jsonl"):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            out.setdefault(record["run_id"], set()).update(normalize_text(s["text"]) for s in record["sentences"])
    return out


def strings_in_html(text: str) -> set[str]:
    """Every string in the page's embedded JSON blocks (decoded, so escaping cannot hide one)."""
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            found.add(normalize_text(value))
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(key)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for block in re.findall(r'<script type="application/json"[^>]*>(.*?)</script>', text, flags=re.S):
        walk(json.loads(block))
    return found


def test_packets_hold_only_the_teams_runs(round_dir: Path, tmp_path: Path):
    from argue_eval.collection import open_collection
    from argue_eval.formats import read_judgments, read_nuggets, read_requests
    from argue_eval.formats.details import read_details
    from argue_eval.formats.scores import read_scores

    pytest.importorskip("matplotlib")
    records = list(read_scores(round_dir / "scores.tsv"))
    teams, _ = team_map(sorted({r.run_id for r in records}))
    with open_collection(ROOT / "topics/sample/collection.jsonl") as store:
        packets = build_packets(records, teams, details=list(read_details(round_dir / "details.jsonl")),
                                requests=list(read_requests(ROOT / "topics/sample/requests.jsonl")),
                                nuggets=list(read_nuggets(ROOT / "nuggets/sample/nuggets.jsonl")),
                                judgments=list(read_judgments(round_dir / "judgments.json")), documents=store.lookup)
    written_rows = write_packets(tmp_path / "packets", packets, figures=True, records=records)
    assert [row[:3] for row in written_rows] == [("alpha", "alpha", "alpha-k1,alpha-k2"), ("beta", "beta", "beta-k3,beta-k4"),
                                                 ("gamma", "gamma", "gamma-k5,gamma-k6")]
    assert [row[3] for row in written_rows] == [3 + 2 * 3] * 3  # the three files and two runs' figures in 3 formats
    written = sentences_of(round_dir)
    for team in ("alpha", "beta", "gamma"):
        folder = tmp_path / "packets" / team
        files = sorted(p for p in folder.rglob("*") if p.is_file())
        assert {p.name for p in files} >= {"report.html", "scores.tsv", "field.tsv"}
        assert {p.name for p in (folder / "figures").iterdir()} == {
            f"run-{run}.{kind}" for run in RENAME.values() if run.startswith(team) for kind in ("png", "svg", "pdf")}
        own = set().union(*(texts for run, texts in written.items() if run.startswith(team)))
        others = {run for run in RENAME.values() if not run.startswith(team)}
        foreign = set().union(*(texts for run, texts in written.items() if run in others)) - own
        assert foreign  # the other teams wrote sentences this team did not: there is something to leak
        for path in files:
            if path.suffix in (".png", ".pdf"):
                continue  # drawn from the same data as the SVG beside it, which is scanned
            text = path.read_text()
            for run in others:
                assert run not in text, (path, run)
            if path.suffix == ".html":
                assert not foreign & strings_in_html(text), path
                assert all(run in text for run in RENAME.values() if run.startswith(team))
            else:
                assert not any(sentence in normalize_text(text) for sentence in foreign if len(sentence) > 30), path


def test_the_field_is_the_whole_round(round_dir: Path, tmp_path: Path):
    from argue_eval.formats.scores import read_scores

    records = list(read_scores(round_dir / "scores.tsv"))
    teams, _ = team_map(sorted({r.run_id for r in records}), teams={"beta-k3": "solo"})
    write_packets(tmp_path / "p", build_packets(records, teams))
    assert sorted(p.name for p in (tmp_path / "p").iterdir()) == ["alpha", "beta", "gamma", "solo"]
    rows = [line.split("\t") for line in (tmp_path / "p" / "solo" / "field.tsv").read_text().splitlines()]
    assert rows[0] == ["run_id", "request_id", "metric", "value", "median", "best", "worst"]
    f1 = {row[1]: row for row in rows[1:] if row[2] == "f1"}
    # the sample's f1 on s01 over the six runs: best 1.0 (careful), worst 0 (no-citations)
    assert float(f1["s01"][5]) == pytest.approx(1.0) and float(f1["s01"][6]) == 0.0
    scores = (tmp_path / "p" / "solo" / "scores.tsv").read_text().splitlines()
    assert {line.split("\t")[0] for line in scores[1:]} == {"beta-k3"}


def test_field_rows_by_hand():
    import pandas as pd

    frame = pd.DataFrame([[0.9, 0.8], [0.5, 0.4], [0.1, 0.0]], index=["A", "B", "C"], columns=["t1", "t2"])
    rows = field_rows({"f1": from_frame(frame, "f1")}, ["B"])
    # t1: median 0.5, best 0.9, worst 0.1; t2: 0.4, 0.8, 0.0; means A 0.85, B 0.45, C 0.05
    assert rows == [("B", "t1", "f1", 0.5, 0.5, 0.9, 0.1), ("B", "t2", "f1", 0.4, 0.4, 0.8, 0.0),
                    ("B", "all", "f1", pytest.approx(0.45), pytest.approx(0.45), pytest.approx(0.85), pytest.approx(0.05))]


def test_report_with_packets_reads_each_input_file_once(round_dir: Path, tmp_path: Path, monkeypatch):
    """``report --packets`` builds the page and the packets from one reading of the details, judgments, nugget
    and request files (it read the details, judgments, nuggets and requests a second time for the packets)."""
    from collections import Counter

    from helpers import run_cli

    import argue_eval.formats as formats
    import argue_eval.formats.details as details_module

    reads: Counter[str] = Counter()

    def counted(module, name):
        real = getattr(module, name)

        def read(path, *args, **kwargs):
            reads[Path(path).name] += 1
            return real(path, *args, **kwargs)

        monkeypatch.setattr(module, name, read)

    counted(details_module, "read_details")
    for name in ("read_judgments", "read_nuggets", "read_requests"):
        counted(formats, name)
    run_cli("report", "--scores", round_dir / "scores.tsv", "--details", round_dir / "details.jsonl",
            "--judgments", round_dir / "judgments.json", "--nuggets", ROOT / "nuggets/sample/nuggets.jsonl",
            "--requests", ROOT / "topics/sample/requests.jsonl", "--resamples", "200",
            "--packets", tmp_path / "packets", "-o", tmp_path / "report.html")
    assert sorted(path.name for path in (tmp_path / "packets").iterdir()) == ["alpha", "beta", "gamma"]
    assert reads == {"details.jsonl": 1, "judgments.json": 1, "nuggets.jsonl": 1, "requests.jsonl": 1}
