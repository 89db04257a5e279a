"""What ``judge`` and ``evaluate`` share on the command line: their option checks and how they print a plan and a run.

The work is the API's (``api.judge``, ``api.plan``, ``api.write_judgments``); this module only checks what the
options say together and renders what the API returns.
"""
from __future__ import annotations

import json
from typing import Any

import click

from ..errors import OptionError
from ._output import emit, json_mode

__all__ = ["cache_in_use", "check_batch_options", "check_shard_options", "check_run_options", "judging_failed",
           "print_plan", "render_plan", "report_shard", "announcer", "report_run", "report_batch", "write_and_report",
           "run_document"]


def cache_in_use(cache_path: str | None, no_cache: bool) -> Any:
    """The judgment cache a run reads and writes: ``--cache``, else the default; none with ``--no-cache``."""
    from pathlib import Path

    from ._paths import default_cache_path

    if no_cache and cache_path is not None:
        raise OptionError("--no-cache", f"contradicts --cache {cache_path}: give one of them")
    return None if no_cache else (cache_path or Path(default_cache_path()))


def check_run_options(dry_run: bool, as_json: bool, output: str | None, collection: str | None,
                      output_hint: str) -> None:
    """What the options of a judging command must say together: a real run needs ``-o`` and the collection;
    ``--json`` (the plan, or the run's summary) needs stdout, which ``-o -`` would fill with the data."""
    from ._output import refuse_stdout_data

    if dry_run:
        return
    if output is None:
        raise OptionError("-o", f"missing -o {output_hint}, or use --dry-run")
    if collection is None:
        raise OptionError("--collection", "the judge reads the cited documents: give --collection C")
    refuse_stdout_data(output)


def check_batch_options(dry_run: bool, batch_out: str | None, batch_in: tuple[str, ...]) -> None:
    """Batch files are a real run's: the dry run plans the calls that ``--batch-out`` would write."""
    if (batch_out is not None or batch_in) and dry_run:
        raise OptionError("--batch-out" if batch_out is not None else "--batch-in",
                          "not with --dry-run (the dry run plans the calls; --batch-out writes them)")


def check_shard_options(shard: Any, cache: Any, dry_run: bool, output: str | None, batch_out: str | None,
                        batch_in: tuple[str, ...]) -> bool:
    """Whether the run is a shard of several (``--shard K/N``, N > 1), which writes its answers to its cache and
    nothing else: its judgments would be a share of the round's, which no reader should take for a run's. The
    shard needs a cache (where else would its answers go?), and judges for real: the dry run and the batch
    files plan and carry a whole round (an LLM round spreads its calls through the batch files instead)."""
    if shard is None or shard.count == 1:
        return False
    if cache is None:
        raise OptionError("--shard", "needs a --cache: a shard's answers go to its cache only, to be merged with "
                          "the other shards' (argue-eval cache merge); not with --no-cache")
    if dry_run:
        raise OptionError("--shard", "not with --dry-run: the dry run plans the whole round")
    if batch_out is not None or batch_in:
        raise OptionError("--shard", "not with --batch-out/--batch-in: the batch files carry a whole round's LLM "
                          "calls (spread them over endpoints instead)")
    if output is not None:
        raise OptionError("-o", f"a shard ({shard}) writes no judgments, only its answers to --cache: merge the "
                          "shards' caches with `argue-eval cache merge` and give -o to judge without --shard")
    return True


def report_shard(result: Any, cache: Any, quiet: bool) -> None:
    """After a shard: what it judged (``report_run``) and what comes next."""
    report_run(result, quiet)
    line = (f"shard {result.shard}: {result.run.stats.answered} questions answered into {cache}; merge the shards' "
            "caches with `argue-eval cache merge` and rerun judge without --shard to write the judgments")
    if json_mode():
        emit(**run_document(result, None), shard=str(result.shard), cache=str(cache))
    elif not quiet:
        click.echo(line, err=True)


def judging_failed(result: Any, batch_out: str | None) -> bool:
    """Exit 1: a question could not be judged, or (with no ``--batch-out`` to carry them) some still wait for a
    batch result. Questions waiting for the next batch cycle are not a failure."""
    return bool(result.failed) or (bool(result.waiting) and batch_out is None)


def print_plan(plan: dict[str, Any], as_json: bool) -> None:
    """The dry run's plan: one JSON object with ``--json`` (the plan itself, as ``api.plan`` returns it), else text."""
    click.echo(json.dumps(plan, indent=2) if as_json else render_plan(plan))


def render_plan(plan: dict[str, Any]) -> str:
    """The plan as text: the questions and calls per kind (what the run will ask comes first), then what no judge
    can do with these inputs, then notes."""
    from ._choices import JUDGMENT_KINDS

    lines = [f"dry run of the {plan['judge']} judge over {plan['reports']} report(s), {plan['sentences']} sentence(s):"]
    lines.append(f"{'kind':<18} {'at most':>8} {'certain':>8} {'cached':>8} {'calls':>8}")
    kinds = [kind for kind in JUDGMENT_KINDS if kind in plan["questions"] or kind in plan["cached"]]
    for kind in kinds:
        lines.append(f"{kind:<18} {plan['questions'].get(kind, 0):>8} {plan['certain'].get(kind, 0):>8} "
                     f"{plan['cached'].get(kind, 0):>8} {plan['calls'].get(kind, 0):>8}")
    lines.append(f"{'total':<18} {sum(plan['questions'].values()):>8} {sum(plan['certain'].values()):>8} "
                 f"{sum(plan['cached'].values()):>8} {sum(plan['calls'].values()):>8}")
    lines.append("(at most: every question any answer could open up; certain: those asked whatever the answers; "
                 "calls: model calls, none for an offline heuristic judge)")
    lines += [f"cannot: {line}" for line in plan.get("limits", ())]
    lines += _cascade_lines(plan.get("cascade"))
    lines += [f"warning: {line}" for line in plan.get("warnings", ())]
    return "\n".join(lines + _plan_notes(plan))


def _cascade_lines(cascade: dict[str, Any] | None) -> list[str]:
    """Per cascade member, what a run would ask it and what that costs; the same for the other order."""
    if not cascade:
        return []

    def members(entries: list[dict[str, Any]]) -> list[str]:
        return [f"  {stage}. {m['judge']}: {'' if m['exact'] else 'at most '}{m['questions']} question(s)"
                + (f", {m['cost']} {m['unit']}" if "unit" in m else ", no model")
                for stage, m in enumerate(entries, 1)]

    lines = ["cascade, member by member (what a run asks each; a model-free member's answers are computed here):",
             *members(cascade["members"])]
    other = cascade.get("other_order")
    if other:
        lines += [f"the other order, --judge {other['judge']}:", *members(other["members"])]
    return lines


def _plan_notes(plan: dict[str, Any]) -> list[str]:
    lines = []
    if plan.get("outside_topics"):
        lines.append(f"note: {plan['outside_topics']} report(s) for topics outside the evaluation are not judged")
    if plan.get("without_nuggets"):
        lines.append(f"note: {plan['without_nuggets']} report(s) for topics without nuggets are not judged (those "
                     "topics are not evaluated; --evaluated-topics requests scores them 0)")
    if plan.get("unchecked_without_collection"):
        lines.append(f"note: {plan['unchecked_without_collection']} of the questions to ask read a document; without "
                     "--collection the cache's answers to them cannot be checked against the document's text, so "
                     "they count as to ask (a real run reads the collection: give --collection C for its counts)")
    estimate = plan.get("estimate")
    if estimate:
        cost = "" if estimate.get("cost") is None else f", cost about {estimate['cost']:.2f}"
        saved = (f"; the cheaper judge spares {estimate['saved_calls']} of {estimate['calls_without_cascade']} calls"
                 if "saved_calls" in estimate else "")
        lines.append(f"estimate: {estimate['total_calls']} call(s), about {estimate['prompt_tokens']} prompt and "
                     f"{estimate['completion_tokens']} completion tokens{cost} (documents at most "
                     f"--llm-max-doc-tokens each){saved}")
        if estimate.get("floor_tokens"):
            lines.append(f"estimate: the floor is {estimate['floor_tokens']} prompt tokens (each quoted text once: "
                         f"{estimate['floor_texts']}; every call's instructions: {estimate['floor_instructions']}); "
                         f"{estimate['shared_prefix_tokens']} planned tokens lie in a prefix an earlier call sent "
                         "(what a server's prefix cache can skip)")
    return lines


def announcer(quiet: bool, notes: bool = True) -> Any:
    """``api.judge``'s ``announce``: before anything is asked, the notes about the inputs (unless ``quiet``, or
    ``notes=False`` when the command prints them later) and what the run cannot do, on stderr."""

    def announce(given: list[str], warnings: list[str]) -> None:
        for note in given if notes and not quiet else ():
            click.echo(f"note: {note}", err=True)
        for warning in warnings:
            click.echo(f"warning: {warning}", err=True)

    return announce


def report_run(result: Any, quiet: bool, where: str = "") -> None:
    """After a run: the questions not judged and why (a model judge's failed calls with their causes), the
    cited documents missing from the collection, and (unless ``quiet``) the summary and the model's usage."""
    for line in result.warnings():  # the waiting questions are report_batch's
        click.echo(f"warning: {line}", err=True)
    if json_mode():
        return  # run_document holds the summary
    if quiet:
        return
    click.echo(f"judged with {result.identity.get('backend', '?')}: {result.run.stats.summary()}{where}", err=True)
    usage = result.usage
    if usage and "calls" in usage:
        cost = "" if usage.get("cost") is None else f", cost {usage['cost']:.4f}"
        click.echo(f"model calls: {usage['calls']} ({usage['retries']} retried, {usage['reasks']} re-asked, "
                   f"{usage['failed_calls']} failed), {usage['prompt_tokens']} prompt + "
                   f"{usage['completion_tokens']} completion tokens{cost}, {usage['wall_seconds']:.1f} s", err=True)


BATCH_PROBLEMS_SHOWN = 20


def write_and_report(result: Any, output: str | None, judge_spec: str, options: Any, batch_out: str | None,
                     quiet: bool, shard_cache: Any = None) -> None:
    """Write the judgments, unless questions still wait for a batch cycle (``--batch-out`` carries them: the file
    is written once no call is left), then say what was judged and, after a batch cycle, what comes next. A shard
    of several (``shard_cache``: its cache) writes nothing: ``report_shard``."""
    from ..api import write_judgments

    if shard_cache is not None:
        report_shard(result, shard_cache, quiet)
        return
    pending = batch_out is not None and result.waiting > 0
    if output is not None and not pending:
        write_judgments(result, output, judge_spec, options)
    report_run(result, quiet, "" if output in ("-", None) or pending else f" -> {output}")
    if result.batch is not None:
        report_batch(result, output, quiet)
    if json_mode():
        emit(**run_document(result, None if pending else output))


def run_document(result: Any, output: str | None) -> dict[str, Any]:
    """``--json``: what ``report_run`` and ``report_batch`` say of a judging run, as ``_output.emit``'s fields: the
    questions per kind (from the cache, new, failed, written to a batch file), the model's usage, the batch cycle,
    the warnings, and the judgments file (``None`` while questions wait for a batch)."""
    stats = result.run.stats
    counts = {"judgments": stats.answered, "cached": sum(stats.cached.values()), "new": sum(stats.new.values()),
              "failed": sum(stats.failed.values()), "waiting": sum(stats.waiting.values()), "rounds": stats.rounds}
    kinds = {name: dict(getattr(stats, name)) for name in ("cached", "new", "failed", "waiting")}
    document: dict[str, Any] = {"counts": counts, "kinds": kinds, "judge": result.identity.get("backend"),
                                "summary": stats.summary(), "usage": result.usage or None, "output": output,
                                "notes": [f"warning: {line}" for line in result.warnings()]}
    batch = result.batch
    if batch is not None:
        document["batch"] = {"read": batch.read, "used": batch.used, "calls": batch.calls, "waiting": batch.waiting,
                             "written": list(batch.written), "unused": len(batch.unused),
                             "problems": [str(problem) for problem in batch.problems], "more_rounds": batch.more_rounds}
    return document


def report_batch(result: Any, output: str | None, quiet: bool) -> None:
    """After a batch cycle: each result line that answered nothing (warnings, the first ``BATCH_PROBLEMS_SHOWN``
    and a count), the results no call needed, the calls written and what to do next."""
    summary = result.batch
    for problem in summary.problems[:BATCH_PROBLEMS_SHOWN]:
        click.echo(f"warning: {problem}", err=True)
    if len(summary.problems) > BATCH_PROBLEMS_SHOWN:
        click.echo(f"warning: ... and {len(summary.problems) - BATCH_PROBLEMS_SHOWN} more result line(s) that answered "
                   "nothing (all in the manifest when the judgments are written)", err=True)
    if summary.unused:
        click.echo(f"warning: {len(summary.unused)} result(s) match no call this run still needs (a results file of "
                   f"another plan -- other runs, nuggets, model, prompts or decoding -- or answers already in the "
                   f"cache): {', '.join(summary.unused[:3])}{' ...' if len(summary.unused) > 3 else ''}", err=True)
    if json_mode():
        return  # run_document holds the rest
    if summary.read and not quiet:
        click.echo(f"batch results: {summary.used} of {summary.read} result line(s) answered a call", err=True)
    if summary.written:
        files = ", ".join(summary.written)
        if summary.calls:
            later = (" Their answers open further questions (negative, requires-citation): one more cycle follows."
                     if summary.more_rounds else " No further round depends on them: the cycle after it ends the round.")
            write = f" -o {output}" if output not in (None, "-") else " -o OUT.jsonl"
            click.echo(f"wrote {summary.calls} call(s) for {summary.waiting} question(s) to {files}: answer them "
                       f"(vLLM's run-batch or the Batch API), then run this command again with --batch-in "
                       f"RESULTS.jsonl (and --batch-out for the next cycle);{later} The judgments{write} are written "
                       "once no call is left.", err=True)
        elif not quiet:
            click.echo(f"no call left: {files} is empty" + ("" if output else "; give -o to write the judgments"),
                       err=True)
