"""What ``judge`` and ``evaluate`` share on the command line: their option checks and how they print a plan and a run.

The work is the API's (``api.judge``, ``api.plan``, ``api.write_judgments``); this module only checks what the
options say together and renders what the API returns.
"""
from __future__ import annotations

import json
from typing import Any

import click

from ..errors import OptionError

__all__ = ["cache_in_use", "check_run_options", "print_plan", "render_plan",
           "announcer", "report_run"]


def cache_in_use(cache_path: str | None, no_cache: bool) -> Any:
    """The judgment cache a run reads and writes: ``--cache``, else the default; none with ``--no-cache``."""
    from ..judges.cache import DEFAULT_CACHE_PATH

    if no_cache and cache_path is not None:
        raise OptionError("--no-cache", f"contradicts --cache {cache_path}: give one of them")
    return None if no_cache else (cache_path or DEFAULT_CACHE_PATH)


def check_run_options(dry_run: bool, as_json: bool, output: str | None, collection: str | None,
                      output_hint: str) -> None:
    """What the options of a judging command must say together: ``--json`` is the plan's, a real run needs
    ``-o`` and the collection."""
    if as_json and not dry_run:
        raise OptionError("--json", "only with --dry-run (it prints the plan as one JSON object); "
                         "the judgments are written to -o")
    if dry_run:
        return
    if output is None:
        raise OptionError("-o", f"missing -o {output_hint}, or use --dry-run")
    if collection is None:
        raise OptionError("--collection", "the judge reads the cited documents: give --collection C")


def print_plan(plan: dict[str, Any], as_json: bool) -> None:
    click.echo(json.dumps(plan, indent=2) if as_json else render_plan(plan))


def render_plan(plan: dict[str, Any]) -> str:
    """The plan as text: what cannot be done first, then the questions and calls per kind, then notes."""
    from ..model import JUDGMENT_KINDS

    lines = [f"dry run of the {plan['judge']} judge over {plan['reports']} report(s), {plan['sentences']} sentence(s):"]
    lines += [f"cannot: {line}" for line in plan.get("limits", ())]
    lines.append(f"{'kind':<18} {'at most':>8} {'certain':>8} {'cached':>8} {'calls':>8}")
    kinds = [kind for kind in JUDGMENT_KINDS if kind in plan["questions"] or kind in plan["cached"]]
    for kind in kinds:
        lines.append(f"{kind:<18} {plan['questions'].get(kind, 0):>8} {plan['certain'].get(kind, 0):>8} "
                     f"{plan['cached'].get(kind, 0):>8} {plan['calls'].get(kind, 0):>8}")
    lines.append(f"{'total':<18} {sum(plan['questions'].values()):>8} {sum(plan['certain'].values()):>8} "
                 f"{sum(plan['cached'].values()):>8} {sum(plan['calls'].values()):>8}")
    lines.append("(at most: every question any answer could open up; certain: those asked whatever the answers; "
                 "calls: model calls, none for an offline heuristic judge)")
    return "\n".join(lines + _plan_notes(plan))


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
    from ..errors import few_items
    from ..judges.runner import failure_summary

    for line in failure_summary(result.run.failures) + _call_failures(result.usage):
        click.echo(f"warning: {line}", err=True)
    missing = result.run.stats.missing_documents
    if missing:
        click.echo(f"warning: {len(missing)} cited document(s) not in the collection: {few_items(missing)}", err=True)
    if quiet:
        return
    click.echo(f"judged with {result.identity.get('backend', '?')}: {result.run.stats.summary()}{where}", err=True)
    usage = result.usage
    if usage and "calls" in usage:
        cost = "" if usage.get("cost") is None else f", cost {usage['cost']:.4f}"
        click.echo(f"model calls: {usage['calls']} ({usage['retries']} retried, {usage['reasks']} re-asked, "
                   f"{usage['failed_calls']} failed), {usage['prompt_tokens']} prompt + "
                   f"{usage['completion_tokens']} completion tokens{cost}, {usage['wall_seconds']:.1f} s", err=True)


def _call_failures(usage: dict[str, Any] | None) -> list[str]:
    """One line per cause of a model judge's failed calls (the manifest lists every call): the cause, not only
    that the judge could not answer."""
    by_reason: dict[str, list[int]] = {}
    for failure in (usage or {}).get("failures", ()):
        by_reason.setdefault(str(failure.get("reason")), []).append(int(failure.get("questions", 0)))
    return [f"{len(counts)} model call(s) failed ({sum(counts)} question(s)): {reason}"
            for reason, counts in sorted(by_reason.items(), key=lambda item: (-len(item[1]), item[0]))]
