"""``argue-eval longrecall``: LongRecall (Ardestani et al.) — reference facts the report entails, staged."""
from __future__ import annotations

import click

from ._measure_cli import measure_judge_options
from ._options import Number, verbosity_options
from ._paths import InputPath, OutputPath


@click.command("longrecall")
@verbosity_options
@click.argument("more_runs", nargs=-1, type=InputPath(), metavar="[RUN]...")
@click.option("--run", "runs", multiple=True, type=InputPath(), metavar="RUN", help="Run file (any run format); repeat for several.")
@click.option("--nuggets", default=None, type=InputPath(folder=True), metavar="N", help="Reference facts from a nugget bank (see --fact-unit).")
@click.option("--reference", default=None, type=InputPath(), metavar="REPORTS",
              help="Reference facts from reference reports (a run file, e.g. the organizers' gold reports): "
                   "one fact per sentence.")
@click.option("-o", "--output", required=True, type=OutputPath(), metavar="OUT.tsv", help="Score table (long TSV); '-' for stdout.")
@click.option("--details", "details_path", default=None, type=OutputPath(), metavar="D.jsonl",
              help="One JSON line per run x topic: every fact, its candidates per stage, the verdicts, the "
                   "sentence that covers it (or why none does).")
@click.option("--fact-unit", type=click.Choice(("question", "answer")), default="question", show_default=True,
              help="With --nuggets: one fact per question (stated by any of its answers) or per answer.")
@click.option("--semantic", type=click.Choice(("auto", "on", "off")), default="auto", show_default=True,
              help="Semantic candidate stage (MiniLM embeddings, the dense extra): auto = on when installed.")
@click.option("--coverage-threshold", type=Number(0, 1), default=0.5, show_default=True,
              help="Lexical candidate: the sentence has at least this share of the fact's tokens ...")
@click.option("--jaccard-threshold", type=Number(0, 1), default=0.3, show_default=True,
              help="... or fuzzy token Jaccard at least this (the paper's gate, for atomic claims) ...")
@click.option("--lcs-threshold", type=Number(0, 1), default=0.6, show_default=True,
              help="... or token LCS / fact length at least this.")
@click.option("--fuzzy-ratio", type=Number(0, 1), default=0.85, show_default=True,
              help="Two tokens match in the coverage and the fuzzy Jaccard when their edit similarity is at "
                   "least this.")
@click.option("--lexical-k", type=click.IntRange(1, 1000), default=3, show_default=True,
              help="Lexical candidates checked per fact.")
@click.option("--window", type=click.IntRange(1, 10), default=2, show_default=True,
              help="A fact no single candidate states: runs of this many adjacent sentences that together "
                   "cover more of it are checked as one text (1: none; not with --entailment multiple-choice).")
@click.option("--cosine-threshold", type=Number(-1, 1), default=0.6, show_default=True,
              help="Semantic candidate: embedding cosine at least this.")
@click.option("--semantic-k", type=click.IntRange(1, 1000), default=3, show_default=True,
              help="Semantic candidates checked per fact.")
@click.option("--substring-threshold", type=Number(0, 1), default=0.4, show_default=True,
              help="lcs_recall baseline: longest common substring / fact length at least this.")
@click.option("--claims", type=click.Choice(("sentences", "llm")), default="sentences", show_default=True,
              help="Generated facts: the report's sentences, or the LLM's atomic claims of each sentence (a "
                   "sentence it could not split stays whole).")
@click.option("--entailment", type=click.Choice(("auto", "one-to-one", "multiple-choice")), default="auto",
              show_default=True,
              help="multiple-choice: a fact with several candidates is one LLM question (which candidate, or "
                   "smallest set, states it); one candidate is asked one-to-one. auto = multiple-choice when "
                   "--judge includes llm.")
@click.option("--missing-topics", type=click.Choice(("zero", "skip")), default="zero", show_default=True,
              help="A topic with reference facts but no report in a run: scored with no sentences, or left out.")
@measure_judge_options
@click.option("--quiet", "-q", is_flag=True, help="Do not print the summary table.")
def command(more_runs, runs, nuggets, reference, output, details_path, fact_unit, semantic,
            coverage_threshold, jaccard_threshold, lcs_threshold, fuzzy_ratio, lexical_k, window, cosine_threshold, semantic_k,
            substring_threshold, claims, entailment, missing_topics, judge_spec, judge_option, nli_model, cache_path, no_cache,
            device, quiet) -> None:
    """Score runs with LongRecall: the share of reference facts that the report entails.

    Each reference fact gets lexical candidates among the report's sentences (the share of the fact's
    tokens a sentence has, fuzzy token Jaccard or token LCS over thresholds), then semantic candidates (embedding cosine) if lexical ones did not
    settle it; the judge checks each candidate (--entailment multiple-choice: the LLM picks among a fact's
    candidates in one call); a fact with no candidate is uncovered without a model call. longrecall =
    covered / judged facts; answer_recall and lcs_recall are the lexical baselines; covered_lexical /
    covered_semantic / model_calls tell where the work went. Every threshold is an option, and is
    recorded in the table (param_* rows) and the details. A fact that could not be judged is left out
    (unjudged_facts), said in a warning, flagged in the summary; the exit status is then 1.

    \b
    Example (the shipped sample track):
      argue-eval longrecall --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          -o longrecall.tsv --details longrecall.jsonl
      argue-eval score --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --judgments qrels/sample/judgments.jsonl -o scores.tsv
      argue-eval agree scores.tsv longrecall.tsv --metric f1 --metric-b longrecall
    """
    from ..api.longrecall import Settings, longrecall
    from ._measure_cli import echo_note, finish, judge_arguments, unjudged_by_run, write_outputs
    from ._options import run_paths

    settings = Settings(jaccard_threshold=jaccard_threshold, lcs_threshold=lcs_threshold, fuzzy_ratio=fuzzy_ratio,
                        lexical_k=lexical_k, cosine_threshold=cosine_threshold, semantic_k=semantic_k,
                        substring_threshold=substring_threshold, coverage_threshold=coverage_threshold,
                        window=window)
    result = longrecall(run_paths(runs, more_runs), nuggets=nuggets, reference=reference, fact_unit=fact_unit,
                        semantic=semantic, settings=settings, claims=claims, entailment=entailment,
                        missing_topics=missing_topics, on_note=echo_note, device=device,
                        **judge_arguments(judge_spec, judge_option, nli_model, cache_path, no_cache))
    write_outputs(result, output, details_path)
    counts = result.counts
    choices = "" if "choice_calls" not in counts else (f", {counts['choice_calls']} multiple-choice question(s) "
                                                       f"({counts['choice_failed']} failed)")
    finish(result, output, quiet,
           f"longrecall: {len(result.runs)} run(s), {len(result.topics)} topic(s), "
           f"{counts['entailment_questions']} entailment question(s) asked{choices}; "
           f"{counts['unjudged_facts']} fact(s) could not be judged",
           ["longrecall_macro", "answer_recall_macro", "lcs_recall_macro"],
           "LongRecall, macro averages over topics:", unjudged_by_run(result.rows, [("unjudged_facts", "fact")]))
