"""``argue-eval agree`` (two evaluations of the same systems) and ``argue-eval agree-judgments`` (two judgment files)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..tables import RENDER_FORMATS, Table, count_noun, dumps_json, fmt_number, render_tables
from ..views import write_output

if TYPE_CHECKING:
    from ..api.agree import Agreement
    from ..api.agree_judgments import JudgeAgreementResult
from ._choices import JUDGMENT_FORMAT_SPECS as JUDGMENT_SPECS
from ._choices import JUDGMENT_KINDS
from ._options import RESAMPLES, SEED, Number, missing_judgments_option, policy_options, verbosity_options
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
    from ._output import format_or_json

    output_format = format_or_json(output_format)
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


def _cell(item, digits: int = 3) -> str | None:
    """``0.952 [0.928, 0.974]``: a statistic with its interval, ``None`` (n/a) when undefined."""
    if item.value is None:
        return None
    text = fmt_number(item.value, digits)
    if item.ci_low is None:
        return text
    return f"{text} [{fmt_number(item.ci_low, digits)}, {fmt_number(item.ci_high, digits)}]"


def _clip(text: str | None, width: int) -> str | None:
    if text is None:
        return None
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "\u2026"


def build_judgment_tables(result: JudgeAgreementResult, show: int) -> list[Table]:
    """The tables an organizer reads: each judge against the people (with intervals), coverage and confusion,
    the people among themselves, the system rankings and pairwise decisions, the worst disagreements."""
    settings = result.settings
    boot = (f"{settings['confidence']:.0%} intervals resampling topics ({settings['resamples']} resamples, "
            f"seed {settings['seed']})")
    names = ("accuracy", "precision", "recall", "f1", "kappa", "alpha")
    rows: list[list[str | None]] = [[side.label, kind, str(item.n), *(_cell(item.statistic(name)) for name in names)]
                                    for side in result.judges for kind, item in side.kinds.items()]
    tables = [Table(["judge", "kind", "n", *names], rows, "llr" + "r" * len(names),
                    f"judges against people: reference = {result.human} (its last answer to each question, as "
                    f"`score` reads it); precision/recall/F1 of yes; alpha: Krippendorff's, nominal; {boot}")]
    coverage: list[list[str | None]] = []
    for side in result.judges:
        for row in [*side.legacy.kinds, *([side.legacy.overall] if len(side.legacy.kinds) > 1 else [])]:
            coverage.append([side.label, row.kind, str(row.n_a), str(row.n_b), str(row.overlap), str(row.yes_yes),
                             str(row.yes_no), str(row.no_yes), str(row.no_no)])
    tables.append(Table(["judge", "kind", "n_people", "n_judge", "overlap", "yes/yes", "yes/no", "no/yes", "no/no"],
                        coverage, "llrrrrrrr", "coverage and confusion counts (people's answer first), matched on "
                                               "the judgment key"))
    if result.people:
        tables.append(_people_table(result, boot))
    if any(side.systems is not None for side in result.judges):
        tables.append(_systems_table(result, boot))
    if result.details[:show]:
        tables.append(_disagreements_table(result, show))
    notes = [str(note).removeprefix("note: ") for note in result.notes]
    if any(row[i] is None for table in tables for row in table.rows for i in range(len(row))):
        notes.append("n/a: undefined (no item, no yes to find, or one shared answer on every item); the JSON "
                     "output says why for each")
    tables[-1].notes = notes
    return tables


def _people_table(result: JudgeAgreementResult, boot: str) -> Table:
    """Double assessment: alpha across the assessors, each pair's agreement and kappa, alpha with each judge."""
    people: list[list[str | None]] = []
    for kind, alpha in result.people.items():
        people.append(["people", kind, str(alpha.units), fmt_number(alpha.observed_agreement, 3), "",
                       _cell(alpha.alpha)])
    for (first, second), kinds in result.pairs.items():
        for kind, item in kinds.items():
            people.append([f"{second} vs {first}", kind, str(item.n), _cell(item.statistic("accuracy")),
                           _cell(item.statistic("kappa")), _cell(item.statistic("alpha"))])
    for side in result.judges:
        for kind, alpha in side.with_people.items():
            people.append([f"people+{side.label}", kind, str(alpha.units), fmt_number(alpha.observed_agreement, 3),
                           "", _cell(alpha.alpha)])
    return Table(["coders", "kind", "items", "agreement", "kappa", "alpha"], people, "llrrrr",
                 f"double assessment: {', '.join(result.assessors)} on the items two or more of them answered "
                 "(agreement: share of agreeing pairs of answers; kappa per pair of assessors); people+JUDGE adds "
                 f"the judge as one more coder on those items; {boot}")


def _systems_table(result: JudgeAgreementResult, boot: str) -> Table:
    """Rank agreement of the leaderboards and the pairwise decisions, one row per judge."""
    from ..api.agree_judgments import SYSTEM_STATISTICS, describe_test

    settings = result.settings
    rows: list[list[str | None]] = []
    for side in result.judges:
        if side.systems is None or side.decisions is None:
            continue
        counts = side.decisions.counts
        rows.append([side.label, str(len(side.systems.runs)), str(len(side.systems.topics))]
                    + [_cell(side.systems.statistic(name)) for name in SYSTEM_STATISTICS]
                    + [fmt_number(side.decisions.agreement, 3), f"{counts['same']}/{counts['pairs']}",
                       str(counts["only_a"]), str(counts["only_b"]), str(counts["opposite"])])
    return Table(["judge", "systems", "topics", *SYSTEM_STATISTICS, "same_decision", "pairs", "people_only",
                  "judge_only", "opposite"], rows, "lrrrrrrrrrr",
                 f"systems: {result.metric} under the people's judgments (reference) and the judge's; {boot}; "
                 f"pairwise decisions: {describe_test(settings['test'], settings['correction'])}, alpha "
                 f"{settings['alpha']} (people_only: significant under the people's only)")


def _disagreements_table(result: JudgeAgreementResult, show: int) -> Table:
    worst = result.details[:show]
    more = len(result.details) > len(worst)
    return Table(
        ["rank", "judge", "conf", "kind", "request_id", "people", "judge_said", "sentence", "answer", "doc_id"],
        [[str(r["rank"]), r["judges"][0]["judge"], fmt_number(r["judges"][0]["confidence"], 2), r["kind"],
          r["request_id"], "yes" if r["people"]["value"] else "no", "yes" if r["judges"][0]["value"] else "no",
          _clip(r["sentence"], 60), _clip(r["answer"], 24) or "", r["doc_id"] or ""] for r in worst],
        "rlrlllllll",
        f"disagreements, worst first (the judge's most confident wrong answers first): {len(worst)} of "
        f"{len(result.details)}" + ("; --show N for more, --disagreements OUT.jsonl writes them all with their "
                                    "texts" if more else ""))


def long_table(result: JudgeAgreementResult) -> Table:
    """Every figure as one long table (TSV): judge, kind, statistic, value, interval; full precision."""
    from ..api.agree_judgments import COUNT_STATISTICS

    def number(value: float | None, count: bool = False) -> str | None:
        if value is None or value != value:
            return None
        return str(int(value)) if count else repr(float(value))

    rows = [[who, kind, name, number(value, name in COUNT_STATISTICS), number(low), number(high)]
            for who, kind, name, value, low, high in result.rows]
    return Table(["judge", "kind", "statistic", "value", "ci_low", "ci_high"], rows, "lllrrr", None,
                 [str(note).removeprefix("note: ") for note in result.notes])


@click.command("agree-judgments", context_settings=CONTEXT)
@verbosity_options
@click.argument("human", type=InputPath(path_type=Path), metavar="HUMAN")
@click.argument("judges", nargs=-1, required=True, type=InputPath(path_type=Path), metavar="JUDGE...")
@click.option("--judgments-format", default=None, type=click.Choice(JUDGMENT_FORMATS),
              help="Format of every judgments file if detection should not guess.")
@click.option("--kind", "kinds", multiple=True, type=click.Choice(JUDGMENT_KINDS),
              help="Only these question kinds (repeatable), e.g. --kind answers --kind attested.")
@click.option("--nuggets", default=None, type=InputPath(folder=True), metavar="N",
              help="The nugget bank: reads Auto-ARGUE files as `score` does (the bank's nugget ids, the cited "
                   "document's unmatched answers as no), shows the nuggets' questions, and with --run scores.")
@click.option("--collection", default=None, type=InputPath(folder=True), metavar="C",
              help="Documents (JSONL, Lucene index or irds:ID): each disagreement gets the passage of its cited "
                   "document closest to the sentence and answer.")
@click.option("--run", "runs", multiple=True, type=InputPath(), metavar="RUN",
              help="Runs to score under the people's judgments and under each judge's (repeatable; needs "
                   "--nuggets): rank agreement and pairwise decisions.")
@click.option("--requests", default=None, type=InputPath(), metavar="R", help="Requests, as for `score`.")
@click.option("--qrels", default=None, type=InputPath(), metavar="Q", help="TREC qrels, as for `score`.")
@policy_options
@missing_judgments_option("Scoring with --run, a needed judgment is absent: as for `score`.")
@click.option("--metric", "-m", default="f1", show_default=True, help="The measure the leaderboards compare (with --run).")
@click.option("--test", type=click.Choice(["randomization", "t", "tukey"]), default=None,
              help="Paired test of the pairwise decisions [default, as `compare` over all pairs: tukey].")
@click.option("--correction", type=click.Choice(["holm", "bh", "bonferroni", "none"]), default=None,
              help="As for `compare` [default: holm for randomization and t; none for tukey].")
@click.option("--alpha", "significance", type=Number(0, 1, min_open=True, max_open=True), default=0.05,
              show_default=True, help="Significance level of the pairwise decisions.")
@click.option("--resamples", type=RESAMPLES, default=10_000, show_default=True,
              help="Bootstrap resamples over topics (and the tests' permutations).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Random seed: same seed, same output bytes.")
@click.option("--confidence", type=Number(0, 1, min_open=True, max_open=True), default=0.95, show_default=True)
@click.option("--show", type=click.IntRange(0, 1_000_000), default=10, show_default=True,
              help="Disagreements listed in the text output (JSON and --disagreements have all).")
@click.option("--format", "output_format", type=click.Choice(RENDER_FORMATS), default="text", show_default=True,
              help="text/markdown/latex: the tables; tsv: every figure as one long table; json: everything.")
@click.option("--output", "-o", type=OutputPath(path_type=Path), default=None, help="Write here instead of stdout.")
@click.option("--disagreements", type=OutputPath(path_type=Path), default=None, metavar="OUT.jsonl",
              help="Also write every question a judge answers unlike the people, worst first, one JSON line each "
                   "(the item id of `assess export`, the question, the people's answer as a, the most confident "
                   "disagreeing judge's as b, the texts): `assess init --disagreements` loads it into the "
                   "workbench for adjudication.")
def judgments_command(human, judges, judgments_format, kinds, nuggets, collection, runs, requests, qrels, policies,
                      metric, test, correction, significance, resamples, seed, confidence, show, output_format,
                      output, disagreements) -> None:
    """Judges measured against people: agreement of judgment files with a reference (e.g. assessors).

    HUMAN is the reference: a workbench export, `assess import` output or any judgments file, with one or
    several assessors (each its own judge name, human:NAME); its last answer to a question is the one
    `score` uses (an adjudication, written last, counts). Each JUDGE file is compared with it per question
    kind: accuracy, precision / recall / F1 of "yes", Cohen's kappa and Krippendorff's alpha, each with a
    bootstrap interval resampling topics, and the confusion counts. Judgments are matched on their identity
    (kind, request, normalized sentence, document, nugget/answer; never the run). Where two or more assessors
    answered a question (double assessment): alpha across them, each pair's kappa, and alpha with each judge
    added as a coder. With --run (and --nuggets) the runs are scored under HUMAN and under each judge: Kendall
    tau-b, tau_AP and Pearson of the leaderboards, and, for every run pair, whether the paired tests reach the
    same decision at --alpha. The disagreements come worst first, with their texts (--collection adds the
    document's passage); --disagreements writes them for the workbench's adjudication.

    \b
    Example on the sample track (the assessors' judgments against the offline lexical judge's):
      argue-eval judge --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl -o judgments.lexical.jsonl
      argue-eval agree-judgments qrels/sample/judgments.jsonl judgments.lexical.jsonl --resamples 1000
      argue-eval agree-judgments qrels/sample/judgments.jsonl judgments.lexical.jsonl --kind answers --format json \\
          -o agreement.json
      argue-eval agree-judgments qrels/sample/judgments.jsonl judgments.lexical.jsonl \\
          --run runs/sample/careful.jsonl --run runs/sample/hallucinating.jsonl --run runs/sample/wrong-cites.jsonl \\
          --run runs/sample/no-citations.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl --resamples 1000 \\
          --disagreements adjudicate.jsonl
      argue-eval agree-judgments qrels/sample/hallucinating.autoargue.judgments.jsonl qrels/sample/judgments.jsonl \\
          --nuggets nuggets/sample/nuggets.jsonl
    """
    from ..api import agree_judgments, make_policies, write_records

    score_options = None
    if runs:
        score_options = dict(policies)
        make_policies(**score_options)  # a bad policy is an error before any file is read
    from ._output import format_or_json

    output_format = format_or_json(output_format)
    result = agree_judgments(human, list(judges), kinds=kinds, judgments_format=judgments_format, nuggets=nuggets,
                             collection=collection, runs=list(runs) or None, requests=requests, qrels=qrels,
                             metric=metric, score_options=score_options, resamples=resamples, seed=seed,
                             confidence=confidence, alpha=significance, test=test, correction=correction)
    if output_format == "json":
        text = dumps_json(result.to_dict())
    elif output_format == "tsv":
        text = render_tables([long_table(result)], "tsv")
    else:
        text = render_tables(build_judgment_tables(result, show), output_format)
    if disagreements is not None:
        write_records(result.adjudication_lines(), disagreements)
    write_output(text, output)
