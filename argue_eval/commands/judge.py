"""``argue-eval judge``: answer the flowchart's questions for runs with a judge; write canonical judgments."""
from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import click

from ..errors import OptionError
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
    from ..api import make_policies
    from ..argue.policies import parse_weights

    policies = make_policies(relevance=relevance, nugget_scope=nugget_scope, missing_topics=missing_topics,
                             unbound_questions=unbound_questions, evaluated_topics=evaluated_topics,
                             weights=parse_weights(weights))
    options = parse_judge_options(judge_option, nli_model, judge_spec)
    refuse_overwriting_inputs({"-o": output}, runs=runs, nuggets=nuggets, judgments=judgments, requests=requests,
                              qrels=qrels, collection=collection, cache=cache_in_use(cache_path, no_cache))
    result = plan_or_judge(runs, nuggets, judgments, requests, qrels, policies, collection, judge_spec, options,
                           cache_path, no_cache, dry_run, as_json, output, "OUT.jsonl (where to write the judgments)")
    if result is None:
        return
    write_judgments(result, output, judge_spec, options)
    report_run(result, quiet, "" if output == "-" else f" -> {output}")
    if result.run.failures:
        raise click.exceptions.Exit(1)


def refuse_overwriting_inputs(outputs: dict[str, str | None], **inputs: Any) -> None:
    """An output that is one of the input files is a user error: the judge writes only its own answers, so
    ``--judgments human.jsonl -o human.jsonl`` would replace the assessors' judgments with the gaps it filled."""
    import os

    from ..errors import InputError

    def same(output: str, path: Any) -> bool:
        if os.path.isfile(output) and os.path.isfile(path):
            return os.path.samefile(output, path)
        # not there yet: the cache, which the run creates before it writes -o (and -o then replaced it)
        return not os.path.exists(output) and os.path.realpath(output) == os.path.realpath(path)

    for flag, output in outputs.items():
        if output is None or output == "-":
            continue
        for name, given in inputs.items():
            for path in (given if isinstance(given, (list, tuple)) else [given]):
                if path is not None and same(str(output), path):
                    raise InputError(output, None, None, f"is also an input (--{name}); {flag} would replace it: "
                                     "write to another file (score reads several --judgments files)")


def cache_in_use(cache_path: str | None, no_cache: bool) -> Any:
    """The judgment cache a run reads and writes: ``--cache``, else the default; none with ``--no-cache``."""
    from ..judges.cache import DEFAULT_CACHE_PATH

    return None if no_cache else (cache_path or DEFAULT_CACHE_PATH)


def plan_or_judge(runs, nuggets, judgments, requests, qrels, policies, collection, judge_spec, options, cache_path,
                  no_cache, dry_run, as_json, output, output_hint) -> Any:
    """``--dry-run``: print the plan and return ``None``; otherwise check the options and judge."""

    if no_cache and cache_path is not None:
        raise OptionError("--no-cache", f"contradicts --cache {cache_path}: give one of them")
    if as_json and not dry_run:
        raise OptionError("--json", "only with --dry-run (it prints the plan as one JSON object); "
                         "the judgments are written to -o")
    if dry_run:
        plan = dry_run_plan(runs, nuggets, judgments, requests, qrels, policies, judge_spec, options,
                            cache_in_use(cache_path, no_cache), collection)
        click.echo(json.dumps(plan, indent=2) if as_json else render_plan(plan))
        return None
    if output is None:
        raise OptionError("-o", f"missing -o {output_hint}, or use --dry-run")
    if collection is None:
        raise OptionError("--collection", "the judge reads the cited documents: give --collection C")
    return run_judge_command(runs, nuggets, judgments, requests, qrels, policies, collection, judge_spec, options,
                             cache_path, no_cache)


def run_judge_command(runs, nuggets, judgments, requests, qrels, policies, collection, judge_spec, options,
                      cache_path, no_cache) -> Any:
    from ..api import judge

    cache = cache_in_use(cache_path, no_cache)
    return judge(list(runs) if runs else None, nuggets, collection=collection, judge=judge_spec,
                 judge_options=options, judgments=list(judgments), requests=requests, qrels=qrels, cache=cache,
                 policies=policies)


def write_judgments(result: Any, output: str, judge_spec: str, options: dict[str, Any]) -> None:
    """The judgments (atomically, or to stdout for '-', the same bytes) and, for a file, the manifest beside it."""
    from ..formats.judgments import write_argue
    from ..writing import commit_together, is_stdout, write_json

    if is_stdout(output):
        write_argue(result.run.judgments, Path(output))
        return
    with commit_together():  # judgments and manifest are replaced as one set: a kill leaves both old or both new
        write_argue(result.run.judgments, Path(output))
        write_json(Path(output + ".manifest.json"), manifest(result, judge_spec, options))


def manifest(result: Any, judge_spec: str, options: dict[str, Any]) -> dict[str, Any]:
    """What produced a judgments file: the judge, its options and identity, and the counts per kind."""
    from .. import __version__

    stats = result.run.stats
    usage = result.usage if hasattr(result, "usage") else None
    return {
        "argue_eval": __version__,
        "judge": judge_spec,
        "judge_options": options,
        "judge_identity": result.identity,
        "policies": result.inputs.evaluation.policies.describe(),
        "judgments": len(result.run.judgments),
        "cached": dict(stats.cached),
        "new": dict(stats.new),
        "failed": dict(stats.failed),
        "rounds": stats.rounds,
        "seconds": round(stats.seconds, 3),
        "missing_documents": stats.missing_documents,
        "failures": [{"kind": f.key.kind, "request_id": f.key.request_id, "sentence": f.key.sentence,
                      "doc_id": f.key.doc_id, "nugget_id": f.key.nugget_id, "reason": f.reason}
                     for f in result.run.failures],
        **({"usage": usage} if usage else {}),
    }


def report_run(result: Any, quiet: bool, where: str = "") -> None:
    from ..judges.runner import failure_summary

    for note in result.inputs.evaluation.notes:
        if not quiet:
            click.echo(f"note: {note}", err=True)
    for line in failure_summary(result.run.failures):
        click.echo(f"warning: {line}", err=True)
    missing = result.run.stats.missing_documents
    if missing:
        shown = ", ".join(missing[:10]) + (f", ... ({len(missing) - 10} more)" if len(missing) > 10 else "")
        click.echo(f"warning: {len(missing)} cited document(s) not in the collection: {shown}", err=True)
    if not quiet:
        click.echo(f"judged with {result.identity.get('backend', '?')}: {result.run.stats.summary()}{where}", err=True)
    usage = getattr(result, "usage", None)
    if usage and not quiet and "calls" in usage:
        cost = "" if usage.get("cost") is None else f", cost {usage['cost']:.4f}"
        click.echo(f"model calls: {usage['calls']} ({usage['retries']} retried, {usage['reasks']} re-asked, "
                   f"{usage['failed_calls']} failed), {usage['prompt_tokens']} prompt + "
                   f"{usage['completion_tokens']} completion tokens{cost}, {usage['wall_seconds']:.1f} s", err=True)


def dry_run_plan(runs, nuggets, judgments, requests, qrels, policies, judge_spec, options, cache_path,
                 collection=None) -> dict[str, Any]:
    """Questions (and model calls) a real run would make: certain ones, and at most (every branch).

    The cache (when the file exists) answers as in a real run: its answers settle the branches they decide,
    so a fully cached round asks nothing, and a question it holds is counted as cached, not as to ask.
    With a collection, a model judge's token estimate reads the cited documents (else it counts each at
    its full document budget)."""
    from ..argue.questions import count_by_kind, list_questions
    from ..inputs import check_one_report_per_topic, load_inputs
    from ..judges.registry import make_judge

    inputs = load_inputs(list(runs) if runs else None, nuggets, list(judgments), requests, qrels, policies)
    reports = list(inputs.reports())
    check_one_report_per_topic(reports, inputs.evaluation.topics)
    backend = make_judge(judge_spec, options)
    evaluation = inputs.evaluation
    use_cache = cache_path is not None and Path(cache_path).exists()  # a dry run never creates the cache
    with ExitStack() as stores:
        opened: list[Any] = []

        def documents(ids: dict[str, None]) -> dict[str, Any]:
            """The collection's documents of ``ids`` (none without --collection); the collection is opened once,
            when first needed."""
            if collection is None or not ids:
                return {}
            if not opened:
                from ..collection import open_collection

                opened.append(stores.enter_context(open_collection(collection)))
            return opened[0].get_many(ids)

        known: Any = inputs.source
        from_cache: list[Any] = []  # questions the cache answers, as a real run would meet them
        if use_cache:
            from ..judges.cache import JudgmentCache, QuestionContexts, judge_fingerprint
            from ..judges.runner import JudgedTable, LayeredLookup, documents_needed, with_documents
            from ..model import DOCUMENT_KINDS

            with JudgmentCache(cache_path) as cache:
                fingerprint = judge_fingerprint(backend.identity())

                def in_cache(pending: list[Any]) -> dict[Any, Any]:
                    """The cached answers to ``pending``, under the texts a real run would read (a document
                    question without its document, as with no --collection, has no cached answer)."""
                    questions = [q.question(evaluation) for q in pending]
                    found = documents(documents_needed(questions))
                    questions = [with_documents(q, found) for q in questions]
                    contexts = QuestionContexts()  # per call: it keeps the documents it digested alive
                    ready = {q.key: contexts(q) for q in questions
                             if q.kind not in DOCUMENT_KINDS or q.key.doc_id is None or q.document is not None}
                    return cache.get_many(fingerprint, ready.keys(), ready)

                answers = JudgedTable()
                known = LayeredLookup(inputs.source, answers)
                while True:  # the runner's rounds, answered from the cache alone: cached answers open later questions
                    reached = list_questions(reports, evaluation, known, "stop", show_progress=False)
                    hits = in_cache(reached)
                    if not hits:
                        break
                    from_cache += [q for q in reached if q.key in hits]
                    answers.table.update((key, (verdict.value, verdict.judge)) for key, verdict in hits.items())
                at_most = list_questions(reports, evaluation, known, "both", show_progress=False)
                behind = in_cache(at_most)  # cached, but behind an answer not known yet
        else:
            at_most = list_questions(reports, evaluation, known, "both", show_progress=False)
            behind = {}
        certain = list_questions(reports, evaluation, known, "stop", show_progress=False)
        todo = [q for q in at_most if q.key not in behind]
        asked = [q.question(evaluation) for q in todo]
        unchecked = 0  # cached answers about documents cannot be checked against texts the dry run does not read
        if collection is None and use_cache:
            unchecked = sum(1 for q in asked if documents_needed([q]))
        planner = getattr(backend, "plan_calls", None)
        estimator = getattr(backend, "estimate", None)  # model judges: tokens and cost, no network call
        if (planner is not None or estimator is not None) and collection is not None:
            # a model judge's prompt sizes, and a cascade's cheaper judge, need the cited documents
            from dataclasses import replace

            found = documents({q.key.doc_id: None for q in asked if q.key.doc_id is not None})
            asked = [replace(q, document=found.get(q.key.doc_id)) if q.key.doc_id else q for q in asked]
        calls = planner(asked) if planner is not None else {}
        estimate = estimator(asked) if estimator is not None else None
    judged = [r for r in reports if r.request_id in evaluation.topics]  # as a real run: no others are judged
    unjudged = set(evaluation.unjudged)
    without_nuggets = sum(1 for r in reports if r.request_id in unjudged)
    outside = len(reports) - len(judged) - without_nuggets
    sentences = sum(len(r.sentences) for r in judged)
    return {
        "judge": judge_spec,
        "reports": len(judged),
        **({"outside_topics": outside} if outside else {}),
        **({"without_nuggets": without_nuggets} if without_nuggets else {}),
        "sentences": sentences,
        "questions": count_by_kind(todo),
        "certain": count_by_kind(certain),
        "cached": count_by_kind([*from_cache, *(q for q in at_most if q.key in behind)]),
        "calls": calls,
        **({"estimate": estimate} if estimate is not None else {}),
        **({"unchecked_without_collection": unchecked} if unchecked else {}),
    }


def render_plan(plan: dict[str, Any]) -> str:
    from ..model import JUDGMENT_KINDS

    lines = [f"dry run of the {plan['judge']} judge over {plan['reports']} report(s), {plan['sentences']} sentence(s):",
             f"{'kind':<18} {'at most':>8} {'certain':>8} {'cached':>8} {'calls':>8}"]
    kinds = [kind for kind in JUDGMENT_KINDS if kind in plan["questions"] or kind in plan["cached"]]
    for kind in kinds:
        lines.append(f"{kind:<18} {plan['questions'].get(kind, 0):>8} {plan['certain'].get(kind, 0):>8} "
                     f"{plan['cached'].get(kind, 0):>8} {plan['calls'].get(kind, 0):>8}")
    lines.append(f"{'total':<18} {sum(plan['questions'].values()):>8} {sum(plan['certain'].values()):>8} "
                 f"{sum(plan['cached'].values()):>8} {sum(plan['calls'].values()):>8}")
    lines.append("(at most: every question any answer could open up; certain: those asked whatever the answers; "
                 "calls: model calls, none for an offline heuristic judge)")
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
    return "\n".join(lines)
