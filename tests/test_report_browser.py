"""The sample track's HTML report in a real headless Chromium, checked through the DevTools protocol.

Expected values are the sample track's documented ones (topics/sample/README.md): the F1 and citation
relevance leaderboards, misses-topics' missing topics, and the outcomes of sentences the track was written
to produce. Screenshots of every view are saved under the test's tmp dir.
"""
from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli

pytestmark = pytest.mark.browser

websocket = pytest.importorskip("websocket", reason="websocket-client (the test extra) drives the browser")
from cdp import Browser, find_browser  # noqa: E402  (tests/cdp.py)

if find_browser() is None:
    pytest.skip("no Chromium on this machine (Debian's chromium package; .ci/run installs it)", allow_module_level=True)

F1_ORDER = ["careful", "too-long", "misses-topics", "hallucinating", "wrong-cites", "no-citations"]
RELEVANCE_ORDER = ["careful", "hallucinating", "too-long", "misses-topics", "wrong-cites", "no-citations"]
HOSTILE = "Water </script><script>window.__pwned = 1</script><!-- <img src=x onerror=\"window.__pwned=2\"> \u2028 & done."


def _score(out: Path, repo: Path) -> tuple[Path, Path]:
    args = ["score", "--nuggets", str(repo / "nuggets/sample/nuggets.jsonl"),
            "--requests", str(repo / "topics/sample/requests.jsonl"),
            "--judgments", str(repo / "qrels/sample/judgments.jsonl"),
            "-o", str(out / "scores.tsv"), "--details", str(out / "details.jsonl"), "--quiet"]
    for run in sorted((repo / "runs/sample").glob("*.jsonl")):
        args += ["--run", str(run)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return out / "scores.tsv", out / "details.jsonl"


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = Path(__file__).resolve().parent.parent
    out = tmp_path_factory.mktemp("report")
    scores, details = _score(out, repo)
    # one hostile sentence: report text must stay text, whatever it contains
    records = [json.loads(line) for line in details.read_text().splitlines()]
    for record in records:
        if record["run_id"] == "wrong-cites" and record["request_id"] == "s02":
            record["sentences"][0]["text"] = HOSTILE
    details.write_text("".join(json.dumps(record) + "\n" for record in records))
    result = CliRunner().invoke(cli, [
        "report", "--scores", str(scores), "--details", str(details),
        "--nuggets", str(repo / "nuggets/sample/nuggets.jsonl"), "--requests", str(repo / "topics/sample/requests.jsonl"),
        "--judgments", str(repo / "qrels/sample/judgments.jsonl"), "--collection", str(repo / "topics/sample/collection.jsonl"),
        "--resamples", "2000", "--title", "Sample track", "-o", str(out / "report.html")])
    assert result.exit_code == 0, result.output
    return out / "report.html"


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory):
    with Browser(tmp_path_factory.mktemp("chromium")) as instance:
        yield instance


def _leaderboard(browser: Browser) -> list[str]:
    return browser.evaluate("Array.from(document.querySelectorAll('#leaderboard-table tbody tr')).map(r => r.dataset.run)")


def _visible(browser: Browser) -> str:
    return browser.evaluate("Array.from(document.querySelectorAll('main > section.view')).filter(s => !s.hidden).map(s => s.id).join()")


def test_leaderboard_order_rows_sorting_and_measure_selector(browser, page, tmp_path):
    browser.open(page)
    assert _visible(browser) == "view-leaderboard"
    assert browser.evaluate("document.title") == "Sample track"
    assert _leaderboard(browser) == F1_ORDER
    # every row has an interval bar with a dot
    assert browser.evaluate("document.querySelectorAll('#leaderboard-table svg.interval circle.dot').length") == 6
    browser.screenshot(tmp_path / "leaderboard.png")
    # sort by run id, then back
    browser.evaluate("Array.from(document.querySelectorAll('#leaderboard-table th')).find(t => t.textContent.startsWith('run')).click()")
    assert _leaderboard(browser) == sorted(F1_ORDER)
    browser.evaluate("""(() => { const s = document.querySelector('#view-leaderboard select.measure-select');
        s.value = 'citation_relevance'; s.dispatchEvent(new Event('change')); })()""")
    assert _leaderboard(browser) == RELEVANCE_ORDER
    assert browser.evaluate("document.querySelector('#leaderboard-table tbody tr td.main').textContent") == "0.961"
    browser.screenshot(tmp_path / "leaderboard-relevance.png")
    # a run's name opens its first report
    browser.evaluate("document.querySelector('#leaderboard-table tr[data-run=\"misses-topics\"] td.run a').click()")
    browser.wait_for("location.hash === '#report/misses-topics/s01' && document.getElementById('s0') !== null")
    assert browser.errors() == []


def test_groups_on_the_page_are_compares_decisions(browser, page, tmp_path):
    """The group letters the browser shows, pair by pair, are `argue-eval compare`'s decisions on the same table."""
    browser.open(page)
    cells = browser.evaluate("Object.fromEntries(Array.from(document.querySelectorAll('#leaderboard-table tbody tr'))"
                             ".map(r => [r.dataset.run, [r.querySelector('td.mark').textContent, r.querySelector('td.mark').dataset.better]]))")
    result = CliRunner().invoke(cli, ["compare", str(page.parent / "scores.tsv"), "-m", "f1", "--format", "json",
                                      "--resamples", "2000"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    significant = {frozenset((p["a"], p["b"])) for p in doc["pairs"] if p["significant"]}
    assert significant  # the sample track has separated pairs (docs/statistics.md: careful beats ranks 4-6)
    for a, b in itertools.combinations(F1_ORDER, 2):
        shared = set(re.findall(r"[a-z]\d*", cells[a][0])) & set(re.findall(r"[a-z]\d*", cells[b][0]))
        assert bool(shared) == (frozenset((a, b)) not in significant), (a, b, cells)
    for system in doc["systems"]:
        assert sorted(cells[system["run_id"]][1].split()) == sorted(system["better_than"])
    text = browser.evaluate("document.getElementById('significance').textContent")
    assert "randomized Tukey HSD" in text and "no further correction" in text and "2000 permutations, seed 0" in text
    assert "argue-eval compare " + str(page.parent / "scores.tsv") + " -m f1 --test tukey" in text
    browser.screenshot(tmp_path / "leaderboard-groups.png")
    assert browser.errors() == []


def test_micro_averages_beside_macro(browser, page, tmp_path):
    browser.open(page)
    sub = browser.evaluate("Array.from(document.querySelectorAll('#leaderboard-table thead tr.sub-head th')).map(t => t.textContent.trim())")
    assert sub[:2] == ["macro \u25be", "micro"] and sub.count("micro") == 9  # F1 first, then all 8 measures
    row = "#leaderboard-table tr[data-run=careful]"
    # careful's F1 from the score table: macro 0.98864 (mean over topics), micro 0.98969 = the harmonic mean of
    # sentence_support_micro 50/50 and nugget_coverage_micro 48/49 (counts summed over the 8 topics)
    assert browser.evaluate(f"document.querySelector('{row} td.main').textContent") == "0.989"
    assert browser.evaluate(f"document.querySelector('{row} td.main-micro').textContent") == "0.990"
    # misses-topics skipped 3 topics: they count 0 in the macro mean (0.600) but add no count to the micro (0.958)
    cells = browser.evaluate("Array.from(document.querySelectorAll('#leaderboard-table tr[data-run=\"misses-topics\"] td.num'))"
                             ".map(td => td.textContent)")
    assert cells[3:5] == ["0.600", "0.958"]  # rank, F1 macro, F1 micro, then sentence support macro / micro
    # sorting by a micro column: misses-topics' sentence-support micro (0.958) is second only to careful's 1.000
    browser.evaluate("document.querySelectorAll('#leaderboard-table thead tr.sub-head th.micro')[1].click()")
    assert _leaderboard(browser)[:2] == ["careful", "misses-topics"]
    browser.screenshot(tmp_path / "leaderboard-micro.png")
    assert browser.errors() == []


def test_report_as_running_text_with_numbered_citations(browser, page, tmp_path):
    browser.open(page)
    browser.evaluate("location.hash = '#report/careful/s01'")
    browser.wait_for("document.getElementById('report-text') !== null")
    # careful on s01 (its details): 7 sentences, 6 citations of 5 documents (nw-0006 twice), 7 of 7 nuggets
    counts = browser.evaluate("document.getElementById('report-counts').textContent")
    assert counts == "7 sentences \u00b7 6 citations (5 documents) \u00b7 7 of 7 nuggets covered"
    sentences = browser.evaluate("Array.from(document.querySelectorAll('#sentences > li .text')).map(s => s.textContent)")
    prose = browser.evaluate("Array.from(document.querySelectorAll('#report-text .run-sentence')).map(s => s.textContent)")
    assert prose == sentences and len(prose) == 7
    assert prose[0].startswith("In early March 2025 the town of Ridgefield")
    # one marker per citation, a document numbered at its first citation: sentences 1-6 cite nw-0001, nw-0002,
    # nw-0004, nw-0006, nw-0006 again, nw-0008; sentence 7 cites nothing
    markers = browser.evaluate("Array.from(document.querySelectorAll('#report-text a.cite')).map(a => [a.textContent, a.dataset.doc])")
    assert markers == [["[1]", "nw-0001"], ["[2]", "nw-0002"], ["[3]", "nw-0004"], ["[4]", "nw-0006"], ["[4]", "nw-0006"],
                       ["[5]", "nw-0008"]]
    docs = browser.evaluate("Array.from(document.querySelectorAll('#cited-docs > li')).map(li => li.dataset.doc)")
    assert docs == ["nw-0001", "nw-0002", "nw-0004", "nw-0006", "nw-0008"]
    assert browser.evaluate("document.querySelectorAll('#report-text a.cite.yes.relevant').length") == 6  # all support, all relevant
    first = browser.evaluate("document.querySelector('#cited-docs > li').textContent")
    assert "Ridgefield" in first and "supports 1 of 1 citing sentence" in first  # the title, from --collection
    # per sentence: citations and nuggets (the last is uncited: a negative assertion a nugget records, outcome 8)
    tags = browser.evaluate("Array.from(document.querySelectorAll('#sentences .sentence-counts')).map(s => s.textContent)")
    assert tags == ["1 citation, 1 nugget"] * 6 + ["0 citations, 1 nugget"]
    # a click on a sentence of the text opens how it was judged
    browser.evaluate("document.querySelector('#report-text .run-sentence[data-sentence=\"2\"]').click()")
    assert browser.evaluate("document.querySelector('#s2 details.why').open") is True
    browser.screenshot(tmp_path / "report-text.png")
    assert browser.errors() == []


def test_uncovered_nuggets_list_their_answers_with_and_or(browser, page, tmp_path):
    browser.open(page)
    # misses-topics on s01 found one of the two bound answers of the AND nugget s01-n4 (its details): uncovered
    browser.evaluate("location.hash = '#report/misses-topics/s01'")
    browser.wait_for("document.querySelector('#report-nuggets') !== null")
    nugget = "#report-nuggets li[data-nugget=\"s01-n4\"]"
    assert browser.evaluate(f"document.querySelector('{nugget}').className") == "nugget uncovered"
    assert browser.evaluate(f"document.querySelector('{nugget} .tag.aggregator').textContent") == "AND"
    assert browser.evaluate(f"document.querySelector('{nugget} .why-uncovered').textContent") == \
        "AND: covered only when all 2 required answers are found; 1 of 2 found"
    answers = browser.evaluate(f"Array.from(document.querySelectorAll('{nugget} li.answer')).map(li => [li.className, li.textContent])")
    assert answers == [["answer found", "\u2713 \u201cthe Drinking Water Inspectorate\u201d found"],
                       ["answer missed", "\u2717 \u201cthe Department of Health\u201d not found"]]
    # an uncovered OR nugget: any one answer would do, none was found
    browser.evaluate("location.hash = '#report/hallucinating/s01'")
    browser.wait_for("document.querySelector('#report-nuggets li[data-nugget=\"s01-n2\"]') !== null")
    assert browser.evaluate("document.querySelector('#report-nuggets li[data-nugget=\"s01-n2\"] .why-uncovered').textContent") == \
        "OR: covered when any one answer is found; none found"
    assert browser.evaluate("document.getElementById('report-counts').textContent").endswith("2 of 7 nuggets covered")
    browser.screenshot(tmp_path / "report-nuggets.png")
    # the nugget view counts what each run covered on the topic (careful all 7, hallucinating 2: their details)
    browser.evaluate("location.hash = '#nuggets/s01'")
    browser.wait_for("document.querySelector('#nugget-table tfoot') !== null")
    covered = browser.evaluate("Object.fromEntries(Array.from(document.querySelectorAll('#nugget-table td.covered-count'))"
                               ".map(td => [td.dataset.run, td.textContent]))")
    assert covered["careful"] == "7/7" and covered["hallucinating"] == "2/7" and covered["misses-topics"] == "4/7"
    assert browser.errors() == []


def test_the_content_security_policy_holds(page, tmp_path):
    """The page's CSP is in force: a fetch the page tried would be blocked by it (in a browser of its own: the
    blocked attempt is logged as an error, which the other tests must not see)."""
    with Browser(tmp_path) as browser:
        browser.open(page)
        assert browser.errors() == []
        refused = browser.evaluate("""new Promise(done => {
            document.addEventListener('securitypolicyviolation', e => done(e.violatedDirective), { once: true });
            const img = document.createElement('img'); img.src = 'https://example.invalid/x.png'; document.body.appendChild(img);
            setTimeout(() => done('no violation'), 3000); })""")
        assert refused == "img-src"
        blocked = [event["params"].get("blockedReason") for event in browser.events
                   if event["method"] == "Network.loadingFailed"]
        assert blocked == ["csp"] and any("Content Security Policy" in error for error in browser.errors())


def test_heatmap_click_opens_the_report_view(browser, page, tmp_path):
    browser.open(page)
    browser.evaluate("document.querySelector('nav a[data-view=topics]').click()")
    browser.wait_for("document.querySelector('#heatmap') !== null")
    assert browser.evaluate("document.querySelectorAll('#heatmap tbody tr').length") == 6
    assert browser.evaluate("document.querySelectorAll('#heatmap thead th.topic-head').length") == 8
    # misses-topics did not answer s03: its cell is not a link
    assert browser.evaluate("document.querySelector('#heatmap tr[data-run=\"misses-topics\"] td[data-topic=s03]').classList.contains('link')") is False
    assert browser.evaluate("document.querySelector('#heatmap tr[data-run=\"misses-topics\"] td[data-topic=s03]').classList.contains('absent')") is True
    assert browser.evaluate("document.querySelectorAll('#heatmap td.absent').length") == 3  # s03, s05, s08
    browser.screenshot(tmp_path / "topics.png")
    browser.evaluate("document.querySelector('#heatmap tr[data-run=\"no-citations\"] td[data-topic=s01]').click()")
    browser.wait_for("location.hash === '#report/no-citations/s01'")
    assert _visible(browser) == "view-report"
    outcomes = browser.evaluate("Array.from(document.querySelectorAll('#sentences > li')).map(li => li.dataset.outcome)")
    assert outcomes[:2] == ["4", "5"]  # an introduction, then an uncited claim
    assert browser.evaluate("document.getElementById('s1').classList.contains('outcome-5')") is True
    browser.screenshot(tmp_path / "report-no-citations.png")
    browser.evaluate("location.hash = '#report/hallucinating/s01'")
    browser.wait_for("location.hash === '#report/hallucinating/s01' && document.getElementById('s1') !== null")
    # the cracked-sewer-pipe sentence cites a story that says flooding: outcome 1
    assert browser.evaluate("document.getElementById('s1').className") == "sentence outcome-1"
    assert "not supporting" in browser.evaluate("document.getElementById('s1').textContent")
    # open every "why" and document box: the judge and the cited document's text are there
    browser.evaluate("document.querySelectorAll('#sentences details').forEach(d => d.open = true)")
    text = browser.evaluate("document.getElementById('s1').textContent")
    assert "human:sample-assessor" in text and "[2] nw-0002" in text and "Lynde Road" in text
    browser.screenshot(tmp_path / "report-hallucinating.png")
    assert browser.errors() == []


def test_report_nuggets_nugget_view_and_about(browser, page, tmp_path):
    browser.open(page)
    browser.evaluate("location.hash = '#report/careful/s01'")
    browser.wait_for("document.querySelector('#report-nuggets') !== null")
    marks = browser.evaluate("Array.from(document.querySelectorAll('#report-nuggets > li')).map(li => li.className)")
    assert len(marks) == 7 and all(mark == "nugget covered" for mark in marks)  # careful covers all of s01's nuggets
    browser.evaluate("location.hash = '#nuggets/s01'")
    browser.wait_for("document.querySelector('#nugget-table') !== null")
    assert browser.evaluate("document.querySelectorAll('#nugget-table tbody tr').length") == 7
    runs = browser.evaluate("Array.from(document.querySelectorAll('#nugget-table thead th.run-head')).map(t => t.textContent)")
    assert runs == F1_ORDER  # all six runs answered s01, in leaderboard order
    browser.screenshot(tmp_path / "nuggets.png")
    browser.evaluate("location.hash = '#about'")
    browser.wait_for("document.querySelector('#view-about h2') !== null")
    assert "human:sample-assessor" in browser.evaluate("document.getElementById('view-about').textContent")
    browser.screenshot(tmp_path / "about.png")
    assert browser.errors() == []
    assert {url.split(":", 1)[0] for url in browser.requests()} == {"file"}  # nothing fetched from anywhere
    for name in ("nuggets.png", "about.png"):
        assert (tmp_path / name).stat().st_size > 5000


def test_hostile_report_text_stays_text(browser, page, tmp_path):
    browser.open(page)
    browser.evaluate("location.hash = '#report/wrong-cites/s02'")
    browser.wait_for("document.getElementById('s0') !== null")
    assert browser.evaluate("document.querySelector('#s0 .text').textContent") == HOSTILE
    # the same sentence in the running text and in the title of its span: text, never markup
    assert browser.evaluate("document.querySelector('#report-text .run-sentence').textContent") == HOSTILE
    assert browser.evaluate("typeof window.__pwned") == "undefined"
    assert browser.evaluate("document.querySelectorAll('main img, main script').length") == 0
    browser.screenshot(tmp_path / "hostile.png")
    assert browser.errors() == []


def test_trec_eval_scores_without_details(browser, tmp_path):
    """A leaderboard of retrieval measures from trec_eval -q files: no details, so no report to open."""
    stats = Path(__file__).resolve().parent / "fixtures" / "stats"
    page = tmp_path / "retrieval.html"
    result = CliRunner().invoke(cli, ["report", "--scores", str(stats / "runx.trec_eval"), "--scores", str(stats / "runy.q"),
                                      "--measure", "map", "--resamples", "500", "-o", str(page), "-q"])
    assert result.exit_code == 0, result.output
    browser.open(page)
    assert _leaderboard(browser) == ["runx", "runy"]  # map means 0.5 and 0.2 over topics 1, 2, 10
    assert browser.evaluate("document.querySelector('#leaderboard-table tbody tr td.main').textContent") == "0.500"
    browser.evaluate("location.hash = '#topics'")
    browser.wait_for("document.querySelector('#heatmap') !== null")
    assert browser.evaluate("document.querySelectorAll('#heatmap td.link').length") == 0
    browser.evaluate("location.hash = '#report'")
    browser.wait_for("document.getElementById('no-report') !== null")
    assert "--details" in browser.evaluate("document.getElementById('no-report').textContent")
    browser.screenshot(tmp_path / "retrieval.png")
    assert browser.errors() == []


def test_one_run_has_no_significance_column(browser, page, tmp_path):
    """A page of one run (here the sample's careful run alone) offers no test to read: no group column."""
    one = tmp_path / "one.html"
    repo = Path(__file__).resolve().parent.parent
    scores, details = page.parent / "scores.tsv", page.parent / "details.jsonl"
    result = CliRunner().invoke(cli, ["report", "--scores", str(scores), "--details", str(details), "--runs", "careful",
                                      "--nuggets", str(repo / "nuggets/sample/nuggets.jsonl"), "--resamples", "500",
                                      "-o", str(one), "-q"])
    assert result.exit_code == 0, result.output
    browser.open(one)
    assert _leaderboard(browser) == ["careful"]
    heads = browser.evaluate("Array.from(document.querySelectorAll('#leaderboard-table thead tr:first-child th')).map(t => t.textContent)")
    assert "group" not in heads and len(heads) == 4 + 8  # #, run, F1, interval, then the 8 measures (macro / micro under each)
    assert "One run: nothing to test it against" in browser.evaluate("document.getElementById('significance').textContent")
    browser.screenshot(tmp_path / "one-run.png")
    browser.evaluate("location.hash = '#about'")
    browser.wait_for("document.querySelector('#view-about h2') !== null")
    assert "significance: none (one run)" in browser.evaluate("document.getElementById('view-about').textContent")
    assert browser.errors() == []
