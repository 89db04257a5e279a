"""``argue-eval judge`` and ``evaluate`` end to end with the default (lexical) judge, and their errors."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli

FIXTURES = Path(__file__).parent / "fixtures" / "argue"


def invoke(*args: str):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def fixture_args(tmp_path: Path) -> list[str]:
    collection = tmp_path / "collection.jsonl"
    shutil.copy(FIXTURES / "collection.jsonl", collection)
    return ["--run", str(FIXTURES / "runA.jsonl"), "--nuggets", str(FIXTURES / "nuggets.jsonl"),
            "--collection", str(collection), "--cache", str(tmp_path / "cache.sqlite")]


def test_dry_run_counts_the_questions_per_kind_without_judging(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # where the default cache would be: none there, and the dry run makes none
    result = invoke("judge", "--run", FIXTURES / "runA.jsonl", "--nuggets", FIXTURES / "nuggets.jsonl",
                    "--dry-run", "--json")
    assert result.exit_code == 0, result.output
    plan = json.loads(result.output)
    # T1: 6 (sentence, document) pairs and 5 answers bound to relevant cited documents, 5 uncited sentences;
    # T2: "The sky is blue." cites e1, which attests "blue". The uncited ones may need nugget_agrees (one
    # negative answer each), requires_citation, and first_instance except for the first sentence.
    assert plan["certain"] == {"answers": 6, "attested": 7, "negative": 5}
    assert plan["questions"] == {"answers": 6, "attested": 7, "negative": 5, "nugget_agrees": 5,
                                 "requires_citation": 5, "first_instance": 4}
    assert plan["calls"] == {} and plan["cached"] == {}
    assert list(tmp_path.iterdir()) == []


def test_dry_run_reads_the_default_cache_and_counts_only_what_a_rerun_would_still_ask(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the default cache, .argue-cache/judgments.sqlite, goes here
    args = [a for a in fixture_args(tmp_path) if a not in ("--cache", str(tmp_path / "cache.sqlite"))]
    judged = invoke("judge", *args, "-q", "-o", tmp_path / "j.jsonl")
    assert judged.exit_code == 0 and (tmp_path / ".argue-cache" / "judgments.sqlite").is_file()
    answered = json.loads((tmp_path / "j.jsonl.manifest.json").read_text())["new"]
    assert sum(answered.values()) == len((tmp_path / "j.jsonl").read_text().splitlines())
    # a rerun would take every answer from the cache and ask nothing: so says the dry run, without --cache
    plan = json.loads(invoke("judge", *args, "--dry-run", "--json").output)
    assert plan["cached"] == answered
    assert plan["questions"] == {} and plan["certain"] == {}
    rerun = invoke("judge", *args, "-o", tmp_path / "again.jsonl")
    assert f"{sum(answered.values())} from the cache, 0 new" in rerun.output
    assert "unchecked_without_collection" not in plan
    # without --collection the dry run cannot check a cached answer about a document against its text: the
    # 6 answers, 7 attested and 3 requires_citation questions (T1's report cites documents) count as to ask,
    # and the plan says why, since the real run (which needs --collection) takes them all from the cache
    bare = [a for a in args if a not in ("--collection", str(tmp_path / "collection.jsonl"))]
    plan = json.loads(invoke("judge", *bare, "--dry-run", "--json").output)
    assert plan["questions"] == {"answers": 6, "attested": 7, "requires_citation": 3}
    assert plan["unchecked_without_collection"] == 16
    assert "16 of the questions to ask read a document; without --collection" in invoke(
        "judge", *bare, "--dry-run").output
    # --no-cache: everything is to be asked again (the counts of the cache-less dry run above)
    plan = json.loads(invoke("judge", *args, "--no-cache", "--dry-run", "--json").output)
    assert plan["cached"] == {} and plan["certain"] == {"answers": 6, "attested": 7, "negative": 5}
    # a cache that does not exist yet is not created by a dry run
    invoke("judge", *args, "--cache", tmp_path / "new.sqlite", "--dry-run")
    assert not (tmp_path / "new.sqlite").exists()


def test_judge_writes_judgments_that_score_reads_and_a_rerun_uses_the_cache(tmp_path):
    args = fixture_args(tmp_path)
    out = tmp_path / "judgments.jsonl"
    first = invoke("judge", *args, "-o", out)
    assert first.exit_code == 0, first.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines and all(line["judge"] == "lexical" and line["provenance"]["backend"] == "lexical" for line in lines)
    manifest = json.loads((tmp_path / "judgments.jsonl.manifest.json").read_text())
    assert manifest["judgments"] == len(lines) and manifest["failed"] == {} and sum(manifest["new"].values()) == len(lines)
    assert "0 from the cache" in first.output
    again = invoke("judge", *args, "-o", tmp_path / "again.jsonl")
    assert f"{len(lines)} from the cache, 0 new" in again.output
    assert (tmp_path / "again.jsonl").read_bytes() == out.read_bytes()
    scored = invoke("score", "--run", FIXTURES / "runA.jsonl", "--nuggets", FIXTURES / "nuggets.jsonl",
                    "--judgments", out, "-o", tmp_path / "scores.tsv", "-q")
    assert scored.exit_code == 0, scored.output


def test_judging_without_the_requests_says_the_judge_sees_no_request_text(tmp_path):
    args = fixture_args(tmp_path)
    without = invoke("judge", *args, "-o", tmp_path / "a.jsonl")
    assert without.exit_code == 0 and "note: no --requests: the judge sees no request text" in without.output
    evaluated = invoke("evaluate", *args, "-o", tmp_path / "a.tsv")
    assert evaluated.exit_code == 0 and "note: no --requests" in evaluated.output
    given = invoke("judge", *args, "--requests", FIXTURES / "requests.jsonl", "-o", tmp_path / "b.jsonl")
    assert given.exit_code == 0 and "--requests" not in given.output
    # the note is not noise: with the request texts, requires_citation is judged against them
    def rationales(path):
        return {json.loads(line)["rationale"] for line in path.read_text().splitlines()
                if json.loads(line)["kind"] == "requires_citation"}
    assert rationales(tmp_path / "a.jsonl") != rationales(tmp_path / "b.jsonl")


def test_judgments_on_stdout_are_the_bytes_of_the_judgments_file(tmp_path):
    args = fixture_args(tmp_path)
    written = invoke("judge", *args, "-q", "-o", tmp_path / "j.jsonl")
    printed = invoke("judge", *args, "-q", "-o", "-")
    assert written.exit_code == 0 and printed.exit_code == 0, printed.output
    assert printed.stdout_bytes == (tmp_path / "j.jsonl").read_bytes() != b""
    assert not (tmp_path / "-.manifest.json").exists()


def test_evaluate_ranks_the_sample_runs_like_the_assessors(repo, tmp_path):
    from argue_eval.formats.scores import read_scores

    runs = sorted(str(p) for p in (repo / "runs" / "sample").glob("*.jsonl"))
    shutil.copy(repo / "topics/sample/collection.jsonl", tmp_path / "collection.jsonl")
    common = ["--nuggets", repo / "nuggets/sample/nuggets.jsonl", "--requests", repo / "topics/sample/requests.jsonl"]
    result = invoke("evaluate", *[a for r in runs for a in ("--run", r)], *common, "--collection",
                    tmp_path / "collection.jsonl", "--no-cache", "-o", tmp_path / "auto.tsv", "-q")
    assert result.exit_code == 0, result.output
    human = invoke("score", *[a for r in runs for a in ("--run", r)], *common, "--judgments",
                   repo / "qrels/sample/judgments.jsonl", "-o", tmp_path / "human.tsv", "-q")
    assert human.exit_code == 0, human.output

    def f1(path):
        return {row.run_id: row.value for row in read_scores(path) if row.request_id == "all" and row.metric == "f1_macro"}

    auto, reference = f1(tmp_path / "auto.tsv"), f1(tmp_path / "human.tsv")
    assert set(auto) == set(reference) and len(auto) == 6
    swapped = [(a, b) for a in auto for b in auto if reference[a] > reference[b] and auto[a] < auto[b]]
    assert len(swapped) <= 1, swapped


def test_a_cited_document_missing_from_the_collection_is_reported_never_a_no(tmp_path):
    args = fixture_args(tmp_path)
    collection = tmp_path / "collection.jsonl"
    collection.write_text("".join(line + "\n" for line in collection.read_text().splitlines() if '"d9"' not in line))
    result = invoke("judge", *args, "-o", tmp_path / "j.jsonl")
    assert result.exit_code == 1
    assert "cited document(s) not in the collection: d9" in result.output
    assert "question(s) not judged: the cited document is not in the collection (attested 2)" in result.output
    assert not any('"d9"' in line for line in (tmp_path / "j.jsonl").read_text().splitlines())
    evaluated = invoke("evaluate", *args, "-o", tmp_path / "s.tsv")
    assert evaluated.exit_code == 2 and "2 judgments missing (attested 2)" in evaluated.output
    assert not (tmp_path / "s.tsv").exists()


def test_evaluate_writes_its_outputs_as_one_set_or_none(tmp_path):
    args = fixture_args(tmp_path)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory\n")
    # the details cannot be written (their folder is a file): the scores and the judgments (with their manifest)
    # must not appear without them
    judged = ["--judgments-out", tmp_path / "j.jsonl"]
    result = invoke("evaluate", *args, "-q", "-o", tmp_path / "s.tsv", *judged, "--details", blocker / "d.jsonl")
    assert result.exit_code == 2 and "a-file/d.jsonl" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "s.tsv").exists() and not (tmp_path / "j.jsonl").exists()
    assert not (tmp_path / "j.jsonl.manifest.json").exists()
    result = invoke("evaluate", *args, "-q", "-o", tmp_path / "s.tsv", *judged, "--details", tmp_path / "d.jsonl")
    assert result.exit_code == 0 and (tmp_path / "s.tsv").is_file() and (tmp_path / "d.jsonl").is_file()
    assert (tmp_path / "j.jsonl").is_file() and (tmp_path / "j.jsonl.manifest.json").is_file()


def test_the_judgments_given_are_never_overwritten_by_the_judge_output(tmp_path):
    args = fixture_args(tmp_path)
    given = tmp_path / "human.jsonl"
    given.write_bytes((FIXTURES / "judgments.jsonl").read_bytes())
    before = given.read_bytes()
    # judge writes only its own answers: -o onto a --judgments file would silently drop the given judgments
    for argv in (["judge", *args, "--judgments", given, "-o", given],
                 ["judge", *args, "--judgments", given, "-o", tmp_path / "." / "human.jsonl"],
                 ["evaluate", *args, "--judgments", given, "-o", tmp_path / "s.tsv", "--judgments-out", given]):
        result = invoke(*argv)
        assert result.exit_code == 2, result.output
        assert "is also an input (--judgments)" in result.output and "Traceback" not in result.output
        assert given.read_bytes() == before
    assert not (tmp_path / "s.tsv").exists()


def test_two_reports_of_one_run_for_one_topic_are_refused_before_any_judging(tmp_path):
    args = fixture_args(tmp_path)
    resubmitted = tmp_path / "runA-v2.jsonl"  # a revised file beside the original, under the same run id
    resubmitted.write_text((FIXTURES / "runA.jsonl").read_text().replace("March 2019", "April 2019"))
    for command in ("judge", "evaluate"):
        result = invoke(command, *args, "--run", resubmitted, "-o", tmp_path / "out")
        assert result.exit_code == 2, result.output
        assert "runA-v2.jsonl:1: request_id: run runA has a second report for topic T1" in result.output
        assert not (tmp_path / "out").exists() and not (tmp_path / "cache.sqlite").exists()  # nothing judged


def test_bad_judge_inputs_are_one_line_errors(tmp_path, monkeypatch):
    args = fixture_args(tmp_path)
    cases = [
        (["judge", *args], "missing -o"),
        (["judge", *args, "--judge", "oracle", "-o", tmp_path / "x"], "unknown judge 'oracle'"),
        (["judge", *args, "--judge-option", "lexical.nonsense=1", "-o", tmp_path / "x"], "has no option 'nonsense'"),
        (["judge", *args, "--judge-option", "oops", "-o", tmp_path / "x"], "expected BACKEND.NAME=VALUE"),
        # option values of the wrong type or range are the user's error too (the lexical judge checks its
        # options itself; the registry checks the types of backends that do not)
        (["judge", *args, "--judge-option", "lexical.answer_threshold=abc", "-o", tmp_path / "x"],
         "lexical.answer_threshold: expected a number between 0 and 1, found 'abc'"),
        (["judge", *args, "--judge-option", "lexical.answer_threshold=yes", "-o", tmp_path / "x"],
         "lexical.answer_threshold: expected a number between 0 and 1, found True"),
        (["judge", *args, "--judge-option", "lexical.answer_threshold=1.5", "-o", tmp_path / "x"],
         "lexical.answer_threshold: expected a number between 0 and 1, found 1.5"),
        (["judge", *args, "--judge-option", "lexical.passage_words=1.5", "-o", tmp_path / "x"],
         "lexical.passage_words: expected a whole number of at least 1, found 1.5"),
        (["judge", *args, "--judge-option", "lexical.negative_threshold=abc", "-o", tmp_path / "x"],
         "lexical.negative_threshold: expected a number, found 'abc'"),
        # options that contradict each other are refused, not silently resolved one way
        (["judge", *args, "--no-cache", "-o", tmp_path / "x"], "--no-cache: contradicts --cache"),
        (["judge", *args, "--json", "-o", "-"], "--json: prints the summary on stdout, which -o - already fills"),
        (["evaluate", *args, "-o", "-", "--details", "-", "--judgments-out", tmp_path / "x"],
         "-o, --details: only one output can go to standard output ('-')"),
        (["judge", "--run", FIXTURES / "runA.jsonl", "--nuggets", FIXTURES / "nuggets.jsonl", "-o", tmp_path / "x"],
         "give --collection"),
    ]
    # the lexical judge's options are checked like the model judges': located, one line, before any judging
    cases.append((["judge", *args, "--judge-option", "lexical.attested_threshold=2", "-o", tmp_path / "x"],
                  "--judge-option: lexical.attested_threshold: expected a number between 0 and 1, found 2"))
    cases.append((["judge", *args, "--judge-option", "lexical.negative_threshold=high", "-o", tmp_path / "x"],
                  "lexical.negative_threshold: expected a number, found 'high'"))
    cases.append((["judge", *args, "--judge-option", "lexical.passage_words=0", "-o", tmp_path / "x"],
                  "lexical.passage_words: expected a whole number of at least 1, found 0"))
    # infinity is no number for an option: the judgments' provenance (JSON) would record it as null
    cases.append((["judge", *args, "--judge-option", "lexical.number_weight=inf", "-o", tmp_path / "x"],
                  "--judge-option: lexical.number_weight: expected a number, found inf"))
    # ... and a model judge's number flag says so at the flag given, not as --judge-option llm.timeout
    cases.append((["judge", *args, "--judge", "llm", "--llm-model", "m", "--llm-timeout", "inf", "-o", tmp_path / "x"],
                  "Invalid value for '--llm-timeout': 'inf' is not a finite number."))
    cases.append((["evaluate", *args, "--judge", "llm", "--llm-model", "m", "--price-in", "nan", "-o", tmp_path / "x"],
                  "Invalid value for '--price-in': 'nan' is not a finite number."))
    # a rate limit of 0 or less was a traceback from the rate limiter when the first call went out
    cases.append((["judge", *args, "--judge", "llm", "--llm-model", "m", "--llm-base-url", "http://127.0.0.1:9/v1",
                   "--requests-per-minute", "-5", "-o", tmp_path / "x"],
                  "Invalid value for '--requests-per-minute': -5.0 is not in the range x>=1."))
    cases.append((["judge", *args, "--judge", "llm", "--llm-model", "m", "--llm-base-url", "http://127.0.0.1:9/v1",
                   "--tokens-per-minute", "0", "-o", tmp_path / "x"],
                  "Invalid value for '--tokens-per-minute': 0.0 is not in the range x>=1."))
    # a model judge's own flag without that judge in --judge names the flag and the cascade that takes it
    cases.append((["judge", *args, "--nli-model", tmp_path, "-o", tmp_path / "x"],
                  "--nli-model: is an option of the nli judge, which --judge lexical does not include"))
    cases.append((["evaluate", *args, "--llm-model", "m", "-o", tmp_path / "x"],
                  "--llm-model: is an option of the llm judge, which --judge lexical does not include"))
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    cases.append((["judge", *args[:4], "--collection", empty, "-o", tmp_path / "x"], "empty.jsonl"))
    not_a_cache = tmp_path / "notes.txt"
    not_a_cache.write_text("hello " * 1000)
    cases.append((["judge", *args[:6], "--cache", not_a_cache, "-o", tmp_path / "x"], "cannot be used as a judgment cache"))
    for argv, message in cases:
        result = invoke(*argv)
        assert result.exit_code == 2, (argv, result.output)
        assert message in result.output and "Traceback" not in result.output, (argv, result.output)
        assert not (tmp_path / "x").exists()
    # -o naming the cache file would replace the cache with the judgments: refused, the cache left as it was
    cache = tmp_path / "cache.sqlite"
    assert invoke("judge", *args[:6], "--cache", cache, "-o", tmp_path / "j.jsonl").exit_code == 0
    before = cache.read_bytes()
    for command in ("judge", "evaluate"):
        result = invoke(command, *args[:6], "--cache", cache, "-o", cache)
        assert result.exit_code == 2 and "is also an input (--cache)" in result.output, result.output
        assert cache.read_bytes() == before
    # ... also when the cache does not exist yet (the run created it, then -o replaced it with the judgments),
    # and when it is the default cache (no --cache given)
    new = tmp_path / "new.sqlite"
    for argv in (["judge", *args[:6], "--cache", new, "-o", new],
                 ["evaluate", *args[:6], "--cache", new, "-o", tmp_path / "s.tsv", "--judgments-out", new]):
        result = invoke(*argv)
        assert result.exit_code == 2 and "is also an input (--cache)" in result.output, result.output
        assert not new.exists() and not (tmp_path / "s.tsv").exists()
    default = Path(".argue-cache") / "judgments.sqlite"
    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")
    assert invoke("judge", *args[:6], "-o", "j.jsonl").exit_code == 0 and default.is_file()
    before = default.read_bytes()
    result = invoke("judge", *args[:6], "-o", default)
    assert result.exit_code == 2 and "is also an input (--cache)" in result.output, result.output
    assert default.read_bytes() == before
    assert invoke("judge", *args[:6], "--no-cache", "-o", "j2.jsonl").exit_code == 0


def test_every_backend_option_the_help_shows_is_a_real_option():
    # --help is where a user looks for option names: each BACKEND.NAME=VALUE example in it must be one that
    # the backend's constructor takes (read from its signature, so no model is needed).
    import inspect
    import re

    from argue_eval.judges.registry import BACKENDS

    text = " ".join(invoke("judge", "--help").output.split())
    examples = re.findall(r"\b(lexical|semantic|nli|llm|cascade)\.(\w+)=", text)
    assert {backend for backend, _ in examples} >= {"lexical", "semantic", "nli", "cascade"}
    for backend, option in examples:
        if backend == "cascade":
            from argue_eval.judges.cascade import CascadeJudge as cls
        else:
            assert backend in BACKENDS
            cls = BACKENDS.get(backend)
        assert option in inspect.signature(cls).parameters, (backend, option)


def test_reports_for_topics_outside_the_evaluation_are_named_not_dropped_silently(tmp_path):
    run = tmp_path / "run.jsonl"
    lines = (FIXTURES / "runA.jsonl").read_text().splitlines()
    extra = json.loads(lines[0])
    extra["request_id"] = "T9"
    run.write_text("\n".join([*lines, json.dumps(extra)]) + "\n")
    result = invoke("judge", "--run", str(run), "--nuggets", str(FIXTURES / "nuggets.jsonl"), "--collection",
                    str(FIXTURES / "collection.jsonl"), "--no-cache", "-o", str(tmp_path / "j.jsonl"))
    assert result.exit_code == 0, result.output
    assert "note: run runA: 1 report(s) for topics outside the evaluation are not judged: T9" in result.output
    planned = invoke("judge", "--run", str(run), "--nuggets", str(FIXTURES / "nuggets.jsonl"), "--collection",
                     str(FIXTURES / "collection.jsonl"), "--no-cache", "--dry-run", "--json")
    plan = json.loads(planned.output)
    assert plan["reports"] == 2 and plan["outside_topics"] == 1  # T1 and T2 judged, T9 not
    text = invoke("judge", "--run", str(run), "--nuggets", str(FIXTURES / "nuggets.jsonl"), "--collection",
                  str(FIXTURES / "collection.jsonl"), "--no-cache", "--dry-run").output
    assert "over 2 report(s)" in text and "note: 1 report(s) for topics outside the evaluation are not judged" in text
    assert not any(json.loads(line)["request_id"] == "T9" for line in (tmp_path / "j.jsonl").read_text().splitlines())


def test_a_requested_topic_without_nuggets_is_neither_judged_nor_averaged_in(tmp_path):
    """T3 is in the requests and has a report but no nuggets: the dry run does not count it, the judge does not
    judge it, evaluate does not average it in (F1 macro as without the requests), and the notes name it once."""
    requests = tmp_path / "requests.jsonl"
    lines = (FIXTURES / "requests.jsonl").read_text().splitlines()
    requests.write_text("\n".join([*lines, json.dumps({**json.loads(lines[1]), "request_id": "T3"})]) + "\n")
    run = tmp_path / "run.jsonl"
    runs = (FIXTURES / "runA.jsonl").read_text().splitlines()
    run.write_text("\n".join([*runs, json.dumps({**json.loads(runs[0]), "request_id": "T3"})]) + "\n")
    args = fixture_args(tmp_path)
    args[args.index("--run") + 1] = str(run)
    plan = json.loads(invoke("judge", *args, "--requests", requests, "--dry-run", "--json").output)
    # the T1 and T2 counts of test_dry_run_counts_the_questions_per_kind_without_judging; T3's report is not asked
    assert plan["reports"] == 2 and plan["without_nuggets"] == 1 and "outside_topics" not in plan
    assert plan["certain"] == {"answers": 6, "attested": 7, "negative": 5}
    text = invoke("judge", *args, "--requests", requests, "--dry-run").output
    assert "note: 1 report(s) for topics without nuggets are not judged" in text
    old = json.loads(invoke("judge", *args, "--requests", requests, "--dry-run", "--json",
                            "--evaluated-topics", "requests").output)
    assert old["reports"] == 3 and "without_nuggets" not in old
    judged = invoke("judge", *args, "--requests", requests, "-o", tmp_path / "j.jsonl")
    assert judged.exit_code == 0, judged.output
    assert judged.output.count("T3") == 1 and "1 topic(s) have no nuggets and are not evaluated" in judged.output
    assert not any(json.loads(line)["request_id"] == "T3" for line in (tmp_path / "j.jsonl").read_text().splitlines())

    def f1_macro(path):
        rows = [line.split("\t") for line in path.read_text().splitlines()]
        return next(float(value) for _, topic, metric, value in rows if topic == "all" and metric == "f1_macro")

    with_t3 = invoke("evaluate", *args, "--requests", requests, "-o", tmp_path / "with.tsv", "-q")
    plain = invoke("evaluate", *args, "--requests", FIXTURES / "requests.jsonl", "-o", tmp_path / "plain.tsv", "-q")
    assert with_t3.exit_code == 0 and plain.exit_code == 0, with_t3.output + plain.output
    assert f1_macro(tmp_path / "with.tsv") == f1_macro(tmp_path / "plain.tsv")
    old_rule = invoke("evaluate", *args, "--requests", requests, "--evaluated-topics", "requests",
                      "-o", tmp_path / "old.tsv", "-q")
    assert old_rule.exit_code == 0, old_rule.output
    # the old rule averages T3 in: its copy of T1's report can find no nugget (T3 has none), so its F1 is 0
    assert f1_macro(tmp_path / "old.tsv") == pytest.approx(f1_macro(tmp_path / "plain.tsv") * 2 / 3)


def limits_inputs(tmp_path: Path) -> list[str]:
    """runA plus a report for T3 (requested, no nuggets), and a run "other" whose 2 reports are for topics the
    nuggets do not know (T9, T10)."""
    requests = tmp_path / "requests.jsonl"
    lines = (FIXTURES / "requests.jsonl").read_text().splitlines()
    requests.write_text("\n".join([*lines, json.dumps({**json.loads(lines[1]), "request_id": "T3"})]) + "\n")
    runs = (FIXTURES / "runA.jsonl").read_text().splitlines()
    run = tmp_path / "runA.jsonl"
    run.write_text("\n".join([*runs, json.dumps({**json.loads(runs[1]), "request_id": "T3"})]) + "\n")
    other = tmp_path / "other.jsonl"
    other.write_text("".join(json.dumps({**json.loads(runs[1]), "run_id": "other", "request_id": topic}) + "\n"
                             for topic in ("T10", "T9")))
    return ["--run", str(run), "--run", str(other), "--nuggets", str(FIXTURES / "nuggets.jsonl"), "--requests",
            str(requests), "--collection", str(FIXTURES / "collection.jsonl"), "--no-cache"]


def test_the_plan_counts_what_it_will_ask_then_says_what_no_judge_can_do(tmp_path):
    """T1's n5 ("Who paid for repairs?", answer "the state") is bound to no document: kept as an ordinary nugget
    (--unbound-questions keep), no citation can find it under the cited scope; T3 has no nuggets; run "other"
    reports only on T9 and T10, which no nugget covers."""
    args = limits_inputs(tmp_path)
    plan = json.loads(invoke("judge", *args, "--unbound-questions", "keep", "--dry-run", "--json").output)
    assert plan["topics_without_nuggets"] == ["T3"]
    assert plan["unreachable_nuggets"] == ["T1:n5"]
    assert plan["uncovered_runs"] == {"other": ["T9", "T10"], "runA": ["T3"]}
    assert plan["reports"] == 2 and plan["outside_topics"] == 2 and plan["without_nuggets"] == 1  # as before
    text = invoke("judge", *args, "--unbound-questions", "keep", "--dry-run").output.splitlines()
    limits = [line for line in text if line.startswith("cannot: ")]
    assert limits == [
        "cannot: 1 topic(s) have no nuggets: their reports are neither judged nor scored: T3",
        "cannot: 1 nugget(s) count but no answers question can reach them (no answer bound to a relevant document, "
        "so no citation can find them; --nugget-scope all asks for every nugget in every cited sentence): T1:n5",
        "cannot: run other: none of its 2 report(s) is for a topic the nuggets cover, so nothing of it is judged "
        "(its topics: T9, T10): are the nuggets or requests of another track?",
        "cannot: run runA: 1 of its 3 report(s) are for topics the nuggets do not cover and are not judged: T3"]
    assert text[1].startswith("kind ")  # the counts first (issue 34): what the run will ask
    assert text.index(limits[0]) > next(i for i, line in enumerate(text) if line.startswith("total "))
    # the whole topic is asked under --nugget-scope all; a dropped nugget (the default) does not count at all
    for option in (["--unbound-questions", "keep", "--nugget-scope", "all"], []):
        assert "unreachable_nuggets" not in json.loads(invoke("judge", *args, *option, "--dry-run", "--json").output)


def test_a_nugget_bound_only_to_documents_the_qrels_call_not_relevant_cannot_be_found(tmp_path):
    """Under --relevance qrels an answer is asked about only for a cited document the qrels call relevant: n3's one
    answer ("three") is bound to d5 alone, which these qrels leave out, so n3 cannot be found; n2's two answers
    (AND) are bound to d1 and d4, both relevant."""
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"T1 0 {doc} 1\n" for doc in ("d1", "d2", "d3", "d4")) + "T2 0 e1 1\nT2 0 e2 1\n")
    plan = json.loads(invoke("judge", "--run", FIXTURES / "runA.jsonl", "--nuggets", FIXTURES / "nuggets.jsonl",
                             "--qrels", qrels, "--relevance", "qrels", "--no-cache", "--dry-run", "--json").output)
    assert plan["unreachable_nuggets"] == ["T1:n3"]


def test_a_real_run_warns_before_it_judges_and_its_manifest_keeps_the_limits(tmp_path):
    args = limits_inputs(tmp_path)
    result = invoke("judge", *args, "--unbound-questions", "keep", "-o", tmp_path / "j.jsonl")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    warnings = [line for line in lines if line.startswith("warning: ")]
    assert warnings == [
        "warning: 1 nugget(s) count but no answers question can reach them (no answer bound to a relevant document, "
        "so no citation can find them; --nugget-scope all asks for every nugget in every cited sentence): T1:n5",
        "warning: run other: none of its 2 report(s) is for a topic the nuggets cover, so nothing of it is judged "
        "(its topics: T9, T10): are the nuggets or requests of another track?"]
    # the notes (T3 without nuggets, the reports outside the evaluation) and the warnings come before the summary
    notes = [i for i, line in enumerate(lines) if line.startswith(("note: ", "warning: "))]
    assert "note: run other: 2 report(s) for topics outside the evaluation are not judged: T9, T10" in lines
    assert max(notes) < next(i for i, line in enumerate(lines) if line.startswith("judged with"))
    manifest = json.loads((tmp_path / "j.jsonl.manifest.json").read_text())
    assert manifest["limits"]["unreachable_nuggets"] == ["T1:n5"] and manifest["limits"]["topics_without_nuggets"] == ["T3"]


def test_the_api_announces_the_limits_before_the_judge_is_asked_anything(tmp_path):
    from argue_eval.api import judge
    from argue_eval.judges.lexical import LexicalJudge

    events: list[str] = []

    class Watched(LexicalJudge):
        def iter_answer_groups(self, questions):
            events.append("asked")
            yield from super().iter_answer_groups(questions)

    args = limits_inputs(tmp_path)
    runs = [args[i + 1] for i, arg in enumerate(args) if arg == "--run"]
    judge(runs, str(FIXTURES / "nuggets.jsonl"), collection=str(FIXTURES / "collection.jsonl"), judge=Watched(),
          announce=lambda notes, warnings: events.append(f"{len(notes)} notes, {len(warnings)} warnings"))
    # no --requests, so T3 is outside the evaluation too. Notes: n5 dropped (the default), runA's report outside the
    # evaluation (T3), run other's (T9, T10), no --requests; the warning: run other has nothing to judge
    assert events[0] == "4 notes, 1 warnings" and events[1:] and set(events[1:]) == {"asked"}


HIDE_AIOHTTP = ("import sys; sys.modules['aiohttp'] = None; from argue_eval.cli import cli; sys.argv[0] = 'argue-eval'; "
                "cli()")
"""The CLI as it runs without the llm extra: ``import aiohttp`` fails and ``find_spec('aiohttp')`` finds nothing."""


def test_without_the_llm_extra_the_dry_run_and_the_run_stop_with_the_same_install_hint(tmp_path):
    import subprocess
    import sys

    common = ["judge", "--run", str(FIXTURES / "runA.jsonl"), "--nuggets", str(FIXTURES / "nuggets.jsonl"),
              "--collection", str(FIXTURES / "collection.jsonl"), "--llm-model", "m", "--llm-base-url",
              "http://127.0.0.1:9/v1", "--no-cache"]
    hint = ("the llm judge (an OpenAI-compatible chat endpoint) needs the optional 'llm' dependencies, which "
            "are not installed; install them with: pip install 'argue-eval[llm]' (no module named 'aiohttp')\n")
    for judge in ("llm", "lexical,llm"):
        for mode in (["--dry-run"], ["-o", str(tmp_path / "j.jsonl")]):
            done = subprocess.run([sys.executable, "-c", HIDE_AIOHTTP, *common, "--judge", judge, *mode],
                                  capture_output=True, text=True, timeout=120)
            assert (done.returncode, done.stderr, done.stdout) == (2, hint, ""), (judge, mode)
    assert not (tmp_path / "j.jsonl").exists()
