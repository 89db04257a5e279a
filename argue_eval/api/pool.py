"""``pool``: the documents assessors judge, per topic, from ranked runs or report runs; ``write_pool``: the files
that hold them.

What ``argue-eval pool`` does minus the printing: ``organizer.pooling`` chooses the documents; this reads what
the options name (existing qrels that guide move-to-front, the requests whose topics are pooled) and writes the
pool, its tables and the assessor package as one set.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

from ..errors import ArgueError
from ..model import Request
from ..organizer.pooling import DEFAULT_RRF_K, Pool

__all__ = ["pool", "PoolResult", "write_pool"]


@dataclass
class PoolResult:
    """The pool, and the requests it was cut to (by id; their text goes in the assessor package)."""

    pool: Pool
    requests: dict[str, Request] | None = None


def pool(
    runs: Sequence[str | PathLike[str]],
    *,
    strategy: str = "depth",
    depth: int | None = 100,
    budget: int | None = None,
    rrf_k: int = DEFAULT_RRF_K,
    qrels: str | PathLike[str] | None = None,
    requests: str | PathLike[str] | None = None,
    format: str | None = None,
) -> PoolResult:
    """Pool run files (ranked and/or report runs) with ``strategy`` (see ``organizer.pooling``).

    ``qrels``: existing judgments that guide ``mtf`` (a document judged twice keeps its highest grade);
    ``requests``: pool exactly these topics. Option combinations without meaning are refused before any file
    is read.
    """
    from ..organizer.pooling import check_options, pool_files

    paths = list(runs)
    if not paths:
        raise ArgueError("no runs given: pass ranked or report run files (e.g. runs/sample/ranked/*.trec)")
    check_options(strategy, depth, budget, rrf_k)
    judgments = None
    if qrels:
        from ..organizer.qrels import read_qrels

        judgments = read_qrels(qrels, "max")
    request_map = None
    if requests:
        from ..formats import read_requests

        request_map = {request.request_id: request for request in read_requests(requests)}
    topics = list(request_map) if request_map is not None else None
    return PoolResult(pool_files(paths, strategy, depth, budget, rrf_k, judgments, topics, format),  # type: ignore[arg-type]
                      request_map)


def write_pool(result: PoolResult, output: str | PathLike[str], *, contributions: str | PathLike[str] | None = None,
               sizes: str | PathLike[str] | None = None, package: str | PathLike[str] | None = None,
               collection: Any = None) -> int:
    """Write the pool (qrels-shaped lines, ``-`` for stdout), the per-run contributions and the per-topic sizes
    (beside ``output`` unless named; on stdout, only where named) and the assessor ``package`` (with each
    document's title and text from ``collection``), replaced as one set. Returns the pooled documents."""
    from ..formats.qrels import write_trec_qrels
    from ..formats.scores import write_scores_tsv
    from ..organizer.pooling import package_records, write_package, write_sizes
    from ..writing import commit_together, is_stdout

    store = None
    if package and collection:
        from ..collection import open_collection

        store = open_collection(collection)
    to_stdout = is_stdout(output)
    try:
        with commit_together():
            count = write_trec_qrels(result.pool.rows(), Path(output))
            if contributions or not to_stdout:
                write_scores_tsv(result.pool.contributions(), contributions or f"{output}.runs.tsv")
            if sizes or not to_stdout:
                write_sizes(result.pool, sizes or f"{output}.sizes.tsv")
            if package:
                write_package(package_records(result.pool, store, result.requests), package)
    finally:
        if store is not None:
            store.close()
    return count
