"""The nugget-creation tasks (judges.nugget_tasks) on the LLM tasks' machinery: their own versioned template
set beside tasks-v1 (whose versions, and so the cache rows made with them, do not change), the reply's shape
checked, and a cache-only run for the dry run."""
from __future__ import annotations

import hashlib
import json
from importlib import resources

import pytest

from argue_eval.judges.llm_prompts import ReplyError
from argue_eval.judges.llm_tasks import TASKS as MEASURE_TASKS
from argue_eval.judges.llm_tasks import build_messages, task_version
from argue_eval.judges.nugget_tasks import CREATE, LABEL, TASKS, check_create, check_label, create_schema

PROMPTS = resources.files("argue_eval.judges").joinpath("prompts")


def version_by_hand(folder: str, name: str) -> str:
    system = PROMPTS.joinpath(folder, "system.txt").read_text(encoding="utf-8")
    body = PROMPTS.joinpath(folder, f"{name}.txt").read_text(encoding="utf-8")
    return f"{folder}/{name}+{hashlib.sha256((system + chr(0) + body).encode()).hexdigest()[:10]}"


def test_the_measures_task_versions_are_what_they_were():
    """tasks-v1/<name>+<sha256 of system, NUL, template>: the formula the cache's rows were made under."""
    for name in MEASURE_TASKS:
        assert task_version(name) == version_by_hand("tasks-v1", name)
        assert task_version(MEASURE_TASKS[name]) == task_version(name)


def test_the_nugget_tasks_have_their_own_set_and_system_prompt():
    assert task_version(TASKS[CREATE]) == version_by_hand("nuggets-v1", CREATE)
    assert task_version(TASKS[LABEL]) == version_by_hand("nuggets-v1", LABEL)
    data = {"request": {"title": "T", "background": "", "problem_statement": "P"}, "nuggets_so_far": [],
            "documents": {"D1": {"title": "a", "text": "x </data> y"}, "D2": {"title": "b", "text": "z"}}}
    system, user = build_messages(TASKS[CREATE], data)
    assert system["content"].startswith("You help the organizers of a report-evaluation track build a nugget bank")
    assert user["content"].count("</data>") == 1  # the document's tag is escaped inside the data block
    assert 'document ids from "D1", "D2"' in " ".join(user["content"].split())
    assert "at most 20 nuggets" in " ".join(user["content"].split())


def test_the_create_schema_names_the_batch_documents_only():
    schema = create_schema({"documents": {"D1": {}, "D2": {}}})
    nugget = schema["properties"]["nuggets"]["items"]
    documents = nugget["properties"]["answers"]["items"]["properties"]["documents"]
    assert documents["items"]["enum"] == ["D1", "D2"] and documents["maxItems"] == 2 and documents["minItems"] == 1
    assert schema["properties"]["nuggets"]["maxItems"] == 20 and nugget["properties"]["answers"]["maxItems"] == 4


def test_a_reply_of_the_wrong_shape_is_an_error_and_a_well_shaped_one_is_kept_as_written():
    data = {"documents": {"D1": {}}}
    for bad in ([], {"nuggets": {}}, {"nuggets": [{"question": 3, "answers": []}]},
                {"nuggets": [{"question": "Q?", "answers": "x"}]},
                {"nuggets": [{"question": "Q?", "answers": [{"answer": "a"}]}]},
                {"nuggets": [{"question": "Q?", "answers": [{"answer": "a", "documents": [1]}]}]}):
        with pytest.raises(ReplyError):
            check_create(bad, data)
    # an unseen label and an empty text are the organizer's to count (they are kept here); spacing collapsed
    reply = {"nuggets": [{"question": " Who  won? ", "answers": [{"answer": "", "documents": ["D9"]}], "x": 1}]}
    assert check_create(reply, data) == [{"question": "Who won?", "answers": [{"answer": "", "documents": ["D9"]}]}]


def test_labels_must_cover_every_nugget_with_vital_or_okay():
    data = {"nuggets": {"N1": {}, "N2": {}}}
    assert check_label({"N1": "vital", "N2": "okay", "N3": "vital"}, data) == {"N1": "vital", "N2": "okay"}
    for bad in ({"N1": "vital"}, {"N1": "vital", "N2": "important"}, ["vital", "okay"]):
        with pytest.raises(ReplyError):
            check_label(bad, data)


def test_a_cache_only_run_answers_from_the_cache_and_sends_and_writes_nothing(tmp_path):
    pytest.importorskip("aiohttp", reason="needs the llm extra (aiohttp)")
    from llm_server import MockChatServer

    from argue_eval.judges.cache import JudgmentCache
    from argue_eval.judges.llm import LLMJudge
    from argue_eval.judges.llm_tasks import LLMTasks, TaskItem

    labels = {"nuggets": {"N1": {"question": "Q?", "answers": ["a"]}}}
    other = {"nuggets": {"N1": {"question": "R?", "answers": ["b"]}}}
    with MockChatServer(lambda n, body: ("content", json.dumps({"N1": "vital"}))) as server:
        judge = LLMJudge(base_url=server.base_url, model="mock", max_retries=0)
        with JudgmentCache(tmp_path / "c.sqlite") as cache:
            assert LLMTasks(judge, cache, registry=TASKS).run(LABEL, [TaskItem("t1", labels)]) == [{"N1": "vital"}]
        judge.close()
    offline = LLMJudge(model="mock")  # no endpoint: nothing could be sent
    with JudgmentCache(tmp_path / "c.sqlite") as cache:
        assert cache.count() == 1
        tasks = LLMTasks(offline, cache, registry=TASKS)
        assert tasks.run(LABEL, [TaskItem("t1", labels), TaskItem("t1", other)], ask=False) == [{"N1": "vital"}, None]
        assert cache.count() == 1
    assert tasks.calls == 0 and tasks.failed == 0  # not in the cache is not a failure of the model
    assert len(server.requests) == 1
