"""The LLM judge: flowchart questions answered by any OpenAI-compatible chat endpoint (vLLM, llama.cpp, OpenAI).

What it looks at: the report sentence, the cited document (cut to ``max_doc_tokens`` around the part that
best matches the sentence), the nugget question and answer texts, the request, the report's earlier
sentences -- all quoted as data (``llm_prompts``). What it costs: like Auto-ARGUE, one call per (sentence,
cited document) for every nugget answer bound to that document, one attestation call per (sentence, cited
document), and at most two calls per uncited sentence (negative and requires-citation together, then
nugget-agrees or first-instance). Identical questions from different runs are one question before they
get here, so a round costs fewer calls than that.

Known blind spots: the answer is only as good as the model (a 135M model, as in the tests, answers
almost at random); a document cut to the token budget may lose evidence that lies elsewhere in it (the
cut is recorded in each judgment's provenance); servers that ignore ``seed`` may answer a re-asked
question differently, which is why answers are cached and never re-asked once committed.

A reply that is not the schema's JSON object is re-asked once; if the second reply is no better, or the
call fails after its retries, the questions of that prompt get ``None`` (could not judge): they are
counted in ``usage()['failed_items']``, reported by the runner, and asked again on the next run -- never "no".

While its calls are in flight the judge checks four times a second whether a signal asked the run to stop
(``stopping``): then it cancels the calls still out (their answers were not handed over, so nothing of them is
committed and a rerun asks them again whole) and the stop goes on up, the answers received committed.
"""
from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import queue
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .. import stopping
from ..errors import ArgueError, InputError, MissingDependencyError, OptionError
from ..model import Document, normalize_text
from ..redact import hold_credentials, redact_text, redact_url, with_credentials
from .base import JudgeBackend, Question, Verdict
from .llm_batch import BatchExchange, custom_id, model_matches
from .llm_client import CallFailed, ChatPool, StopRun, Usage, probe_endpoints
from .llm_prompts import (
    PROMPT_SET,
    PROMPT_SETS,
    Prompt,
    ReplyError,
    build_prompt,
    cut_document,
    estimate_tokens,
    instruction_tokens,
    parse_reply,
    prompt_version,
    shared_prefix_tokens,
)

__all__ = ["LLMJudge", "LLM_KINDS", "RESPONSE_FORMATS", "GROUPINGS"]

LLM_KINDS = frozenset({"answers", "attested", "negative", "nugget_agrees", "requires_citation", "first_instance"})
"""``relevant`` is a lookup in the nugget bindings (or qrels), never a model call."""

FEATURE = "the llm judge (an OpenAI-compatible chat endpoint)"

RESPONSE_FORMATS = ("json_schema", "json_object", "none")
"""How the schema is sent: OpenAI/vLLM ``json_schema``; llama.cpp-style ``json_object`` with a ``schema``;
or not at all (the reply is still checked)."""


_TEMPLATE_KIND = {"answers": "answers", "attested": "attested", "cited": "attested", "uncited": "negative",
                  "requires_citation": "requires_citation", "nugget_agrees": "nugget_agrees",
                  "first_instance": "first_instance"}
"""Prompt template (or a group's label) -> the question kind its calls are counted under (the uncited prompt
opens with ``negative``; asked for requires-citation alone it is labelled ``requires_citation``; a ``cited``
call, several sentences citing one document, asks each whether the document attests it)."""

GROUPINGS = ("sentence", "document")
"""How citation questions are put into calls: ``sentence`` (Auto-ARGUE's: one answers call and one attested
call per sentence and cited document) or ``document`` (one ``cited`` call per cited document and topic for up
to ``group_cap`` sentences citing it, asking each whether the document attests it and the answers bound to it)."""


@dataclass(slots=True)
class _Group:
    """One prompt and the questions its reply answers: ``members`` maps a reply key to question positions."""

    prompt: Prompt
    members: dict[str, list[int]]
    extra_provenance: dict[str, Any] | None = None
    memo: tuple[str, str] | None = None
    """For an uncited sentence's combined prompt: (request id, normalized sentence) to remember its
    requires-citation answer under, so the later requires-citation round costs no call."""
    positions: list[int] = field(default_factory=list)
    branch: tuple[str, str] | None = None
    """(request id, normalized sentence) of a nugget-agrees or first-instance prompt: the flowchart asks one
    of the two per uncited sentence (negative or not), which the dry-run estimate takes into account."""
    label: str | None = None
    """What the dry run and the usage count the call as, when not its template: the combined uncited prompt
    asked only for its requires-citation answer counts as a ``requires_citation`` call."""
    texts: tuple[tuple[str, str, str], ...] = ()
    """The texts the prompt quotes, as (what, identity, text): a document by id, a sentence by its normalized
    form, a nugget question, an answer, a request by id. The floor of a round's prompt tokens counts each once."""


class _Memo(dict[Any, Any]):
    """A dict that makes a missing key's value with ``make`` (and keeps it): looked up by ``map``, no call a key."""

    def __init__(self, make: Any):
        super().__init__()
        self.make = make

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.make(key)
        return value


class LLMJudge(JudgeBackend):
    """Answers the model-judged flowchart questions through an OpenAI-compatible ``/chat/completions``.

    Options (the CLI's ``--llm-*`` flags): ``base_url`` (e.g. ``http://gpu01:8000/v1``; several, as a list or
    a comma-separated string: replicas of one model, each call to one with free capacity), ``model`` (the
    served model's name), ``api_key_env`` (the environment variable holding the key; unset = no key, as a
    local vLLM needs), ``concurrency``, ``requests_per_minute``, ``tokens_per_minute`` (each per endpoint),
    ``timeout`` (seconds per call), ``max_retries``, ``max_doc_tokens``, ``temperature`` (0), ``seed`` (0),
    ``top_p`` (nucleus sampling; unset: the server's default, and then no part of the identity),
    ``response_format`` (``json_schema``, ``json_object`` or ``none``), ``price_in``/``price_out``
    (per million tokens, for the cost in the usage record), ``prompts`` (the template set, ``llm-v2``),
    ``group`` (``sentence``, Auto-ARGUE's calls, or ``document``) and ``group_cap`` (sentences per
    ``document`` call, 8).
    """

    name = "llm"
    version = "2"  # 2: requires-citation always from the combined uncited prompt
    cost_unit = "model calls"
    kinds = LLM_KINDS

    def __init__(
        self,
        base_url: str | Sequence[str] | None = None,
        model: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        concurrency: int = 8,
        requests_per_minute: float | None = None,
        tokens_per_minute: float | None = None,
        timeout: float = 120.0,
        max_retries: int = 6,
        backoff_base: float = 0.5,
        backoff_max: float = 60.0,
        max_doc_tokens: int = 1500,
        temperature: float = 0.0,
        seed: int = 0,
        top_p: float | None = None,
        response_format: str = "json_schema",
        price_in: float | None = None,
        price_out: float | None = None,
        prompts: str = PROMPT_SET,
        group: str = "sentence",
        group_cap: int = 8,
    ):
        if not model:
            raise OptionError("--llm-model", "the llm judge needs the served model's name (--llm-model NAME)")
        if response_format not in RESPONSE_FORMATS:
            raise OptionError("--llm-response-format", f"expected one of {', '.join(RESPONSE_FORMATS)}, found {response_format!r}")
        if prompts not in PROMPT_SETS:
            raise OptionError("--judge-option", f"llm.prompts: expected one of {', '.join(PROMPT_SETS)}, found {prompts!r}")
        if group not in GROUPINGS:
            raise OptionError("--llm-group", f"expected one of {', '.join(GROUPINGS)}, found {group!r}")
        if group == "document" and "cited" not in PROMPT_SETS[prompts]:
            raise OptionError("--llm-group", f"document grouping needs a prompt set with the cited template "
                              f"({', '.join(n for n, t in PROMPT_SETS.items() if 'cited' in t)}), not {prompts}")
        for option, value, low in (("--concurrency", concurrency, 1), ("--llm-max-doc-tokens", max_doc_tokens, 32),
                                   ("--llm-max-retries", max_retries, 0), ("--llm-group-cap", group_cap, 1)):
            if value < low:
                raise InputError(option, None, None, f"must be at least {low}, found {value}")
        for option, limit in (("--requests-per-minute", requests_per_minute),
                              ("--tokens-per-minute", tokens_per_minute)):
            # 0 or less: the rate limiter's ValueError surfaced as a traceback; 1e-300: every call waited forever
            if limit is not None and not limit >= 1:
                raise InputError(option, None, None, f"must be at least 1 a minute (leave it out for no limit), "
                                 f"found {limit}")
        if top_p is not None and not 0 < top_p <= 1:
            raise OptionError("--llm-top-p", f"must be more than 0 and at most 1, found {top_p}")
        if not timeout > 0:  # no call can finish in no time: refused here, not as a failure of every call
            raise OptionError("--llm-timeout", f"must be more than 0 seconds, found {timeout}")
        for option, amount in (("--temperature", temperature), ("llm.backoff_base", backoff_base),
                               ("llm.backoff_max", backoff_max), ("--price-in", price_in), ("--price-out", price_out)):
            if amount is not None and amount < 0:  # a negative temperature, wait or price means nothing
                raise InputError(option, None, None, f"must be 0 or more, found {amount}")
        # the URLs shown and recorded have no credentials; the client gets them back (redact.with_credentials)
        endpoints = _endpoints(base_url)
        self.api_key_env = api_key_env
        self._endpoints = tuple(with_credentials(url) for url in endpoints)
        key = self._api_key()  # a key written into the URL's path is held out of it like one in its query
        self.base_urls = tuple(hold_credentials(url, (key,)) for url in self._endpoints)
        self.base_url = self.base_urls[0] if self.base_urls else None
        """The first endpoint (``None`` without one), without credentials; ``base_urls`` lists them all."""
        self.model = model
        self.concurrency = int(concurrency)
        self.requests_per_minute = requests_per_minute
        self.tokens_per_minute = tokens_per_minute
        self.timeout = float(timeout)
        self.max_retries = int(max_retries)
        self.backoff_base = float(backoff_base)
        self.backoff_max = float(backoff_max)
        self.max_doc_tokens = int(max_doc_tokens)
        self.temperature = float(temperature)
        self.seed = int(seed)
        self.top_p = None if top_p is None else float(top_p)
        self.response_format = response_format
        self.price_in = price_in
        self.price_out = price_out
        self.prompts = prompts
        self._v1 = prompts == "llm-v1"  # the old layout: the sentence before the document
        self.group = group
        self.group_cap = int(group_cap)
        self.counts = Usage()
        self.server_model: str | None = None
        self._memo: dict[tuple[str, str], tuple[bool, str | None]] = {}
        self._failures: list[dict[str, Any]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._client: ChatPool | None = None
        self._probed = False
        self._strings: dict[str, str] | None = None
        """While ``_plan`` builds prompts: the JSON spelling of each text quoted (``llm_prompts.quote_data``)."""
        self._whole: dict[Document, str] | None = None
        """While ``_plan`` builds prompts: each document that fits the budget, as its prompts quote it (the same
        text whatever the sentence: built once, and the same string for ``_strings`` to find)."""
        self.batch: BatchExchange | None = None
        """Batch results to answer calls from, and (collecting) the calls to write instead of sending them:
        ``use_batch``. ``None``: every call goes to the endpoint."""

    def __repr__(self) -> str:
        urls = self.base_url if len(self.base_urls) <= 1 else list(self.base_urls)
        return f"LLMJudge(model={self.model!r}, base_url={urls!r})"

    # -- identity and provenance -------------------------------------------------------------------------
    def sampling(self) -> dict[str, Any]:
        """The decoding options sent with every call and recorded in the identity: ``temperature`` and ``seed``,
        and ``top_p`` when it is set. A judge sampled with another seed (and a temperature above 0) is another
        judge, so its answers are cached apart and its score table is a replicate of this one's."""
        return {"temperature": self.temperature, "seed": self.seed,
                **({"top_p": self.top_p} if self.top_p is not None else {})}

    def params(self) -> dict[str, Any]:
        """What changes answers: model, prompts, decoding, document budget, and the grouping when it is not
        Auto-ARGUE's (never the URL or the key)."""
        params: dict[str, Any] = {
            "model": self.model,
            "prompt_version": prompt_version(self.prompts),
            **self.sampling(),
            "max_doc_tokens": self.max_doc_tokens,
        }
        if self.group != "sentence":  # an answer given beside other sentences is another judge's
            params.update(group=self.group, group_cap=self.group_cap)
        return params

    @property
    def judge_label(self) -> str:
        return f"llm:{self.model}"

    def _api_key(self) -> str | None:
        """Read at call time from the named variable, held only by the HTTP client's headers."""
        return os.environ.get(self.api_key_env) or None

    # -- planning: questions -> prompts ------------------------------------------------------------------
    def _plan(self, questions: Sequence[Question], estimating: bool = False
              ) -> tuple[list[_Group], list[tuple[int, Verdict | None]]]:
        """Group questions into prompts (Auto-ARGUE's batching, or by cited document with ``group="document"``);
        answers known without a call come back at once. The prompts come in send order: sorted by template and
        text, so that prompts sharing a prefix (the same cited document, request or earlier sentences) are sent
        one after another, while the server's prefix cache still holds it.

        ``estimating``: a question without its document (a dry run attaches none) stands for a document of
        the full ``max_doc_tokens`` budget, so the token estimate is an upper bound.
        """
        self._strings = {}  # a round's prompts quote the same documents and sentences again and again
        self._whole = {}
        try:
            return self._groups(questions, estimating)
        finally:
            self._strings = self._whole = None

    def _groups(self, questions: Sequence[Question], estimating: bool
                ) -> tuple[list[_Group], list[tuple[int, Verdict | None]]]:
        """``_plan``'s groups and immediate answers."""
        if estimating:  # one placeholder per document id: each its own text, as real documents are
            placeholders: dict[str, Document] = {}

            def placeholder(doc_id: str) -> Document:
                if doc_id not in placeholders:
                    words = self.max_doc_tokens - estimate_tokens(doc_id + " ")
                    placeholders[doc_id] = Document(doc_id, doc_id + " " + "xxx " * max(0, words))
                return placeholders[doc_id]

            questions = [q if q.document is not None or q.key.doc_id is None or q.kind not in ("answers", "attested")
                         else replace(q, document=placeholder(q.key.doc_id)) for q in questions]
        immediate: list[tuple[int, Verdict | None]] = []
        answers: dict[tuple, list[int]] = {}
        attested: dict[tuple, list[int]] = {}
        cited: dict[tuple[str, str], dict[str, list[int]]] = {}  # (request, document) -> sentence -> positions
        uncited: dict[tuple, dict[str, list[int]]] = {}
        agrees: dict[tuple, list[int]] = {}
        firsts: dict[tuple, list[int]] = {}
        by_document = self.group == "document"
        normalized = _Memo(normalize_text)  # a report's earlier sentences, normalized once for its later ones
        for position, question in enumerate(questions):
            key = question.key
            kind = key.kind
            if kind not in LLM_KINDS:
                immediate.append((position, None))
            elif kind in ("answers", "attested"):
                if question.document is None and (key.doc_id is not None or kind == "attested"):
                    immediate.append((position, None))  # the runner reports the missing document
                elif by_document and key.doc_id is not None:
                    cited.setdefault((key.request_id, key.doc_id), {}).setdefault(key.sentence, []).append(position)
                else:
                    target = answers if kind == "answers" else attested
                    target.setdefault((key.request_id, key.sentence, key.doc_id), []).append(position)
            elif kind in ("negative", "requires_citation"):
                memo_key = (key.request_id, key.sentence)
                if kind == "requires_citation" and memo_key in self._memo:
                    value, server_model = self._memo[memo_key]
                    immediate.append((position, self._verdict(value, server_model, None)))
                else:
                    uncited.setdefault(memo_key, {}).setdefault(kind, []).append(position)
            elif kind == "nugget_agrees":
                agrees.setdefault((key.request_id, key.sentence), []).append(position)
            else:  # first_instance: the same sentence after the same earlier sentences is one prompt, in any run
                earlier = tuple(map(normalized.__getitem__, question.earlier_sentences))
                firsts.setdefault((key.request_id, key.sentence, earlier), []).append(position)

        groups: list[_Group] = []
        data: dict[str, Any]
        for positions in answers.values():
            groups.append(self._answers_group(questions, positions, "answers", "A"))
        for positions in attested.values():
            question = questions[positions[0]]
            text, cut = self._document_text(question, question.sentence)
            data = ({"sentence": question.sentence, "document": text} if self._v1
                    else {"document": text, "sentence": question.sentence})
            groups.append(_Group(self._prompt("attested", data, ["attested"]), {"attested": positions}, cut,
                                 texts=(("document", question.key.doc_id or "", text),
                                        ("sentence", question.key.sentence, question.sentence))))
        for sentences in cited.values():
            ordered = sorted(sentences.items())
            for start in range(0, len(ordered), self.group_cap):
                groups.append(self._cited_group(questions, ordered[start:start + self.group_cap]))
        for memo_key, by_kind in uncited.items():
            # requires-citation without negative (its answer forgotten: a resumed run, or negative answered
            # by an imported file or a cheaper judge) is asked in the same combined prompt, so its answer never
            # depends on whether the earlier round's reply is still remembered. The sentence goes in as keyed
            # (normalized): copies of it that differ only in spacing are one question, and the negative round
            # and a requires-citation round may meet different copies first, but must send one prompt.
            question = questions[(by_kind.get("negative") or by_kind["requires_citation"])[0]]
            request = _request_text(question)
            data = {"request": request, "sentence": memo_key[1]}
            prompt = self._prompt("uncited", data, ["negative", "requires_citation"])
            label = "uncited" if "negative" in by_kind else "requires_citation"
            groups.append(_Group(prompt, dict(by_kind), memo=memo_key, label=label,
                                 texts=(("request", memo_key[0], json.dumps(request)),
                                        ("sentence", memo_key[1], memo_key[1]))))
        for branch, positions in agrees.items():
            groups.append(self._answers_group(questions, positions, "nugget_agrees", "N"))
            groups[-1].branch = branch
        quoted = _Memo(lambda text: ("sentence", normalized[text], text))  # an earlier sentence in ``texts``
        for positions in firsts.values():
            question = questions[positions[0]]
            data = {"earlier_sentences": list(question.earlier_sentences), "sentence": question.sentence}
            texts = tuple(map(quoted.__getitem__, question.earlier_sentences))
            groups.append(_Group(self._prompt("first_instance", data, ["first_instance"]),
                                 {"first_instance": positions}, branch=(question.key.request_id, question.key.sentence),
                                 texts=(*texts, ("sentence", question.key.sentence, question.sentence))))
        for group in groups:
            if len(group.members) == 1:  # most prompts answer one key: its positions, in order already or not
                group.positions = sorted(next(iter(group.members.values())))
            else:
                group.positions = sorted(p for members in group.members.values() for p in members)
        return _send_order(groups), immediate

    def _prompt(self, template: str, data: dict[str, Any], keys: list[str]) -> Prompt:
        return build_prompt(template, data, keys, self.prompts, self._strings)

    def _answer_items(self, questions: Sequence[Question], positions: Iterable[int], prefix: str
                      ) -> tuple[dict[str, dict[str, str]], dict[tuple[str, str], str]]:
        """The nugget answers asked at ``positions``, numbered ``prefix``1, 2, ... in (nugget, answer) order:
        the items of the prompt, and each (nugget id, answer) key's item id."""
        first: dict[tuple[str, str], int] = {}
        for position in positions:
            key = questions[position].key
            first.setdefault((key.nugget_id or "", key.answer or ""), position)
        items: dict[str, dict[str, str]] = {}
        ids: dict[tuple[str, str], str] = {}
        for number, (pair, position) in enumerate(sorted(first.items()), start=1):
            question = questions[position]
            items[f"{prefix}{number}"] = {
                "question": question.nugget.question if question.nugget else "",
                "answer": question.answer if question.answer is not None else (question.key.answer or "")}
            ids[pair] = f"{prefix}{number}"
        return items, ids

    @staticmethod
    def _item_texts(items: dict[str, dict[str, str]]) -> tuple[tuple[str, str, str], ...]:
        return tuple(text for item in items.values()
                     for text in (("nugget", item["question"], item["question"]), ("answer", item["answer"], item["answer"])))

    def _answers_group(self, questions: Sequence[Question], positions: list[int], template: str, prefix: str) -> _Group:
        """One prompt listing every nugget answer asked about one sentence (and one cited document)."""
        items, ids = self._answer_items(questions, positions, prefix)
        members: dict[str, list[int]] = {}
        for position in positions:
            key = questions[position].key
            members.setdefault(ids[(key.nugget_id or "", key.answer or "")], []).append(position)
        first = questions[positions[0]]
        texts = (("sentence", first.key.sentence, first.sentence), *self._item_texts(items))
        data: dict[str, Any] = {"sentence": first.sentence}
        cut = None
        if template == "answers":
            if first.document is not None:  # --nugget-scope all asks without a document
                query = " ".join([first.sentence, *(item["answer"] for item in items.values())])
                text, cut = self._document_text(first, query)
                data["document"] = text
                texts += (("document", first.key.doc_id or "", text),)
            data["answers"] = items
        else:
            data["nuggets"] = items
        if not self._v1:  # what calls share first: the document, the nugget items; the sentence last
            data = {name: data[name] for name in ("document", "answers", "nuggets", "sentence") if name in data}
        return _Group(self._prompt(template, data, list(items)), members, cut, texts=texts)

    def _cited_group(self, questions: Sequence[Question], sentences: list[tuple[str, list[int]]]) -> _Group:
        """One ``cited`` prompt: several sentences citing one document, each asked ``attested`` and the nugget
        answers bound to that document (``--llm-group document``). ``sentences``: (normalized sentence, its
        questions' positions), at most ``group_cap`` of them, in sentence order."""
        everything = [p for _, positions in sentences for p in positions]
        items, ids = self._answer_items(questions, [p for p in everything if questions[p].kind == "answers"], "A")
        first = questions[everything[0]]
        query = " ".join([*(questions[positions[0]].sentence for _, positions in sentences),
                          *(item["answer"] for item in items.values())])
        text, cut = self._document_text(first, query)
        texts: tuple[tuple[str, str, str], ...] = (("document", first.key.doc_id or "", text), *self._item_texts(items))
        shown: dict[str, str] = {}
        members: dict[str, list[int]] = {}
        for number, (normalized, positions) in enumerate(sentences, start=1):
            label = f"S{number}"
            shown[label] = questions[positions[0]].sentence
            texts += (("sentence", normalized, shown[label]),)
            for position in positions:
                key = questions[position].key
                item = "attested" if key.kind == "attested" else ids[(key.nugget_id or "", key.answer or "")]
                members.setdefault(f"{label}_{item}", []).append(position)
        keys = sorted(members, key=_reply_order)
        data = {"document": text, **({"answers": items} if items else {}), "sentences": shown}
        return _Group(self._prompt("cited", data, keys), {key: members[key] for key in keys}, cut, texts=texts)

    def _document_text(self, question: Question, query: str) -> tuple[str, dict[str, Any] | None]:
        document = question.document
        assert document is not None
        whole = self._whole
        if whole is not None:
            known = whole.get(document)
            if known is not None:
                return known, None
        body, cut = cut_document(document.text or "", query, self.max_doc_tokens)
        title = (document.title or "").strip()
        text = f"{title}\n\n{body}" if title else body
        if cut is None and whole is not None:  # not cut: the query played no part
            whole[document] = text
        return text, cut

    # -- the run -------------------------------------------------------------------------------------------
    def _body(self, prompt: Prompt, messages: list[dict[str, str]]) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            **self.sampling(),
            "max_tokens": prompt.max_completion_tokens(),
        }
        if self.response_format == "json_schema":
            body["response_format"] = {"type": "json_schema",
                                       "json_schema": {"name": prompt.template, "strict": True, "schema": prompt.schema}}
        elif self.response_format == "json_object":
            body["response_format"] = {"type": "json_object", "schema": prompt.schema}
        return body

    async def _ask(self, client: ChatPool, prompt: Prompt, kind: str) -> tuple[dict[str, bool], str | None]:
        """The checked reply to ``prompt``: one re-ask after an unusable reply (sent to another endpoint when
        there is one: the unusable reply counts as that endpoint's failure), then ``CallFailed``. A reply from
        another model than ``--llm-model`` (or naming none) is not used: its endpoint is taken out of the run
        and the call asked again elsewhere; with none left the run stops (``StopRun``). ``kind``: what the usage
        counts the call under (the group's label, as the dry-run estimate counts it). The server's model name
        comes back redacted: a server may echo the key in it, and it is stored in every judgment's provenance."""
        messages = [dict(m) for m in prompt.messages]
        estimated = prompt.estimated_prompt_tokens() + prompt.max_completion_tokens()
        avoid: int | None = None
        unusable = 0
        while True:
            result = await client.chat(self._body(prompt, messages), kind, estimated, avoid=avoid)
            refused = self._wrong_model(result)
            if refused is not None:
                await client.refuse(result.endpoint, refused)
                continue
            try:
                reply = parse_reply(result.content, prompt.keys)
            except ReplyError as exc:
                client.reply_unusable(result.endpoint)
                avoid = result.endpoint
                unusable += 1
                if unusable == 2:
                    raise CallFailed(f"unusable reply twice ({exc})") from None
                self.counts.reasks += 1
                messages = messages + [
                    {"role": "assistant", "content": (result.content or "")[:2000]},
                    {"role": "user", "content": f"That reply is not usable: {exc}. Reply again with only the "
                                                f"JSON object, keys {', '.join(prompt.keys)}, each true or false."},
                ]
                continue
            client.reply_usable(result.endpoint)
            return reply, self._shown_model(result.model)

    def _shown_model(self, model: str | None) -> str | None:
        """A server's model name as it may be stored and printed: without the key (a server may echo it)."""
        return redact_text(model, (self._api_key(),)) if model else model

    def _wrong_model(self, result: Any) -> str | None:
        """Why a live reply cannot be used for ``--llm-model``, as the batch path refuses a result (the same
        rule: ``llm_batch.model_matches``), or ``None`` when it can."""
        if model_matches(self.model, result.model):
            return None
        index = result.endpoint or 0
        where = self.base_urls[index] if index < len(self.base_urls) else "the endpoint"
        if not result.model:
            return (f"{where} answered naming no model (its reply's model field is "
                    f"{'empty' if result.model == '' else 'missing'}), so it cannot be told to be --llm-model "
                    f"{self.model}")
        return f"{where} answered as model {self._shown_model(result.model)!r}, not the --llm-model asked for ({self.model!r})"

    def check_installed(self) -> None:
        """The HTTP client's package (``aiohttp``, the ``llm`` extra): checked by ``judge`` and its dry run before
        any work, and before the first call (a missing one was a ``ModuleNotFoundError`` from the event loop)."""
        if importlib.util.find_spec("aiohttp") is None:
            raise MissingDependencyError(FEATURE, "llm", "no module named 'aiohttp'")

    def check_ready(self) -> None:
        """``check_installed``, then whether each endpoint listens (``llm_client.probe_endpoints``: one TCP
        connection each, at most 2 s): a command that will call the model says before any work that no server
        runs at the URL (exit 2), instead of failing every call after its retries. The dry run and a run that
        only writes batch files need no endpoint and do not call it."""
        self.check_installed()
        if self._probed or not self._endpoints:
            return
        problems = probe_endpoints(self._endpoints)
        if problems:
            raise OptionError("--llm-base-url", "; ".join(f"{self.base_urls[i]}: {why}" for i, why in problems.items())
                              + " (start the server, or check the URL: docs/judging.md, Running a local model; "
                              "argue-eval doctor --llm-base-url URL --llm-model NAME checks it)")
        self._probed = True

    def _session(self) -> tuple[asyncio.AbstractEventLoop, ChatPool]:
        """One event loop thread and one HTTP client pool (one client per endpoint) for the judge's lifetime.

        The runner calls ``iter_answer_groups`` once per topic and round (hundreds of times in a round);
        opening a client each time would redo the TLS setup and the connections every time. ``close`` ends both.
        With several endpoints, each must serve the model (``GET /models``) before the first call: answers
        must not depend on which replica gave them.
        """
        if self._loop is None:
            self.check_ready()
            if not self.base_urls:
                raise OptionError("--llm-base-url", "the llm judge needs the endpoint (--llm-base-url http://HOST:PORT/v1)")
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="argue-eval-llm", daemon=True)
            thread.start()

            async def open_client() -> ChatPool:
                return ChatPool(
                    self._endpoints, self._api_key(),
                    concurrency=self.concurrency, timeout=self.timeout, max_retries=self.max_retries,
                    backoff_base=self.backoff_base, backoff_max=self.backoff_max,
                    requests_per_minute=self.requests_per_minute, tokens_per_minute=self.tokens_per_minute,
                    usage=self.counts, jitter_seed=self.seed, key_name=self.api_key_env,
                )

            client = asyncio.run_coroutine_threadsafe(open_client(), loop).result()
            self._loop, self._thread, self._client = loop, thread, client
            if len(self.base_urls) > 1:
                problems = asyncio.run_coroutine_threadsafe(client.check_models(self.model), loop).result()
                if problems:
                    self.close()
                    raise OptionError("--llm-base-url", "every endpoint must serve --llm-model "
                                      f"{self.model}: " + "; ".join(f"{redact_url(url)} {why}"
                                                                    for url, why in problems.items())
                                      + " (leave out the endpoints that are down or serve another model)")
        assert self._client is not None and self._loop is not None
        return self._loop, self._client

    async def _drive(self, client: ChatPool, groups: list[_Group], out: queue.Queue[Any]) -> None:
        pending = iter(range(len(groups)))

        async def worker() -> None:
            for index in pending:
                try:
                    group = groups[index]
                    reply, server_model = await self._ask(client, group.prompt, group.label or group.prompt.template)
                    out.put((index, reply, server_model, None))
                except StopRun:
                    raise  # every later call would fail the same way (a refused key, no endpoint of the model): stop
                except CallFailed as exc:
                    out.put((index, None, None, exc.reason))

        workers = [asyncio.ensure_future(worker())  # concurrency per endpoint
                   for _ in range(min(self.concurrency * max(1, len(self._endpoints)), len(groups)))]
        try:
            await asyncio.gather(*workers)
        except BaseException:
            for task in workers:
                task.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
            raise

    def iter_answers(self, questions: Sequence[Question]) -> Iterator[tuple[int, Verdict | None]]:
        """Yield ``(position, verdict)`` as replies arrive."""
        for group in self.iter_answer_groups(questions):
            yield from group

    def iter_answer_groups(self, questions: Sequence[Question]) -> Iterator[list[tuple[int, Verdict | None]]]:
        """Yield each reply's answers as one group as replies arrive (the runner commits a group whole,
        so a resumed run asks an interrupted prompt again as it was, never a shorter one). With a batch
        exchange (``use_batch``), a call its results answer is answered from them, and a call they do not is
        written to the batch file (its questions ``None``, named in ``batch.waiting``) when collecting, else
        sent to the endpoint."""
        if not self.base_urls and self.batch is None:
            raise OptionError("--llm-base-url", "the llm judge needs the endpoint (--llm-base-url http://HOST:PORT/v1)")
        started = time.monotonic()
        groups, immediate = self._plan(questions)
        self.counts.answered_items += sum(1 for _, verdict in immediate if verdict is not None)
        for item in immediate:  # known without a call (a remembered answer) or not answerable: alone
            yield [item]
        if self.batch is not None:
            live: list[_Group] = []
            for group in groups:
                answered = self._from_batch(group, questions)
                if answered is not None:
                    yield answered
                elif self.batch.collect or not self.base_urls:
                    if self.batch.collect:
                        self.batch.add(self._body(group.prompt, [dict(m) for m in group.prompt.messages]))
                    self.batch.waiting.update(questions[p].key for p in group.positions)
                    yield [(position, None) for position in group.positions]
                else:
                    live.append(group)
            groups = live
        if not groups:
            return
        loop, client = self._session()
        out: queue.Queue[Any] = queue.Queue()
        future = asyncio.run_coroutine_threadsafe(self._drive(client, groups, out), loop)
        future.add_done_callback(lambda _: out.put(None))
        try:
            while True:
                try:  # a stop asked while every call is in flight is seen within a quarter of a second
                    item = out.get(timeout=0.25)
                except queue.Empty:
                    stopping.check()
                    continue
                if item is None:
                    break
                index, reply, server_model, failure = item
                yield list(self._verdicts(groups[index], reply, server_model, failure))
        finally:
            if not future.done():
                future.cancel()  # the consumer stopped early (closed the generator): stop sending
                try:
                    future.result(timeout=self.timeout + 5)
                except BaseException:  # noqa: BLE001 -- cancelled, as asked
                    pass
            self.counts.wall_seconds += time.monotonic() - started
        if not future.cancelled() and future.exception() is not None:
            error = future.exception()
            if isinstance(error, StopRun):
                raise ArgueError(error.reason)
            raise ArgueError(f"the llm judge stopped: {type(error).__name__}: "
                             f"{redact_text(str(error), (self._api_key(),))}")

    # -- batch files -----------------------------------------------------------------------------------------
    def use_batch(self, exchange: BatchExchange | None) -> None:
        """Answer calls from ``exchange``'s results and, when it collects, write the others to it instead of
        sending them (``judge --batch-in/--batch-out``); ``None`` sends every call again."""
        self.batch = exchange

    def _from_batch(self, group: _Group, questions: Sequence[Question]) -> list[tuple[int, Verdict | None]] | None:
        """The answers of ``group``'s call from the batch results, checked against the call; ``None`` when no
        usable result answers it (a result that fails a check is recorded in ``batch.problems``)."""
        assert self.batch is not None
        body = self._body(group.prompt, [dict(m) for m in group.prompt.messages])
        cid = custom_id(body)
        result = self.batch.results.get(cid)
        if result is None:
            return None
        self.batch.used.add(cid)
        if result.completion is None:
            self.batch.problems.append(f"{result.where}: {result.problem}")
            return None
        completion = result.completion
        if not model_matches(self.model, completion.model):
            self.batch.problems.append(f"{result.where}: response.body.model: answered by {completion.model!r}, "
                                       f"not by the model asked for ({self.model!r})")
            return None
        try:
            reply = parse_reply(completion.content, group.prompt.keys)
        except ReplyError as exc:
            self.batch.problems.append(f"{result.where}: response.body.choices[0].message.content: the reply is not "
                                       f"the call's JSON object ({exc})")
            return None
        self.batch.answered += 1
        self.counts.calls += 1
        self.counts.add_tokens(group.label or group.prompt.template, completion.prompt_tokens,
                               completion.completion_tokens)
        return list(self._verdicts(group, reply, completion.model, None))

    def forget(self) -> None:
        """The remembered requires-citation answers of the topic are not needed by the next topic's rounds."""
        self._memo.clear()

    def close(self) -> None:
        """Close the HTTP client and stop the event loop thread (the runner calls this once at the end)."""
        if self._loop is None:
            return
        loop, client = self._loop, self._client
        if client is not None and self._thread is not None and self._thread.is_alive():
            asyncio.run_coroutine_threadsafe(client.aclose(), loop).result(timeout=30)
        loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=30)
        loop.close()
        self._loop = self._client = self._thread = None

    def _verdicts(self, group: _Group, reply: dict[str, bool] | None, server_model: str | None,
                  failure: str | None) -> Iterator[tuple[int, Verdict | None]]:
        if reply is None:
            self.counts.failed_calls += 1
            self.counts.failed_items += len(group.positions)
            self._failures.append({"prompt": group.prompt.template, "questions": len(group.positions),
                                   "reason": failure})
            for position in group.positions:
                yield position, None
            return
        if server_model and self.server_model is None:
            self.server_model = server_model
        if group.memo is not None and "requires_citation" in reply:
            self._memo[group.memo] = (reply["requires_citation"], server_model)
        for item, positions in group.members.items():
            verdict = self._verdict(reply[item], server_model, group.extra_provenance)
            for position in positions:
                self.counts.answered_items += 1
                yield position, verdict

    def _verdict(self, value: bool, server_model: str | None, cut: dict[str, Any] | None) -> Verdict:
        provenance = {**self.identity(), "server_model": server_model}
        if cut is not None:
            provenance["doc_cut"] = cut
        return Verdict(value=bool(value), judge=self.judge_label, provenance=provenance)

    def __del__(self) -> None:
        if sys.is_finalizing():  # the loop thread may already be gone; the OS closes the sockets
            return
        try:
            self.close()
        except Exception:  # noqa: BLE001 -- best effort for a judge nobody closed
            pass

    def answer_many(self, questions: Sequence[Question]) -> list[Verdict | None]:
        answers: list[Verdict | None] = [None] * len(questions)
        for position, verdict in self.iter_answers(questions):
            answers[position] = verdict
        return answers

    # -- accounting ----------------------------------------------------------------------------------------
    def usage(self) -> dict[str, Any]:
        """Calls, retries, tokens per kind, failures, wall time and cost: for the run manifest and the summary."""
        record = self.counts.as_dict(self.price_in, self.price_out)
        record["model"] = self.model
        record["server_model"] = self.server_model
        record["prompt_version"] = prompt_version(self.prompts)
        record["failures"] = list(self._failures)
        if self._client is not None and len(self._client.clients) > 1:
            record["endpoints"] = self._client.endpoint_usage()
        return record

    def plan_calls(self, questions: Sequence[Question]) -> dict[str, int]:
        """Model calls a run would make, by the question kind that opens each prompt (for ``--dry-run``)."""
        return self.calls_by_kind(self.estimate(questions))

    @staticmethod
    def calls_by_kind(estimate: Mapping[str, Any]) -> dict[str, int]:
        """``plan_calls`` from an ``estimate`` already made of the same questions (the dry run makes one: building
        every prompt of a round twice was half its time)."""
        calls: dict[str, int] = {}
        for template, count in estimate["calls"].items():
            kind = _TEMPLATE_KIND[template]
            calls[kind] = calls.get(kind, 0) + count
        return calls

    def estimate(self, questions: Sequence[Question]) -> dict[str, Any]:
        """What judging ``questions`` would cost, with no network call and no key: calls, tokens, cost.

        Prompts are built exactly as a run builds them, in its send order; a question without its document
        counts at the full ``max_doc_tokens`` budget. Prompt tokens are estimated from text length (about 4
        characters a token), completion tokens from the length of the reply's JSON object.

        Beside the total: ``floor_tokens``, the least any judge asking these questions must send (each text
        the prompts quote once: every cited document at its size within the budget, every sentence, nugget
        question, answer and request; plus every call's instructions, ``floor_instructions``), and
        ``shared_prefix_tokens``, the prompt tokens that sit in a prefix an earlier call sent
        (``llm_prompts.shared_prefix_tokens``: what servers' automatic prefix caches can skip).
        """
        groups, immediate = self._plan(questions, estimating=True)
        groups = _one_branch(groups)
        quoted: set[tuple[str, str, str]] = set()  # every (what, identity, text) quoted, each once
        shapes: dict[tuple[str, str, tuple[str, ...]], list[int]] = {}  # (kind, template, keys) -> [calls, tokens]
        for group in groups:  # a round's every prompt: only what differs per prompt is summed here
            prompt = group.prompt
            shape = (group.label or prompt.template, prompt.template, prompt.keys)
            tokens = prompt.estimated_prompt_tokens()
            tally = shapes.get(shape)
            if tally is None:
                shapes[shape] = [1, tokens]
            else:
                tally[0] += 1
                tally[1] += tokens
            quoted.update(group.texts)  # a report's earlier sentences come again in each of its later prompts
        calls: dict[str, int] = {}
        prompt_tokens: dict[str, int] = {}
        completion_tokens: dict[str, int] = {}
        instructions = 0
        for (kind, template, keys), (count, tokens) in shapes.items():
            calls[kind] = calls.get(kind, 0) + count
            prompt_tokens[kind] = prompt_tokens.get(kind, 0) + tokens
            reply = estimate_tokens("{" + ", ".join(f'"{k}": false' for k in keys) + "}")
            completion_tokens[kind] = completion_tokens.get(kind, 0) + count * reply
            instructions += count * instruction_tokens(template, list(keys), self.prompts)
        unique: dict[tuple[str, str], int] = {}
        for what, identity, text in quoted:
            size = estimate_tokens(text)
            if size > unique.get((what, identity), -1):  # a document cut differently: its largest cut
                unique[(what, identity)] = size
        total_in = sum(prompt_tokens.values())
        total_out = sum(completion_tokens.values())
        cost = None
        if self.price_in is not None or self.price_out is not None:
            cost = (total_in * (self.price_in or 0.0) + total_out * (self.price_out or 0.0)) / 1e6
        floor_data = sum(unique.values())
        return {
            "calls": dict(sorted(calls.items())),
            "total_calls": sum(calls.values()),
            "prompt_tokens": total_in,
            "completion_tokens": total_out,
            "prompt_tokens_by_kind": dict(sorted(prompt_tokens.items())),
            "floor_tokens": instructions + floor_data,
            "floor_instructions": instructions,
            "floor_texts": floor_data,
            "shared_prefix_tokens": shared_prefix_tokens(group.prompt for group in groups),
            "group": self.group,
            "unanswerable": sum(1 for _, v in immediate if v is None),
            "price_in": self.price_in,
            "price_out": self.price_out,
            "cost": cost,
        }


def _send_order(groups: list[_Group]) -> list[_Group]:
    """``groups`` sorted by template, then by the text of the prompt's last message (stable: prompts of one text
    keep their order). Each template's prompts are sorted apart, by their text alone: the order of one sort by
    (template, text), without a key tuple and a template comparison per step of a round's sort."""
    by_template: dict[str, list[_Group]] = {}
    for group in groups:
        by_template.setdefault(group.prompt.template, []).append(group)
    ordered: list[_Group] = []
    for template in sorted(by_template):
        part = by_template[template]
        part.sort(key=_last_message)
        ordered.extend(part)
    return ordered


def _last_message(group: _Group) -> str:
    return group.prompt.messages[-1]["content"]


def _reply_order(key: str) -> tuple[int, bool, int]:
    """``S2_A10`` after ``S2_A9`` after ``S2_attested`` after ``S1_...``: the keys of a ``cited`` reply in order."""
    label, _, item = key.partition("_")
    return int(label[1:]), item != "attested", 0 if item == "attested" else int(item[1:])


def _one_branch(groups: list[_Group]) -> list[_Group]:
    """Drop, per uncited sentence, the cheaper of the nugget-agrees and first-instance branches.

    A dry run lists every question any answer could open up; but a sentence is either negative (then
    nugget-agrees is asked) or not (then maybe first-instance), never both, so the costlier branch bounds it.
    """
    by_branch: dict[tuple[str, str], dict[str, list[_Group]]] = {}
    for group in groups:
        if group.branch is not None:
            by_branch.setdefault(group.branch, {}).setdefault(group.prompt.template, []).append(group)
    dropped: set[int] = set()
    for branches in by_branch.values():
        if len(branches) == 2:
            agrees, firsts = branches["nugget_agrees"], branches["first_instance"]
            cheaper = agrees if len(agrees) < len(firsts) else firsts
            dropped.update(id(group) for group in cheaper)
    return [group for group in groups if id(group) not in dropped]


def _endpoints(base_url: str | Sequence[str] | None) -> tuple[str, ...]:
    """The endpoints ``base_url`` names: one URL, a comma-separated string of them, or a list; each once."""
    if base_url is None:
        return ()
    parts = base_url.split(",") if isinstance(base_url, str) else [str(url) for url in base_url]
    urls = tuple(dict.fromkeys(part.strip().rstrip("/") for part in parts if part.strip()))
    return urls


def _request_text(question: Question) -> dict[str, str] | None:
    request = question.request
    if request is None:
        return None
    return {"title": request.title, "background": request.background, "problem_statement": request.problem_statement}

