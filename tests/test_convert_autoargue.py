"""``convert`` of an Auto-ARGUE ``*.judgments.jsonl``: every answer kept, the run and the cited documents taken out.

Fixtures: ``tests/fixtures/autoargue_replay`` (hand-made: two reports, a v3 bank of three topics; the expected
conversions below are worked out by hand from the bank, see each test) and the sample track's
``qrels/sample/hallucinating.autoargue.judgments.jsonl`` (the sample assessor's judgments of two reports in
Auto-ARGUE's shape, written by ``tools/sample_track/make_autoargue.py``).
"""
from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli

REPO = Path(__file__).resolve().parent.parent
REPLAY = REPO / "tests/fixtures/autoargue_replay"
REPLAY_FILE = REPLAY / "report.judgments.jsonl"
REPLAY_BANK = REPLAY / "nuggets"
SAMPLE_FILE = REPO / "qrels/sample/hallucinating.autoargue.judgments.jsonl"
SAMPLE_BANK = REPO / "nuggets/sample/nuggets.jsonl"
SCORED = REPO / "tests/fixtures/argue/autoargue.judgments.jsonl"  # RAGTIME citations with scores 100.0 and 90.0

D1, D2, D3, D5, D6, D9 = (f"00000000-0000-4000-8000-00000000000{n}" for n in (1, 2, 3, 5, 6, 9))


def invoke(*args: str):
    return CliRunner().invoke(cli, [str(a) for a in args])


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def convert_judgments(tmp_path: Path, source: Path = REPLAY_FILE, bank: Path = REPLAY_BANK, name: str = "c.jsonl"):
    out = tmp_path / name
    result = invoke("convert", source, "--nuggets", bank, "--to", "argue", "-o", out)
    assert result.exit_code == 0, result.output
    return out, result


def edited(tmp_path: Path, edit, source: Path = REPLAY_FILE, name: str = "edited.judgments.jsonl") -> Path:
    """A copy of ``source`` whose line objects went through ``edit(objects)`` (which may add or drop lines)."""
    objects = lines(source)
    objects = edit(objects) or objects
    path = tmp_path / name
    path.write_text("".join(json.dumps(obj) + "\n" for obj in objects))
    return path


# -------------------------------------------------------------------------------------------- judgments
def test_every_answer_is_kept_under_the_bank_ids(tmp_path):
    """By hand from the v3 bank: topic 101 binds d1 to 101q1 "August 2014" and 101q2 "microcystin", d2 to 101q1
    "2014" and 101q5 "three days", d3 to 101q2 "phosphorus" and 101q4 "Governor  Kasich "; topic 102 binds d5 to
    102q1 "Ohio", d6 to 102q2 "2015" (d9 to nothing). Each SENTENCE_ANSWERS_QUESTION judgment stands for every
    answer of its document: the listed matches are yes, the others no. d9 is irrelevant and has no such judgment."""
    out, result = convert_judgments(tmp_path)
    answers = [(j["request_id"], j["sentence"][:11], j["doc_id"], j["nugget_id"], j["answer"], j["value"])
               for j in lines(out) if j["kind"] == "answers"]
    assert answers == [
        ("101", "In August 2", D1, "101q1", "August 2014", True),
        ("101", "In August 2", D1, "101q2", "microcystin", True),
        ("101", "The toxin c", D3, "101q2", "phosphorus", True),
        ("101", "The toxin c", D3, "101q4", "Governor  Kasich ", False),
        ("101", "Governor Ka", D3, "101q2", "phosphorus", False),
        ("101", "Governor Ka", D3, "101q4", "Governor  Kasich ", True),
        ("101", "Residents  ", D2, "101q1", "2014", False),
        ("101", "Residents  ", D2, "101q5", "three days", False),
        ("102", "Ohio report", D5, "102q1", "Ohio", True),
        ("102", "It happened", D6, "102q2", "2015", True),
    ]
    # relevance and attestation as they are: 101: four citations, all relevant, attested T T F T; 102: d5 (relevant,
    # attested), d6 (relevant, attested), d9 (irrelevant, not attested)
    rest = [(j["kind"], j["doc_id"], j["value"], j["judge"]) for j in lines(out) if j["kind"] != "answers"]
    assert [r for r in rest if r[0] == "attested"] == [
        ("attested", D1, True, "autoargue:from_env"), ("attested", D3, True, "autoargue:from_env"),
        ("attested", D3, False, "autoargue:from_env"), ("attested", D2, True, "autoargue:from_env"),
        ("attested", D5, True, "autoargue:from_env"), ("attested", D6, True, "autoargue:from_env"),
        ("attested", D9, False, "autoargue:from_env")]
    assert [r[2] for r in rest if r[0] == "relevant"] == [True, True, True, True, True, True, False]
    assert {r[3] for r in rest if r[0] == "relevant"} == {"autoargue:null"}
    # the counts per kind, before (Auto-ARGUE types) and after (ours): 7 + 6 + 7 read; 6 matched answers listed
    assert result.stderr.splitlines()[:2] == [
        f"{REPLAY_FILE}: 2 report(s); read CITED_DOCUMENT_RELEVANCE 7, SENTENCE_ANSWERS_QUESTION 6 (6 matched "
        "answer(s)), SENTENCE_ATTESTED 7",
        "wrote relevant 7 (yes 6, no 1), answers 10 (yes 6, no 4), attested 7 (yes 5, no 2)",
    ]
    assert "warning" not in result.stderr
    assert result.stderr.strip().endswith(f"-> {out} (argue): 24 records")


SCORE_OPTIONS = [(), ("--missing-topics", "skip", "--table-format", "autoargue"), ("--relevance", "judgments"),
                 ("--missing-topics", "skip", "--unbound-questions", "negative")]


@pytest.mark.parametrize("source, bank", [(REPLAY_FILE, REPLAY_BANK), (SAMPLE_FILE, SAMPLE_BANK)], ids=["replay", "sample"])
@pytest.mark.parametrize("options", SCORE_OPTIONS, ids=lambda o: " ".join(o) or "default")
def test_score_on_the_converted_file_and_run_equals_score_on_the_original(tmp_path, source, bank, options):
    """The whole table, byte for byte: the original scored on its embedded reports, the conversion with its run."""
    judgments, _ = convert_judgments(tmp_path, source, bank)
    run = tmp_path / "run.jsonl"
    assert invoke("convert", source, "--kind", "runs", "--to", "ragtime", "-o", run).exit_code == 0
    original, converted = tmp_path / "original.tsv", tmp_path / "converted.tsv"
    first = invoke("score", "--nuggets", bank, "--judgments", source, "-o", original, *options)
    second = invoke("score", "--run", run, "--nuggets", bank, "--judgments", judgments, "-o", converted, *options)
    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    assert converted.read_bytes() == original.read_bytes()
    assert "judgments missing" not in second.stderr


def test_the_conversion_is_what_the_yes_only_conversion_lacked(tmp_path):
    """Regression: convert used to write the matched answers only, keyed by question text, so `score` found
    the answers missing; with the bank the same score sees every answer (10, hand-counted above)."""
    judgments, _ = convert_judgments(tmp_path)
    ids = {j["nugget_id"] for j in lines(judgments) if j["kind"] == "answers"}
    assert ids == {"101q1", "101q2", "101q4", "101q5", "102q1", "102q2"}  # no question text as id
    assert sum(1 for j in lines(judgments) if j["kind"] == "answers" and not j["value"]) == 4


def test_agree_judgments_finds_every_answer_in_common(tmp_path):
    """The original read with the bank (--nuggets) and its conversion share every judgment and agree on each.
    Without the bank the original's answers are keyed by question text: none is in common (why --nuggets)."""
    judgments, _ = convert_judgments(tmp_path)
    result = invoke("agree-judgments", REPLAY_FILE, judgments, "--nuggets", REPLAY_BANK, "--format", "json")
    assert result.exit_code == 0, result.output
    kinds = {item["kind"]: item for item in json.loads(result.stdout)["kinds"]}
    # answers: 6 yes and 4 no in both; relevant 6 yes, 1 no; attested 5 yes, 2 no (counted in the test above)
    assert {k: (v["n_a"], v["n_b"], v["overlap"], v["accuracy"]) for k, v in kinds.items()} == {
        "relevant": (7, 7, 7, 1.0), "answers": (10, 10, 10, 1.0), "attested": (7, 7, 7, 1.0)}
    assert kinds["answers"]["confusion"] == {"yes_yes": 6, "yes_no": 0, "no_yes": 0, "no_no": 4}
    assert kinds["answers"]["kappa"] == 1.0
    # its --help shows that use on the sample file, the command continued on the next line
    assert "qrels/sample/judgments.jsonl \\\n        --nuggets nuggets/sample/nuggets.jsonl\n" in invoke(
        "agree-judgments", "--help").output
    without = invoke("agree-judgments", REPLAY_FILE, judgments, "--format", "json")
    answers = next(item for item in json.loads(without.stdout)["kinds"] if item["kind"] == "answers")
    assert (answers["n_a"], answers["overlap"]) == (6, 0)


def test_without_the_bank_the_conversion_is_refused(tmp_path):
    out = tmp_path / "c.jsonl"
    result = invoke("convert", REPLAY_FILE, "--to", "argue", "-o", out)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"--nuggets: {REPLAY_FILE} holds Auto-ARGUE judgments; converting them needs the "
                                    "nugget bank they were judged with (--nuggets N)")
    assert len(result.stderr.strip().splitlines()) == 1 and not out.exists()
    other = invoke("convert", REPO / "runs/sample/careful.jsonl", "--nuggets", SAMPLE_BANK, "--to", "ragtime", "-o", out)
    assert other.exit_code == 2 and "only converting Auto-ARGUE judgments uses a nugget bank" in other.stderr


def _second_run(objects):
    """Line 3: topic 101 again, by run team-x-run2, where s0's citation is not attested and "microcystin" not matched."""
    again = json.loads(json.dumps(objects[0]))
    again["report"]["metadata"]["run_id"] = "team-x-run2"
    s0 = again["judgments"][0]["judgments"]
    s0[1]["response"]["matched_nuggets"] = s0[1]["response"]["matched_nuggets"][:1]
    s0[2]["response"]["is_attested"] = False
    return [*objects, again]


def test_two_reports_answering_one_question_differently_are_named(tmp_path):
    """Reports 1 (line 1) and 3 disagree on s0/d1: attested (T then F) and 101q2 "microcystin" (yes then no). The
    other 14 keys of topic 101 (4 relevant, 7 answers, 3 attested) are answered again the same way."""
    source = edited(tmp_path, _second_run)
    out, result = convert_judgments(tmp_path, source)
    assert (f"warning: {source}: 2 question(s) answered differently by two reports (answers 1, attested 1; the first "
            "at line 1 and line 3)") in result.stderr
    assert "14 question(s) answered again the same way were written once (relevant 4, answers 7, attested 3)" in result.stderr
    by_key = {(j["kind"], j["sentence"][:5], j["doc_id"], j["nugget_id"]): j["value"] for j in lines(out)}
    assert by_key[("attested", "In Au", D1, None)] is False  # the later report's answer
    assert by_key[("answers", "In Au", D1, "101q2")] is False
    assert len(lines(out)) == 24  # one line per question: the repeats are merged
    # what the warning says: the later report scores the same, the earlier one does not
    run = tmp_path / "run.jsonl"
    assert invoke("convert", source, "--kind", "runs", "--to", "ragtime", "-o", run).exit_code == 0
    tables = []
    for judgments, runs in ((source, ()), (out, ("--run", run))):
        target = tmp_path / f"t{len(tables)}.tsv"
        assert invoke("score", *runs, "--nuggets", REPLAY_BANK, "--judgments", judgments, "-o", target).exit_code == 0
        tables.append({tuple(row.split("\t")[:3]): row.split("\t")[3] for row in target.read_text().splitlines()[1:]})
    original, converted = tables
    assert converted[("team-x-run2", "101", "f1")] == original[("team-x-run2", "101", "f1")]
    # run 1, topic 101: correctly cited sentences 3 of 4 in the original, 2 of 4 with run 2's answer for s0
    assert (original[("team-x-run1", "101", "sentence_support")], converted[("team-x-run1", "101", "sentence_support")]) \
        == ("0.75", "0.5")


def test_an_answer_changed_within_one_report_keeps_the_later_one_as_score_does(tmp_path):
    """Sentence s3 of topic 101 repeated at the end of the report, its citation now attested False: `score` on the
    original uses the later answer for both positions, and so does the conversion (scores stay equal)."""
    def repeat_last_sentence(objects):
        report = objects[0]
        report["report"]["responses"].append(dict(report["report"]["responses"][3]))
        last = json.loads(json.dumps(report["judgments"][3]))
        last["judgments"][2]["response"]["is_attested"] = False
        report["judgments"].append(last)

    source = edited(tmp_path, repeat_last_sentence)
    out, result = convert_judgments(tmp_path, source)
    assert (f"warning: {source}: 1 question(s) answered differently twice in one report (attested 1): the later "
            "answer is written") in result.stderr
    run = tmp_path / "run.jsonl"
    assert invoke("convert", source, "--kind", "runs", "--to", "ragtime", "-o", run).exit_code == 0
    a, b = tmp_path / "a.tsv", tmp_path / "b.tsv"
    assert invoke("score", "--nuggets", REPLAY_BANK, "--judgments", source, "-o", a).exit_code == 0
    assert invoke("score", "--run", run, "--nuggets", REPLAY_BANK, "--judgments", out, "-o", b).exit_code == 0
    assert a.read_bytes() == b.read_bytes()


def test_what_the_bank_lacks_and_unused_judgment_types_are_named(tmp_path):
    """s0 of topic 101 also matches a question the bank lacks and an answer the bank lacks for 101q1; every sentence
    of topic 102 (2 of them) carries one judgment of a type we do not use."""
    def add(objects):
        matched = objects[0]["judgments"][0]["judgments"][1]["response"]["matched_nuggets"]
        matched.append({"question_text": "Who paid?", "matched_answer": ["the city"], "importance": None})
        matched[0]["matched_answer"].append("summer 2014")
        for segment in objects[1]["judgments"]:
            segment["judgments"].append({"judgment_type_id": "SENTENCE_IS_NICE", "response": {}, "evaluator": "x",
                                         "provenance": {"doc_id": D5}})

    out, result = convert_judgments(tmp_path, edited(tmp_path, add))
    assert "left out 2 judgment(s) of types we do not use: SENTENCE_IS_NICE 2" in result.stderr
    assert "1 matched answer(s) name a question the nugget bank does not have: kept as yes" in result.stderr
    assert "1 matched answer(s) are not answers of their question in the nugget bank: kept as yes" in result.stderr
    extra = {(j["nugget_id"], j["answer"]) for j in lines(out) if j["kind"] == "answers" and j["doc_id"] == D1}
    assert extra == {("101q1", "August 2014"), ("101q2", "microcystin"), ("Who paid?", "the city"), ("101q1", "summer 2014")}


def test_a_topic_the_bank_lacks_is_named(tmp_path):
    """A bank with topic 101 only: the report on 102 keeps relevance and attestation (3 + 3), and its two matched
    answers ("Ohio", "2015") name questions the bank does not have; both are said."""
    bank = tmp_path / "bank"
    bank.mkdir()
    (bank / "nuggets_101.v3.json").write_text((REPLAY_BANK / "nuggets_101.v3.json").read_text())
    out, result = convert_judgments(tmp_path, bank=bank)
    assert (f"warning: {REPLAY_FILE}: 1 topic(s) judged here have no nuggets in the nugget bank (102): their answer "
            "judgments could name no answer of it") in result.stderr
    assert "2 matched answer(s) name a question the nugget bank does not have" in result.stderr
    assert sum(1 for j in lines(out) if j["request_id"] == "102" and j["kind"] != "answers") == 6


def test_a_broken_line_is_one_located_line_with_exit_2_for_every_kind(tmp_path):
    source = edited(tmp_path, lambda objects: [objects[0], {"report": objects[1]["report"], "judgments": 5}])
    out = tmp_path / "out.jsonl"
    out.write_text("old\n")
    for extra in (("--nuggets", REPLAY_BANK, "--to", "argue"), ("--kind", "runs", "--to", "ragtime"),
                  ("--kind", "collection", "--to", "jsonl")):
        result = invoke("convert", source, *extra, "-o", out)
        assert result.exit_code == 2, extra
        assert result.stderr == f"{source}:2: judgments: expected a list of judged sentences, found a number (5)\n"
        assert out.read_text() == "old\n"
    (tmp_path / "bad.jsonl").write_text(REPLAY_FILE.read_text().splitlines()[0] + "\n{not json\n")
    result = invoke("convert", tmp_path / "bad.jsonl", "--nuggets", REPLAY_BANK, "--to", "argue", "-o", out)
    assert result.exit_code == 2 and result.stderr.startswith(f"{tmp_path / 'bad.jsonl'}:2: ")
    assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.output


# ------------------------------------------------------------------------------------------------- run
def test_the_run_is_the_embedded_report_line_as_written(tmp_path):
    """--kind runs --to ragtime writes each line's `report` object back unchanged (scores 100.0 and 90.0 kept)."""
    for source in (REPLAY_FILE, SCORED, SAMPLE_FILE):
        run = tmp_path / "run.jsonl"
        result = invoke("convert", source, "--kind", "runs", "--to", "ragtime", "-o", run)
        assert result.exit_code == 0, result.output
        assert lines(run) == [obj["report"] for obj in lines(source)]
        assert "warning" not in result.stderr
    assert lines(run)[0]["metadata"]["team_id"] == "sample"


def test_responses_that_are_not_the_judged_sentences_give_the_judged_sentences_with_a_warning(tmp_path):
    def reword(objects):
        objects[0]["report"]["responses"][1]["text"] = "Something else."

    source = edited(tmp_path, reword)
    run = tmp_path / "run.jsonl"
    result = invoke("convert", source, "--kind", "runs", "--to", "argue", "-o", run)
    assert result.exit_code == 0
    assert (f"warning: {source}: the judged sentences of 1 report(s) are not the report's responses; the judged "
            "sentences are read") in result.stderr
    first = lines(run)[0]
    assert [s["text"] for s in first["sentences"]][1] == "The toxin came from a bloom fed by phosphorus runoff."
    assert all("citation_scores" not in s for s in first["sentences"])  # the responses' scores are not the judged ones
    assert lines(run)[1]["sentences"][1]["citation_scores"] == [100.0, 100.0]  # line 2 matches: its scores are kept


# ------------------------------------------------------------------------------------------- collection
def test_the_cited_documents_are_a_collection_in_order_of_first_citation(tmp_path):
    """Seven citations: d1, d3, d3 (again, same text), d2, d5, d6, d9 -> six documents, texts as given."""
    docs = tmp_path / "docs.jsonl"
    result = invoke("convert", REPLAY_FILE, "--kind", "collection", "--to", "jsonl", "-o", docs)
    assert result.exit_code == 0, result.output
    assert lines(docs) == [{"doc_id": doc, "text": f"Title: doc {doc[-1]}\n\nContent: ..."}
                           for doc in (D1, D3, D2, D5, D6, D9)]
    plain = tmp_path / "plain.jsonl"  # jsonl is the one collection format: --to may be left out
    assert invoke("convert", REPLAY_FILE, "--kind", "collection", "-o", plain).exit_code == 0
    assert plain.read_bytes() == docs.read_bytes()
    missing = invoke("convert", REPLAY_FILE, "-o", tmp_path / "x.jsonl")
    assert missing.exit_code == 2 and "--to: missing --to FORMAT" in missing.output
    assert result.stderr.strip().endswith(f"-> {docs} (collection, jsonl): 6 documents from 7 citations")
    opened = invoke("collection", "get", docs, D3)
    assert opened.exit_code == 0 and "Content: ..." in opened.output


def test_a_document_cited_with_two_texts_is_an_error_naming_both_places(tmp_path):
    def retext(objects):
        objects[0]["judgments"][2]["citations"][0]["text"] = "Title: doc 3, revised\n\nContent: ..."

    source = edited(tmp_path, retext)
    docs = tmp_path / "docs.jsonl"
    result = invoke("convert", source, "--kind", "collection", "--to", "jsonl", "-o", docs)
    assert result.exit_code == 2
    assert result.stderr == (f"{source}:1: judgments[2].citations[0].text: document '{D3}' is cited with another text "
                             "than on line 1 (judgments[1].citations[0].text); a collection holds one text per document\n")
    assert not docs.exists()


def test_a_citation_without_text_is_named(tmp_path):
    def drop_text(objects):
        del objects[1]["judgments"][1]["citations"][1]["text"]

    docs = tmp_path / "docs.jsonl"
    result = invoke("convert", edited(tmp_path, drop_text), "--kind", "collection", "--to", "jsonl", "-o", docs)
    assert result.exit_code == 0
    assert f"1 cited document(s) come with no text and are not in the collection: {D9}" in result.stderr
    assert [d["doc_id"] for d in lines(docs)] == [D1, D3, D2, D5, D6]


def test_collection_refusals(tmp_path):
    out = tmp_path / "docs.jsonl"
    result = invoke("convert", REPO / "runs/sample/careful.jsonl", "--kind", "collection", "--to", "jsonl", "-o", out)
    assert result.exit_code == 2
    assert "this is a runs file (neuclir24 format), which holds no texts" in result.stderr
    result = invoke("convert", REPLAY_FILE, "--kind", "collection", "--to", "argue", "-o", out)
    assert result.exit_code == 2 and "a collection is written as 'jsonl'" in result.stderr
    result = invoke("convert", REPLAY_FILE, "--nuggets", REPLAY_BANK, "--to", "jsonl", "-o", out)
    assert result.exit_code == 2 and "'jsonl' writes a collection, which --kind collection takes out" in result.stderr
    assert not out.exists()


# ------------------------------------------------------------------------------------------ the sample file
def test_the_sample_file_scores_as_its_source_judgments(tmp_path):
    """The sample Auto-ARGUE file holds the sample assessor's judgments of hallucinating s01 and s03: scored alone it
    gives, topic by topic, the rows of scoring the run with qrels/sample/judgments.jsonl."""
    own, source = tmp_path / "own.tsv", tmp_path / "source.tsv"
    assert invoke("score", "--nuggets", SAMPLE_BANK, "--judgments", SAMPLE_FILE, "-o", own).exit_code == 0
    assert invoke("score", "--run", REPO / "runs/sample/hallucinating.jsonl", "--nuggets", SAMPLE_BANK, "--judgments",
                  REPO / "qrels/sample/judgments.jsonl", "-o", source).exit_code == 0

    def topic_rows(path: Path) -> list[str]:
        return [row for row in path.read_text().splitlines() if row.split("\t")[1] in ("s01", "s03")]

    assert topic_rows(own) == topic_rows(source) and len(topic_rows(own)) == 56


def test_the_sample_file_regenerates_byte_identical(tmp_path):
    import subprocess
    import sys

    out = tmp_path / "a.jsonl"
    subprocess.run([sys.executable, str(REPO / "tools/sample_track/make_autoargue.py"), "-o", str(out)], check=True,
                   capture_output=True)
    assert out.read_bytes() == SAMPLE_FILE.read_bytes()


def test_the_help_example_runs_and_re_judges_the_same_reports(tmp_path, monkeypatch):
    """Every command of the Auto-ARGUE block of `convert --help`, run as written (paths under /tmp moved here)."""
    help_text = invoke("convert", "--help").output
    block = help_text[help_text.index("Auto-ARGUE judgments (the sample"):help_text.index("Options:")]
    commands = " ".join(line.strip() for line in block.splitlines()[3:]).replace("\\ ", "").split("argue-eval ")[1:]
    assert [c.split()[0] for c in commands] == ["convert", "convert", "convert", "evaluate", "score"]
    monkeypatch.chdir(tmp_path)  # the judge's default cache goes here
    for command in commands:
        args = [arg.replace("/tmp/", f"{tmp_path}/") for arg in shlex.split(command)]
        args = [str(REPO / arg) if arg.split("/")[0] in ("qrels", "nuggets", "topics") else arg for arg in args]
        result = invoke(*args)
        assert result.exit_code == 0, (command, result.output)
    # re-judged: the same 12 sentences and 12 citations (6 + 6, one citation each), every question answered
    lexical = {tuple(r.split("\t")[:3]): r.split("\t")[3] for r in (tmp_path / "h.lexical.tsv").read_text().splitlines()[1:]}
    assert (lexical[("hallucinating", "all", "sentences")], lexical[("hallucinating", "all", "citations")]) == ("12", "12")
    assert ("hallucinating", "all", "missing_judgments") not in lexical  # (and --missing-judgments error passed)
    original = tmp_path / "original.tsv"
    assert invoke("score", "--nuggets", SAMPLE_BANK, "--judgments", SAMPLE_FILE, "--missing-topics", "skip",
                  "-o", original).exit_code == 0
    assert (tmp_path / "h.converted.tsv").read_bytes() == original.read_bytes()


def test_a_question_two_nuggets_ask_is_answered_for_both(tmp_path):
    """A canonical bank may hold two nuggets with the same question (here 101q1 and a copy, 101q1-bis): the match of
    "August 2014" through d1 is a yes for both, as `score` reads the original, and the tables stay equal."""
    from dataclasses import replace

    from argue_eval.formats import read_nuggets, write

    topics = list(read_nuggets(REPLAY_BANK))
    first = topics[0]
    first.nuggets.append(replace(first.nuggets[0], nugget_id="101q1-bis"))
    bank = tmp_path / "bank.jsonl"
    write(topics, bank, "argue", "nuggets")
    out, _ = convert_judgments(tmp_path, bank=bank)
    d1 = [(j["nugget_id"], j["answer"], j["value"]) for j in lines(out) if j["kind"] == "answers" and j["doc_id"] == D1]
    assert d1 == [("101q1", "August 2014", True), ("101q2", "microcystin", True), ("101q1-bis", "August 2014", True)]
    from argue_eval.formats.judgments import read_autoargue  # the reader agree-judgments --nuggets uses: the same

    assert [(j.nugget_id, j.answer, j.value) for j in read_autoargue(REPLAY_FILE, topics) if j.doc_id == D1
            and j.kind == "answers"] == d1
    run = tmp_path / "run.jsonl"
    assert invoke("convert", REPLAY_FILE, "--kind", "runs", "--to", "ragtime", "-o", run).exit_code == 0
    a, b = tmp_path / "a.tsv", tmp_path / "b.tsv"
    assert invoke("score", "--nuggets", bank, "--judgments", REPLAY_FILE, "-o", a).exit_code == 0
    assert invoke("score", "--run", run, "--nuggets", bank, "--judgments", out, "-o", b).exit_code == 0
    assert a.read_bytes() == b.read_bytes()
