"""The judge runner: rounds that follow the flowchart, dedupe across runs, precedence of imported
judgments, the cache (resume, judge identity), and failures that are reported, never counted as "no"."""
from __future__ import annotations

import json
import sqlite3
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from argue_eval.api import evaluate, judge
from argue_eval.errors import InputError
from argue_eval.formats import read_reports
from argue_eval.formats.judgments import judgment_to_dict
from argue_eval.judges.base import JudgeBackend, Verdict
from argue_eval.judges.cache import JudgmentCache
from argue_eval.model import JUDGMENT_KINDS, Document, Judgment

FIXTURES = Path(__file__).parent / "fixtures" / "argue"


class RuleJudge(JudgeBackend):
    """A transparent judge for testing the runner: fixed rules, and a log of every batch it was asked."""

    name = "rules"
    kinds = frozenset(JUDGMENT_KINDS)

    def __init__(self, strict: bool = False, refuse: str | None = None):
        self.strict = strict
        self.refuse = refuse
        self.batches: list[list] = []

    def params(self) -> dict:
        return {"strict": self.strict}

    def answer_many(self, questions):
        self.batches.append(list(questions))
        out = []
        for q in questions:
            if self.refuse is not None and self.refuse in q.sentence:
                out.append(None)  # could not judge
            elif q.kind == "negative":
                out.append(Verdict(q.sentence.startswith(("No ", "There is no")), "rules"))
            elif q.kind == "requires_citation":
                out.append(Verdict(any(ch.isdigit() for ch in q.sentence), "rules"))
            else:
                out.append(Verdict(not self.strict, "rules", confidence=0.75, rationale="rule"))
        return out

    def asked(self) -> list:
        return [q for batch in self.batches for q in batch]


def t1_reports(run: str = "runA.jsonl"):
    return [r for r in read_reports(FIXTURES / run) if r.request_id == "T1"]


def run_rules(judge_backend, reports=None, **kwargs):
    kwargs.setdefault("collection", FIXTURES / "collection.jsonl")
    return judge(reports if reports is not None else t1_reports(), FIXTURES / "nuggets.jsonl", judge=judge_backend,
                 **kwargs)


def test_rounds_follow_the_flowchart_and_the_first_sentence_is_never_asked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the collection's offset index may be written beside it; keep it in tmp
    rules = RuleJudge()
    result = run_rules(rules)
    assert result.run.stats.rounds == 3
    rounds = [Counter(q.kind for q in batch) for batch in rules.batches]
    # round 1: 6 distinct (sentence, document) pairs -> attested; 5 bound answers of relevant documents;
    # the 5 uncited sentences -> negative (sentences 0, 5, 6, 7, 8)
    assert rounds[0] == {"attested": 6, "answers": 5, "negative": 5}
    # round 2: 3 non-negative -> requires_citation; 2 negative -> the one negative nugget's answer
    assert rounds[1] == {"requires_citation": 3, "nugget_agrees": 2}
    # round 3: only sentence 6 (has digits, not first); sentence 0 is a first instance by definition
    assert rounds[2] == {"first_instance": 1}
    assert rules.batches[2][0].key.sentence_index == 6
    assert all(not (q.kind == "first_instance" and q.key.sentence_index == 0) for q in rules.asked())
    assert len(result.judgments) == 16 + 5 + 1 and not result.run.failures


def test_the_plan_lists_each_topic_once_per_round_as_listing_every_report_again_would(tmp_path, monkeypatch):
    """Each topic's rounds (TopicRounds) ask what listing every report again each round asks, in the same order
    and with the same texts, evaluate only the sentences still open, and stop after a round that opens nothing."""
    import argue_eval.argue.questions as questions_module
    from argue_eval.api import plan_topics
    from argue_eval.argue.policies import Policies
    from argue_eval.inputs import load_inputs
    from argue_eval.judges.runner import JudgedTable

    monkeypatch.chdir(tmp_path)
    reports = [r for run in ("runA.jsonl", "runB.jsonl") for r in read_reports(FIXTURES / run)]
    inputs = load_inputs(reports, FIXTURES / "nuggets.jsonl", None, None, None, Policies())
    real = questions_module.evaluate_report
    evaluated: list[int] = []  # sentences run through the flowchart per call

    def counting(report, *args, only=None, **kwargs):
        evaluated.append(len(report.sentences) if only is None else len(only))
        return real(report, *args, only=only, **kwargs)

    monkeypatch.setattr(questions_module, "evaluate_report", counting)

    def answer(table, batch):
        for q in batch:  # negative only for "No ..." sentences, every other question yes
            table.table[q.key] = (q.kind != "negative" or q.sentence.startswith("No "), "rules")

    def fields(batch):
        return [(q.key, q.sentence, q.answer, q.earlier_sentences, q.cited_doc_ids) for q in batch]

    topics = list(plan_topics(reports, inputs.evaluation))
    assert [t.request_id for t in topics] == sorted({r.request_id for r in reports})
    planned: list[list] = []
    table = JudgedTable()
    for topic in topics:
        while batch := topic.next_round(table):
            planned.append(fields(batch))
            answer(table, batch)
    plan_runs = list(evaluated)
    evaluated.clear()
    relisted: list[list] = []
    table = JudgedTable()
    while listed := questions_module.list_questions(reports, inputs.evaluation, table, show_progress=False):
        batch = [item.question(inputs.evaluation) for item in listed]
        by_topic = {t.request_id: [q for q in batch if q.key.request_id == t.request_id] for t in topics}
        relisted.append({topic: fields(questions) for topic, questions in by_topic.items() if questions})
        answer(table, batch)
    # the same questions, topic by topic, round by round, in the same order and with the same texts
    rounds_by_topic: dict[str, list] = {}
    for rounds in relisted:
        for topic, questions in rounds.items():
            rounds_by_topic.setdefault(topic, []).append(questions)
    assert planned == [questions for topic in sorted(rounds_by_topic) for questions in rounds_by_topic[topic]]
    assert len(relisted) == 3
    everything = sum(len(r.sentences) for r in reports)
    assert sum(evaluated) == 4 * everything  # listing again runs every sentence of every report each time
    assert sum(plan_runs) < 2 * everything  # the plan: every sentence once, then only the open ones


def test_later_rounds_run_again_only_the_sentences_whose_answers_can_open_questions(tmp_path, monkeypatch):
    # the T1 report of runA (10 sentences): round 1 asks about every sentence; only the 5 uncited ones wait on
    # an answer that opens more (negative); of those, the 3 not negative wait on requires_citation; the 2
    # negative ones get nugget_agrees, which opens nothing. So the rounds run 10, 5 and 3 sentences, not 30.
    import argue_eval.argue.questions as questions_module

    monkeypatch.chdir(tmp_path)
    real = questions_module.evaluate_report
    ran: list[int] = []

    def counting(report, *args, only=None, **kwargs):
        ran.append(len(report.sentences) if only is None else len(only))
        return real(report, *args, only=only, **kwargs)

    monkeypatch.setattr(questions_module, "evaluate_report", counting)
    reports = t1_reports()
    assert [len(r.sentences) for r in reports] == [10]
    rules = RuleJudge()
    result = run_rules(rules, reports)
    assert ran == [10, 5, 3]
    assert [Counter(q.kind for q in batch) for batch in rules.batches][1:] == [
        {"requires_citation": 3, "nugget_agrees": 2}, {"first_instance": 1}]
    # and the same judgments as running every sentence in every round
    monkeypatch.setattr(questions_module, "evaluate_report", lambda *args, only=None, **kwargs: real(*args, **kwargs))
    everything = run_rules(RuleJudge(), reports)
    assert [judgment_to_dict(j) for j in result.judgments] == [judgment_to_dict(j) for j in everything.judgments]


def test_documents_are_attached_and_a_sentence_in_two_runs_is_asked_once(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rules = RuleJudge()
    result = run_rules(rules, t1_reports("runA.jsonl") + t1_reports("runB.jsonl"))
    attested = [q for q in rules.asked() if q.kind == "attested"]
    # runB repeats two (sentence, document) pairs of runA, one with extra spaces: no new questions
    assert len(attested) == 6
    by_doc = {q.key.doc_id: q.document for q in attested}
    assert by_doc["d1"] == Document("d1", "In March 2019 the Missouri River crested above flood stage.", "River crest")
    requires = [q for q in rules.asked() if q.kind == "requires_citation"]
    assert all(q.cited_documents and {d.doc_id for d in q.cited_documents} == {"d1", "d4", "d9", "d2", "d3"}
               for q in requires if q.key.run_id == "runA")
    assert len(result.judgments) == 22


def test_imported_judgments_take_precedence_and_are_not_asked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    human = Judgment("attested", "T1", "Three people died in the flooding.", False, "human:alice", doc_id="d2")
    rules = RuleJudge()
    result = run_rules(rules, judgments=[human])
    assert not any(q.kind == "attested" and q.key.doc_id == "d2" for q in rules.asked())
    assert not any(j.kind == "attested" and j.doc_id == "d2" for j in result.judgments)
    scored = evaluate(t1_reports(), FIXTURES / "nuggets.jsonl", collection=FIXTURES / "collection.jsonl",
                      judge=RuleJudge(), judgments=[human])
    sentence = next(s for d in scored.details for s in d["sentences"] if s["index"] == 4)
    # "answers" yes through a relevant document -> 3, but the human said the document does not attest it
    assert sentence["citations"][0]["attested"] is False
    assert [step["judge"] for step in sentence["citations"][0]["path"] if step["question"] == "attested"] == ["human:alice"]


def test_the_cache_answers_a_second_run_and_a_changed_threshold_is_a_new_judge(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cache = tmp_path / "cache.sqlite"
    first = run_rules(RuleJudge(), cache=cache)
    again = RuleJudge()
    second = run_rules(again, cache=cache)
    assert again.batches == [] and sum(second.run.stats.cached.values()) == len(first.judgments)
    assert [judgment_to_dict(j) for j in second.judgments] == [judgment_to_dict(j) for j in first.judgments]
    strict = RuleJudge(strict=True)
    third = run_rules(strict, cache=cache)
    assert strict.batches and sum(third.run.stats.new.values()) == len(third.judgments)
    with sqlite3.connect(cache) as db:
        assert db.execute("select count(*) from judges").fetchone()[0] == 2


class RequestReader(RuleJudge):
    """Answers from the request text it is given, as the lexical, semantic and LLM judges read it."""

    def answer_many(self, questions):
        self.batches.append(list(questions))
        return [Verdict(q.request is not None and "floods" in q.request.title, "reader") for q in questions]


def test_the_cache_never_serves_an_answer_made_without_the_request_text_to_a_run_that_has_it(tmp_path):
    cache = tmp_path / "cache.sqlite"
    requests = FIXTURES / "requests.jsonl"
    without = run_rules(RequestReader(), cache=cache)
    assert without.judgments and not any(j.value for j in without.judgments)
    reader = RequestReader()
    given = run_rules(reader, cache=cache, requests=requests)  # the answers change with the request text
    assert reader.batches and sum(given.run.stats.cached.values()) == 0
    fresh = run_rules(RequestReader(), requests=requests)
    assert [judgment_to_dict(j) for j in given.judgments] == [judgment_to_dict(j) for j in fresh.judgments]
    assert all(j.value for j in given.judgments)
    # the same request text again: every answer from the cache
    again = RequestReader()
    third = run_rules(again, cache=cache, requests=requests)
    assert again.batches == [] and sum(third.run.stats.cached.values()) == len(given.judgments)


def _cached_and_asked(reader, **kwargs):
    result = run_rules(reader, **kwargs)
    asked = {(q.kind, q.key.doc_id, q.key.nugget_id, q.key.sentence_index) for q in reader.asked()}
    return result, asked


def test_the_cache_never_serves_an_answer_made_from_other_texts_behind_the_same_ids(tmp_path):
    """The key names the nugget, the document and the run only by id: an edited nugget question, another
    version of a document or a changed earlier sentence must be judged again, the rest comes from the cache."""
    cache = tmp_path / "cache.sqlite"
    first, asked = _cached_and_asked(RuleJudge(), cache=cache)
    assert asked and not first.run.failures
    # the same texts: nothing asked again
    again, asked = _cached_and_asked(RuleJudge(), cache=cache)
    assert asked == set() and sum(again.run.stats.cached.values()) == len(first.judgments)

    # another version of d4 (e.g. another translation of the collection): only the questions reading d4,
    # which include requires_citation (it reads every document the report cites)
    collection = tmp_path / "collection.jsonl"
    collection.write_text((FIXTURES / "collection.jsonl").read_text().replace(
        "The Platte River flooded farmland.", "The Platte River rose over its banks."))
    _, asked = _cached_and_asked(RuleJudge(), cache=cache, collection=collection)
    assert {(kind, doc) for kind, doc, _, _ in asked} == {("attested", "d4"), ("answers", "d4"),
                                                          ("requires_citation", None)}

    # an edited question of nugget n1 under the same id: only its answers questions
    nuggets = tmp_path / "nuggets.jsonl"
    nuggets.write_text((FIXTURES / "nuggets.jsonl").read_text().replace("When did the flood happen?",
                                                                           "When did the flooding start?"))
    judged = judge(t1_reports(), nuggets, collection=FIXTURES / "collection.jsonl", judge=(rules := RuleJudge()),
                   cache=cache)
    assert {(q.kind, q.key.nugget_id) for q in rules.asked()} == {("answers", "n1")}
    n1 = [j for j in first.judgments if j.kind == "answers" and j.nugget_id == "n1"]
    assert len(n1) >= 2 and sum(judged.run.stats.new.values()) == len(n1)

    # a resubmitted run under the same id whose first sentence changed: the first_instance question of
    # sentence 6 (which compares with the earlier sentences) and the sentence's own questions are asked again
    report = t1_reports()[0]
    sentences = [replace(report.sentences[0], text="This report covers the floods of 2019."), *report.sentences[1:]]
    changed = [replace(report, sentences=tuple(sentences) if isinstance(report.sentences, tuple) else sentences)]
    _, asked = _cached_and_asked(RuleJudge(), reports=changed, cache=cache)
    assert ("first_instance", None, None, 6) in asked
    assert all(kind != "attested" for kind, *_ in asked)  # the cited sentences did not change


def test_a_verdict_the_judge_cannot_give_is_a_failure_not_a_no(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run_rules(RuleJudge(refuse="Three people"))
    failed = [f for f in result.run.failures]
    assert {f.key.kind for f in failed} == {"attested", "answers"} and len(failed) == 2
    assert all("could not answer" in f.reason for f in failed)
    assert not any(j.sentence.startswith("Three people") for j in result.judgments)
    with pytest.raises(Exception, match="2 judgments missing"):
        evaluate(t1_reports(), FIXTURES / "nuggets.jsonl", collection=FIXTURES / "collection.jsonl",
                 judge=RuleJudge(refuse="Three people"))


def test_a_cited_document_missing_from_the_collection_is_reported(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    collection = tmp_path / "partial.jsonl"
    lines = [line for line in (FIXTURES / "collection.jsonl").read_text().splitlines() if '"d9"' not in line]
    collection.write_text("\n".join(lines) + "\n")
    result = judge(t1_reports(), FIXTURES / "nuggets.jsonl", collection=collection, judge=RuleJudge())
    assert result.run.stats.missing_documents == ["d9"]
    assert {(f.key.kind, f.key.doc_id) for f in result.run.failures} == {("attested", "d9")}
    assert all(f.reason == "the cited document is not in the collection" for f in result.run.failures)
    assert len(result.run.failures) == 2  # sentences 2 and 3 cite d9


def test_an_unreadable_cache_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "cache.sqlite"
    bad.write_text("this is not a database, just text " * 100)
    with pytest.raises(InputError, match="cannot be used as a judgment cache"):
        JudgmentCache(bad)
    with pytest.raises(InputError, match="is a directory"):
        JudgmentCache(tmp_path)
    # a place where no cache can be made (a read-only checkout for the default .argue-cache/): say what to do
    (tmp_path / "a-file").write_text("")
    with pytest.raises(InputError, match="cannot open the judgment cache: .*; name another with --cache PATH"):
        JudgmentCache(tmp_path / "a-file" / "judgments.sqlite")


def test_a_damaged_or_foreign_sqlite_cache_is_a_clear_error_never_a_traceback(tmp_path):
    import shutil

    from argue_eval.judges.cache import judge_fingerprint

    good = tmp_path / "good.sqlite"
    keys = [q.key for q in run_rules(RuleJudge(), cache=good).judgments]
    with sqlite3.connect(good) as db:
        page_size = db.execute("pragma page_size").fetchone()[0]
        root = db.execute("select rootpage from sqlite_master where name = 'answers'").fetchone()[0]
    # the answers table's page overwritten (a bad disk, a file copied while written): the file still opens
    damaged = tmp_path / "damaged.sqlite"
    shutil.copy(good, damaged)
    with open(damaged, "r+b") as handle:
        handle.seek((root - 1) * page_size)
        handle.write(b"\xa5" * page_size)
    with pytest.raises(InputError, match="damaged.sqlite.*judgment cache"):
        with JudgmentCache(damaged) as cache:
            cache.get_many(judge_fingerprint(RuleJudge().identity()), keys)
    with pytest.raises(InputError, match="damaged.sqlite.*judgment cache"):
        run_rules(RuleJudge(), cache=damaged)
    # another program's database: refused, and left as it was
    foreign = tmp_path / "places.sqlite"
    with sqlite3.connect(foreign) as db:
        db.execute("create table answers (url text)")
        db.execute("create table visits (url text, at int)")
    before = foreign.read_bytes()
    with pytest.raises(InputError, match="not a judgment cache.*answers, visits"):
        JudgmentCache(foreign)
    assert foreign.read_bytes() == before


SLOW_JUDGE = '''
import json, sys, time
from argue_eval.api import judge
from argue_eval.formats.judgments import write_argue
from argue_eval.judges.base import JudgeBackend, Verdict
from argue_eval.model import JUDGMENT_KINDS

class Slow(JudgeBackend):
    """Deterministic answers, slowly, so that a kill lands in the middle of judging."""
    name = "slow"
    kinds = frozenset(JUDGMENT_KINDS)
    calls = 0
    def iter_answers(self, questions):
        for i, q in enumerate(questions):
            time.sleep(0.004)
            Slow.calls += 1
            yield i, Verdict(len(q.sentence) % 3 != 0, "slow", confidence=len(q.sentence) / 97)

*runs, nuggets, collection, cache, out = sys.argv[1:]
result = judge(runs, nuggets, collection=collection, judge=Slow(), cache=cache)
write_argue(result.judgments, out)
print(json.dumps({"computed": Slow.calls, "cached": sum(result.run.stats.cached.values())}))
'''


def _judge_process(repo: Path, tmp_path: Path, cache: Path, out: Path):
    import subprocess
    import sys

    script = tmp_path / "slow_judge.py"
    script.write_text(SLOW_JUDGE)
    args = [sys.executable, str(script), str(repo / "runs/sample/careful.jsonl"),
            str(repo / "runs/sample/wrong-cites.jsonl"), str(repo / "nuggets/sample/nuggets.jsonl"),
            str(tmp_path / "collection.jsonl"), str(cache), str(out)]
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)


def test_a_killed_run_resumes_from_the_cache_and_writes_the_same_bytes(repo, tmp_path):
    import shutil
    import signal
    import time

    shutil.copy(repo / "topics/sample/collection.jsonl", tmp_path / "collection.jsonl")
    whole = _judge_process(repo, tmp_path, tmp_path / "whole.sqlite", tmp_path / "whole.jsonl")
    stdout, stderr = whole.communicate(timeout=300)
    assert whole.returncode == 0, stderr
    total = json.loads(stdout)["computed"]

    cache = tmp_path / "killed.sqlite"
    killed = _judge_process(repo, tmp_path, cache, tmp_path / "resumed.jsonl")
    committed = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and committed < total // 3:
        time.sleep(0.05)
        if cache.exists():
            try:
                with sqlite3.connect(cache, timeout=5) as db:
                    committed = db.execute("select count(*) from answers").fetchone()[0]
            except sqlite3.OperationalError:
                committed = 0  # schema not created yet
    killed.send_signal(signal.SIGKILL)
    killed.communicate()
    assert 0 < committed < total and not (tmp_path / "resumed.jsonl").exists()

    resumed = _judge_process(repo, tmp_path, cache, tmp_path / "resumed.jsonl")
    stdout, stderr = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, stderr
    counts = json.loads(stdout)
    assert counts["cached"] >= committed  # nothing committed was judged again
    assert counts["computed"] + counts["cached"] == total
    assert (tmp_path / "resumed.jsonl").read_bytes() == (tmp_path / "whole.jsonl").read_bytes()


def test_a_cached_row_that_is_not_a_verdict_is_judged_again_and_replaced(tmp_path):
    cache = tmp_path / "cache.sqlite"
    first = run_rules(RuleJudge(), cache=cache)
    with sqlite3.connect(cache) as db:  # damage two rows by hand: not JSON, and JSON without a yes/no value
        keys = [key for (key,) in db.execute("SELECT key FROM answers ORDER BY key LIMIT 2")]
        db.execute("UPDATE answers SET verdict = 'garbage' WHERE key = ?", (keys[0],))
        db.execute("UPDATE answers SET verdict = '{\"value\": \"yes\", \"judge\": \"rules\"}' WHERE key = ?",
                   (keys[1],))
    rules = RuleJudge()
    again = run_rules(rules, cache=cache)
    assert len(rules.asked()) == 2 and again.run.stats.new.total() == 2
    assert [judgment_to_dict(j) for j in again.judgments] == [judgment_to_dict(j) for j in first.judgments]
    third = RuleJudge()
    run_rules(third, cache=cache)  # the recomputed answers replaced the damaged rows
    assert third.asked() == []

    # a verdict whose other fields are of the wrong type is damaged too: served, it was written into a
    # judgments file that score then refused (confidence: expected a number or null)
    with sqlite3.connect(cache) as db:
        rows = db.execute("SELECT key, verdict FROM answers ORDER BY key LIMIT 6").fetchall()
        for (key, verdict), (field, bad) in zip(rows, [("confidence", "high"), ("confidence", True),
                                                        ("rationale", 5), ("provenance", "x"),
                                                        ("judge", ""), ("judge", None)]):
            db.execute("UPDATE answers SET verdict = ? WHERE key = ?",
                       (json.dumps({**json.loads(verdict), field: bad}), key))
        # a row that is JSON but not an object, and one that is not text at all
        key = db.execute("SELECT key FROM answers ORDER BY key LIMIT 1 OFFSET 6").fetchone()[0]
        db.execute("UPDATE answers SET verdict = '[true, \"rules\"]' WHERE key = ?", (key,))
        key = db.execute("SELECT key FROM answers ORDER BY key LIMIT 1 OFFSET 7").fetchone()[0]
        db.execute("UPDATE answers SET verdict = ? WHERE key = ?", (7, key))
    fourth = RuleJudge()
    again = run_rules(fourth, cache=cache)
    assert len(fourth.asked()) == 8 and again.run.stats.new.total() == 8
    assert [judgment_to_dict(j) for j in again.judgments] == [judgment_to_dict(j) for j in first.judgments]


class _TrackedDocument(Document):
    """A document that counts the copies alive (a tuple cannot be weakly referenced)."""

    alive = 0

    def __new__(cls, *fields):
        _TrackedDocument.alive += 1
        return super().__new__(cls, *fields)

    def __del__(self):
        _TrackedDocument.alive -= 1


class _FreshStore:
    """A store that reads every document afresh, as the JSONL store does, and notes at each request how many
    documents of earlier requests are still alive, and how many it hands out."""

    def __init__(self):
        from argue_eval.collection import open_collection

        self.store = open_collection(FIXTURES / "collection.jsonl")
        self.alive_then: list[int] = []
        self.served: list[int] = []

    def get_many(self, doc_ids):
        import gc

        gc.collect()
        self.alive_then.append(_TrackedDocument.alive)
        found = {doc_id: _TrackedDocument(*doc) for doc_id, doc in self.store.get_many(doc_ids).items()}
        self.served.append(len(found))
        return found

    def close(self):
        self.store.close()


class _Forgetful(RuleJudge):
    def answer_many(self, questions):
        answers = super().answer_many(questions)
        self.batches.clear()  # keep no question (and so no document) alive
        return answers


def test_the_cache_context_memo_does_not_hold_the_documents_of_earlier_topics_and_rounds(tmp_path):
    """The runner reads one topic's documents at a time so that a round never holds its whole cited
    collection; the cache-key digests (memoized per document object) must not keep them alive for the run
    (it held every document of every topic and round: 220 MB peak against 80 MB on a 60 x 20 round)."""
    store = _FreshStore()
    reports = [r for run in ("runA.jsonl", "runB.jsonl") for r in read_reports(FIXTURES / run)]
    result = judge(reports, FIXTURES / "nuggets.jsonl", judge=_Forgetful(), collection=store,
                   cache=tmp_path / "cache.sqlite")
    assert not result.run.failures and len(store.served) >= 3
    # at each request, at most the documents of the request before it are still referenced (by the
    # runner's loop variables until they are rebound), never those of every request so far
    for i in range(1, len(store.served)):
        assert store.alive_then[i] <= store.served[i - 1], (store.alive_then, store.served)


class CallJudge(RuleJudge):
    """Answers in groups of three, like a model that answers three questions per call, and is killed after
    ``calls`` calls (the exception stands for the SIGKILL: nothing after it runs)."""

    def __init__(self, calls: int):
        super().__init__()
        self.calls = calls

    def iter_answer_groups(self, questions):
        answers = list(enumerate(self.answer_many(questions)))
        for call, start in enumerate(range(0, len(answers), 3)):
            if call == self.calls:
                raise RuntimeError("killed")
            yield answers[start:start + 3]

    def iter_answers(self, questions):
        for group in self.iter_answer_groups(questions):
            yield from group


def test_a_transaction_never_splits_the_answers_of_one_call(tmp_path, monkeypatch):
    # The LLM judge asks all nugget answers of a sentence and document in one prompt. Had a kill left two of
    # a prompt's three answers in the cache, the resumed run would ask the third alone, in another prompt,
    # and might get another answer than the uninterrupted run: so a call's answers are committed together.
    from argue_eval.judges import runner

    monkeypatch.setitem(runner.run_judge.__kwdefaults__, "flush_every", 2)
    cache = tmp_path / "cache.sqlite"
    with pytest.raises(RuntimeError, match="killed"):
        run_rules(CallJudge(calls=1), cache=cache)
    with sqlite3.connect(cache) as db:
        assert db.execute("SELECT count(*) FROM answers").fetchone() == (3,)  # the whole first call, not 2
    with pytest.raises(RuntimeError, match="killed"):
        run_rules(CallJudge(calls=2), cache=tmp_path / "two.sqlite")
    with sqlite3.connect(tmp_path / "two.sqlite") as db:
        assert db.execute("SELECT count(*) FROM answers").fetchone() == (6,)
    resumed = CallJudge(calls=99)
    result = run_rules(resumed, cache=cache)
    assert result.run.stats.cached.total() == 3 and len(resumed.batches[0]) == 16 - 3
    whole = run_rules(RuleJudge(), cache=tmp_path / "whole.sqlite")
    assert [judgment_to_dict(j) for j in result.judgments] == [judgment_to_dict(j) for j in whole.judgments]


def test_the_collector_runs_less_often_while_judging_and_as_before_afterwards(tmp_path, monkeypatch):
    import gc

    monkeypatch.chdir(tmp_path)
    seen: list[tuple[int, int, int]] = []

    class Watching(RuleJudge):
        def answer_many(self, questions):
            seen.append(gc.get_threshold())
            return super().answer_many(questions)

    before = gc.get_threshold()
    run_rules(Watching())
    assert gc.get_threshold() == before
    assert seen and all(threshold == (max(100_000, before[0]), *before[1:]) for threshold in seen)
    with pytest.raises(RuntimeError, match="killed"):  # restored when judging stops on an error too
        run_rules(CallJudge(calls=0))
    assert gc.get_threshold() == before and gc.isenabled()


def test_precomputed_row_keys_address_the_rows_that_contexts_do(tmp_path):
    from argue_eval.judges.cache import row_keys
    from argue_eval.model import make_key

    keys = [make_key("attested", "T1", "A sentence.", "d1"), make_key("attested", "T1", "A sentence.", "d2")]
    contexts = {keys[0]: "digest-a", keys[1]: "digest-b"}
    with JudgmentCache(tmp_path / "c.sqlite") as cache:
        cache.put_many("j", [(keys[0], Verdict(True, "j"))], contexts)
        cache.put_many("j", [(keys[1], Verdict(False, "j"))], rows=row_keys(keys, contexts))
        found = cache.get_many("j", keys, rows=row_keys(keys, contexts))
        assert {key: v.value for key, v in found.items()} == {keys[0]: True, keys[1]: False}
        assert cache.get_many("j", keys, contexts).keys() == found.keys()
        assert cache.get_many("j", keys, rows=row_keys(keys, {keys[0]: "other", keys[1]: "digest-b"})).keys() == {
            keys[1]}  # another context is another row


def test_three_shards_into_one_cache_then_a_whole_run_writes_a_single_machines_judgments(tmp_path):
    """``judge(..., shard="K/N")`` (issue 35): the three shards of the sample round, one after the other into one
    cache file (what joining three machines' caches gives), share its questions without overlap, and a whole run
    over that cache asks nothing and writes the judgments a single run writes."""
    from argue_eval.errors import OptionError
    from argue_eval.judges.shards import Shard, parse_shard

    root = Path(__file__).resolve().parent.parent
    runs = [str(p) for p in sorted((root / "runs" / "sample").glob("*.jsonl"))]
    given = dict(collection=root / "topics/sample/collection.jsonl", requests=root / "topics/sample/requests.jsonl",
                 judge="lexical")
    nuggets = root / "nuggets/sample/nuggets.jsonl"
    single = judge(runs, nuggets, cache=tmp_path / "single.sqlite", **given)
    shared = tmp_path / "shards.sqlite"
    keys: list[set] = []
    for k in (1, 2, 3):
        part = judge(runs, nuggets, cache=shared, shard=f"{k}/3", **given)
        assert part.shard == Shard(k, 3) and sum(part.run.stats.cached.values()) == 0  # no share overlaps another
        keys.append({j.key for j in part.judgments})
    assert all(keys) and sum(map(len, keys)) == len(single.judgments)
    assert set().union(*keys) == {j.key for j in single.judgments}
    whole = judge(runs, nuggets, cache=shared, **given)
    assert sum(whole.run.stats.new.values()) == 0  # every answer came from the shards
    assert ([judgment_to_dict(j) for j in whole.judgments] == [judgment_to_dict(j) for j in single.judgments])
    with pytest.raises(OptionError, match="K/N"):
        parse_shard("4/3")


def test_a_run_that_keeps_no_table_spools_its_judgments_and_writes_the_same_bytes(tmp_path):
    """``keep_table=False`` (what ``argue-eval judge`` runs) keeps the judgments on disk as each topic's are final,
    not as records: the spool reads back the records the run made and writes the bytes the list writes."""
    from argue_eval.api import write_judgments
    from argue_eval.formats.judgments import JudgmentSpool

    runs = [str(FIXTURES / "runA.jsonl"), str(FIXTURES / "runB.jsonl")]
    kept = judge(runs, FIXTURES / "nuggets.jsonl", judge=RuleJudge(), collection=FIXTURES / "collection.jsonl")
    spooled = judge(runs, FIXTURES / "nuggets.jsonl", judge=RuleJudge(), collection=FIXTURES / "collection.jsonl",
                    keep_table=False)
    assert isinstance(kept.judgments, list) and isinstance(spooled.judgments, JudgmentSpool)
    assert not spooled.run.table.table and len(spooled.judgments) == len(kept.judgments) > 20
    back = list(spooled.judgments)
    assert back == kept.judgments
    # what equality leaves out: the provenance (the judge's identity) and the confidence and rationale
    assert [(j.provenance, j.confidence, j.rationale) for j in back] == [
        (j.provenance, j.confidence, j.rationale) for j in kept.judgments]
    assert (back[0].confidence, back[0].rationale) == (0.75, "rule")  # RuleJudge's "yes" (its "no"s have none)
    assert back[0] in spooled.judgments
    write_judgments(kept, tmp_path / "kept.jsonl", "rules", {})
    write_judgments(spooled, tmp_path / "spooled.jsonl", "rules", {})
    assert (tmp_path / "spooled.jsonl").read_bytes() == (tmp_path / "kept.jsonl").read_bytes()
    manifests = [json.loads((tmp_path / f"{name}.jsonl.manifest.json").read_text()) for name in ("kept", "spooled")]
    for manifest in manifests:
        manifest.pop("seconds")
    assert manifests[0] == manifests[1] and manifests[0]["judgments"] == len(kept.judgments)
    assert len((tmp_path / "kept.jsonl").read_text().splitlines()) == len(kept.judgments)


def test_a_judgment_spool_reads_back_lines_across_its_chunks_and_new_text(monkeypatch):
    from argue_eval.formats.judgments import JudgmentSpool, judgment_to_dict

    monkeypatch.setattr(JudgmentSpool, "_CHUNK", 7)  # every line split across chunks
    spool = JudgmentSpool()
    assert len(spool) == 0 and list(spool) == []
    made = [Judgment("relevant", "T1", "A line\nwith a newline, «quotes» and \\ too.", True, "j", doc_id="d1"),
            Judgment("first_instance", "T1", "Second.", False, "j", run_id="r", sentence_index=3, confidence=0.1,
                     rationale="why", provenance={"backend": "j", "version": 2})]
    spool.extend(made[:1])
    spool.extend([])
    reading = iter(spool)
    assert next(reading) == made[0]
    spool.extend(made[1:])  # added while a reader is part way: the reader goes on where it was
    assert list(reading) == [made[1]]
    assert len(spool) == 2 and [judgment_to_dict(j) for j in spool] == [judgment_to_dict(j) for j in made]
    spool.close()
    assert list(spool) == [] and len(spool) == 0


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_a_run_that_fails_mid_judging_leaves_no_spool_file_behind(tmp_path, monkeypatch, error):
    """The spool's temporary file lives as long as the run or its result: a judge that fails (or is interrupted)
    on the second topic, after the first topic's judgments went to the spool, leaves no file behind, and a
    result used as ``with judge(...) as result:`` lets its file go at the end of the block. The spool's file is
    anonymous on POSIX (``tempfile.TemporaryFile``), so here it is made a named one in ``spools/``: list that
    folder to see it while the spool holds it and gone once it is let go."""
    import gc
    import tempfile
    import types

    from argue_eval.formats import judgments as judgments_module

    spools = tmp_path / "spools"
    spools.mkdir()
    monkeypatch.setattr(judgments_module, "tempfile", types.SimpleNamespace(
        TemporaryFile=lambda: tempfile.NamedTemporaryFile(dir=spools, prefix="spool-")))

    class FailingOnT2(RuleJudge):
        def answer_many(self, questions):
            if questions[0].key.request_id == "T2":
                assert [path.name[:6] for path in spools.iterdir()] == ["spool-"]  # T1's judgments are spooled
                raise error("the judge stopped")
            return super().answer_many(questions)

    runs = [str(FIXTURES / "runA.jsonl"), str(FIXTURES / "runB.jsonl")]
    given = dict(collection=FIXTURES / "collection.jsonl", keep_table=False)
    with pytest.raises(error, match="the judge stopped") as raised:
        judge(runs, FIXTURES / "nuggets.jsonl", judge=FailingOnT2(), **given)
    assert raised.value is not None and list(spools.iterdir()) == []  # the traceback alive, the file gone
    with judge(runs, FIXTURES / "nuggets.jsonl", judge=RuleJudge(), **given) as result:
        assert len(result.judgments) > 20 and len(list(spools.iterdir())) == 1
    assert list(spools.iterdir()) == [] and len(result.judgments) == 0
    del raised
    gc.collect()  # the failed run's frames (its reports among them) held in a cycle by the traceback


def test_the_reports_of_topics_to_come_wait_on_disk_not_in_memory(tmp_path):
    """From run files, the judge keeps each topic's reports on disk until the topic is judged: while a topic is
    judged no report of another topic is alive (a round's reports were all held until their topic came)."""
    import gc

    from argue_eval.model import Report

    class Watching(RuleJudge):
        def __init__(self):
            super().__init__()
            self.alive: list[tuple[str, set[str]]] = []

        def answer_many(self, questions):
            topic = questions[0].key.request_id
            others = {obj.request_id for obj in gc.get_objects()
                      if type(obj) is Report and obj.sentences and obj.request_id != topic}
            self.alive.append((topic, others))
            return super().answer_many(questions)

    watching = Watching()
    runs = [str(FIXTURES / "runA.jsonl"), str(FIXTURES / "runB.jsonl")]
    result = judge(runs, FIXTURES / "nuggets.jsonl", judge=watching, collection=FIXTURES / "collection.jsonl",
                   keep_table=False)
    assert {topic for topic, _ in watching.alive} == {"T1", "T2"}
    assert all(not others for _, others in watching.alive), watching.alive
    whole = judge([r for run in runs for r in read_reports(Path(run))], FIXTURES / "nuggets.jsonl",
                  judge=RuleJudge(), collection=FIXTURES / "collection.jsonl")
    assert list(result.judgments) == whole.judgments  # the reports read back judge as the records given


def test_a_report_read_back_from_disk_has_every_field_it_was_read_with():
    from argue_eval.api.judge import _decode_report, _encode_report, _TopicReports
    from argue_eval.model import Location, Report, Sentence

    full = Report("r1", "T1", [Sentence("One.", ("d1", "d2"), (0.5, 0.25), {"note": [1, None, True]}), Sentence("Two.")],
                  references=("d1",), collection_ids=("c",), metadata={"team_id": "t", "n": 2.5},
                  source=Location("runs/r1.jsonl", 3))
    odd = Report("r2", "T1", [Sentence("Three.", extra={"when": Location("x", 1)})], source=None)  # not plain values
    spool = _TopicReports()
    for report in (full, Report("r1", "T2", []), odd):
        spool.add(report)
    assert sorted(spool) == ["T1", "T2"] and len(spool) == 2
    back = spool.pop("T1")
    assert back == [full, odd] and [r.source for r in back] == [full.source, None]
    assert [type(r.sentences[0].citations) for r in back] == [tuple, tuple] and back[1].sentences[0].extra == odd.sentences[0].extra
    assert back[1] is odd  # kept in memory as it is: marshal does not take it, and nothing is pickled
    with pytest.raises(ValueError):
        _encode_report(odd)
    assert _decode_report(_encode_report(full)) == full
    assert spool.pop("T2") == [Report("r1", "T2", [])] and list(spool) == []
    spool.close()


def test_a_dry_run_without_a_cache_reads_the_certain_questions_off_the_listing() -> None:
    """With no cache the plan does not replay the rounds: their questions (all of the first round, none opened
    later) are the listing's ungated ones. On the sample track, with and without the requests and the
    collection, the plan's ``certain`` is what the replay fails, per kind, and the first round is not empty."""
    from argue_eval.api import plan, plan_topics
    from argue_eval.api.judge import open_judge
    from argue_eval.argue.policies import Policies
    from argue_eval.inputs import load_inputs
    from argue_eval.judges.runner import run_judge

    repo = Path(__file__).resolve().parent.parent
    runs = sorted(str(p) for p in (repo / "runs" / "sample").glob("*.jsonl"))
    nuggets, requests = repo / "nuggets/sample/nuggets.jsonl", repo / "topics/sample/requests.jsonl"
    for given in (None, requests):
        inputs = load_inputs(runs, nuggets, None, given, None, Policies())
        replay = run_judge(plan_topics(list(inputs.reports()), inputs.evaluation), open_judge("lexical", None),
                           known=inputs.source, ask=False)
        by_kind = Counter(f.key.kind for f in replay.failures)
        expected = {kind: by_kind[kind] for kind in JUDGMENT_KINDS if by_kind[kind]}
        assert sum(expected.values()) > 100 and "first_instance" not in expected  # behind requires-citation
        planned = plan(runs, nuggets, requests=given, collection=repo / "topics/sample/collection.jsonl")
        assert planned["certain"] == expected and planned["cached"] == {}
