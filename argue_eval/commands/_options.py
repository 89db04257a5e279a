"""Options shared by ``score``, ``judge``, ``evaluate`` and ``assess export`` (they must see the same questions).

Reading the files these options name is ``argue_eval.inputs.load_inputs``'s job."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import click

from ..argue.policies import MISSING_TOPICS, NUGGET_SCOPES, RELEVANCE_SOURCES, UNBOUND_QUESTIONS

__all__ = ["input_options", "policy_options"]


def input_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--run`` (repeatable; also takes the extra paths a shell glob such as ``--run runs/*.jsonl`` expands to),
    ``--nuggets``, ``--judgments``, ``--requests``, ``--qrels``; the command receives the runs as ``runs``."""

    @functools.wraps(func)  # keeps the options already attached below (click's __click_params__)
    def merge_runs(*args: Any, **kwargs: Any) -> Any:
        kwargs["runs"] = tuple(kwargs.pop("runs")) + tuple(kwargs.pop("more_runs"))
        return func(*args, **kwargs)

    options = [
        click.argument("more_runs", nargs=-1, metavar="[RUN]..."),
        click.option("--run", "runs", multiple=True, metavar="RUN",
                     help="Run file (any run format); repeat for several. Default: the reports inside "
                          "Auto-ARGUE judgment files."),
        click.option("--nuggets", "nuggets", required=True, metavar="N",
                     help="Nuggets (canonical, NeuCLIR, report_gen_eval, Auto-ARGUE v3 directory, RAGTIME, ...)."),
        click.option("--judgments", "judgments", multiple=True, metavar="J",
                     help="Judgments file (canonical or Auto-ARGUE); repeat: later files override earlier ones."),
        click.option("--requests", "requests", default=None, metavar="R",
                     help="Requests: the topics to score (default: the nuggets' topics); texts for assessors."),
        click.option("--qrels", "qrels", default=None, metavar="Q", help="TREC qrels (for --relevance qrels)."),
    ]
    wrapped: Callable[..., Any] = merge_runs
    for option in reversed(options):
        wrapped = option(wrapped)
    return wrapped


def policy_options(func: Callable[..., Any]) -> Callable[..., Any]:
    options = [
        click.option("--relevance", type=click.Choice(RELEVANCE_SOURCES), default="nuggets", show_default=True,
                     help="Cited document relevant iff it attests a nugget answer (nuggets), has rel > 0 in "
                          "--qrels (qrels), or as `relevant` judgments say (judgments)."),
        click.option("--nugget-scope", type=click.Choice(NUGGET_SCOPES), default="cited", show_default=True,
                     help="cited: a sentence supplies only answers its cited document attests; all: any answer "
                          "of the topic (asked once per cited sentence, no document)."),
        click.option("--missing-topics", type=click.Choice(MISSING_TOPICS), default="zero", show_default=True,
                     help="A topic with no report in a run scores 0 (zero) or is left out (skip)."),
        click.option("--unbound-questions", type=click.Choice(UNBOUND_QUESTIONS), default="drop", show_default=True,
                     help="Nuggets with no answer bound to a document: drop (listed), count as negative "
                          "nuggets, or keep (findable with --nugget-scope all)."),
        click.option("--weights", default="vital=2,okay=1,none=1", show_default=True, metavar="W",
                     help="Nugget weights by importance for the *_weighted measures."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def judge_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--collection``, ``--judge``, backend options, ``--cache``/``--no-cache``, ``--dry-run``/``--json``."""
    options = [
        click.option("--collection", default=None, metavar="C",
                     help="Document collection (JSONL, irds:ID or Lucene index): the judge reads the cited "
                          "documents. Needed unless --dry-run."),
        click.option("--judge", "judge_spec", default="lexical", show_default=True, metavar="JUDGE",
                     help="lexical (offline, no model), semantic (MiniLM embeddings), nli (--nli-model), llm, "
                          "or a comma list for a cascade, cheapest first (lexical,semantic): a later judge "
                          "answers only what the earlier one is unsure of."),
        click.option("--judge-option", "judge_option", multiple=True, metavar="BACKEND.NAME=VALUE",
                     help="A backend option, e.g. lexical.attested_threshold=0.5 or cascade.threshold=0.8; "
                          "repeatable (docs/judging.md lists each backend's options)."),
        click.option("--nli-model", default=None, metavar="PATH",
                     help="Local directory of a transformers NLI model (for --judge nli); never downloaded."),
        click.option("--cache", "cache_path", default=None, metavar="PATH",
                     help="SQLite judgment cache: answers are committed here before use, so a killed run "
                          "resumes where it stopped. Default: .argue-cache/judgments.sqlite."),
        click.option("--no-cache", is_flag=True, help="Do not read or write the judgment cache."),
        click.option("--dry-run", is_flag=True,
                     help="Do not judge: print the questions per kind (and model calls) a real run would make."),
        click.option("--json", "as_json", is_flag=True, help="With --dry-run: print one JSON object."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def parse_judge_options(items: tuple[str, ...], nli_model: str | None) -> dict[str, dict[str, Any]]:
    """``("lexical.attested_threshold=0.5",)`` -> ``{"lexical": {"attested_threshold": 0.5}}``."""
    from ..errors import InputError

    options: dict[str, dict[str, Any]] = {}
    for item in items:
        name, sep, text = item.partition("=")
        backend, dot, option = name.strip().partition(".")
        if not sep or not dot or not backend or not option:
            raise InputError("--judge-option", None, None, f"expected BACKEND.NAME=VALUE, found {item!r}")
        options.setdefault(backend, {})[option.replace("-", "_")] = _option_value(text.strip())
    if nli_model is not None:
        options.setdefault("nli", {})["model_path"] = nli_model
    return options


def _option_value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "yes"):
        return True
    if lowered in ("false", "no"):
        return False
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
