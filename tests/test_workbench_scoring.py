"""A workbench database as a judgments and nuggets source (``inputs.workbench``): a round in progress scored
straight from its SQLite file gives the table its export gives, for ``score`` and ``evaluate``, from the
command line and the API; it is read in one snapshot while a writer is at work; a file that is not a usable
workbench database is a one-line error; ``assess export --db`` is refused, naming ``export-db``."""
from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import SAMPLE_ROOT, answer_everything, sample_reference_answers

from argue_eval.api import evaluate, make_policies, score
from argue_eval.cli import cli
from argue_eval.errors import InputError
from argue_eval.inputs import load_inputs, read_nugget_list
from argue_eval.inputs.workbench import read_round
from argue_eval.organizer.assessment import export_pool
from argue_eval.workbench.actions import Answer, bank_action, record_answers
from argue_eval.workbench.exporting import adjudication_queue, export_round, key_of
from argue_eval.workbench.items import Item, topic_items
from argue_eval.workbench.store import SCHEMA_VERSION, Store

REQUESTS = SAMPLE_ROOT / "topics" / "sample" / "requests.jsonl"
COLLECTION = SAMPLE_ROOT / "topics" / "sample" / "collection.jsonl"
NUGGETS = SAMPLE_ROOT / "nuggets" / "sample" / "nuggets.jsonl"
RUNS = [SAMPLE_ROOT / "runs" / "sample" / "careful.jsonl", SAMPLE_ROOT / "runs" / "sample" / "hallucinating.jsonl"]


def invoke(*args: object):
    return CliRunner().invoke(cli, [str(a) for a in args])


def one_topic(tmp_path: Path) -> Path:
    lines = [line for line in REQUESTS.read_text().splitlines() if json.loads(line)["request_id"] == "s01"]
    path = tmp_path / "requests.s01.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def new_round(tmp_path: Path) -> tuple[Path, Path]:
    requests = one_topic(tmp_path)
    db = tmp_path / "round.sqlite"
    result = invoke("assess", "init", "--db", db, "--requests", requests, "--collection", COLLECTION,
                    *[a for run in RUNS for a in ("--run", run)], "--nuggets", NUGGETS)
    assert result.exit_code == 0, result.output
    return db, requests


def adjudicate(store: Store, entry: dict, value: bool, admin: str) -> None:
    row = entry["row"]
    item = Item(entry["item_id"], key_of(entry), "adjudication", row["sentence"], row["run_id"] or "",
                row["sentence_index"] or 0, None, None, (), None, row["answer"], 1, row["ord"])
    record_answers(store, admin, "adjudication", [Answer(item, value, None)])


@pytest.fixture(scope="module")
def double_assessed(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """One topic, two runs, the sample bank: alice answers everything, then one answer of the bank is edited
    (what was said about its old text goes stale) and alice answers what that opens; bob answers the
    citation stage too, differing from alice on two items; aaron adjudicates one of them, for alice's answer
    (his name sorts before theirs: only the export's order puts his decision last)."""
    tmp_path = tmp_path_factory.mktemp("round")
    db, requests = new_round(tmp_path)
    reference = sample_reference_answers()
    store = Store.open(db)
    answer_everything(store, "s01", "alice", reference)
    nugget = store.nugget_rows("s01")[0]
    edited = nugget["answers"][0]
    said = store.verdict_rows(answer=edited["text"])
    bank_action(store, "s01", "dora", {"action": "edit_answer", "answer_id": str(edited["answer_id"]),
                                       "answer": edited["text"] + " (as reported)"})
    answer_everything(store, "s01", "alice", reference)
    alice = {row["item_id"]: row["value"] for row in store.verdict_rows(user="alice")}
    citations = [i for g in topic_items(store, "s01", "bob").stage("citations") for i in g.items]
    flipped = {citations[0].item_id, citations[1].item_id}
    record_answers(store, "bob", "assessor", [Answer(i, alice[i.item_id] != (i.item_id in flipped), None)
                                              for i in citations])
    queue = [e for e in adjudication_queue(store) if e["item_id"] in flipped]
    assert len(queue) == 2
    adjudicate(store, queue[0], alice[queue[0]["item_id"]], "aaron")
    rows = len(store.verdict_rows())
    store.close()
    export_round(Store.open(db), tmp_path / "n.jsonl", tmp_path / "j.jsonl")
    return {"db": db, "requests": requests, "nuggets": tmp_path / "n.jsonl", "judgments": tmp_path / "j.jsonl",
            "stale": len(said), "rows": rows, "decided": queue[0]["item_id"], "alice": alice, "tmp": tmp_path}


def test_scoring_the_database_gives_the_table_of_scoring_its_export(double_assessed):
    r = double_assessed
    exported = score(RUNS, r["nuggets"], r["judgments"], requests=r["requests"]).table
    assert set(exported["run_id"]) == {"careful", "hallucinating"} and exported["value"].abs().sum() > 0
    for nuggets, judgments in ((r["db"], r["db"]), (r["nuggets"], r["db"]), (r["db"], r["judgments"])):
        table = score(RUNS, nuggets, judgments, requests=r["requests"]).table
        assert table.to_dict("records") == exported.to_dict("records"), (nuggets, judgments)
    # the runs themselves are in the database too: without --run its reports are scored
    own = score(None, r["db"], r["db"], requests=r["requests"]).table
    assert own.to_dict("records") == exported.to_dict("records")


def test_the_database_is_read_as_its_export_writes_it(double_assessed):
    r = double_assessed
    bank, answers, reports = read_round(r["db"])
    lines = [json.loads(line) for line in r["judgments"].read_text().splitlines()]
    assert [(j.kind, j.sentence, j.doc_id, j.nugget_id, j.answer, j.value, j.judge) for j in answers.judgments] == \
        [(x["kind"], x["sentence"], x["doc_id"], x["nugget_id"], x["answer"], x["value"], x["judge"]) for x in lines]
    # counted by hand from what the fixture did: every verdict stored but those about the edited answer's old
    # text; one decision; of bob's two differing answers one is decided, one is not
    assert answers.stale == r["stale"] > 0
    assert len(answers.judgments) == r["rows"] - r["stale"]
    assert (answers.adjudicated, answers.unresolved) == (1, 1)
    assert [line["judge"] for line in lines if line["judge"].endswith(":adjudication")] == ["human:aaron:adjudication"]
    assert [t.request_id for t in bank] == ["s01"] and read_nugget_list(r["db"]) == bank
    assert sorted(rep.run_id for rep in reports) == ["careful", "hallucinating"]
    # the decision is what scoring sees for that item, and the notes name what is left unresolved
    inputs = load_inputs(RUNS, r["db"], r["db"], r["requests"], None, make_policies())
    decided = next(j for j in answers.judgments if j.judge == "human:aaron:adjudication")
    assert inputs.source.lookup(decided.key).value == r["alice"][r["decided"]]  # bob's answer comes before it
    notes = " ".join(inputs.evaluation.notes)
    assert "1 item(s) have assessors who disagree and no adjudication" in notes
    assert f"{r['stale']} answer(s) about nugget answers since edited or deleted are left out" in notes


def test_the_command_line_scores_the_database_like_the_export(double_assessed, tmp_path):
    r = double_assessed
    base = ["score", *[a for run in RUNS for a in ("--run", run)], "--requests", r["requests"]]
    from_export = invoke(*base, "--nuggets", r["nuggets"], "--judgments", r["judgments"], "-o", tmp_path / "a.tsv")
    from_db = invoke(*base, "--nuggets", r["db"], "--judgments", r["db"], "-o", tmp_path / "b.tsv")
    assert from_export.exit_code == 0 and from_db.exit_code == 0, from_db.output
    assert (tmp_path / "a.tsv").read_bytes() == (tmp_path / "b.tsv").read_bytes()
    assert "1 item(s) have assessors who disagree" in from_db.output


def test_evaluate_fills_what_the_round_has_not_answered_yet(tmp_path):
    """A round half done (the citation stage only): the judge answers the rest, under the people's answers,
    whether those come from the database or from its export."""
    db, requests = new_round(tmp_path)
    store = Store.open(db)
    given = answer_everything(store, "s01", "alice", sample_reference_answers(), stages=("citations",))
    export_round(store, tmp_path / "n.jsonl", tmp_path / "j.jsonl")
    store.close()
    assert given > 0
    kwargs = {"requests": requests, "collection": COLLECTION, "judge": "lexical", "cache": None}
    from_export = evaluate(RUNS, tmp_path / "n.jsonl", judgments=tmp_path / "j.jsonl", **kwargs)
    from_db = evaluate(RUNS, db, judgments=db, **kwargs)
    assert from_db.table.to_dict("records") == from_export.table.to_dict("records")
    # the people answered every citation, so the judge was asked none of those
    asked = {j.kind for j in from_db.judged.judgments if j.judge.startswith("lexical")}
    assert asked and not asked & {"relevant", "attested"}


def test_a_round_is_read_in_one_snapshot_while_a_server_writes(tmp_path):
    db, _ = new_round(tmp_path)
    writer = Store.open(db)
    items = [i for g in topic_items(writer, "s01", "alice").stage("citations") for i in g.items]
    record_answers(writer, "alice", "assessor", [Answer(items[0], True, None)])
    with writer.transaction():  # a post in progress, not committed yet
        record_answers(writer, "alice", "assessor", [Answer(i, True, None) for i in items[1:3]])
        assert len(read_round(db)[1].judgments) == 1
    assert len(read_round(db)[1].judgments) == 3
    writer.close()


def test_a_file_that_is_no_usable_workbench_database_is_one_line_exit_2(tmp_path):
    db, requests = new_round(tmp_path)
    foreign = tmp_path / "cache.sqlite"
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE answers(x)")
    damaged = tmp_path / "damaged.sqlite"
    damaged.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 8)
    newer = tmp_path / "newer.sqlite"
    newer.write_bytes(db.read_bytes())
    with sqlite3.connect(newer) as connection:
        connection.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),))
    for path, message in ((foreign, "not a workbench database"), (damaged, "not a usable workbench database"),
                          (newer, "made by a newer argue-eval")):
        result = invoke("score", "--run", RUNS[0], "--nuggets", NUGGETS, "--requests", requests, "--judgments", path,
                        "-o", tmp_path / "s.tsv")
        assert result.exit_code == 2 and message in result.output, result.output
        assert result.output.strip().count("\n") == 0 and "Traceback" not in result.output
        with pytest.raises(InputError, match=message):
            read_round(path)
    assert not (tmp_path / "s.tsv").exists()
    # reading never writes: the database is as it was (its bytes, once the writer has checkpointed)
    before = db.read_bytes()
    read_round(db)
    assert db.read_bytes() == before


def test_the_pool_export_leaves_out_what_the_workbench_answered(tmp_path):
    db, requests = new_round(tmp_path)
    store = Store.open(db)
    answer_everything(store, "s01", "alice", sample_reference_answers(), stages=("citations",))
    answered = {row["item_id"] for row in store.verdict_rows()}
    store.close()
    everything = invoke("assess", "export", *[a for run in RUNS for a in ("--run", run)], "--nuggets", NUGGETS,
                        "--requests", requests, "-o", tmp_path / "all.jsonl")
    rest = invoke("assess", "export", *[a for run in RUNS for a in ("--run", run)], "--nuggets", NUGGETS,
                  "--requests", requests, "--judgments", db, "-o", tmp_path / "rest.jsonl")
    assert everything.exit_code == 0 and rest.exit_code == 0, rest.output
    ids = [json.loads(line)["item_id"] for line in (tmp_path / "all.jsonl").read_text().splitlines()]
    rest_ids = [json.loads(line)["item_id"] for line in (tmp_path / "rest.jsonl").read_text().splitlines()]
    assert answered and answered <= set(ids)
    assert rest_ids == [i for i in ids if i not in answered]
    # the same as the pool of the API with the database as judgments
    inputs = load_inputs(RUNS, NUGGETS, db, requests, None, make_policies())
    assert [item["item_id"] for item in export_pool(inputs.reports(), inputs.evaluation, inputs.source)] == rest_ids


def test_assess_export_refuses_a_workbench_database_and_names_export_db(tmp_path):
    db, _ = new_round(tmp_path)
    result = invoke("assess", "export", "--db", db, "--nuggets-out", tmp_path / "n.jsonl", "--judgments-out",
                    tmp_path / "j.jsonl")
    assert result.exit_code == 2
    assert "--db: `assess export` writes a pool file" in result.output
    assert "argue-eval assess export-db --db W.sqlite" in result.output
    assert not (tmp_path / "n.jsonl").exists() and not (tmp_path / "j.jsonl").exists()
    assert invoke("assess", "export", f"--db={db}", "-o", tmp_path / "p.jsonl").exit_code == 2
    done = invoke("assess", "export-db", "--db", db, "--nuggets-out", tmp_path / "n.jsonl", "--judgments-out",
                  tmp_path / "j.jsonl")
    assert done.exit_code == 0 and (tmp_path / "n.jsonl").exists()


def test_export_db_says_what_it_exported_from_where_to_where_and_what_next(double_assessed, tmp_path):
    """``assess export-db``'s lines on stderr, as a new user reads them: the database, what went to which file
    (counted here from the files), the disagreement left undecided with how to decide it, the stale answers, and
    the ``score`` command to run next; with no answer yet, where to see the assessors' progress instead."""
    r = double_assessed
    nuggets, judgments = tmp_path / "n.jsonl", tmp_path / "j.jsonl"
    result = invoke("assess", "export-db", "--db", r["db"], "--nuggets-out", nuggets, "--judgments-out", judgments)
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in judgments.read_text().splitlines()]
    kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(Counter(line["kind"] for line in lines).items()))
    bank = [json.loads(line) for line in nuggets.read_text().splitlines()]
    count = sum(len(topic["nuggets"]) for topic in bank)
    assert result.stderr.splitlines() == [
        "warning: 1 item(s) have assessors who disagree and no adjudication: for them `score` uses the answer of "
        f"the assessor whose name sorts last; to decide them, adjudicate them in the workbench (argue-eval assess "
        f"serve --db {r['db']}) and export again",
        f"note: {r['stale']} answer(s) not exported: they were given about nugget answers that have since been "
        "edited or deleted",
        f"exported workbench database {r['db']}: the nugget bank ({count} nugget(s) of 1 topic(s)) to {nuggets}, "
        f"and the assessors' {len(lines)} judgment(s) ({kinds}; 1 adjudication decision(s)) to {judgments}",
        f"next: argue-eval score --run RUN.jsonl --nuggets {nuggets} --judgments {judgments} -o scores.tsv (or, "
        f"without the export, --nuggets {r['db']} --judgments {r['db']})"]
    assert len(lines) == r["rows"] - r["stale"] and count > 0
    (tmp_path / "fresh").mkdir()
    fresh, _ = new_round(tmp_path / "fresh")
    empty = invoke("assess", "export-db", "--db", fresh, "--nuggets-out", tmp_path / "n2.jsonl", "--judgments-out",
                   tmp_path / "j2.jsonl")
    assert empty.stderr.splitlines()[-1] == (f"next: no assessor has answered yet; see the progress with argue-eval "
                                             f"assess status --db {fresh}, and export again once they have")
