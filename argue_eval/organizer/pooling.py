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
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Literal

from ..errors import ArgueError, InputError
from ..model import QrelsRow

Strategy = Literal["depth", "rrf", "mtf", "budget"]
STRATEGIES: tuple[str, ...] = ("depth", "rrf", "mtf", "budget")
UNJUDGED = -1
"""Relevance written for pooled, not yet judged documents in a pool file.

-1 and not 0: a pool file is qrels-shaped so every TREC tool can read it, and 0 would claim "judged not
relevant". trec_eval treats any grade below 1 as non-relevant, so an unjudged pool used by mistake as
qrels still scores every run 0 rather than producing plausible numbers, and ``qrels build`` refuses a
-1 left in its output."""
DEFAULT_RRF_K = 60


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that orders ``2`` before ``10`` and ``t2`` before ``t10`` while keeping ids strings."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.findall(r"\d+|\D+", text))


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
        considered = {
            run.name: {topic: set(run.top(topic, self.depth)) for topic in self.topics} for run in self.runs
        }
        holders: dict[str, dict[str, int]] = {}
        for topic in self.topics:
            counts: dict[str, int] = {}
            for run in self.runs:
                for doc_id in considered[run.name][topic]:
                    counts[doc_id] = counts.get(doc_id, 0) + 1
            holders[topic] = counts
        rows: list[tuple[str, str, str, int]] = []
        for run in sorted(self.runs, key=lambda r: r.name):
            pooled_total = unique_total = 0
            per_topic = []
            for topic, docs in self.topics.items():
                mine = considered[run.name][topic]
                pooled = [doc_id for doc_id in docs if doc_id in mine]
                unique = sum(1 for doc_id in pooled if holders[topic][doc_id] == 1)
                per_topic.append((topic, len(pooled), unique))
                pooled_total += len(pooled)
                unique_total += unique
            for topic, pooled_count, unique in per_topic:
                rows.append((run.name, topic, "pooled", pooled_count))
                rows.append((run.name, topic, "unique", unique))
            rows.append((run.name, "all", "pooled", pooled_total))
            rows.append((run.name, "all", "unique", unique_total))
        return rows


# --- loading runs ----------------------------------------------------------------------------------------


def rankings_from_ranked(path: str | PathLike[str]) -> list[Rankings]:
    """One :class:`Rankings` per run tag in a TREC ranked run, in trec_eval order, repeats dropped.

    A document listed twice for a topic keeps its better place (trec_eval would refuse the file; a pool
    only needs to know the document was retrieved).
    """
    from ..formats.ranked import read_rankings, trec_order

    result = []
    for tag, topics in read_rankings(path).items():
        ordered = {topic: _unique([doc for doc, _ in trec_order(pairs)]) for topic, pairs in topics.items()}
        result.append(Rankings(tag, ordered, str(path)))
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


def load_rankings(paths: Sequence[str | PathLike[str]], format: str | None = None) -> list[Rankings]:
    """Read ranked runs and/or report runs (detected per file), sorted by run name.

    Two files that use the same run name are told apart by their file names (``name@file``), because the
    contribution table needs one row per run, and run ids often disagree with file names.
    """
    from ..formats import resolve

    loaded: list[Rankings] = []
    for path in paths:
        spec = resolve(path, None, format)
        if spec.kind == "ranked":
            loaded.extend(rankings_from_ranked(path))
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


# --- strategies ------------------------------------------------------------------------------------------


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
    ordered_runs = sorted(runs, key=lambda run: run.name)
    if topics is None:
        topic_ids = {topic for run in ordered_runs for topic in run.topics}
    else:
        topic_ids = set(topics)
    pool = Pool(strategy, depth, budget, {}, list(ordered_runs))
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
    import csv

    count = 0
    with atomic_writer(path) as handle:
        writer = None
        for record in records:
            if writer is None:
                writer = csv.DictWriter(handle, fieldnames=list(record), lineterminator="\n")
                writer.writeheader()
            writer.writerow({key: "" if value is None else value for key, value in record.items()})
            count += 1
        if writer is None:
            handle.write(",".join(PACKAGE_FIELDS[:4]) + "\n")
    return count
