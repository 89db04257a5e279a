"""``argue-eval icat``: ICAT (Samarinas et al.) — grounded claims and covered aspects, per run and topic."""
from __future__ import annotations

import click

from ..api.icat import ASPECT_SOURCES, CLAIM_SOURCES
from ._measure_cli import measure_judge_options
from ._options import Number, verbosity_options
from ._paths import InputPath, OutputPath


@click.command("icat")
@verbosity_options
@click.argument("more_runs", nargs=-1, type=InputPath(), metavar="[RUN]...")
@click.option("--run", "runs", multiple=True, type=InputPath(), metavar="RUN", help="Run file (any run format); repeat for several.")
@click.option("--nuggets", default=None, type=InputPath(folder=True), metavar="N",
              help="Nuggets: each nugget question is an aspect, bound to its answers' documents (ICAT-M).")
@click.option("--requests", default=None, type=InputPath(), metavar="R",
              help="Requests: with --aspects request, their aspects field; otherwise only the topic set.")
@click.option("--qrels", default=None, type=InputPath(), metavar="Q",
              help="With --aspects qrels: TREC diversity qrels whose second column is the subtopic; each "
                   "subtopic is an aspect bound to its documents with relevance > 0.")
@click.option("--collection", required=True, type=InputPath(folder=True), metavar="C",
              help="Collection that grounds the claims: a JSONL file (doc_id/text/title), indexed in memory "
                   "unless --index is given; with --index also a Lucene index directory or irds:DATASET.")
@click.option("--index", "index_spec", default=None, type=InputPath(folder=True), metavar="DIR|auto",
              help="For a large collection: a persistent index finds each claim's top --index-depth documents "
                   "and only their passages are ranked. DIR: a Lucene (Pyserini) index or a dense index "
                   "(embeddings.npy); auto: the collection's own BM25 (or, with --retriever dense, faiss) "
                   "index, built once beside it (the search extra for BM25, dense for faiss).")
@click.option("--index-depth", type=click.IntRange(1, 100_000), default=20, show_default=True,
              help="With --index: documents retrieved per claim before passage ranking.")
@click.option("-o", "--output", required=True, type=OutputPath(), metavar="OUT.tsv", help="Score table (long TSV); '-' for stdout.")
@click.option("--details", "details_path", default=None, type=OutputPath(), metavar="D.jsonl",
              help="One JSON line per run x topic: every claim (grounded, ungrounded, unjudged; its evidence "
                   "passage and aspects) and every aspect (covered, by which claims).")
@click.option("--claims", type=click.Choice(CLAIM_SOURCES), default="sentences", show_default=True,
              help="sentences: one claim per report sentence. llm: atomic claims from the LLM backend.")
@click.option("--aspects", type=click.Choice(ASPECT_SOURCES), default=None,
              help="nuggets (default with --nuggets), request (the requests' aspects), qrels (subtopics of "
                   "--qrels), llm (generated).")
@click.option("--alignment", type=click.Choice(("bindings", "judge")), default=None,
              help="bindings (ICAT-M; default when aspects are bound to documents): a grounded claim covers "
                   "the aspects of its first entailing document. judge (ICAT-S/A): the judge decides.")
@click.option("--retriever", type=click.Choice(("bm25", "dense")), default="bm25", show_default=True,
              help="Passage retrieval per claim (dense needs the dense extra).")
@click.option("-k", "--top-k", "k", type=click.IntRange(1, 100_000), default=10, show_default=True,
              help="Passages retrieved per claim.")
@click.option("--passage-words", type=click.IntRange(8, 1_000_000), default=128, show_default=True,
              help="Passage length in words.")
@click.option("--passage-overlap", type=click.IntRange(0, 1_000_000), default=32, show_default=True,
              help="Words shared by consecutive passages.")
@click.option("--beta", type=Number(0, 1_000_000, min_open=True), default=1.0, show_default=True,
              help="ICAT_beta weight: beta > 1 weighs coverage more, beta < 1 factuality.")
@click.option("--missing-topics", type=click.Choice(("zero", "skip")), default="zero", show_default=True,
              help="A topic with aspects but no report in a run: scored with no claims (zero) or left out.")
@measure_judge_options
@click.option("--quiet", "-q", is_flag=True, help="Do not print the summary table.")
def command(more_runs, runs, nuggets, requests, qrels, collection, index_spec, index_depth, output, details_path, claims, aspects, alignment,
            retriever, k, passage_words, passage_overlap, judge_spec, beta, missing_topics, judge_option,
            nli_model, cache_path, no_cache, device, quiet) -> None:
    """Score runs with ICAT: factuality of claims grounded in the collection, coverage of aspects.

    Each report sentence is a claim (--claims llm: the LLM's atomic claims); the top-k passages of the
    collection are retrieved for it (--index: among the top documents of a persistent index) and a
    judge decides whether one of them entails it (grounded). icat_fact = grounded / claims;
    icat_coverage = aspects covered by grounded claims / aspects; icat = their F_beta. A claim the judge
    could not judge is counted in unjudged_claims, never as ungrounded; whatever could not be judged is
    said in a warning, flagged in the summary, and the exit status is 1. Writes the long TSV that
    `compare` and `agree` read.

    \b
    Example (the shipped sample track):
      argue-eval icat --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --collection topics/sample/collection.jsonl -o icat.tsv --details icat.jsonl
      argue-eval compare icat.tsv --metric icat
    \b
    A large collection: a persistent BM25 index, built once beside it (the search extra):
      argue-eval icat --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --collection topics/sample/collection.jsonl --index auto -o icat-indexed.tsv
    \b
    Atomic claims from an LLM (MODEL served by any OpenAI-compatible endpoint; the llm extra):
      argue-eval icat --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --collection topics/sample/collection.jsonl --claims llm \\
          --judge-option llm.base_url=http://localhost:8000/v1 --judge-option llm.model=MODEL -o icat-llm.tsv
    \b
    Dense retrieval on the first GPU torch sees (the CPU when there is none; --judge semantic or nli runs there too;
    the dense extra):
      argue-eval icat --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --collection topics/sample/collection.jsonl --retriever dense --device auto -o icat-dense.tsv
    """
    from ..api.icat import icat
    from ._measure_cli import echo_note, finish, judge_arguments, unjudged_by_run, write_outputs
    from ._options import run_paths

    result = icat(run_paths(runs, more_runs), collection=collection, nuggets=nuggets, requests=requests, qrels=qrels,
                  aspects=aspects, claims=claims, alignment=alignment, retriever=retriever, k=k,
                  passage_words=passage_words, passage_overlap=passage_overlap, beta=beta,
                  missing_topics=missing_topics, index=index_spec, index_depth=index_depth, on_note=echo_note, device=device,
                  **judge_arguments(judge_spec, judge_option, nli_model, cache_path, no_cache))
    write_outputs(result, output, details_path)
    counts = result.counts
    llm = "" if "llm_calls" not in counts else f"{counts['llm_calls']} LLM task call(s) ({counts['llm_failed']} failed); "
    finish(result, output, quiet,
           f"icat: {len(result.runs)} run(s), {len(result.topics)} topic(s), {counts['index']}, {llm}"
           f"{counts['entailment_questions']} entailment question(s); {counts['unjudged_claims']} claim(s) "
           "could not be judged", ["icat_macro", "icat_fact_macro", "icat_coverage_macro"],
           f"ICAT (beta={beta:g}, {result.settings['alignment']} alignment), macro averages over topics:",
           unjudged_by_run(result.rows, [("unjudged_claims", "claim"), ("unjudged_aspects", "aspect")]))
