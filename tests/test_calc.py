"""``api.calc``: measures by name (``argue.f1``, ``icat.f@1``, ...) computed on one road, and the grammar of the
names (``measures.names``).

The values are worked by hand on the ARGUE fixture track (tests/fixtures/argue, see test_argue_aggregate: runA's
T1 has sentence support 3/6 and nugget coverage 3/4, F1 0.6; T2 support 1/1, coverage 1/2, F1 2/3) and, for ICAT,
with a judge whose rule can be followed by eye (``WordsJudge``)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import ARGUE_FIXTURES, load_judgments, load_nuggets, load_reports

from argue_eval import api
from argue_eval.errors import OptionError
from argue_eval.judges.base import JudgeBackend, Verdict
from argue_eval.measures import FAMILIES, get_family
from argue_eval.measures.names import parse_measure, parse_measures

REPO = Path(__file__).resolve().parent.parent
RUN_A = ARGUE_FIXTURES / "runA.jsonl"
COLLECTION = ARGUE_FIXTURES / "collection.jsonl"


class WordsJudge(JudgeBackend):
    """A passage supports a sentence when it holds every word of four letters or more of the sentence."""

    name = "words"
    kinds = frozenset({"attested"})

    def answer_many(self, questions):
        def words(text):
            return {word for word in re.findall(r"\w+", text.lower()) if len(word) >= 4}

        return [Verdict(words(q.sentence) <= words(q.document.text), self.name) for q in questions]


def fixture_inputs(**more):
    return dict(runs=load_reports(RUN_A), nuggets=list(load_nuggets().values()), judgments=load_judgments(), **more)


def values(result):
    return {(run, topic, measure): value for run, topic, measure, value in result.rows}


def test_argue_and_icat_by_name_worked_by_hand():
    """ARGUE from the fixture's judgments; ICAT with WordsJudge over the fixture collection (8 one-passage
    documents, k=10: every passage retrieved). T1: of its 10 sentences only "Officials said the damage exceeded
    $1 billion." has its long words (officials said damage exceeded billion) in a document (d9), which is bound
    to no nugget: fact 1/10, no aspect covered, ICAT 0. T2: "The sky is blue." (long words: blue) is in e1,
    which is bound to m1: fact 1/1, coverage 1/2 (m1, m2), ICAT_1 = 2 * 1 * 0.5 / 1.5 = 2/3 and ICAT_2 =
    5 * 0.5 / (4 + 0.5) = 5/9."""
    result = api.calc(["argue.f1", "icat.f@1", "icat.f@2", "icat.fact"], **fixture_inputs(
        collection=str(COLLECTION), judge=WordsJudge()))
    v = values(result)
    assert v[("runA", "T1", "argue.f1")] == pytest.approx(0.6)
    assert v[("runA", "T2", "argue.f1")] == pytest.approx(2 / 3)
    assert v[("runA", "all", "argue.f1")] == pytest.approx((0.6 + 2 / 3) / 2)  # the macro average
    assert v[("runA", "T1", "icat.f@1")] == 0 and v[("runA", "T1", "icat.fact")] == pytest.approx(0.1)
    assert v[("runA", "T2", "icat.f@1")] == pytest.approx(2 / 3)
    assert v[("runA", "T2", "icat.f@2")] == pytest.approx(5 / 9)
    assert v[("runA", "all", "icat.f@1")] == pytest.approx(1 / 3)
    assert v[("runA", "all", "icat.fact")] == pytest.approx((0.1 + 1) / 2)
    assert result.aggregates()["icat.f@2"] == {"runA": pytest.approx(5 / 18)}
    # one scoring for ARGUE, one ICAT per beta (icat.fact joins beta 1): the families' own tables
    assert [(r.measure, r.settings.get("beta")) for r in result.results] == [("argue", None), ("icat", 1.0),
                                                                          ("icat", 2.0)]
    # ARGUE's judgments answer every question: the judge, given for ICAT, was asked nothing for ARGUE
    assert not result.results[0].data.run.stats.new
    assert result.complete and result.measure == "calc" and (result.runs, result.topics) == (["runA"], ["T1", "T2"])
    assert list(result.table.columns) == ["run_id", "request_id", "measure", "value"]


def test_nugget_measures_at_one_importance():
    """``@vital``: only vital nuggets count. T1's vital nuggets are n1 (found) and n4 (negative, counted found, as
    in the 3/4 coverage): 2/2; F1 of support 1/2 and coverage 1: 2/3. T2 has no vital nugget: 0, undefined."""
    result = api.calc("argue.nugget_coverage@vital argue.f1@vital argue.nuggets@vital", **fixture_inputs())
    v = values(result)
    assert (v[("runA", "T1", "argue.nugget_coverage@vital")], v[("runA", "T2", "argue.nugget_coverage@vital")]) == (1, 0)
    assert v[("runA", "T1", "argue.f1@vital")] == pytest.approx(2 / 3)
    assert v[("runA", "all", "argue.f1@vital")] == pytest.approx(1 / 3)
    assert (v[("runA", "T1", "argue.nuggets@vital")], v[("runA", "all", "argue.nuggets@vital")]) == (2, 2)  # a sum
    assert "weights=vital=1,okay=0,none=0" in result.results[0].settings["policies"]


def test_micro_aggregate_and_policy_parameters():
    """``agg=micro``: F1 of the summed counts, support 4/7 and coverage 4/6 -> 8/13 (test_argue_aggregate).
    A policy as a parameter is a second scoring: nugget_scope=all lets a cited sentence supply any answer."""
    result = api.calc(["argue.f1(agg=micro)", "argue.f1(nugget_scope=all, missing_judgments=zero)"],
                      **fixture_inputs())
    v = values(result)
    assert v[("runA", "all", "argue.f1(agg=micro)")] == pytest.approx(8 / 13)
    assert v[("runA", "T1", "argue.f1(agg=micro)")] == pytest.approx(0.6)  # per topic it is the F1
    assert [r.settings["policies"].split()[1] for r in result.results] == ["nugget-scope=cited", "nugget-scope=all"]


def test_a_whole_family_is_its_commands_table_and_every_measure_of_it():
    by_calc = api.calc("argue", **fixture_inputs())
    by_score = api.score(load_reports(RUN_A), load_nuggets().values(), load_judgments())
    assert by_calc.results[0].rows == [tuple(row) for row in by_score.table.itertuples(index=False)]
    measures = {measure for _, _, measure, _ in by_calc.rows}
    assert {"argue.f1", "argue.sentences", "argue.outcome_8", "argue.argue_precision"} <= measures
    assert "argue.rewarded" not in measures  # a hidden count is no measure
    assert values(by_calc)[("runA", "all", "argue.sentences")] == 11  # a count's run value is its sum


def test_records_given_as_a_generator_serve_every_family():
    """Two families read the runs (ARGUE, then ICAT): a generator would be empty for the second."""
    result = api.calc("argue.sentences icat.claims", runs=iter(load_reports(RUN_A)), nuggets=load_nuggets().values(),
                      judgments=load_judgments(), collection=str(COLLECTION), judge=WordsJudge())
    v = values(result)
    assert (v[("runA", "all", "argue.sentences")], v[("runA", "all", "icat.claims")]) == (11, 11)


def test_iter_calc_yields_the_per_topic_values_family_after_family():
    metrics = list(api.iter_calc(["argue.sentence_support", "argue.nugget_coverage"], **fixture_inputs()))
    assert [(m.request_id, m.measure, m.value) for m in metrics] == [
        ("T1", "argue.sentence_support", 0.5), ("T1", "argue.nugget_coverage", 0.75),
        ("T2", "argue.sentence_support", 1.0), ("T2", "argue.nugget_coverage", 0.5)]
    assert api.calc(["argue.sentence_support", "argue.nugget_coverage"], **fixture_inputs()).per_topic() == metrics


def test_retrieval_is_a_family_on_the_same_road(tmp_path):
    """P@1 of runA's cited documents (in order of first citation) against qrels marking d1 and e1 relevant:
    T1 cites d1 first (1), T2 cites e1 (1); P@2: T1 d1, d4 -> 1/2, T2 has one document -> 1/2."""
    qrels = tmp_path / "calc.qrels"
    qrels.write_text("T1 0 d1 1\nT1 0 d9 0\nT2 0 e1 1\n")
    result = api.calc("retrieval.P@1 retrieval.P_2", runs=[str(RUN_A)], qrels=str(qrels))
    v = values(result)
    assert (v[("runA", "T1", "retrieval.P@1")], v[("runA", "T2", "retrieval.P@1")]) == (1, 1)
    assert (v[("runA", "T1", "retrieval.P_2")], v[("runA", "all", "retrieval.P_2")]) == (0.5, 0.5)
    assert len(result.results) == 1 and result.results[0].settings["measures"] == ["P@1", "P_2"]


def test_unknown_names_say_what_is_known():
    with pytest.raises(OptionError, match=r"unknown measure family 'bleu'; known: argue, icat, longrecall"):
        api.calc("bleu.score", **fixture_inputs())
    with pytest.raises(OptionError, match=r"unknown argue measure 'f2'; known: sentences, .*, f1, "):
        api.calc(["argue.f1", "argue.f2"], **fixture_inputs())
    with pytest.raises(OptionError, match=r"unknown icat measure 'precision'; known: claims, .*, fact, coverage, f"):
        parse_measure("icat.precision")
    with pytest.raises(OptionError, match=r"retrieval.foo@3: unknown measure 'foo@3'; known: ndcg, map"):
        parse_measure("retrieval.foo@3")
    with pytest.raises(OptionError, match=r"retrieval measures are named retrieval.NAME \(retrieval.ndcg@20\)"):
        parse_measure("ndcg@20")
    with pytest.raises(OptionError, match=r"argue.citations takes no @"):
        parse_measure("argue.citations@vital")
    with pytest.raises(OptionError, match=r"unknown parameter of icat \(in icat.f\(kk=3\)\) 'kk'; known: aspects"):
        api.calc("icat.f(kk=3)", **fixture_inputs())
    with pytest.raises(OptionError, match=r"icat.f\(k=ten\): k: expected a number like 10, found 'ten'"):
        api.calc("icat.f(k=ten)", **fixture_inputs())
    with pytest.raises(OptionError, match=r"unknown nugget importance \(argue's @\) 'urgent'; known: vital, okay"):
        api.calc("argue.f1@urgent", **fixture_inputs())
    with pytest.raises(OptionError, match=r"reference: not read by the measures asked \(argue\); it is longrecall's"):
        api.calc("argue.f1", **fixture_inputs(reference="gold.jsonl"))
    with pytest.raises(OptionError, match=r"not a measure name: expected FAMILY\[.MEASURE\]"):
        parse_measure("argue.f1)")
    assert issubclass(OptionError, ValueError)


def test_the_grammar_parses_to_family_metric_and_parameters():
    assert parse_measure("icat.f@2") == ("icat.f@2", "icat", "f", "icat", (("beta", "2"),), None)
    assert parse_measure(" longrecall.recall ").metric == "longrecall"
    assert parse_measure("retrieval.P(rel=2)@10").metric == "P@10-l2"  # trec_eval's relevance level
    assert parse_measure("icat(k=20)") == ("icat(k=20)", "icat", None, None, (("k", "20"),), None)
    assert parse_measure("argue.nugget_coverage@okay").metric == "nugget_coverage_weighted"
    # spaces and commas separate names, except the commas between a name's parameters; repeats are dropped
    assert [str(m) for m in parse_measures("argue.f1 icat.f(k=20, beta=2),argue.f1")] == ["argue.f1",
                                                                                          "icat.f(k=20,beta=2)"]
    with pytest.raises(OptionError, match="beta given twice"):
        parse_measure("icat.f(beta=1)@2")


def test_a_family_names_its_measures_by_metric_alias_and_at():
    """A toy family: ``hit`` reads the ratio ``hit_rate``; ``f@2`` reads ``f`` with beta 2; a hidden count is no measure."""
    from argue_eval.family import Family, FMeasure, Ratio

    toy = Family("toy", ("found", "due"), (Ratio("hit_rate", "found", "due"), FMeasure("f", "hit_rate",
                 "hit_rate")), hidden=("secret",), aliases={"hit": "hit_rate"}, at={"f": ("beta", "f")})
    assert toy.measure("hit") == ("hit_rate", {}) and toy.measure("found", params={"k": 1}) == ("found", {"k": 1})
    assert toy.measure("f", "2") == ("f", {"beta": "2"})
    assert toy.measure_names == ("found", "due", "hit_rate", "f", "hit")
    with pytest.raises(OptionError, match="unknown toy measure 'secret'; known: found, due, hit_rate, f, hit"):
        toy.measure("secret")
    with pytest.raises(OptionError, match=r"toy.hit takes no @ \(of toy's measures, these do: f\)"):
        toy.measure("hit", "3")
    with pytest.raises(ValueError, match="@ of 'f' must name a measure and a metric"):
        Family("bad", ("a",), (), at={"f": ("beta", "a")})


def test_every_family_of_the_registry_has_a_provider_and_names():
    """A family is its module, its registry line and its provider (api/<family>.py): a registry line without a
    provider fails here, and so does a parameter a measure name could not set (not a plain value)."""
    from argue_eval.api.calc import provider

    for name in FAMILIES:
        found = provider(name)
        assert found.family == name
        family = get_family(name)
        assert family.measure_names, name
        for parameter, default in found.parameters.items():
            assert default is None or isinstance(default, (bool, int, float, str)), (name, parameter)


def test_the_python_example_of_docs_measures_prints_what_it_says(monkeypatch, capsys):
    """docs/measures.md, "Measures by name": its example, run on the sample track, prints its text block."""
    doc = (REPO / "docs" / "measures.md").read_text(encoding="utf-8")
    section = doc.split("## Measures by name", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    expected = section.split("```text\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(REPO)
    exec(compile(code, "docs/measures.md", "exec"), {})
    assert capsys.readouterr().out == expected


def test_argue_on_the_road_writes_the_score_commands_bytes(tmp_path):
    """The ARGUE family's own table through ``calc_family`` (what ``api.score`` and ``api.evaluate`` are) is the
    ``score`` command's file, byte for byte: counts stay integers in its rows."""
    from click.testing import CliRunner

    from argue_eval.api.calc import calc_family
    from argue_eval.cli import cli
    from argue_eval.formats.scores import score_lines

    out = tmp_path / "scores.tsv"
    invoked = CliRunner().invoke(cli, ["score", "--run", str(RUN_A), "--nuggets", str(ARGUE_FIXTURES / "nuggets.jsonl"),
                                       "--judgments", str(ARGUE_FIXTURES / "judgments.jsonl"), "-o", str(out), "-q"])
    assert invoked.exit_code == 0, invoked.output
    result = calc_family("argue", runs=[str(RUN_A)], nuggets=str(ARGUE_FIXTURES / "nuggets.jsonl"),
                         judgments=[str(ARGUE_FIXTURES / "judgments.jsonl")])
    assert "".join(score_lines(result.rows)) == out.read_text()
    assert result.data is None and result.counts == {"missing": {}}
