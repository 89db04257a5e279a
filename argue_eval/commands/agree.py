"""``argue-eval agree`` (two evaluations of the same systems) and ``argue-eval agree-judgments`` (two judgment files)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..formats.judgments import FORMATS as JUDGMENT_SPECS
from ..model import JUDGMENT_KINDS
from ..tables import RENDER_FORMATS, Table, count_noun, dumps_json, fmt_number, render_tables
from ..views import write_output

if TYPE_CHECKING:
    from ..api.agree import Agreement
    from ..stats.judgment_agreement import JudgmentAgreement
from ._options import RESAMPLES, SEED, Number, verbosity_options
from ._paths import InputPath, OutputPath
from .compare import CONTEXT


def leaderboards_table(result: Agreement) -> Table:
    """The two leaderboards side by side: each system's mean and rank under A and under B, A's order."""
    def ranks(means) -> dict[str, int]:
        order = sorted(range(len(result.runs)), key=lambda i: (-float(means[i]), result.runs[i]))
        return {result.runs[i]: position + 1 for position, i in enumerate(order)}

    rank_a, rank_b = ranks(result.mean_a), ranks(result.mean_b)
    index = {run: i for i, run in enumerate(result.runs)}
    rows = [[run, fmt_number(float(result.mean_a[index[run]]), 4), str(rank_a[run]),
             fmt_number(float(result.mean_b[index[run]]), 4), str(rank_b[run]),
             "" if rank_a[run] == rank_b[run] else f"{rank_a[run] - rank_b[run]:+d}"]
            for run in sorted(result.runs, key=lambda run: rank_a[run])]
    return Table(["system", "mean_a", "rank_a", "mean_b", "rank_b", "moved"], rows, "lrrrrr",
                 f"leaderboards on {result.metric_a} (A) and {result.metric_b} (B), side by side "
                 "(moved: places gained under B)")


def build_agreement_tables(result: Agreement, label_a: str, label_b: str, per_topic: bool,
                           systems: bool = False) -> list[Table]:
    """Statistics with intervals, swapped pairs, top-k, per-topic summary (and optionally every topic)."""
    level = f"{result.confidence:.0%}"
    tables = [leaderboards_table(result)] if systems else []
    rows = [[item.name, fmt_number(item.value), fmt_number(item.ci_low), fmt_number(item.ci_high), item.ci_method or ""]
            for item in result.statistics]
    metrics = result.metric_a if result.metric_a == result.metric_b else f"{result.metric_a} (A) vs {result.metric_b} (B)"
    title = (f"agreement on {metrics}: A = {label_a} (reference), B = {label_b}; {count_noun(len(result.runs), 'system')}, "
             f"{count_noun(len(result.topics), 'shared topic')}; {level} {result.interval} bootstrap intervals over topics "
             f"({result.resamples} resamples, seed {result.seed})")
    tables.append(Table(["statistic", "value", "ci_low", "ci_high", "ci_method"], rows, "lrrrl", title))

    n_pairs = len(result.runs) * (len(result.runs) - 1) // 2
    swap_rows = [[swap["a"], swap["b"], fmt_number(swap["diff_a"]), fmt_number(swap["diff_b"])] for swap in result.swaps]
    tables.append(Table(["a", "b", "diff_a", "diff_b"], swap_rows, "llrr",
                        f"swapped pairs: {len(result.swaps)} of {n_pairs} (a is ahead under A, behind under B); "
                        f"{len(result.tied_pairs)} pair(s) tied under one evaluation only"))
    if result.top_k:
        k_rows = [[str(entry["k"])] + [fmt_number(entry[name]) for name in ("kendall_tau_b", "tau_ap", "spearman", "pearson")]
                  + [fmt_number(entry["overlap"], 3)] for entry in result.top_k]
        tables.append(Table(["k", "kendall_tau_b", "tau_ap", "spearman", "pearson", "overlap"], k_rows, "rrrrrr",
                            "top-k: the k best systems under A (point estimates); overlap = shared share of the two top-k sets"))
    summary = result.per_topic_summary
    difficulty = result.topic_difficulty
    tables.append(Table(
        ["statistic", "mean", "median", "min", "max", "n_defined", "n_undefined"],
        [["per-topic kendall_tau_b", fmt_number(summary["mean"]), fmt_number(summary["median"]), fmt_number(summary["min"]),
          fmt_number(summary["max"]), str(summary["n_defined"]), str(summary["n_undefined"])]],
        "lrrrrrr",
        "per-topic agreement: tau-b of the systems' scores within each topic; topic difficulty (topic means): "
        f"tau-b {fmt_number(difficulty['kendall_tau_b']) or 'n/a'}, pearson {fmt_number(difficulty['pearson']) or 'n/a'}",
    ))
    if per_topic:
        tables.append(Table(["request_id", "kendall_tau_b"],
                            [[item["request_id"], fmt_number(item["kendall_tau_b"])] for item in result.per_topic], "lr",
                            "per topic"))
    tables[-1].notes = list(result.notes)
    return tables


@click.command("agree", context_settings=CONTEXT)
@verbosity_options
@click.argument("scores_a", type=InputPath(path_type=Path))
@click.argument("scores_b", type=InputPath(path_type=Path))
@click.option("--metric", "-m", required=True, help="Measure to compare in both tables, e.g. f1.")
@click.option("--metric-b", default=None, help="A different measure from B (to compare two metrics) [default: --metric].")
@click.option("--top-k", "top_k", type=click.IntRange(2, 1_000_000), multiple=True, default=(10,), show_default=True,
              help="Also report agreement on the k best systems under A (repeatable).")
@click.option("--resamples", type=RESAMPLES, default=10_000, show_default=True, help="Bootstrap resamples over topics.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Random seed: same seed, same output bytes.")
@click.option("--confidence", type=Number(0, 1, min_open=True, max_open=True), default=0.95, show_default=True)
@click.option("--interval", type=click.Choice(["percentile", "bca"]), default="percentile", show_default=True,
              help="Bootstrap interval method (rank correlations are biased under resampling; see docs/statistics.md).")
@click.option("--missing", type=click.Choice(["zero", "drop-topic"]), default="zero", show_default=True,
              help="A topic a run lacks within one table: 0 (as trec_eval -c) or drop the topic.")
@click.option("--scores-format", default=None, metavar="NAME", help="Input format: argue, trec_eval, ir_measures (default: detect).")
@click.option("--per-topic", is_flag=True, help="Also print every topic's tau-b (JSON always has them).")
@click.option("--systems", is_flag=True, help="Also print both leaderboards side by side (mean and rank under A and B).")
@click.option("--format", "output_format", type=click.Choice(RENDER_FORMATS), default="text", show_default=True)
@click.option("--output", "-o", type=OutputPath(path_type=Path), default=None, help="Write here instead of stdout.")
def command(scores_a, scores_b, metric, metric_b, top_k, resamples, seed, confidence, interval, missing, scores_format,
            per_topic, systems, output_format, output) -> None:
    """Agreement between two evaluations of the same systems (Kendall's tau, ...).

    A and B are per-topic score tables of the same runs, e.g. scored with human and with automatic
    judgments, or by two judges, or (with --metric-b) two measures. A is the reference. Reports Kendall's
    tau-b, tau_AP (B's ranking against A's; tau_ap_symmetric averages both directions), Spearman and Pearson
    of the system means with bootstrap intervals over topics, the swapped pairs, top-k agreement and
    per-topic agreement. Systems and topics present in only one table are left out (and listed).

    \b
    Example on the sample track (the assessors' scores against the offline lexical judge's):
      argue-eval score --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --judgments qrels/sample/judgments.jsonl -o scores.human.tsv
      argue-eval evaluate --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl -o scores.auto.tsv
      argue-eval agree scores.human.tsv scores.auto.tsv --metric f1
      argue-eval agree scores.human.tsv scores.human.tsv --metric f1 --metric-b nugget_coverage --format json
      argue-eval agree scores.human.tsv scores.auto.tsv -m f1 --top-k 3 --per-topic --format markdown
      argue-eval agree scores.human.tsv scores.auto.tsv -m f1 --systems    # both leaderboards side by side
    """
    from ..api import agree

    found = agree(scores_a, scores_b, metric, metric_b=metric_b, top_k=top_k, resamples=resamples, seed=seed,
                  confidence=confidence, interval=interval, missing=missing, scores_format=scores_format)
    result = found.data
    if output_format == "json":
        text = dumps_json(found.details[0])
    else:
        tables = build_agreement_tables(result, str(scores_a), str(scores_b), per_topic,
                                        systems and output_format != "tsv")
        if output_format == "tsv":  # one table per TSV: the statistics (with every note); JSON has the rest
            tables = [tables[0]]
            tables[0].notes = list(result.notes)
        text = render_tables(tables, output_format)
    write_output(text, output)


JUDGMENT_FORMATS: tuple[str, ...] = tuple(name for spec in JUDGMENT_SPECS for name in (spec.name, *spec.aliases))


def build_judgment_tables(result: JudgmentAgreement, label_a: str, label_b: str) -> list[Table]:
    rows = []
    for item in [*result.kinds, result.overall]:
        rows.append([item.kind, str(item.n_a), str(item.n_b), str(item.overlap), fmt_number(item.accuracy),
                     fmt_number(item.kappa), str(item.yes_yes), str(item.yes_no), str(item.no_yes), str(item.no_no)])
    title = (f"judgment agreement: A = {label_a} (reference), B = {label_b}; matched on the judgment key; "
             "confusion columns are A/B answers")
    table = Table(["kind", "n_a", "n_b", "overlap", "accuracy", "kappa", "yes/yes", "yes/no", "no/yes", "no/no"],
                  rows, "lrrrrrrrrr", title, list(result.notes))
    return [table]


@click.command("agree-judgments", context_settings=CONTEXT)
@verbosity_options
@click.argument("judgments_a", type=InputPath(path_type=Path))
@click.argument("judgments_b", type=InputPath(path_type=Path))
@click.option("--judgments-format", default=None, type=click.Choice(JUDGMENT_FORMATS),
              help="Format of both files if detection should not guess.")
@click.option("--kind", "kinds", multiple=True, type=click.Choice(JUDGMENT_KINDS),
              help="Only these question kinds (repeatable), e.g. --kind answers --kind attested.")
@click.option("--nuggets", default=None, type=InputPath(folder=True), metavar="N",
              help="Read Auto-ARGUE files with this nugget bank: answers under the bank's nugget ids, and the cited "
                   "document's answers that were not matched as no (as `score` and `convert` read them).")
@click.option("--format", "output_format", type=click.Choice(RENDER_FORMATS), default="text", show_default=True)
@click.option("--output", "-o", type=OutputPath(path_type=Path), default=None, help="Write here instead of stdout.")
@click.option("--disagreements", type=OutputPath(path_type=Path), default=None, metavar="OUT.jsonl",
              help="Also write every question the two files answer differently, one JSON line each (the item id of "
                   "`assess export`, the question, A's and B's answer): `assess init --disagreements` loads it "
                   "into the workbench for adjudication.")
def judgments_command(judgments_a, judgments_b, judgments_format, kinds, nuggets, output_format, output,
                      disagreements) -> None:
    """Agreement between two judgment files (accuracy, Cohen's kappa).

    A is the reference (e.g. human assessors), B the candidate (e.g. an LLM judge). Judgments are matched on
    their identity (kind, request, normalized sentence, document, nugget/answer; never the run), so each
    question counts once. Per question kind: how many judgments each file has and share, observed agreement,
    Cohen's kappa and the yes/no confusion matrix; a pooled row closes the table. An Auto-ARGUE file names
    nuggets by question text and lists only matched answers; with --nuggets its answers are compared as a
    canonical file holds them (the bank's nugget ids, unmatched answers of the cited document as no).

    \b
    Example on the sample track (the assessors' judgments against the offline lexical judge's):
      argue-eval judge --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl -o judgments.lexical.jsonl
      argue-eval agree-judgments qrels/sample/judgments.jsonl judgments.lexical.jsonl
      argue-eval agree-judgments qrels/sample/judgments.jsonl judgments.lexical.jsonl --kind answers --format json \\
          -o agreement.json
      argue-eval agree-judgments qrels/sample/hallucinating.autoargue.judgments.jsonl qrels/sample/judgments.jsonl \\
          --nuggets nuggets/sample/nuggets.jsonl
    """
    from ..formats import read_nuggets, resolve
    from ..formats.judgments import read_autoargue
    from ..stats.judgment_agreement import judgment_agreement

    wanted = set(kinds)
    specs = [resolve(path, "judgments", judgments_format) for path in (judgments_a, judgments_b)]

    bank = list(read_nuggets(nuggets)) if nuggets is not None else None

    def load(path: Path, spec):
        read = spec.read if bank is None or spec.name != "autoargue" else (lambda p: read_autoargue(p, bank))
        for judgment in read(path):
            if not wanted or judgment.kind in wanted:
                yield judgment

    # canonical files are held to score's rule (one judge contradicting itself is an error); Auto-ARGUE
    # files judge report by report, where a later report's answer replaces an earlier one
    strict = (specs[0].name == "argue", specs[1].name == "argue")
    if disagreements is not None:
        list_a, list_b = list(load(judgments_a, specs[0])), list(load(judgments_b, specs[1]))
        result = judgment_agreement(list_a, list_b, strict=strict)
        write_disagreements(list_a, list_b, disagreements)
    else:
        result = judgment_agreement(load(judgments_a, specs[0]), load(judgments_b, specs[1]), strict=strict)
    if output_format == "json":
        text = dumps_json({"a": str(judgments_a), "b": str(judgments_b), **result.to_dict()})
    else:
        text = render_tables(build_judgment_tables(result, str(judgments_a), str(judgments_b)), output_format)
    write_output(text, output)


def write_disagreements(judgments_a, judgments_b, path: Path) -> int:
    """One line per question answered differently: its pool item id and fields, then A's and B's answers, in
    topic and item order (byte-identical on rerun)."""
    from ..model import natural_key
    from ..organizer.assessment import item_id_for
    from ..stats.judgment_agreement import disagreements
    from ..writing import write_jsonl

    def side(judgment) -> dict:
        return {"value": bool(judgment.value), "judge": judgment.judge, "rationale": judgment.rationale}

    lines = []
    for a, b in disagreements(judgments_a, judgments_b):
        key = a.key
        lines.append({"item_id": item_id_for(key), "kind": a.kind, "request_id": a.request_id, "sentence": a.sentence,
                      "doc_id": key.doc_id, "nugget_id": key.nugget_id, "answer": a.answer if key.answer else None,
                      "run_id": key.run_id, "sentence_index": key.sentence_index, "a": side(a), "b": side(b)})
    lines.sort(key=lambda line: (natural_key(str(line["request_id"])), str(line["item_id"])))
    return write_jsonl(path, lines)
