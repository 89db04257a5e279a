"""``argue-eval longrecall``: LongRecall (Ardestani et al.) — reference facts the report entails, staged."""
from __future__ import annotations

import click

from ._measures import measure_judge_options
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
@click.option("--jaccard-threshold", type=Number(0, 1), default=0.3, show_default=True,
              help="Lexical candidate: fuzzy token Jaccard at least this ...")
@click.option("--lcs-threshold", type=Number(0, 1), default=0.6, show_default=True,
              help="... or token LCS / fact length at least this.")
@click.option("--fuzzy-ratio", type=Number(0, 1), default=0.85, show_default=True,
              help="Two tokens match in the fuzzy Jaccard when their edit similarity is at least this.")
@click.option("--lexical-k", type=click.IntRange(1, 1000), default=3, show_default=True,
              help="Lexical candidates checked per fact.")
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
            jaccard_threshold, lcs_threshold, fuzzy_ratio, lexical_k, cosine_threshold, semantic_k,
            substring_threshold, claims, entailment, missing_topics, judge_spec, judge_option, nli_model, cache_path, no_cache,
            quiet) -> None:
    """Score runs with LongRecall: the share of reference facts that the report entails.

    Each reference fact gets lexical candidates among the report's sentences (fuzzy token Jaccard or
    token LCS over thresholds), then semantic candidates (embedding cosine) if lexical ones did not
    settle it; the judge checks each candidate (--entailment multiple-choice: the LLM picks among a fact's
    candidates in one call); a fact with no candidate is uncovered without a model call. longrecall = covered / judged facts; answer_recall and lcs_recall are the lexical baselines;
    covered_lexical / covered_semantic / model_calls tell where the work went. Every threshold is an
    option, and is recorded in the table (param_* rows) and the details.

    \b
    Example (the shipped sample track):
      argue-eval longrecall --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          -o longrecall.tsv --details longrecall.jsonl
      argue-eval agree scores.tsv longrecall.tsv --metric f1 --metric-b longrecall
    """
    from ..errors import ArgueError, MissingDependencyError
    from ..measures import TopicCounts, family_rows
    from ..measures.entail import JudgeFactChecker
    from ..measures.longrecall import Fact, Settings, TopicFacts, family, score_topics
    from ._measures import (
        echo_note,
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
        warn_llm_failures,
        write_outputs,
    )

    runs = run_paths(runs, more_runs)
    if bool(nuggets) == bool(reference):
        raise ArgueError("give the reference facts with exactly one of --nuggets or --reference")

    facts: dict[str, list[Fact]] = {}
    if nuggets:
        for request_id, topic in read_nugget_topics(nuggets).items():
            topic_facts: list[Fact] = []
            for nugget in topic.nuggets:
                if nugget.negative or not nugget.answers:
                    continue  # an absence is not a fact a sentence can state
                if fact_unit == "question":
                    topic_facts.append(Fact(nugget.nugget_id, nugget.question, nugget.question,
                                      tuple(a.text for a in nugget.answers)))
                else:
                    topic_facts.extend(Fact(f"{nugget.nugget_id}#{i + 1}", a.text, nugget.question, (a.text,))
                                 for i, a in enumerate(nugget.answers))
            facts[request_id] = topic_facts
    else:
        for report in read_runs([reference]):
            if report.request_id in facts:
                raise ArgueError(f"{reference}: two reference reports for topic {report.request_id!r}; "
                                 "give one reference report per topic")
            facts[report.request_id] = [Fact(f"{report.request_id}-s{i + 1}", text)
                                        for i, text in enumerate(report_sentences(report))]

    embed = None
    if semantic != "off":
        try:
            from ..search.dense import encode, load_model

            load_model()
            embed = encode
        except MissingDependencyError as error:
            if semantic == "on":
                raise
            echo_note(f"semantic stage off (lexical candidates only): {error}")

    reports = read_runs(runs)
    by_key = {(r.run_id, r.request_id): r for r in reports}
    run_ids = list(dict.fromkeys(r.run_id for r in reports))
    topics = topic_order(facts)
    unknown = sorted({r.request_id for r in reports} - set(facts), key=str)
    if unknown:
        echo_note(f"reports on {len(unknown)} topic(s) without reference facts are left out: "
                  f"{', '.join(unknown[:5])}" + (" ..." if len(unknown) > 5 else ""))
    items = []
    for run_id in run_ids:
        for request_id in topics:
            found = by_key.get((run_id, request_id))
            if found is None and missing_topics == "skip":
                continue
            items.append(TopicFacts(run_id, request_id, None if found is None else report_sentences(found),
                                    facts[request_id]))

    settings = Settings(jaccard_threshold, lcs_threshold, fuzzy_ratio, lexical_k, cosine_threshold, semantic_k,
                        substring_threshold)
    from ..judges.registry import parse_judge_spec
    from ..progress import progress_bar

    if entailment == "auto":
        entailment = "multiple-choice" if "llm" in parse_judge_spec(judge_spec) else "one-to-one"
    cache = open_cache(cache_path, no_cache)
    bar = progress_bar("longrecall: entailment questions", unit="q")
    chooser = tasks = None
    try:
        uses_llm = entailment == "multiple-choice" or claims == "llm"
        judge = make_entailer_judge(judge_spec, judge_option, nli_model, also=("llm",) if uses_llm else ())
        checker = JudgeFactChecker(judge, cache=cache, progress=bar.update)
        tasks = make_llm_tasks(judge, judge_option, cache) if uses_llm else None
        if entailment == "multiple-choice":
            from ..measures.generated import TaskChooser

            chooser = TaskChooser(tasks)
        if claims == "llm":
            present = [item for item in items if item.sentences is not None]
            units, _ = llm_units([(item.request_id, item.sentences or ()) for item in present], tasks)  # none is None
            replaced = {id(item): unit for item, unit in zip(present, units)}
            items = [item._replace(sentences=replaced[id(item)]) if id(item) in replaced else item for item in items]
        results = score_topics(items, checker, settings, embed, chooser)
    finally:
        bar.close()
        if cache is not None:
            cache.close()
    params = {**settings.params(), "semantic": int(embed is not None)}
    rows = family_rows(family(**params), (TopicCounts(t.run_id, t.request_id, t.counts) for t in results))
    header = {"measure": "longrecall", "settings": {
        **settings.params(), "semantic": embed is not None, "facts": "nuggets" if nuggets else "reference",
        "fact_unit": fact_unit if nuggets else "sentence", "judge": checker.identity(),
        "generated_facts": claims, "entailment": entailment, "missing_topics": missing_topics,
        **({"llm_tasks": {task: tasks.identity(task) for task, used in (("claims", claims == "llm"),
                                                                          ("choice", chooser is not None)) if used}}
           if tasks is not None else {})}}
    write_outputs(rows, output, [header] + [t.details() for t in results], details_path)
    unjudged = sum(t.counts["unjudged_facts"] for t in results)
    if chooser is not None:
        warn_llm_failures(tasks)
    choices = "" if chooser is None else (f", {chooser.calls} multiple-choice question(s) "
                                          f"({chooser.failed} failed)")
    click.echo(f"longrecall: {len(run_ids)} run(s), {len(topics)} topic(s), {checker.calls} entailment "
               f"question(s) asked{choices}; {unjudged} fact(s) could not be judged"
               + ("" if output == "-" else f" -> {output}"), err=True)
    if output != "-" and not quiet:
        click.echo(summary(rows, ["longrecall_macro", "answer_recall_macro", "lcs_recall_macro"],
                           "LongRecall, macro averages over topics:"), nl=False)

