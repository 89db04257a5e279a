"""``argue-eval report``: one self-contained HTML file with the leaderboard, heatmap, report and nugget views."""
from __future__ import annotations

from pathlib import Path

import click

from ..report.data import DEFAULT_DOC_CHARS
from ._options import RESAMPLES, SEED, verbosity_options
from ._paths import InputPath, OutputPath


@click.command("report", context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@verbosity_options
@click.option("--scores", "scores", required=True, multiple=True, type=InputPath(path_type=Path), metavar="S.tsv",
              help="Score table(s) from `score` (or trec_eval -q / ir_measures tables); repeatable.")
@click.option("--details", "details", multiple=True, type=InputPath(path_type=Path), metavar="D.jsonl",
              help="`score --details` output: enables the report, nugget and judge views; repeatable.")
@click.option("--runs", "runs", default=None, metavar="RUN,RUN",
              help="Only these run ids (comma-separated; default: every run in the score table).")
@click.option("--nuggets", default=None, type=InputPath(folder=True), metavar="N", help="Nugget file: answers and attesting documents per nugget.")
@click.option("--requests", default=None, type=InputPath(), metavar="R", help="Requests file: each topic's title, background and request.")
@click.option("--judgments", multiple=True, type=InputPath(path_type=Path), metavar="J",
              help="Judgment file(s) whose rationale and confidence are shown beside each answer; repeatable.")
@click.option("--human", default=None, type=InputPath(path_type=Path), metavar="H.jsonl",
              help="The people's judgments (workbench export, `assess import`, any judgments file): adds a \"judges "
                   "against people\" view comparing each --judgments file with them, as `agree-judgments` does.")
@click.option("--collection", default=None, type=InputPath(folder=True), metavar="C",
              help="Document collection (JSONL, Lucene index or irds:ID): cited documents' text, shown on demand.")
@click.option("--baseline", default=None, metavar="RUN",
              help="Mark runs significantly above/below this one (default: letter groups over all pairs).")
@click.option("--test", "test", type=click.Choice(["randomization", "t", "tukey"]), default=None,
              help="As for `compare` [default, as there: tukey for all pairs, randomization with --baseline].")
@click.option("--correction", type=click.Choice(["holm", "bh", "bonferroni", "none"]), default=None,
              help="As for `compare` [default: holm for randomization and t; none for tukey].")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05, show_default=True,
              help="Significance level of the groups and marks.")
@click.option("--measure", default="f1", show_default=True, help="The measure the leaderboard ranks by at first.")
@click.option("--title", default="ARGUE evaluation report", show_default=True, help="The page title.")
@click.option("--resamples", type=RESAMPLES, default=10_000, show_default=True,
              help="Bootstrap resamples and Tukey HSD permutations.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Random seed: same inputs and seed, same bytes.")
@click.option("--doc-chars", type=click.IntRange(0, 1_000_000_000), default=DEFAULT_DOC_CHARS, show_default=True,
              help="Characters of each cited document kept in the page (with --collection).")
@click.option("--scores-format", default=None, metavar="NAME", help="Score table format if detection should not guess.")
@click.option("-o", "--output", required=True, type=OutputPath(path_type=Path), metavar="OUT.html", help="The HTML file.")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing but errors.")
@click.option("--verbose", "-v", is_flag=True, help="Also print every note (left-out records, missing documents, ...).")
def command(scores, details, runs, nuggets, requests, judgments, human, collection, baseline, test, correction, alpha, measure,
            title, resamples, seed, doc_chars, scores_format, output, quiet, verbose) -> None:
    """Write one self-contained HTML report: open it in any browser, offline.

    The leaderboard ranks runs by a measure (mean with its 95% BCa interval and the score table's micro
    average, significance against --baseline or letter groups, decided exactly as `compare` decides them
    with the same options; sortable, with a measure selector); the topics view is a runs x topics
    heatmap with each topic's difficulty; a click opens a report with its sentences coloured by flowchart
    outcome, each citation's relevance and support, the judges' answers (and rationales with
    --judgments), the nuggets it covered, and the cited documents (with --collection); the nuggets view
    shows which runs covered each nugget; with --human, a view compares each --judgments file with the people's
    judgments as `agree-judgments` does. CSS, script and data are inside the file; it loads nothing.

    \b
    Example (the shipped sample track):
      argue-eval score --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --judgments qrels/sample/judgments.jsonl \\
          -o scores.tsv --details details.jsonl
      argue-eval report --scores scores.tsv --details details.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --judgments qrels/sample/judgments.jsonl \\
          --collection topics/sample/collection.jsonl --baseline careful -o report.html
      argue-eval judge --run runs/sample/careful.jsonl --run runs/sample/hallucinating.jsonl \\
          --nuggets nuggets/sample/nuggets.jsonl --requests topics/sample/requests.jsonl \\
          --collection topics/sample/collection.jsonl -o judgments.lexical.jsonl
      argue-eval report --scores scores.tsv --details details.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --judgments judgments.lexical.jsonl --human qrels/sample/judgments.jsonl \\
          --collection topics/sample/collection.jsonl --resamples 1000 -o report.people.html
    """
    from ..formats import read_judgments, read_nuggets, read_requests
    from ..formats.details import read_details
    from ..formats.scores import read_scores
    from ..report import ReportOptions, write_report

    options = ReportOptions(baseline=baseline, test=test, correction=correction, alpha=alpha, measure=measure,
                            resamples=resamples, seed=seed, title=title, doc_chars=doc_chars,
                            scores_source=" ".join(str(path) for path in scores)
                            + (f" --scores-format {scores_format}" if scores_format else ""))
    people = _people_view(human, judgments, nuggets, collection, resamples, seed) if human is not None else None
    records = [record for path in scores for record in read_scores(path, scores_format)]
    detail_notes: list[str] = []  # another measure's --details file: said, not refused
    run_ids = [run.strip() for run in runs.split(",") if run.strip()] if runs else None
    data = write_report(
        output, records, collection=collection,
        details=(record for path in details for record in read_details(path, detail_notes)),
        requests=list(read_requests(requests)) if requests else (),
        nuggets=list(read_nuggets(nuggets)) if nuggets else (),
        judgments=(judgment for path in judgments for judgment in read_judgments(path)),
        options=options, run_ids=run_ids, people=people,
    )
    _summary(data, output, detail_notes, quiet, verbose)


def _summary(data, output: Path, detail_notes: list[str], quiet: bool, verbose: bool) -> None:
    """What was written, and the notes (all with --verbose): the --details files of other measures first."""
    for note in detail_notes:
        click.echo(f"note: {note}", err=True)
    if quiet:
        return
    main = data.main
    reports = sum(len(block["reports"]) for block in data.topics)
    click.echo(f"report: {len(main['runs'])} run(s), {len(main['topics'])} topic(s), {reports} report(s) with "
               f"details, {len(main['measures'])} measure(s) -> {output} ({output.stat().st_size:,} bytes)", err=True)
    notes = data.notes if verbose else data.notes[:5]
    for note in notes:
        click.echo(f"note: {note}", err=True)
    if len(data.notes) > len(notes):
        click.echo(f"note: {len(data.notes) - len(notes)} more note(s): --verbose prints them, the page lists them all",
                   err=True)


def _people_view(human, judgments, nuggets, collection, resamples: int, seed: int) -> dict:
    """The "judges against people" view's data: each --judgments file against --human (``api.agree_judgments``)."""
    from ..api import agree_judgments
    from ..errors import OptionError

    if not judgments:
        raise OptionError("--human", "the judges against people view compares judges' judgments with the people's: "
                          "give them with --judgments J (repeatable)")
    return agree_judgments(human, list(judgments), nuggets=nuggets, collection=collection, resamples=resamples,
                           seed=seed).report_section()
