"""Retrieval measures (ir_measures over the C trec_eval and ndeval by default; ranx on request) with trec_eval semantics (tie order, -c), checked by hand and against trec_eval.

Fixture (tests/fixtures/organizer/retrieval.*):
  qrels  t1: d1=2 d2=1 d3=0 d4=1   t2: e1=1   t3: f1=0 (no relevant document)
  run    t1: d3 5.0, d1 4.0, d2 4.0, d9 3.0, d4 1.0   t4: g1 (not in the qrels: ignored)
trec_eval order of t1: d3, d2, d1, d9, d4 (tie at 4.0 -> docno descending), grades 0 1 2 0 1, R = 3.
  P@2 = 1/2;  P@5 = 3/5;  recip_rank = 1/2;  recall@3 = 2/3
  AP = (1/2 + 2/3 + 3/5) / 3 = 0.5888889
  nDCG@3: DCG = 1/log2(3) + 2/log2(4) = 1.6309298; ideal (2, 1, 1) = 2 + 1/log2(3) + 1/2 = 3.1309298
          -> 0.5209063 (the other tie order would give (2/log2(3) + 1/2) / 3.1309298 = 0.5627)
With -c every qrels topic counts (t1, t2, t3; t2 and t3 score 0): means are t1's values / 3.
"""
from __future__ import annotations

import math
import subprocess

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.errors import ArgueError, InputError
from argue_eval.formats.ranked import Rankings
from argue_eval.inputs.retrieval import load_runs, ranked_run_rankings, read_subtopic_qrels
from argue_eval.measures.retrieval import collapse_subtopics, evaluate, parse_measures
from argue_eval.organizer.qrels import read_qrels

pytestmark = pytest.mark.filterwarnings("ignore::numba.core.errors.NumbaTypeSafetyWarning")

AP_T1 = (1 / 2 + 2 / 3 + 3 / 5) / 3
NDCG3_T1 = (1 / math.log2(3) + 2 / math.log2(4)) / (2 + 1 / math.log2(3) + 1 / 2)
MEASURES = "ndcg@3 map P@2 P@5 recip_rank recall@3"
EXPECTED_T1 = {"ndcg@3": NDCG3_T1, "map": AP_T1, "P@2": 0.5, "P@5": 0.6, "recip_rank": 0.5, "recall@3": 2 / 3}


@pytest.fixture
def qrels(fixtures):
    return read_qrels(fixtures / "organizer" / "retrieval.qrels")


@pytest.fixture
def tie_run(fixtures):
    return ranked_run_rankings(fixtures / "organizer" / "retrieval.tie.trec")


def _table(rows):
    return {(run, topic, metric): value for run, topic, metric, value in rows}


# The [ranx] cases name ranx in their ids, so that `pytest -n` runs them in one worker, where ranx's kernels
# compile (on a fresh install) or load once (tests/scheduling.py).
ENGINES = pytest.mark.parametrize("engine", ["ir_measures", "ranx"])


@ENGINES
def test_hand_computed_values_with_ties_and_missing_topics(qrels, tie_run, engine):
    assert tie_run[0].topics["t1"] == ["d3", "d2", "d1", "d9", "d4"]
    table = _table(evaluate(qrels, tie_run, MEASURES, engine=engine))
    for measure, value in EXPECTED_T1.items():
        assert table[("tie", "t1", measure)] == pytest.approx(value, abs=1e-9)
        assert table[("tie", "t2", measure)] == 0.0
        assert table[("tie", "t3", measure)] == 0.0
        assert table[("tie", "all", measure)] == pytest.approx(value / 3, abs=1e-9)
    assert not any(topic == "t4" for _, topic, _ in table)


def test_skip_policy_averages_only_shared_topics(qrels, tie_run):
    table = _table(evaluate(qrels, tie_run, "map ndcg@3", missing="skip"))
    assert {topic for _, topic, _ in table} == {"t1", "all"}
    assert table[("tie", "all", "map")] == pytest.approx(AP_T1)


def test_rows_are_ordered_per_run_topic_measure(qrels, tie_run):
    rows = evaluate(qrels, tie_run, "map P@2")
    assert [(t, m) for _, t, m, _ in rows] == [
        ("t1", "map"), ("t1", "P@2"), ("t2", "map"), ("t2", "P@2"), ("t3", "map"), ("t3", "P@2"), ("all", "map"), ("all", "P@2")
    ]


def test_run_order_is_explicit_not_rank_column(tmp_path, qrels):
    # Same documents, rank column reversed: trec_eval (and we) ignore it.
    path = tmp_path / "r.trec"
    path.write_text("t1 Q0 d4 1 1.0 r\nt1 Q0 d9 2 3.0 r\nt1 Q0 d2 3 4.0 r\nt1 Q0 d1 4 4.0 r\nt1 Q0 d3 5 5.0 r\n")
    assert _table(evaluate(qrels, ranked_run_rankings(path), "ndcg@3"))[("r", "t1", "ndcg@3")] == pytest.approx(NDCG3_T1)


def test_duplicate_document_in_a_ranked_run_is_an_error(tmp_path):
    path = tmp_path / "r.trec"
    path.write_text("t1 Q0 d1 1 2.0 r\nt1 Q0 d1 2 1.0 r\n")
    with pytest.raises(InputError, match="run 'r', topic 't1': document 'd1' is ranked twice"):
        ranked_run_rankings(path)


def test_two_files_of_one_name_and_tag_are_told_apart_from_one_file_given_twice(tmp_path, fixtures):
    qrels = str(fixtures / "organizer" / "retrieval.qrels")
    (tmp_path / "d2").mkdir()
    for path in (tmp_path / "a.trec", tmp_path / "d2" / "a.trec"):
        path.write_text("t1 Q0 d1 1 2.0 r\n")

    def run(*files):
        return CliRunner().invoke(cli, ["retrieval", "--qrels", qrels, *[f for path in files for f in ("--run", path)],
                                        "-m", "map"])

    twice = run(str(tmp_path / "a.trec"), str(tmp_path / "a.trec"))
    assert twice.exit_code == 2 and "the same run appears twice (r@a.trec); give each run file once" in twice.output
    namesakes = run(str(tmp_path / "a.trec"), str(tmp_path / "d2" / "a.trec"))
    assert namesakes.exit_code == 2
    assert "runs r@a.trec come from different files with the same name and run tag" in namesakes.output
    assert str(tmp_path / "d2" / "a.trec") in namesakes.output and "Traceback" not in namesakes.output


def test_cited_documents_are_ranked_by_first_citation(fixtures):
    (run,) = load_runs([fixtures / "organizer" / "report.neuclir24.jsonl"])
    qrels = read_qrels(fixtures / "organizer" / "qrels.trec")
    # Cited order 1111 (grade 3), 3333 (grade 0), 2222 (grade 1); relevant: 1111 and 2222, R = 2.
    # P@2 = 1/2; AP = (1/1 + 2/3) / 2 = 0.8333333; recall@2 = 1/2.
    table = _table(evaluate(qrels, [run], "P@2 map recall@2"))
    assert table[("team-a-run1", "101", "P@2")] == pytest.approx(0.5)
    assert table[("team-a-run1", "101", "map")] == pytest.approx((1 + 2 / 3) / 2)
    assert table[("team-a-run1", "101", "recall@2")] == pytest.approx(0.5)


def test_empty_ranking_scores_zero():
    table = _table(evaluate({"1": {"a": 1}, "2": {"b": 1}}, [Rankings("r", {"1": [], "2": ["b"]})], "map"))
    assert table[("r", "1", "map")] == 0.0 and table[("r", "2", "map")] == 1.0 and table[("r", "all", "map")] == 0.5


@pytest.mark.parametrize(
    "text, ranx",
    [("P_10", "precision@10"), ("P@5", "precision@5"), ("P.5", "precision@5"), ("ndcg_cut_20", "ndcg@20"),
     ("recip_rank", "mrr"), ("Rprec", "r-precision"), ("success_10", "hit_rate@10"), ("ndcg@10-l2", "ndcg@10-l2"),
     ("map", "map"), ("recall@100", "recall@100"), ("rbp.95", "rbp.95"), ("f1", "f1"), ("F1@5", "f1@5"), ("bpref-l2", "bpref-l2")],
)
def test_measure_names(text, ranx):
    assert parse_measures(text)[0].ranx == ranx


def test_unknown_measure_is_a_clear_error():
    with pytest.raises(ArgueError, match="unknown measure 'ndgc@10'"):
        parse_measures("ndgc@10")


def test_retrieval_command_writes_long_scores(tmp_path, fixtures):
    folder = fixtures / "organizer"
    out = tmp_path / "scores.tsv"
    result = CliRunner().invoke(cli, ["retrieval", "--qrels", str(folder / "retrieval.qrels"), "--run", str(folder / "retrieval.tie.trec"),
                                      "-m", "map P@2", "-o", str(out)])
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()
    assert lines[0] == "run_id\trequest_id\tmetric\tvalue"
    assert lines[1] == f"tie\tt1\tmap\t{AP_T1!r}"
    assert lines[-1] == f"tie\tall\tP@2\t{0.5 / 3!r}"


def test_retrieval_command_with_nuggets_as_relevance(fixtures):
    folder = fixtures / "organizer"
    result = CliRunner().invoke(cli, ["retrieval", "--nuggets", str(folder / "nuggets.neuclir24-sample-eval.jsonl"),
                                      str(folder / "report.neuclir24.jsonl"), "-m", "P@3"])
    assert result.exit_code == 0, result.output
    # Nugget bindings make 1111, 2222 and 3333 relevant (the "2014" answer cites all three): P@3 = 1.
    assert "team-a-run1\t101\tP@3\t1.0" in result.output


# bpref fixture: judged r1 = r2 = 1 (R = 2), n1 = n2 = 0 (N = 2), u = -1 (pooled, not judged); x unjudged.
BPREF_QRELS = {"b1": {"r1": 1, "r2": 1, "n1": 0, "n2": 0, "u": -1}, "b2": {"r1": 1, "r2": 1}}
BPREF_RUN = Rankings("b", {"b1": ["n1", "u", "r1", "x", "n2", "r2"], "b2": ["x", "r1"]})


@ENGINES
def test_bpref_follows_trec_eval(engine):
    table = _table(evaluate(BPREF_QRELS, [BPREF_RUN], "bpref map", engine=engine))
    # b1: r1 has one judged non-relevant document above it (n1; u and x are unjudged): 1 - min(1, 2)/min(2, 2)
    # = 0.5; r2 has two (n1, n2): 1 - 2/2 = 0; bpref = (0.5 + 0) / 2 = 0.25. ranx, counting u as judged
    # non-relevant, would give 0.
    assert table[("b", "b1", "bpref")] == pytest.approx(0.25)
    # b2 has no judged non-relevant document (N = 0): each relevant document retrieved scores 1 (trec_eval's
    # special case; ranx divides by zero): 1 / R = 0.5.
    assert table[("b", "b2", "bpref")] == pytest.approx(0.5)
    # A grade of -1 is not relevant for the other measures either: b1's relevant documents are at ranks 3
    # and 6: AP = (1/3 + 2/6) / 2 = 1/3.
    assert table[("b", "b1", "map")] == pytest.approx(1 / 3)


@ENGINES
def test_topics_without_judged_documents_score_zero(engine):
    # A pool file used as qrels by mistake (every grade -1) and a nugget topic with no bound document: every
    # measure is 0 (nothing is relevant), the topics still count under -c, and nothing crashes.
    # (Ids of two characters, as in the other ranx cases: ranx compiles its kernels once per id width, a minute each.)
    run = [Rankings("r", {"q1": ["a1", "b1"], "q2": ["c1"], "q3": ["d1"]})]
    table = _table(evaluate({"q1": {"a1": -1, "b1": -1}, "q2": {}, "q3": {"d1": 1}}, run, "map bpref ndcg@2",
                            engine=engine))
    assert [table[("r", topic, "map")] for topic in ("q1", "q2", "q3")] == [0.0, 0.0, 1.0]
    assert table[("r", "all", "map")] == pytest.approx(1 / 3) and table[("r", "all", "bpref")] == pytest.approx(1 / 3)
    table = _table(evaluate({"q1": {"a1": -1}}, run, "map", engine=engine))
    assert table[("r", "q1", "map")] == table[("r", "all", "map")] == 0.0


@ENGINES
def test_negative_grades_are_unjudged_not_relevant(engine):
    run = [Rankings("r", {"q1": ["a1", "b1"]})]
    table = _table(evaluate({"q1": {"a1": -1, "b1": 1}}, run, "P@1 map ndcg@2", engine=engine))
    # a1 is not relevant: P@1 = 0; AP = (1/2) / 1 = 0.5; nDCG@2 = (1/log2(3)) / 1 = 0.6309298.
    assert (table[("r", "q1", "P@1")], table[("r", "q1", "map")]) == (0.0, 0.5)
    assert table[("r", "q1", "ndcg@2")] == pytest.approx(1 / math.log2(3))


@pytest.mark.search
def test_bpref_and_negative_grades_agree_with_trec_eval(tmp_path):
    """The bpref fixture above through the real trec_eval (Anserini's jar), which reads -1 as unjudged."""
    from argue_eval.errors import MissingDependencyError
    from argue_eval.java import anserini_jar, find_java

    try:
        java, jar = find_java(), anserini_jar()
    except MissingDependencyError as error:
        pytest.skip(str(error))
    qrels = tmp_path / "q.trec"
    qrels.write_text("".join(f"{t} 0 {d} {g}\n" for t, docs in BPREF_QRELS.items() for d, g in docs.items()))
    run = tmp_path / "r.trec"
    run.write_text("".join(f"{t} Q0 {d} {i + 1} {10 - i} b\n" for t, docs in BPREF_RUN.topics.items() for i, d in enumerate(docs)))
    output = subprocess.run([str(java.java), "-cp", str(jar), "trec_eval", "-c", "-q", "-m", "bpref", "-m", "map", str(qrels), str(run)],
                            capture_output=True, text=True, timeout=120, check=True).stdout
    theirs = {(line.split()[0], line.split()[1]): float(line.split()[2]) for line in output.splitlines() if line.strip()}
    ours = _table(evaluate(read_qrels(qrels), ranked_run_rankings(run), "bpref map"))
    assert theirs == {(m, t): pytest.approx(ours[("b", t, m)], abs=5e-5) for m in ("bpref", "map") for t in ("b1", "b2", "all")}


@pytest.mark.search
def test_agrees_with_trec_eval(tmp_path, fixtures):
    """Cross-check with the real trec_eval shipped in Anserini's jar (search extra, Java 21+)."""
    from argue_eval.errors import MissingDependencyError
    from argue_eval.java import anserini_jar, find_java

    try:
        java, jar = find_java(), anserini_jar()
    except MissingDependencyError as error:
        pytest.skip(str(error))
    folder = fixtures / "organizer"
    names = {"ndcg_cut.3": "ndcg_cut_3", "map": "map", "P.2,5": None, "recip_rank": "recip_rank", "recall.3": "recall_3"}
    command = [str(java.java), "-cp", str(jar), "trec_eval", "-c", "-q"]
    for name in names:
        command += ["-m", name]
    output = subprocess.run(command + [str(folder / "retrieval.qrels"), str(folder / "retrieval.tie.trec")],
                            capture_output=True, text=True, timeout=120, check=True).stdout
    theirs = {(line.split()[0], line.split()[1]): float(line.split()[2]) for line in output.splitlines() if line.strip()}
    ours = _table(evaluate(read_qrels(folder / "retrieval.qrels"), ranked_run_rankings(folder / "retrieval.tie.trec"),
                           "ndcg_cut_3 map P_2 P_5 recip_rank recall_3"))
    compared = 0
    for (measure, topic), value in theirs.items():
        if (("tie", topic, measure)) in ours:
            assert ours[("tie", topic, measure)] == pytest.approx(value, abs=5e-5), (measure, topic)
            compared += 1
    assert compared == 12  # six measures for t1 and for "all" (trec_eval prints 4 decimals)


# --- measures the trec_eval engine adds (ir_measures: pytrec_eval, pyndeval; ERR@k here) -------------------------


def test_infap_judged_err_and_derived_measures_by_hand(qrels, tie_run):
    table = _table(evaluate(qrels, tie_run, "infAP ERR@5 judged@2 judged@5 f1@5 hits@5 success@1 success@2"))
    # t1 ranking d3 d2 d1 d9 d4, grades 0 1 2 - 1. Every retrieved document but d9 is judged and d9 is not in
    # the pool, so infAP = AP up to trec_eval's smoothing epsilon (1e-5).
    assert table[("tie", "t1", "infAP")] == pytest.approx(AP_T1, abs=1e-5)
    # ERR@5 with gdeval gains R = (2^g - 1)/16: R = 0, 1/16, 3/16, 0, 1/16.
    err5 = (1 / 16) / 2 + (15 / 16) * (3 / 16) / 3 + (15 / 16) * (13 / 16) * (1 / 16) / 5
    assert table[("tie", "t1", "ERR@5")] == pytest.approx(err5, abs=1e-12)
    assert (table[("tie", "t1", "judged@2")], table[("tie", "t1", "judged@5")]) == (1.0, 0.8)  # d9 unjudged
    # P@5 = 3/5, R@5 = 3/3: F1 = 2 * 0.6 / 1.6 = 0.75; three relevant documents in the top 5; first relevant at 2.
    assert table[("tie", "t1", "f1@5")] == pytest.approx(0.75) and table[("tie", "t1", "hits@5")] == 3.0
    assert (table[("tie", "t1", "success@1")], table[("tie", "t1", "success@2")]) == (0.0, 1.0)


def test_infap_reads_negative_grades_as_unsampled():
    # b1: r1 at rank 3 below n1 (judged non-relevant) and u (-1: pooled, not sampled); r2 at rank 6 below
    # n1, u, r1, x (not pooled), n2. infAP (Yilmaz & Aslam 2006, trec_eval's epsilon 1e-5): the expected
    # precision at a relevant document's rank k is 1/k + ((k-1)/k) * (pooled above / (k-1)) * (rel + e) /
    # (rel + nonrel + 2e) over the judged documents above it.
    e = 1e-5
    at3 = 1 / 3 + (2 / 3) * (2 / 2) * (0 + e) / (0 + 1 + 2 * e)
    at6 = 1 / 6 + (5 / 6) * (4 / 5) * (1 + e) / (1 + 2 + 2 * e)
    table = _table(evaluate(BPREF_QRELS, [BPREF_RUN], "infAP"))
    assert table[("b", "b1", "infAP")] == pytest.approx((at3 + at6) / 2, abs=1e-12)


DIVERSITY_QRELS = "w1 1 a 1\nw1 1 b 1\nw1 2 c 1\nw1 2 z 0\n"


def test_diversity_measures_by_hand(tmp_path):
    path = tmp_path / "div.qrels"
    path.write_text(DIVERSITY_QRELS)
    subtopics = read_subtopic_qrels(path)
    assert subtopics == {"w1": {"1": {"a": 1, "b": 1}, "2": {"c": 1, "z": 0}}}
    run = [Rankings("d", {"w1": ["a", "b", "c"]})]
    table = _table(evaluate(collapse_subtopics(subtopics), run, "alpha-nDCG@3 ERR-IA@3 nERR-IA@3 P@3", subtopics=subtopics))
    # alpha-nDCG (alpha 0.5): gains a 1 (subtopic 1, first), b 0.5 (subtopic 1, second), c 1 (subtopic 2, first);
    # the ideal order a c b: gains 1 1 0.5.
    ideal = 1 + 1 / math.log2(3) + 0.5 / 2
    assert table[("d", "w1", "alpha-nDCG@3")] == pytest.approx((1 + 0.5 / math.log2(3) + 1 / 2) / ideal, abs=1e-12)
    # ERR-IA (ndeval): per subtopic, ERR with stop probability 0.5 per relevant document; subtopic 1: a 0.5/1,
    # b 0.5*0.5/2; subtopic 2: c 0.5/3; averaged over subtopics, divided by ERR of a ranking relevant at every
    # rank (0.5 + 0.25/2 + 0.125/3, ndeval's collection-independent normalisation). nERR-IA divides by the
    # ideal ranking's (a c b: subtopic 1 0.5 + 0.25/3, subtopic 2 0.5/2).
    mean = ((0.5 + 0.25 / 2) + 0.5 / 3) / 2
    assert table[("d", "w1", "ERR-IA@3")] == pytest.approx(mean / (0.5 + 0.25 / 2 + 0.125 / 3), abs=1e-12)
    assert table[("d", "w1", "nERR-IA@3")] == pytest.approx(mean / (((0.5 + 0.25 / 3) + 0.5 / 2) / 2), abs=1e-12)
    assert table[("d", "w1", "P@3")] == 1.0  # ad hoc view: a document's highest grade over subtopics


def test_diversity_measures_need_subtopic_qrels(qrels, tie_run):
    with pytest.raises(ArgueError, match="diversity measures need subtopic qrels"):
        evaluate(qrels, tie_run, "alpha-nDCG@20")
    with pytest.raises(ArgueError, match="needs a cutoff"):
        parse_measures("ERR-IA")


def test_ranx_only_and_trec_eval_only_measures_are_named(qrels, tie_run):
    with pytest.raises(ArgueError, match="add --engine ranx"):
        evaluate(qrels, tie_run, "dcg@3")
    with pytest.raises(ArgueError, match="ranx does not compute infAP"):
        evaluate(qrels, tie_run, "infAP", engine="ranx")


def test_trec_eval_text_output_reads_back(tmp_path, fixtures):
    from argue_eval.formats.scores import read_scores

    folder = fixtures / "organizer"
    out = tmp_path / "tie.q"
    result = CliRunner().invoke(cli, ["retrieval", "--qrels", str(folder / "retrieval.qrels"), str(folder / "retrieval.tie.trec"),
                                      "-m", "map P@2 ndcg@3", "--trec-eval", "-o", str(out)])
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()
    assert lines[0] == f"{'map':<22}\tt1\t{AP_T1:6.4f}"
    assert lines[1] == f"{'P_2':<22}\tt1\t0.5000" and lines[2].startswith("ndcg_cut_3 ")
    assert f"{'runid':<22}\tall\ttie" in lines and f"{'num_q':<22}\tall\t3" in lines
    back = {(r.run_id, r.request_id, r.metric): r.value for r in read_scores(out)}
    assert back[("tie", "all", "map")] == round(AP_T1 / 3, 4) and back[("tie", "t2", "P_2")] == 0.0


def test_retrieval_command_diversity(tmp_path):
    qrels_path = tmp_path / "div.qrels"
    qrels_path.write_text(DIVERSITY_QRELS)
    run_path = tmp_path / "d.trec"
    run_path.write_text("w1 Q0 a 1 3 d\nw1 Q0 b 2 2 d\nw1 Q0 c 3 1 d\n")
    result = CliRunner().invoke(cli, ["retrieval", "--qrels", str(qrels_path), "--diversity", str(run_path), "-m", "alpha-nDCG@3"])
    assert result.exit_code == 0, result.output
    row = next(line.split("\t") for line in result.output.splitlines() if line.startswith("d\tw1\t"))
    assert row[2] == "alpha-nDCG@3"
    assert float(row[3]) == pytest.approx((1 + 0.5 / math.log2(3) + 1 / 2) / (1 + 1 / math.log2(3) + 0.25), abs=1e-12)
    # Without --diversity, the same (topic, document) under two subtopics would be a duplicate judgment.
    qrels_path.write_text(DIVERSITY_QRELS + "w1 2 a 1\n")
    result = CliRunner().invoke(cli, ["retrieval", "--qrels", str(qrels_path), str(run_path), "-m", "P@3"])
    assert result.exit_code == 2


def test_small_runs_read_line_by_line_equal_the_vectorized_reader(tmp_path, fixtures):
    from argue_eval.formats.ranked import _rankings_line_by_line, order_ranked_files

    mixed = tmp_path / "mixed.trec"  # two tags, ties, a repeated document, topics out of order
    mixed.write_text("t2 Q0 b 1 1.0 x\nt10 Q0 a 1 2.0 x\nt10 Q0 c 2 2.0 x\nt10 Q0 a 3 0.5 x\nt1 Q0 z 1 1.0 y\n")
    paths = [fixtures / "organizer" / "retrieval.tie.trec", mixed] + sorted((fixtures.parent.parent / "runs" / "sample" / "ranked").glob("*.trec"))
    for path in paths:
        line_by_line = _rankings_line_by_line(path, "first")
        vectorized = order_ranked_files([path], repeats="first").rankings()
        assert [(r.name, r.topics) for r in line_by_line] == [(r.name, r.topics) for r in vectorized], path
    assert _rankings_line_by_line(mixed, "first")[0].topics["t10"] == ["c", "a"]
    with pytest.raises(InputError, match="run 'x', topic 't10': document 'a' is ranked twice"):
        _rankings_line_by_line(mixed, "error")
