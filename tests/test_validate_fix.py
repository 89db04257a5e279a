"""``validate --fix -o FIXED``: each track preset's runs repaired, every change located, the input never written.

Every expectation below is worked out by hand from the small run written in the test: the sentence lengths are
counted in the comments, and the fixed run is compared field by field.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.repair import fix_run
from argue_eval.validate import ValidateOptions


def write(path: Path, objects: list[dict]) -> Path:
    path.write_text("".join(json.dumps(obj) + "\n" for obj in objects), encoding="utf-8")
    return path


def requests(tmp_path: Path, limits: dict[str, int], unit: str | None = None) -> Path:
    rows = [{"request_id": rid, "collection_ids": ["c"], "background": "b", "problem_statement": "p", "limit": limit,
             **({"limit_unit": unit} if unit else {})} for rid, limit in limits.items()]
    return write(tmp_path / "requests.jsonl", rows)


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def invoke(*args: str):
    return CliRunner().invoke(cli, ["validate", *args])


def neuclir(request_id: str, texts: list[str], citations: list[list[str]] | None = None) -> dict:
    cites = citations or [[] for _ in texts]
    return {"run_id": "r1", "request_id": request_id, "collection_ids": ["c"],
            "sentences": [{"text": t, "citations": c} for t, c in zip(texts, cites)]}


# "Alpha beta gamma." 17, "Delta epsilon zeta eta." 23, "Theta iota. Kappa lambda mu." 28: 68 characters
TEXTS = ["Alpha beta gamma.", "Delta epsilon zeta eta.", "Theta iota. Kappa lambda mu."]


def test_neuclir_report_loses_its_last_sentence_when_no_sentence_end_of_it_fits(tmp_path):
    run = write(tmp_path / "run.jsonl", [neuclir("q1", TEXTS)])
    fixed = fix_run(run, tmp_path / "fixed.jsonl", requests(tmp_path, {"q1": 50}))
    # 17 + 23 = 40 fit; 10 are left and "Theta iota." (11) does not fit: sentences[2] goes
    assert [s["text"] for s in lines(tmp_path / "fixed.jsonl")[0]["sentences"]] == TEXTS[:2]
    assert [str(c) for c in fixed.changes] == [
        f"{run}:1: sentences: fixed: report was 68 characters, over the limit of 50 characters (request 'q1'): "
        "dropped sentences[2] (1 sentence); now 40 characters"]
    assert (fixed.sentences_dropped, fixed.sentences_cut, fixed.changed_reports) == (1, 0, 1)


def test_the_sentence_that_crosses_the_limit_is_cut_at_a_sentence_end_inside_it(tmp_path):
    run = write(tmp_path / "run.jsonl", [neuclir("q1", TEXTS)])
    fixed = fix_run(run, tmp_path / "fixed.jsonl", requests(tmp_path, {"q1": 52}))
    # 40 + "Theta iota." (11) = 51 <= 52
    assert [s["text"] for s in lines(tmp_path / "fixed.jsonl")[0]["sentences"]] == [*TEXTS[:2], "Theta iota."]
    assert fixed.changes[0].message == ("report was 68 characters, over the limit of 52 characters (request 'q1'): "
                                        "cut sentences[2] at a sentence end; now 51 characters")


def test_a_first_sentence_with_no_sentence_end_within_the_limit_is_cut_at_a_word(tmp_path):
    run = write(tmp_path / "run.jsonl", [neuclir("q1", TEXTS)])
    fixed = fix_run(run, tmp_path / "fixed.jsonl", requests(tmp_path, {"q1": 12}))
    # "Alpha beta" is 10 characters; "Alpha beta gamma." (17) and its sentence end do not fit
    assert [s["text"] for s in lines(tmp_path / "fixed.jsonl")[0]["sentences"]] == ["Alpha beta"]
    assert fixed.changes[0].message == (
        "report was 68 characters, over the limit of 12 characters (request 'q1'): dropped sentences[1..2] "
        "(2 sentences) and cut sentences[0] inside a sentence (no sentence end within the limit); now 10 characters")


def test_chinese_text_is_cut_at_its_sentence_marks_or_characters(tmp_path):
    run = write(tmp_path / "run.jsonl", [neuclir("q1", ["第一句。第二句。"]), neuclir("q2", ["没有句号也没有空格的长句子"])])
    fix_run(run, tmp_path / "fixed.jsonl", requests(tmp_path, {"q1": 5, "q2": 4}))
    fixed = lines(tmp_path / "fixed.jsonl")
    assert fixed[0]["sentences"][0]["text"] == "第一句。"  # 4 characters, the mark included
    assert fixed[1]["sentences"][0]["text"] == "没有句号"  # no mark, no space: the first 4 characters


def test_nfkc_lengths_decide_what_fits(tmp_path):
    # "ﬁne." is 4 code points but 5 after NFKC (the ligature counts 2), as validate counts it
    run = write(tmp_path / "run.jsonl", [neuclir("q1", ["ﬁne.", "Ok."])])
    fixed = fix_run(run, tmp_path / "fixed.jsonl", requests(tmp_path, {"q1": 7}))
    assert [s["text"] for s in lines(tmp_path / "fixed.jsonl")[0]["sentences"]] == ["ﬁne."]
    assert fixed.changes[0].message.endswith("now 5 characters")


def test_repeated_citations_and_their_parallel_scores_are_dropped(tmp_path):
    obj = {"run_id": "r1", "request_id": "q1", "metadata": {"team": "t"},
           "sentences": [{"text": "One.", "citations": ["d1", "d2", "d1"], "citation_scores": [0.9, 0.5, 0.1]}]}
    run = write(tmp_path / "run.jsonl", [obj])
    fixed = fix_run(run, tmp_path / "fixed.jsonl")
    assert fixed.format == "argue"
    sentence = lines(tmp_path / "fixed.jsonl")[0]["sentences"][0]
    assert sentence == {"text": "One.", "citations": ["d1", "d2"], "citation_scores": [0.9, 0.5]}
    assert [str(c) for c in fixed.changes] == [f"{run}:1: sentences[0].citations[2]: fixed: dropped the repeated "
                                               "citation of 'd1'"]


def test_a_neuclir_run_under_its_track_takes_the_tracks_2000_characters(tmp_path):
    long = ["A" * 1500 + ".", "B" * 600 + "."]  # 1501 + 601 = 2102 > 2000: the second goes
    run = write(tmp_path / "run.jsonl", [neuclir("q1", long)])
    fixed = fix_run(run, tmp_path / "fixed.jsonl", options=ValidateOptions(track="neuclir24"))
    assert fixed.changes[0].message == ("report was 2102 characters, over the limit of 2000 characters "
                                        "(--track neuclir24): dropped sentences[1] (1 sentence); now 1501 characters")


def test_ragtime_unknown_citations_empty_sentences_and_uncited_references(tmp_path):
    obj = {"metadata": {"team_id": "t", "run_id": "rt", "topic_id": "q1"},
           "responses": [{"text": "Toledo banned tap water.", "citations": {"p1": 0.9, "p9": 0.4}},
                         {"text": "  ", "citations": ["p2"]},
                         {"text": "The bloom grew.", "citations": ["p1"]}],
           "references": ["p1", "p2", "p3"]}
    run = write(tmp_path / "run.jsonl", [obj])
    fixed = fix_run(run, tmp_path / "fixed.jsonl", options=ValidateOptions(track="ragtime26"))
    out = lines(tmp_path / "fixed.jsonl")[0]
    assert out["responses"] == [{"text": "Toledo banned tap water.", "citations": {"p1": 0.9}},
                                {"text": "The bloom grew.", "citations": ["p1"]}]
    assert out["references"] == ["p1"]
    assert [(c.field, c.fix) for c in fixed.changes] == [
        ("responses[0].citations", "citation-not-in-references"),
        ("responses[1]", "empty-sentence"),
        ("references[1]", "reference-not-cited"),
        ("references[2]", "reference-not-cited"),
    ]
    assert fixed.changes[1].message == "dropped an empty sentence, with its 1 citation"


def test_rag24_out_of_range_indexes_a_word_limit_and_the_restated_response_length(tmp_path):
    obj = {"run_id": "r24", "topic_id": "t1", "topic": "algae", "references": ["s0", "s1"], "response_length": 9,
           "answer": [{"text": "Toledo water was unsafe.", "citations": [0, 5, 0]},
                      {"text": "An algal toxin caused it.", "citations": [1]}]}
    run = write(tmp_path / "run.jsonl", [obj])
    fixed = fix_run(run, tmp_path / "fixed.jsonl", options=ValidateOptions(track="rag24", limit=6))
    out = lines(tmp_path / "fixed.jsonl")[0]
    # 4 words + 5 words = 9 > 6: the second sentence has no end within 2 words and goes
    assert out["answer"] == [{"text": "Toledo water was unsafe.", "citations": [0]}]
    assert out["references"] == ["s0", "s1"]  # the retrieved context: never dropped, indexes keep their meaning
    assert out["response_length"] == 4
    assert [(c.field, c.fix) for c in fixed.changes] == [
        ("answer[0].citations[1]", "citation-out-of-range"), ("answer[0].citations[2]", "duplicate-citation"),
        ("answer", "length"), ("response_length", "response-length")]
    assert fixed.changes[0].message == "dropped citation index 5: references has 2 entries"
    assert fixed.changes[2].message == ("report was 9 words, over the limit of 6 words (--limit): dropped answer[1] "
                                        "(1 sentence); now 4 words")


def test_rag25_ids_outside_the_references_go_and_indexes_stay(tmp_path):
    obj = {"metadata": {"team_id": "t", "run_id": "r25", "narrative_id": "7"}, "references": ["s0", "s1"],
           "answer": [{"text": "Toledo water was unsafe.", "citations": [1, "s0", "elsewhere", True]}]}
    run = write(tmp_path / "run.jsonl", [obj])
    fixed = fix_run(run, tmp_path / "fixed.jsonl", options=ValidateOptions(track="rag25"))
    assert lines(tmp_path / "fixed.jsonl")[0]["answer"][0]["citations"] == [1, "s0"]
    assert [(c.field, c.fix, c.message) for c in fixed.changes] == [
        ("answer[0].citations[2]", "citation-not-in-references",
         "dropped the citation of 'elsewhere', which the report's references do not list"),
        ("answer[0].citations[3]", "not-a-citation", "dropped a boolean, which is not a document id")]


def test_citations_of_documents_outside_the_collection_are_dropped(tmp_path):
    collection = write(tmp_path / "docs.jsonl", [{"id": "d1", "text": "x"}])
    run = write(tmp_path / "run.jsonl", [neuclir("q1", ["One."], [["d1", "d7"]])])
    fixed = fix_run(run, tmp_path / "fixed.jsonl", collection=collection)
    assert lines(tmp_path / "fixed.jsonl")[0]["sentences"][0]["citations"] == ["d1"]
    assert [c.fix for c in fixed.changes] == ["missing-document"]


def test_lines_that_need_nothing_are_written_byte_for_byte(tmp_path):
    clean = '{"run_id":"r1",  "request_id":"q0", "sentences": [{"text": "caf\\u00e9.", "citations": []}]}\n'
    run = tmp_path / "run.jsonl"
    run.write_text(clean + json.dumps(neuclir("q1", ["One."], [["d1", "d1"]])) + "\n", encoding="utf-8")
    fix_run(run, tmp_path / "fixed.jsonl")
    first, second = (tmp_path / "fixed.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    assert first == clean
    assert json.loads(second)["sentences"][0]["citations"] == ["d1"]


def test_the_command_writes_the_fixed_run_lists_the_changes_and_never_touches_the_input(tmp_path):
    run = write(tmp_path / "run.jsonl", [neuclir("q1", TEXTS, [["d1", "d1"], [], []])])
    req = requests(tmp_path, {"q1": 50})
    digest = hashlib.sha256(run.read_bytes()).hexdigest()
    result = invoke(str(run), "--requests", str(req), "--fix", "-o", str(tmp_path / "fixed.jsonl"),
                    "--changes", str(tmp_path / "changes.tsv"))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        f"{run}:1: sentences[0].citations[1]: fixed: dropped the repeated citation of 'd1'",
        f"{run}:1: sentences: fixed: report was 68 characters, over the limit of 50 characters (request 'q1'): "
        "dropped sentences[2] (1 sentence); now 40 characters",
        "2 changes in 1 of 1 report (1 length, 1 duplicate-citation); 1 sentence dropped, 0 cut; "
        "fixed: 0 errors, 0 warnings, 1 report checked in 1 run file",
    ]
    assert hashlib.sha256(run.read_bytes()).hexdigest() == digest
    assert (tmp_path / "changes.tsv").read_text(encoding="utf-8").splitlines() == [
        "file\tline\tfield\tfix\tmessage",
        f"{run}\t1\tsentences[0].citations[1]\tduplicate-citation\tdropped the repeated citation of 'd1'",
        f"{run}\t1\tsentences\tlength\treport was 68 characters, over the limit of 50 characters (request 'q1'): "
        "dropped sentences[2] (1 sentence); now 40 characters",
    ]


def test_what_cannot_be_fixed_is_reported_on_the_fixed_run_with_exit_1(tmp_path):
    run = write(tmp_path / "run.jsonl", [neuclir("q1", ["One."])])
    req = requests(tmp_path, {"q1": 50, "q2": 50})
    result = invoke(str(run), "--requests", str(req), "--fix", "-o", str(tmp_path / "fixed.jsonl"))
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"{tmp_path / 'fixed.jsonl'}: run 'r1' has no report for request 'q2' ({req}:2)",
        "0 changes in 0 of 1 report; fixed: 1 error, 0 warnings, 1 report checked in 1 run file"]


def test_several_runs_are_fixed_into_a_directory_by_their_names(tmp_path):
    a = write(tmp_path / "a.jsonl", [neuclir("q1", ["One."], [["d1", "d1"]])])
    b = write(tmp_path / "b.jsonl", [{**neuclir("q1", ["Two."]), "run_id": "r2"}])
    result = invoke(str(a), str(b), "--fix", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert lines(tmp_path / "out" / "a.jsonl")[0]["sentences"][0]["citations"] == ["d1"]
    assert (tmp_path / "out" / "b.jsonl").read_bytes() == b.read_bytes()


@pytest.mark.parametrize("args, message", [
    (["--fix"], "--fix: needs -o FIXED"),
    (["-o", "x.jsonl"], "-o: writes the repaired run: give --fix too"),
])
def test_fix_and_its_output_go_together(tmp_path, args, message):
    run = write(tmp_path / "run.jsonl", [neuclir("q1", ["One."])])
    result = invoke(str(run), *args)
    assert result.exit_code == 2 and message in result.output


def test_a_malformed_run_exits_2_and_writes_nothing(tmp_path):
    run = tmp_path / "run.jsonl"
    run.write_text('{"run_id": "r1",\n "request_id": "q1"}\n', encoding="utf-8")
    result = invoke(str(run), "--fix", "-o", str(tmp_path / "fixed.jsonl"))
    assert result.exit_code == 2
    assert result.output.splitlines()[-1].startswith(f"{run}:1: the JSON object starting here does not end")
    assert not (tmp_path / "fixed.jsonl").exists()


def test_the_input_itself_is_refused_as_the_output(tmp_path):
    run = write(tmp_path / "run.jsonl", [neuclir("q1", ["One."])])
    with pytest.raises(ValueError, match="never writes its input"):
        fix_run(run, run)


def test_with_lenient_a_pretty_printed_run_is_fixed_into_json_lines(tmp_path):
    run = tmp_path / "run.json"
    run.write_text(json.dumps(neuclir("q1", ["One.", "One."], [["d1", "d1"], []]), indent=2) + "\n", encoding="utf-8")
    result = invoke(str(run), "--lenient", "--fix", "-o", str(tmp_path / "fixed.jsonl"))
    assert result.exit_code == 0, result.output
    text = (tmp_path / "fixed.jsonl").read_text(encoding="utf-8")
    assert len(text.splitlines()) == 1 and json.loads(text)["sentences"][0]["citations"] == ["d1"]
    assert result.output.splitlines()[0] == f"{run}:1: sentences[0].citations[1]: fixed: dropped the repeated citation of 'd1'"
