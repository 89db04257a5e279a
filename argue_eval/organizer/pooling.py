"""Pooling: choose, per topic, the documents assessors judge, from ranked runs or from report citations.

Inputs are normalized to one shape, a :class:`Rankings` per run: for each topic the run's documents in
rank order, without repeats. A TREC ranked run is ordered the way trec_eval orders it (score descending,
docno descending; the rank column is ignored), a report run contributes the documents its sentences cite
in order of first citation. Everything after that is format-free.

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
from typing import TYPE_CHECKING, Literal

from ..errors import ArgueError, InputError
from ..model import QrelsRow, natural_key

if TYPE_CHECKING:
    import numpy as np

Strategy = Literal["depth", "rrf", "mtf", "budget"]
Repeats = Literal["first", "error"]
STRATEGIES: tuple[str, ...] = ("depth", "rrf", "mtf", "budget")
UNJUDGED = -1
"""Relevance written for pooled, not yet judged documents in a pool file.

-1 and not 0: a pool file is qrels-shaped so every TREC tool can read it, and 0 would claim "judged not
relevant". trec_eval treats any grade below 1 as non-relevant, so an unjudged pool used by mistake as
qrels still scores every run 0 rather than producing plausible numbers, and ``qrels build`` refuses a
-1 left in its output."""
DEFAULT_RRF_K = 60


@dataclass
class Rankings:
    """One run's ranked documents per topic (no repeats), and where the run came from."""

    name: str
    topics: dict[str, list[str]]
    source: str = ""

    def top(self, topic: str, depth: int | None) -> list[str]:
        docs = self.topics.get(topic, [])
        return docs if depth is None else docs[:depth]


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
            rows.append((run.name, "all", "pooled", sum(item[1] for item in per_run[run.name])))
            rows.append((run.name, "all", "unique", sum(item[2] for item in per_run[run.name])))
        return rows


# --- loading runs ----------------------------------------------------------------------------------------


def rankings_from_ranked(path: str | PathLike[str], repeats: Repeats = "first") -> list[Rankings]:
    """One :class:`Rankings` per run tag in a TREC ranked run, in trec_eval order (see ``order_ranked_files``).

    A document listed twice for a topic keeps its better place with ``repeats="first"`` (trec_eval would
    refuse the file; a pool only needs to know the document was retrieved) and is an error with
    ``repeats="error"`` (what retrieval measures need).
    """
    if _small_plain_file(path):
        return _rankings_line_by_line(path, repeats)
    return order_ranked_files([path], repeats=repeats).rankings()


SMALL_RUN_BYTES = 1 << 20
"""Below this size a ranked run is read line by line in Python: importing pandas (for the vectorized reader)
costs more than the whole file, and a one-file ``retrieval`` call should start as fast as trec_eval's."""


def _small_plain_file(path: str | PathLike[str]) -> bool:
    import os

    try:
        return not str(path).endswith(".gz") and os.path.getsize(path) < SMALL_RUN_BYTES
    except OSError:
        return False  # the regular reader names the problem


def _rankings_line_by_line(path: str | PathLike[str], repeats: Repeats) -> list[Rankings]:
    """What ``order_ranked_files([path], repeats=repeats).rankings()`` returns, without numpy or pandas:
    runs by tag (sorted), topics in code-point order, documents in trec_eval order."""
    from ..formats.ranked import read_trec_run, trec_order

    grouped: dict[str, dict[str, list[tuple[str, float]]]] = {}
    for row in read_trec_run(Path(path)):
        grouped.setdefault(row.run_id, {}).setdefault(row.query_id, []).append((row.doc_id, row.score))
    result = []
    for tag in sorted(grouped):
        topics: dict[str, list[str]] = {}
        for topic in sorted(grouped[tag]):
            docs = [doc for doc, _ in trec_order(grouped[tag][topic])]
            unique = list(dict.fromkeys(docs))
            if len(unique) != len(docs):
                if repeats == "error":
                    twice = _first_repeat(docs)
                    raise InputError(
                        path, None, None,
                        f"run {tag!r}, topic {topic!r}: document {twice!r} is ranked twice (trec_eval refuses duplicate "
                        "documents; keep one line per document)",
                    )
                docs = unique
            topics[topic] = docs
        result.append(Rankings(tag, topics, str(path)))
    return result


def rankings_from_reports(path: str | PathLike[str], format: str | None = None) -> list[Rankings]:
    """One :class:`Rankings` per run id in a report run: each report's cited documents in order of first citation."""
    from ..formats import read_reports

    runs: dict[str, dict[str, list[str]]] = {}
    for report in read_reports(path, format):
        cited = _unique(doc_id for sentence in report.sentences for doc_id in sentence.citations)
        topics = runs.setdefault(report.run_id, {})
        if report.request_id in topics:
            line = report.source.line if report.source is not None else None
            raise InputError(
                path, line, "request_id", f"run {report.run_id!r} has a second report for request {report.request_id!r}"
            )
        topics[report.request_id] = cited
    return [Rankings(name, topics, str(path)) for name, topics in runs.items()]


def load_rankings(
    paths: Sequence[str | PathLike[str]], format: str | None = None, repeats: Repeats = "first"
) -> list[Rankings]:
    """Read ranked runs and/or report runs (detected per file), sorted by run name.

    Two files that use the same run name are told apart by their file names (``name@file``), because
    every output has one row per run, and run ids often disagree with file names. ``repeats``: what a
    document listed twice for a topic of a ranked run means (see ``rankings_from_ranked``).
    """
    from ..formats import resolve

    loaded: list[Rankings] = []
    for path in paths:
        spec = resolve(path, None, format)
        if spec.kind == "ranked":
            loaded.extend(rankings_from_ranked(path, repeats))
        elif spec.kind == "runs":
            loaded.extend(rankings_from_reports(path, spec.name))
        else:
            raise InputError(path, None, None, f"expected a ranked run or a report run, found {spec.kind} ({spec.name})")
    counts: dict[str, int] = {}
    for run in loaded:
        counts[run.name] = counts.get(run.name, 0) + 1
    for run in loaded:
        if counts[run.name] > 1:
            run.name = f"{run.name}@{Path(run.source).name}"
    names = [run.name for run in loaded]
    if len(set(names)) != len(names):
        duplicated = sorted({name for name in names if names.count(name) > 1})
        raise ArgueError(f"the same run appears twice ({', '.join(duplicated)}); give each run file once")
    return sorted(loaded, key=lambda run: run.name)


def _unique(doc_ids: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(doc_ids))


def _first_repeat(doc_ids: Iterable[str]) -> str | None:
    """The first document listed a second time, or None."""
    seen: set[str] = set()
    for doc_id in doc_ids:
        if doc_id in seen:
            return doc_id
        seen.add(doc_id)
    return None


# --- strategies ------------------------------------------------------------------------------------------


def check_options(strategy: str, depth: int | None, budget: int | None, rrf_k: int = DEFAULT_RRF_K) -> None:
    """Reject option combinations that have no meaning, before any file is read."""
    if strategy not in STRATEGIES:
        raise ArgueError(f"unknown pooling strategy {strategy!r}; known: {', '.join(STRATEGIES)}")
    if depth is not None and depth < 1:
        raise ArgueError(f"--depth must be at least 1, got {depth}")
    if budget is not None and budget < 1:
        raise ArgueError(f"--budget must be at least 1, got {budget}")
    if strategy in ("mtf", "budget") and budget is None:
        raise ArgueError(f"the {strategy} strategy needs --budget (documents per topic)")
    if strategy == "depth" and budget is not None:
        raise ArgueError("--budget does not apply to depth pooling; use --strategy budget, rrf or mtf")
    if rrf_k < 0:
        raise ArgueError(f"--rrf-k must not be negative, got {rrf_k}")


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


@dataclass
class OrderedRuns:
    """Ranked runs as parallel arrays in trec_eval order, repeats dropped, cut to ``depth``.

    ``run``, ``q`` and ``d`` index ``names`` (sorted), ``topic_ids`` and ``doc_ids`` (both sorted, so the
    integer order is the string order); ``rank`` is 0-based within (run, topic).
    """

    names: list[str]
    sources: list[str]
    topic_ids: np.ndarray
    doc_ids: np.ndarray
    run: np.ndarray
    q: np.ndarray
    d: np.ndarray
    rank: np.ndarray

    def rankings(self) -> list[Rankings]:
        """The same runs as :class:`Rankings` (lists), for the strategies that walk rankings one by one."""
        import numpy as np

        result = [Rankings(name, {}, source) for name, source in zip(self.names, self.sources)]
        if len(self.run) == 0:
            return result
        docs = self.doc_ids[self.d].tolist()
        topics = self.topic_ids.tolist()
        group = self.run * len(self.topic_ids) + self.q
        starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
        ends = np.r_[starts[1:], len(group)]
        for start, end in zip(starts.tolist(), ends.tolist()):
            result[int(self.run[start])].topics[topics[int(self.q[start])]] = docs[start:end]
        return result


def order_ranked_files(
    paths: Sequence[str | PathLike[str]], depth: int | None = None, repeats: Repeats = "first"
) -> OrderedRuns:
    """Read TREC ranked runs and order them as trec_eval does (score desc, docno desc), with numpy.

    A document listed twice for a topic keeps its first place in that order (``repeats="first"``) or is
    an error naming run, topic and document (``repeats="error"``, as trec_eval's "duplicate docs").
    """
    import numpy as np
    import pandas as pd

    from ..formats.ranked import read_ranked_columns

    columns = [read_ranked_columns(path) for path in paths]
    # Run names: the tag, or tag@file when the same tag appears in several files (as in load_rankings).
    keys: list[tuple[int, str]] = []
    row_runs = []
    for index, cols in enumerate(columns):
        if len(cols) and (cols.tag == cols.tag[0]).all():  # the usual case: one run per file
            codes, tags = np.zeros(len(cols), dtype=np.int64), [cols.tag[0]]
        else:
            codes, tags = pd.factorize(cols.tag)
        base = len(keys)
        keys.extend((index, str(tag)) for tag in tags)
        row_runs.append(codes.astype(np.int64) + base)
    files_per_tag: dict[str, int] = Counter(tag for _, tag in keys)
    labels = [tag if files_per_tag[tag] == 1 else f"{tag}@{Path(paths[index]).name}" for index, tag in keys]
    if len(set(labels)) != len(labels):
        repeated = sorted({label for label in labels if labels.count(label) > 1})
        raise ArgueError(f"the same run appears twice ({', '.join(repeated)}); give each run file once")
    by_name = sorted(range(len(labels)), key=labels.__getitem__)
    position = np.empty(max(len(labels), 1), dtype=np.int64)
    position[by_name] = np.arange(len(by_name))
    names = [labels[i] for i in by_name]
    sources = [str(paths[keys[i][0]]) for i in by_name]
    empty = np.empty(0, dtype=np.int64)
    if not columns or sum(len(cols) for cols in columns) == 0:
        return OrderedRuns(names, sources, np.empty(0, dtype=object), np.empty(0, dtype=object), empty, empty, empty, empty)
    run = position[np.concatenate(row_runs)]
    q, topic_ids = _factorize_strings(np.concatenate([cols.qid for cols in columns]))
    d, doc_ids = _factorize_strings(np.concatenate([cols.docno for cols in columns]))
    score_values, s = np.unique(np.concatenate([cols.score for cols in columns]), return_inverse=True)
    q, d, s = q.astype(np.int64), d.astype(np.int64), s.astype(np.int64)
    nq, nd, ns = len(topic_ids), len(doc_ids), len(score_values)
    group = run * nq + q
    if len(names) * nq * ns * nd < 2**62:
        order = np.argsort((group * ns + (ns - 1 - s)) * nd + (nd - 1 - d), kind="stable")
    else:  # the single key would overflow: sort by the four keys instead
        order = np.lexsort((nd - 1 - d, ns - 1 - s, q, run))
    run, q, d, group = run[order], q[order], d[order], group[order]
    keep = ~pd.Series(group * nd + d).duplicated(keep="first").to_numpy()
    if repeats == "error" and not keep.all():
        at = int(np.argmin(keep))
        raise InputError(
            sources[int(run[at])], None, None,
            f"run {names[int(run[at])]!r}, topic {str(topic_ids[q[at]])!r}: document {str(doc_ids[d[at]])!r} is ranked "
            "twice (trec_eval refuses duplicate documents; keep one line per document)",
        )
    run, q, d, group = run[keep], q[keep], d[keep], group[keep]
    row = np.arange(len(group))
    starts = np.r_[True, group[1:] != group[:-1]]
    rank = row - np.maximum.accumulate(np.where(starts, row, 0))
    if depth is not None:
        cut = rank < depth
        run, q, d, rank = run[cut], q[cut], d[cut], rank[cut]
    return OrderedRuns(names, sources, np.asarray(topic_ids, dtype=object), np.asarray(doc_ids, dtype=object), run, q, d, rank)


def _factorize_strings(values):
    """Integer codes whose order is the strings' order (Python's code-point order), and the sorted strings.

    Hashing first and sorting only the distinct strings as a fixed-width numpy array (compared in C) is
    several times faster than sorting Python strings."""
    import numpy as np
    import pandas as pd

    codes, uniques = pd.factorize(values)
    uniques = np.asarray(uniques, dtype=object)
    order = np.argsort(uniques.astype(str), kind="stable")
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order))
    return position[codes], uniques[order]


def _depth_pool_arrays(ordered: OrderedRuns, depth: int | None, topics: Iterable[str] | None) -> Pool:
    """The depth pool and its contribution table from ordered arrays (same result as ``build_pool``)."""
    import numpy as np

    topic_list = ordered.topic_ids.tolist()
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
        rows.append((name, "all", "pooled", pooled_total))
        rows.append((name, "all", "unique", unique_total))
    dropped = sorted(set(topic_list) - set(wanted), key=natural_key)
    return Pool("depth", depth, None, pool_topics, [], precomputed_contributions=rows, run_count=runs_count,
                dropped_topics=dropped)


# --- outputs ----------------------------------------------------------------------------------------------


def write_sizes(pool: Pool, path: str | PathLike[str]) -> int:
    """Per-topic pool sizes as a TSV (``request_id  documents``) with an ``all`` row (the sum)."""
    from ..jsonio import atomic_writer

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
    from ..jsonio import atomic_writer, write_jsonl

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
