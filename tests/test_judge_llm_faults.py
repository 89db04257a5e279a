"""The LLM judge against a local server that misbehaves on cue: it must retry, re-ask, fail cleanly and count.

A real server cannot be made to time out or drop a connection on demand, so ``llm_server.MockChatServer``
(127.0.0.1 only) does; every request loop here is bounded by ``max_retries``.
"""
from __future__ import annotations

import asyncio
import json
import time

import pytest

pytest.importorskip("aiohttp", reason="needs the llm extra (aiohttp)")

from helpers import DOC, NUG1, NUG2, question  # noqa: E402
from llm_server import MockChatServer, deterministic_reply  # noqa: E402

from argue_eval.errors import OptionError  # noqa: E402
from argue_eval.judges.llm import LLMJudge  # noqa: E402
from argue_eval.judges.llm_client import RateLimiter  # noqa: E402

pytestmark = pytest.mark.llm

S1 = "The bridge was closed for two days after the river flooded."
S2 = "The river flooded on Monday."


def questions():
    """Four prompts: answers (2 items) and attested for S1, attested for S2, the uncited prompt for S3."""
    return [
        question("answers", S1, doc=DOC, nugget=NUG1, answer="two days"),
        question("answers", S1, doc=DOC, nugget=NUG2, answer="the river"),
        question("attested", S1, doc=DOC),
        question("attested", S2, doc=DOC),
        question("negative", "No one was hurt."),
    ]


def judge_for(server: MockChatServer, **options) -> LLMJudge:
    defaults = dict(base_url=server.base_url, model="mock", concurrency=1, timeout=0.5, max_retries=3,
                    backoff_base=0.01, backoff_max=0.05)
    defaults.update(options)
    return LLMJudge(**defaults)


def expected_values(server: MockChatServer) -> dict[str, bool]:
    """What the mock model answers for each prompt (from the requests it saw)."""
    values: dict[str, bool] = {}
    for body in server.requests:
        values.update({f"{body['response_format']['json_schema']['name']}:{k}": v
                       for k, v in deterministic_reply(body).items()})
    return values


def test_clean_run_answers_everything_with_provenance_and_accounting() -> None:
    with MockChatServer() as server:
        judge = judge_for(server, price_in=2.0, price_out=10.0)
        verdicts = judge.answer_many(questions())
    assert len(server.requests) == 4  # answers(S1), attested(S1), attested(S2), uncited
    assert all(v is not None for v in verdicts)
    body = server.requests[0]
    assert body["temperature"] == 0.0 and body["seed"] == 0 and body["model"] == "mock"
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"]["required"] == ["A1", "A2"]
    assert verdicts[0].value == deterministic_reply(body)["A1"] and verdicts[1].value == deterministic_reply(body)["A2"]
    assert verdicts[0].provenance["server_model"] == "mock" and verdicts[0].judge == "llm:mock"
    usage = judge.usage()
    assert usage["calls"] == 4 and usage["retries"] == 0 and usage["failed_items"] == 0
    assert usage["answered_items"] == 5
    assert usage["prompt_tokens"] == 400 and usage["completion_tokens"] == 36  # the mock reports 100 + 9 a call
    assert usage["by_kind"]["attested"] == {"calls": 2, "prompt_tokens": 200, "completion_tokens": 18}
    assert usage["cost"] == pytest.approx((400 * 2.0 + 36 * 10.0) / 1e6)
    assert usage["server_model"] == "mock"


def test_every_transient_fault_is_retried_and_counted() -> None:
    faults = {0: ("sleep", 1.0), 1: ("status", 429, {"Retry-After": "0.3"}), 2: ("status", 500),
              3: ("garbage",), 4: ("drop",)}
    with MockChatServer(lambda n, body: faults.get(n, ("ok",))) as server:
        judge = judge_for(server, max_retries=6)
        started = time.monotonic()
        verdicts = judge.answer_many(questions()[:3])  # two prompts
        elapsed = time.monotonic() - started
    usage = judge.usage()
    assert all(v is not None for v in verdicts)
    assert usage["faults"] == {"bad_body": 1, "connection": 1, "http_429": 1, "http_500": 1, "timeout": 1}
    assert usage["retries"] == 5 and usage["calls"] == 7 == len(server.requests)
    assert usage["failed_items"] == 0 and usage["answered_items"] == 3
    assert elapsed >= 0.3  # the Retry-After was honoured (backoff alone is at most 0.05 s)
    # the retried prompt was answered from the reply to the request that finally succeeded
    answers_body = server.requests[5]
    assert verdicts[0].value == deterministic_reply(answers_body)["A1"]


def test_unusable_reply_is_reasked_once_then_failed_and_never_no() -> None:
    def script(n: int, body: dict):
        name = body["response_format"]["json_schema"]["name"]
        if name == "attested" and "bridge was closed" in body["messages"][1]["content"]:
            return ("content", '{"attested": "maybe"}')  # fits no schema, twice
        if name == "answers" and len(body["messages"]) == 2:
            return ("content", "Yes, the sentence gives both answers.")  # not JSON, once
        return ("ok",)

    with MockChatServer(script) as server:
        judge = judge_for(server)
        verdicts = judge.answer_many(questions())
    usage = judge.usage()
    assert verdicts[2] is None  # attested(S1): two unusable replies
    assert [v is not None for v in verdicts] == [True, True, False, True, True]
    assert usage["reasks"] == 2 and usage["failed_calls"] == 1 and usage["failed_items"] == 1
    assert usage["answered_items"] + usage["failed_items"] == len(questions())
    assert usage["calls"] == 6 == len(server.requests)  # 4 prompts + 2 re-asks
    reask = next(b for b in server.requests if b["response_format"]["json_schema"]["name"] == "answers"
                 and len(b["messages"]) == 4)
    assert "not JSON" in reask["messages"][3]["content"]
    assert usage["failures"] == [{"prompt": "attested", "questions": 1,
                                  "reason": "unusable reply twice (expected true or false for attested)"}]


def test_retries_exhausted_fail_the_items_and_the_counts_add_up() -> None:
    def script(n: int, body: dict):
        if body["response_format"]["json_schema"]["name"] == "uncited":
            return ("status", 503)
        return ("ok",)

    with MockChatServer(script) as server:
        judge = judge_for(server, max_retries=2)
        verdicts = judge.answer_many(questions())
    usage = judge.usage()
    assert verdicts[4] is None and all(v is not None for v in verdicts[:4])
    assert usage["faults"] == {"http_503": 3} and usage["retries"] == 2
    assert usage["calls"] == 3 + 3 == len(server.requests)
    assert usage["failures"][0]["reason"] == "HTTP 503 after 3 attempts"
    assert usage["answered_items"] == 4 and usage["failed_items"] == 1


def test_permanent_error_is_not_retried() -> None:
    with MockChatServer(lambda n, body: ("status", 404)) as server:
        judge = judge_for(server)
        verdicts = judge.answer_many(questions()[2:3])
    assert verdicts == [None] and len(server.requests) == 1
    assert judge.usage()["failures"][0]["reason"].startswith("HTTP 404 from the server: mock status 404")


def test_api_key_sent_only_in_the_header(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUDGE_KEY", "sk-live-SECRET-4242")
    with MockChatServer(lambda n, body: ("error", 400, "bad request with key sk-live-SECRET-4242") if n == 0
                        else ("ok",)) as server:
        judge = judge_for(server, api_key_env="JUDGE_KEY")
        verdicts = judge.answer_many(questions())
    assert server.headers[0]["Authorization"] == "Bearer sk-live-SECRET-4242"
    text = json.dumps([v.provenance for v in verdicts if v] + [judge.usage(), judge.identity()])
    assert "SECRET" not in text and "SECRET" not in repr(judge)
    assert judge.usage()["failures"][0]["reason"] == "HTTP 400 from the server: bad request with key REDACTED"
    assert all("SECRET" not in json.dumps(body) for body in server.requests)


def test_a_refused_key_stops_the_run_with_authentication_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    # before: every call failed on its own with the server's words (which may quote the key), each question
    # "not judged", and the run went on to the end
    from argue_eval.errors import ArgueError

    monkeypatch.setenv("JUDGE_KEY", "sk-live-SECRET-4242")
    with MockChatServer(lambda n, body: ("error", 401, "Incorrect API key provided: sk-live-SECRET-4242")) as server:
        judge = judge_for(server, api_key_env="JUDGE_KEY", concurrency=2)
        with pytest.raises(ArgueError) as raised:
            judge.answer_many(questions())
    assert str(raised.value) == ("authentication failed: the server answered HTTP 401 (Incorrect API key provided: "
                                 "REDACTED); check the API key in $JUDGE_KEY (--llm-api-key-env names the variable that holds "
                                 "it) and the endpoint")
    assert len(server.requests) <= 2  # the calls in flight when the first refusal came, no more


def test_no_key_variable_means_no_authorization_header(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with MockChatServer() as server:
        judge_for(server).answer_many(questions()[2:3])
    assert "Authorization" not in server.headers[0]


def test_concurrency_is_bounded() -> None:
    with MockChatServer(latency=0.2) as server:
        judge = judge_for(server, concurrency=4)
        many = [question("attested", f"Sentence number {i}.", doc=DOC) for i in range(12)]
        started = time.monotonic()
        verdicts = judge.answer_many(many)
        elapsed = time.monotonic() - started
    assert all(v is not None for v in verdicts) and len(server.requests) == 12
    assert elapsed >= 3 * 0.2  # 12 calls, 4 at a time, 0.2 s each: at least three waves


def test_rate_limiter_spaces_requests() -> None:
    async def run() -> float:
        started = time.monotonic()
        limiter = RateLimiter(per_minute=600)  # 10 a second, a burst of 600 allowed
        limiter._level = 0.0  # start empty to see the refill rate
        for _ in range(3):
            await limiter.acquire(1)
        return time.monotonic() - started

    assert asyncio.run(run()) >= 0.29  # three requests from an empty bucket at 0.1 s each


def test_early_close_stops_the_run() -> None:
    with MockChatServer(latency=0.1) as server:
        judge = judge_for(server, concurrency=2)
        many = [question("attested", f"Sentence {i}.", doc=DOC) for i in range(40)]
        iterator = judge.iter_answers(many)
        next(iterator)
        iterator.close()
        seen = len(server.requests)
    assert seen < 10


def test_the_answers_of_one_prompt_come_as_one_group() -> None:
    # the runner commits a group whole, so a killed run never keeps part of a prompt's answers
    with MockChatServer() as server:
        groups = list(judge_for(server).iter_answer_groups(questions()))
    assert sorted(sorted(position for position, _ in group) for group in groups) == [[0, 1], [2], [3], [4]]
    assert all(verdict is not None for group in groups for _, verdict in group)


def test_the_usage_counts_calls_under_the_kinds_the_dry_run_estimate_uses() -> None:
    # requires-citation asked alone goes out in the combined uncited prompt; the dry run counts that call as
    # requires_citation, and so must the run's usage, or the two cannot be compared kind by kind
    asked = [question("requires_citation", "No one was hurt.", run_id="a", index=4),
             question("negative", "Nobody left."), question("requires_citation", "Nobody left.", run_id="a", index=5)]
    estimated = LLMJudge(base_url="http://127.0.0.1:9/v1", model="mock").estimate(asked)["calls"]
    assert estimated == {"requires_citation": 1, "uncited": 1}
    with MockChatServer() as server:
        judge = judge_for(server)
        verdicts = judge.answer_many(asked)
    assert all(v is not None for v in verdicts) and len(server.requests) == 2
    assert {kind: entry["calls"] for kind, entry in judge.usage()["by_kind"].items()} == estimated


def attested_questions(count: int) -> list:
    return [question("attested", f"The bridge was closed on day {i}.", doc=DOC) for i in range(count)]


def test_several_endpoints_share_the_calls_and_the_output_does_not_depend_on_which_answered() -> None:
    """Two replicas of one model: each call goes to one with a free slot (both take calls), and the verdicts,
    provenance included, are those a single endpoint gives."""
    questions_ = attested_questions(24)
    with MockChatServer(model="mock", latency=0.02) as a, MockChatServer(model="mock", latency=0.02) as b:
        pool = judge_for(a, base_url=[a.base_url, b.base_url], concurrency=2)
        try:
            pooled = pool.answer_many(questions_)
            usage = pool.usage()
        finally:
            pool.close()
        assert len(a.requests) + len(b.requests) == 24 and len(a.requests) > 0 and len(b.requests) > 0
        assert [e["answered"] for e in usage["endpoints"]] == [len(a.requests), len(b.requests)]
    with MockChatServer(model="mock") as single:
        alone = judge_for(single)
        try:
            direct = alone.answer_many(questions_)
        finally:
            alone.close()
    assert [(v.value, v.provenance) for v in pooled] == [(v.value, v.provenance) for v in direct]


def test_an_endpoint_that_keeps_failing_is_set_aside_and_its_calls_go_elsewhere() -> None:
    """One replica answers every call with 503: after 3 failures in a row it is set aside (for 5 s, longer than
    this run), its calls are retried on the other, and every question is answered. One call in flight per
    endpoint, so the failing one never has two at once: exactly 3 reach it."""
    with MockChatServer(model="mock") as good, MockChatServer(lambda n, body: ("status", 503), model="mock") as bad:
        judge = judge_for(good, base_url=[bad.base_url, good.base_url], concurrency=1, max_retries=4)
        try:
            verdicts = judge.answer_many(attested_questions(12))
            usage = judge.usage()
        finally:
            judge.close()
    assert all(v is not None for v in verdicts)
    assert usage["endpoints"][0] == {"endpoint": 1, "answered": 0, "set_aside": 1}
    assert len(bad.requests) == 3 and usage["endpoints"][1]["answered"] == 12 == len(good.requests)
    assert usage["faults"] == {"http_503": 3} and usage["retries"] == 3


def test_every_endpoint_must_serve_the_model() -> None:
    with MockChatServer(model="mock") as a, MockChatServer(model="other", listed_models=["other", "x"]) as b:
        judge = judge_for(a, base_url=f"{a.base_url},{b.base_url}")
        with pytest.raises(OptionError, match=rf"every endpoint must serve --llm-model mock: {b.base_url} serves "
                                              r"other, x, not mock"):
            judge.answer_many(attested_questions(1))
        judge.close()
        assert a.requests == [] and b.requests == []  # checked before any call
