"""``icat``: ICAT (Samarinas et al.) of runs, from paths or records: claims grounded in the collection,
aspects covered by the grounded claims, and their F_beta, per run and topic.

This is what ``argue-eval icat`` does minus the printing, the ICAT family's provider on ``api.calc``'s road
(``PROVIDER``): it reads the inputs (``inputs.runs``, ``inputs.aspects``), builds the passage retrieval (an
in-memory index of a JSONL collection, or a persistent Lucene or faiss index), the judge and the LLM tasks
(``api.measure_judges``), runs ``measures.icat`` and returns the long table, the details and the figures the
command reports.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from ..errors import ArgueError, OptionError, few_items
from ..judges.base import JudgeBackend
from .calc import Provider, Supply, calc_family, keyword_defaults
from .measure_judges import JudgeOptions
from .measure_result import MeasureResult, Note, NoteLog

__all__ = ["icat", "ASPECT_SOURCES", "CLAIM_SOURCES", "PROVIDER"]

ASPECT_SOURCES = ("nuggets", "request", "qrels", "llm")
CLAIM_SOURCES = ("sentences", "llm")
MISSING_TOPICS = ("zero", "skip")
_SOURCE_FLAGS = {"nuggets": "--nuggets", "request": "--requests", "qrels": "--qrels"}
_NO_ASPECTS = {"nuggets": "no nugget, or negative ones only", "request": "their aspects field is empty",
               "qrels": "no subtopic in the qrels"}


def icat(
    runs: Any,
    *,
    collection: str | os.PathLike[str],
    nuggets: Any = None,
    requests: Any = None,
    qrels: Any = None,
    aspects: str | None = None,
    claims: str = "sentences",
    alignment: str | None = None,
    retriever: str = "bm25",
    k: int = 10,
    passage_words: int = 128,
    passage_overlap: int = 32,
    beta: float = 1.0,
    missing_topics: str = "zero",
    index: str | None = None,
    index_depth: int = 20,
    judge: str | JudgeBackend = "lexical",
    judge_options: JudgeOptions | None = None,
    cache: Any = None,
    on_note: Callable[[Note], None] | None = None,
    device: str | None = None,
) -> MeasureResult:
    """ICAT of ``runs`` (run file paths or ``Report`` records).

    Aspects come from ``nuggets`` (a path or ``TopicNuggets``; the default when given), ``qrels`` (diversity
    qrels: subtopics), the ``requests``' aspects field (``aspects="request"``) or the LLM (``"llm"``, from
    the requests' text); ``requests`` also restricts the topics. Claims are the report's sentences or the
    LLM's atomic claims (``claims="llm"``). ``alignment``: ``bindings`` (a grounded claim covers the aspects
    of its first entailing document; the default when aspects are bound to documents) or ``judge``.
    ``collection``: a JSONL collection indexed in memory, or with ``index`` (a Lucene or dense index
    directory, or ``"auto"``) any collection ``open_collection`` reads. ``judge``/``judge_options``: the
    entailment judge (and the ``llm`` options of the LLM tasks); ``cache``: a judgment cache path or object.
    ``on_note(Note)`` is called with each note as it arises (they are also in the result). ``device``: where dense
    retrieval's model runs (``search.devices``; default ``auto``); the judge's comes with its options
    (``semantic.device``, ``nli.device``). It changes no score.
    """
    return calc_family("icat", {"aspects": aspects, "claims": claims, "alignment": alignment, "retriever": retriever,
                                "k": k, "passage_words": passage_words, "passage_overlap": passage_overlap,
                                "beta": beta, "missing_topics": missing_topics, "index_depth": index_depth},
                       runs=runs, collection=collection, nuggets=nuggets, requests=requests, qrels=qrels,
                       judge=judge, judge_options=judge_options, cache=cache, on_note=on_note, index=index,
                       device=device)


_PARAMETERS = ("aspects", "claims", "alignment", "retriever", "k", "passage_words", "passage_overlap", "beta",
               "missing_topics", "index_depth")


def _compute(supply: Supply, params: dict[str, Any], metrics: list[str], whole: bool) -> MeasureResult:
    """ICAT of the supply's runs under ``params`` (``icat``'s keywords; the others at their defaults)."""
    from .measure_judges import check_choice, judge_runtimes

    aspects, claims, alignment, retriever, k, passage_words, passage_overlap, beta, missing_topics, index_depth = (
        {**PROVIDER.parameters, **params}[name] for name in _PARAMETERS)
    nuggets, requests, qrels, collection = supply.nuggets, supply.requests, supply.qrels, supply.collection
    judge, judge_options, index = supply.entailment_judge(), supply.judge_options, supply.option("index")
    device = supply.option("device")
    if collection is None:
        raise OptionError("--collection", "ICAT needs the collection that grounds the claims (collection=...)")
    log = NoteLog(supply.on_note)
    check_choice("--claims", "claim source", claims, CLAIM_SOURCES)
    check_choice("--missing-topics", "missing-topic policy", missing_topics, MISSING_TOPICS)
    aspects = _aspect_source(aspects, nuggets, qrels, requests)
    if passage_overlap >= passage_words:
        raise OptionError("--passage-overlap", f"must be smaller than --passage-words ({passage_words})")
    if not beta > 0:
        raise OptionError("--beta", f"must be positive, got {beta}")
    request_list, topic_aspects = _topic_aspects(aspects, nuggets, qrels, requests)
    from ..inputs.runs import drop_empty_topics, reports_outside, run_ids, topic_order

    empty = [] if aspects == "llm" else drop_empty_topics(topic_aspects, "an aspect", _SOURCE_FLAGS[aspects])
    if empty:
        log.note(f"{len(empty)} topic(s) have no aspects ({_NO_ASPECTS[aspects]}) and are not evaluated (not "
                 f"averaged in; their reports are not scored): {few_items(empty)}")
    alignment = _alignment(alignment, topic_aspects, log)
    reports = supply.reports()
    topics = topic_order(topic_aspects)
    unknown = [topic for topic in reports_outside(reports, topic_aspects) if topic not in empty]
    if unknown:
        log.note(f"reports on {len(unknown)} topic(s) without aspects are left out: {', '.join(unknown[:5])}"
                 + (" ..." if len(unknown) > 5 else ""))
    with ExitStack() as stack:
        cache = supply.cache()  # the retrieval's embeddings are kept in it too
        retrieval, size, embedder = _retrieval(collection, index, index_depth, retriever, passage_words,
                                               passage_overlap, log, stack, cache, device)
        results, entailer, tasks, failed_topics, topics = _judge_and_score(
            reports, topics, topic_aspects, request_list, retrieval.search, aspects, claims, alignment, k,
            missing_topics, judge, judge_options, cache, log, stack)
        _unknown_ids(retrieval, log)
        # how the models ran (device, batch size): dense retrieval's and the judge's; not in any identity or key
        runtime = {**({"retrieval": dict(embedder.runtime)} if embedder is not None else {}),
                   **judge_runtimes(entailer.judge)}
    params = {"k": k, "passage_words": passage_words, "passage_overlap": passage_overlap,
              **({"index_depth": index_depth} if index is not None else {})}
    from ..measures import TopicCounts, family_rows
    from ..measures.icat import family

    rows = family_rows(family(beta, **params), (TopicCounts(t.run_id, t.request_id, t.counts) for t in results))
    settings = {
        "beta": beta, **params, "claims": claims, "aspects": aspects, "alignment": alignment,
        "retriever": retriever, **({"index": index} if index is not None else {}),
        "judge": entailer.identity(), "missing_topics": missing_topics,
        **({"llm_tasks": {task: tasks.identity(task) for task, source in (("claims", claims), ("aspects", aspects))
                          if source == "llm"}} if tasks is not None else {}),
        **({"aspects_failed": failed_topics} if failed_topics else {}),
        **({"runtime": runtime} if runtime else {})}
    _say_unjudged(results, entailer, tasks if claims == "llm" else None, log)
    counts = {"index": size, "entailment_questions": entailer.calls,
              "unjudged_claims": sum(t.counts["unjudged_claims"] for t in results),
              **({"llm_calls": tasks.calls, "llm_failed": tasks.failed} if tasks is not None else {})}
    return MeasureResult("icat", rows, settings, [t.details() for t in results], run_ids(reports), topics, counts,
                         log.notes, log.unjudged)


def _say_unjudged(results: list[Any], entailer: Any, claim_tasks: Any, log: NoteLog) -> None:
    """One warning per kind of item that could not be judged (LLM claims, claims, aspects), and why."""
    from .measure_judges import failure_reason, why_unanswered

    if claim_tasks is not None and claim_tasks.failed:
        log.not_judged(f"{claim_tasks.failed} LLM task(s) failed after a re-ask or retries{failure_reason(claim_tasks)}; "
                       "they count as unjudged and are asked again on the next run")
    total = {name: sum(t.counts[name] for t in results)
             for name in ("claims", "unjudged_claims", "aspects", "unjudged_aspects")}
    if total["unjudged_claims"]:
        log.not_judged(f"{total['unjudged_claims']} of {total['claims']} claim(s) could not be judged "
                       f"({why_unanswered(entailer.judge)}): left out of icat_fact, not counted as ungrounded, and "
                       "asked again on the next run")
    if total["unjudged_aspects"]:
        log.not_judged(f"{total['unjudged_aspects']} of {total['aspects']} aspect(s) could not be judged (a claim or "
                       "an alignment that might cover them could not be judged): left out of icat_coverage, not "
                       "counted as missed")


def _aspect_source(aspects: str | None, nuggets: Any, qrels: Any, requests: Any) -> str:
    """The aspect source asked for (or the default: nuggets, else qrels, else the requests), and that its input
    is given."""
    if aspects is None:
        aspects = "nuggets" if nuggets else ("qrels" if qrels else "request")
    if aspects not in ASPECT_SOURCES:
        from ..errors import unknown_name

        raise unknown_name("--aspects", "aspect source", aspects, ASPECT_SOURCES)  # the API's callers pass any text
    if aspects == "llm" and not requests:
        raise ArgueError("--aspects llm needs --requests (the aspects are generated from each request's text)")
    if aspects == "nuggets" and not nuggets:
        raise ArgueError("--aspects nuggets needs --nuggets")
    if aspects == "qrels" and not qrels:
        raise ArgueError("--aspects qrels needs --qrels (diversity qrels: topic subtopic doc relevance)")
    if aspects == "request" and not requests:
        raise ArgueError("--aspects request needs --requests (their aspects field)")
    return aspects


def _topic_aspects(source: str, nuggets: Any, qrels: Any, requests: Any) -> tuple[list[Any] | None, dict[str, list[Any]]]:
    """The requests (if given) and each topic's aspects (empty for ``llm``: generated once the LLM is up)."""
    from ..inputs import read_request_list
    from ..inputs.aspects import nugget_aspects, qrels_aspects, request_aspects

    topic_aspects: dict[str, list[Any]] = {}
    if source == "nuggets":
        topic_aspects = nugget_aspects(nuggets)
    if source == "qrels":
        topic_aspects = qrels_aspects(qrels)
    request_list = read_request_list(requests) if requests else None
    if request_list is not None:
        if source == "request":
            topic_aspects = request_aspects(request_list)
        elif source == "llm":
            topic_aspects = {r.request_id: [] for r in request_list}
        else:
            wanted = {r.request_id for r in request_list}
            topic_aspects = {t: a for t, a in topic_aspects.items() if t in wanted}
            for request_id in wanted - set(topic_aspects):
                topic_aspects[request_id] = []
    return request_list, topic_aspects


def _alignment(alignment: str | None, topic_aspects: dict[str, list[Any]], log: NoteLog) -> str:
    """``bindings`` when some aspect is bound to a document, else ``judge`` (unless asked); bindings need one."""
    bound = any(aspect.doc_ids for values in topic_aspects.values() for aspect in values)
    if alignment is None:
        alignment = "bindings" if bound else "judge"
    if alignment == "bindings":
        if not bound:
            raise ArgueError("--alignment bindings: no aspect is bound to a document (use --alignment judge)")
        unbound = sum(1 for values in topic_aspects.values() for a in values if not a.doc_ids)
        if unbound:
            log.note(f"{unbound} aspect(s) bound to no document cannot be covered under bindings alignment")
    return alignment


def _retrieval(collection: Any, index: str | None, depth: int, retriever: str, words: int, overlap: int,
               log: NoteLog, stack: ExitStack, cache: Any = None,
               device: str | None = None) -> tuple[Any, str, Any]:
    """The passage retrieval (its ``search(claims, k)``), how it is described (an index, or passages in
    memory) and dense retrieval's embedder (``None`` for BM25). Dense retrieval embeds each passage and claim
    once, in ``cache``'s embeddings when given, on ``device``."""
    embedder = None
    if retriever == "dense":
        from ..search.dense import embedder as dense_embedder

        embedder = dense_embedder(cache.embeddings() if cache is not None else None, device=device)
    if index is not None:
        return (_indexed_retriever(collection, index, depth, retriever, words, overlap, log, stack, embedder,
                                   device),
                f"{index} index (depth {depth})", embedder)
    from ..progress import progress
    from ..search import iter_collection
    from ..search.passages import PassageIndex

    if str(collection).startswith("irds:") or Path(collection).is_dir():
        raise ArgueError(f"--collection {collection}: without --index, icat indexes a JSONL collection in "
                         "memory; for ir_datasets or a Lucene index give --index (DIR or auto)")
    documents = list(progress(iter_collection(Path(collection)), desc="reading collection", unit="doc"))
    if not documents:
        raise ArgueError(f"{collection}: the collection holds no document")
    passages = PassageIndex(documents, retriever, words, overlap, embedder=embedder)
    return passages, f"{len(passages)} passages", embedder


def _indexed_retriever(collection: Any, index: str, depth: int, retriever: str, words: int, overlap: int,
                       log: NoteLog, stack: ExitStack, embedder: Any = None, device: str | None = None) -> Any:
    """``index``: the persistent searcher (Lucene BM25 or faiss) over the collection's document store."""
    from ..collection import open_collection
    from ..search.grounding import IndexedPassageRetriever

    searcher: Any  # a DenseSearcher or a LuceneSearcher: both have batch_search
    if index == "auto":
        path = Path(collection)
        if retriever == "dense":
            from ..search.dense import DenseSearcher, ensure_dense_index

            searcher = DenseSearcher(ensure_dense_index(path, log=log.note, device=device).index_dir, embedder)
        else:
            from ..search.lucene import LuceneSearcher, ensure_index

            searcher = LuceneSearcher(ensure_index(path, log=log.note).index_dir)
    else:
        path = Path(index)
        if (path / "embeddings.npy").is_file():
            from ..search.dense import DenseSearcher

            searcher = DenseSearcher(path, embedder)
        elif path.is_dir() and any(child.name.startswith("segments_") for child in path.iterdir()):
            from ..search.lucene import LuceneSearcher

            searcher = LuceneSearcher(path)
        else:
            raise ArgueError(f"--index {index}: neither a Lucene index (segments_N) nor a dense index "
                             "(embeddings.npy); give such a directory, or --index auto")
    store = open_collection(collection)
    stack.callback(store.close)
    return IndexedPassageRetriever(searcher, store, depth, retriever, words, overlap)


def _unknown_ids(index: Any, log: NoteLog) -> None:
    """A warning when a persistent index named documents the collection does not hold."""
    unknown = list(getattr(index, "unknown_ids", ()))
    if unknown:
        log.warn(f"the index returned {len(unknown)} document id(s) the collection does not hold (e.g. "
                 f"{unknown[0]!r}); those documents could ground no claim")


def _judge_and_score(reports: list[Any], topics: list[str], topic_aspects: dict[str, list[Any]],
                     request_list: list[Any] | None, search: Any, aspects: str, claims: str, alignment: str, k: int,
                     missing_topics: str, judge: str | JudgeBackend, judge_options: JudgeOptions | None, cache: Any,
                     log: NoteLog, stack: ExitStack) -> tuple[list[Any], Any, Any, list[str], list[str]]:
    """Open the cache, the judge and the LLM tasks; generate aspects and claims if asked; ground and align.
    Returns the per-topic results, the entailer, the LLM tasks, the topics whose aspects failed, the topics."""
    from ..measures.entail import JudgeAligner, JudgeEntailer
    from ..measures.icat import score_topics
    from ..progress import progress_bar
    from .measure_judges import open_cache, open_llm_tasks, open_measure_judge

    judgment_cache = open_cache(cache, stack)
    backend = open_measure_judge(judge, judge_options, also=("llm",) if "llm" in (claims, aspects) else ())
    if backend is not judge:
        stack.callback(backend.close)
    tasks = None
    if "llm" in (claims, aspects):
        tasks = open_llm_tasks(backend, judge_options, judgment_cache, stack,
                               progress=progress_bar("LLM calls", unit="call").update)  # no total: the cache decides
    failed_topics: list[str] = []
    if aspects == "llm":
        assert request_list is not None
        failed_topics = _generate_aspects(topic_aspects, request_list, tasks, log)
        topics = [t for t in topics if t not in failed_topics]
    items = _report_claims(reports, topics, missing_topics, claims, tasks)
    bar = progress_bar("icat: entailment questions", unit="q")
    stack.callback(bar.close)
    entailer = JudgeEntailer(backend, cache=judgment_cache, progress=bar.update)
    aligner = JudgeAligner(backend, cache=judgment_cache) if alignment == "judge" else None
    results = score_topics(items, topic_aspects, search, entailer, k=k, alignment=alignment, align=aligner)
    return results, entailer, tasks, failed_topics, topics


def _generate_aspects(topic_aspects: dict[str, list[Any]], request_list: list[Any], tasks: Any,
                      log: NoteLog) -> list[str]:
    """ICAT-A: the LLM's aspects for each topic, in place; the topics it failed on are left out (returned)."""
    from ..measures.icat import Aspect
    from ..measures.llm_claims import generate_aspects

    failed: list[str] = []
    generated = generate_aspects([r for r in request_list if r.request_id in topic_aspects], tasks)
    for request_id, texts in generated.items():
        if texts is None:
            failed.append(request_id)
            del topic_aspects[request_id]
        else:
            topic_aspects[request_id] = [Aspect(f"{request_id}-g{i + 1}", text) for i, text in enumerate(texts)]
    if failed:
        log.not_judged(f"the LLM could not generate aspects for {len(failed)} topic(s), left out of this table and "
                       f"asked again on the next run: {', '.join(failed[:5])}" + (" ..." if len(failed) > 5 else ""))
    return failed


def _report_claims(reports: list[Any], topics: list[str], missing_topics: str, claims: str, tasks: Any) -> list[Any]:
    """Each run's claims on each topic (``None`` for a missing report): its sentences, or the LLM's claims."""
    from ..inputs.runs import pair_reports, report_sentences
    from ..measures.icat import ReportClaims

    items = [ReportClaims(run_id, request_id, None if report is None else report_sentences(report))
             for run_id, request_id, report in pair_reports(reports, topics, missing_topics)]
    if claims != "llm":
        return items
    from ..measures.llm_claims import decompose_reports

    present = [item for item in items if item.claims is not None]
    split = decompose_reports([(item.request_id, item.claims or ()) for item in present], tasks)  # none is None
    by_item = {id(item): parts for item, parts in zip(present, split)}
    return [item if item.claims is None else
            item._replace(claims=by_item[id(item)].claims, sentences=by_item[id(item)].sentences,
                          failed=by_item[id(item)].failed) for item in items]


PROVIDER = Provider("icat", keyword_defaults(icat, *_PARAMETERS), _compute, options=("index", "device"))
"""The ICAT family on ``api.calc``'s road: ``icat.f@2``, ``icat.fact(k=20)``, ``icat(aspects=request)``."""
