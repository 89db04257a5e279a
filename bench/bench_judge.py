"""Benchmark: what judging a round asks, and what the offline judge costs next to scoring.

(a) Questions per report. ARGUE's questions are asked only where the flowchart reaches them (answers only
    for the nugget answers the cited document attests), and deduplicated across runs by judgment identity.
    Compared, as ratios, with two schemes measured on the same reports:
      naive       every sentence x every nugget answer of its topic (one "does it give this answer?" each)
      auto-argue  two LLM calls per sentence-citation pair (answers, attested), as Auto-ARGUE batches them
    "LLM calls" are our questions batched the way the LLM judge batches them: one answers call per
    (sentence, cited document) and one call per other question.
(b) Throughput of the lexical judge (judgments/s, with the SQLite cache) as a ratio to the scorer's cost
    on the same round (scoring from the judge's own judgments): target judging <= 5x scoring. Both are CPU
    seconds of this process, ``--repeats`` runs each, judge and scorer alternately (a cold judge cache every
    time); the ratio printed is the median of the pairs' ratios.

(c) The LLM judge's prompt tokens against their floor, from its dry run (``api.plan``: no server). The floor is
    the least any judge asking the same questions must send: every text the prompts quote once (each cited
    document at its size within the document budget, each sentence, nugget question and answer, request)
    plus each call's instructions (system message, question, examples: what a call cannot do without).
    Ratios: planned / floor, and for the texts alone (planned less instructions) / (each text once), which
    shows how often documents are sent again. Also the share of planned prompt tokens that sit in a prefix
    an earlier call sent, in send order (``llm_prompts.shared_prefix_tokens``: vLLM's and OpenAI's automatic
    prefix caches, unbounded). Three plans, measured in one run: before (the ``llm-v1`` prompts: sentence
    before document), after with Auto-ARGUE's grouping (``llm-v2``: instructions, document, answers, then
    sentence) and after with ``--llm-group document``. Targets on the generated round: planned <= 3x the floor
    with document grouping; shared-prefix share >= 0.5 with the default grouping. Each with the generated
    collection (200-word documents) and without a collection, where every document counts at the full
    1500-token budget, as long news stories do.

(d) The semantic judge (``--semantic``, needs the dense extra) against its floor: sentence-transformers alone
    encoding the same unique texts. The judge runs over the round with a fresh cache (every text it needs is
    encoded once, in batches of similar lengths, and stored in the cache file); the texts it encoded are
    recorded, and the bundled MiniLM model then encodes exactly those texts in one ``encode`` call (batch 64),
    in the same process (the same torch threads). Judge and encode alternately ``--repeats`` times; ratio: the
    median of the pairs' judge CPU / encode CPU (wall too); target <= 1.2x. The judge encodes topic by topic (its
    batches cut where padding costs most, ``search.embeddings.batches``), the baseline all texts in one sorted
    pass: on a small track of many small topics that pass pads less than any per-topic batching can. A rerun
    with the same cache file (answers deleted, embeddings kept) encodes nothing; its time is printed too.

Both on the shipped sample track and on a generated round (bench_score's generator: sentences drawn
from per-topic pools, so runs overlap as in a real track), with a generated collection for it.

    python bench/bench_judge.py                               # sample track + 100 runs x 50 topics
    python bench/bench_judge.py --runs 20 --topics 10         # quicker
    python bench/bench_judge.py --tokens-only                 # (c) only
    python bench/bench_judge.py --semantic-only               # (d) only
    python bench/bench_judge.py --semantic-only --skip-round  # (d) on the sample track only
    python bench/bench_judge.py --memory-only                 # (e) only
    python bench/bench_judge.py --skip-sample --no-tokens --memory   # (b), (f), (e) on the 100 x 50 round

(f) The LLM judge's dry run (``api.plan``: every round replayed, every call planned and its tokens counted; no
    server) as a ratio to scoring the same round, CPU seconds of this process: in each of (b)'s ``--repeats``
    rounds, after its scoring run; the ratio printed is the median of the (dry run, scoring) pairs' ratios, as
    in (b), so that a machine whose speed drifts during the run moves both sides. Target <= 3x. Skipped with
    ``--no-dry-run``.

(e) Memory (``--memory``): the peak resident memory of ``judge`` (lexical, a fresh cache, the judgments written)
    and of ``score`` from those judgments, each in a fresh interpreter (its peak RSS, VmHWM), on generated
    rounds of 10 / 30 / 100 / 300 runs x 50 topics (``--memory-runs``). Printed: each peak, and each
    command's growth per run (the least-squares slope of peak against runs). Target: the judge's growth per
    run no more than the scorer's.
"""
from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_read_runs import WORDS  # noqa: E402
from bench_score import generate  # noqa: E402

OUT = REPO / "bench" / "out" / "judge-round"


def write_collection(out: Path, topics: list[str], seed: int = 11) -> Path:
    """Every document id the generated round can cite, with ~200 words of text."""
    rng = random.Random(seed)
    path = out / "collection.jsonl"
    if path.exists():
        return path
    with open(path, "w", encoding="utf-8") as handle:
        for tid in topics:
            for d in range(200):
                text = " ".join(rng.choice(WORDS) for _ in range(200))
                handle.write(json.dumps({"doc_id": f"{tid}-doc-{d:04d}", "title": "", "text": text}) + "\n")
    return path


def plan_counts(reports, evaluation) -> dict[str, float]:
    """Naive and Auto-ARGUE scheme counts vs ours (every question of every round, answered by the judge)."""
    answers_per_topic = {tid: sum(len(n.units) for n in topic.nuggets) for tid, topic in evaluation.topics.items()}
    naive = sum(len(r.sentences) * answers_per_topic.get(r.request_id, 0) for r in reports)
    pairs = sum(len(s.citations) for r in reports for s in r.sentences)
    uncited = sum(1 for r in reports for s in r.sentences if not s.citations)
    return {"reports": len(reports), "sentences": sum(len(r.sentences) for r in reports), "naive": naive,
            "autoargue_calls": 2 * pairs, "uncited": uncited}


def llm_calls(judgments) -> tuple[int, int]:
    """Calls an LLM judge batching like Auto-ARGUE would make for these questions: (cited, uncited).

    Cited: one answers call per (sentence, document) with answers questions, one per attested question.
    Uncited: at most two per sentence: negative and requires-citation in one, then nugget-agrees or
    first-instance in the other.
    """
    from argue_eval.model import normalize_text

    answers = {(j.request_id, normalize_text(j.sentence), j.doc_id) for j in judgments if j.kind == "answers"}
    cited = len(answers) + sum(1 for j in judgments if j.kind in ("attested", "relevant"))
    first = {(j.request_id, normalize_text(j.sentence)) for j in judgments if j.kind in ("negative", "requires_citation")}
    second = {(j.request_id, normalize_text(j.sentence)) for j in judgments if j.kind in ("nugget_agrees", "first_instance")}
    return cited, len(first) + len(second)


def _clear_text_caches() -> None:
    """Forget every tokenized text and document: each timed judging run starts from nothing."""
    from argue_eval import model
    from argue_eval.judges import lexical, lexical_tokens

    for cached in (lexical_tokens.tokens, lexical_tokens.content, lexical_tokens.content_set, lexical_tokens.numbers,
                   lexical_tokens.stem, lexical_tokens._word_token, lexical_tokens._word_items, lexical_tokens._plain_tokens,
                   lexical_tokens._lone_tokens,
                   lexical._document_passages, lexical._documents_set, lexical._near, lexical._entities, lexical._name_runs,
                   model.natural_key):
        cached.cache_clear()
    lexical.forget_texts()  # the judge's per-text caches (weights, cues, negations, a document's tokens)


def measure(runs: list[Path], nuggets: Path, collection: Path, requests: Path | None, workdir: Path,
            repeats: int = 3, dry_run: bool = False) -> dict:
    from argue_eval.api import judge
    from argue_eval.argue.api import run_scoring
    from argue_eval.argue.policies import Policies
    from argue_eval.inputs import load_inputs
    from argue_eval.judges.runner import JudgedTable, LayeredLookup

    cache = workdir / "bench-cache.sqlite"

    def judge_once():
        for stale in workdir.glob("bench-cache.sqlite*"):
            stale.unlink()
        return judge([str(p) for p in runs], nuggets, collection=collection, requests=requests, judge="lexical",
                     cache=cache)

    def score_once(judgments):
        # scoring the same round from those judgments, as `score` does (inputs read, every report scored)
        table = JudgedTable()
        for j in judgments:
            table.table[j.key] = (j.value, j.judge)
        inputs = load_inputs([str(p) for p in runs], nuggets, None, requests, None, Policies())
        return run_scoring(inputs.reports(), inputs.evaluation, LayeredLookup(inputs.source, table))

    # each side timed `repeats` times in this process, alternately (a cold cache each time for the judge; its
    # in-process text caches are cleared too), and the median of each kept, with the median of the ratios of
    # the pairs: on a shared machine a judge and a scoring run side by side see the same load. CPU seconds of
    # this process, not wall time. With ``dry_run``, (f)'s dry run follows each scoring run, its ratio taken to
    # that scoring run the same way.
    judge_times: list[float] = []
    score_times: list[float] = []
    dry_times: list[float] = []
    calls = 0
    for _ in range(repeats):
        _clear_text_caches()
        gc.collect()  # neither side pays for collecting the other's garbage
        start = time.process_time()
        result = judge_once()
        judge_times.append(time.process_time() - start)
        judgments = result.judgments
        gc.collect()
        start = time.process_time()
        scored = score_once(judgments)
        score_times.append(time.process_time() - start)
        if dry_run:
            seconds, calls = dry_run_once(runs, nuggets, collection, requests)
            dry_times.append(seconds)
    judging, scoring = statistics.median(judge_times), statistics.median(score_times)
    ratio = statistics.median(j / s for j, s in zip(judge_times, score_times))
    counts = plan_counts(list(result.reports), result.inputs.evaluation)
    counts.update({"questions": len(judgments), "by_kind": dict(Counter(j.kind for j in judgments)),
                   "llm_calls": llm_calls(judgments), "failed": len(result.run.failures),
                   "judge_seconds": judging, "score_seconds": scoring, "repeats": repeats, "rows": len(scored.rows),
                   "ratio": ratio, "judge_times": judge_times, "score_times": score_times})
    if dry_run:
        counts["dry_run"] = {"seconds": statistics.median(dry_times), "times": dry_times, "calls": calls,
                             "score_seconds": scoring, "score_times": score_times,
                             "ratio": statistics.median(d / s for d, s in zip(dry_times, score_times))}
    return counts


def dry_run_once(runs: list[Path], nuggets: Path, collection: Path, requests: Path | None) -> tuple[float, int]:
    """(f): CPU seconds of one LLM judge's dry run over the round (the default prompts and grouping, the
    collection given, no cache), and the calls it plans."""
    from argue_eval.api import plan

    _clear_text_caches()
    gc.collect()
    start = time.process_time()
    planned = plan([str(p) for p in runs], str(nuggets), requests=str(requests) if requests else None,
                   collection=str(collection), judge="llm",
                   judge_options={"llm": {"base_url": "http://127.0.0.1:9/v1", "model": "planned"}})
    return time.process_time() - start, planned["estimate"]["total_calls"]


def report_dry_run(name: str, m: dict) -> None:
    print(f"== {name}: the LLM judge's dry run against scoring")
    print(f"   dry run {m['seconds']:.2f} CPU s for {m['calls']:,} planned calls; scoring {m['score_seconds']:.2f} CPU s "
          f"(medians of {len(m['times'])}); dry run / scoring = {m['ratio']:.1f}x, the median of the pairs' ratios "
          "(target <= 3x; dry run " + ", ".join(f"{t:.2f}" for t in m["times"]) + " s, score "
          + ", ".join(f"{t:.2f}" for t in m["score_times"]) + " s)")


def report(name: str, m: dict) -> None:
    n = m["reports"]
    print(f"== {name}: {n} reports, {m['sentences']} sentences")
    print(f"   questions {m['questions']} ({m['questions'] / n:.1f}/report; {m['failed']} failed): "
          + ", ".join(f"{k} {v}" for k, v in m["by_kind"].items()))
    print(f"   naive scheme   {m['naive']} questions ({m['naive'] / n:.1f}/report): ours / naive = "
          f"{m['questions'] / max(m['naive'], 1):.3f}")
    cited, uncited = m["llm_calls"]
    print(f"   Auto-ARGUE     {m['autoargue_calls']} LLM calls for the sentence-citation pairs "
          f"({m['autoargue_calls'] / n:.1f}/report); ours for the same pairs {cited} ({cited / n:.1f}/report): "
          f"ours / Auto-ARGUE = {cited / max(m['autoargue_calls'], 1):.3f}")
    bound = m["autoargue_calls"] + 2 * m["uncited"]
    print(f"   with uncited sentences (Auto-ARGUE leaves them out; our bound: 2 per uncited sentence = {bound}): "
          f"ours {cited + uncited} ({(cited + uncited) / n:.1f}/report) = {(cited + uncited) / max(bound, 1):.3f} of the bound")
    rate = m["questions"] / m["judge_seconds"]
    print(f"   lexical judge {m['judge_seconds']:.2f} CPU s ({rate:,.0f} judgments/s, cache included); scoring "
          f"{m['score_seconds']:.2f} CPU s (medians of {m['repeats']}); judging / scoring = {m['ratio']:.1f}x, the median "
          f"of the {m['repeats']} pairs' ratios (target <= 5x; judge " + ", ".join(f"{t:.2f}" for t in m["judge_times"])
          + " s, score " + ", ".join(f"{t:.2f}" for t in m["score_times"]) + " s)")


TOKEN_PLANS = (("before: llm-v1, sentence", {"prompts": "llm-v1"}),
               ("after:  llm-v2, sentence", {}),
               ("after:  llm-v2, document", {"group": "document"}))


def token_figures(runs: list[Path], nuggets: Path, requests: Path | None, collection: Path | None) -> list[dict]:
    """The LLM judge's dry-run estimate under each of ``TOKEN_PLANS`` (no server, no key)."""
    from argue_eval.api import plan

    figures = []
    for name, options in TOKEN_PLANS:
        started = time.perf_counter()
        planned = plan([str(p) for p in runs], str(nuggets), requests=str(requests) if requests else None,
                       collection=str(collection) if collection else None, judge="llm",
                       judge_options={"llm": {"base_url": "http://127.0.0.1:9/v1", "model": "planned", **options}})
        figures.append({"name": name, "seconds": time.perf_counter() - started, **planned["estimate"]})
    return figures


def report_tokens(name: str, figures: list[dict]) -> None:
    print(f"== {name}: LLM prompt tokens against the floor (dry run)")
    for f in figures:
        texts_sent = f["prompt_tokens"] - f["floor_instructions"]
        print(f"   {f['name']}: {f['total_calls']:>7} calls, {f['prompt_tokens']:>11,} prompt tokens; floor "
              f"{f['floor_tokens']:,} ({f['floor_instructions']:,} instructions + {f['floor_texts']:,} texts once): "
              f"planned / floor = {f['prompt_tokens'] / max(f['floor_tokens'], 1):.3f}; texts sent / texts once = "
              f"{texts_sent / max(f['floor_texts'], 1):.2f}; shared-prefix share = "
              f"{f['shared_prefix_tokens'] / max(f['prompt_tokens'], 1):.3f} ({f['seconds']:.1f} s)")


def semantic_figures(runs: list[Path], nuggets: Path, requests: Path | None, collection: Path, workdir: Path,
                     repeats: int = 3) -> dict:
    """The semantic judge's wall and CPU time over a round (cold cache), and the model alone on the texts it encoded,
    ``repeats`` times each, alternately, in this process (the same torch threads); the medians, and the median of
    the pairs' CPU ratios."""
    import sqlite3

    import torch

    from argue_eval.api import judge
    from argue_eval.search import dense

    texts: list[str] = []
    calls: list[int] = []
    encode = dense.encode

    def spy(batch: list[str], **options):
        texts.extend(batch)
        calls.append(len(batch))
        return encode(batch, **options)

    model = dense.load_model()  # loaded before the clock starts, as the baseline's is
    model.encode(["warm up the model's first forward pass"], show_progress_bar=False)
    cache = workdir / "bench-semantic.sqlite"
    pairs: list[dict] = []
    result = None
    dense.encode = spy
    try:
        for _ in range(repeats):
            for stale in workdir.glob("bench-semantic.sqlite*"):
                stale.unlink()
            texts.clear()
            calls.clear()
            started, cpu = time.perf_counter(), time.process_time()
            result = judge([str(p) for p in runs], nuggets, collection=collection, requests=requests,
                           judge="semantic", cache=cache)
            pair = {"judge_seconds": time.perf_counter() - started, "judge_cpu": time.process_time() - cpu,
                    "encoded": len(texts), "calls": len(calls)}
            unique = list(dict.fromkeys(texts))
            dense.encode = encode
            started, cpu = time.perf_counter(), time.process_time()
            model.encode(unique, batch_size=64, normalize_embeddings=True, show_progress_bar=False)
            pair.update(encode_seconds=time.perf_counter() - started, encode_cpu=time.process_time() - cpu,
                        unique=len(unique))
            dense.encode = spy
            pairs.append(pair)
        with sqlite3.connect(cache) as db:  # answers gone, embeddings kept: the rerun answers from stored vectors
            db.execute("DELETE FROM answers")
        texts.clear()
        started = time.perf_counter()
        judge([str(p) for p in runs], nuggets, collection=collection, requests=requests, judge="semantic", cache=cache)
        rerun = time.perf_counter() - started
    finally:
        dense.encode = encode
    assert result is not None

    def median(name: str) -> float:
        return statistics.median(pair[name] for pair in pairs)

    return {"questions": len(result.judgments), "failed": len(result.run.failures), "encoded": pairs[0]["encoded"],
            "unique": pairs[0]["unique"], "calls": pairs[0]["calls"], "baseline_calls": -(-pairs[0]["unique"] // 64),
            "rerun_encoded": len(texts), "judge_seconds": median("judge_seconds"), "judge_cpu": median("judge_cpu"),
            "encode_seconds": median("encode_seconds"), "encode_cpu": median("encode_cpu"), "rerun_seconds": rerun,
            "cpu_ratio": statistics.median(pair["judge_cpu"] / pair["encode_cpu"] for pair in pairs),
            "wall_ratio": statistics.median(pair["judge_seconds"] / pair["encode_seconds"] for pair in pairs),
            "ratios": [round(pair["judge_cpu"] / pair["encode_cpu"], 2) for pair in pairs], "repeats": repeats,
            "threads": torch.get_num_threads()}


def report_semantic(name: str, m: dict) -> None:
    print(f"== {name}: the semantic judge against sentence-transformers alone on the same unique texts "
          f"(medians of {m['repeats']}, judge and encode alternately, torch threads {m['threads']})")
    print(f"   judge {m['judge_seconds']:.1f} s wall, {m['judge_cpu']:.1f} s CPU for {m['questions']} judgments "
          f"({m['failed']} questions of kinds it does not answer); it encoded {m['encoded']} texts ({m['unique']} "
          f"unique) in {m['calls']} batches")
    print(f"   model.encode on those {m['unique']} texts alone (one call, batch 64: {m['baseline_calls']} batches) "
          f"{m['encode_seconds']:.1f} s wall, {m['encode_cpu']:.1f} s CPU: judge / encode = {m['cpu_ratio']:.2f}x in "
          f"CPU time (each pair: {', '.join(f'{r:.2f}' for r in m['ratios'])}; target <= 1.2x; wall "
          f"{m['wall_ratio']:.2f}x, which other work on the machine moves)")
    print(f"   rerun with the same cache file (answers deleted, embeddings kept): {m['rerun_seconds']:.1f} s, "
          f"{m['rerun_encoded']} texts encoded")


def _own_peak_mib() -> float | None:
    """This process's peak resident memory (MiB), ``VmHWM`` of /proc/self/status: its own address space's, from
    its exec on. (``wait4``'s ``ru_maxrss`` is not: Linux counts in it the memory of the forked copy of the
    parent before the exec, so every job of a bench process holding a large round read as that round.)"""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024  # kB
    except OSError:
        pass
    return None


def job_judge(out: Path) -> dict:
    """(e) in a fresh interpreter: the lexical judge over the round with a fresh cache, judgments written."""
    from argue_eval.api import judge, write_judgments

    for stale in out.glob("memory-cache.sqlite*"):
        stale.unlink()
    started = time.process_time()
    result = judge([str(p) for p in sorted((out / "runs").glob("*.jsonl"))], out / "nuggets.jsonl",
                   collection=out / "collection.jsonl", judge="lexical", cache=out / "memory-cache.sqlite",
                   keep_table=False)  # as ``argue-eval judge`` runs it
    write_judgments(result, out / "memory-judgments.jsonl", "lexical", {})
    return {"cpu": time.process_time() - started, "judgments": len(result.judgments), "own_peak_mib": _own_peak_mib()}


def job_score(out: Path) -> dict:
    """(e) in a fresh interpreter: score the round from the judge's judgments, as ``score`` does."""
    from argue_eval.api import score

    started = time.process_time()
    result = score([str(p) for p in sorted((out / "runs").glob("*.jsonl"))], out / "nuggets.jsonl",
                   judgments=[out / "memory-judgments.jsonl"], details=False)
    return {"cpu": time.process_time() - started, "rows": len(result.table), "own_peak_mib": _own_peak_mib()}


def run_job(job: str, out: Path) -> dict:
    """One (e) job in a fresh interpreter: its result and its peak RSS (MiB: its own VmHWM, else from wait4)."""
    import os
    import subprocess

    process = subprocess.Popen([sys.executable, __file__, "--job", job, "--out", str(out)], stdout=subprocess.PIPE)
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"the {job} job failed on {out}")
    result = json.loads(output)
    own = result.get("own_peak_mib")
    result["peak_mib"] = own if own is not None else usage.ru_maxrss / 1024  # KiB on Linux (see _own_peak_mib)
    return result


def _slope(xs: list[float], ys: list[float]) -> float:
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / sum((x - mean_x) ** 2 for x in xs)


def memory_series(base: Path, sizes: list[int], topics: int, sentences: int) -> None:
    """(e): peak RSS of judge and score at each number of runs, and each one's growth per run."""
    print(f"== memory: lexical judge and scorer, {topics} topics x {sentences} sentences, peak RSS per command")
    peaks: dict[str, list[float]] = {"judge": [], "score": []}
    for runs in sizes:
        out = round_dir(base, runs, topics, sentences)
        judged = run_job("judge", out)
        scored = run_job("score", out)
        peaks["judge"].append(judged["peak_mib"])
        peaks["score"].append(scored["peak_mib"])
        print(f"   {runs:>4} runs: judge {judged['peak_mib']:7.0f} MiB ({judged['judgments']} judgments, "
              f"{judged['cpu']:.1f} CPU s); score {scored['peak_mib']:7.0f} MiB ({scored['cpu']:.1f} CPU s)")
    if len(sizes) > 1:
        judge_slope, score_slope = _slope(sizes, peaks["judge"]), _slope(sizes, peaks["score"])
        print(f"   growth per run: judge {judge_slope:.2f} MiB, score {score_slope:.2f} MiB: judge / score = "
              f"{judge_slope / score_slope:.2f} (target <= 1)")


def round_dir(base: Path, runs: int, topics: int, sentences: int) -> Path:
    """The generated round of that size under ``base`` (generated once, with its collection)."""
    out = base / f"r{runs}-t{topics}-s{sentences}"
    if not (out / "generated.json").exists():
        print(f"generating {runs} runs x {topics} topics x {sentences} sentences into {out} ...", file=sys.stderr)
        sizes = generate(out, runs, topics, sentences)
        (out / "generated.json").write_text(json.dumps(sizes))
    write_collection(out, [f"{1000 + t}" for t in range(topics)])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--sentences", type=int, default=30)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--skip-sample", action="store_true")
    parser.add_argument("--skip-round", action="store_true", help="leave out the generated round: the sample "
                        "track's figures only (with --semantic-only, (d) on the sample in about a minute)")
    parser.add_argument("--repeats", type=int, default=3, help="time judging and scoring this many times each, "
                        "alternately, and take the medians (default 3)")
    parser.add_argument("--tokens-only", action="store_true", help="only (c): the LLM judge's tokens and floor")
    parser.add_argument("--semantic", action="store_true", help="also (d): the semantic judge (the dense extra)")
    parser.add_argument("--semantic-only", action="store_true", help="only (d)")
    parser.add_argument("--no-tokens", action="store_true", help="leave out (c): the LLM prompt tokens")
    parser.add_argument("--no-dry-run", action="store_true", help="leave out (f): the LLM dry run against scoring")
    parser.add_argument("--memory", action="store_true", help="also (e): peak memory of judge and score")
    parser.add_argument("--memory-only", action="store_true", help="only (e)")
    parser.add_argument("--memory-runs", default="10,30,100,300", help="the rounds of (e), in runs (default "
                        "10,30,100,300)")
    parser.add_argument("--job", choices=["judge", "score"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.job:
        print(json.dumps(job_judge(args.out) if args.job == "judge" else job_score(args.out)))
        return
    args.out.mkdir(parents=True, exist_ok=True)
    if args.memory_only:
        memory_series(args.out, [int(n) for n in args.memory_runs.split(",")], args.topics, args.sentences)
        return
    if not args.skip_sample:
        sample_runs = sorted((REPO / "runs" / "sample").glob("*.jsonl"))
        sample_inputs = (REPO / "nuggets/sample/nuggets.jsonl", REPO / "topics/sample/requests.jsonl")
        if args.semantic or args.semantic_only:
            report_semantic("sample track", semantic_figures(sample_runs, *sample_inputs,
                                                             REPO / "topics/sample/collection.jsonl", args.out,
                                                             args.repeats))
        if not args.tokens_only and not args.semantic_only:
            sample = measure(sample_runs, sample_inputs[0], REPO / "topics/sample/collection.jsonl", sample_inputs[1],
                             args.out, args.repeats)
            report("sample track", sample)
        if not args.semantic_only:
            report_tokens("sample track", token_figures(sample_runs, *sample_inputs,
                                                        REPO / "topics/sample/collection.jsonl"))
            report_tokens("sample track, no collection (documents at the 1500-token budget)",
                          token_figures(sample_runs, *sample_inputs, None))
    if args.skip_round:
        return
    out = round_dir(args.out, args.runs, args.topics, args.sentences)
    collection = out / "collection.jsonl"
    name = f"generated round {args.runs} x {args.topics} x {args.sentences}"
    generated_runs = sorted((out / "runs").glob("*.jsonl"))
    if args.semantic or args.semantic_only:
        report_semantic(name, semantic_figures(generated_runs, out / "nuggets.jsonl", None, collection, out,
                                               args.repeats))
    if args.semantic_only:
        return
    if not args.tokens_only:
        generated = measure(generated_runs, out / "nuggets.jsonl", collection, None, out, args.repeats,
                            dry_run=not args.no_dry_run)
        report(name, generated)
        if not args.no_dry_run:
            report_dry_run(name, generated["dry_run"])
    if not args.no_tokens:
        report_tokens(name, token_figures(generated_runs, out / "nuggets.jsonl", None, collection))
        report_tokens(f"{name}, no collection (documents at the 1500-token budget)",
                      token_figures(generated_runs, out / "nuggets.jsonl", None, None))
    if args.memory:
        memory_series(args.out, [int(n) for n in args.memory_runs.split(",")], args.topics, args.sentences)


if __name__ == "__main__":
    main()
