"""``search``: a collection searched for assessors, BM25 over a Lucene index (Pyserini/Anserini) or dense
retrieval (faiss over MiniLM embeddings), each index built on first use and rebuilt when the collection changes.

What ``argue-eval search`` does minus the printing: the queries (given texts, or the requests' fields) go to
``search.lucene`` or ``search.dense``; the command renders the hits as a table, a TREC run or JSON Lines.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from os import PathLike
from typing import TYPE_CHECKING, NamedTuple

from ..errors import ArgueError, OptionError

if TYPE_CHECKING:
    from ..search.dense import DenseSearcher
    from ..search.lucene import LuceneSearcher

__all__ = ["search", "SearchResult", "QUERY_FIELDS", "hit_lines"]

QUERY_FIELDS = ("title", "background", "problem_statement")
"""The request fields a query can be made of."""


class SearchResult(NamedTuple):
    """The hits per query id, best first, and the run tag they go under (given, else ``bm25`` or ``minilm``)."""

    hits: dict[str, list[tuple[str, float]]]
    run_id: str


def search(
    collection: str | PathLike[str],
    queries: str | Sequence[str] = (),
    *,
    requests: str | PathLike[str] | None = None,
    query_fields: Sequence[str] = ("title", "problem_statement"),
    k: int = 20,
    dense: bool = False,
    run_id: str | None = None,
    index_dir: str | PathLike[str] | None = None,
    rebuild: bool = False,
    log: Callable[[str], None] | None = None,
    device: str | None = None,
) -> SearchResult:
    """The top ``k`` documents of ``collection`` (a JSONL collection or a Lucene index directory) for each query.

    Exactly one of ``queries`` (a text or texts; ids ``1``, ``2``, ... or ``query`` for one) and ``requests`` (a
    requests file; each request's ``query_fields`` joined, under its request id). ``dense``: faiss over MiniLM
    embeddings (the ``dense`` extra) instead of BM25 (the ``search`` extra and Java 21+); ``device``: where its model
    embeds the collection and the queries (``search.devices``: ``auto``, the default, takes a GPU torch sees; the
    hits do not depend on it). ``log`` receives what indexing says.
    """
    queries = [queries] if isinstance(queries, str) else list(queries)
    if bool(queries) == bool(requests):
        raise ArgueError("give either --query (one or more) or --requests")
    if device is not None:
        from ..search.devices import parse_device

        device = parse_device(device)
        if not dense:
            raise OptionError("--device", "only with --dense: BM25 search runs no model")
    fields = list(query_fields)
    unknown = [name for name in fields if name not in QUERY_FIELDS]
    if unknown or not fields:
        raise OptionError("--query-fields", f"unknown field(s) {', '.join(unknown) or '(none)'}; choose from "
                                            f"{', '.join(QUERY_FIELDS)}")
    if requests:
        from ..formats import read_requests

        topics = {request.request_id: " ".join(getattr(request, name) for name in fields if getattr(request, name))
                  for request in read_requests(requests)}
    else:
        topics = {str(i): text for i, text in enumerate(queries, 1)} if len(queries) > 1 else {"query": queries[0]}
    searcher: DenseSearcher | LuceneSearcher
    if dense:
        from ..search.dense import DenseSearcher, ensure_dense_index

        info = ensure_dense_index(collection, index_dir, rebuild=rebuild, log=log, device=device)
        searcher = DenseSearcher(info.index_dir, device=device)
        try:
            return SearchResult(searcher.batch_search(topics, k), run_id or "minilm")
        finally:
            searcher.close()
    from ..search.lucene import LuceneSearcher, ensure_index

    searcher = LuceneSearcher(ensure_index(collection, index_dir, rebuild=rebuild, log=log).index_dir)
    try:
        return SearchResult({query_id: searcher.search(text, k) for query_id, text in topics.items()}, run_id or "bm25")
    finally:
        searcher.close()


def hit_lines(result: SearchResult, output_format: str, collection: str | PathLike[str]) -> Iterator[str]:
    """The hits as lines (no line ends): a TREC run (``trec``), JSON Lines (``jsonl``), or a table for the
    terminal (``table``: rank, score, id and the title or the text's start, read from ``collection``; one block
    per query when there are several)."""
    from ..formats.ranked import format_score

    results, tag = result.hits, result.run_id
    if output_format == "trec":
        for query_id, hits in results.items():
            for rank, (doc_id, score) in enumerate(hits, 1):
                yield f"{query_id} Q0 {doc_id} {rank} {format_score(score)} {tag}"
        return
    if output_format == "jsonl":
        from ..writing import dumps_line

        for query_id, hits in results.items():
            for rank, (doc_id, score) in enumerate(hits, 1):
                yield dumps_line({"query_id": query_id, "rank": rank, "doc_id": doc_id, "score": score}).rstrip("\n")
        return
    documents = {}
    wanted = [doc_id for hits in results.values() for doc_id, _ in hits]
    if wanted:
        from ..collection import open_collection

        with open_collection(collection) as store:
            documents = store.get_many(wanted)
    for query_id, hits in results.items():
        if len(results) > 1:
            yield f"# {query_id}"
        if not hits:
            yield "(no matching documents)"
        for rank, (doc_id, score) in enumerate(hits, 1):
            document = documents.get(doc_id)
            snippet = ""
            if document is not None:
                snippet = " ".join((document.title or document.text).split())
                snippet = snippet if len(snippet) <= 80 else snippet[:77] + "..."
            yield f"{rank:>3}  {score:8.4f}  {doc_id}  {snippet}".rstrip()
