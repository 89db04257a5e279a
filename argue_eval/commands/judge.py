"""``argue-eval judge``: answer the flowchart's questions for runs with a judge; write canonical judgments."""
from __future__ import annotations

import click

from ._options import ShardType, input_options, judge_options, parse_judge_options, policy_options, verbosity_options
from ._paths import InputPath, OutputPath


@click.command("judge")
@verbosity_options
@input_options
@judge_options
@click.option("-o", "--output", default=None, type=OutputPath(companions={".manifest.json": None}), metavar="OUT.jsonl",
              help="Judgments to write (canonical JSONL; '-' for stdout). A manifest with the judge, its "
                   "options and the counts goes beside it as OUT.jsonl.manifest.json.")
@click.option("--batch-out", default=None, type=OutputPath(), metavar="B.jsonl",
              help="Do not call the endpoint: write the LLM calls the round still needs (not in the cache) to this "
                   "OpenAI-batch file, for vLLM's run-batch or the OpenAI Batch API (more than --batch-max-calls: "
                   "B.part1.jsonl, B.part2.jsonl, ...). -o is written once no call is left.")
@click.option("--batch-in", multiple=True, type=InputPath(), metavar="RESULTS.jsonl",
              help="Results of a batch file (repeatable): each is checked against its call and its answers go to "
                   "the cache before the run continues; a result that fails a check is reported with its line.")
@click.option("--batch-max-calls", type=click.IntRange(min=1), default=50_000, show_default=True, metavar="N",
              help="Calls per batch file (the OpenAI Batch API takes 50,000).")
@click.option("--shard", default=None, type=ShardType(), metavar="K/N",
              help="Judge only share K of N (1 <= K <= N) of every round's questions, on one of N machines: a share is "
                   "a hash of each sentence's topic and text, the same on every machine and rerun. The shard writes "
                   "its answers to its --cache only (no -o); `argue-eval cache merge` joins the N caches, and judge "
                   "without --shard over the merged cache writes the judgments. 1/1 is the whole round.")
@policy_options
@click.option("--quiet", "-q", is_flag=True, help="Print only errors.")
def command(runs, nuggets, judgments, requests, qrels, collection, judge_spec, judge_option, nli_model, cache_path,
            no_cache, dry_run, as_json, output, batch_out, batch_in, batch_max_calls, shard, policies, quiet) -> None:
    """Judge runs: answer every flowchart question the runs need, with an automatic judge.

    Lists the questions the ARGUE flowchart reaches for every report (deduplicated across runs: a
    sentence citing the same document in ten runs is asked once), answers them with the judge, and
    writes canonical judgments (cached ones included) that `argue-eval score` reads like any other
    judgments file. Questions the given --judgments already answer (human or Auto-ARGUE files) are not
    asked: the judge fills only the gaps. Every answer is committed to the cache before it is used, so
    an interrupted run started again resumes where it stopped and writes the same file. A question that
    cannot be judged (a cited document missing from the collection, a judge failure) is reported and left
    out, never counted as "no"; the exit status is then 1. To judge as calibrated on human labels, give the
    profile `argue-eval judge calibrate` wrote: --judge-option profile=P.json.

    \b
    Example (the shipped sample track, offline default judge):
      argue-eval judge --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl \\
          -o judgments.lexical.jsonl
      argue-eval score --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --judgments judgments.lexical.jsonl -o scores.tsv
    \b
    One share of a round, on the first of three machines (all three and the merge: `argue-eval cache merge --help`):
      argue-eval judge --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl \\
          --shard 1/3 --cache shard1.sqlite
    \b
    What would a run ask? (no judging, no model loaded)
      argue-eval judge --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl --dry-run --json
    \b
    An LLM round through OpenAI-batch files (for vLLM's run-batch or the OpenAI Batch API; no endpoint, the llm extra):
      argue-eval judge --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl \\
          --judge llm --llm-model MODEL --batch-out calls-1.jsonl -o judgments.llm.jsonl
      # vLLM's run-batch (or the Batch API) answers calls-1.jsonl into results-1.jsonl
      argue-eval judge --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl \\
          --judge llm --llm-model MODEL --batch-in results-1.jsonl --batch-out calls-2.jsonl -o judgments.llm.jsonl
    """
    from ..api import judge, plan
    from . import _judging as shared

    options = parse_judge_options(judge_option, nli_model, judge_spec)
    cache = shared.cache_in_use(cache_path, no_cache)  # outputs against inputs: cli.py's check_paths, already run
    shared.check_batch_options(dry_run, batch_out, batch_in)
    partial = shared.check_shard_options(shard, cache, dry_run, output, batch_out, batch_in)
    shared.check_run_options(dry_run, as_json, output if batch_out is None and not partial else output or "",
                             collection, "OUT.jsonl (where to write the judgments)")
    given = dict(runs=list(runs) if runs else None, nuggets=nuggets, judgments=list(judgments), requests=requests,
                 qrels=qrels, collection=collection, judge=judge_spec, judge_options=options, cache=cache, **policies)
    if dry_run:
        shared.print_plan(plan(**given), as_json)
        return
    # keep_table=False: the command scores nothing, so only the judgments are kept, in a file gone after the with
    with judge(announce=shared.announcer(quiet), batch_in=list(batch_in), batch_out=batch_out,
               batch_max_calls=batch_max_calls, keep_table=False, shard=shard, **given) as result:
        shared.write_and_report(result, output, judge_spec, options, batch_out, quiet,
                                shard_cache=cache if partial else None)
        if shared.judging_failed(result, batch_out):
            raise click.exceptions.Exit(1)
