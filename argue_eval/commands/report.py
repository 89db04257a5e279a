"""``argue-eval report``: one self-contained HTML file with the leaderboard, heatmap, report and nugget views."""
from __future__ import annotations

from pathlib import Path

import click

from ..report.data import DEFAULT_DOC_CHARS
from ._options import RESAMPLES, SEED, team_options, verbosity_options
from ._output import emit, json_mode
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
@click.option("--figures", "figures_dir", type=OutputPath(folder=True, file_okay=False, path_type=Path), default=None,
              metavar="DIR", help="Also write the overview's figures (PNG, SVG, PDF; needs the figures extra, "
              "matplotlib) into DIR; the page gets a Figures view linking them.")
@click.option("--packets", "packets_dir", type=OutputPath(folder=True, file_okay=False, path_type=Path), default=None,
              metavar="DIR", help="Also write one folder per team with only its runs: their scores per topic "
              "beside the median, best and worst of all runs, its own HTML report and TSVs (and, with --figures, "
              "its runs' figures); nothing names or quotes another team's run.")
@team_options(used_by="--packets")
@click.option("--flags", "flags_path", type=InputPath(path_type=Path), default=None, metavar="FLAGS.tsv",
              help="Circularity flags (`analyze circularity --format tsv`), marked in the leaderboard.")
@click.option("--human-scores", type=InputPath(path_type=Path), default=None, metavar="H.tsv",
              help="The same runs scored with the people's judgments: with --figures, the judge-against-people figure.")
@click.option("--reusability", "reusability_path", type=InputPath(path_type=Path), default=None, metavar="REUSE.tsv",
              help="The table of `analyze reusability --format tsv`: with --figures, the leave-one-team-out figure.")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing but errors.")
@click.option("--verbose", "-v", is_flag=True, help="Also print every note (left-out records, missing documents, ...).")
def command(scores, details, runs, nuggets, requests, judgments, human, collection, baseline, test, correction, alpha, measure,
            title, resamples, seed, doc_chars, scores_format, output, figures_dir, packets_dir, team_pairs, team_files,
            team_pattern, flags_path, human_scores, reusability_path, quiet, verbose) -> None:
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
      argue-eval report --scores scores.tsv --details details.jsonl --resamples 1000 \\
          --figures figures --packets packets -o report.figures.html
      argue-eval judge --run runs/sample/careful.jsonl --run runs/sample/hallucinating.jsonl \\
          --nuggets nuggets/sample/nuggets.jsonl --requests topics/sample/requests.jsonl \\
          --collection topics/sample/collection.jsonl -o judgments.lexical.jsonl
      argue-eval report --scores scores.tsv --details details.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --judgments judgments.lexical.jsonl --human qrels/sample/judgments.jsonl \\
          --collection topics/sample/collection.jsonl --resamples 1000 -o report.people.html
    """
    from ..api import report_inputs
    from ..report import ReportOptions, write_report

    options = ReportOptions(baseline=baseline, test=test, correction=correction, alpha=alpha, measure=measure,
                            resamples=resamples, seed=seed, title=title, doc_chars=doc_chars,
                            scores_source=" ".join(str(path) for path in scores)
                            + (f" --scores-format {scores_format}" if scores_format else ""))
    people = _people_view(human, judgments, nuggets, collection, resamples, seed) if human is not None else None
    detail_notes: list[str] = []  # another measure's --details file: said, not refused
    inputs = report_inputs(scores, details=details, requests=requests, nuggets=nuggets, judgments=judgments,
                           scores_format=scores_format, detail_notes=detail_notes)
    run_ids = [run.strip() for run in runs.split(",") if run.strip()] if runs else None
    flags = _flags(flags_path)
    figures = _figures(figures_dir, output, inputs.scores, options, run_ids, human_scores, scores_format,
                       reusability_path)
    if packets_dir is not None:  # the packets show the same details and judgments: read once, kept for both
        inputs = inputs._replace(details=list(inputs.details), judgments=list(inputs.judgments))
    data = write_report(output, inputs.scores, collection=collection, details=inputs.details,
                        requests=inputs.requests, nuggets=inputs.nuggets, judgments=inputs.judgments,
                        options=options, run_ids=run_ids, people=people, flags=flags, figures=figures)
    packets = None
    if packets_dir is not None:
        packets = _packets(packets_dir, inputs, collection, options, team_pairs, team_files, team_pattern, flags,
                           figures_dir is not None, quiet or json_mode())
    if json_mode():
        _json_summary(data, output, detail_notes, figures_dir, packets_dir, packets)
        return
    _summary(data, output, detail_notes, quiet, verbose)


def _json_summary(data, output: Path, detail_notes: list[str], figures_dir, packets_dir, packets) -> None:
    """``--json``: what ``_summary`` says (every note, as the page lists them), the packets' teams too."""
    main = data.main
    counts = {"runs": len(main["runs"]), "topics": len(main["topics"]),
              "reports": sum(len(block["reports"]) for block in data.topics), "measures": len(main["measures"]),
              "bytes": output.stat().st_size}
    emit(counts=counts, output=output, figures=figures_dir, packets=packets_dir,
         teams=None if packets is None else [{"team": team, "runs": runs} for team, _, runs, _ in packets],
         notes=[*(f"note: {note}" for note in detail_notes), *(f"note: {note}" for note in data.notes)])


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


def _flags(path):
    from ..api.analysis import read_flags

    return read_flags(path) if path is not None else None


def _figures(directory, page, records, options, run_ids, human_scores, scores_format, reusability_path):
    """``--figures DIR``: the round's figures written (``report.figure_set``), as the page's Figures view entries."""
    if directory is None:
        return None
    from ..api import report_inputs
    from ..api.analysis import read_reusability
    from ..report.figure_set import figure_entries, write_round_figures

    people = report_inputs([human_scores], scores_format=scores_format).scores if human_scores is not None else None
    reuse = read_reusability(reusability_path) if reusability_path is not None else None
    written = write_round_figures(directory, records, options, people_scores=people,
                                  judge_label=options.scores_source.split(" --scores-format")[0],
                                  people_label=Path(human_scores).name if human_scores is not None else "",
                                  reusability=reuse, run_ids=run_ids)
    return figure_entries(written, page)


def _packets(directory, inputs, collection, options, team_pairs, team_files, team_pattern, flags, figures,
             quiet) -> list:
    """``--packets DIR``: one folder per team (``report.packets``), from the inputs the whole report was built
    from (``api.ReportInputs``, the details and judgments kept as lists: not read a second time)."""
    from ..api.analysis import run_mapping, team_map
    from ..report.packets import build_packets, write_packets

    records = inputs.scores
    teams, notes = team_map(sorted({record.run_id for record in records}),
                            teams=run_mapping(team_pairs, team_files, "--team") or None, team_pattern=team_pattern)
    packets = build_packets(records, teams, details=inputs.details, requests=inputs.requests, nuggets=inputs.nuggets,
                            judgments=inputs.judgments, collection=collection, options=options, flags=flags)
    written = write_packets(directory, packets, figures=figures, records=records, options=options)
    if not quiet:
        for note in notes:
            click.echo(f"note: {note}", err=True)
        click.echo(f"packets: {len(written)} team(s) -> {directory}: "
                   + ", ".join(f"{team} ({runs})" for team, _, runs, _ in written), err=True)
    return written
