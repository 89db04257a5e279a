"""Scoring an Auto-ARGUE judgments file the way Auto-ARGUE scores it (regression test for the replay).

What we learned replaying ARGUE-Viz's official example (hltcoe/argue-viz: a NeuCLIR 2024 run judged by
Auto-ARGUE, 19 topics with a report, a nugget directory of 22 topics, and Auto-ARGUE's score file):
``argue-eval score --nuggets example-nuggets/ --judgments example-report.judgments.jsonl
--missing-topics skip --table-format autoargue`` writes a file byte-identical to
``example-report.scores.tsv`` (368 values, all equal). In particular:

* without ``--run`` the reports embedded in the Auto-ARGUE judgments file are scored;
* a nugget question none of whose answers is bound to a document is not a nugget (topic 351: 11
  questions, ``nuggets`` 10), and an AND nugget needs its *bound* answers only: Auto-ARGUE's bank loader
  (argue-viz ``src/nugget_data.py``, ``filter_empty_citations``) drops unbound answers, then answerless
  questions -- our ``--unbound-questions drop`` default;
* a nugget matched in a sentence its citation does not attest still counts (topics 334, 380, 382);
* answers are matched verbatim, odd whitespace included (``"Thailand "``, double spaces);
* relevance from ``CITED_DOCUMENT_RELEVANCE`` (a lookup, evaluator ``"null"``) equals our default lookup;
* topics of the nugget bank without a report are not scored (324, 361, 387): ``--missing-topics skip``.
  Our default (docs/scoring.md) scores them 0, which changes the ``all`` rows;
* the score file holds 18 measures per topic and 26 ``all`` rows (``all`` first, floats such as ``263.0``):
  ``--table-format autoargue``. Our default table adds ``argue_precision``, ``outcome_*``,
  ``first_instance_sentences_missing_citation``, ``*_undefined``, ``topics`` and ``missing_topics``.

The fixtures below are hand-made (not ARGUE-Viz's data) in the same shapes, and every expected value is
computed here by hand.
"""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from argue_eval import score
from argue_eval.cli import cli
from argue_eval.formats.scores import AUTOARGUE_ALL_MEASURES, AUTOARGUE_TOPIC_MEASURES, autoargue_rows

FIXTURES = Path(__file__).parent / "fixtures" / "autoargue_replay"
NUGGETS = FIXTURES / "nuggets"
JUDGMENTS = FIXTURES / "report.judgments.jsonl"
RUN = "team-x-run1"


def sentence_texts(topic: str) -> list[str]:
    for line in JUDGMENTS.read_text().splitlines():
        obj = json.loads(line)
        if obj["report"]["metadata"]["topic_id"] == topic:
            return [segment["text"] for segment in obj["judgments"]]
    raise KeyError(topic)


def f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r)


def topic_values(sentences, swc, correctly_cited, nuggets, correct, citations, relevant, supporting, chars):
    support = correctly_cited / swc
    coverage = correct / nuggets
    return {
        "sentences": sentences, "character_count": chars,
        "sentences_with_citations_or_requiring_citations": swc, "correctly_cited_sentences": correctly_cited,
        "nuggets": nuggets, "nuggets_weighted": nuggets, "correct_nuggets": correct,
        "correct_nuggets_weighted": correct, "citations": citations, "relevant_citations": relevant,
        "supporting_citations": supporting, "citation_relevance": relevant / citations,
        "citation_support": supporting / citations, "sentence_support": support, "nugget_coverage": coverage,
        "nugget_coverage_weighted": coverage, "f1": f1(support, coverage), "f1_weighted": f1(support, coverage),
    }


# Topic 101: four sentences, one citation each, all relevant.
#   s0 cites d1: "August 2014" (OR nugget) and "microcystin" (AND nugget), attested
#   s1 cites d3: "phosphorus" (completes the AND nugget: "algae bloom" is unbound, so not required), attested
#   s2 cites d3: "Governor  Kasich " (verbatim bank answer), NOT attested -- the nugget still counts
#   s3 cites d2: no answer, attested
#   nuggets: 5 questions, "Which lake supplies Toledo?" has no bound answer -> 4 nuggets; found 3 ("three days" not)
# Topic 102: s0 cites d5 ("Ohio"), attested; s1 cites d6 ("2015", attested) and d9 (irrelevant, not attested).
# Topic 103: in the nugget bank, no report.
T101 = topic_values(4, 4, 3, 4, 3, 4, 4, 3, sum(len(t) for t in sentence_texts("101")))
T102 = topic_values(2, 2, 1, 2, 2, 3, 2, 2, sum(len(t) for t in sentence_texts("102")))


def expected_all(topics: list[dict[str, float]]) -> dict[str, float]:
    total = {name: sum(t[name] for t in topics) for name in T101}
    chars = sorted(t["character_count"] for t in topics)
    out = {name: total[name] for name in AUTOARGUE_ALL_MEASURES if name in total}
    out["character_count_median"] = (chars[0] + chars[1]) / 2
    out["character_count_max"] = chars[-1]
    micro = {
        "citation_relevance": total["relevant_citations"] / total["citations"],
        "citation_support": total["supporting_citations"] / total["citations"],
        "sentence_support": total["correctly_cited_sentences"]
        / total["sentences_with_citations_or_requiring_citations"],
        "nugget_coverage": total["correct_nuggets"] / total["nuggets"],
        "nugget_coverage_weighted": total["correct_nuggets_weighted"] / total["nuggets_weighted"],
    }
    micro["f1"] = f1(micro["sentence_support"], micro["nugget_coverage"])
    micro["f1_weighted"] = f1(micro["sentence_support"], micro["nugget_coverage_weighted"])
    for name, value in micro.items():
        out[f"{name}_micro"] = value
        out[f"{name}_macro"] = sum(t[name] for t in topics) / len(topics)
    return out


def expected_autoargue_file() -> str:
    """The score file Auto-ARGUE writes: header, `all` rows first, then each topic; every value a float."""
    aggregate = expected_all([T101, T102])
    lines = ["run_id\trequest_id\tmetric\tvalue"]
    lines += [f"{RUN}\tall\t{name}\t{float(aggregate[name])!r}" for name in AUTOARGUE_ALL_MEASURES]
    for topic, values in (("101", T101), ("102", T102)):
        lines += [f"{RUN}\t{topic}\t{name}\t{float(values[name])!r}" for name in AUTOARGUE_TOPIC_MEASURES]
    return "\n".join(lines) + "\n"


def run_score(tmp_path: Path, *extra: str) -> tuple[str, str]:
    out = tmp_path / "scores.tsv"
    result = CliRunner().invoke(cli, ["score", "--nuggets", str(NUGGETS), "--judgments", str(JUDGMENTS),
                                      "-o", str(out), *extra])
    assert result.exit_code == 0, result.output
    return out.read_text(), result.output


def read_table(text: str) -> dict[tuple[str, str, str], float]:
    rows = [line.split("\t") for line in text.splitlines()[1:]]
    return {(run, topic, metric): float(value) for run, topic, metric, value in rows}


def test_autoargue_layout_reproduces_the_score_file_auto_argue_would_write(tmp_path):
    """No --run: the reports embedded in the Auto-ARGUE file are scored; byte-for-byte Auto-ARGUE's layout."""
    text, output = run_score(tmp_path, "--missing-topics", "skip", "--table-format", "autoargue")
    assert text == expected_autoargue_file()
    assert len(AUTOARGUE_TOPIC_MEASURES) == 18 and len(AUTOARGUE_ALL_MEASURES) == 26
    # what was left out is said on stderr
    assert "101:101q3" in output  # the question without a bound answer
    assert "no report for 1 topic(s), which are left out (--missing-topics): 103" in output


def test_default_table_keeps_design_semantics_on_the_shared_rows(tmp_path):
    """The default (docs/scoring.md) differs from Auto-ARGUE only where the bank has a topic the run lacks, and in
    the extra rows: per-topic values of the reported topics are the same."""
    default = read_table(run_score(tmp_path)[0])
    official = read_table(expected_autoargue_file())
    for (run, topic, metric), value in official.items():
        if topic != "all":
            assert default[(run, topic, metric)] == value, (topic, metric)
    # topic 103 scores 0 with its nugget counted, so the aggregates differ
    assert default[(RUN, "103", "nuggets")] == 1 and default[(RUN, "103", "nugget_coverage")] == 0
    assert default[(RUN, "all", "nuggets")] == 7 and default[(RUN, "all", "missing_topics")] == 1
    assert default[(RUN, "all", "nugget_coverage_macro")] != official[(RUN, "all", "nugget_coverage_macro")]
    # with skip, every shared `all` value equals Auto-ARGUE's too
    skipped = read_table(run_score(tmp_path, "--missing-topics", "skip")[0])
    for key, value in official.items():
        assert skipped[key] == value, key
    assert skipped[(RUN, "101", "argue_precision")] == 1.0  # one of our extra rows (outcomes 2, 3, 3, 3)


def test_relevance_from_auto_argue_judgments_gives_the_same_file(tmp_path):
    text, _ = run_score(tmp_path, "--missing-topics", "skip", "--table-format", "autoargue",
                        "--relevance", "judgments")
    assert text == expected_autoargue_file()


def test_python_api_table_format():
    result = score(None, NUGGETS, [JUDGMENTS], missing_topics="skip", table_format="autoargue")
    rows = [(r.run_id, r.request_id, r.metric, r.value) for r in result.table.itertuples()]
    expected = [tuple(line.split("\t")) for line in expected_autoargue_file().splitlines()[1:]]
    assert [(a, b, c, repr(v)) for a, b, c, v in rows] == expected


def test_autoargue_rows_reorders_per_run_and_drops_our_extra_rows():
    ours = [
        ("r1", "7", "sentences", 2), ("r1", "7", "outcome_3", 2), ("r1", "7", "argue_precision", 1.0),
        *(("r1", "7", name, 0.5) for name in AUTOARGUE_TOPIC_MEASURES if name != "sentences"),
        *(("r1", "all", name, 1) for name in AUTOARGUE_ALL_MEASURES),
        ("r1", "all", "topics", 1), ("r1", "all", "f1_undefined", 0), ("r1", "all", "missing_topics", 0),
        ("r2", "all", "sentences", 0),
    ]
    out = autoargue_rows(ours)
    assert [row[:3] for row in out[:26]] == [("r1", "all", name) for name in AUTOARGUE_ALL_MEASURES]
    assert [row[:3] for row in out[26:44]] == [("r1", "7", name) for name in AUTOARGUE_TOPIC_MEASURES]
    assert out[26] == ("r1", "7", "sentences", 2.0) and isinstance(out[26][3], float)
    assert out[44:] == [("r2", "all", "sentences", 0.0)]


def test_the_layout_names_only_rows_argue_writes():
    """The layout lives with the score-table format, which may not import ARGUE, so it spells Auto-ARGUE's rows
    out: each must be a row ARGUE's family writes (per topic, and in the `all` rows of one scored topic)."""
    from argue_eval.argue.counting import FAMILY

    counts = {name: 1 for name in (*FAMILY.counts, *FAMILY.hidden)}
    assert set(AUTOARGUE_TOPIC_MEASURES) <= {name for name, _ in FAMILY.topic_rows(counts)}
    assert set(AUTOARGUE_ALL_MEASURES) <= {name for name, _ in FAMILY.aggregate_rows([counts])}
