"""Structured LLM tasks for the alternate measures: claims, aspects, multiple-choice entailment, coverage.

The flowchart judge (``llm``) answers yes/no questions; the measures also need the model to *produce*
things: ICAT's atomic claims of a sentence and the aspects of a request, LongRecall's choice among
candidate sentences, and the end-to-end comprehensiveness verdict on every context statement of a report.
Each is a *task*: a versioned prompt template (``prompts/tasks-v1/``), the inputs quoted as one JSON
object inside ``<data>`` (``llm_prompts.quote_data``: report text never becomes instructions), a JSON
schema the server enforces where it can (llama.cpp, vLLM, OpenAI), and a check of the reply here either
way. An unusable reply is re-asked once; a second unusable one, or a call that fails after its retries,
makes the item ``None`` -- *failed*, counted in the judge's usage and never read as an empty list, a
"no" or a zero.

Results are cached in the judgment cache (the same SQLite file as every judgment) under the task's
identity -- model, task, the template's content hash, temperature, seed -- so a changed prompt never
reuses an old answer, and a rerun asks nothing it already has. Calls go through the ``LLMJudge``'s HTTP
client (same endpoint, key handling, concurrency, rate limits, retries and token accounting).
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from string import Template
from typing import Any

from .. import stopping
from ..errors import ArgueError, OptionError
from ..model import JudgmentKey
from .asking import CachedJudge
from .base import JudgeBackend, Question, Verdict
from .llm_client import AuthenticationFailed, CallFailed
from .llm_prompts import ReplyError, estimate_tokens, quote_data

__all__ = ["TASK_SET", "TASKS", "Task", "TaskItem", "LLMTasks", "task_version", "MAX_CLAIMS", "MAX_ASPECTS",
           "COVERED", "UNCOVERED"]

TASK_SET = "tasks-v1"
"""The folder of task templates; a template edit changes its version hash, a change of meaning a new folder."""

MAX_CLAIMS = 12
"""Atomic claims kept per sentence (the schema's bound; a longer list is a rambling reply)."""
MAX_ASPECTS = 10
"""Generated aspects per request (the issue's and ICAT-A's bound)."""
MAX_TEXT = 400
"""Characters per generated claim or aspect."""
COVERED, UNCOVERED = "covered", "uncovered"


@cache
def _template(name: str, template_set: str = TASK_SET) -> str:
    return (resources.files(__package__).joinpath("prompts").joinpath(template_set).joinpath(f"{name}.txt")
            .read_text(encoding="utf-8"))


@cache
def task_version(task: str | Task) -> str:
    """``<set>/<name>+<sha256 of the set's system template and the task's template, 10 hex digits>``
    (``tasks-v1/claims+...``); ``task`` is a task of ``TASKS`` by name, or a ``Task`` of another set."""
    found = TASKS[task] if isinstance(task, str) else task
    system, body = _template("system", found.template_set), _template(found.name, found.template_set)
    digest = hashlib.sha256((system + "\0" + body).encode("utf-8")).hexdigest()[:10]
    return f"{found.template_set}/{found.name}+{digest}"


def _string_list(value: Any, key: str, low: int, high: int) -> list[str]:
    items = value.get(key) if isinstance(value, dict) else None
    if not isinstance(items, list):
        raise ReplyError(f"expected {{\"{key}\": [...]}}")
    if not all(isinstance(item, str) for item in items):
        raise ReplyError(f"every item of {key} must be a string")
    texts = list(dict.fromkeys(" ".join(item.split()) for item in items))
    if any(not text for text in texts):
        raise ReplyError(f"an item of {key} is empty")
    if any(len(text) > MAX_TEXT for text in texts):
        raise ReplyError(f"an item of {key} is longer than {MAX_TEXT} characters")
    if not low <= len(texts) <= high:
        raise ReplyError(f"expected {low} to {high} distinct items in {key}, got {len(texts)}")
    return texts


def _strings_schema(key: str, low: int, high: int) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "required": [key],
            "properties": {key: {"type": "array", "minItems": low, "maxItems": high,
                                 "items": {"type": "string"}}}}


@dataclass(frozen=True)
class Task:
    """One kind of structured request: its template, its reply schema for given data, and the reply's check."""

    name: str
    schema: Callable[[dict[str, Any]], dict[str, Any]]
    check: Callable[[Any, dict[str, Any]], Any]
    """(parsed reply, data) -> the result; raises ``ReplyError`` for a reply that does not fit."""
    fill: Callable[[dict[str, Any]], dict[str, str]]
    """Template fields besides ``$data`` (limits, the ids a reply may use)."""
    max_tokens: Callable[[dict[str, Any]], int]
    template_set: str = TASK_SET
    """The folder of ``prompts/`` that holds its template and the system prompt it opens with: a task of
    another job (``nugget_tasks``: creating nugget banks) keeps its own versioned set beside ``tasks-v1``."""


def _ids(data: dict[str, Any], field: str) -> list[str]:
    return list(data[field])


def _check_choice(value: Any, data: dict[str, Any]) -> list[str]:
    ids = _ids(data, "candidates")
    selected = value.get("selected") if isinstance(value, dict) else None
    if not isinstance(selected, list) or not all(isinstance(item, str) for item in selected):
        raise ReplyError('expected {"selected": [candidate ids]}')
    unknown = [item for item in selected if item not in ids]
    if unknown:
        raise ReplyError(f"unknown candidate id(s) {', '.join(unknown[:5])}; expected some of {', '.join(ids)}")
    return sorted(set(selected), key=ids.index)


def _check_coverage(value: Any, data: dict[str, Any]) -> dict[str, str]:
    ids = _ids(data, "statements")
    if not isinstance(value, dict):
        raise ReplyError("expected a JSON object")
    missing = [key for key in ids if key not in value]
    if missing:
        raise ReplyError(f"missing statement id(s) {', '.join(missing[:5])}")
    wrong = [key for key in ids if value[key] not in (COVERED, UNCOVERED)]
    if wrong:
        raise ReplyError(f'expected "covered" or "uncovered" for {", ".join(wrong[:5])}')
    return {key: value[key] for key in ids}


TASKS: dict[str, Task] = {
    "claims": Task(
        "claims", lambda data: _strings_schema("claims", 0, MAX_CLAIMS),
        lambda value, data: _string_list(value, "claims", 0, MAX_CLAIMS),
        lambda data: {"limit": str(MAX_CLAIMS)},
        lambda data: 40 + 2 * estimate_tokens(data.get("sentence", "")) + 24 * MAX_CLAIMS // 4),
    "aspects": Task(
        "aspects", lambda data: _strings_schema("aspects", 1, MAX_ASPECTS),
        lambda value, data: _string_list(value, "aspects", 1, MAX_ASPECTS),
        lambda data: {"limit": str(MAX_ASPECTS)},
        lambda data: 24 + 32 * MAX_ASPECTS),
    "choice": Task(
        "choice",
        lambda data: {"type": "object", "additionalProperties": False, "required": ["selected"],
                      "properties": {"selected": {"type": "array", "maxItems": len(data["candidates"]),
                                                  "items": {"type": "string", "enum": _ids(data, "candidates")}}}},
        _check_choice,
        lambda data: {"ids": ", ".join(f'"{key}"' for key in data["candidates"])},
        lambda data: 24 + 8 * len(data["candidates"])),
    "coverage": Task(
        "coverage",
        lambda data: {"type": "object", "additionalProperties": False, "required": _ids(data, "statements"),
                      "properties": {key: {"type": "string", "enum": [COVERED, UNCOVERED]}
                                     for key in data["statements"]}},
        _check_coverage,
        lambda data: {"ids": ", ".join(f'"{key}"' for key in data["statements"])},
        lambda data: 24 + 16 * len(data["statements"])),
}
"""The tasks by name (one template each in ``prompts/tasks-v1/``)."""


class TaskItem:
    """One request of a task: its data (quoted into the prompt) and the topic it belongs to (for the cache)."""

    __slots__ = ("request_id", "data")

    def __init__(self, request_id: str, data: dict[str, Any]):
        self.request_id = request_id
        self.data = data

    def key(self, task: str) -> JudgmentKey:
        """The cache key: the task and a hash of the exact data the prompt quotes."""
        digest = hashlib.sha256(json.dumps(self.data, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()
        return JudgmentKey(f"llm_task:{task}", self.request_id, digest[:32], None, None, None, None, None)


def build_messages(task: Task, data: dict[str, Any]) -> list[dict[str, str]]:
    """The conversation for one item: the task system prompt, then the template with the data quoted."""
    body = Template(_template(task.name, task.template_set)).substitute(data=quote_data(data), **task.fill(data))
    return [{"role": "system", "content": _template("system", task.template_set).strip()},
            {"role": "user", "content": body.strip()}]


def parse_json(content: str | None) -> Any:
    """The JSON value of a reply (a Markdown fence around it is tolerated); ``ReplyError`` otherwise."""
    if content is None or not content.strip():
        raise ReplyError("empty reply")
    text = content.strip()
    if text.startswith("```"):
        text = text.strip("`").removeprefix("json").strip()
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReplyError(f"not JSON ({exc.msg} at character {exc.pos})") from None


class LLMTasks:
    """Runs tasks through an ``LLMJudge``'s endpoint, with the judgment cache in front.

    ``run(task, items)`` returns one result per item in order (``None``: failed, reported in
    ``judge.usage()['failures']``); ``calls`` counts the items really sent to the model (cache misses).
    """

    def __init__(self, judge: Any, cache: Any = None, progress: Callable[[int], None] | None = None,
                 registry: Mapping[str, Task] = TASKS):
        self.judge = judge
        self.cache = cache
        self.progress = progress
        """Called with 1 as each model answer (or failure) arrives."""
        self.registry = registry
        """The tasks by name that ``run`` knows (``TASKS``, or another job's set such as ``nugget_tasks.TASKS``)."""
        self.calls_by_task: Counter[str] = Counter()
        self.failed_by_task: Counter[str] = Counter()
        """Items sent to the model, and those that failed, per task (``claims``, ``choice``, ...): one
        ``LLMTasks`` may serve several."""

    @property
    def calls(self) -> int:
        """Items sent to the model over every task (cache misses)."""
        return sum(self.calls_by_task.values())

    @property
    def failed(self) -> int:
        """Items that failed over every task."""
        return sum(self.failed_by_task.values())

    def identity(self, task: str) -> dict[str, Any]:
        """What changes a task's answers: model, task version, decoding (never the URL or the key)."""
        return {"backend": "llm-task", "task": task, "task_version": task_version(self.registry[task]), "model": self.judge.model,
                **self.judge.sampling()}

    def run(self, task_name: str, items: Sequence[TaskItem], ask: bool = True) -> list[Any]:
        """One result per item, in order (``None``: failed). The cache answers first; the model's results are
        committed to it as they arrive, before they are used: the read-through every judge is asked by
        (``asking.CachedJudge``), with one question per item (its ``key``), so a killed run keeps them.
        ``ask=False`` (a dry run): the cache alone answers, nothing is sent or written, and an item it does not
        hold is ``None`` without counting as a failure."""
        if not items:
            return []
        by_key: dict[JudgmentKey, TaskItem] = {}
        for item in items:
            by_key.setdefault(item.key(task_name), item)
        keys = [item.key(task_name) for item in items]
        found: dict[JudgmentKey, Any] = {}

        def answered(answers: list[tuple[Question, Verdict]], cached: bool) -> None:
            for question, verdict in answers:
                found[question.key] = json.loads(verdict.rationale or "null")

        def failed(question: Question, reason: str) -> None:
            if ask:
                self.failed_by_task[task_name] += 1

        asker = _TaskJudge(self, task_name, by_key)
        CachedJudge(asker, self.cache, ask=ask).ask([Question(key, "") for key in by_key], answered, failed)
        return [found.get(key) for key in keys]

    # -- the calls --------------------------------------------------------------------------------------
    def _body(self, task: Task, data: dict[str, Any], messages: list[dict[str, str]]) -> dict[str, Any]:
        judge = self.judge
        body: dict[str, Any] = {"model": judge.model, "messages": messages, **judge.sampling(),
                                "max_tokens": task.max_tokens(data)}
        schema = task.schema(data)
        if judge.response_format == "json_schema":
            body["response_format"] = {"type": "json_schema",
                                       "json_schema": {"name": task.name, "strict": True, "schema": schema}}
        elif judge.response_format == "json_object":
            body["response_format"] = {"type": "json_object", "schema": schema}
        return body

    async def _ask(self, client: Any, task: Task, data: dict[str, Any]) -> tuple[Any, str | None]:
        """The checked result for one item: one re-ask after an unusable reply, then ``CallFailed``."""
        messages = build_messages(task, data)
        estimated = estimate_tokens("\n".join(m["content"] for m in messages)) + task.max_tokens(data)
        for attempt in range(2):
            result = await client.chat(self._body(task, data, messages), task.name, estimated)
            try:
                return task.check(parse_json(result.content), data), result.model
            except ReplyError as exc:
                if attempt == 1:
                    raise CallFailed(f"unusable reply twice ({exc})") from None
                self.judge.counts.reasks += 1
                messages = messages + [
                    {"role": "assistant", "content": (result.content or "")[:2000]},
                    {"role": "user", "content": f"That reply is not usable: {exc}. Reply again with only the "
                                                "JSON object the task asks for."},
                ]
        raise AssertionError("unreachable")

    def stream(self, task: Task, items: Sequence[TaskItem]) -> Iterator[tuple[int, tuple[Any, str | None]]]:
        """Send every item's call now; yield ``(position, (result, server model))`` for each as it ends (``None``:
        failed). The calls left when the consumer stops (an interrupted run) are cancelled."""
        judge = self.judge
        if judge.base_url is None:
            raise OptionError("--judge-option", "the LLM tasks need the endpoint (--judge-option llm.base_url=http://HOST:PORT/v1)")
        loop, client = judge._session()

        async def one(item: TaskItem) -> tuple[Any, str | None]:
            try:
                return await self._ask(client, task, item.data)
            except AuthenticationFailed:
                raise  # every other call would be refused too: the run stops, saying why
            except CallFailed as exc:
                judge.counts.failed_calls += 1
                judge.counts.failed_items += 1
                judge._failures.append({"prompt": task.name, "questions": 1, "reason": exc.reason})
                return None, None

        futures = [asyncio.run_coroutine_threadsafe(one(item), loop) for item in items]
        return self._arrivals(futures)

    def _arrivals(self, futures: list[concurrent.futures.Future[tuple[Any, str | None]]]
                  ) -> Iterator[tuple[int, tuple[Any, str | None]]]:
        positions = {future: position for position, future in enumerate(futures)}
        pending = set(futures)
        try:
            while pending:
                # a stop asked while the calls are in flight is seen within a quarter of a second (``stopping``)
                done, pending = concurrent.futures.wait(pending, timeout=0.25,
                                                        return_when=concurrent.futures.FIRST_COMPLETED)
                if not done:
                    stopping.check()
                for future in sorted(done, key=positions.__getitem__):
                    refused = None if future.cancelled() else future.exception()
                    if isinstance(refused, AuthenticationFailed):  # every other call would be refused too
                        raise ArgueError(refused.reason)
                    result = future.result()
                    if result[0] is not None:
                        self.judge.counts.answered_items += 1
                    if self.progress is not None:  # in the caller's thread, as progress bars want
                        self.progress(1)
                    yield positions[future], result
        finally:
            for future in futures:
                future.cancel()  # only those not yet done: an interrupted run stops sending


class _TaskJudge(JudgeBackend):
    """One task of an ``LLMTasks`` as a judge for ``asking.CachedJudge``: a question per item (by its key), one
    model call each, the checked result kept as JSON in the verdict's rationale (as the cache has always held
    it: an older cache's rows are found)."""

    name = "llm-task"
    cost_unit = "model calls"

    def __init__(self, tasks: LLMTasks, task_name: str, items: dict[JudgmentKey, TaskItem]):
        self.tasks = tasks
        self.task_name = task_name
        self.items = items

    def identity(self) -> dict[str, Any]:
        return self.tasks.identity(self.task_name)

    def iter_answer_groups(self, questions: Sequence[Question]) -> Iterator[list[tuple[int, Verdict | None]]]:
        tasks = self.tasks
        items = [self.items[question.key] for question in questions]
        stream = tasks.stream(tasks.registry[self.task_name], items)
        tasks.calls_by_task[self.task_name] += len(items)
        tasks.failed_by_task[self.task_name] += 0  # listed beside the calls, 0 when none fails
        label = f"llm:{tasks.judge.model}"
        for position, (result, model) in stream:
            if result is None:
                yield [(position, None)]
                continue
            yield [(position, Verdict(True, label, rationale=json.dumps(result, ensure_ascii=False),
                                      provenance={**self.identity(), "server_model": model}))]
