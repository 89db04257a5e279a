"""``argue-eval compare``: a leaderboard with confidence intervals and significance tests."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import ArgueError
from ..tables import TABLE_FORMATS, Table, count_noun, dumps_json, fmt_number, fmt_p, render_tables

if TYPE_CHECKING:
    from ..stats.comparison import Comparison

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def compress_ranks(ranks: list[int]) -> str:
    """``[2, 3, 4, 7]`` -> ``2-4,7``: the usual way papers list the systems a run significantly beats."""
    out: list[str] = []
    ranks = sorted(ranks)
    k = 0
    while k < len(ranks):
        end = k
        while end + 1 < len(ranks) and ranks[end + 1] == ranks[end] + 1:
            end += 1
        out.append(str(ranks[k]) if end == k else f"{ranks[k]}-{ranks[end]}")
        k = end + 1
    return ",".join(out)


def build_tables(result: Comparison, which: str) -> list[Table]:
    """The leaderboard and/or pairs tables of a ``Comparison`` (cells formatted; JSON keeps full precision)."""
    level = f"{result.confidence:.0%}"
    tables: list[Table] = []
    systems = result.systems
    if which in ("both", "systems"):
        columns = ["rank", "run_id", "mean", "ci_low", "ci_high"]
        align = "rlrrr"
        if result.baseline is not None:
            columns += ["diff", "p_adjusted", "vs_baseline"]
            align += "rrl"
        elif result.pairs.shape[0]:
            columns += ["better_than"]
            align += "l"
        rank_of = dict(zip(systems["run_id"], systems["rank"]))
        rows = []
        for record in systems.to_dict(orient="records"):
            row = [str(record["rank"]), record["run_id"], fmt_number(record["mean"]),
                   fmt_number(record["ci_low"]), fmt_number(record["ci_high"])]
            if result.baseline is not None:
                is_base = record["vs_baseline"] == "baseline"
                row += ["" if is_base else fmt_number(record["diff"]),
                        "" if is_base else fmt_p(record["p_adjusted"]),
                        "baseline" if is_base else record["vs_baseline"]]
            elif result.pairs.shape[0]:
                row.append(compress_ranks([int(rank_of[run]) for run in record["better_than"]]))
            rows.append(row)
        title = (f"{result.metric}: {count_noun(len(systems), 'system')}, {count_noun(len(result.topics), 'topic')}, "
                 f"mean with {level} BCa interval "
                 f"({result.resamples} bootstrap resamples, seed {result.seed})")
        if result.baseline is not None:
            title += f"; +/- significantly above/below {result.baseline}"
        elif result.pairs.shape[0]:
            title += "; better_than lists the ranks a run is significantly better than"
        tables.append(Table(columns, rows, align, title))
    if which == "pairs" or (which == "both" and result.pairs.shape[0]):
        rows = []
        for record in result.pairs.to_dict(orient="records"):
            rows.append([record["a"], record["b"], fmt_number(record["diff"]), fmt_number(record["ci_low"]),
                         fmt_number(record["ci_high"]), fmt_number(record["cohen_d"], 3), fmt_p(record["p_value"]),
                         fmt_p(record["p_adjusted"]), "*" if record["significant"] else ""])
        how = ("exact" if result.exact else f"{result.test_resamples} resamples") if result.test != "t" else "scipy ttest_rel"
        interval = (f"simultaneous {level} Tukey interval" if result.pair_intervals == "simultaneous"
                    else f"{level} BCa interval (unadjusted)")
        title = (f"pairs: {result.test} test ({how}), correction {result.correction}, alpha {result.alpha}; "
                 f"diff = mean(a) - mean(b) with its {interval}; * = significant")
        tables.append(Table(["a", "b", "diff", "ci_low", "ci_high", "cohen_d", "p_value", "p_adjusted", "sig"],
                            rows, "llrrrrrrl", title))
    if tables:
        tables[-1].notes = list(result.notes)
    return tables


def write_output(text: str, output: Path | None) -> None:
    """To ``output`` atomically, or to stdout."""
    if output is None:
        click.echo(text, nl=False)
        return
    from ..jsonio import atomic_writer

    with atomic_writer(output) as handle:
        handle.write(text)


@click.command("compare", context_settings=CONTEXT)
@click.argument("scores", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--metric", "-m", required=True, help="Measure to compare, e.g. f1, nugget_coverage, ndcg_cut_10.")
@click.option("--baseline", default=None, metavar="RUN", help="Test every run against this one (default: all pairs).")
@click.option("--test", "test", type=click.Choice(["randomization", "t", "tukey"]), default="randomization",
              show_default=True, help="Paired randomization test, paired t-test, or randomized Tukey HSD (family-wise).")
@click.option("--correction", type=click.Choice(["holm", "bh", "bonferroni", "none"]), default=None,
              help="Multiple-comparison control over the compared pairs [default: holm; none for tukey].")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05, show_default=True,
              help="Significance level for the adjusted p-values (significant: p_adjusted <= alpha).")
@click.option("--confidence", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.95, show_default=True,
              help="Confidence level of the bootstrap intervals.")
@click.option("--resamples", type=click.IntRange(min=1), default=10_000, show_default=True,
              help="Bootstrap resamples; also sign vectors (randomization) and permutations (tukey).")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed: same seed, same output bytes.")
@click.option("--missing", type=click.Choice(["zero", "drop-topic"]), default="zero", show_default=True,
              help="A topic a run lacks: score it 0 (as trec_eval -c) or drop the topic for every run.")
@click.option("--scores-format", default=None, metavar="NAME",
              help="Input format if detection should not guess: argue (our TSV), trec_eval, ir_measures.")
@click.option("--format", "output_format", type=click.Choice(TABLE_FORMATS), default="text", show_default=True,
              help="Output: aligned text, TSV, Markdown, LaTeX, or JSON with every number.")
@click.option("--table", "which", type=click.Choice(["both", "systems", "pairs"]), default=None,
              help="Which table(s) to print [default: both; systems for tsv]. JSON always has both.")
@click.option("--output", "-o", type=click.Path(path_type=Path), default=None, help="Write here instead of stdout.")
def command(scores, metric, baseline, test, correction, alpha, confidence, resamples, seed, missing, scores_format,
            output_format, which, output) -> None:
    """Leaderboard with confidence intervals and significance tests.

    Reads per-topic score tables (our TSV from `score`, trec_eval -q output, or `run topic measure value`
    tables; one file per run or one file with many runs), builds the systems x topics matrix of --metric,
    and prints each run's mean with a BCa bootstrap interval, then the paired tests (against --baseline, or
    all pairs) with adjusted p-values, the mean difference with its interval and paired Cohen's d.

    \b
    Example:
      argue-eval compare scores/*.tsv --metric f1
      argue-eval compare scores.tsv --metric f1 --baseline bm25 --test t --correction bh
      argue-eval compare run1.trec_eval run2.trec_eval -m ndcg_cut_10 --test tukey --format latex -o table.tex
      argue-eval compare scores.tsv -m f1 --format json --resamples 20000 --seed 7
    """
    from ..stats.comparison import compare
    from ..stats.matrix import load_matrix

    if test == "tukey" and correction not in (None, "none"):
        raise click.UsageError("--test tukey already controls the family-wise error over all pairs; drop --correction "
                               "(or use --correction none)")
    matrix = load_matrix(list(scores), metric, scores_format, missing)
    if baseline is not None and baseline not in matrix.runs:
        raise ArgueError(f"--baseline {baseline!r} is not among the runs for {metric!r}: {', '.join(matrix.runs)}")
    result = compare(matrix, baseline=baseline, test=test, correction=correction, alpha=alpha,
                     resamples=resamples, seed=seed, confidence=confidence)
    if output_format == "json":
        text = dumps_json(result.to_dict())
    else:
        chosen = which or ("systems" if output_format == "tsv" else "both")
        text = render_tables(build_tables(result, chosen), output_format)
    write_output(text, output)
