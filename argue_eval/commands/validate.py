"""``argue-eval validate``: every problem of one or more runs, located, then a one-line summary."""
from __future__ import annotations

from typing import Any

import click

from ..errors import OptionError
from ._choices import CHECKS, TRACKS, track_names
from ._common import format_option
from ._options import Number, run_options, verbosity_options
from ._output import emit, json_mode
from ._paths import InputPath, OutputPath

_CHECK_LIST = "\n".join(f"  {name:<27} {severity:<8} {what}" for name, (severity, what) in CHECKS.items())


@click.command(
    name="validate",
    epilog="\b\nChecks (name, default severity, what it catches); --warn/--error change the severity:\n" + _CHECK_LIST,
)
@verbosity_options
@run_options("A run file to check (the run files may also be given as arguments); repeatable.", required=True)
@click.option("--requests", "requests_path", type=InputPath(dir_okay=False), default=None,
              help="The requests (topics) file, any request format. Without it the topic checks are skipped.")
@click.option("--requests-format", default=None, metavar="NAME", help="The requests file's format, if detection should not guess.")
@click.option("--collection", default=None, type=InputPath(folder=True), metavar="SPEC",
              help="Check that cited documents exist: a JSONL collection, an ir_datasets id or a Lucene index.")
@click.option("--limit", type=click.IntRange(0, 1_000_000_000), default=None,
              help="Length limit for every report, overriding the requests' limits.")
@click.option("--unit", type=click.Choice(["chars", "words"]), default=None,
              help="Unit of the length limit, overriding the requests' unit (default: the request's, else chars); "
                   "a --track limit keeps the track's unit.")
@click.option("--max-citations-per-sentence", "max_citations_per_sentence", type=click.IntRange(0, 1_000_000), default=None, metavar="K",
              help="Flag sentences that cite more than K documents.")
@click.option("--citation-score-range", "citation_score_range", nargs=2, type=Number(), default=None, metavar="MIN MAX",
              help="Flag citation scores outside [MIN, MAX] (RAGTIME {doc_id: score} citations, citation_scores). "
              "Off by default: the RAGTIME run schema only requires numbers.")
@click.option("--track", type=click.Choice(track_names(), case_sensitive=False), default=None,
              help="Check what the track demands: its run format, length limit and unit (when a request states none), "
                   "references cap and required fields (" + "; ".join(f"{p.name}: {p.title}" for p in TRACKS.values())
                   + "). docs/validate.md lists each preset.")
@click.option("--language", default=None, metavar="CODE",
              help="Check that each report is in this language (ISO 639-1, e.g. en), identified offline per sentence "
                   "(py3langid); default: the --track's (RAGTIME, NeuCLIR: en); 'any' turns the check off.")
@click.option("--language-threshold", type=click.FloatRange(0, 1, min_open=True), default=0.5, show_default=True,
              metavar="SHARE", help="The least share of a report's text that must be in that language.")
@click.option("--warn", "as_warning", multiple=True, type=click.Choice(list(CHECKS)), metavar="CHECK",
              help="Report this check as a warning instead of an error (repeatable), e.g. --warn missing-topic.")
@click.option("--error", "as_error", multiple=True, type=click.Choice(list(CHECKS)), metavar="CHECK",
              help="Report this check as an error instead of a warning (repeatable), e.g. --error several-run-ids.")
@click.option("--fix", is_flag=True,
              help="Write each run repaired to -o (reports trimmed to the limit at sentence ends; repeated, out-of-range "
                   "and unknown citations, empty sentences and uncited RAGTIME references dropped), print every change "
                   "located in the input, then validate the fixed run. The input is never written.")
@click.option("-o", "--output", default=None, type=OutputPath(folder=True), metavar="FIXED",
              help="With --fix: the fixed run (one RUN), or a directory for them (several RUNs: each by its file name).")
@click.option("--changes", "changes_path", default=None, type=OutputPath(), metavar="CHANGES.tsv",
              help="With --fix: also write every change as a TSV table (file, line, field, fix, message).")
@format_option
def command(
    runs: tuple[str, ...], requests_path: str | None, as_warning: tuple[str, ...], as_error: tuple[str, ...],
    fix: bool = False, output: str | None = None, changes_path: str | None = None, verbose: bool = False,
    **options: Any,
) -> None:
    """Check runs against the requests (and collection): located errors.

    Prints every problem as FILE:LINE: field: message (warnings say "warning:"), sorted by file and line,
    then one summary line. Exit status: 0 valid (warnings allowed), 1 errors found, 2 a file could not be
    read (malformed JSON Lines, unknown format) or a usage error.

    Lengths are counted on each sentence's text after Unicode NFKC normalization and summed over the
    sentences with nothing added between them: characters (code points) for "chars", whitespace-separated
    tokens for "words".

    \b
    Example on the sample track (a valid run, then the summary):
      argue-eval validate runs/sample/careful.jsonl --requests topics/sample/requests.jsonl \\
          --collection topics/sample/collection.jsonl
      0 errors, 0 warnings, 8 reports checked in 1 run file
    \b
    Every sample run, over-long reports and missing topics reported as warnings (exit status 0):
      argue-eval validate runs/sample/*.jsonl --requests topics/sample/requests.jsonl \\
          --collection topics/sample/collection.jsonl --warn length --warn missing-topic
      runs/sample/misses-topics.jsonl: warning: run 'misses-topics' has no report for request 's03' (topics/sample/requests.jsonl:3)
      ...
      0 errors, 11 warnings, 45 reports checked in 6 run files
    \b
    Against a track's rules (NeuCLIR 2024: 2,000 characters, required fields; --track rag24 checks a
    TREC RAG 2024 run's 400 words and 20 references):
      argue-eval validate runs/sample/careful.jsonl --requests topics/sample/requests.jsonl --track neuclir24
    \b
    A cap on citations, RAGTIME citation scores in [0, 1]:
      argue-eval validate runs/sample/misses-topics.jsonl --requests topics/sample/requests.jsonl \\
          --warn missing-topic --max-citations-per-sentence 3 --citation-score-range 0 1
    \b
    Repair a run (its over-long reports trimmed at sentence ends, its bad citations dropped) into a new file,
    every change listed, then the fixed run validated (exit status 0 when it is valid):
      argue-eval validate runs/sample/too-long.jsonl --requests topics/sample/requests.jsonl \\
          --track neuclir24 --fix -o too-long.fixed.jsonl
      runs/sample/too-long.jsonl:1: sentences: fixed: report was 3446 characters, over the limit of 2000 characters (request 's01'): dropped sentences[5..9] (5 sentences); now 1700 characters
      runs/sample/too-long.jsonl:1: references[5]: fixed: dropped the reference 'nw-0006', which no sentence cites
      ...
      28 changes in 8 of 8 reports (8 length, 20 reference-not-cited); 30 sentences dropped, 0 cut; fixed: 0 errors, 0 warnings, 8 reports checked in 1 run file
    """
    from ..api.validate import validate

    options = _checked(options, as_warning, as_error)
    if fix or output or changes_path:
        _fix(runs, output, changes_path, fix, verbose, requests_path, **options)
        return
    _report(runs, validate(runs, requests_path, **options), options["track"], verbose)


def _checked(options: dict[str, Any], as_warning: tuple[str, ...], as_error: tuple[str, ...]) -> dict[str, Any]:
    """The API's keywords from the options: --warn/--error as one severity map (a check named by both refused),
    --format as ``format``, and --citation-score-range checked to be a range."""
    both = sorted(set(as_warning) & set(as_error))
    if both:
        raise OptionError("--warn/--error", f"both name {', '.join(both)}")
    score_range = options["citation_score_range"]
    if score_range is not None and score_range[0] > score_range[1]:
        raise click.BadParameter(f"MIN {score_range[0]:g} is greater than MAX {score_range[1]:g}",
                                 param_hint="--citation-score-range")
    options["format"] = options.pop("format_name")
    options["severity"] = {name: "warning" for name in as_warning} | {name: "error" for name in as_error}
    return options


def _fix(runs: tuple[str, ...], output: str | None, changes_path: str | None, fix: bool, verbose: bool,
         requests: str | None, **options: Any) -> None:
    """``--fix``: each run repaired into ``-o``, every change printed, then the fixed runs' own problems."""
    from ..api.validate import fix as fix_runs

    if not fix:
        raise OptionError("-o" if output else "--changes", "writes the repaired run: give --fix too")
    if output is None:
        raise OptionError("--fix", "needs -o FIXED: the run is never repaired in place")
    outputs = _fixed_paths(runs, output)
    fixing = fix_runs(runs, outputs, requests, changes_path=changes_path, **options)
    if json_mode():
        emit(counts=_counts(fixing.validation), fixes=fixing.counts(), summary=fixing.summary(),
             fixed=[{"run": run.source, "output": run.output, "reports": run.reports,
                     "changed_reports": run.changed_reports, "sentences_dropped": run.sentences_dropped,
                     "sentences_cut": run.sentences_cut, "changes": dict(sorted(run.counts().items()))}
                    for run in fixing.fixed],
             changes=[str(change) for change in fixing.changes],
             problems=[str(problem) for problem in fixing.validation.problems], notes=())
        click.get_current_context().exit(fixing.validation.exit_code)
    for change in fixing.changes:
        click.echo(str(change))
    for problem in fixing.validation.problems:
        click.echo(str(problem))
    if verbose:
        for run in fixing.fixed:
            counts = ", ".join(f"{count} {name}" for name, count in sorted(run.counts().items())) or "no change"
            click.echo(f"{run.source} -> {run.output}: {counts}", err=True)
    click.echo(fixing.summary())
    click.get_current_context().exit(fixing.validation.exit_code)


def _fixed_paths(runs: tuple[str, ...], output: str) -> list[str]:
    """Where each fixed run goes: ``-o`` itself for one run (unless it is a directory), else ``-o/<run's name>``."""
    import os

    if len(runs) == 1 and not os.path.isdir(output):
        return [output]
    if os.path.exists(output) and not os.path.isdir(output):
        raise OptionError("-o", f"{output} is a file, but {len(runs)} runs are fixed: give a directory for them")
    names = [os.path.basename(run) for run in runs]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise OptionError("-o", f"two runs have the file name {repeated[0]!r}: fix them into separate directories")
    os.makedirs(output, exist_ok=True)
    return [os.path.join(output, name) for name in names]


def _report(runs: tuple[str, ...], validation, track: str | None, verbose: bool) -> None:
    """Every problem on stdout, the ``--verbose`` details on stderr, then the summary line and the exit status
    (``--json``: the counts, the summary line and the problems as one object)."""
    if json_mode():
        emit(counts=_counts(validation), summary=validation.summary(),
             problems=[str(problem) for problem in validation.problems], unreadable=validation.unreadable or None,
             notes=())
        click.get_current_context().exit(validation.exit_code)
    for problem in validation.problems:
        click.echo(str(problem))
    if verbose:
        _details(runs, validation, track)
    click.echo(validation.summary())
    click.get_current_context().exit(validation.exit_code)


def _counts(validation) -> dict[str, int]:
    """The summary line's figures."""
    return {"errors": validation.errors, "warnings": validation.warnings, "reports": validation.reports,
            "files": validation.files, "unreadable": len(validation.unreadable)}


def _details(runs: tuple[str, ...], validation, track: str | None) -> None:
    """``--verbose``: the preset applied, then errors and warnings per run file (on stderr)."""
    from collections import Counter

    if track is not None:
        from ._choices import get_track

        preset = get_track(track)
        limit = f"{preset.limit} {preset.unit}" if preset.limit is not None else f"the requests' ({preset.unit})"
        refs = f"at most {preset.max_references} references" if preset.max_references else "no references cap"
        click.echo(f"track {preset.name} ({preset.title}): format {' or '.join(preset.run_formats)}, length limit "
                   f"{limit} unless a request states one, {refs}, {len(preset.required)} required fields", err=True)
    counts = Counter((problem.path, problem.severity) for problem in validation.problems)
    for run in runs:
        click.echo(f"{run}: {counts[(run, 'error')]} error(s), {counts[(run, 'warning')]} warning(s)", err=True)
