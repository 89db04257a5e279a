"""``report --figures --packets --flags`` in headless Chromium: the Figures view shows the embedded figures and
links the files, the flagged run is marked, and a packet's page shows its team's runs beside the round's median,
best and worst, with no script error and no request beyond the file itself."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli

pytestmark = pytest.mark.browser

websocket = pytest.importorskip("websocket", reason="websocket-client (the test extra) drives the browser")
pytest.importorskip("matplotlib", reason="the figures extra (matplotlib) draws the figures")
from cdp import Browser, find_browser  # noqa: E402  (tests/cdp.py)

if find_browser() is None:
    pytest.skip("no Chromium on this machine (Debian's chromium package; .ci/run installs it)", allow_module_level=True)

REPO = Path(__file__).resolve().parent.parent


def invoke(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def round_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("analysis")
    runs = [str(path) for path in sorted((REPO / "runs/sample").glob("*.jsonl"))]
    common = ["--nuggets", str(REPO / "nuggets/sample/nuggets.jsonl"), "--requests", str(REPO / "topics/sample/requests.jsonl"),
              "--judgments", str(REPO / "qrels/sample/judgments.jsonl")]
    invoke("score", *[arg for run in runs for arg in ("--run", run)], *common, "-o", str(out / "scores.tsv"),
           "--details", str(out / "details.jsonl"), "-q")
    (out / "flags.tsv").write_text("run_id\tflag\tfield\tevidence\n"
                                   "too-long\tevaluation\tdescription\tmentions 'nugget': tuned on the nuggets\n")
    invoke("report", "--scores", str(out / "scores.tsv"), "--details", str(out / "details.jsonl"), *common[:4],
           "--resamples", "500", "--flags", str(out / "flags.tsv"), "--figures", str(out / "figures"),
           "--packets", str(out / "packets"), "--team", "hallucinating=t-b", "--team", "wrong-cites=t-b",
           "-o", str(out / "report.html"))
    return out


def test_figures_view_and_the_flag(round_out: Path, tmp_path: Path):
    with Browser(tmp_path) as browser:
        browser.open(round_out / "report.html")
        flagged = browser.evaluate("Array.from(document.querySelectorAll('#leaderboard-table tbody tr')).filter("
                                   "r => r.querySelector('.circular-flag')).map(r => r.dataset.run)")
        assert flagged == ["too-long"]
        assert "tuned on the nuggets" in browser.evaluate("document.querySelector('.circular-flag').title")
        browser.screenshot(tmp_path / "leaderboard-flag.png", full_page=False)
        browser.evaluate("document.querySelector('nav a[data-view=figures]').click()")
        browser.wait_for("document.querySelectorAll('#view-figures figure').length > 0")
        names = browser.evaluate("Array.from(document.querySelectorAll('#view-figures figure')).map(f => f.id)")
        assert names[:4] == ["figure-leaderboard", "figure-topics", "figure-power", "figure-swaps"]
        loaded = browser.wait_for("(() => { const imgs = Array.from(document.querySelectorAll('#view-figures img'));"
                                  " return imgs.length && imgs.every(i => i.complete && i.naturalWidth > 0) ? imgs.length : 0; })()")
        assert loaded >= 4
        links = browser.evaluate("Array.from(document.querySelectorAll('#figure-leaderboard a')).map(a => a.getAttribute('href'))")
        assert links == ["figures/leaderboard.png", "figures/leaderboard.svg", "figures/leaderboard.pdf"]
        assert all((round_out / link).is_file() for link in links)
        browser.screenshot(tmp_path / "figures.png")
        assert browser.errors() == []
        assert all(url.startswith("file://") or url.startswith("data:") for url in browser.requests())


def test_a_packet_page_shows_the_field(round_out: Path, tmp_path: Path):
    page = round_out / "packets" / "t-b" / "report.html"
    with Browser(tmp_path) as browser:
        browser.open(page)
        runs = browser.evaluate("Array.from(document.querySelectorAll('#leaderboard-table tbody tr')).map(r => r.dataset.run)")
        assert sorted(runs) == ["hallucinating", "wrong-cites"]
        summary = browser.evaluate("document.querySelector('#field-summary').textContent")
        assert "Over all 6 runs of the round" in summary
        browser.evaluate("document.querySelector('nav a[data-view=topics]').click()")
        browser.wait_for("document.querySelector('#heatmap tr.field-median') !== null")
        heads = browser.evaluate("Array.from(document.querySelectorAll('#heatmap tfoot th')).map(th => th.textContent)")
        assert heads == ["topic mean", "median of all runs", "best of all runs", "worst of all runs"]
        # s01's best over all six runs is careful's 1.0, the worst no-citations' 0 (neither run is named)
        best = browser.evaluate("document.querySelector('#heatmap tr.field-best td').title")
        assert best.startswith("s01: best 1.0000")
        browser.screenshot(tmp_path / "packet-topics.png")
        assert browser.errors() == []
