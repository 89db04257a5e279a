"""The workbench's database and CLI without a browser: init and re-init, the one-line errors, users and
assignments, the questions asked, the export (byte-identical, scored like the CSV path) and the status."""
from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import SAMPLE_ROOT, answer_everything, sample_reference_answers

from argue_eval.api import score
from argue_eval.cli import cli
from argue_eval.errors import OptionError
from argue_eval.formats.judgments import write_argue
from argue_eval.organizer.assessment import export_pool, import_pool, write_pool
from argue_eval.workbench.admin import check_topics
from argue_eval.workbench.exporting import adjudication_queue, export_round
from argue_eval.workbench.items import topic_items
from argue_eval.workbench.store import SCHEMA_VERSION, Store

REQUESTS = SAMPLE_ROOT / "topics" / "sample" / "requests.jsonl"
COLLECTION = SAMPLE_ROOT / "topics" / "sample" / "collection.jsonl"
NUGGETS = SAMPLE_ROOT / "nuggets" / "sample" / "nuggets.jsonl"
RUNS = SAMPLE_ROOT / "runs" / "sample"


def invoke(*args: str):
    return CliRunner().invoke(cli, [str(a) for a in args])


def one_topic_requests(tmp_path: Path, topic: str = "s01") -> Path:
    """The sample requests cut to one topic (a round on one topic keeps the tests quick)."""
    lines = [line for line in REQUESTS.read_text().splitlines() if json.loads(line)["request_id"] == topic]
    path = tmp_path / f"requests.{topic}.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def init(tmp_path: Path, *more: str, requests: Path | None = None) -> Path:
    db = tmp_path / "round.sqlite"
    result = invoke("assess", "init", "--db", db, "--requests", requests or REQUESTS, "--collection", COLLECTION,
                    "--run", RUNS / "careful.jsonl", *more)
    assert result.exit_code == 0, result.output
    return db


def test_init_stores_the_round_and_a_rerun_adds_without_losing_answers(tmp_path):
    db = init(tmp_path, "--nuggets", NUGGETS)
    store = Store.open(db)
    # worked out from the files with plain json: careful has one report per topic (8); the pool is the
    # documents its reports cite, distinct per topic
    careful = [json.loads(line) for line in (RUNS / "careful.jsonl").read_text().splitlines()]
    cited = {(r["request_id"], d) for r in careful for s in r["sentences"] for d in s["citations"]}
    assert len(store.reports()) == len(careful) == 8
    assert sum(len(store.pool(t)) for t in store.requests()) == len(cited)
    assert store.meta("schema_version") == str(SCHEMA_VERSION)
    reference = sample_reference_answers()
    given = answer_everything(store, "s01", "alice", reference)
    assert given > 0
    store.close()
    # a second init with another run adds its reports and pool; alice's answers stay, and her s01 items now
    # include the new run's sentences
    result = invoke("assess", "init", "--db", db, "--requests", REQUESTS, "--collection", COLLECTION,
                    "--run", RUNS / "careful.jsonl", "--run", RUNS / "hallucinating.jsonl", "--nuggets", NUGGETS)
    assert result.exit_code == 0, result.output
    assert "reports: 8 added, 8 already there" in result.output
    assert "nuggets: 0 added, 49 already there" in result.output
    store = Store.open(db)
    assert len(store.verdict_rows(user="alice")) == given
    items = topic_items(store, "s01", "alice")
    assert sum(items.counts("citations")) > 0 and items.counts("citations")[1] > 0  # the new run's citations
    store.close()


def test_a_newer_damaged_foreign_or_read_only_database_is_one_line_exit_2(tmp_path):
    db = init(tmp_path, requests=one_topic_requests(tmp_path))
    # a name with a control character is quoted, never pasted raw into the hint: still one line
    result = invoke("assess", "assign", "--db", db, "--topics", "s01", "--to", "b\nob")
    assert result.exit_code == 2 and "no user 'b\\nob'" in result.output and "users add" not in result.output
    assert result.output.strip().count("\n") == 0

    readonly = tmp_path / "readonly.sqlite"
    readonly.write_bytes(db.read_bytes())
    readonly.chmod(0o444)
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),))
    result = invoke("assess", "status", "--db", db)
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0
    assert "newer argue-eval" in result.output and "Traceback" not in result.output

    damaged = tmp_path / "damaged.sqlite"
    damaged.write_bytes(b"SQLite format 3\x00" + os.urandom(3000))
    result = invoke("assess", "status", "--db", damaged)
    assert result.exit_code == 2 and "not a usable workbench database" in result.output
    assert result.output.strip().count("\n") == 0

    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE t(x)")
    result = invoke("assess", "users", "list", "--db", foreign)
    assert result.exit_code == 2 and "not a workbench database" in result.output

    result = invoke("assess", "users", "add", "bob", "--db", readonly)
    assert result.exit_code == 2 and "read-only" in result.output
    assert result.output.strip().count("\n") == 0

    result = invoke("assess", "status", "--db", tmp_path / "absent.sqlite")
    assert result.exit_code == 2 and "assess init" in result.output


def test_a_database_made_before_login_links_and_doc_reads_opens_and_gains_them(tmp_path):
    # schema version 1 as the landed 3af09b4 wrote it: the same tables but these two, so no new version number
    db = init(tmp_path, requests=one_topic_requests(tmp_path))
    with sqlite3.connect(db) as connection:
        connection.execute("DROP TABLE login_links")
        connection.execute("DROP TABLE doc_reads")
    result = invoke("assess", "status", "--db", db)
    assert result.exit_code == 0, result.output
    store = Store.open(db)
    tables = {row[0] for row in store._rows("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"login_links", "doc_reads"} <= tables
    assert store.meta("schema_version") == str(SCHEMA_VERSION) == "1"
    with store.transaction():
        assert store.note_read("alice", "s01", "d1", "citations") is True
    assert store.read_counts() == {("alice", "citations"): 1}
    store.add_login_link("h" * 64, "alice", expires=4102444800.0)  # 2100-01-01
    assert store.login_link_user("h" * 64) == "alice"
    store.close()


def test_users_assignments_and_double_assessment(tmp_path):
    db = init(tmp_path)
    added = invoke("assess", "users", "add", "alice", "--db", db)
    assert added.exit_code == 0 and "one-time password" in added.output
    password = added.output.split("one-time password ")[1].strip()
    store = Store.open(db)
    salt_hash = store.user("alice")
    assert salt_hash is not None and password.encode() not in salt_hash[4]  # only the scrypt digest is stored
    assert password not in db.read_bytes().decode("latin-1")
    store.close()
    assert invoke("assess", "users", "add", "bob", "--db", db).exit_code == 0
    assert invoke("assess", "users", "add", "alice", "--db", db).exit_code == 2  # exists
    assert invoke("assess", "assign", "--db", db, "--topics", "s01,s02", "--to", "alice").exit_code == 0
    refused = invoke("assess", "assign", "--db", db, "--topics", "s02,s03", "--to", "bob")
    assert refused.exit_code == 2 and "--double" in refused.output
    assert invoke("assess", "assign", "--db", db, "--topics", "s02", "--to", "bob", "--double").exit_code == 0
    unknown = invoke("assess", "assign", "--db", db, "--topics", "s99", "--to", "bob")
    assert unknown.exit_code == 2 and "unknown topic 's99'" in unknown.output
    listed = invoke("assess", "users", "list", "--db", db)
    assert listed.output.splitlines() == ["alice\tassessor\tone-time password\ts01,s02",
                                          "bob\tassessor\tone-time password\ts02"]


def test_topic_ranges_expand_over_numeric_ids():
    assert check_topics("300,302-304", ["300", "302", "303", "304", "305"]) == ["300", "302", "303", "304"]
    with pytest.raises(OptionError):
        check_topics("300-306", ["300", "302"])


def test_export_scores_like_the_csv_path_and_reruns_byte_identical(tmp_path):
    """The same answers through the workbench and through assess export/import give the same score table."""
    requests = one_topic_requests(tmp_path)
    db = init(tmp_path, "--run", RUNS / "hallucinating.jsonl", "--nuggets", NUGGETS, requests=requests)
    store = Store.open(db)
    reference = sample_reference_answers()
    answer_everything(store, "s01", "alice", reference)
    nuggets_out, judgments_out = tmp_path / "n.jsonl", tmp_path / "j.jsonl"
    export_round(store, nuggets_out, judgments_out)
    first = (nuggets_out.read_bytes(), judgments_out.read_bytes())
    export_round(store, nuggets_out, judgments_out)
    assert (nuggets_out.read_bytes(), judgments_out.read_bytes()) == first
    store.close()
    runs = [RUNS / "careful.jsonl", RUNS / "hallucinating.jsonl"]
    workbench = score(runs, nuggets_out, judgments_out, requests=requests).table
    # the CSV path: the pool of the same bank, filled with the same reference answers, imported
    from argue_eval.api import make_policies
    from argue_eval.inputs import load_inputs

    inputs = load_inputs(runs, nuggets_out, None, requests, None, make_policies())
    items = export_pool(inputs.reports(), inputs.evaluation, inputs.source)
    for item in items:
        item["judgment"] = "yes" if reference.get(item["item_id"], False) else "no"
    write_pool(items, tmp_path / "pool.csv")
    imported = import_pool(tmp_path / "pool.csv", "alice")
    write_argue(imported.judgments, tmp_path / "csv.jsonl")
    csv = score(runs, nuggets_out, tmp_path / "csv.jsonl", requests=requests).table
    assert workbench.to_dict("records") == csv.to_dict("records")
    # and the workbench asked no more than the pool: every answered item is an item of the pool
    store = Store.open(db)
    answered = {row["item_id"] for row in store.verdict_rows()}
    store.close()
    assert answered <= {item["item_id"] for item in items}


def test_export_lists_each_assessor_then_the_adjudicated_answer(tmp_path):
    db = init(tmp_path, "--nuggets", NUGGETS, requests=one_topic_requests(tmp_path))
    store = Store.open(db)
    reference = sample_reference_answers()
    answer_everything(store, "s01", "alice", reference)
    flipped = {item: not value for item, value in reference.items()}
    answer_everything(store, "s01", "bob", flipped, default=True)
    queue = adjudication_queue(store)
    assert queue and all("assessors disagree" in e["reasons"] for e in queue)
    entry = queue[0]
    from argue_eval.workbench.actions import Answer, record_answers
    from argue_eval.workbench.exporting import key_of
    from argue_eval.workbench.items import Item

    row = entry["row"]
    item = Item(entry["item_id"], key_of(entry), "adjudication", row["sentence"], row["run_id"] or "",
                row["sentence_index"] or 0, None, None, (), None, row["answer"], 1, row["ord"])
    record_answers(store, "carol", "adjudication", [Answer(item, True, None)])
    export_round(store, tmp_path / "n.jsonl", tmp_path / "j.jsonl")
    lines = [json.loads(line) for line in (tmp_path / "j.jsonl").read_text().splitlines()]
    about = [line for line in lines if line["kind"] == row["kind"] and line["sentence"] == row["sentence"]
             and line["doc_id"] == row["doc_id"] and line["nugget_id"] == row["nugget_id"]]
    assert [line["judge"] for line in about] == ["human:alice", "human:bob", "human:carol:adjudication"]
    assert about[-1]["provenance"]["stage"] == "adjudication"
    store.close()
    status = invoke("assess", "status", "--db", db)
    assert status.exit_code == 0
    assert "alice / bob" in status.output  # agreement of the double-assessed items


def test_status_counts_what_is_open(tmp_path):
    db = init(tmp_path, requests=one_topic_requests(tmp_path))
    assert invoke("assess", "users", "add", "alice", "--db", db).exit_code == 0
    assert invoke("assess", "assign", "--db", db, "--topics", "s01", "--to", "alice").exit_code == 0
    result = invoke("assess", "status", "--db", db, "--format", "tsv")
    rows = [line.split("\t") for line in result.output.splitlines()]
    # without nuggets no citation is relevant: each (sentence, document) pair of careful's s01 report asks
    # "attested?" once, and each uncited sentence "negative?" (read from the run file by hand)
    report = next(json.loads(line) for line in (RUNS / "careful.jsonl").read_text().splitlines()
                  if json.loads(line)["request_id"] == "s01")
    pairs = {(s["text"], d) for s in report["sentences"] for d in s["citations"]}
    uncited = [s for s in report["sentences"] if not s["citations"]]
    assert ["s01", "alice", "citations", "0", str(len(pairs))] in rows
    assert ["s01", "alice", "sentences", "0", str(len(uncited))] in rows


def test_agree_judgments_writes_the_disagreements_the_workbench_loads(tmp_path):
    base = {"kind": "attested", "request_id": "s01", "doc_id": "nw-0001", "nugget_id": None, "answer": None,
            "run_id": None, "sentence_index": None}
    a = [{**base, "sentence": f"Sentence {k}.", "value": True, "judge": "human:x"} for k in range(3)]
    b = [{**line, "judge": "llm:y", "value": k != 1, "rationale": "why"} for k, line in enumerate(a)]
    (tmp_path / "a.jsonl").write_text("".join(json.dumps(line) + "\n" for line in a))
    (tmp_path / "b.jsonl").write_text("".join(json.dumps(line) + "\n" for line in b))
    result = invoke("agree-judgments", tmp_path / "a.jsonl", tmp_path / "b.jsonl", "--disagreements", tmp_path / "d.jsonl")
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in (tmp_path / "d.jsonl").read_text().splitlines()]
    # only "Sentence 1." is answered differently (yes by A, no by B)
    from argue_eval.model import make_key
    from argue_eval.organizer.assessment import item_id_for

    assert lines == [{"item_id": item_id_for(make_key("attested", "s01", "Sentence 1.", "nw-0001")), "kind": "attested",
                      "request_id": "s01", "sentence": "Sentence 1.", "doc_id": "nw-0001", "nugget_id": None,
                      "answer": None, "run_id": None, "sentence_index": None,
                      "a": {"value": True, "judge": "human:x", "rationale": None},
                      "b": {"value": False, "judge": "llm:y", "confidence": None, "rationale": "why"},
                      "rank": 1, "judges": [{"value": False, "judge": "llm:y", "confidence": None, "rationale": "why"}],
                      "assessors": {"human:x": True}, "nugget_question": None, "doc_title": None, "doc_passage": None}]
    db = init(tmp_path, "--disagreements", tmp_path / "d.jsonl", requests=one_topic_requests(tmp_path))
    store = Store.open(db)
    queue = adjudication_queue(store)
    assert [(e["item_id"], e["reasons"]) for e in queue] == [(lines[0]["item_id"], ["disagreement from d.jsonl"])]
    store.close()
    (tmp_path / "bad.jsonl").write_text('{"item_id": "q1"}\n')
    bad = invoke("assess", "init", "--db", db, "--requests", REQUESTS, "--disagreements", tmp_path / "bad.jsonl")
    assert bad.exit_code == 2 and "bad.jsonl:1: kind: missing" in bad.output


def test_relevance_from_judgments_asks_it_in_the_citation_stage_and_is_fixed_at_the_first_init(tmp_path):
    requests = one_topic_requests(tmp_path)
    db = init(tmp_path, "--nuggets", NUGGETS, "--relevance", "judgments", requests=requests)
    store = Store.open(db)
    report = next(json.loads(line) for line in (RUNS / "careful.jsonl").read_text().splitlines()
                  if json.loads(line)["request_id"] == "s01")
    pairs = {(s["text"], d) for s in report["sentences"] for d in s["citations"]}
    items = topic_items(store, "s01", "alice")
    kinds = [i.kind for g in items.stage("citations") for i in g.items]
    # by hand: each (sentence, document) pair asks "relevant?" and "attested?"; the nugget answers wait for
    # "relevant? yes"
    assert sorted(kinds) == ["attested"] * len(pairs) + ["relevant"] * len(pairs)
    assert not [i for g in items.stage("sentences") for i in g.items if i.kind == "answers"]
    store.close()
    again = invoke("assess", "init", "--db", db, "--requests", requests, "--relevance", "nuggets")
    assert again.exit_code == 2 and "--relevance: the workbench was made with --relevance judgments" in again.output


def test_status_measures_the_judges_suggestions_against_the_assessors(tmp_path):
    requests = one_topic_requests(tmp_path)
    reference = [json.loads(line) for line in (SAMPLE_ROOT / "qrels" / "sample" / "judgments.jsonl").read_text()
                 .splitlines()]
    report = next(json.loads(line) for line in (RUNS / "careful.jsonl").read_text().splitlines()
                  if json.loads(line)["request_id"] == "s01")
    pairs = {(s["text"], d) for s in report["sentences"] for d in s["citations"]}
    attested = [j for j in reference if j["kind"] == "attested" and (j["sentence"], j["doc_id"]) in pairs]
    # the judge says the opposite of the assessors on the first two items, the same on the others
    suggestions = [{**j, "judge": "llm:x", "value": (not j["value"]) if k < 2 else j["value"]}
                   for k, j in enumerate(attested)]
    (tmp_path / "suggest.jsonl").write_text("".join(json.dumps(j) + "\n" for j in suggestions))
    db = init(tmp_path, "--nuggets", NUGGETS, "--suggest", tmp_path / "suggest.jsonl", requests=requests)
    store = Store.open(db)
    answer_everything(store, "s01", "alice", sample_reference_answers())
    store.close()
    result = invoke("assess", "status", "--db", db, "--format", "tsv")
    rows = [line.split("\t") for line in result.output.splitlines()]
    n = len(attested)
    yes = sum(1 for j in attested if j["value"])
    assert n == 6  # careful's six (sentence, document) pairs on s01, all in the reference
    row = next(r for r in rows if r[:2] == ["llm:x", "attested"])
    assert row[2:4] == [str(n), f"{(n - 2) / n:.3f}"]
    # every citation of the careful run is attested (assessors: 6 yes); the judge says 4 yes, 2 no: p_o = 4/6,
    # p_e = 1 * 4/6 + 0 * 2/6 = 4/6, kappa = (p_o - p_e) / (1 - p_e) = 0
    assert yes == n
    assert row[4] == "0.000"


def test_bank_edits_create_edit_bind_merge_split_delete_with_history(tmp_path):
    from argue_eval.workbench.actions import BankError, bank_action

    db = init(tmp_path, requests=one_topic_requests(tmp_path))
    store = Store.open(db)
    text = store.document("nw-0004").text
    start = text.index("Thirty-seven people")
    assert bank_action(store, "s01", "alice", {"action": "create", "question": "  How many   in hospital? ",
                                               "answer": "", "importance": "vital", "aggregator": "OR",
                                               "doc_id": "nw-0004", "start": "", "end": ""}) == "nugget s01-n1 added"
    # an answer from a selection: the text is the selected span, bound with its offsets
    bank_action(store, "s01", "alice", {"action": "add_answer", "nugget_id": "s01-n1", "answer": "",
                                        "doc_id": "nw-0004", "start": str(start), "end": str(start + 19),
                                        "quote": "Thirty-seven people"})
    bank_action(store, "s01", "alice", {"action": "add_answer", "nugget_id": "s01-n1", "answer": "37",
                                        "doc_id": "nw-0004"})
    rows = store.nugget_rows("s01")
    assert rows[0]["question"] == "How many in hospital?"
    assert [(a["text"], a["bindings"]) for a in rows[0]["answers"]] == [
        ("Thirty-seven people", [{"doc_id": "nw-0004", "start": start, "end": start + 19, "quote": "Thirty-seven people"}]),
        ("37", [{"doc_id": "nw-0004", "start": None, "end": None, "quote": None}])]
    with pytest.raises(BankError, match="does not match"):  # a selection the document does not have
        bank_action(store, "s01", "alice", {"action": "add_answer", "nugget_id": "s01-n1", "doc_id": "nw-0004",
                                            "start": str(start), "end": str(start + 5), "quote": "Forty"})
    with pytest.raises(BankError, match="no nugget"):  # another topic's nugget id is not this topic's
        bank_action(store, "s02", "alice", {"action": "edit", "nugget_id": "s01-n1", "question": "x"})
    bank_action(store, "s01", "alice", {"action": "create", "question": "Who investigates?", "answer": "the inspectorate",
                                        "aggregator": "AND", "doc_id": "nw-0006"})
    bank_action(store, "s01", "bob", {"action": "merge", "nugget_id": "s01-n1", "other_id": "s01-n2"})
    merged = store.nugget_rows("s01")
    assert [n["nugget_id"] for n in merged] == ["s01-n1"]
    assert [a["text"] for a in merged[0]["answers"]] == ["Thirty-seven people", "37", "the inspectorate"]
    moved = str(merged[0]["answers"][2]["answer_id"])
    assert "moved to the new nugget s01-n3" in bank_action(
        store, "s01", "bob", {"action": "split", "nugget_id": "s01-n1", "answer_ids": moved, "question": "Who?"})
    after = store.nugget_rows("s01")
    assert [(n["nugget_id"], n["question"], [a["text"] for a in n["answers"]]) for n in after] == [
        ("s01-n1", "How many in hospital?", ["Thirty-seven people", "37"]), ("s01-n3", "Who?", ["the inspectorate"])]
    bank_action(store, "s01", "bob", {"action": "delete", "nugget_id": "s01-n3"})
    assert [n["nugget_id"] for n in store.nugget_rows("s01")] == ["s01-n1"]
    history = store.history("s01")
    assert [(h["user"], h["action"], h["nugget_id"]) for h in history] == [
        ("alice", "create", "s01-n1"), ("alice", "add_answer", "s01-n1"), ("alice", "add_answer", "s01-n1"),
        ("alice", "create", "s01-n2"), ("bob", "merge", "s01-n1"), ("bob", "split", "s01-n1"),
        ("bob", "delete", "s01-n3")]
    assert history[-1]["detail"]["before"]["answers"][0]["text"] == "the inspectorate"  # what was deleted is kept
    store.close()


def test_the_pool_commands_output_is_the_authoring_pool_in_its_order(tmp_path):
    pool = tmp_path / "pool.txt"
    ranked = sorted((RUNS / "ranked").glob("*.trec"))
    result = invoke("pool", *ranked, "-o", pool, "--depth", "3")
    assert result.exit_code == 0, result.output
    expected = [line.split()[2] for line in pool.read_text().splitlines() if line.split()[0] == "s01"]
    db = init(tmp_path, "--pool", pool, requests=one_topic_requests(tmp_path))
    store = Store.open(db)
    assert store.pool("s01") == expected and len(expected) >= 3
    # the pooled documents' texts are copied, and so are the cited ones (the citation stage shows them)
    careful = next(json.loads(line) for line in (RUNS / "careful.jsonl").read_text().splitlines()
                   if json.loads(line)["request_id"] == "s01")
    cited = {d for s in careful["sentences"] for d in s["citations"]}
    assert store.document_ids() == set(expected) | cited
    store.close()
