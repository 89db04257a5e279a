"""``argue-eval judge``: answer the flowchart's questions for runs with a judge; write canonical judgments."""
from __future__ import annotations

import click

from ._options import input_options, judge_options, parse_judge_options, policy_options, verbosity_options
from ._paths import OutputPath


@click.command("judge")
@verbosity_options
@input_options
@judge_options
@click.option("-o", "--output", default=None, type=OutputPath(companions={".manifest.json": None}), metavar="OUT.jsonl",
              help="Judgments to write (canonical JSONL; '-' for stdout). A manifest with the judge, its "
                   "options and the counts goes beside it as OUT.jsonl.manifest.json.")
@policy_options
@click.option("--quiet", "-q", is_flag=True, help="Print only errors.")
def command(runs, nuggets, judgments, requests, qrels, collection, judge_spec, judge_option, nli_model, cache_path,
            no_cache, dry_run, as_json, output, relevance, nugget_scope, missing_topics, evaluated_topics,
            unbound_questions, weights, quiet) -> None:
    """Judge runs: answer every flowchart question the runs need, with an automatic judge.

    Lists the questions the ARGUE flowchart reaches for every report (deduplicated across runs: a
    sentence citing the same document in ten runs is asked once), answers them with the judge, and
    writes canonical judgments (cached ones included) that `argue-eval score` reads like any other
    judgments file. Questions the given --judgments already answer (human or Auto-ARGUE files) are not
    asked: the judge fills only the gaps. Every answer is committed to the cache before it is used, so
    an interrupted run started again resumes where it stopped and writes the same file. A question that
    cannot be judged (a cited document missing from the collection, a judge failure) is reported and left
    out, never counted as "no"; the exit status is then 1.

    \b
    Example (the shipped sample track, offline default judge):
      argue-eval judge --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl \\
          -o judgments.lexical.jsonl
      argue-eval score --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --judgments judgments.lexical.jsonl -o scores.tsv
    \b
    What would a run ask? (no judging, no model loaded)
      argue-eval judge --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl --dry-run --json
    """
    from ..api import judge, make_policies, plan, write_judgments
    from ..argue.policies import parse_weights
    from ._judging import announcer, cache_in_use, check_run_options, print_plan, report_run

    policies = make_policies(relevance=relevance, nugget_scope=nugget_scope, missing_topics=missing_topics,
                             unbound_questions=unbound_questions, evaluated_topics=evaluated_topics,
                             weights=parse_weights(weights))
    options = parse_judge_options(judge_option, nli_model, judge_spec)
    cache = cache_in_use(cache_path, no_cache)  # outputs against inputs: cli.py's check_paths, already run
    check_run_options(dry_run, as_json, output, collection, "OUT.jsonl (where to write the judgments)")
    given = dict(judgments=list(judgments), requests=requests, qrels=qrels, collection=collection, judge=judge_spec,
                 judge_options=options, cache=cache, policies=policies)
    if dry_run:
        print_plan(plan(list(runs) if runs else None, nuggets, **given), as_json)
        return
    result = judge(list(runs) if runs else None, nuggets, announce=announcer(quiet), **given)
    write_judgments(result, output, judge_spec, options)
    report_run(result, quiet, "" if output == "-" else f" -> {output}")
    if result.run.failures:
        raise click.exceptions.Exit(1)
