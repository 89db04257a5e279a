"""``argue-eval analyze``: how far a round's leaderboard can be trusted (docs/analysis.md).

Each subcommand parses its options, calls one ``api.analysis`` (or ``api.reusability``) function and renders
its table; the methods and their citations are in docs/analysis.md.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import click

from ._options import (
    RESAMPLES,
    SEED,
    Number,
    input_options,
    missing_judgments_option,
    policy_options,
    team_options,
    verbosity_options,
)
from ._paths import InputPath, OutputPath

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
FORMATS = ("text", "tsv", "markdown", "latex", "json")


def _plain(value: Any) -> Any:
    """A JSON-safe value: numpy scalars to Python, NaN and infinities to null."""
    if value is None or type(value).__name__ == "NAType":
        return None
    if hasattr(value, "item") and not isinstance(value, (list, dict, str)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _render(result: Any, title: str, output_format: str, output: Path | None, quiet: bool,
            extra: dict[str, Any] | None = None) -> None:
    """The result's table in ``output_format`` (JSON: settings, every row at full precision, notes)."""
    from ..tables import dumps_json, render_tables
    from ..views import analysis_tables, write_output
    from ._output import format_or_json

    output_format = format_or_json(output_format)
    if output_format == "json":
        document = {"analysis": result.measure, "settings": _plain(result.settings),
                    "rows": [_plain(row) for row in result.table.to_dict(orient="records")], **(extra or {}),
                    "notes": [note.text for note in result.notes]}
        write_output(dumps_json(document), output)
        return
    tables = analysis_tables(result, title)
    if quiet:
        tables[0].notes = []
    write_output(render_tables(tables, output_format), output)


def score_options(func: Any) -> Any:
    """SCORES... and the options every score-table analysis shares."""
    for option in reversed([
        click.argument("scores", nargs=-1, required=True, type=InputPath(path_type=Path)),
        click.option("--metric", "-m", "metrics", required=True, multiple=True,
                     help="Measure to analyse (f1, nugget_coverage, ...); repeat it for several."),
        click.option("--missing", type=click.Choice(["zero", "drop-topic"]), default="zero", show_default=True,
                     help="A topic a run lacks: score it 0 (as trec_eval -c) or drop the topic for every run."),
        click.option("--scores-format", default=None, metavar="NAME",
                     help="Input format if detection should not guess: argue, trec_eval, ir_measures."),
        click.option("--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True,
                     help="Output: aligned text, TSV, Markdown, LaTeX, or JSON with every number."),
        click.option("--output", "-o", type=OutputPath(path_type=Path), default=None,
                     help="Write here instead of stdout."),
        click.option("--quiet", "-q", is_flag=True, help="Leave out the notes under the table."),
    ]):
        func = option(func)
    return func


@click.group(name="analyze", context_settings=CONTEXT)
def command() -> None:
    """Analyse a round: discriminative power, swap rates, topic-set size, reusability, circularity.

    \b
    Example on the sample track:
      argue-eval score --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --judgments qrels/sample/judgments.jsonl -o scores.tsv
      argue-eval analyze power scores.tsv -m f1 -m nugget_coverage
      argue-eval analyze swaps scores.tsv -m f1
      argue-eval analyze topic-set-size scores.tsv -m f1 --delta 0.05 --delta 0.1
      argue-eval analyze reusability --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --judgments qrels/sample/judgments.jsonl --requests topics/sample/requests.jsonl -o reuse.tsv
      argue-eval analyze circularity --run runs/sample/*.jsonl --judge-model Llama-3.3-70B-Instruct
    """


@command.command(name="power", context_settings=CONTEXT)
@verbosity_options
@score_options
@click.option("--test", type=click.Choice(["randomization", "t", "tukey"]), default=None,
              help="As for `compare` over all pairs [default: tukey].")
@click.option("--correction", type=click.Choice(["holm", "bh", "bonferroni", "none"]), default=None,
              help="As for `compare` [default: holm for randomization and t; none for tukey].")
@click.option("--alpha", type=Number(0, 1, min_open=True, max_open=True), default=0.05, show_default=True,
              help="Significance level.")
@click.option("--resamples", type=RESAMPLES, default=10_000, show_default=True, help="Permutations or sign vectors.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Random seed: same seed, same output bytes.")
@click.option("--curve", type=OutputPath(path_type=Path), default=None, metavar="OUT.tsv",
              help="Also write every pair's p-values, sorted per measure (the ASL curves).")
def power_command(scores, metrics, missing, scores_format, output_format, output, quiet, test, correction, alpha,
                  resamples, seed, curve) -> None:
    """Discriminative power (Sakai): the share of run pairs significant at --alpha, per measure.

    \b
    Example on the sample track:
      argue-eval score --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --judgments qrels/sample/judgments.jsonl -o scores.tsv
      argue-eval analyze power scores.tsv -m f1 -m nugget_coverage -m sentence_support --curve asl.tsv
    """
    from ..api.analysis import discriminative_power
    from ..tables import render_tables
    from ..views import frame_table, write_output

    result = discriminative_power(list(scores), metrics, test=test, correction=correction, alpha=alpha,
                                  resamples=resamples, seed=seed, missing=missing, scores_format=scores_format)
    first = result.table.iloc[0]
    _render(result, f"discriminative power: share of the {first['pairs']} run pairs significant at alpha {alpha} "
            f"({first['test']}, correction {first['correction']})", output_format, output, quiet)
    if curve is not None:
        write_output(render_tables([frame_table(result.data["curve"], digits=6)], "tsv"), curve)


@command.command(name="swaps", context_settings=CONTEXT)
@verbosity_options
@score_options
@click.option("--topics", "topic_counts", type=click.IntRange(1), multiple=True, metavar="C",
              help="Topic-set sizes to try (repeatable) [default: every size from 1 to half the topics].")
@click.option("--trials", type=click.IntRange(1, 1_000_000), default=1000, show_default=True,
              help="Random splits per size (every split when there are at most this many).")
@click.option("--bin-width", type=Number(0, 1, min_open=True), default=None, metavar="W",
              help="Also the swap rate by the size of the difference in the first set, in bins of W.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Random seed: same seed, same output bytes.")
def swaps_command(scores, metrics, missing, scores_format, output_format, output, quiet, topic_counts, trials,
                  bin_width, seed) -> None:
    """Swap rate (Voorhees and Buckley): how often two disjoint topic sets order a run pair differently.

    \b
    Example on the sample track:
      argue-eval score --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --judgments qrels/sample/judgments.jsonl -o scores.tsv
      argue-eval analyze swaps scores.tsv -m f1 --trials 2000 --bin-width 0.05
    """
    from ..api.analysis import swap_rates

    result = swap_rates(list(scores), metrics, topic_counts=list(topic_counts) or None, trials=trials, seed=seed,
                        bin_width=bin_width, missing=missing, scores_format=scores_format)
    _render(result, f"swap rate between two disjoint sets of C topics ({trials} splits per size at most, seed {seed})",
            output_format, output, quiet)


@command.command(name="topic-set-size", context_settings=CONTEXT)
@verbosity_options
@score_options
@click.option("--delta", "deltas", type=Number(0, min_open=True), multiple=True, required=True, metavar="D",
              help="The difference between two runs to detect (repeatable), in the measure's units.")
@click.option("--alpha", type=Number(0, 1, min_open=True, max_open=True), default=0.05, show_default=True,
              help="Significance level of the paired t-test (two-sided).")
@click.option("--power", type=Number(0, 1, min_open=True, max_open=True), default=0.8, show_default=True,
              help="The chance of detecting a true difference of --delta.")
def topic_set_size_command(scores, metrics, missing, scores_format, output_format, output, quiet, deltas, alpha,
                           power) -> None:
    """Topic-set size design (Sakai): the topics a paired t-test needs to detect --delta with --power.

    \b
    Example on the sample track:
      argue-eval score --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --judgments qrels/sample/judgments.jsonl -o scores.tsv
      argue-eval analyze topic-set-size scores.tsv -m f1 -m nugget_coverage --delta 0.05 --delta 0.1
    """
    from ..api.analysis import topic_set_size

    result = topic_set_size(list(scores), metrics, deltas=list(deltas), alpha=alpha, power=power, missing=missing,
                            scores_format=scores_format)
    _render(result, f"topics needed: two-sided paired t-test at alpha {alpha} with power {power}, the variance "
            "from the runs x topics residual (Sakai's V_E)", output_format, output, quiet)


@command.command(name="circularity", context_settings=CONTEXT)
@verbosity_options
@click.argument("more_runs", nargs=-1, type=InputPath(path_type=Path), metavar="[RUN]...")
@click.option("--run", "runs", multiple=True, type=InputPath(path_type=Path), metavar="RUN",
              help="Run file(s) whose metadata is read; repeatable (a shell glob after it gives the rest).")
@click.option("--judgments", multiple=True, type=InputPath(path_type=Path), metavar="J",
              help="Judgment file(s) of the round: the models of their LLM judges are looked for too.")
@click.option("--judge-model", "judge_models", multiple=True, metavar="NAME",
              help="A model that judged the round (repeatable), e.g. meta-llama/Llama-3.3-70B-Instruct.")
@click.option("--term", "terms", multiple=True, metavar="TEXT",
              help="What counts as using the evaluation's resources (repeatable) [default: nugget, auto-argue, "
                   "argue-eval, llm judge, ...].")
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True,
              help="Output: aligned text, TSV (the flags file `compare --flags` and `report --flags` read), "
                   "Markdown, LaTeX, JSON.")
@click.option("--output", "-o", type=OutputPath(path_type=Path), default=None, help="Write here instead of stdout.")
@click.option("--quiet", "-q", is_flag=True, help="Leave out the notes under the table.")
def circularity_command(more_runs, runs, judgments, judge_models, terms, output_format, output, quiet) -> None:
    """Circularity flags: runs whose metadata names the judge's model, or says they used the evaluation's
    nuggets or judge. A flag is data for the reader, not a penalty.

    \b
    Example:
      argue-eval analyze circularity --run runs/sample/*.jsonl --judge-model Llama-3.3-70B-Instruct \\
          --format tsv -o flags.tsv
    """
    from ..api.analysis import circularity
    from ..errors import OptionError

    if not runs and not more_runs:
        raise OptionError("--run", "give the run files whose metadata to read")
    result = circularity([*runs, *more_runs], judgments=list(judgments) or None, judge_models=judge_models,
                         terms=list(terms) or None)
    _render(result, f"circularity flags over {len(result.runs)} run(s)", output_format, output, quiet)


@command.command(name="reusability", context_settings=CONTEXT)
@verbosity_options
@input_options
@policy_options
@missing_judgments_option("A needed judgment is absent: stop (error), count it as no (zero), or leave out the "
                          "reports that lack any (skip), as for `score`.")
@click.option("--metric", "-m", "metrics", multiple=True, metavar="M",
              help="ARGUE measure to rescore (repeatable) [default: f1 and nugget_coverage].")
@team_options(metadata=True)
@click.option("--pool", type=InputPath(path_type=Path), default=None, metavar="POOL",
              help="The round's pool file (`argue-eval pool`): only documents in it count as contributed.")
@click.option("--depth", type=click.IntRange(1), default=None, help="Each run contributes its first N cited documents.")
@click.option("--details", "details_path", type=OutputPath(path_type=Path), default=None, metavar="OUT.json",
              help="Also write, per team, the documents it alone contributed and the answers and nuggets removed.")
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True,
              help="Output: aligned text, TSV (what `report --reusability` reads), Markdown, LaTeX, JSON.")
@click.option("--output", "-o", type=OutputPath(path_type=Path), default=None, help="Write here instead of stdout.")
@click.option("--quiet", "-q", is_flag=True, help="Leave out the notes under the table.")
def reusability_command(runs, nuggets, judgments, requests, qrels, policies, metrics, team_pairs, team_files,
                        team_pattern, pool, depth, details_path, output_format, output, quiet) -> None:
    """Leave one team out: rebuild the pool and the nugget bank without the documents only it contributed,
    rescore its runs, and show each run's score and rank change (the pool-bias test, for nugget banks).

    \b
    Example on the sample track:
      argue-eval analyze reusability --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --judgments qrels/sample/judgments.jsonl --requests topics/sample/requests.jsonl \\
          -m f1 -m citation_relevance --format tsv -o reuse.tsv
    """
    from ..api import make_policies
    from ..api.analysis import run_mapping
    from ..api.reusability import reusability
    from ..tables import dumps_json
    from ..views import write_output

    policies = make_policies(**policies)
    teams = run_mapping(team_pairs, team_files, "--team")
    result = reusability(list(runs), nuggets, list(judgments), metrics=list(metrics) or ("f1", "nugget_coverage"),
                         teams=teams or None, team_pattern=team_pattern, depth=depth, pool=pool, requests=requests,
                         qrels=qrels, policies=policies)
    if details_path is not None:
        write_output(dumps_json(_plain(result.details)), details_path)
    teams_frame = result.data["teams"]
    _render(result, f"leave one team out: {len(teams_frame)} team(s); change = score with the team left out - score; "
            "rank among every other run's official score", output_format, output, quiet,
            extra={"teams": [_plain(row) for row in teams_frame.to_dict(orient="records")]})
