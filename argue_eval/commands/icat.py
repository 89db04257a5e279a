"""``argue-eval icat``: ICAT (Samarinas et al.) — grounded claims and covered aspects, per run and topic."""
from __future__ import annotations

from typing import Any

import click

from ._measures import measure_judge_options
from ._options import Number, verbosity_options
from ._paths import InputPath, OutputPath

ASPECT_SOURCES = ("nuggets", "request", "qrels", "llm")
CLAIM_SOURCES = ("sentences", "llm")


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
            nli_model, cache_path, no_cache, quiet) -> None:
    """Score runs with ICAT: factuality of claims grounded in the collection, coverage of aspects.

    Each report sentence is a claim (--claims llm: the LLM's atomic claims); the top-k passages of the
    collection are retrieved for it (--index: among the top documents of a persistent index) and a
    judge decides whether one of them entails it (grounded). icat_fact = grounded / claims;
    icat_coverage = aspects covered by grounded claims / aspects; icat = their F_beta. A claim the judge
    could not judge is counted in unjudged_claims, never as ungrounded. Writes the long TSV that
    `compare` and `agree` read.

    \b
    Example (the shipped sample track):
      argue-eval icat --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --collection topics/sample/collection.jsonl -o icat.tsv --details icat.jsonl
      argue-eval compare icat.tsv --metric icat
      argue-eval icat --run runs/sample/*.jsonl --nuggets nuggets/sample/nuggets.jsonl \\
          --collection topics/sample/collection.jsonl --index auto --claims llm \\
          --judge-option llm.base_url=http://localhost:8000/v1 --judge-option llm.model=MODEL -o icat-llm.tsv
    """
    from pathlib import Path

    from ..errors import ArgueError
    from ..measures import TopicCounts, family_rows
    from ..measures.entail import JudgeAligner, JudgeEntailer
    from ..measures.icat import Aspect, ReportClaims, family, score_topics
    from ..model import natural_key
    from ..progress import progress, progress_bar
    from ..search import iter_collection
    from ..search.passages import PassageIndex
    from ._measures import (
        echo_note,
        echo_warning,
        make_entailer_judge,
        make_llm_tasks,
        open_cache,
        read_nugget_topics,
        read_runs,
        report_sentences,
        run_paths,
        summary,
        topic_order,
        warn_llm_failures,
        write_outputs,
    )

    runs = run_paths(runs, more_runs)
    if aspects is None:
        aspects = "nuggets" if nuggets else ("qrels" if qrels else "request")
    if aspects == "llm" and not requests:
        raise ArgueError("--aspects llm needs --requests (the aspects are generated from each request's text)")
    if aspects == "nuggets" and not nuggets:
        raise ArgueError("--aspects nuggets needs --nuggets")
    if aspects == "qrels" and not qrels:
        raise ArgueError("--aspects qrels needs --qrels (diversity qrels: topic subtopic doc relevance)")
    if aspects == "request" and not requests:
        raise ArgueError("--aspects request needs --requests (their aspects field)")
    if passage_overlap >= passage_words:
        raise ArgueError(f"--passage-overlap: must be smaller than --passage-words ({passage_words})")
    if not beta > 0:
        raise ArgueError(f"--beta: must be positive, got {beta}")

    topic_aspects: dict[str, list[Aspect]] = {}
    if aspects == "nuggets":
        for request_id, topic in read_nugget_topics(nuggets).items():
            topic_aspects[request_id] = [
                Aspect(n.nugget_id, n.question, frozenset(d for a in n.answers for d in a.doc_ids),
                       tuple(a.text for a in n.answers))
                for n in topic.nuggets if not n.negative]
    if aspects == "qrels":
        from ..formats import read_qrels

        subtopics: dict[str, dict[str, set[str]]] = {}
        for row in read_qrels(qrels):
            docs = subtopics.setdefault(row.request_id, {}).setdefault(row.iteration, set())
            if row.relevance > 0:
                docs.add(row.doc_id)
        topic_aspects = {topic: [Aspect(f"{topic}/{sub}", f"subtopic {sub}", frozenset(docs))
                                 for sub, docs in sorted(subs.items(), key=lambda item: natural_key(item[0]))]
                         for topic, subs in subtopics.items()}
    if requests:
        from ..formats import read_requests

        request_list = list(read_requests(requests))
        if aspects == "request":
            topic_aspects = {r.request_id: [Aspect(f"{r.request_id}-a{i + 1}", text)
                                            for i, text in enumerate(r.aspects)] for r in request_list}
        elif aspects == "llm":
            topic_aspects = {r.request_id: [] for r in request_list}  # filled in once the LLM is up
        else:
            wanted = {r.request_id for r in request_list}
            topic_aspects = {t: a for t, a in topic_aspects.items() if t in wanted}
            for request_id in wanted - set(topic_aspects):
                topic_aspects[request_id] = []
    bound = any(aspect.doc_ids for values in topic_aspects.values() for aspect in values)
    if alignment is None:
        alignment = "bindings" if bound else "judge"
    if alignment == "bindings":
        if not bound:
            raise ArgueError("--alignment bindings: no aspect is bound to a document (use --alignment judge)")
        unbound = sum(1 for values in topic_aspects.values() for a in values if not a.doc_ids)
        if unbound:
            echo_note(f"{unbound} aspect(s) bound to no document cannot be covered under bindings alignment")

    reports = read_runs(runs)
    by_key = {(r.run_id, r.request_id): r for r in reports}
    run_ids = list(dict.fromkeys(r.run_id for r in reports))
    topics = topic_order(topic_aspects)
    unknown = sorted({r.request_id for r in reports} - set(topic_aspects), key=str)
    if unknown:
        echo_note(f"reports on {len(unknown)} topic(s) without aspects are left out: {', '.join(unknown[:5])}"
                  + (" ..." if len(unknown) > 5 else ""))
    if index_spec is not None:
        index, store = _indexed_retriever(collection, index_spec, index_depth, retriever, passage_words,
                                          passage_overlap)
        size = f"{index_spec} index (depth {index_depth})"
    else:
        if collection.startswith("irds:") or Path(collection).is_dir():
            raise ArgueError(f"--collection {collection}: without --index, icat indexes a JSONL collection in "
                             "memory; for ir_datasets or a Lucene index give --index (DIR or auto)")
        documents = list(progress(iter_collection(Path(collection)), desc="reading collection", unit="doc"))
        if not documents:
            raise ArgueError(f"{collection}: the collection holds no document")
        index, store = PassageIndex(documents, retriever, passage_words, passage_overlap), None
        size = f"{len(index)} passages"
    cache = open_cache(cache_path, no_cache)
    judge = make_entailer_judge(judge_spec, judge_option, nli_model,
                                also=("llm",) if "llm" in (claims, aspects) else ())
    tasks = make_llm_tasks(judge, judge_option, cache) if "llm" in (claims, aspects) else None
    failed_topics: list[str] = []
    if aspects == "llm":
        from ..measures.generated import generate_aspects

        generated = generate_aspects([r for r in request_list if r.request_id in topic_aspects], tasks)
        for request_id, texts in generated.items():
            if texts is None:
                failed_topics.append(request_id)
                del topic_aspects[request_id]
            else:
                topic_aspects[request_id] = [Aspect(f"{request_id}-g{i + 1}", text) for i, text in enumerate(texts)]
        if failed_topics:
            echo_warning(f"the LLM could not generate aspects for {len(failed_topics)} topic(s), left out of this "
                      f"table and asked again on the next run: {', '.join(failed_topics[:5])}"
                      + (" ..." if len(failed_topics) > 5 else ""))
        topics = [t for t in topics if t not in failed_topics]
    items: list[ReportClaims] = []
    for run_id in run_ids:
        for request_id in topics:
            report = by_key.get((run_id, request_id))
            if report is None and missing_topics == "skip":
                continue
            items.append(ReportClaims(run_id, request_id, None if report is None else report_sentences(report)))
    if claims == "llm":
        from ..measures.generated import decompose_reports

        present = [item for item in items if item.claims is not None]
        split = decompose_reports([(item.request_id, item.claims or ()) for item in present], tasks)  # none is None
        by_item = {id(item): parts for item, parts in zip(present, split)}
        items = [item if item.claims is None else
                 item._replace(claims=by_item[id(item)].claims, sentences=by_item[id(item)].sentences,
                               failed=by_item[id(item)].failed) for item in items]
    bar = progress_bar("icat: entailment questions", unit="q")
    try:
        entailer = JudgeEntailer(judge, cache=cache, progress=bar.update)
        aligner = JudgeAligner(judge, cache=cache) if alignment == "judge" else None
        results = score_topics(items, topic_aspects, index.search, entailer, k=k, alignment=alignment,
                               align=aligner)
        unknown = list(getattr(index, "unknown_ids", ()))
        if unknown:
            echo_warning(f"the index returned {len(unknown)} document id(s) the collection does not hold (e.g. "
                         f"{unknown[0]!r}); those documents could ground no claim")
    finally:
        bar.close()
        if cache is not None:
            cache.close()
        if store is not None:
            store.close()
    params = {"k": k, "passage_words": passage_words, "passage_overlap": passage_overlap,
              **({"index_depth": index_depth} if index_spec is not None else {})}
    measure = family(beta, **params)
    rows = family_rows(measure, (TopicCounts(t.run_id, t.request_id, t.counts) for t in results))
    settings = {"measure": "icat", "settings": {
        "beta": beta, **params, "claims": claims, "aspects": aspects, "alignment": alignment,
        "retriever": retriever, **({"index": index_spec} if index_spec is not None else {}),
        "judge": entailer.identity(), "missing_topics": missing_topics,
        **({"llm_tasks": {task: tasks.identity(task) for task, source in (("claims", claims), ("aspects", aspects))
                          if source == "llm"}} if tasks is not None else {}),
        **({"aspects_failed": failed_topics} if failed_topics else {})}}
    write_outputs(rows, output, [settings] + [t.details() for t in results], details_path)
    unjudged = sum(t.counts["unjudged_claims"] for t in results)
    if claims == "llm":
        warn_llm_failures(tasks)
    llm_note = "" if tasks is None else f"{tasks.calls} LLM task call(s) ({tasks.failed} failed); "
    click.echo(f"icat: {len(run_ids)} run(s), {len(topics)} topic(s), {size}, {llm_note}"
               f"{entailer.calls} entailment question(s); {unjudged} claim(s) could not be judged"
               + ("" if output == "-" else f" -> {output}"), err=True)
    if output != "-" and not quiet:
        click.echo(summary(rows, ["icat_macro", "icat_fact_macro", "icat_coverage_macro"],
                           f"ICAT (beta={beta:g}, {alignment} alignment), macro averages over topics:"), nl=False)


def _indexed_retriever(collection: str, index_spec: str, depth: int, retriever: str, words: int, overlap: int):
    """``--index``: the persistent searcher (Lucene BM25 or faiss) and the collection's document store."""
    from pathlib import Path

    from ..collection import open_collection
    from ..errors import ArgueError
    from ..search.grounding import IndexedPassageRetriever

    searcher: Any  # a DenseSearcher or a LuceneSearcher: both have batch_search
    if index_spec == "auto":
        path = Path(collection)
        if retriever == "dense":
            from ..search.dense import DenseSearcher, ensure_dense_index

            searcher = DenseSearcher(ensure_dense_index(path, log=_note).index_dir)
        else:
            from ..search.lucene import LuceneSearcher, ensure_index

            searcher = LuceneSearcher(ensure_index(path, log=_note).index_dir)
    else:
        path = Path(index_spec)
        if (path / "embeddings.npy").is_file():
            from ..search.dense import DenseSearcher

            searcher = DenseSearcher(path)
        elif path.is_dir() and any(child.name.startswith("segments_") for child in path.iterdir()):
            from ..search.lucene import LuceneSearcher

            searcher = LuceneSearcher(path)
        else:
            raise ArgueError(f"--index {index_spec}: neither a Lucene index (segments_N) nor a dense index "
                             "(embeddings.npy); give such a directory, or --index auto")
    store = open_collection(collection)
    return IndexedPassageRetriever(searcher, store, depth, retriever, words, overlap), store


def _note(message: str) -> None:
    click.echo(f"note: {message}", err=True)
