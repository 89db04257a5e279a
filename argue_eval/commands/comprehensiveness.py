"""``argue-eval comprehensiveness``: the NLI-graph comprehensiveness of Dejl et al., per run and topic."""
from __future__ import annotations

import re

import click

from ._measures import measure_judge_options
from ._options import Number, verbosity_options
from ._paths import InputPath, OutputPath

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


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

    With --e2e (Dejl et al.'s end-to-end variant) the LLM reads each report with its topic's context
    statements and labels every statement covered or uncovered, in one call per report; a report it
    could not judge is left out of the table and listed.

    \b
    Example (the shipped sample track):
      argue-eval comprehensiveness --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          -o comprehensiveness.tsv --details comprehensiveness.jsonl
      argue-eval comprehensiveness --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl --e2e \\
          --judge-option llm.base_url=http://localhost:8000/v1 --judge-option llm.model=MODEL -o e2e.tsv
    """
    from ..errors import ArgueError, InputError
    from ..measures import TopicCounts, family_rows
    from ..measures.comprehensiveness import family, score_topic
    from ..measures.entail import JudgeFactChecker
    from ..measures.longrecall import Fact
    from ._measures import (
        llm_units,
        make_entailer_judge,
        make_llm_tasks,
        open_cache,
        read_nugget_topics,
        read_runs,
        report_sentences,
        run_paths,
        summary,
        topic_order,
        write_outputs,
    )

    runs = run_paths(runs, more_runs)
    if bool(nuggets) == bool(context):
        raise ArgueError("give the context with exactly one of --nuggets or --context")
    if e2e and claims == "llm":
        raise ArgueError("--claims llm: the end-to-end variant reads the whole report, not atoms; drop one of "
                         "--claims llm and --e2e")

    atoms: dict[str, list[Fact]] = {}
    if nuggets:
        for request_id, topic in read_nugget_topics(nuggets).items():
            atoms[request_id] = [Fact(f"{n.nugget_id}#{i + 1}", a.text, n.question, (a.text,))
                                 for n in topic.nuggets if not n.negative for i, a in enumerate(n.answers)]
    else:
        from ..reading import iter_jsonl

        for line, record in iter_jsonl(context):
            request_id = record.get("request_id")
            if not isinstance(request_id, (str, int)) or isinstance(request_id, bool):
                raise InputError(context, line, "request_id", "expected the topic id")
            if "statements" in record:
                texts = record["statements"]
                split = False
            else:
                texts = record.get("texts")
                split = True
            if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
                raise InputError(context, line, "statements" if not split else "texts", "expected a list of strings")
            pieces = [p.strip() for t in texts for p in (_SENTENCE_END.split(t) if split else [t]) if p.strip()]
            existing = atoms.setdefault(str(request_id), [])
            existing.extend(Fact(f"{request_id}-c{len(existing) + i + 1}", p) for i, p in enumerate(pieces))

    reports = read_runs(runs)
    by_key = {(r.run_id, r.request_id): r for r in reports}
    run_ids = list(dict.fromkeys(r.run_id for r in reports))
    topics = topic_order(atoms)
    from ..progress import progress_bar

    cache = open_cache(cache_path, no_cache)
    if e2e:
        _end_to_end(run_ids, topics, by_key, atoms, missing_topics, judge_spec, judge_option, nli_model, cache,
                    output, details_path, "nuggets" if nuggets else "context", quiet)
        return
    bar = progress_bar("comprehensiveness: entailment questions", unit="q")
    results, records = [], []
    try:
        judge = make_entailer_judge(judge_spec, judge_option, nli_model, also=("llm",) if claims == "llm" else ())
        checker = JudgeFactChecker(judge, cache=cache, progress=bar.update)
        wanted = [(run_id, request_id, by_key.get((run_id, request_id))) for run_id in run_ids for request_id in topics
                  if (run_id, request_id) in by_key or missing_topics != "skip"]
        units = [[] if report is None else report_sentences(report) for _, _, report in wanted]
        tasks = None
        if claims == "llm":
            tasks = make_llm_tasks(judge, judge_option, cache)
            units, _ = llm_units([(request_id, sentences) for (_, request_id, _), sentences in zip(wanted, units)],
                                 tasks)
        for (run_id, request_id, report), sentences in zip(wanted, units):
            counts, detail = score_topic(sentences, atoms[request_id], checker, min_overlap)
            results.append(TopicCounts(run_id, request_id, counts))
            records.append({"measure": "comprehensiveness", "run_id": run_id, "request_id": request_id,
                            **({"missing_report": True} if report is None else {}), "counts": counts, **detail})
    finally:
        bar.close()
        if cache is not None:
            cache.close()
    rows = family_rows(family(min_overlap=min_overlap), results)
    header = {"measure": "comprehensiveness", "settings": {
        "min_overlap": min_overlap, "context": "nuggets" if nuggets else "context", "judge": checker.identity(),
        "variant": "nli-graph", "response_atoms": claims, "missing_topics": missing_topics,
        **({"llm_tasks": {"claims": tasks.identity("claims")}} if tasks is not None else {})}}
    write_outputs(rows, output, [header] + records, details_path)
    judged = sum(r.counts["pairs_judged"] for r in results)
    total = sum(r.counts["pairs_all"] for r in results)
    click.echo(f"comprehensiveness: {len(run_ids)} run(s), {len(topics)} topic(s); {judged} of {total} pairs judged "
               f"({checker.calls} distinct questions)" + ("" if output == "-" else f" -> {output}"), err=True)
    if output != "-" and not quiet:
        click.echo(summary(rows, ["comprehensiveness_macro", "comprehensiveness_micro"],
                           "comprehensiveness, macro and micro over topics:"), nl=False)


def _end_to_end(run_ids, topics, by_key, atoms, missing_topics, judge_spec, judge_option, nli_model, cache,
                output, details_path, context_source, quiet) -> None:
    """``--e2e``: one coverage task per report; a report the LLM could not judge is listed, never scored 0."""
    from ..measures import TopicCounts, family_rows
    from ..measures.comprehensiveness import family, score_topics_e2e
    from ._measures import echo_warning, make_entailer_judge, make_llm_tasks, report_sentences, summary, write_outputs

    keys, reports = [], []
    for run_id in run_ids:
        for request_id in topics:
            report = by_key.get((run_id, request_id))
            if report is None and missing_topics == "skip":
                continue
            keys.append((run_id, request_id, report is None))
            reports.append((request_id, [] if report is None else report_sentences(report), atoms[request_id]))
    try:
        judge = make_entailer_judge(judge_spec, judge_option, nli_model, also=("llm",))
        tasks = make_llm_tasks(judge, judge_option, cache)
        scored = score_topics_e2e(reports, tasks)
    finally:
        if cache is not None:
            cache.close()
    results, records, failed = [], [], []
    for (run_id, request_id, missing), outcome in zip(keys, scored):
        head = {"measure": "comprehensiveness", "run_id": run_id, "request_id": request_id,
                **({"missing_report": True} if missing else {})}
        if outcome is None:
            failed.append(f"{run_id}/{request_id}")
            records.append({**head, "status": "failed",
                            "reason": "the LLM could not judge this report (asked again on the next run)"})
            continue
        counts, detail = outcome
        results.append(TopicCounts(run_id, request_id, counts))
        records.append({**head, "counts": counts, **detail})
    rows = family_rows(family(), results)
    header = {"measure": "comprehensiveness", "settings": {
        "context": context_source, "variant": "e2e", "llm_task": tasks.identity("coverage"),
        "missing_topics": missing_topics, **({"failed": failed} if failed else {})}}
    write_outputs(rows, output, [header] + records, details_path)
    if failed:
        echo_warning(f"the LLM could not judge {len(failed)} report(s), left out of the table and asked again on the "
                  f"next run: {', '.join(failed[:5])}" + (" ..." if len(failed) > 5 else ""))
    click.echo(f"comprehensiveness (e2e): {len(run_ids)} run(s), {len(topics)} topic(s); {tasks.calls} LLM call(s), "
               f"{tasks.failed} failed" + ("" if output == "-" else f" -> {output}"), err=True)
    if output != "-" and not quiet:
        click.echo(summary(rows, ["comprehensiveness_macro", "comprehensiveness_micro"],
                           "comprehensiveness (end-to-end), macro and micro over topics:"), nl=False)
