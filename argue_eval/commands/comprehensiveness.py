"""``argue-eval comprehensiveness``: the NLI-graph comprehensiveness of Dejl et al., per run and topic."""
from __future__ import annotations

import click

from ._measure_cli import measure_judge_options
from ._options import Number, verbosity_options
from ._paths import InputPath, OutputPath


@click.command("comprehensiveness")
@verbosity_options
@click.argument("more_runs", nargs=-1, type=InputPath(), metavar="[RUN]...")
@click.option("--run", "runs", multiple=True, type=InputPath(), metavar="RUN", help="Run file (any run format); repeat for several.")
@click.option("--nuggets", default=None, type=InputPath(folder=True), metavar="N",
              help="Context atoms from a nugget bank: each answer, stated with its question.")
@click.option("--context", default=None, type=InputPath(nonempty=True), metavar="FILE",
              help="Context atoms from a JSONL file: {request_id, statements: [...]} (one atom each) or "
                   "{request_id, texts: [...]} (one atom per sentence).")
@click.option("-o", "--output", required=True, type=OutputPath(), metavar="OUT.tsv", help="Score table (long TSV); '-' for stdout.")
@click.option("--details", "details_path", default=None, type=OutputPath(), metavar="D.jsonl",
              help="One JSON line per run x topic: covered, uncovered and unjudged clusters, the uncovered "
                   "basis (what the report should have said) and the entailment edges.")
@click.option("--min-overlap", type=Number(0, 1), default=0.1, show_default=True,
              help="Pairs whose fuzzy token Jaccard is below this are not asked (no edge).")
@click.option("--claims", type=click.Choice(("sentences", "llm")), default="sentences", show_default=True,
              help="Response atoms: the report's sentences, or the LLM's atomic claims of each sentence (a "
                   "sentence it could not split stays whole).")
@click.option("--e2e", is_flag=True,
              help="The end-to-end variant: one LLM call per report says which context statements it covers "
                   "(the llm backend, configured with --judge-option llm.NAME=VALUE).")
@click.option("--missing-topics", type=click.Choice(("zero", "skip")), default="zero", show_default=True,
              help="A topic with context but no report in a run: scored with no response atoms, or left out.")
@measure_judge_options
@click.option("--quiet", "-q", is_flag=True, help="Do not print the summary table.")
def command(more_runs, runs, nuggets, context, output, details_path, min_overlap, claims, e2e, missing_topics, judge_spec,
            judge_option, nli_model, cache_path, no_cache, quiet) -> None:
    """Score runs with comprehensiveness: context statements reached through entailments from the report.

    Response atoms (report sentences) and context atoms (nugget answers, or context statements) are
    nodes; the judge's entailments (response -> context, context -> context) are edges; equivalent atoms
    are merged (strongly connected components). comprehensiveness = covered / (covered + uncovered)
    context clusters. The details list, per topic, the uncovered basis: the statements the report
    would have had to add. Pairs sharing few words are pruned before judging (pairs_judged vs pairs_all).
    A pair the judge could not judge leaves the clusters it decides unjudged: a warning, and exit status 1.

    With --e2e (Dejl et al.'s end-to-end variant) the LLM reads each report with its topic's context
    statements and labels every statement covered or uncovered, in one call per report; a report it
    could not judge is left out of the table and listed.

    \b
    Example (the shipped sample track; the graph extra):
      argue-eval comprehensiveness --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          -o comprehensiveness.tsv --details comprehensiveness.jsonl
    \b
    End to end, one LLM call per report (MODEL served by any OpenAI-compatible endpoint; the llm extra,
    the graph extra):
      argue-eval comprehensiveness --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl --e2e \\
          --judge-option llm.base_url=http://localhost:8000/v1 --judge-option llm.model=MODEL -o e2e.tsv
    """
    from ..api.comprehensiveness import comprehensiveness
    from ._measure_cli import echo_note, finish, judge_arguments, unjudged_by_run, write_outputs
    from ._options import run_paths

    result = comprehensiveness(run_paths(runs, more_runs), nuggets=nuggets, context=context, min_overlap=min_overlap,
                               claims=claims, e2e=e2e, missing_topics=missing_topics, on_note=echo_note,
                               **judge_arguments(judge_spec, judge_option, nli_model, cache_path, no_cache))
    write_outputs(result, output, details_path)
    counts, scope = result.counts, f"{len(result.runs)} run(s), {len(result.topics)} topic(s)"
    if e2e:
        line = f"comprehensiveness (e2e): {scope}; {counts['llm_calls']} LLM call(s), {counts['llm_failed']} failed"
    else:
        line = (f"comprehensiveness: {scope}; {counts['pairs_judged']} of {counts['pairs_all']} pairs judged "
                f"({counts['entailment_questions']} distinct questions)")
    failed = [key.split("/", 1)[0] for key in counts.get("failed", ())]  # e2e: reports left out
    flags = ({run: f"{failed.count(run)} report(s) left out" if run in failed else "" for run in result.runs} if e2e
             else unjudged_by_run(result.rows, [("unjudged_clusters", "cluster")]))
    finish(result, output, quiet, line, ["comprehensiveness_macro", "comprehensiveness_micro"],
           f"comprehensiveness{' (end-to-end)' if e2e else ''}, macro and micro over topics:", flags)
