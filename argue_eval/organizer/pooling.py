"""Pooling: choose, per topic, the documents assessors judge, from ranked runs or from report citations.

Inputs are normalized to one shape, a :class:`~argue_eval.formats.ranked.Rankings` per run (read by
``formats.ranked.load_rankings``): for each topic the run's documents in rank order, without repeats. A
TREC ranked run is ordered the way trec_eval orders it (score descending, docno descending; the rank
column is ignored), a report run contributes the documents its sentences cite in order of first citation.
Everything here is format-free.

Strategies (every one looks only at each run's top ``depth`` documents):

``depth``
    The union of every run's top ``depth`` (classic TREC pooling). Pool order: best rank any run gave the
    document, then document id.
``rrf``
    Reciprocal rank fusion, ``sum over runs of 1 / (rrf_k + rank)``, documents in fused order, cut to
    ``budget`` per topic when one is given. Scores are summed with ``math.fsum`` (exactly rounded), so two
    documents that received the same ranks from different runs tie exactly and the tie goes to the
    smaller document id; ranx's fusion sums in run order, where such ties can split on the last bit, and
    would also bring numba compilation into a command that must stay quick. A test checks our scores
    against ranx's ``rrf``.
``mtf``
    Move-to-front (Cormack, Palmer & Clarke, SIGIR 1998): repeatedly take documents from the run with the
    highest priority (ties: run name order) while they are relevant; a non-relevant one costs the run one
    priority point and the turn passes on. Relevance comes from ``judged`` (existing qrels, grade > 0);
    without judgments every document counts as non-relevant and MTF becomes a round robin over runs,
    one new document per run per turn. Documents already pooled are skipped without cost. Needs ``budget``.
``budget``
    Depth pooling as deep as the per-topic ``budget`` allows: rank level 1 of every run, then level 2, ...;
    within a level, documents that more runs rank at or above that level come first, then document id.

Topic ids are strings throughout and topics are listed in natural order (``2`` before ``10``); runs are
processed in name order, so a pool depends only on its inputs, never on the order of the command line.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Literal

from ..errors import ArgueError, OptionError, unknown_name
from ..formats.ranked import OrderedRuns, Rankings, load_rankings, order_ranked_files
from ..model import ALL_TOPICS, QrelsRow, natural_key

Strategy = Literal["depth", "rrf", "mtf", "budget"]
STRATEGIES: tuple[str, ...] = ("depth", "rrf", "mtf", "budget")
UNJUDGED = -1
"""Relevance written for pooled, not yet judged documents in a pool file.

-1 and not 0: a pool file is qrels-shaped so every TREC tool can read it, and 0 would claim "judged not
relevant". trec_eval treats any grade below 1 as non-relevant, so an unjudged pool used by mistake as
qrels still scores every run 0 rather than producing plausible numbers, and ``qrels build`` refuses a
-1 left in its output."""
DEFAULT_RRF_K = 60


@dataclass
class Pool:
    """The outcome of pooling: per topic the pooled documents in pool (assessment) order, plus provenance."""

    strategy: str
    depth: int | None
    budget: int | None
    topics: dict[str, list[str]]
    runs: list[Rankings] = field(default_factory=list)
    fused_scores: dict[str, dict[str, float]] = field(default_factory=dict)
    """For ``rrf``: the fused score of every pooled document (for the assessor package)."""
    precomputed_contributions: list[tuple[str, str, str, int]] | None = None
    """Set by the vectorized depth pool, which knows the table without keeping the runs as lists."""
    run_count: int = 0
    dropped_topics: list[str] = field(default_factory=list)
    """Topics some run answered that were left out because ``topics`` did not name them."""

    def rows(self) -> Iterator[QrelsRow]:
        """The pool as qrels-shaped rows (relevance ``UNJUDGED``), topics in natural order, documents in pool order."""
        for topic in self.topics:
            for doc_id in self.topics[topic]:
                yield QrelsRow(topic, doc_id, UNJUDGED, "0")

    def sizes(self) -> dict[str, int]:
        return {topic: len(docs) for topic, docs in self.topics.items()}

    def contributions(self) -> list[tuple[str, str, str, int]]:
        """``(run, topic, metric, value)`` rows: ``pooled`` documents of the run's top ``depth`` that are in
        the pool, and ``unique`` ones no other run has in its top ``depth``; then ``all`` rows (sums)."""
        if self.precomputed_contributions is not None:
            return self.precomputed_contributions
        runs = sorted(self.runs, key=lambda r: r.name)
        per_run: dict[str, list[tuple[str, int, int]]] = {run.name: [] for run in runs}
        for topic, docs in self.topics.items():
            pooled_set = set(docs)
            tops = [run.top(topic, self.depth) for run in runs]
            holders = Counter(doc_id for top in tops for doc_id in top)
            for run, top in zip(runs, tops):
                mine = [doc_id for doc_id in top if doc_id in pooled_set]
                unique = sum(1 for doc_id in mine if holders[doc_id] == 1)
                per_run[run.name].append((topic, len(mine), unique))
        rows: list[tuple[str, str, str, int]] = []
        for run in runs:
            for topic, pooled, unique in per_run[run.name]:
                rows.append((run.name, topic, "pooled", pooled))
                rows.append((run.name, topic, "unique", unique))
            rows.append((run.name, ALL_TOPICS, "pooled", sum(item[1] for item in per_run[run.name])))
            rows.append((run.name, ALL_TOPICS, "unique", sum(item[2] for item in per_run[run.name])))
        return rows


# --- strategies ------------------------------------------------------------------------------------------


def check_options(strategy: str, depth: int | None, budget: int | None, rrf_k: int = DEFAULT_RRF_K) -> None:
    """Reject option combinations that have no meaning, before any file is read."""
    if strategy not in STRATEGIES:
        raise unknown_name("--strategy", "pooling strategy", strategy, STRATEGIES)
    if depth is not None and depth < 1:
        raise OptionError("--depth", f"must be at least 1, got {depth}")
    if budget is not None and budget < 1:
        raise OptionError("--budget", f"must be at least 1, got {budget}")
    if strategy in ("mtf", "budget") and budget is None:
        raise ArgueError(f"the {strategy} strategy needs --budget (documents per topic)")
    if strategy == "depth" and budget is not None:
        raise OptionError("--budget", "does not apply to depth pooling; use --strategy budget, rrf or mtf")
    if rrf_k < 0:
        raise OptionError("--rrf-k", f"must not be negative, got {rrf_k}")


def build_pool(
    runs: Sequence[Rankings],
    strategy: Strategy = "depth",
    depth: int | None = 100,
    budget: int | None = None,
    rrf_k: int = DEFAULT_RRF_K,
    judged: Mapping[str, Mapping[str, int]] | None = None,
    topics: Iterable[str] | None = None,
) -> Pool:
    """Pool ``runs`` with one of the strategies in the module docstring.

    ``depth=None`` considers whole rankings. ``topics`` restricts (and completes: a topic no run has gets
    an empty pool) the topic set; by default it is every topic any run answered.
    """
    check_options(strategy, depth, budget, rrf_k)
    ordered_runs = sorted(runs, key=lambda run: run.name)
    answered = {topic for run in ordered_runs for topic in run.topics}
    topic_ids = answered if topics is None else set(topics)
    pool = Pool(strategy, depth, budget, {}, list(ordered_runs), run_count=len(ordered_runs),
                dropped_topics=sorted(answered - topic_ids, key=natural_key))
    for topic in sorted(topic_ids, key=natural_key):
        lists = [run.top(topic, depth) for run in ordered_runs]
        if strategy == "depth":
            pool.topics[topic] = _depth(lists)
        elif strategy == "rrf":
            fused = rrf_scores(lists, rrf_k)
            order = sorted(fused, key=lambda doc_id: (-fused[doc_id], doc_id))
            pool.topics[topic] = order if budget is None else order[:budget]
            pool.fused_scores[topic] = {doc_id: fused[doc_id] for doc_id in pool.topics[topic]}
        elif strategy == "mtf":
            pool.topics[topic] = _move_to_front(lists, budget or 0, (judged or {}).get(topic, {}))
        else:
            pool.topics[topic] = _budget(lists, budget or 0)
    return pool


def _depth(lists: Sequence[list[str]]) -> list[str]:
    best: dict[str, int] = {}
    for docs in lists:
        for rank, doc_id in enumerate(docs):
            if rank < best.get(doc_id, rank + 1):
                best[doc_id] = rank
    return sorted(best, key=lambda doc_id: (best[doc_id], doc_id))


def rrf_scores(lists: Sequence[list[str]], k: int = DEFAULT_RRF_K) -> dict[str, float]:
    """Reciprocal rank fusion scores (ranks from 1), summed exactly so equal rank sets tie exactly."""
    terms: dict[str, list[float]] = {}
    for docs in lists:
        for rank, doc_id in enumerate(docs, 1):
            terms.setdefault(doc_id, []).append(1.0 / (k + rank))
    return {doc_id: math.fsum(values) for doc_id, values in terms.items()}


def _move_to_front(lists: Sequence[list[str]], budget: int, judged: Mapping[str, int]) -> list[str]:
    pooled: dict[str, None] = {}
    priority = [0] * len(lists)
    cursor = [0] * len(lists)
    while len(pooled) < budget:
        live = [i for i, docs in enumerate(lists) if cursor[i] < len(docs)]
        if not live:
            break
        run = max(live, key=lambda i: (priority[i], -i))
        docs = lists[run]
        while cursor[run] < len(docs) and len(pooled) < budget:
            doc_id = docs[cursor[run]]
            cursor[run] += 1
            if doc_id in pooled:
                continue
            pooled[doc_id] = None
            if judged.get(doc_id, 0) <= 0:
                priority[run] -= 1
                break
    return list(pooled)


def _budget(lists: Sequence[list[str]], budget: int) -> list[str]:
    pooled: dict[str, None] = {}
    support: dict[str, int] = {}
    longest = max((len(docs) for docs in lists), default=0)
    for level in range(longest):
        fresh = []
        for docs in lists:
            if level < len(docs):
                doc_id = docs[level]
                support[doc_id] = support.get(doc_id, 0) + 1
                if doc_id not in pooled:
                    fresh.append(doc_id)
        for doc_id in sorted(set(fresh), key=lambda d: (-support[d], d)):
            if len(pooled) >= budget:
                return list(pooled)
            pooled[doc_id] = None
    return list(pooled)


# --- the fast path for ranked runs ---------------------------------------------------------------------------
#
# A TREC round pools ~100 runs x 50 topics x 100 documents. Building a Python list per run and topic and
# then pooling them costs several times the time it takes pandas to merely read the files, so ranked runs
# are read as columns (``formats.ranked.read_ranked_columns``) and ordered on numpy arrays: ids are
# factorized (sorted, so integer order is string order), rows are sorted into trec_eval order with one
# integer key, repeats and ranks come from group boundaries, and the depth pool and contribution table
# from group counts. ``build_pool`` (on lists) stays the reference of the depth strategy; tests check
# that both agree exactly, on rankings the tests build line by line from ``read_trec_run``.


def pool_files(
    paths: Sequence[str | PathLike[str]],
    strategy: Strategy = "depth",
    depth: int | None = 100,
    budget: int | None = None,
    rrf_k: int = DEFAULT_RRF_K,
    judged: Mapping[str, Mapping[str, int]] | None = None,
    topics: Iterable[str] | None = None,
    format: str | None = None,
) -> Pool:
    """Pool run files (ranked and/or report runs): what ``argue-eval pool`` does.

    When every file is a TREC ranked run, runs are read as columns and ordered with numpy; the depth
    strategy is then computed entirely on arrays. Otherwise this is ``build_pool(load_rankings(paths))``.
    """
    from ..formats import resolve

    check_options(strategy, depth, budget, rrf_k)
    specs = [resolve(path, None, format) for path in paths]
    if not paths or any(spec.kind != "ranked" for spec in specs):
        return build_pool(load_rankings(paths, format), strategy, depth, budget, rrf_k, judged, topics)
    ordered = order_ranked_files(paths, depth)
    if strategy == "depth":
        return _depth_pool_arrays(ordered, depth, topics)
    return build_pool(ordered.rankings(), strategy, depth, budget, rrf_k, judged, topics)


def _depth_pool_arrays(ordered: OrderedRuns, depth: int | None, topics: Iterable[str] | None) -> Pool:
    """The depth pool and its contribution table from ordered arrays (same result as ``build_pool``)."""
    import numpy as np

    topic_list = ordered.request_ids.tolist()
    wanted = sorted(set(topic_list) if topics is None else set(topics), key=natural_key)
    natural = {topic: i for i, topic in enumerate(wanted)}
    q_natural = np.array([natural.get(topic, -1) for topic in topic_list], dtype=np.int64)
    run, q, d, rank = ordered.run, ordered.q, ordered.d, ordered.rank
    if len(q):
        mask = q_natural[q] >= 0
        run, q, d, rank = run[mask], q[mask], d[mask], rank[mask]
    nq, nd = len(topic_list), len(ordered.doc_ids)
    pool_topics: dict[str, list[str]] = {topic: [] for topic in wanted}
    holders = np.empty(0, dtype=np.int64)
    if len(q):
        pair = q * nd + d
        unique_pairs, inverse, counts = np.unique(pair, return_inverse=True, return_counts=True)
        best = np.full(len(unique_pairs), np.iinfo(np.int64).max, dtype=np.int64)
        np.minimum.at(best, inverse, rank)
        pair_q, pair_d = unique_pairs // nd, unique_pairs % nd
        order = np.lexsort((pair_d, best, q_natural[pair_q]))
        pair_q, pair_d = pair_q[order], pair_d[order]
        docs = ordered.doc_ids[pair_d].tolist()
        starts = np.flatnonzero(np.r_[True, pair_q[1:] != pair_q[:-1]])
        ends = np.r_[starts[1:], len(pair_q)]
        for start, end in zip(starts.tolist(), ends.tolist()):
            pool_topics[topic_list[int(pair_q[start])]] = docs[start:end]
        holders = counts[inverse]
    runs_count = len(ordered.names)
    cells = runs_count * nq
    pooled = np.bincount(run * nq + q, minlength=cells).reshape(runs_count, nq) if cells else np.zeros((runs_count, nq), int)
    unique = (np.bincount(run * nq + q, weights=(holders == 1), minlength=cells).reshape(runs_count, nq).astype(np.int64)
              if cells else np.zeros((runs_count, nq), int))
    code = {topic: i for i, topic in enumerate(topic_list)}
    rows: list[tuple[str, str, str, int]] = []
    for r, name in enumerate(ordered.names):
        pooled_total = unique_total = 0
        for topic in wanted:
            column = code.get(topic)
            p_value = int(pooled[r, column]) if column is not None else 0
            u_value = int(unique[r, column]) if column is not None else 0
            rows.append((name, topic, "pooled", p_value))
            rows.append((name, topic, "unique", u_value))
            pooled_total += p_value
            unique_total += u_value
        rows.append((name, ALL_TOPICS, "pooled", pooled_total))
        rows.append((name, ALL_TOPICS, "unique", unique_total))
    dropped = sorted(set(topic_list) - set(wanted), key=natural_key)
    return Pool("depth", depth, None, pool_topics, [], precomputed_contributions=rows, run_count=runs_count,
                dropped_topics=dropped)


# --- outputs ----------------------------------------------------------------------------------------------


def write_sizes(pool: Pool, path: str | PathLike[str]) -> int:
    """Per-topic pool sizes as a TSV (``request_id  documents``) with an ``all`` row (the sum)."""
    from ..writing import atomic_writer

    sizes = pool.sizes()
    with atomic_writer(path) as handle:
        handle.write("request_id\tdocuments\n")
        for topic, size in sizes.items():
            handle.write(f"{topic}\t{size}\n")
        handle.write(f"all\t{sum(sizes.values())}\n")
    return len(sizes)


PACKAGE_FIELDS = ("request_id", "doc_id", "pool_rank", "relevance", "title", "text")


def package_records(pool: Pool, store=None, requests: Mapping[str, object] | None = None) -> Iterator[dict]:
    """One record per pooled document for assessors, in pool order, with ``relevance`` left empty to fill in.

    With a document store the title and text are included (a missing document is an error: the pool and
    the collection disagree, which an organizer must know before assessors start). With requests, each
    record carries the request's title and problem statement so the package is self-contained.
    """
    for topic, docs in pool.topics.items():
        found = store.get_many(docs) if store is not None else {}
        if store is not None and len(found) != len(docs):
            missing = [doc_id for doc_id in docs if doc_id not in found]
            raise ArgueError(
                f"{len(missing)} pooled document(s) of topic {topic} are not in {store.description}: "
                f"{', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''}"
            )
        request = requests.get(topic) if requests else None
        for rank, doc_id in enumerate(docs, 1):
            record: dict[str, object] = {"request_id": topic, "doc_id": doc_id, "pool_rank": rank, "relevance": None}
            if request is not None:
                record["request_title"] = getattr(request, "title", "")
                record["problem_statement"] = getattr(request, "problem_statement", "")
            if store is not None:
                document = found[doc_id]
                record["title"] = document.title
                record["text"] = document.text
            yield record


def write_package(records: Iterable[dict], path: str | PathLike[str]) -> int:
    """Write the assessor package as JSONL, or as CSV when the file name ends in ``.csv`` (spreadsheets)."""
    from ..writing import atomic_writer, write_jsonl

    path = Path(path)
    if path.suffix.lower() != ".csv":
        return write_jsonl(path, records)

    from .. import csvsafe

    count = 0
    with atomic_writer(path) as handle:
        writer = csvsafe.writer(handle)
        columns: list[str] | None = None
        for record in records:
            if columns is None:
                columns = list(record)
                writer.writerow(columns)
            writer.writerow([csvsafe.cell(record.get(name)) for name in columns])  # ids and text are the runs'
            count += 1
        if columns is None:
            writer.writerow(PACKAGE_FIELDS[:4])
    return count
