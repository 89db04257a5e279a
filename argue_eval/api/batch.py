"""``judge --batch-out`` / ``--batch-in``: the LLM judge's calls as OpenAI-batch files, and their results read back.

A round judged offline goes in cycles. ``--batch-out B.jsonl`` writes the calls the round still needs (those
the cache cannot answer) instead of sending them; vLLM's ``run-batch`` or OpenAI's Batch API answers the file;
``--batch-in RESULTS.jsonl`` checks every result against its call (``judges.llm_batch``), and the answers are
committed to the cache like any other, so the run continues from them. The flowchart asks in rounds (the
answer to "negative?" decides whether "nugget agrees?" or "requires citation?" is asked), so the calls of a
later round can only be written once the earlier round's results are in: one more out/in cycle per round.

This module reads and writes the files; the shapes and the checks are ``judges.llm_batch``'s.
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from ..argue.questions import OPENING_KINDS
from ..errors import InputError, OptionError
from ..judges.base import JudgeBackend
from ..judges.llm_batch import MAX_BATCH_CALLS, BatchExchange, BatchResult, read_result_line

__all__ = ["BatchSummary", "open_exchange", "read_results", "write_requests", "llm_member", "batch_paths", "finish"]


@dataclass
class BatchSummary:
    """What a batch cycle did: results read and used, lines that answered nothing, calls written."""

    read: int = 0
    """Result lines read (of every ``--batch-in`` file)."""
    used: int = 0
    """Results that answered a call of this run."""
    problems: list[str] = field(default_factory=list)
    """``FILE:LINE: field: message`` per result line that answered nothing: not JSON (a cut-off file), not a
    result line, a repeated ``custom_id``, an error result, a failed check (status, model, the reply's schema)."""
    unused: list[str] = field(default_factory=list)
    """``FILE:LINE`` of results that match no call this run still needs (another plan's, or answered before)."""
    written: list[str] = field(default_factory=list)
    """The batch files written (several when the calls exceed ``max_calls``)."""
    calls: int = 0
    """Calls written, each once."""
    waiting: int = 0
    """Questions whose call has no answer yet."""
    more_rounds: bool = False
    """Whether answers still to come can open further questions: then one more out/in cycle follows."""

    def as_dict(self) -> dict[str, Any]:
        return {"results_read": self.read, "results_used": self.used, "problems": self.problems,
                "unused": len(self.unused), "written": self.written, "calls": self.calls, "waiting": self.waiting,
                "more_rounds": self.more_rounds}


def llm_member(backend: JudgeBackend, flag: str) -> Any:
    """The LLM judge in ``backend`` (itself, or the member of a cascade): what batch files are for."""
    from ..judges.llm import LLMJudge

    members = getattr(backend, "judges", [backend])
    found = [judge for judge in members if isinstance(judge, LLMJudge)]
    if not found:
        raise OptionError(flag, "batch files hold the llm judge's calls: use it with --judge llm "
                          "(or a cascade that includes it, such as lexical,llm)")
    return found[-1]


def read_results(paths: Iterable[str | os.PathLike[str]], summary: BatchSummary,
                 secrets: tuple[str | None, ...] = ()) -> dict[str, BatchResult]:
    """Every result line of ``paths`` by ``custom_id``; a line that is no result is a problem in ``summary``, as is
    a ``custom_id`` seen before (its first line counts). A missing file is a user error (exit 2). What the
    service wrote is redacted with ``secrets`` (``llm_batch.read_result_line``)."""
    from ..reading import iter_lines, open_binary

    results: dict[str, BatchResult] = {}
    for path in paths:
        if not Path(path).is_file():
            raise InputError(str(path), None, None, "no such results file (--batch-in: the output of vLLM's "
                             "run-batch or of the Batch API for a file --batch-out wrote)")
        with open_binary(path) as handle:
            for lineno, raw in iter_lines(handle, path):
                if not raw.strip():
                    continue
                summary.read += 1
                where = f"{path}:{lineno}"
                try:
                    value = orjson.loads(raw)
                except orjson.JSONDecodeError:
                    cut = "" if raw.endswith(b"\n") else " (the file ends in the middle of it: a partial file?)"
                    summary.problems.append(f"{where}: not a JSON line{cut}")
                    continue
                result = read_result_line(value, where, secrets)
                if isinstance(result, str):
                    summary.problems.append(f"{where}: {result}")
                elif result.custom_id in results:
                    summary.problems.append(f"{where}: custom_id: {result.custom_id} repeats "
                                            f"{results[result.custom_id].where} (the first is used)")
                else:
                    results[result.custom_id] = result
    return results


def open_exchange(backend: JudgeBackend, batch_in: Sequence[str | os.PathLike[str]],
                  batch_out: str | os.PathLike[str] | None) -> tuple[BatchExchange, BatchSummary] | None:
    """The batch exchange of a run with these options, handed to the LLM judge; ``None`` without either."""
    if not batch_in and batch_out is None:
        return None
    judge = llm_member(backend, "--batch-out" if batch_out is not None else "--batch-in")
    summary = BatchSummary()
    exchange = BatchExchange(read_results(batch_in, summary, (judge._api_key(),)), collect=batch_out is not None)
    judge.use_batch(exchange)
    return exchange, summary


def batch_paths(path: str | os.PathLike[str], count: int, max_calls: int) -> list[Path]:
    """Where ``count`` calls go: ``path`` itself when they fit in one file, else ``NAME.part1.jsonl``, ... beside it."""
    target = Path(path)
    parts = max(1, -(-count // max_calls))
    if parts == 1:
        return [target]
    return [target.with_name(f"{target.stem}.part{i}{target.suffix}") for i in range(1, parts + 1)]


def write_requests(path: str | os.PathLike[str], exchange: BatchExchange,
                   max_calls: int = MAX_BATCH_CALLS) -> list[str]:
    """Write the exchange's calls, in send order, as one batch file or several of at most ``max_calls`` lines
    (written together: a kill leaves all or none). An empty file when no call is left."""
    from ..writing import commit_together, write_jsonl

    lines = list(exchange.requests.values())
    targets = batch_paths(path, len(lines), max_calls)
    with commit_together():
        for number, target in enumerate(targets):
            write_jsonl(target, lines[number * max_calls:(number + 1) * max_calls])
    return [str(target) for target in targets]


def finish(exchange: BatchExchange, summary: BatchSummary, failures: list[Any],
           batch_out: str | os.PathLike[str] | None, max_calls: int = MAX_BATCH_CALLS) -> list[Any]:
    """After the run: the problems and unused results in ``summary``, the calls written to ``batch_out``, and the
    failures of the questions that wait for a batch answer given the batch's reason (returned)."""
    from ..judges.llm_batch import WAITING
    from ..judges.runner import Failure

    summary.problems.extend(exchange.problems)
    summary.used = exchange.answered
    summary.unused = [result.where for result in exchange.unused()]
    waiting_reason = WAITING if batch_out is not None else (
        "no answer in the --batch-in results (write the call with --batch-out, or give --llm-base-url)")
    kept: list[Any] = []
    for failure in failures:
        if failure.key in exchange.waiting:
            kept.append(Failure(failure.key, waiting_reason))
            summary.waiting += 1
            summary.more_rounds = summary.more_rounds or failure.key.kind in OPENING_KINDS
        else:
            kept.append(failure)
    if batch_out is not None:
        summary.calls = len(exchange.requests)
        summary.written = write_requests(batch_out, exchange, max_calls)
    return kept
