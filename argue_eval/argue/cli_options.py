"""Options and input loading shared by ``score`` and ``assess export`` (they must see the same questions)."""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

import click

from .policies import MISSING_TOPICS, NUGGET_SCOPES, RELEVANCE_SOURCES, UNBOUND_QUESTIONS

__all__ = ["input_options", "policy_options", "load_inputs", "Inputs"]


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


class Inputs:
    """Everything read from the command line, ready for ``run_scoring`` / ``export_pool``."""

    def __init__(self, evaluation: Any, source: Any, runs: tuple[str, ...]):
        self.evaluation = evaluation
        self.source = source
        self.runs = runs

    def reports(self) -> Iterator[Any]:
        from .api import iter_reports

        return iter_reports(list(self.runs) if self.runs else None, self.source)


def load_inputs(runs: tuple[str, ...], nuggets: str, judgments: tuple[str, ...], requests: str | None,
                qrels: str | None, policies: Any) -> Inputs:
    from .api import Evaluation, load_judgments
    from ..formats import read_nuggets, read_qrels, read_requests

    nugget_list = list(read_nuggets(nuggets))
    request_list = list(read_requests(requests)) if requests else None
    qrels_rows = list(read_qrels(qrels)) if qrels else None
    evaluation = Evaluation.build(nugget_list, policies, request_list, qrels_rows)  # checks before the big read
    source = load_judgments(list(judgments), nugget_list, keep_reports=not runs)
    return Inputs(evaluation, source, runs)
