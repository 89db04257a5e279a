"""Benchmark: the cost of the alternate measures (issue 10), as ratios against baselines measured here.

1. LongRecall entailment questions per reference fact: the staged filter (lexical candidates, then
   semantic ones when the dense extra is installed; a fact without candidates costs nothing) against
   checking every (sentence, fact) pair, as the ratio staged / all pairs. Counted per run x topic (the
   ``model_calls`` rows), before the cross-run memo, so the figure is what a model would be asked. Then
   the same with the LLM's multiple-choice check (one question per fact with several candidates), as the
   ratio multiple-choice / one-to-one questions.
2. Comprehensiveness (issue 11): pairs judged after lexical pruning against every pair of the graph
   (response -> context and context -> context), and wall time per report with the lexical judge.
3. ICAT claims per second with the default (lexical) judge, against retrieval alone (BM25 over the same
   passages) on the same claims: the ratio says what entailment adds to retrieval.

Both on the shipped sample track (6 runs x 8 topics) and on a generated larger round: ``--runs`` runs x
the 8 sample topics, each report a seeded mix of the sample runs' sentences on that topic (so runs
overlap as in a real track) with a share of sentences from other topics.

    .venv/bin/python bench/bench_measures.py                 # 40 generated runs
    .venv/bin/python bench/bench_measures.py --runs 100
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from argue_eval.inputs.facts import read_nugget_topics  # noqa: E402
from argue_eval.inputs.runs import read_runs, report_sentences  # noqa: E402
from argue_eval.judges.registry import make_judge  # noqa: E402
from argue_eval.measures.entail import JudgeEntailer, JudgeFactChecker  # noqa: E402
from argue_eval.measures.icat import Aspect, ReportClaims  # noqa: E402
from argue_eval.measures.icat import score_topics as icat_topics  # noqa: E402
from argue_eval.measures.longrecall import Fact, Settings, TopicFacts  # noqa: E402
from argue_eval.measures.longrecall import score_topics as longrecall_topics  # noqa: E402
from argue_eval.search import iter_collection  # noqa: E402
from argue_eval.search.passages import ICAT_PASSAGES, PassageIndex  # noqa: E402

SAMPLE = REPO / "runs" / "sample"


def sample_reports() -> dict[tuple[str, str], list[str]]:
    return {(r.run_id, r.request_id): report_sentences(r) for r in read_runs(sorted(map(str, SAMPLE.glob("*.jsonl"))))}


def generated_round(sample: dict[tuple[str, str], list[str]], runs: int, seed: int = 0) -> dict[tuple[str, str], list[str]]:
    rng = random.Random(seed)
    by_topic: dict[str, list[str]] = {}
    for (_, topic), sentences in sample.items():
        by_topic.setdefault(topic, []).extend(sentences)
    topics = sorted(by_topic)
    out = {}
    for r in range(runs):
        for topic in topics:
            pool = sorted(set(by_topic[topic]))
            own = rng.sample(pool, min(len(pool), rng.randint(5, 12)))
            other = rng.choice([t for t in topics if t != topic])
            out[(f"gen{r:03d}", topic)] = own + rng.sample(by_topic[other], 2)
    return out


def facts_by_topic() -> dict[str, list[Fact]]:
    topics = read_nugget_topics(str(REPO / "nuggets" / "sample" / "nuggets.jsonl"))
    return {t: [Fact(n.nugget_id, n.question, n.question, tuple(a.text for a in n.answers))
                for n in topic.nuggets if not n.negative and n.answers] for t, topic in topics.items()}


def embedder():
    try:
        from argue_eval.search.dense import encode, load_model

        load_model()
        return encode
    except Exception as error:  # the dense extra is optional
        print(f"  (semantic stage off: {str(error).splitlines()[0][:100]})")
        return None


def bench_longrecall(name: str, reports: dict[tuple[str, str], list[str]], embed) -> None:
    facts = facts_by_topic()
    items = [TopicFacts(run, topic, sentences, facts[topic]) for (run, topic), sentences in reports.items()]
    checker = JudgeFactChecker(make_judge("lexical"))
    start = time.perf_counter()
    results = longrecall_topics(items, checker, Settings(), embed)
    seconds = time.perf_counter() - start
    n_facts = sum(len(item.facts) for item in items)
    staged = sum(t.counts["model_calls"] for t in results)
    all_pairs = sum(len(item.sentences) * sum(len(f.variants) for f in item.facts) for item in items)
    no_candidate = sum(t.counts["no_candidate_facts"] for t in results)
    print(f"LongRecall, {name}: {len(items)} reports, {n_facts} reference facts")
    print(f"  entailment questions per fact: staged {staged / n_facts:.2f}, every pair {all_pairs / n_facts:.2f}, "
          f"ratio staged/every pair {staged / all_pairs:.3f} ({all_pairs / max(staged, 1):.1f}x fewer)")
    print(f"  facts with no candidate (no question): {no_candidate / n_facts:.1%}; distinct questions asked "
          f"after the cross-run memo: {checker.calls}; {seconds:.2f} s")
    # The paper's multiple-choice check: one LLM question per fact with several candidates at a stage. The
    # chooser here answers as the lexical judge does (the first candidate it accepts), so both runs cover
    # the same facts and only the number of model questions differs.
    choice = longrecall_topics(items, JudgeFactChecker(make_judge("lexical")), Settings(), embed,
                               lexical_chooser(JudgeFactChecker(make_judge("lexical"))))
    with_choice = sum(t.counts["model_calls"] for t in choice)
    assert [t.counts["covered_facts"] for t in choice] == [t.counts["covered_facts"] for t in results]
    print(f"  model questions per fact with multiple choice: {with_choice / n_facts:.2f} against one-to-one "
          f"{staged / n_facts:.2f} (ratio {with_choice / max(staged, 1):.3f})")


def lexical_chooser(checker):
    """A stand-in for the LLM's multiple-choice answer: the first candidate the lexical judge accepts."""
    def choose(questions):
        answers = checker([(sentence, fact) for candidates, fact in questions for sentence in candidates])
        out, position = [], 0
        for candidates, _ in questions:
            verdicts = answers[position:position + len(candidates)]
            position += len(candidates)
            out.append([i for i, verdict in enumerate(verdicts) if verdict][:1])
        return out
    return choose


def bench_comprehensiveness(name: str, reports: dict[tuple[str, str], list[str]]) -> None:
    from argue_eval.measures.comprehensiveness import score_topic

    topics = read_nugget_topics(str(REPO / "nuggets" / "sample" / "nuggets.jsonl"))
    atoms = {t: [Fact(f"{n.nugget_id}#{i + 1}", a.text, n.question, (a.text,))
                 for n in topic.nuggets if not n.negative for i, a in enumerate(n.answers)]
             for t, topic in topics.items()}
    checker = JudgeFactChecker(make_judge("lexical"))
    judged = total = 0
    start = time.perf_counter()
    for (_, topic), sentences in reports.items():
        counts, _ = score_topic(sentences, atoms[topic], checker)
        judged += counts["pairs_judged"]
        total += counts["pairs_all"]
    seconds = time.perf_counter() - start
    print(f"comprehensiveness, {name}: {len(reports)} reports; pairs judged {judged} of {total} "
          f"(ratio {judged / total:.3f}); {checker.calls} distinct questions; "
          f"{1000 * seconds / len(reports):.1f} ms per report")


def bench_icat(name: str, reports: dict[tuple[str, str], list[str]], index: PassageIndex) -> None:
    topics = read_nugget_topics(str(REPO / "nuggets" / "sample" / "nuggets.jsonl"))
    aspects = {t: [Aspect(n.nugget_id, n.question, frozenset(d for a in n.answers for d in a.doc_ids))
                   for n in topic.nuggets if not n.negative] for t, topic in topics.items()}
    items = [ReportClaims(run, topic, sentences) for (run, topic), sentences in reports.items()]
    claims = list(dict.fromkeys(c for item in items for c in item.claims))
    start = time.perf_counter()
    index.search(claims, 10)
    retrieval = time.perf_counter() - start
    entailer = JudgeEntailer(make_judge("lexical"))
    start = time.perf_counter()
    icat_topics(items, aspects, index.search, entailer)
    total = time.perf_counter() - start
    n_claims = sum(len(item.claims) for item in items)
    print(f"ICAT, {name}: {n_claims} claims ({len(claims)} distinct), {entailer.calls} entailment questions")
    print(f"  {n_claims / total:.0f} claims/s with the lexical judge ({len(claims) / total:.0f} distinct claims/s); "
          f"retrieval alone {len(claims) / retrieval:.0f} distinct claims/s; ICAT / retrieval time "
          f"{total / retrieval:.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=40, help="generated runs (x 8 sample topics)")
    args = parser.parse_args()
    sample = sample_reports()
    larger = generated_round(sample, args.runs)
    embed = embedder()
    bench_longrecall("sample track", sample, embed)
    bench_longrecall(f"generated round ({args.runs} runs)", larger, embed)
    bench_comprehensiveness("sample track", sample)
    bench_comprehensiveness(f"generated round ({args.runs} runs)", larger)
    index = PassageIndex(list(iter_collection(REPO / "topics" / "sample" / "collection.jsonl")), "bm25",
                         ICAT_PASSAGES.words, stride=ICAT_PASSAGES.stride)
    bench_icat("sample track", sample, index)
    bench_icat(f"generated round ({args.runs} runs)", larger, index)


if __name__ == "__main__":
    main()
