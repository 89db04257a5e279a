"""The LLM judge's replicates: its sampling options (seed, temperature, top_p) are sent and are its identity, so
each seed's answers are cached apart and its score table is a replicate (``compare --replicates``)."""
from __future__ import annotations

import pytest

pytest.importorskip("aiohttp", reason="needs the llm extra (aiohttp)")

from helpers import DOC, NUG1, question  # noqa: E402
from llama_server import API_KEY  # noqa: E402
from llm_server import MockChatServer  # noqa: E402

from argue_eval.errors import OptionError  # noqa: E402
from argue_eval.judges.cache import JudgmentCache, judge_fingerprint  # noqa: E402
from argue_eval.judges.llm import LLMJudge  # noqa: E402

pytestmark = pytest.mark.llm

S1 = "The bridge was closed for two days after the river flooded."


def test_sampling_options_are_sent_and_are_the_identity() -> None:
    plain = LLMJudge(base_url="http://127.0.0.1:9/v1", model="m")
    assert plain.sampling() == {"temperature": 0.0, "seed": 0}
    assert "top_p" not in plain.params()  # unset: the identity of every judge before the option stays as it was
    sampled = LLMJudge(base_url="http://127.0.0.1:9/v1", model="m", temperature=0.7, seed=3, top_p=0.9)
    assert sampled.params()["top_p"] == 0.9 and sampled.params()["seed"] == 3
    other_seed = LLMJudge(base_url="http://127.0.0.1:9/v1", model="m", temperature=0.7, seed=4, top_p=0.9)
    assert len({judge_fingerprint(j.identity()) for j in (plain, sampled, other_seed)}) == 3
    with pytest.raises(OptionError, match="--llm-top-p"):
        LLMJudge(base_url="http://127.0.0.1:9/v1", model="m", top_p=0.0)
    with MockChatServer() as server:
        judge = LLMJudge(base_url=server.base_url, model="mock", temperature=0.7, seed=3, top_p=0.9, concurrency=1)
        verdict = judge.answer_many([question("attested", S1, doc=DOC)])[0]
        unset = LLMJudge(base_url=server.base_url, model="mock", concurrency=1)
        unset.answer_many([question("attested", S1, doc=DOC)])
    first, second = server.requests
    assert (first["temperature"], first["seed"], first["top_p"]) == (0.7, 3, 0.9)
    assert "top_p" not in second
    assert verdict is not None and verdict.provenance["top_p"] == 0.9 and verdict.provenance["seed"] == 3


@pytest.mark.slow
def test_two_seeds_are_two_replicates_in_one_cache(llama_server: str, tmp_path, monkeypatch) -> None:
    """A real llama.cpp server sampled at temperature 1: each seed's answers are stored under its own identity,
    and asking again with a seed gets that seed's answers back from the cache without a call."""
    from argue_eval.judges.asking import CachedJudge

    monkeypatch.setenv("LOCAL_LLM_KEY", API_KEY)
    questions = [question("answers", S1, doc=DOC, nugget=NUG1, answer="two days"), question("attested", S1, doc=DOC)]
    cache = JudgmentCache(tmp_path / "cache.sqlite")

    def ask(seed: int) -> tuple[dict, int]:
        judge = LLMJudge(base_url=llama_server, model="smollm2-135m", api_key_env="LOCAL_LLM_KEY",
                         response_format="json_object",
                         temperature=1.0, seed=seed, top_p=0.95, max_retries=1, timeout=120)
        found: dict = {}
        CachedJudge(judge, cache).ask(questions, lambda answers, cached: found.update(
            (q.key, (v.value, v.provenance["seed"])) for q, v in answers), lambda q, why: None)
        return found, judge.usage()["calls"]

    one, calls_one = ask(1)
    two, calls_two = ask(2)
    assert calls_one > 0 and calls_two > 0  # the second seed is another judge: nothing came from the first's answers
    assert {seed for _, seed in one.values()} == {1} and {seed for _, seed in two.values()} == {2}
    again, calls_again = ask(1)
    assert again == one and calls_again == 0  # the replicate is kept: a rerun of seed 1 reads it back
    cache.close()
