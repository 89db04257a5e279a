"""The one read-through of the judgment cache (``judges.asking.CachedJudge``) that the runner, the measures'
entailment, the LLM tasks and the dry run share: documents, cached answers, commits before use, failures."""
from __future__ import annotations

import sqlite3
from dataclasses import replace

import pytest
from helpers import question

from argue_eval.judges.asking import NO_COLLECTION, NOT_IN_CACHE, NOT_IN_COLLECTION, CachedJudge
from argue_eval.judges.base import JudgeBackend, Question, Verdict, make_key
from argue_eval.judges.cache import JudgmentCache
from argue_eval.measures.entail import ask_judge
from argue_eval.model import Document


class Grouped(JudgeBackend):
    """Answers yes in groups of ``size`` (as a model answering a prompt's questions together), None for sentences
    with 'fail' in them; raises after ``stop_after`` groups (a process killed mid-run)."""

    name = "grouped"
    kinds = frozenset({"attested", "negative"})

    def __init__(self, size: int = 1, stop_after: int | None = None, cache: JudgmentCache | None = None):
        self.size, self.stop_after, self.cache = size, stop_after, cache
        self.asked: list[list[str]] = []
        self.read: list[str | None] = []

    def iter_answer_groups(self, questions):
        self.asked.append([q.sentence for q in questions])
        self.read += [q.document.text if q.document else None for q in questions]
        groups = 0
        for start in range(0, len(questions), self.size):
            if self.stop_after is not None and groups == self.stop_after:
                raise KeyboardInterrupt
            yield [(i, None if "fail" in questions[i].sentence else Verdict(True, self.name))
                   for i in range(start, min(start + self.size, len(questions)))]
            groups += 1


class Store:
    """A collection holding the given documents (``get_many`` as a document store has it)."""

    def __init__(self, *documents: Document):
        self.documents = {d.doc_id: d for d in documents}

    def get_many(self, ids):
        return {i: self.documents[i] for i in ids if i in self.documents}


def collect(asker: CachedJudge, questions):
    batches: list[tuple[list[str], bool]] = []
    failures: list[tuple[str, str]] = []
    asker.ask(questions, lambda answers, cached: batches.append(([q.sentence for q, _ in answers], cached)),
              lambda q, reason: failures.append((q.sentence, reason)))
    return batches, failures


def test_answers_are_committed_before_use_and_a_model_call_is_never_split(tmp_path):
    """Groups of 3 answers, transactions of at least 2: each group is committed whole before its answers are
    handed over, and a stop after the first group leaves all 3 in the cache (never 2 of them)."""
    questions = [question("negative", f"Sentence {i}.") for i in range(6)]
    with JudgmentCache(tmp_path / "c.sqlite") as cache:
        judge = Grouped(size=3, stop_after=1)
        seen_in_cache: list[int] = []

        def answered(answers, cached):
            # what the caller receives is in the cache already
            seen_in_cache.append(len(cache.get_many(asker.fingerprint, [q.key for q, _ in answers])))

        asker = CachedJudge(judge, cache, flush_every=2, flush_seconds=3600)
        with pytest.raises(KeyboardInterrupt):
            asker.ask(questions, answered, lambda q, reason: None)
        assert seen_in_cache == [3] and cache.count() == 3
        # the next run takes those 3 from the cache and asks only the other 3
        judge = Grouped(size=3)
        batches, failures = collect(CachedJudge(judge, cache, flush_every=2, flush_seconds=3600), questions)
        assert batches == [(["Sentence 0.", "Sentence 1.", "Sentence 2."], True),
                           (["Sentence 3.", "Sentence 4.", "Sentence 5."], False)]
        assert judge.asked == [["Sentence 3.", "Sentence 4.", "Sentence 5."]] and failures == []


def test_could_not_judge_is_a_failure_never_cached_and_asked_again(tmp_path):
    questions = [question("negative", "It holds."), question("negative", "It will fail."),
                 question("negative", "It holds.")]  # the same question twice: asked once
    with JudgmentCache(tmp_path / "c.sqlite") as cache:
        judge = Grouped()
        batches, failures = collect(CachedJudge(judge, cache), questions)
        assert judge.asked == [["It holds.", "It will fail."]]
        assert batches == [(["It holds."], False)] and failures == [("It will fail.", "the grouped judge could not answer")]
        assert cache.count() == 1
        judge = Grouped()
        assert ask_judge(judge, questions, cache) == [Verdict(True, "grouped"), None, Verdict(True, "grouped")]
        assert judge.asked == [["It will fail."]]


def test_documents_come_from_the_collection_and_a_missing_one_fails_unasked():
    d1, d3 = Document("d1", "The dam held."), Document("d3", "A passage the question carries.")
    # as the runner plans them, by document id only (but for one that carries its own, as the measures' do)
    wanted = [replace(question("attested", "The dam held.", doc=d1), document=None),
              replace(question("attested", "The dam broke.", doc=Document("d2", "")), document=None),
              question("attested", "The dam held.", doc=d3)]
    judge = Grouped()
    batches, failures = collect(CachedJudge(judge, documents=Store(d1)), wanted)
    assert judge.read == ["The dam held.", "A passage the question carries."]
    assert failures == [("The dam broke.", NOT_IN_COLLECTION)]
    judge = Grouped()
    batches, failures = collect(CachedJudge(judge), wanted)  # no collection: the carried document only
    assert judge.read == ["A passage the question carries."]
    assert failures == [("The dam held.", NO_COLLECTION), ("The dam broke.", NO_COLLECTION)]


def test_with_contexts_an_answer_holds_only_for_the_texts_it_was_made_from(tmp_path):
    """The runner keys answers by the texts the judge read; the measures' questions by the key alone (their
    key names the texts already): the same key with another document text is a miss only for the first."""
    old, new = Document("d1", "The first translation."), Document("d1", "Another translation.")
    with JudgmentCache(tmp_path / "c.sqlite") as cache:
        for contexts, misses in ((True, 1), (False, 0)):
            collect(CachedJudge(Grouped(), cache, contexts=contexts), [question("attested", f"S {contexts}.", doc=old)])
            judge = Grouped()
            collect(CachedJudge(judge, cache, contexts=contexts), [question("attested", f"S {contexts}.", doc=new)])
            assert len(judge.asked) == misses


def test_the_cache_alone_answers_nothing_else_and_writes_nothing(tmp_path):
    path = tmp_path / "c.sqlite"
    with JudgmentCache(path) as cache:
        collect(CachedJudge(Grouped(), cache), [question("negative", "Cached.")])

    def rows() -> tuple[list, list]:
        with sqlite3.connect(path) as db:
            return (db.execute("select * from answers order by key").fetchall(),
                    db.execute("select * from judges").fetchall())

    before = rows()

    class Another(Grouped):
        name = "another"  # another identity: a dry run must not record it in the file

        def iter_answer_groups(self, questions):
            raise AssertionError("a dry run asked the judge")

    with JudgmentCache(path) as cache:
        batches, failures = collect(CachedJudge(Grouped(), cache, ask=False),
                                    [question("negative", "Cached."), question("negative", "Not cached.")])
        assert batches == [(["Cached."], True)] and failures == [("Not cached.", NOT_IN_CACHE)]
        assert collect(CachedJudge(Another(), cache, ask=False), [question("negative", "Cached.")]) == (
            [], [("Cached.", NOT_IN_CACHE)])
    assert rows() == before


def test_the_runner_names_a_kind_its_judge_does_not_answer():
    judge = Grouped()
    batches, failures = collect(CachedJudge(judge, only_kinds=True), [question("first_instance", "Again.")])
    assert failures == [("Again.", "the grouped judge does not answer first_instance questions")] and judge.asked == []


def test_new_keys_skip_the_lookup_only_while_nothing_can_be_cached(tmp_path, monkeypatch):
    """``new_keys`` (the runner's): on a cache with no answer of the judge, nothing is looked up; once another
    process commits to the file, or when the file held answers of the judge from before, every question is."""
    looked: list[int] = []
    real_get_many = JudgmentCache.get_many

    def counting(self, judge, keys, context=None, *, rows=None):
        keys = list(keys)
        looked.append(len(keys))
        return real_get_many(self, judge, keys, context, rows=rows)

    monkeypatch.setattr(JudgmentCache, "get_many", counting)
    path = tmp_path / "c.sqlite"
    with JudgmentCache(path) as cache:
        asker = CachedJudge(Grouped(), cache, new_keys=True)
        assert collect(asker, [question("negative", "One.")]) == ([(["One."], False)], [])
        assert looked == []  # a cold cache: nothing to find
        with JudgmentCache(path) as other:  # another process answers a question of this judge meanwhile
            other.put_many(asker.fingerprint, [(question("negative", "Two.").key, Verdict(False, "other"))])
        # the lookup comes back and finds that answer (the judge is not asked it)
        judge = Grouped()
        asker.judge = judge
        assert collect(asker, [question("negative", "Two."), question("negative", "Three.")]) == (
            [(["Two."], True), (["Three."], False)], [])
        assert looked == [2] and judge.asked == [["Three."]]
    with JudgmentCache(path) as cache:  # a rerun on that file: it holds answers of the judge, so it looks up
        looked.clear()
        assert collect(CachedJudge(Grouped(), cache, new_keys=True), [question("negative", "One.")]) == (
            [(["One."], True)], [])
        assert looked == [1]


def test_attached_documents_takes_the_cited_document_and_the_found_cited_ones_in_order():
    from argue_eval.judges.base import attached_documents

    one, three, other = (Document(d, f"text of {d}") for d in ("d1", "d3", "d9"))
    found = {"d1": one, "d3": three}
    # a kind about a document: the found one, or none when the collection lacks it
    assert attached_documents("attested", "d1", (), found) == (one, ())
    assert attached_documents("attested", "d2", (), found, document=other) == (None, ())
    # a kind about no document keeps what the question holds; cited ids found in their order, missing ones left out
    memo: dict = {}
    document, cited = attached_documents("requires_citation", None, ("d3", "d2", "d1"), found, memo, other)
    assert (document, cited) == (other, (three, one))
    assert memo == {("d3", "d2", "d1"): (three, one)}
    again = attached_documents("requires_citation", None, ("d3", "d2", "d1"), {}, memo)[1]
    assert again is cited  # the memo's tuple, not a new lookup in the (here empty) mapping
    assert attached_documents("negative", None, (), found, None, other, (one,)) == (other, (one,))


def test_listed_questions_built_with_their_documents_equal_the_runner_s_attached_ones():
    """On the sample track, every listed question built with its documents is the question the runner builds
    and then attaches the documents to, field by field."""
    from pathlib import Path

    from argue_eval.argue.policies import Policies
    from argue_eval.argue.questions import list_questions
    from argue_eval.collection import open_collection
    from argue_eval.inputs import load_inputs
    from argue_eval.judges.asking import documents_needed, with_documents
    from argue_eval.judges.runner import JudgedTable

    repo = Path(__file__).resolve().parent.parent
    inputs = load_inputs(sorted(str(p) for p in (repo / "runs/sample").glob("*.jsonl")),
                         repo / "nuggets/sample/nuggets.jsonl", [], repo / "topics/sample/requests.jsonl",
                         repo / "qrels/sample/qrels.trec", Policies(relevance="judgments", nugget_scope="all"))
    pending = list_questions(list(inputs.reports()), inputs.evaluation, JudgedTable(), "both", show_progress=False)
    with open_collection(repo / "topics/sample/collection.jsonl") as store:
        found = store.get_many(documents_needed(pending))
    memo: dict = {}
    built = [item.question(inputs.evaluation, found, memo) for item in pending]
    attached = [with_documents(item.question(inputs.evaluation), found) for item in pending]
    assert built == attached
    assert sum(1 for q in built if q.document is not None) > 0
    assert sum(1 for q in built if q.cited_documents) > 0


def test_questions_and_verdicts_compare_and_hash_by_their_fields():
    """``Question`` and ``Verdict`` are plain dataclasses, not frozen ones (their constructors run per question of a
    round), and still compare and hash as the frozen ones did: by value, a verdict's source and provenance aside."""
    key = make_key("negative", "r1", "The sky is blue.")
    one, same = Question(key, "The sky is blue."), Question(key, "The sky is blue.")
    assert one == same and hash(one) == hash(same) and len({one, same}) == 1
    assert replace(one, sentence="The sky is grey.") != one
    yes = Verdict(True, "lexical", 0.75, "covers 0.9", provenance={"backend": "lexical"})
    assert yes == Verdict(True, "lexical", 0.75, "covers 0.9", provenance={"backend": "other"})
    assert hash(yes) == hash(Verdict(True, "lexical", 0.75, "covers 0.9"))
    assert yes != Verdict(False, "lexical", 0.75, "covers 0.9")
    assert {yes: 1}[Verdict(True, "lexical", 0.75, "covers 0.9")] == 1
