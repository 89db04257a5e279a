"""Pooling strategies on hand-made runs with known pools (tests/fixtures/organizer/pool.*.trec).

The three runs, in trec_eval order (score desc, docno desc; the files are shuffled / tied on purpose):
  topic 10  A: a1 x a2 s   (a2 and x tie at 2.0 -> x first)      topic 2  A: a3
            B: x b1 s b2   (lines in the file are out of order)           C: c3
            C: c1 a1 b1 c2 (tab-separated)
"""
from __future__ import annotations

import csv
import math

import orjson
import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.errors import ArgueError
from argue_eval.formats.ranked import Rankings, load_rankings
from argue_eval.model import natural_key
from argue_eval.organizer.pooling import UNJUDGED, build_pool, rrf_scores


@pytest.fixture
def runs(fixtures):
    folder = fixtures / "organizer"
    return load_rankings([folder / "pool.C.trec", folder / "pool.A.trec", folder / "pool.B.trec"])


def test_runs_load_in_trec_order_sorted_by_name(runs):
    assert [run.name for run in runs] == ["A", "B", "C"]
    assert runs[0].topics == {"10": ["a1", "x", "a2", "s"], "2": ["a3"]}
    assert runs[1].topics == {"10": ["x", "b1", "s", "b2"]}
    assert runs[2].topics == {"10": ["c1", "a1", "b1", "c2"], "2": ["c3"]}


def test_depth_pool(runs):
    pool = build_pool(runs, "depth", depth=2)
    # Topic "2" sorts before "10" (natural order). Depth 2 of topic 10: A {a1, x}, B {x, b1}, C {c1, a1}.
    # Order: best rank (a1, x, c1 are somebody's first), then id: a1, c1, x; then b1 (rank 2).
    assert pool.topics == {"2": ["a3", "c3"], "10": ["a1", "c1", "x", "b1"]}
    assert list(pool.rows())[:2] == [("2", "a3", UNJUDGED, "0"), ("2", "c3", UNJUDGED, "0")]
    assert pool.sizes() == {"2": 2, "10": 4}


def test_contributions_count_pooled_and_unique_documents(runs):
    table = {(run, topic, metric): value for run, topic, metric, value in build_pool(runs, "depth", depth=2).contributions()}
    # Topic 10 at depth 2: a1 is in A's and C's top 2, x in A's and B's -> A adds nothing unique;
    # b1 is in B's top 2 only (C has it at rank 3, beyond the depth) -> B unique 1; c1 -> C unique 1.
    assert table[("A", "10", "pooled")] == 2 and table[("A", "10", "unique")] == 0
    assert table[("B", "10", "pooled")] == 2 and table[("B", "10", "unique")] == 1
    assert table[("C", "10", "unique")] == 1
    # Topic 2: B has nothing; A and C one unique document each.
    assert table[("B", "2", "pooled")] == 0
    assert (table[("A", "all", "pooled")], table[("A", "all", "unique")]) == (3, 1)
    assert (table[("C", "all", "pooled")], table[("C", "all", "unique")]) == (3, 2)


def test_rrf_pool_order_and_budget(runs):
    pool = build_pool(runs, "rrf", depth=4, budget=5)
    # RRF with k = 60 on topic 10: a1 = 1/61 + 1/62 (A1, C2) and x = 1/62 + 1/61 (A2, B1) tie -> id order;
    # b1 = 1/62 + 1/63 = .032002; s = 1/64 + 1/63 = .031498; c1 = 1/61 = .016393; then a2 1/63, b2 = c2 1/64.
    assert pool.topics["10"] == ["a1", "x", "b1", "s", "c1"]
    assert pool.fused_scores["10"]["a1"] == pool.fused_scores["10"]["x"]
    assert pool.fused_scores["10"]["b1"] == pytest.approx(1 / 62 + 1 / 63)
    assert build_pool(runs, "rrf", depth=4).topics["10"] == ["a1", "x", "b1", "s", "c1", "a2", "b2", "c2"]


def test_rrf_sums_exactly_so_equal_rank_sets_tie():
    # p has ranks (1, 2, 7) in runs (A, B, C) and q has (7, 1, 2): the same three terms. Summed left to
    # right in run order they differ in the last bit (0.0474478480153437 vs ...369), which would rank p
    # first by accident; fsum gives both the exactly rounded sum, so they tie and the id decides (aa-q).
    fill = [f"f{i}" for i in range(10)]
    a = Rankings("A", {"1": ["zz-p", *fill[:5], "aa-q"]})
    b = Rankings("B", {"1": ["aa-q", "zz-p"]})
    c = Rankings("C", {"1": ["g", "aa-q", *fill[5:9], "zz-p"]})
    naive = [(1 / 61 + 1 / 62) + 1 / 67, (1 / 67 + 1 / 61) + 1 / 62]
    assert naive[0] != naive[1]
    scores = rrf_scores([run.topics["1"] for run in (a, b, c)])
    assert scores["zz-p"] == scores["aa-q"] == math.fsum([1 / 61, 1 / 62, 1 / 67])
    assert build_pool([a, b, c], "rrf", depth=None, budget=2).topics["1"] == ["aa-q", "zz-p"]


def test_rrf_scores_match_ranx(runs):
    from ranx import Run
    from ranx.fusion import rrf

    lists = [run.top("10", 4) for run in runs]
    ours = rrf_scores(lists, 60)
    theirs = rrf([Run({"10": {doc: float(len(docs) - i) for i, doc in enumerate(docs)}}) for docs in lists], k=60)
    assert set(theirs.run["10"]) == set(ours)
    for doc_id, score in ours.items():
        assert theirs.run["10"][doc_id] == pytest.approx(score, rel=1e-12)


def test_move_to_front_without_judgments_is_round_robin(runs):
    # All priorities 0: A takes a1 (non-relevant -> A -1), B takes x, C takes c1; then A again (lowest
    # name among priority -1): x is pooled already (skipped at no cost), a2 is new. Budget 4 reached.
    assert build_pool(runs, "mtf", depth=4, budget=4).topics["10"] == ["a1", "x", "c1", "a2"]


def test_move_to_front_keeps_a_run_while_it_finds_relevant_documents(runs):
    judged = {"10": {"x": 1, "b1": 2, "s": 0}}
    # A: a1 non-relevant (A -1). B: x relevant, b1 relevant, s non-relevant (B -1). C: c1 (C -1).
    # Then A (first of the -1s): x pooled, a2 new.
    pool = build_pool(runs, "mtf", depth=4, budget=6, judged=judged)
    assert pool.topics["10"] == ["a1", "x", "b1", "s", "c1", "a2"]


def test_budget_pool_fills_levels_by_support(runs):
    # Level 1: a1, x, c1 (one run each) -> id order a1, c1, x. Level 2: x, b1, a1 -> only b1 is new.
    # Level 3: a2 (A), s (B), b1 (C) -> new a2, s with support 1 each -> a2 first; budget 5 stops there.
    assert build_pool(runs, "budget", depth=4, budget=5).topics["10"] == ["a1", "c1", "x", "b1", "a2"]
    assert build_pool(runs, "budget", depth=4, budget=50).topics["10"] == ["a1", "c1", "x", "b1", "a2", "s", "b2", "c2"]


def test_topics_option_restricts_and_completes(runs):
    pool = build_pool(runs, "depth", depth=1, topics=["10", "99"])
    assert pool.topics == {"10": ["a1", "c1", "x"], "99": []}


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"strategy": "budget"}, "needs --budget"),
        ({"strategy": "mtf"}, "needs --budget"),
        ({"strategy": "depth", "budget": 3}, "does not apply"),
        ({"strategy": "nope"}, "unknown pooling strategy"),
        ({"depth": 0}, "at least 1"),
    ],
)
def test_bad_options_are_errors(runs, kwargs, message):
    with pytest.raises(ArgueError, match=message):
        build_pool(runs, **kwargs)


def test_report_runs_pool_cited_documents_in_first_citation_order(fixtures):
    (run,) = load_rankings([fixtures / "organizer" / "report.neuclir24.jsonl"])
    assert run.name == "team-a-run1"
    assert run.topics == {
        "101": ["a1f3c2e0-1111-4a2b-9c3d-000000000001", "a1f3c2e0-3333-4a2b-9c3d-000000000003", "a1f3c2e0-2222-4a2b-9c3d-000000000002"]
    }
    assert build_pool([run], "depth", depth=2).topics["101"] == run.topics["101"][:2]


def test_same_run_name_in_two_files_is_disambiguated(tmp_path, fixtures):
    other = tmp_path / "copy.trec"
    other.write_text((fixtures / "organizer" / "pool.A.trec").read_text())
    names = [run.name for run in load_rankings([fixtures / "organizer" / "pool.A.trec", other])]
    assert names == ["A@copy.trec", "A@pool.A.trec"]


def test_natural_topic_order():
    assert sorted(["10", "2", "t10", "t2", "1a"], key=natural_key) == ["1a", "2", "10", "t2", "t10"]


def test_pool_command_writes_pool_tables_and_package(tmp_path, fixtures):
    folder = fixtures / "organizer"
    out = tmp_path / "pool.qrels"
    package = tmp_path / "pool.csv"
    args = ["pool", str(folder / "pool.A.trec"), "--runs", str(folder / "pool.B.trec"), "--runs", str(folder / "pool.C.trec"),
            "--depth", "2", "-o", str(out), "--package", str(package)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "pooled 6 documents for 2 topics from 3 runs" in result.output
    assert out.read_text().splitlines() == ["2 0 a3 -1", "2 0 c3 -1", "10 0 a1 -1", "10 0 c1 -1", "10 0 x -1", "10 0 b1 -1"]
    assert (tmp_path / "pool.qrels.sizes.tsv").read_text() == "request_id\tdocuments\n2\t2\n10\t4\nall\t6\n"
    contributions = (tmp_path / "pool.qrels.runs.tsv").read_text().splitlines()
    assert contributions[0] == "run_id\trequest_id\tmetric\tvalue"
    assert "B\t10\tunique\t1" in contributions
    rows = list(csv.DictReader(package.open()))
    assert [(r["request_id"], r["doc_id"], r["pool_rank"], r["relevance"]) for r in rows[:3]] == [
        ("2", "a3", "1", ""), ("2", "c3", "2", ""), ("10", "a1", "1", "")
    ]
    # Reruns are byte-identical.
    first = out.read_bytes(), package.read_bytes()
    assert CliRunner().invoke(cli, args).exit_code == 0
    assert (out.read_bytes(), package.read_bytes()) == first


def test_pool_package_carries_document_text(tmp_path, fixtures):
    collection = tmp_path / "docs.jsonl"
    collection.write_text(
        "".join(orjson.dumps({"doc_id": d, "title": f"T{d}", "text": f"text of {d}"}).decode() + "\n"
                for d in ["a1", "x", "c1", "b1", "a3", "c3"])
    )
    package = tmp_path / "pool.jsonl"
    folder = fixtures / "organizer"
    result = CliRunner().invoke(cli, [
        "pool", str(folder / "pool.A.trec"), str(folder / "pool.B.trec"), str(folder / "pool.C.trec"), "--depth", "2",
        "-o", str(tmp_path / "p.qrels"), "--package", str(package), "--collection", str(collection),
    ])
    assert result.exit_code == 0, result.output
    first = orjson.loads(package.read_text().splitlines()[0])
    assert first == {"request_id": "2", "doc_id": "a3", "pool_rank": 1, "relevance": None, "title": "Ta3", "text": "text of a3"}


def test_pool_command_errors_are_one_line(tmp_path, fixtures):
    result = CliRunner().invoke(cli, ["pool", str(fixtures / "organizer" / "pool.A.trec"), "--strategy", "budget", "-o", str(tmp_path / "p")])
    assert result.exit_code == 2
    assert result.output.strip() == "the budget strategy needs --budget (documents per topic)"


def _random_runs(folder, seed=3):
    """Messy ranked runs: heavy score ties, repeated documents, two tags in one file, one tag in two files."""
    import random

    rng = random.Random(seed)
    topics = ["1", "2", "10", "t3"]
    docs = [f"d{i}" for i in range(12)] + ["msmarco_v2.1_doc_11_1042#3_2265", "2024-105741"]
    paths = []
    for index, tags in enumerate([["A"], ["B", "C"], ["A"], ["D"], ["E"], ["F"]]):
        lines = []
        for tag in tags:
            for topic in rng.sample(topics, rng.randint(1, 4)):
                for rank in range(1, rng.randint(2, 15)):
                    score = rng.choice([1.0, 2.0, 2.5, 3.0, 0.1 + 0.2])
                    sep = "\t" if rng.random() < 0.2 else " "
                    lines.append(sep.join([topic, "Q0", rng.choice(docs), str(rank), repr(score), tag]) + "\n")
        rng.shuffle(lines)
        path = folder / f"run{index}.trec"
        path.write_text("".join(lines))
        paths.append(path)
    return paths


def _reference_rankings(paths):
    """The runs built line by line, independently of the column reader and numpy: ``read_trec_run`` rows
    grouped by tag and topic, put in trec_eval order with ``trec_order``, repeats dropped (first place kept),
    a tag found in several files named ``tag@file``; sorted by name."""
    from collections import Counter

    from argue_eval.formats.ranked import read_trec_run, trec_order

    per_file = []
    for path in paths:
        runs: dict = {}
        for row in read_trec_run(path):
            runs.setdefault(row.run_id, {}).setdefault(row.request_id, []).append((row.doc_id, row.score))
        per_file.append((path, runs))
    files_per_tag = Counter(tag for _, runs in per_file for tag in runs)
    result = []
    for path, runs in per_file:
        for tag, topics in runs.items():
            name = tag if files_per_tag[tag] == 1 else f"{tag}@{path.name}"
            ordered = {topic: list(dict.fromkeys(doc for doc, _ in trec_order(pairs))) for topic, pairs in topics.items()}
            result.append(Rankings(name, ordered, str(path)))
    return sorted(result, key=lambda run: run.name)


@pytest.mark.parametrize("depth", [1, 3, None])
@pytest.mark.parametrize("topics", [None, ["2", "99", "t3"]])
def test_fast_depth_pool_equals_reference(tmp_path, depth, topics):
    from argue_eval.organizer.pooling import pool_files

    paths = _random_runs(tmp_path)
    reference = build_pool(_reference_rankings(paths), "depth", depth, topics=topics)
    fast = pool_files(paths, "depth", depth, topics=topics)
    assert fast.precomputed_contributions is not None  # the vectorized path was taken
    assert fast.topics == reference.topics
    assert fast.contributions() == reference.contributions()
    assert fast.run_count == reference.run_count == 7


def test_ordered_arrays_give_the_reference_rankings(tmp_path):
    from argue_eval.formats.ranked import order_ranked_files

    paths = _random_runs(tmp_path, seed=11)
    fast = order_ranked_files(paths).rankings()
    reference = _reference_rankings(paths)
    assert [run.topics for run in load_rankings(paths)] == [run.topics for run in reference]
    assert [run.name for run in fast] == [run.name for run in reference] == ["A@run0.trec", "A@run2.trec", "B", "C", "D", "E", "F"]
    assert [run.topics for run in fast] == [run.topics for run in reference]
    for strategy, budget in [("rrf", 5), ("mtf", 4), ("budget", 6)]:
        assert build_pool(fast, strategy, 10, budget).topics == build_pool(reference, strategy, 10, budget).topics


def test_pool_command_with_requests_reports_dropped_topics(tmp_path, fixtures):
    requests = tmp_path / "requests.jsonl"
    requests.write_text('{"request_id": "10", "title": "t", "background": "", "problem_statement": "p", "limit": 100, '
                        '"limit_unit": "chars", "collection_ids": [], "language": null, "aspects": []}\n')
    folder = fixtures / "organizer"
    out = tmp_path / "pool.qrels"
    for extra in ([], ["--strategy", "rrf"]):
        result = CliRunner().invoke(cli, ["pool", str(folder / "pool.A.trec"), str(folder / "pool.C.trec"), "--depth", "1",
                                          "--requests", str(requests), "-o", str(out), *extra])
        assert result.exit_code == 0, result.output
        assert "warning: 1 topic(s) of the runs are not in" in result.output and "were not pooled: 2" in result.output
        assert out.read_text().splitlines() == ["10 0 a1 -1", "10 0 c1 -1"]
