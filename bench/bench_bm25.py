"""Benchmark BM25 through Anserini (Lucene): index build and query throughput on a generated collection.

What it does (one run, same machine):

1. Generates ``--docs`` documents (default 100,000; ~80 words each drawn from a Zipf-distributed 50,000-word
   vocabulary, seeded) as a JSONL collection in ``bench/out/bm25/`` (reused when it exists with that size),
   and ``--queries`` queries (default 2,000) of 2-5 mid-frequency words.
2. Index build: ``ensure_index(rebuild=True)`` (our JSONL -> Anserini JsonCollection conversion, then
   ``IndexCollection`` in a Java subprocess with ``--threads`` threads). Baseline: one pass that reads and
   parses the collection with orjson (the floor any indexer pays); the ratio says what indexing costs
   beyond reading.
3. Query throughput: ``LuceneSearcher.search`` one query at a time from Python (in-process JVM via
   pyjnius), top-100 and top-10, and ``batch_search`` (top-100) on ``--threads`` Java threads. Baseline:
   exact BM25 (k1 = 0.9, b = 0.4, Lucene's idf) in memory with scipy: a sparse document x term matrix of
   BM25 weights in CSC form (so a query reads only its terms' columns, like an inverted index) on the same
   whitespace tokens, top-100 with ``argpartition`` (matrix build time reported apart). Most of Lucene's
   time per query is pyjnius turning the Java hit objects into Python ones, which is why top-10 is faster.

Needs the search extra (pyserini, Java 21+). Usage:
  .venv/bin/python bench/bench_bm25.py [--docs 100000] [--queries 2000] [--threads 2]
Results are printed and written to bench/out/bench_bm25.json.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
OUT = HERE / "out" / "bm25"

SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "po", "da", "fe", "gu", "hi", "ja", "ko", "lu", "ma"]


def vocabulary(size: int) -> list[str]:
    words = []
    n = len(SYLLABLES)
    for i in range(size):
        parts, value = [], i + n
        while value:
            parts.append(SYLLABLES[value % n])
            value //= n
        words.append("".join(parts) + "x")  # the x keeps Porter stemming from merging words
    return words


def generate(docs: int, queries: int, seed: int = 11) -> tuple[Path, list[str]]:
    import numpy as np
    import orjson

    OUT.mkdir(parents=True, exist_ok=True)
    collection = OUT / f"collection-{docs}.jsonl"
    words = np.array(vocabulary(50_000), dtype=object)
    rng = np.random.default_rng(seed)
    if not collection.exists():
        lengths = rng.integers(40, 120, size=docs)
        ids = np.minimum(rng.zipf(1.15, size=int(lengths.sum())) - 1, len(words) - 1)
        tokens = words[ids]
        with open(collection, "wb") as handle:
            start = 0
            for index, length in enumerate(lengths.tolist()):
                text = " ".join(tokens[start:start + length])
                start += length
                handle.write(orjson.dumps({"doc_id": f"bench-{index:07d}", "title": "", "text": text}) + b"\n")
    query_rng = np.random.default_rng(seed + 1)
    mid = words[100:20_000]
    query_texts = [" ".join(query_rng.choice(mid, size=int(query_rng.integers(2, 6)))) for _ in range(queries)]
    return collection, query_texts


def scipy_bm25(collection: Path, queries: list[str], k: int, k1: float = 0.9, b: float = 0.4):
    """Exact BM25 with a scipy sparse term-document matrix; returns (build seconds, query seconds)."""
    import numpy as np
    import orjson
    from scipy import sparse

    started = time.perf_counter()
    vocab: dict[str, int] = {}
    rows, cols, lengths = [], [], []
    with open(collection, "rb") as handle:
        for doc, line in enumerate(handle):
            tokens = orjson.loads(line)["text"].split()
            lengths.append(len(tokens))
            for token in tokens:
                cols.append(vocab.setdefault(token, len(vocab)))
                rows.append(doc)
    counts = sparse.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(len(lengths), len(vocab)))
    counts.sum_duplicates()
    lengths_arr = np.asarray(lengths, dtype=np.float32)
    norm = k1 * (1 - b + b * lengths_arr / lengths_arr.mean())
    tf = counts.tocoo()
    weights = tf.data * (k1 + 1) / (tf.data + norm[tf.row])
    df = np.bincount(tf.col, minlength=len(vocab))
    idf = np.log(1 + (len(lengths) - df + 0.5) / (df + 0.5)).astype(np.float32)
    matrix = sparse.csc_matrix((weights * idf[tf.col], (tf.row, tf.col)), shape=counts.shape)
    build = time.perf_counter() - started
    started = time.perf_counter()
    for query in queries:
        terms = [vocab[t] for t in query.split() if t in vocab]
        if not terms:
            continue
        scores = np.asarray(matrix[:, terms].sum(axis=1)).ravel()
        top = np.argpartition(-scores, k)[:k]
        top[np.argsort(-scores[top])]
    return build, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=2_000)
    parser.add_argument("--threads", type=int, default=max(1, min(8, os.cpu_count() or 1)))
    parser.add_argument("-k", type=int, default=100)
    args = parser.parse_args()

    import orjson

    from argue_eval.search.lucene import LuceneSearcher, ensure_index

    collection, queries = generate(args.docs, args.queries)
    size_mb = collection.stat().st_size / 2**20
    print(f"collection: {args.docs} documents, {size_mb:.1f} MiB ({collection}); {len(queries)} queries")

    started = time.perf_counter()
    with open(collection, "rb") as handle:
        for line in handle:
            orjson.loads(line)
    read_s = time.perf_counter() - started

    info = ensure_index(collection, OUT / "index", rebuild=True, threads=args.threads)
    build_s = info.seconds
    print(f"index build: {build_s:.1f} s ({args.docs / build_s:,.0f} docs/s, {args.threads} threads); "
          f"orjson read of the collection {read_s:.2f} s -> ratio {build_s / read_s:.1f}x")

    searcher = LuceneSearcher(info.index_dir)
    searcher.search(queries[0], args.k)  # warm the JVM's code paths
    started = time.perf_counter()
    hits = sum(len(searcher.search(query, args.k)) for query in queries)
    single_s = time.perf_counter() - started
    started = time.perf_counter()
    for query in queries:
        searcher.search(query, 10)
    top10_s = time.perf_counter() - started
    batch = {str(i): q for i, q in enumerate(queries)}
    started = time.perf_counter()
    searcher.batch_search(batch, args.k, threads=args.threads)
    batch_s = time.perf_counter() - started
    searcher.close()
    matrix_s, brute_s = scipy_bm25(collection, queries, args.k)
    print(f"queries, one at a time from Python: {len(queries) / single_s:,.0f} q/s top-{args.k} ({hits} hits), "
          f"{len(queries) / top10_s:,.0f} q/s top-10")
    print(f"queries, batch_search on {args.threads} threads: {len(queries) / batch_s:,.0f} q/s")
    print(f"baseline scipy sparse BM25 (in memory): {len(queries) / brute_s:,.0f} q/s top-{args.k} (matrix build "
          f"{matrix_s:.1f} s) -> Lucene one-at-a-time speed / scipy speed = {brute_s / single_s:.2f}")
    result = {
        "documents": args.docs,
        "collection_mib": round(size_mb, 1),
        "threads": args.threads,
        "index_build_s": round(build_s, 2),
        "index_docs_per_s": round(args.docs / build_s),
        "orjson_read_s": round(read_s, 3),
        "ratio_build_to_read": round(build_s / read_s, 2),
        "queries": len(queries),
        "k": args.k,
        "lucene_single_qps": round(len(queries) / single_s, 1),
        "lucene_single_top10_qps": round(len(queries) / top10_s, 1),
        "lucene_batch_qps": round(len(queries) / batch_s, 1),
        "scipy_sparse_qps": round(len(queries) / brute_s, 1),
        "scipy_matrix_build_s": round(matrix_s, 2),
        "ratio_lucene_single_to_scipy_speed": round(brute_s / single_s, 2),
    }
    (HERE / "out" / "bench_bm25.json").write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
