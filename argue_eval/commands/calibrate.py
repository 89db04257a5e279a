"""``argue-eval judge calibrate``: fit a judge's thresholds to human labels and write a judge profile.

Typed as two words because it belongs to ``judge``: ``cli.LazyGroup`` resolves ``judge calibrate`` before ``judge``
(whose own arguments are run files), so ``argue-eval judge --run ...`` is unchanged.
"""
from __future__ import annotations

import json
from typing import Any

import click

from ..api.calibrate import OBJECTIVES
from ._options import (
    RESAMPLES,
    SEED,
    input_options,
    llm_options,
    parse_judge_options,
    policy_options,
    verbosity_options,
)
from ._paths import InputPath, OutputPath, UpdatedPath, default_cache_path


@click.command("judge calibrate")
@verbosity_options
@input_options
@click.option("--human", "human", multiple=True, required=True, type=InputPath(), metavar="H.jsonl",
              help="Human judgments (a workbench export, `assess import` output, any judgments file); repeat for "
                   "several assessors (a question's label is the answer most of its labels give).")
@click.option("--collection", default=None, type=InputPath(folder=True), metavar="C",
              help="Document collection (JSONL, irds:ID or Lucene index): the judge reads the cited documents.")
@click.option("--judge", "judge_spec", default="lexical", show_default=True, metavar="JUDGE",
              help="The judge to calibrate: lexical, semantic, or a cascade (lexical,semantic; with a model judge "
                   "last, its answers are asked once and only the offline members and the band are fitted).")
@click.option("--judge-option", "judge_option", multiple=True, metavar="BACKEND.NAME=VALUE",
              help="An option held as given (not fitted), e.g. lexical.passage_words=200; repeatable.")
@click.option("--nli-model", default=None, metavar="PATH",
              help="Local directory of a transformers NLI model (a cascade with nli); never downloaded.")
@click.option("--cache", "cache_path", default=None, metavar="PATH",
              type=UpdatedPath(default=default_cache_path, disabled_by="no_cache"),
              help="SQLite judgment cache: the semantic judge's embeddings and a model member's answers go here "
                   "(the grid points' answers do not). Default: .argue-cache/judgments.sqlite.")
@click.option("--no-cache", is_flag=True, help="Do not read or write the judgment cache.")
@llm_options
@click.option("-o", "--output", required=True, type=OutputPath(), metavar="P.json",
              help="The judge profile to write (JSON), for --judge-option profile=P.json. Not written when the "
                   "fitted options do worse than the defaults on some kind's held-out folds (exit 1).")
@click.option("--folds", type=click.IntRange(2, 10_000), default=5, show_default=True, metavar="K",
              help="Cross-validation folds over the labelled topics (at most one per topic: K larger than the "
                   "topics is leave-one-topic-out).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the folds and the resamples.")
@click.option("--kinds", default=None, metavar="KIND[,KIND]",
              help="Fit these question kinds only; the others keep their defaults (default: every labelled kind).")
@click.option("--objective", type=click.Choice(OBJECTIVES), default="kappa", show_default=True,
              help="What the fit maximizes per kind: Cohen's kappa with the people, or balanced accuracy.")
@click.option("--resamples", type=RESAMPLES, default=1000, show_default=True, metavar="B",
              help="Topic resamples for the 95% intervals.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object instead of the table.")
@policy_options
def command(runs, nuggets, judgments, requests, qrels, human, collection, judge_spec, judge_option, nli_model,
            cache_path, no_cache, output, folds, seed, kinds, objective, resamples, as_json, policies) -> None:
    """Calibrate a judge: fit its thresholds to human labels, with cross-validation by topic.

    Takes the inputs `judge` takes and human judgments of (some of) the questions a round on these runs asks:
    an assessed sample. Per question kind it fits the judge's threshold (and, for the lexical judge's nugget
    answers, the weight of the question's words; for a cascade, the confidence band where a member hands a
    question on) on a coarse grid, maximizing Cohen's kappa with the people, and moves an option from its
    default only when the gain exceeds one standard error over resamples of the training topics. The topics are
    dealt into --folds folds; each fold is judged with options fitted on the others, and the table compares
    those held-out answers with the default judge's on the same questions: accuracy and kappa with 95% intervals
    over topic resamples. The profile (fitted on all labelled topics) is written to -o, unless the fitted options
    do worse than the defaults on some kind's held-out folds: then nothing is written and the exit status is 1
    (--kinds leaves such a kind at its default). Use the profile with --judge-option profile=P.json in judge,
    evaluate and the measure commands; answers made under it are cached apart from any other's.

    \b
    Example (the sample track: assessors answer the questions of two runs as a pool file; the profile fitted on
    their answers then judges all six runs):
      argue-eval assess export --run runs/sample/hallucinating.jsonl --run runs/sample/wrong-cites.jsonl \\
          --nuggets nuggets/sample/nuggets.jsonl --requests topics/sample/requests.jsonl \\
          --collection topics/sample/collection.jsonl -o pool.csv
      # assessors fill the judgment column of pool.csv with yes or no (a spreadsheet will do)
      argue-eval assess import pool.csv --assessor alice -o human.jsonl
      argue-eval judge calibrate --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl \\
          --human human.jsonl -o profile.json
        ...
        kind  labels  default accuracy  default kappa  fitted accuracy  fitted kappa  kappa change
        ...
      argue-eval judge --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl \\
          --judge-option profile=profile.json -o judgments.calibrated.jsonl
    """
    from ..api.calibrate import calibrate
    from ..errors import OptionError
    from . import _judging as shared

    if collection is None:
        raise OptionError("--collection", "the judge reads the cited documents: give --collection C")
    result = calibrate(list(runs) if runs else None, nuggets, human=list(human), collection=collection,
                       judge=judge_spec, judge_options=parse_judge_options(judge_option, nli_model, judge_spec),
                       judgments=list(judgments), requests=requests, qrels=qrels,
                       cache=shared.cache_in_use(cache_path, no_cache), folds=folds, seed=seed,
                       kinds=[k.strip() for k in kinds.split(",") if k.strip()] if kinds is not None else None,
                       objective=objective, resamples=resamples, on_note=lambda note: click.echo(str(note), err=True),
                       **policies)
    finish(result, output, as_json)


def finish(result: Any, output: str, as_json: bool) -> None:
    """Print the figures; write the profile, or say why not and exit 1."""
    from ..api.calibrate import write_profile

    calibrated = result.data
    click.echo(json.dumps(_as_json(calibrated), indent=2) if as_json else render(calibrated), nl=as_json)
    if calibrated.refused:
        click.echo(f"error: refused to write {output}: the fitted options agree less with the people than the "
                   f"defaults on the held-out folds ({', '.join(calibrated.calibration.worse)}). Label more topics, or "
                   "keep those kinds at their defaults with --kinds.", err=True)  # kept under --quiet
        raise click.exceptions.Exit(1)
    profile_id = write_profile(result, output)
    click.echo(f"wrote judge profile {output} ({profile_id}): use it with --judge-option profile={output}", err=True)


def _as_json(calibrated: Any) -> dict[str, Any]:
    calibration = calibrated.calibration
    return {"judge": calibration.judge, "objective": calibration.objective, "options": calibration.options,
            "baseline": calibration.baseline, "refused": calibrated.refused,
            "profile_id": None if calibrated.refused else calibrated.profile_id, **calibration.cross_validation()}


def _with_interval(value: float | None, interval: list[float | None] | None) -> str | None:
    from ..tables import fmt_number

    shown = fmt_number(value, 3)
    if shown is None:
        return None
    if not interval or interval[0] is None or interval[1] is None:
        return shown
    return f"{shown} [{fmt_number(interval[0], 3)}, {fmt_number(interval[1], 3)}]"


def render(calibrated: Any) -> str:
    """The held-out figures per kind (a ``Calibrated``, ``api.calibrate``) and the options that moved."""
    from ..tables import Table, render_text

    calibration = calibrated.calibration
    folds = calibration.folds
    rows = []
    for figures in calibration.kinds:
        rows.append([figures.kind, str(figures.labels),
                     _with_interval(figures.default["accuracy"], figures.default["accuracy_interval"]),
                     _with_interval(figures.default["kappa"], figures.default["kappa_interval"]),
                     _with_interval(figures.fitted["accuracy"], figures.fitted["accuracy_interval"]),
                     _with_interval(figures.fitted["kappa"], figures.fitted["kappa_interval"]),
                     _with_interval(figures.delta["objective"], figures.delta["interval"])])
    notes = []
    if calibration.overall is not None:
        overall = calibration.overall
        rows.append([overall.kind, str(overall.labels), "", _with_interval(overall.default["objective"],
                     overall.default["objective_interval"]), "", _with_interval(overall.fitted["objective"],
                     overall.fitted["objective_interval"]), _with_interval(overall.delta["objective"],
                                                                            overall.delta["interval"])])
    if any(cell is None for row in rows for cell in row):
        notes.append("n/a: undefined (people gave one answer only, or the judge answered none of the kind)")
    change = "kappa change" if calibration.objective == "kappa" else "bal. acc. change"
    table = Table(["kind", "labels", "default accuracy", "default kappa", "fitted accuracy", "fitted kappa", change],
                  rows, "lrrrrrr",
                  title=(f"held-out agreement with the people: the {calibration.judge} judge with its default options "
                         f"and with options fitted on the other folds ({len(folds)} folds over "
                         f"{sum(len(fold) for fold in folds)} topics, seed {calibration.seed}; 95% intervals over "
                         f"{calibration.resamples} topic resamples)"),
                  notes=notes)
    lines = [render_text(table)]
    changed = calibration.changed()
    if changed:
        for backend, options in changed.items():
            moved = ", ".join(f"{option} {before:g} -> {after:g}" for option, (before, after) in options.items())
            lines.append(f"fitted on all labelled topics ({backend}): {moved}\n")
    else:
        lines.append("fitted on all labelled topics: every option keeps its default\n")
    return "".join(lines)
