"""The alternate measures with the LLM judge on a local scripted server: answers used, failures unjudged."""
from __future__ import annotations

import pytest

pytest.importorskip("aiohttp", reason="needs the llm extra (aiohttp)")

from llm_server import MockChatServer  # noqa: E402

from argue_eval.judges.llm import LLMJudge  # noqa: E402
from argue_eval.measures.entail import JudgeEntailer  # noqa: E402
from argue_eval.measures.icat import Aspect, ReportClaims, score_topics  # noqa: E402
from argue_eval.search.passages import Hit  # noqa: E402

pytestmark = pytest.mark.llm

CLAIMS = ["The river flooded on Monday.", "The bridge was closed for two days."]
PASSAGE = "Heavy rain on Monday made the river flood, and the bridge stayed closed for two days."


def judge(server: MockChatServer) -> LLMJudge:
    return LLMJudge(base_url=server.base_url, model="mock", concurrency=1, timeout=0.5, max_retries=1,
                    backoff_base=0.01, backoff_max=0.02)


def retrieve(claims, k):
    return [[Hit("d1", PASSAGE, 1.0)] for _ in claims]


def test_llm_entailment_answers_are_used():
    with MockChatServer() as server:
        verdicts = JudgeEntailer(judge(server))([(PASSAGE, claim) for claim in CLAIMS])
        assert server.requests  # the model was asked
    assert all(v in (True, False) for v in verdicts)


def test_a_failing_endpoint_leaves_claims_unjudged_never_ungrounded():
    with MockChatServer(lambda n, body: ("status", 500, {})) as server:
        result = score_topics([ReportClaims("run", "t", CLAIMS)], {"t": [Aspect("a", "?", frozenset({"d1"}))]},
                              retrieve, JudgeEntailer(judge(server)))[0]
    assert [claim.grounded for claim in result.claims] == [None, None]
    assert result.counts["unjudged_claims"] == 2 and result.counts["judged_claims"] == 0
