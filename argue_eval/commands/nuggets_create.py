"""``argue-eval nuggets create`` and ``nuggets compare``: an LLM-proposed nugget bank from a pool, and how close
a created bank comes to a human one. The work is ``api.create`` and ``api.nugget_compare``'s."""
from __future__ import annotations

import json
from typing import Any

import click

from ..errors import OptionError
from ._options import LARGE_COUNT, Number, llm_options, run_options, verbosity_options
from ._output import emit, json_mode
from ._paths import InputPath, OutputPath, UpdatedPath, default_cache_path

__all__ = ["create_command", "compare_command"]


@click.command(name="create")
@verbosity_options
@click.option("--requests", required=True, type=InputPath(exists=True, dir_okay=False), metavar="R",
              help="The requests (any request format): the topics to create nuggets for, and their text.")
@click.option("--pool", default=None, type=InputPath(exists=True, dir_okay=False), metavar="POOL",
              help="The documents to read per topic, in order: the `pool` command's output (qrels-shaped lines).")
@run_options("Instead of --pool: runs whose ranked or cited documents are pooled to --depth (as `pool` does); "
             "repeatable, and takes several after it (the paths a shell glob expands to).", exists=True)
@click.option("--depth", type=LARGE_COUNT, default=100, show_default=True,
              help="With --run: each run's top documents per topic that are pooled.")
@click.option("--max-documents", type=LARGE_COUNT, default=None, metavar="N",
              help="Read at most the first N documents of each topic's pool (default: all).")
@click.option("--collection", default=None, type=InputPath(folder=True), metavar="C",
              help="The documents' texts (JSONL, Lucene index or irds:ID). Needed unless --dry-run.")
@click.option("--judge", "judge_spec", type=click.Choice(["llm"]), default="llm", show_default=True,
              help="The model that proposes and labels the nuggets: the LLM judge's endpoint (--llm-* options).")
@click.option("--judge-option", "judge_option", multiple=True, metavar="BACKEND.NAME=VALUE",
              help="A backend option: llm.NAME for the model, or the --verify judge's (lexical.attested_threshold=0.5).")
@click.option("--batch-size", type=click.IntRange(1, 1000), default=10, show_default=True,
              help="Documents per call (AutoNuggetizer reads 10 at a time).")
@click.option("--max-nuggets", type=click.IntRange(1, 100_000), default=30, show_default=True,
              help="Nuggets kept per topic, the most supported (bound to the most documents) first.")
@click.option("--merge-threshold", type=Number(0, 1, min_open=True), default=0.8, show_default=True,
              help="Questions whose words overlap this much (Jaccard, same numbers) are one nugget.")
@click.option("--verify", type=click.Choice(["lexical", "semantic", "nli", "llm"]), default=None,
              help="Check every binding with this judge (does the document attest 'question answer'?); rejected "
                   "bindings are dropped. Default: no check.")
@click.option("--nli-model", default=None, metavar="PATH", help="With --verify nli: a local NLI model directory.")
@click.option("-o", "--output", default=None, type=OutputPath(folder=True), metavar="N.jsonl",
              help="The bank (canonical nuggets with a provenance per nugget; --to autoargue-v3 for a v3 directory).")
@click.option("--to", "to_format", default="argue", show_default=True, metavar="FORMAT",
              help="Output format: argue (our JSONL) or autoargue-v3.")
@click.option("--details", "details_path", default=None, type=OutputPath(dir_okay=False), metavar="D.jsonl",
              help="Every call's proposals and what became of each (new, merged, dropped and why), then the "
                   "verification, cap and labels, one JSON line per call or step.")
@click.option("--cache", "cache_path", default=None, metavar="PATH",
              type=UpdatedPath(default=default_cache_path, disabled_by="no_cache"),
              help="SQLite judgment cache shared with `judge`: every reply is committed before use, so a killed "
                   "run resumes without asking again. Default: .argue-cache/judgments.sqlite.")
@click.option("--no-cache", is_flag=True, help="Do not read or write the judgment cache.")
@click.option("--dry-run", is_flag=True, help="Ask nothing: print the calls and tokens per topic a run would need.")
@click.option("--json", "as_json", is_flag=True, help="With --dry-run: print the plan as one JSON object.")
@llm_options
def create_command(requests: str, pool: str | None, runs: tuple[str, ...], depth: int,
                   max_documents: int | None, collection: str | None, judge_spec: str, judge_option: tuple[Any, ...],
                   batch_size: int, max_nuggets: int, merge_threshold: float, verify: str | None,
                   nli_model: str | None, output: str | None, to_format: str, details_path: str | None,
                   cache_path: str | None, no_cache: bool, dry_run: bool, as_json: bool) -> None:
    """Create a nugget bank with an LLM, for assessors to revise: per topic the pooled documents are read in
    batches; each call sees the request, the nuggets so far and a batch, and proposes questions with short
    answers, each bound to the documents of the batch that state it. Answers to one question merge across
    batches, near-duplicate questions merge, a binding to a document the model did not read is dropped
    (and counted), the banks are cut to --max-nuggets (most supported first) and each nugget is labelled
    vital or okay. Every reply is cached: a rerun asks nothing already answered and writes the same bytes.
    A failed call is said in a warning (exit status 1) and asked again on the next run.

    \b
    Example on the sample track (MODEL served at an OpenAI-compatible endpoint; the llm extra):
      argue-eval pool runs/sample/*.jsonl --depth 10 -o pool.qrels
      argue-eval nuggets create --requests topics/sample/requests.jsonl --pool pool.qrels \\
          --collection topics/sample/collection.jsonl --judge-option llm.base_url=http://localhost:8000/v1 \\
          --judge-option llm.model=MODEL -o created.jsonl --details created.details.jsonl
      argue-eval nuggets validate created.jsonl --collection topics/sample/collection.jsonl
    \b
    What it would cost, asking nothing (no endpoint needed; --llm-base-url and --llm-model work as well):
      argue-eval pool runs/sample/*.jsonl --depth 10 -o pool.qrels
      argue-eval nuggets create --requests topics/sample/requests.jsonl --pool pool.qrels \\
          --collection topics/sample/collection.jsonl --llm-model MODEL --dry-run
    """
    from ._judging import cache_in_use
    from ._options import parse_judge_options

    all_runs = tuple(runs)
    if (pool is None) == (not all_runs):
        raise OptionError("--pool", "give the documents to read: --pool POOL (the pool command's output) or "
                                    "--run RUN... (their cited or ranked documents), not both")
    if not dry_run:
        if output is None:
            raise OptionError("-o", "missing -o N.jsonl, or use --dry-run")
        if collection is None:
            raise OptionError("--collection", "the model reads the documents' texts: give --collection C")
    options = parse_judge_options(judge_option, nli_model)
    arguments = {"collection": collection, "pool": pool, "runs": all_runs or None, "depth": depth,
                 "max_documents": max_documents, "judge": judge_spec, "judge_options": options,
                 "cache": cache_in_use(cache_path, no_cache), "batch_size": batch_size, "max_nuggets": max_nuggets,
                 "merge_threshold": merge_threshold, "verify": verify}
    if dry_run:
        from ..api.create import plan_create

        plan = plan_create(requests, **arguments)
        click.echo(json.dumps(plan, indent=2) if as_json else render_plan(plan))
        return
    _create(requests, arguments, output, to_format, details_path)


def _create(requests: str, arguments: dict[str, Any], output: str | None, to_format: str,
            details_path: str | None) -> None:
    from ..api import check_nugget_format, commit_together, create_nuggets, write_nuggets, write_records
    from ..progress import progress_bar

    assert output is not None
    check_nugget_format(to_format)  # a wrong --to is refused before any call is paid for
    bar = progress_bar("LLM calls", unit="call")
    result = create_nuggets(requests, progress=bar.update, **arguments)
    bar.close()
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    counts, usage = result.counts, result.usage
    if counts["nuggets"]:
        with commit_together():
            write_nuggets(result.topics, output, to_format)
            if details_path is not None:
                write_records(result.details, details_path)
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    if json_mode():  # the notes and warnings went to stderr as above; the object holds them too
        emit(counts=counts, dropped=dict(result.dropped), usage=usage, output=output if counts["nuggets"] else None,
             notes=[*(f"note: {note}" for note in result.notes), *(f"warning: {warning}" for warning in result.warnings)])
    else:
        _print_created(counts, usage, dict(result.dropped), output)
    if not result.complete or not counts["nuggets"]:
        raise click.exceptions.Exit(1)


def _print_created(counts: dict[str, Any], usage: dict[str, Any], dropped_by: dict[str, int], output: str) -> None:
    """The summary lines of a run that created nuggets (or kept none): what was made, dropped and paid for."""
    dropped = ", ".join(f"{count} {reason}" for reason, count in dropped_by.items()) or "nothing"
    where = f"-> {output}" if counts["nuggets"] else f"nothing written to {output} (a bank of no nugget is no bank)"
    click.echo(f"created {counts['nuggets']} nugget(s) ({counts['vital']} vital, {counts['okay']} okay), "
               f"{counts['answers']} answer(s), {counts['bindings']} binding(s) for {counts['topics']} of "
               f"{counts['requests']} request(s) from {counts['documents']} document(s) in {counts['batches']} "
               f"batch(es) {where}", err=True)
    click.echo(f"dropped: {dropped}", err=True)
    if "verify_attested" in counts:
        click.echo(f"verified bindings: {counts['verify_attested']} attested, {counts['verify_rejected']} rejected, "
                   f"{counts['verify_unjudged']} unjudged", err=True)
    cost = "" if usage.get("cost") is None else f", cost {usage['cost']:.4f}"
    click.echo(f"model calls: {usage['calls']} ({usage['retries']} retried, {usage['reasks']} re-asked, "
               f"{usage['failed_calls']} failed), {usage['prompt_tokens']} prompt + {usage['completion_tokens']} "
               f"completion tokens{cost}", err=True)


def render_plan(plan: dict[str, Any]) -> str:
    """The dry run as text: per topic the documents, batches, calls cached and to make, and the tokens."""
    lines = [f"dry run of nuggets create with {plan['model']}:"]
    lines += [f"note: {note}" for note in plan["notes"]]
    header = f"{'request_id':<16} {'documents':>9} {'batches':>7} {'cached':>6} {'calls':>6} {'prompt_tok':>10} {'max_compl':>9}"
    lines.append(header)
    for row in [*plan["topics"], {"request_id": "all", **plan["total"]}]:
        lines.append(f"{row['request_id']:<16} {row['documents']:>9} {row['batches']:>7} {row['cached']:>6} "
                     f"{row['calls']:>6} {row['prompt_tokens']:>10} {row['completion_tokens']:>9}")
    lines.append("(calls: create calls, one per batch, and label calls, one per 10 nuggets, that the cache does not "
                 "answer; prompt_tok: estimated at 4 characters a token; max_compl: the calls' completion limits)")
    if plan.get("cost") is not None:
        lines.append(f"cost: at most about {plan['cost']:.2f}")
    if "verify" in plan:
        verify = plan["verify"]
        lines.append(f"verify with {verify['judge']}: {verify['cached']} binding(s) answered by the cache, "
                     f"{verify['to_ask']} to ask, of the bindings known from cached calls")
    return "\n".join(lines)


@click.command(name="compare")
@verbosity_options
@click.argument("created", type=InputPath(exists=True, folder=True))
@click.argument("human", type=InputPath(exists=True, folder=True))
@click.option("--judge", "judge_spec", default="lexical", show_default=True, metavar="JUDGE",
              help="Decides whether a created answer matches a human one (its 'question answer' read as a "
                   "sentence that gives the human answer): lexical (offline), semantic, nli, llm, or a cascade.")
@click.option("--judge-option", "judge_option", multiple=True, metavar="BACKEND.NAME=VALUE",
              help="A judge backend option (repeatable), as for `judge`.")
@click.option("--nli-model", default=None, metavar="PATH", help="Local NLI model directory (for --judge nli).")
@click.option("--requests", default=None, type=InputPath(exists=True, dir_okay=False), metavar="R",
              help="The requests: the judge reads each topic's request as context.")
@click.option("--pool", default=None, type=InputPath(exists=True, dir_okay=False), metavar="POOL",
              help="The documents the creation read: a human binding to another document is not counted in the "
                   "binding agreement.")
@click.option("-o", "--output", default=None, type=OutputPath(dir_okay=False), metavar="OUT.tsv",
              help="Write the table here (TSV) instead of stdout.")
@click.option("--details", "details_path", default=None, type=OutputPath(dir_okay=False), metavar="D.jsonl",
              help="Per topic: the matched pairs with their documents, and the unmatched answers of each bank.")
@click.option("--cache", "cache_path", default=None, metavar="PATH",
              type=UpdatedPath(default=default_cache_path, disabled_by="no_cache"),
              help="SQLite judgment cache. Default: .argue-cache/judgments.sqlite.")
@click.option("--no-cache", is_flag=True, help="Do not read or write the judgment cache.")
@llm_options
def compare_command(created: str, human: str, judge_spec: str, judge_option: tuple[Any, ...], nli_model: str | None,
                    requests: str | None, pool: str | None, output: str | None, details_path: str | None,
                    cache_path: str | None, no_cache: bool) -> None:
    """Compare a created nugget bank with a human one, per topic of the human bank: recall (the share of
    human answers some created answer matches), precision (the share of created answers that match a human
    answer) and the binding agreement of the matched pairs (of the documents bound to either answer, the
    share bound to both; with --pool, only the pooled documents count on the human side). The `all` row is
    computed from the summed counts. A pair the judge could not judge is counted, never a match or a miss
    (exit status 1).

    \b
    Example on the sample track (the human bank against itself: recall and precision 1):
      argue-eval nuggets compare nuggets/sample/nuggets.jsonl nuggets/sample/nuggets.jsonl --no-cache
    \b
    A bank created by MODEL (see `nuggets create`; needs an endpoint and the llm extra) against the assessors':
      argue-eval pool runs/sample/*.jsonl --depth 10 -o pool.qrels
      argue-eval nuggets create --requests topics/sample/requests.jsonl --pool pool.qrels \\
          --collection topics/sample/collection.jsonl --judge-option llm.base_url=http://localhost:8000/v1 \\
          --judge-option llm.model=MODEL -o created.jsonl
      argue-eval nuggets compare created.jsonl nuggets/sample/nuggets.jsonl --pool pool.qrels -o compare.tsv
    """
    from ..api import commit_together, compare_nuggets, write_records
    from ._common import emit_tsv
    from ._judging import cache_in_use
    from ._options import parse_judge_options

    result = compare_nuggets(created, human, judge=judge_spec,
                             judge_options=parse_judge_options(judge_option, nli_model, judge_spec),
                             cache=cache_in_use(cache_path, no_cache), requests=requests, pool=pool)
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    with commit_together():  # the table and its details as one set
        if details_path is not None:
            write_records(result.details, details_path)
        emit_tsv(result.columns, result.rows, output, notes=[*(f"note: {note}" for note in result.notes),
                                                            *(f"warning: {warning}" for warning in result.warnings)],
                 judge=result.judge)
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    if not result.complete:
        raise click.exceptions.Exit(1)
