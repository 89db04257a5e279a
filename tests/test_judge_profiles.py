"""``argue-eval judge calibrate`` end to end, and the judge profile it writes: the round trip through
``--judge-option profile=P.json`` (judge, evaluate, a measure command, the Python API), the profile as part of
the judge's identity in a real SQLite cache, the refusal, and the one-line errors of a profile that does not fit.

The track is built here: three topics, each with one report of four sentences giving 1, 2, 3 or 4 of the four
words of its one nugget answer ("walrus copper violin tundra", under a question without content words), so the
lexical judge's answer score is 0.25, 0.5, 0.75 or 1 and a threshold t says yes from two words on at the default
0.45, from three words on at 0.5 < t <= 0.75.
"""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.formats.profiles import profile_id, read_profile
from argue_eval.judges.lexical import LexicalJudge

ANSWER = "walrus copper violin tundra"
SENTENCES = ["A walrus rested near the harbour.", "A walrus rested near the copper harbour.",
             "A walrus played a copper violin near the harbour.", "A walrus played a copper violin on the tundra."]


def invoke(*args: object):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def _jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


@pytest.fixture
def track(tmp_path):
    topics = ["t1", "t2", "t3"]
    _jsonl(tmp_path / "requests.jsonl", [{"request_id": t, "title": f"Animals {t}", "problem_statement":
                                          "Report on the animals.", "background": "I write about animals."}
                                         for t in topics])
    _jsonl(tmp_path / "nuggets.jsonl", [{"request_id": t, "nuggets": [
        {"nugget_id": f"{t}-n1", "question": "What is it?", "importance": "vital", "aggregator": "OR",
         "negative": False, "answers": [{"answer": ANSWER, "doc_ids": [f"{t}-d"]}]}]} for t in topics])
    _jsonl(tmp_path / "collection.jsonl", [{"doc_id": f"{t}-d", "title": "Harbour news",
                                            "text": "A walrus played a copper violin on the tundra near the harbour."}
                                           for t in topics])
    _jsonl(tmp_path / "run.jsonl", [{"run_id": "r1", "request_id": t, "collection_ids": ["tiny"], "sentences": [
        {"text": sentence, "citations": [f"{t}-d"]} for sentence in SENTENCES]} for t in topics])
    return tmp_path


def human(path: Path, least: dict[str, int]) -> Path:
    """People who say yes from ``least[topic]`` answer words on."""
    return _jsonl(path, [{"kind": "answers", "request_id": topic, "sentence": sentence, "doc_id": f"{topic}-d",
                          "nugget_id": f"{topic}-n1", "answer": ANSWER, "run_id": None, "sentence_index": None,
                          "value": words >= need, "judge": "human:test"}
                         for topic, need in least.items() for words, sentence in enumerate(SENTENCES, 1)])


def inputs(track: Path) -> list[object]:
    return ["--run", track / "run.jsonl", "--nuggets", track / "nuggets.jsonl", "--requests", track / "requests.jsonl",
            "--collection", track / "collection.jsonl"]


def calibrated(track: Path, *extra: object) -> tuple[object, Path]:
    labels = human(track / "human.jsonl", {"t1": 3, "t2": 3, "t3": 3})
    profile = track / "profile.json"
    result = invoke("judge", "calibrate", *inputs(track), "--human", labels, "--no-cache", "--folds", 3, "-o", profile,
                    *extra)
    return result, profile


def test_calibrate_fits_the_threshold_and_writes_a_versioned_profile(track):
    # people on every topic say yes from three words: with any two topics as training, the thresholds from 0.55 to
    # 0.75 agree with them exactly (kappa 1 in every resample: no spread), and 0.55 is the one nearest the default.
    # Held out: kappa 1, accuracy 1; the default says yes to the three two-word sentences too: of 12, people yes
    # 6, judge yes 9, 9 agree: kappa (9/12 - 1/2) / (1/2) = 0.5
    result, profile = calibrated(track)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    row = next(line.split() for line in lines if line.startswith("answers"))
    assert row[:2] == ["answers", "12"]
    assert row[2] == "0.750" and row[5] == "0.500" and row[8] == "1.000" and row[11] == "1.000"
    assert "fitted on all labelled topics (lexical): answer_threshold 0.45 -> 0.55" in result.stdout
    record = json.loads(profile.read_text())
    assert record["format"] == "argue-eval-judge-profile" and record["version"] == 1
    assert record["judge"] == "lexical" and record["backends"] == {"lexical": LexicalJudge.version}
    assert record["options"]["lexical"]["answer_threshold"] == 0.55
    assert record["options"]["lexical"]["answer_question_weight"] == 0.4
    assert "attested_threshold" not in record["options"]["lexical"]  # no attested labels: not fitted
    assert record["fitted_on"]["labels"] == 12 and record["fitted_on"]["topics"] == ["t1", "t2", "t3"]
    assert sorted(record["cross_validation"]["folds"]) == [["t1"], ["t2"], ["t3"]]
    (kind,) = record["cross_validation"]["kinds"]
    assert kind["default"]["kappa"] == 0.5 and kind["fitted"]["kappa"] == 1.0
    assert f"({profile_id(record)})" in result.stderr
    # a rerun writes the same bytes (seeded folds and resamples, no clock)
    first = profile.read_bytes()
    again, _ = calibrated(track)
    assert again.exit_code == 0 and profile.read_bytes() == first


def test_calibrate_refuses_a_profile_worse_than_the_default_held_out(track):
    # t1's people say yes from three words, t2's from two (the default). Trained on t2 alone, the default is
    # perfect and stays; held out on t1 it errs on the two-word sentence. Trained on t1 alone, 0.55 is perfect;
    # held out on t2 it errs on the two-word sentence. Of 8: people yes 5, judge yes 5, 6 agree: kappa
    # (6/8 - 34/64) / (1 - 34/64) = 7/15; the default errs once (t1): kappa 5/7. Worse: nothing is written.
    labels = human(track / "human.jsonl", {"t1": 3, "t2": 2})
    profile = track / "profile.json"
    result = invoke("judge", "calibrate", *inputs(track), "--human", labels, "--no-cache", "--folds", 2, "-o", profile)
    assert result.exit_code == 1
    assert f"error: refused to write {profile}: " in result.stderr and "(answers)" in result.stderr
    quiet = invoke("judge", "calibrate", *inputs(track), "--human", labels, "--no-cache", "--folds", 2, "-o", profile,
                   "--quiet")
    assert quiet.exit_code == 1 and quiet.stderr.startswith("error: refused to write")
    row = next(line.split() for line in result.stdout.splitlines() if line.startswith("answers"))
    assert row[5] == "0.714" and row[11] == "0.467"
    assert not profile.exists()
    assert list(track.glob("profile*")) == []  # no temporary file left either


def test_judge_with_the_profile_answers_as_fitted_and_names_it(track):
    _, profile = calibrated(track)
    out = track / "judged.jsonl"
    result = invoke("judge", *inputs(track), "--no-cache", "--judge-option", f"profile={profile}", "-o", out)
    assert result.exit_code == 0, result.output
    answers = {j["sentence"]: j["value"] for j in map(json.loads, out.read_text().splitlines()) if j["kind"] == "answers"}
    assert [answers[s] for s in SENTENCES] == [False, False, True, True]  # the default says yes to the second
    manifest = json.loads((track / "judged.jsonl.manifest.json").read_text())
    assert manifest["judge_options"] == {"profile": str(profile)}
    assert manifest["judge_identity"]["answer_threshold"] == 0.55
    assert manifest["judge_identity"]["profile"] == read_profile(profile).id == profile_id(json.loads(profile.read_text()))
    provenance = json.loads(out.read_text().splitlines()[0])["provenance"]
    assert provenance["profile"] == read_profile(profile).id
    # an option given beside the profile wins over it, and the identity still names the profile
    beside = invoke("judge", *inputs(track), "--no-cache", "--judge-option", f"profile={profile}",
                    "--judge-option", "lexical.answer_threshold=0.45", "-o", track / "beside.jsonl")
    assert beside.exit_code == 0
    identity = json.loads((track / "beside.jsonl.manifest.json").read_text())["judge_identity"]
    assert identity["answer_threshold"] == 0.45 and identity["profile"] == read_profile(profile).id


def test_evaluate_a_measure_and_the_python_api_take_the_profile(track):
    from argue_eval import api

    _, profile = calibrated(track)
    scored = invoke("evaluate", *inputs(track), "--no-cache", "--judge-option", f"profile={profile}",
                    "-o", track / "scores.tsv", "-q")
    assert scored.exit_code == 0, scored.output
    default = invoke("evaluate", *inputs(track), "--no-cache", "-o", track / "default.tsv", "-q")
    assert default.exit_code == 0
    assert (track / "scores.tsv").read_text() != (track / "default.tsv").read_text()
    result = api.judge(str(track / "run.jsonl"), str(track / "nuggets.jsonl"), requests=str(track / "requests.jsonl"),
                       collection=str(track / "collection.jsonl"), judge_options={"profile": str(profile)})
    assert result.identity["answer_threshold"] == 0.55 and result.identity["profile"] == read_profile(profile).id
    # LongRecall with each nugget answer as a fact: the lexical judge under the profile decides the entailment
    recall = invoke("longrecall", "--run", track / "run.jsonl", "--nuggets", track / "nuggets.jsonl", "--no-cache",
                    "--judge-option", f"profile={profile}", "-o", track / "lr.tsv", "-q")
    assert recall.exit_code == 0, recall.output


def _fingerprints(cache: Path) -> set[str]:
    with sqlite3.connect(cache) as db:
        return {row[0] for row in db.execute("SELECT DISTINCT judge FROM answers")}


def test_answers_under_different_profiles_never_mix_in_the_cache(track):
    _, profile = calibrated(track)
    # a second profile with the same options, fitted on something else: another profile, another identity
    twin = track / "twin.json"
    record = json.loads(profile.read_text())
    record["fitted_on"]["human"] = ["other.jsonl"]
    twin.write_text(json.dumps(record), encoding="utf-8")
    cache = track / "cache.sqlite"

    def judge(*options: str) -> dict:
        out = track / "j.jsonl"
        args = [a for o in options for a in ("--judge-option", o)]
        result = invoke("judge", *inputs(track), "--cache", cache, *args, "-o", out)
        assert result.exit_code == 0, result.output
        manifest = json.loads((track / "j.jsonl.manifest.json").read_text())
        return {"new": sum(manifest["new"].values()), "cached": sum(manifest["cached"].values()),
                "answers": [j["value"] for j in map(json.loads, out.read_text().splitlines()) if j["kind"] == "answers"]}

    first = judge(f"profile={profile}")
    assert first["new"] == 24 and first["cached"] == 0  # 12 answers, 12 attested
    assert judge(f"profile={profile}") == {**first, "new": 0, "cached": 24}
    plain = judge()
    assert plain["new"] == 24 and plain["cached"] == 0  # the default judge reuses none of the profile's answers
    assert plain["answers"] != first["answers"]
    same_options = judge(f"profile={twin}")
    assert same_options["new"] == 24 and same_options["answers"] == first["answers"]
    explicit = judge("lexical.answer_threshold=0.55")  # the profile's threshold without the profile: apart too
    assert explicit["new"] == 24
    assert len(_fingerprints(cache)) == 4
    assert judge(f"profile={profile}")["cached"] == 24


@pytest.mark.parametrize("edit, field, message", [
    (lambda r: r.update(format="something-else"), "format", "expected 'argue-eval-judge-profile'"),
    (lambda r: r.update(version=2), "version", "profile version 2 is newer than this argue-eval reads (1)"),
    (lambda r: r.update(version="1"), "version", "expected a profile version (1)"),
    (lambda r: r.update(judge="semantic"), "judge", "fitted for --judge semantic, not --judge lexical"),
    (lambda r: r["backends"].update(lexical="0"), "backends.lexical",
     f"fitted for version 0 of the lexical judge; this argue-eval's is version {LexicalJudge.version}"),
    (lambda r: r["options"]["lexical"].update(threshold_of_doom=1), "options.lexical.threshold_of_doom",
     "the lexical judge has no option 'threshold_of_doom'; its options: answer_threshold,"),
    (lambda r: r["options"]["lexical"].update(answer_threshold="high"), "options.lexical.answer_threshold",
     "expected a number, found 'high'"),
    (lambda r: r["options"].update(semantic={"answers_threshold": 0.5}), "options.semantic",
     "options for 'semantic', which is not in --judge lexical"),
])
def test_a_profile_that_does_not_fit_is_one_located_line_and_exit_2(track, edit, field, message):
    _, profile = calibrated(track)
    record = json.loads(profile.read_text())
    edit(record)
    bad = track / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    out = track / "out.jsonl"
    for command in (["judge"], ["evaluate"]):
        result = invoke(*command, *inputs(track), "--no-cache", "--judge-option", f"profile={bad}", "-o", out)
        assert result.exit_code == 2
        assert result.stderr.splitlines() == [result.stderr.strip()]
        assert result.stderr.startswith(f"{bad}: {field}: ") and message in result.stderr
        assert not out.exists()
    measure = invoke("longrecall", "--run", track / "run.jsonl", "--nuggets", track / "nuggets.jsonl", "--no-cache",
                     "--judge-option", f"profile={bad}", "-o", out)
    assert measure.exit_code == 2 and measure.stderr.startswith(f"{bad}: {field}: ") and not out.exists()


def test_files_that_are_no_profile_and_a_second_profile_are_errors(track):
    not_json = track / "broken.json"
    not_json.write_text("{\"format\": ", encoding="utf-8")
    array = track / "array.json"
    array.write_text("[1, 2]", encoding="utf-8")
    out = track / "out.jsonl"
    for path, expected in ((not_json, f"{not_json}:1: invalid JSON"), (array, f"{array}: expected a judge profile"),
                           (track / "absent.json", f"{track / 'absent.json'}: no such file")):
        result = invoke("judge", *inputs(track), "--no-cache", "--judge-option", f"profile={path}", "-o", out)
        assert result.exit_code == 2 and result.stderr.startswith(expected), result.stderr
    twice = invoke("judge", *inputs(track), "--no-cache", "--judge-option", f"profile={array}",
                   "--judge-option", f"profile={not_json}", "-o", out)
    assert twice.exit_code == 2 and "give one profile=P.json" in twice.stderr
    _, profile = calibrated(track)
    again = invoke("judge", "calibrate", *inputs(track), "--human", track / "human.jsonl", "--no-cache",
                   "--judge-option", f"profile={profile}", "-o", track / "p2.json")
    assert again.exit_code == 2 and "leave out profile=" in again.stderr


def test_calibrate_needs_labels_on_two_topics(track):
    labels = human(track / "human.jsonl", {"t1": 3})
    result = invoke("judge", "calibrate", *inputs(track), "--human", labels, "--no-cache", "-o", track / "p.json")
    assert result.exit_code == 2
    assert "one topic only (t1)" in result.stderr and not (track / "p.json").exists()


def test_judge_calibrate_leaves_judge_as_it_was(track):
    listed = invoke("--help")
    assert "judge calibrate" in listed.output
    assert "Usage: cli judge calibrate [OPTIONS] [RUN]..." in invoke("judge", "calibrate", "--help").output
    assert "Usage: cli judge [OPTIONS] [RUN]..." in invoke("judge", "--help").output
    plain = invoke("judge", track / "run.jsonl", "--nuggets", track / "nuggets.jsonl", "--dry-run", "--json")
    assert plain.exit_code == 0 and json.loads(plain.output)["questions"]["answers"] == 12


def test_calibrate_json_holds_the_figures_and_the_profile_id(track):
    result, profile = calibrated(track, "--json")
    assert result.exit_code == 0
    figures = json.loads(result.stdout)
    assert figures["refused"] is False and figures["profile_id"] == read_profile(profile).id
    assert figures["options"]["lexical"]["answer_threshold"] == 0.55
    assert figures["baseline"]["lexical"]["answer_threshold"] == 0.45
    (kind,) = figures["kinds"]
    assert kind["default"]["confusion"] == {"yes_yes": 6, "yes_no": 0, "no_yes": 3, "no_no": 3}
    assert kind["fitted"]["confusion"] == {"yes_yes": 6, "yes_no": 0, "no_yes": 0, "no_no": 6}


def test_several_assessors_give_the_label_most_of_them_give(tmp_path):
    from argue_eval.api.calibrate import _labels
    from argue_eval.api.result import NoteLog

    def row(sentence: str, value: bool, judge: str) -> dict:
        return {"kind": "attested", "request_id": "t1", "sentence": sentence, "doc_id": "d", "nugget_id": None,
                "answer": None, "run_id": None, "sentence_index": None, "value": value, "judge": judge}

    # alice changes her mind on "A." (her last answer counts); bob and carol split "A." 1-1 with her: yes 2, no 1;
    # "B." is yes for alice, no for bob: a tie, left out
    alice = _jsonl(tmp_path / "alice.jsonl", [row("A.", False, "human:alice"), row("A.", True, "human:alice"),
                                               row("B.", True, "human:alice")])
    others = _jsonl(tmp_path / "others.jsonl", [row("A.", True, "human:bob"), row("A.", False, "human:carol"),
                                                 row("B.", False, "human:bob")])
    log = NoteLog()
    labels = _labels([alice, others], log)
    assert {key.sentence: value for key, value in labels.items()} == {"A.": True}
    assert log.notes[0].text == ("2 question(s) are answered by several assessors: the answer most of them give is "
                                 "taken; 1 answered yes and no equally often are left out")
