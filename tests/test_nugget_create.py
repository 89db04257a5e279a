"""``nuggets create`` against the scripted loopback server: what the model is shown, how its proposals become
the bank (merging, binding checks, cap, labels, verification), faults and malformed replies, resumption and
the dry run. Every expected value is worked out by hand from the scripted replies below."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("aiohttp", reason="needs the llm extra (aiohttp)")

from llm_server import MockChatServer  # noqa: E402
from nugget_model import data_of, replying, write_track  # noqa: E402

from argue_eval.api.create import create_nuggets, plan_create  # noqa: E402
from argue_eval.cli import cli  # noqa: E402
from argue_eval.judges.llm_tasks import task_version  # noqa: E402
from argue_eval.judges.nugget_tasks import TASKS  # noqa: E402

pytestmark = pytest.mark.llm

CREATE_VERSION = task_version(TASKS["nugget_create"])
LABEL_VERSION = task_version(TASKS["nugget_label"])


def nugget(question: str, *answers: tuple[str, list[str]]) -> dict:
    return {"question": question, "answers": [{"answer": text, "documents": labels} for text, labels in answers]}


def batch_titles(data: dict) -> tuple[str, ...]:
    return tuple(document["title"] for document in data["documents"].values())


REPLIES = {
    # t1, batch 1 (D1 = d1, D2 = d2): D5 and D9 were not shown
    ("Boil-water notice", "Hospital admissions"): {"nuggets": [
        nugget("What contaminated the water?", ("E. coli", ["D1", "D2"])),
        nugget("How many people were admitted to hospital?", ("37", ["D2", "D5"])),
        nugget("Who resigned?", ("the mayor", ["D9"])),
    ]},
    # t1, batch 2 (D1 = d3): a near duplicate of a nugget so far (0.8), the same answer with a dot; a new nugget
    ("Notice lifted",): {"nuggets": [
        nugget("How many people were hospitalized?", ("37.", ["D1"])),
        nugget("When was the boil-water notice lifted?", ("12 March 2025", ["D1"])),
    ]},
    # t2 (D1 = d4)
    ("Harrow Ridge fire",): {"nuggets": [nugget("What started the Harrow Ridge fire?", ("a faulty power line", ["D1"]))]},
}
LABELS = {"What contaminated the water?": "vital", "How many people were admitted to hospital?": "okay",
          "What started the Harrow Ridge fire?": "okay", "When was the boil-water notice lifted?": "vital"}


def model(data: dict, body: dict) -> object:
    if "documents" in data:
        return REPLIES[batch_titles(data)]
    return {key: LABELS[item["question"]] for key, item in data["nuggets"].items()}


@pytest.fixture
def track(tmp_path: Path) -> dict[str, str]:
    return {**write_track(tmp_path), "cache": str(tmp_path / "cache.sqlite"), "dir": str(tmp_path)}


def create(track: dict, server: MockChatServer, **options) -> object:
    llm = {"base_url": server.base_url, "model": "mock", "max_retries": 1, "backoff_base": 0.01, "backoff_max": 0.02,
           "timeout": 5, **options.pop("llm", {})}
    arguments = {"collection": track["collection"], "pool": track["pool"], "cache": track["cache"], "batch_size": 2,
                 "max_nuggets": 2, "judge_options": {"llm": llm, **options.pop("judge_options", {})}, **options}
    return create_nuggets(track["requests"], **arguments)


def test_proposals_merge_are_checked_capped_and_labelled(track):
    """t1: batch 1 gives "contaminated" (E. coli: d1 d2) and "admitted" (37: d2; D5 dropped), and "resigned" whose
    only document D9 was not shown (dropped with its answer and question); batch 2's "hospitalized" shares 4 of 5
    words with "admitted" (0.8: merged; "37." is "37": d3 joins d2) and adds "notice lifted" (d3). Supports 2, 2, 1
    with --max-nuggets 2: "notice lifted" is cut. t2: one nugget. Labels as scripted."""
    with MockChatServer(replying(model)) as server:
        result = create(track, server)
    assert result.complete, result.warnings
    bank = {topic.request_id: topic for topic in result.topics}
    assert [(n.nugget_id, n.question, [(a.text, a.doc_ids) for a in n.answers], n.importance)
            for n in bank["t1"].nuggets] == [
        ("t1-n1", "What contaminated the water?", [("E. coli", ("d1", "d2"))], "vital"),
        ("t1-n2", "How many people were admitted to hospital?", [("37", ("d2", "d3"))], "okay")]
    assert [(n.question, n.answers[0].doc_ids, n.importance) for n in bank["t2"].nuggets] == [
        ("What started the Harrow Ridge fire?", ("d4",), "okay")]
    assert result.dropped == {"answer-without-document": 1, "over-cap": 1, "question-without-answer": 1,
                              "unseen-document": 2}
    assert bank["t1"].nuggets[1].extra["provenance"] == {
        "created_by": "argue-eval nuggets create", "model": "mock", "prompt_version": CREATE_VERSION,
        "temperature": 0.0, "seed": 0, "batch_size": 2, "max_doc_tokens": 1500, "batches": [1, 2], "support": 2,
        "merged_questions": ["How many people were hospitalized?"],
        "label": {"prompt_version": LABEL_VERSION, "batch": 1}}
    # 3 create calls in two rounds (t1 and t2's first batches, then t1's second) and one label call per topic
    kinds = ["documents" in data_of(body) for body in server.requests]
    assert kinds == [True, True, True, False, False]
    second = data_of(server.requests[2])
    assert batch_titles(second) == ("Notice lifted",)
    assert second["nuggets_so_far"] == [{"question": "What contaminated the water?", "answers": ["E. coli"]},
                                        {"question": "How many people were admitted to hospital?", "answers": ["37"]}]
    assert second["request"] == {"title": "Ridgefield water contamination", "background": "A resident.",
                                 "problem_statement": "What contaminated Ridgefield's water, and who was harmed?"}
    schema = server.requests[2]["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["nuggets"]["items"]["properties"]["answers"]["items"]["properties"]["documents"][
        "items"]["enum"] == ["D1"]
    names = ("nuggets", "answers", "bindings", "model_calls", "failed_calls", "batches", "documents", "capped")
    assert {name: result.counts[name] for name in names} == {"nuggets": 3, "answers": 3, "bindings": 5,
                                                             "model_calls": 5, "failed_calls": 0, "batches": 3,
                                                             "documents": 4, "capped": 1}
    steps = [(r["request_id"], r["step"], r.get("batch")) for r in result.details]
    assert steps == [("t1", "create", 1), ("t1", "create", 2), ("t1", "cap", None), ("t1", "label", 1),
                     ("t2", "create", 1), ("t2", "label", 1)]
    first = result.details[0]
    assert first["documents"] == {"D1": "d1", "D2": "d2"}
    assert first["outcomes"][1] == {"question": "How many people were admitted to hospital?", "result": "new",
                                    "dropped": [{"reason": "unseen-document", "answer": "37", "document": "D5"}]}
    assert result.details[1]["outcomes"][0] == {"question": "How many people were hospitalized?", "result": "merged",
                                                "into": "How many people were admitted to hospital?"}
    assert result.details[2]["dropped"] == [{"question": "When was the boil-water notice lifted?", "support": 1}]


def test_the_command_writes_a_bank_validate_accepts_and_a_rerun_asks_nothing_and_writes_the_same_bytes(track):
    out, details = Path(track["dir"]) / "created.jsonl", Path(track["dir"]) / "details.jsonl"
    args = ["nuggets", "create", "--requests", track["requests"], "--pool", track["pool"], "--collection",
            track["collection"], "--cache", track["cache"], "--batch-size", "2", "--max-nuggets", "2",
            "-o", str(out), "--details", str(details)]
    outputs = []
    with MockChatServer(replying(model)) as server:
        for _ in range(2):
            done = CliRunner().invoke(cli, [*args, "--llm-base-url", server.base_url, "--llm-model", "mock"])
            assert done.exit_code == 0, done.output
            outputs.append((out.read_bytes(), details.read_bytes(), done.output))
    assert len(server.requests) == 5  # the second run found every reply in the cache
    assert outputs[0][:2] == outputs[1][:2]
    assert "created 3 nugget(s) (1 vital, 2 okay), 3 answer(s), 5 binding(s) for 2 of 2 request(s) from 4 " \
           "document(s) in 3 batch(es)" in outputs[0][2]
    assert "dropped: 1 answer-without-document, 1 over-cap, 1 question-without-answer, 2 unseen-document" in outputs[0][2]
    assert "model calls: 0 (" in outputs[1][2]
    with MockChatServer(replying(model)) as server:  # --json: the same figures as one object on stdout
        done = CliRunner().invoke(cli, [*args, "--llm-base-url", server.base_url, "--llm-model", "mock", "--json"])
    assert done.exit_code == 0 and out.read_bytes() == outputs[0][0]
    document = json.loads(done.stdout)
    assert document["command"] == "nuggets create" and document["output"] == str(out)
    assert {key: document["counts"][key] for key in ("nuggets", "vital", "okay", "answers", "bindings", "topics",
                                                      "requests", "documents", "batches")} == {
        "nuggets": 3, "vital": 1, "okay": 2, "answers": 3, "bindings": 5, "topics": 2, "requests": 2, "documents": 4,
        "batches": 3}
    assert document["dropped"] == {"answer-without-document": 1, "over-cap": 1, "question-without-answer": 1,
                                   "unseen-document": 2}
    assert document["usage"]["calls"] == 0
    checked = CliRunner().invoke(cli, ["nuggets", "validate", str(out), "--collection", track["collection"],
                                       "--requests", track["requests"]])
    assert checked.exit_code == 0 and checked.output.strip().endswith("2 topics, 3 nuggets, 0 errors, 0 warnings")


def test_a_malformed_reply_fails_its_batch_only_and_the_next_run_asks_what_changed(track):
    """t1's first batch gets prose twice (the question and one re-ask): that batch adds nothing, the topic goes on
    (batch 2 makes "hospitalized" and "notice lifted", supports 1 and 1), the run says so and exits 1. A rerun
    with a good model asks t1's first batch, then its second (its nuggets so far changed) and t1's label call;
    t2's calls are cached."""
    def flaky(data: dict, body: dict) -> object:
        if "documents" in data and batch_titles(data) == ("Boil-water notice", "Hospital admissions"):
            return "Here are the nuggets you asked for."
        return model(data, body) if "documents" in data else {key: "okay" for key in data["nuggets"]}

    with MockChatServer(replying(flaky)) as server:
        result = create(track, server)
    assert not result.complete
    assert result.warnings[0].startswith("1 of 3 create call(s) failed after a re-ask or retries (first: unusable "
                                         "reply twice (not JSON")
    assert [n.question for n in result.topics[0].nuggets] == ["How many people were hospitalized?",
                                                             "When was the boil-water notice lifted?"]
    assert result.details[0] == {"request_id": "t1", "step": "create", "batch": 1,
                                 "documents": {"D1": "d1", "D2": "d2"}, "status": "failed"}
    assert result.counts["failed_batches"] == 1 and result.usage["reasks"] == 1
    with MockChatServer(replying(model)) as again:
        second = create(track, again)
    assert second.complete
    assert [batch_titles(data_of(body)) if "documents" in data_of(body) else "label" for body in again.requests] == [
        ("Boil-water notice", "Hospital admissions"), ("Notice lifted",), "label"]


def test_a_server_fault_is_retried_and_changes_nothing(track):
    with MockChatServer(replying(model)) as clean:
        expected = create(track, clean, cache=None)
    faults = {0: ("status", 500), 3: ("drop",)}

    def script(number: int, body: dict) -> tuple:
        return faults.get(number) or replying(model)(number, body)

    with MockChatServer(script) as server:
        result = create(track, server, cache=None)
    assert result.complete and result.usage["retries"] == 2 and result.usage["faults"] == {"connection": 1, "http_500": 1}
    assert result.topics == expected.topics and result.details == expected.details


def test_a_failed_label_call_leaves_its_nuggets_unlabelled_never_okay(track):
    def no_labels(data: dict, body: dict) -> object:
        return model(data, body) if "documents" in data else "Vital, all of them."

    with MockChatServer(replying(no_labels)) as server:
        result = create(track, server)
    assert [n.importance for topic in result.topics for n in topic.nuggets] == [None, None, None]
    assert result.counts["unlabelled"] == 3
    assert result.warnings == ["3 nugget(s) are unlabelled: their label call failed (first: unusable reply twice "
                               "(not JSON (Expecting value at character 0))); the next run asks it again"]
    assert result.topics[1].nuggets[0].extra["provenance"]["label"] == {"prompt_version": LABEL_VERSION, "batch": 1,
                                                                       "failed": True}


def test_verification_drops_the_bindings_the_judge_rejects(track):
    """The lexical judge reads "question answer" against the bound document, by weighted content words (numbers
    weigh 2) with 0.45 to pass: "What contaminated the water? E. coli" is {contamin, water, coli}: d1 has 2 of 3
    (yes), d2 only "coli" (1/3, no). "How many people were admitted to hospital? 37" is {mani, person, admit,
    hospit, 37x2}: d2 lacks only "mani" (5/6, yes); d3 has {person, hospit} (2/6) and writes 37 as "Thirty-seven"
    (read as 30 and 7: a missing number halves it, no). "Who resigned? the mayor" shares nothing with d1 (no).
    Yes: those two, the notice lifted (d3) and the fire (d4). The mayor's answer goes, and its nugget with it."""
    replies = dict(REPLIES)
    first = ("Boil-water notice", "Hospital admissions")
    replies[first] = {"nuggets": [*REPLIES[first]["nuggets"][:2], nugget("Who resigned?", ("the mayor", ["D1"]))]}

    def with_mayor(data: dict, body: dict) -> object:
        return replies[batch_titles(data)] if "documents" in data else {k: "okay" for k in data["nuggets"]}

    with MockChatServer(replying(with_mayor)) as server:
        result = create(track, server, verify="lexical", max_nuggets=5)
    assert result.complete, result.warnings
    assert (result.counts["verify_attested"], result.counts["verify_rejected"], result.counts["verify_unjudged"]) == (4, 3, 0)
    assert [(n.question, n.answers[0].doc_ids) for n in result.topics[0].nuggets] == [
        ("What contaminated the water?", ("d1",)), ("How many people were admitted to hospital?", ("d2",)),
        ("When was the boil-water notice lifted?", ("d3",))]
    verify = next(r for r in result.details if r["step"] == "verify" and r["request_id"] == "t1")
    assert verify["rejected"] == [
        {"question": "What contaminated the water?", "answer": "E. coli", "doc_id": "d2"},
        {"question": "How many people were admitted to hospital?", "answer": "37", "doc_id": "d3"},
        {"question": "Who resigned?", "answer": "the mayor", "doc_id": "d1"}]
    assert result.dropped["nugget-rejected"] == 1 and result.dropped["rejected-binding"] == 3
    kept = result.topics[0].nuggets[0].extra["provenance"]["verification"]
    assert kept == {"judge": "lexical", "attested": 1, "rejected": [{"answer": "E. coli", "doc_id": "d2"}],
                    "unjudged": []}


def test_the_dry_run_asks_nothing_and_counts_what_a_run_would_send(track):
    """Before any run: t1 has 2 batches and 1 label window (max 2 nuggets, 10 a call), t2 1 and 1. The completion
    limits: a create call may write 64 + 20 x (300 // 4 // 3 + 48) = 1524 tokens, a label call for 10 nuggets
    24 + 12 x 10 = 144. After a run the cache answers all 5 calls."""
    arguments = {"collection": track["collection"], "pool": track["pool"], "cache": track["cache"], "batch_size": 2,
                 "max_nuggets": 2, "judge_options": {"llm": {"model": "mock"}}}
    plan = plan_create(track["requests"], **arguments)
    assert not Path(track["cache"]).exists()  # a dry run creates nothing
    rows = {row["request_id"]: row for row in plan["topics"]}
    assert {k: (r["batches"], r["cached"], r["calls"], r["completion_tokens"]) for k, r in rows.items()} == {
        "t1": (2, 0, 3, 2 * 1524 + 144), "t2": (1, 0, 2, 1524 + 144)}
    assert plan["total"]["calls"] == 5
    with MockChatServer(replying(model)) as server:
        create(track, server)
        requests_sent = len(server.requests)
        after = plan_create(track["requests"], **arguments)
        assert len(server.requests) == requests_sent
    assert [(r["cached"], r["calls"], r["prompt_tokens"]) for r in after["topics"]] == [(3, 0, 0), (2, 0, 0)]
    # the first call's prompt is priced as it is sent: t2's create prompt, 4 characters a token plus 4 a message
    body = next(b for b in server.requests if "documents" in data_of(b) and batch_titles(data_of(b)) == ("Harrow Ridge fire",))
    sent = sum(len(m["content"]) for m in body["messages"]) + 1  # the messages joined by a newline
    label_part = rows["t2"]["prompt_tokens"] - ((sent + 3) // 4 + 8)
    assert 400 < label_part < 1000  # 40 tokens for each of 10 nuggets, and the label prompt around them


def test_runs_give_their_cited_documents_in_order_of_first_citation(track, repo):
    """--runs instead of --pool: careful.jsonl's report on s01, its documents in order of first citation
    (read here from the file with json), the first 3 of them (--max-documents 3) in one batch."""
    run = repo / "runs" / "sample" / "careful.jsonl"
    cited: list[str] = []
    for line in run.read_text().splitlines():
        report = json.loads(line)
        if report["request_id"] == "s01":
            for sentence in report["sentences"]:
                cited += [doc for doc in sentence["citations"] if doc not in cited]
    with MockChatServer(replying(lambda data, body: {"nuggets": []} if "documents" in data else {})) as server:
        result = create_nuggets(str(repo / "topics" / "sample" / "requests.jsonl"),
                                collection=str(repo / "topics" / "sample" / "collection.jsonl"), runs=[str(run)],
                                max_documents=3, batch_size=3, cache=None,
                                judge_options={"llm": {"base_url": server.base_url, "model": "mock"}})
    s01 = next(r for r in result.details if r["request_id"] == "s01")
    assert list(s01["documents"].values()) == cited[:3]
    assert result.topics == [] and result.counts["requests"] == 8


@pytest.mark.parametrize("args, message", [
    ([], "--pool: give the documents to read: --pool POOL (the pool command's output) or --run RUN..."),
    (["--pool", "{pool}", "--runs", "{pool}"], "--pool: give the documents to read"),
    (["--pool", "{pool}", "--collection", "{collection}"], "-o: missing -o N.jsonl, or use --dry-run"),
    (["--pool", "{pool}", "--dry-run"], "--llm-model: creating nuggets needs the served model's name"),
    (["--pool", "{pool}", "--dry-run", "--llm-model", "m", "--verify", "nope"], "Invalid value for '--verify'"),
    (["--pool", "{pool}", "--collection", "{collection}", "--llm-model", "m", "-o", "{dir}/x.jsonl", "--to", "nope"],
     "--to: "),
    # a pool whose topics are not the requests': nothing to create from, said, and nothing written
    (["--pool", "{other_pool}", "--collection", "{collection}", "--llm-model", "m", "--llm-base-url",
      "{url}", "-o", "{dir}/x.jsonl"],
     "no request has a document of --pool in the collection: nothing to create nuggets from (2 request(s) have "
     "no pooled document in the collection and get no nuggets: t1, t2; 1 pooled topic(s) are not requests and are "
     "left out: t9)"),
])
def test_bad_options_are_one_line_errors_before_any_call(track, args, message):
    other_pool = Path(track["dir"]) / "other.qrels"
    other_pool.write_text("t9 0 d1 -1\n")
    with MockChatServer() as server:  # listening, so that the endpoint's check passes and the inputs' error shows
        filled = [arg.format(**track, other_pool=other_pool, url=server.base_url) for arg in args]
        done = CliRunner().invoke(cli, ["nuggets", "create", "--requests", track["requests"], *filled])
        assert server.requests == []
    assert done.exit_code == 2, done.output
    assert message in done.output and "Traceback" not in done.output
    assert not (Path(track["dir"]) / "x.jsonl").exists()


def test_a_killed_run_resumes_without_asking_again_and_writes_the_same_bytes(track, tmp_path):
    """SIGKILL while t1's second batch (round 2) waits for its reply: round 1's two replies were committed before
    round 2 was sent, so the rerun asks only t1's second batch and the two label calls, and writes exactly what
    an uninterrupted run writes; the killed run wrote no bank at all."""
    import os
    import signal
    import subprocess
    import sys
    import threading
    import time

    hold = threading.Event()

    def held(number: int, body: dict) -> tuple:
        return ("block", hold) if number >= 2 else replying(model)(number, body)

    def command(server: MockChatServer, cache: str, out: Path) -> list[str]:
        return [sys.executable, "-m", "argue_eval.cli", "nuggets", "create", "--requests", track["requests"], "--pool",
                track["pool"], "--collection", track["collection"], "--batch-size", "2", "--max-nuggets", "2",
                "--llm-base-url", server.base_url, "--llm-model", "mock", "--cache", cache, "-o", str(out),
                "--details", str(out) + ".details"]

    out = tmp_path / "killed.jsonl"
    with MockChatServer(held) as server:
        process = subprocess.Popen(command(server, track["cache"], out), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, env={**os.environ, "ARGUE_EVAL_PROGRESS": "0"})
        deadline = time.monotonic() + 60
        while len(server.requests) < 3 and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        assert len(server.requests) == 3, "the run did not reach its second round"
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        hold.set()
    assert not out.exists() and not Path(str(out) + ".details").exists()
    with MockChatServer(replying(model)) as again:
        subprocess.run(command(again, track["cache"], out), check=True, capture_output=True, timeout=120)
    assert [batch_titles(data_of(b)) if "documents" in data_of(b) else "label" for b in again.requests[:1]] == [
        ("Notice lifted",)]
    assert len(again.requests) == 3
    reference = tmp_path / "reference.jsonl"
    with MockChatServer(replying(model)) as clean:
        subprocess.run(command(clean, str(tmp_path / "other.sqlite"), reference), check=True, capture_output=True,
                       timeout=120)
    assert out.read_bytes() == reference.read_bytes()
    assert Path(str(out) + ".details").read_bytes() == Path(str(reference) + ".details").read_bytes()


def test_a_refused_key_stops_the_run_saying_why_and_writes_nothing(track, monkeypatch):
    monkeypatch.setenv("MOCK_KEY", "sk-mock-SECRET-7")
    out = Path(track["dir"]) / "created.jsonl"
    with MockChatServer(lambda n, body: ("error", 401, "invalid key sk-mock-SECRET-7")) as server:
        done = CliRunner().invoke(cli, ["nuggets", "create", "--requests", track["requests"], "--pool", track["pool"],
                                        "--collection", track["collection"], "--llm-base-url", server.base_url,
                                        "--llm-model", "mock", "--llm-api-key-env", "MOCK_KEY", "--no-cache",
                                        "-o", str(out)])
    assert done.exit_code == 2, done.output
    assert done.stderr.startswith("authentication failed: the server answered HTTP 401 (invalid key REDACTED); check "
                                  "the API key in $MOCK_KEY")
    assert "SECRET" not in done.output and not out.exists()
    # Round 1's calls run concurrently: the first 401 stops the run, so the second may or may not have been sent
    # by then; none is retried and no label call follows.
    assert 1 <= len(server.requests) <= 2
    assert all("documents" in data_of(body) for body in server.requests)


def test_a_run_that_keeps_no_nugget_writes_nothing_exits_1_and_counts_every_drop(track):
    """Every call proposes a question of nothing but a question mark and one whose only answer is bound to D9, which
    no batch showed: three create calls (t1: two batches, t2: one), each dropping 1 empty-question, 1 unseen-document,
    then 1 answer-without-document and 1 question-without-answer; no nugget, so no label call and no file."""
    def hopeless(data: dict, body: dict) -> object:
        return {"nuggets": [nugget("  ?", ("x", ["D1"])), nugget("Who resigned?", ("the mayor", ["D9"]))]}

    out = Path(track["dir"]) / "created.jsonl"
    with MockChatServer(replying(hopeless)) as server:
        done = CliRunner().invoke(cli, ["nuggets", "create", "--requests", track["requests"], "--pool", track["pool"],
                                        "--collection", track["collection"], "--cache", track["cache"],
                                        "--batch-size", "2", "--llm-base-url", server.base_url, "--llm-model", "mock",
                                        "-o", str(out), "--details", str(Path(track["dir"]) / "d.jsonl")])
        assert len(server.requests) == 3
    assert done.exit_code == 1, done.output
    assert not out.exists() and not (Path(track["dir"]) / "d.jsonl").exists()
    assert ("warning: 2 request(s) kept no nugget from their documents: t1, t2 (every proposal was dropped or every "
            "call failed; the reasons are counted under 'dropped' and listed per call in --details)") in done.output
    assert (f"created 0 nugget(s) (0 vital, 0 okay), 0 answer(s), 0 binding(s) for 0 of 2 request(s) from 4 "
            f"document(s) in 3 batch(es) nothing written to {out} (a bank of no nugget is no bank)") in done.output
    assert ("dropped: 3 answer-without-document, 3 empty-question, 3 question-without-answer, 3 unseen-document"
            in done.output)
