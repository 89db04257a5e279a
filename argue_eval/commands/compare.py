"""``argue-eval compare``: a leaderboard with confidence intervals and significance tests."""
from __future__ import annotations

from pathlib import Path

import click

from ..errors import OptionError
from ..tables import RENDER_FORMATS, dumps_json, render_tables
from ..views import build_tables, spread_table, write_output
from ._options import RESAMPLES, SEED, Number, verbosity_options
from ._paths import InputPath, OutputPath

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.command("compare", context_settings=CONTEXT)
@verbosity_options
@click.argument("scores", nargs=-1, required=True, type=InputPath(path_type=Path))
@click.option("--metric", "-m", "metrics", required=True, multiple=True,
              help="Measure to compare, e.g. f1, nugget_coverage, ndcg_cut_10; repeat it to compare several in one call.")
@click.option("--baseline", default=None, metavar="RUN", help="Test every run against this one (default: all pairs).")
@click.option("--test", "test", type=click.Choice(["randomization", "t", "tukey"]), default=None,
              help="Randomized Tukey HSD (family-wise), paired randomization test, or paired t-test [default, as in "
                   "the HTML report: tukey for all pairs, randomization with --baseline].")
@click.option("--correction", type=click.Choice(["holm", "bh", "bonferroni", "none"]), default=None,
              help="Multiple-comparison control over the compared pairs [default: holm for randomization and t; none "
                   "for tukey].")
@click.option("--alpha", type=Number(0, 1, min_open=True, max_open=True), default=0.05, show_default=True,
              help="Significance level for the adjusted p-values (significant: p_adjusted <= alpha).")
@click.option("--confidence", type=Number(0, 1, min_open=True, max_open=True), default=0.95, show_default=True,
              help="Confidence level of the bootstrap intervals.")
@click.option("--resamples", type=RESAMPLES, default=10_000, show_default=True,
              help="Bootstrap resamples; also sign vectors (randomization) and permutations (tukey).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Random seed: same seed, same output bytes.")
@click.option("--missing", type=click.Choice(["zero", "drop-topic"]), default="zero", show_default=True,
              help="A topic a run lacks: score it 0 (as trec_eval -c) or drop the topic for every run.")
@click.option("--scores-format", default=None, metavar="NAME",
              help="Input format if detection should not guess: argue (our TSV), trec_eval, ir_measures.")
@click.option("--format", "output_format", type=click.Choice(RENDER_FORMATS), default="text", show_default=True,
              help="Output: aligned text, TSV, Markdown, LaTeX, or JSON with every number.")
@click.option("--table", "which", type=click.Choice(["both", "systems", "pairs"]), default=None,
              help="Which table(s) to print [default: both; systems for tsv]. JSON always has both.")
@click.option("--output", "-o", type=OutputPath(path_type=Path), default=None, help="Write here instead of stdout.")
@click.option("--quiet", "-q", is_flag=True, help="Leave out the notes under the tables (the JSON keeps them).")
@click.option("--replicates", is_flag=True,
              help="Each SCORES table is one replicate of the same runs, differing only in the judge (seeds, "
                   "temperatures, prompts, models): two-stage bootstrap intervals (topics, then replicates), rank "
                   "stability across replicates, and each run's judge share of the variance.")
@click.option("--system", "system_pairs", multiple=True, metavar="RUN=NAME",
              help="Put RUN in system NAME (repeatable): a system scores the mean of its runs per topic, and is "
                   "compared as one; its runs' spread is shown.")
@click.option("--systems", "system_files", multiple=True, type=InputPath(path_type=Path), metavar="FILE",
              help="A `RUN NAME` mapping file of runs to systems (one run a line).")
@click.option("--flags", "flags_path", type=InputPath(path_type=Path), default=None, metavar="FLAGS.tsv",
              help="Circularity flags (`analyze circularity --format tsv`): a flags column marks the flagged runs.")
def command(scores, metrics, baseline, test, correction, alpha, confidence, resamples, seed, missing, scores_format,
            output_format, which, output, quiet, replicates, system_pairs, system_files, flags_path) -> None:
    """Leaderboard with confidence intervals and significance tests.

    Reads per-topic score tables (our TSV from `score`, trec_eval -q output, or `run topic measure value`
    tables; one file per run or one file with many runs), builds the systems x topics matrix of --metric,
    and prints each run's mean with a BCa bootstrap interval, then the paired tests (against --baseline, or
    all pairs) with adjusted p-values, the mean difference with its interval and paired Cohen's d. With
    --replicates each table is one judge's replicate of the same runs; with --system/--systems runs are
    grouped into systems (docs/analysis.md).

    \b
    Example on the sample track:
      argue-eval score --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --judgments qrels/sample/judgments.jsonl -o scores.tsv
      argue-eval compare scores.tsv --metric f1
      argue-eval compare scores.tsv --metric f1 --baseline careful --test t --correction bh
      argue-eval retrieval --qrels qrels/sample/qrels.trec runs/sample/ranked/*.trec -m ndcg@10 -o ranked.tsv
      argue-eval compare ranked.tsv -m ndcg@10 --test tukey --format latex -o table.tex
      argue-eval compare scores.tsv -m f1 --format json --resamples 20000 --seed 7
      argue-eval compare scores.tsv -m f1 -m sentence_support -m nugget_coverage --table systems
      argue-eval compare scores.tsv -m f1 --system too-long=careful-sys --system careful=careful-sys

    \b
    Replicates: the sample track scored by the lexical judge at two settings of its thresholds:
      argue-eval evaluate --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --collection topics/sample/collection.jsonl --judge lexical --no-cache -o lexical.tsv
      argue-eval evaluate --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --collection topics/sample/collection.jsonl --judge lexical --judge-option lexical.answer_threshold=0.3 \\
          --judge-option lexical.attested_threshold=0.35 --no-cache -o lexical-b.tsv
      argue-eval compare --replicates lexical.tsv lexical-b.tsv -m f1 --resamples 2000
    """
    from ..api.analysis import read_flags, run_mapping
    from ._output import format_or_json

    output_format = format_or_json(output_format)
    systems = run_mapping(system_pairs, system_files, "--system")
    if replicates:
        if baseline is not None:
            raise OptionError("--baseline", "does not apply to --replicates (the replicates' leaderboard has no "
                              "paired tests); compare one replicate against a baseline instead")
        return _replicates(scores, metrics, systems, confidence, resamples, seed, missing, scores_format,
                           output_format, output, quiet)
    flags = read_flags(flags_path) if flags_path is not None else None
    _leaderboards(scores, metrics, systems, flags, baseline, test, correction, alpha, confidence, resamples, seed,
                  missing, scores_format, output_format, which, output, quiet)


def _leaderboards(scores, metrics, systems, flags, baseline, test, correction, alpha, confidence, resamples, seed,
                  missing, scores_format, output_format, which, output, quiet) -> None:
    """The leaderboards and pairs of runs (``api.compare``; of ``systems`` with the runs' spread,
    ``api.analysis.compare_systems``), rendered."""
    spreads = []
    if systems:
        from ..api.analysis import compare_systems

        grouped = compare_systems(list(scores), metrics, systems, baseline=baseline, test=test, correction=correction,
                                  alpha=alpha, confidence=confidence, resamples=resamples, seed=seed, missing=missing,
                                  scores_format=scores_format)
        results, spreads = [comparison for comparison, _ in grouped.data], [spread for _, spread in grouped.data]
    else:
        from ..api import compare

        results = compare(list(scores), metrics, baseline=baseline, test=test, correction=correction, alpha=alpha,
                          confidence=confidence, resamples=resamples, seed=seed, missing=missing,
                          scores_format=scores_format).data
    if output_format == "json":
        documents = [_document(result, spreads[k] if spreads else None, flags) for k, result in enumerate(results)]
        text = dumps_json(documents[0] if len(documents) == 1 else documents)
    else:
        chosen = which or ("systems" if output_format == "tsv" else "both")
        tables = []
        for k, result in enumerate(results):
            built = build_tables(result, chosen, flags)
            if spreads and chosen != "pairs":
                built.insert(1, spread_table(spreads[k], result.metric))
            if quiet:
                for table in built:
                    table.notes = []
            tables.extend(built)
        text = render_tables(tables, output_format)
    write_output(text, output)


def _document(result, spread, flags) -> dict:
    """A comparison's JSON document, with its systems' run spread and its runs' circularity flags when given."""
    document = result.to_dict()
    if spread is not None:
        document["spread"] = [{key: (None if isinstance(value, float) and value != value else value)
                               for key, value in row.items()} for row in spread.to_dict(orient="records")]
    if flags is not None:
        shown = set(result.systems["run_id"])
        document["flags"] = {run: [list(flag) for flag in found] for run, found in flags.items() if run in shown}
    return document


def _replicates(scores, metrics, systems, confidence, resamples, seed, missing, scores_format, output_format, output,
                quiet) -> None:
    """``--replicates``: ``api.analysis.compare_replicates``, rendered (``views.replicate_tables``)."""
    from ..api.analysis import compare_replicates
    from ..views import replicate_tables

    result = compare_replicates(list(scores), metrics, systems=systems or None, resamples=resamples, seed=seed,
                                confidence=confidence, missing=missing, scores_format=scores_format)
    if output_format == "json":
        documents = result.details
        write_output(dumps_json(documents[0] if len(documents) == 1 else documents), output)
        return
    tables = [table for analysis in result.data for table in replicate_tables(analysis)]
    if quiet:
        for table in tables:
            table.notes = []
    write_output(render_tables(tables, output_format), output)
