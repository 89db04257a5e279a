"""One spelling of the run files everywhere (issue 34 item 6): ``--run`` is repeatable and takes one or more files
(``--run A B``, a shell glob's expansion) in every command that reads runs; ``--runs``, which ``nuggets create`` and
``pool`` had, is the same option, kept hidden so old scripts still work; ``requests validate --track``."""
from __future__ import annotations

import json
from pathlib import Path

import click
from helpers import leaf_commands
from helpers import run_cli as run

A, B = "runs/sample/careful.jsonl", "runs/sample/hallucinating.jsonl"




def test_every_run_option_is_repeatable_and_none_is_spelled_runs_in_the_help():
    """Each command's ``--run`` is repeatable; a visible ``--runs`` is only report's filter of run ids (RUN,RUN),
    which names no file."""
    for path, command in leaf_commands():
        for param in command.params:
            if "--run" in param.opts:
                assert isinstance(param, click.Option) and param.multiple, path
            if "--runs" in param.opts and not getattr(param, "hidden", False):
                assert (path, param.metavar) == ("report", "RUN,RUN")


def test_assess_init_takes_several_runs_after_one_run(sample_track):
    args = ("assess", "init", "--requests", "topics/sample/requests.jsonl", "--collection",
            "topics/sample/collection.jsonl")
    one = json.loads(run(*args, "--db", "a.sqlite", "--run", A, B, "--json").stdout)
    two = json.loads(run(*args, "--db", "b.sqlite", "--run", A, "--run", B, "--json").stdout)
    assert one["counts"]["reports_added"] == two["counts"]["reports_added"] == 16  # 8 topics, 2 runs


def test_nuggets_create_takes_run_and_keeps_runs_as_a_hidden_alias(sample_track):
    run("pool", A, B, "--depth", "5", "-o", "pool.qrels")
    args = ("nuggets", "create", "--requests", "topics/sample/requests.jsonl", "--llm-model", "m", "--dry-run",
            "--json", "--no-cache", "--depth", "5")
    plans = [json.loads(run(*args, *given).stdout) for given in
             (("--run", A, B), ("--run", A, "--run", B), ("--runs", A, "--runs", B), ("--runs", A, B))]
    assert plans[0] == plans[1] == plans[2] == plans[3]
    pooled = len(Path("pool.qrels").read_text().splitlines())
    assert sum(topic["documents"] for topic in plans[0]["topics"]) == pooled == 52  # the pool command's, depth 5
    assert "--runs" not in run("nuggets", "create", "--help").stdout
    message = run("nuggets", "create", "--requests", "topics/sample/requests.jsonl", "--llm-model", "m",
                  "--dry-run", code=2).stderr
    assert "--pool POOL (the pool command's output) or --run RUN..." in message


def test_pool_and_validate_take_run_as_their_arguments(sample_track):
    for given in ((A, B), ("--run", A, B), ("--run", A, "--run", B), ("--runs", A, "--runs", B)):
        run("pool", *given, "--depth", "5", "-o", "pool.qrels")
        assert len(Path("pool.qrels").read_text().splitlines()) == 52
    for given in ((A, B), ("--run", A, B), ("--run", A, "--run", B)):
        shown = run("validate", *given, "--requests", "topics/sample/requests.jsonl").stdout
        assert shown.strip() == "0 errors, 0 warnings, 16 reports checked in 2 run files"
    assert "--run: give at least one run file" in run("validate", "--requests", "topics/sample/requests.jsonl",
                                                      code=2).stderr


def test_requests_validate_checks_the_track(sample_track):
    shown = run("requests", "validate", "topics/sample/requests.jsonl", "--track", "neuclir24").stdout.splitlines()
    # s04 (line 4) is the one sample request whose limit is in words; NeuCLIR 2024 counts characters
    assert shown == ["topics/sample/requests.jsonl:4: limit_unit: warning: the limit is in words, but neuclir24 "
                     "counts chars (validate holds the reports to the request's own limit and unit: check it is the "
                     "track's)"]
    assert run("requests", "validate", "topics/sample/requests.jsonl").stdout == (  # no track: no such warning
        "topics/sample/requests.jsonl: 8 requests, 0 errors, 0 warnings\n")
    lines = run("requests", "validate", "topics/sample/requests.jsonl", "--track", "rag24").stdout.splitlines()
    assert [line.split(":")[1] for line in lines] == ["1", "2", "3", "5", "6", "7", "8"]  # all in chars, but s04
    Path("zh.jsonl").write_text('{"request_id":"x","title":"t","background":"b","problem_statement":"p",'
                                '"collection_ids":["c"],"language":"zh"}\n', encoding="utf-8")
    # RAGTIME states a limit per request (the preset has none): a request without one is an error there
    errors = run("requests", "validate", "zh.jsonl", "--track", "ragtime26", code=1).stdout.splitlines()
    assert errors == ["zh.jsonl:1: limit: no length limit (expected a positive number of characters or words)",
                      "zh.jsonl:1: language: asks for reports in 'zh', but ragtime26 requires 'en' (validate --track "
                      "checks each report's language)"]
    # NeuCLIR 2024's 2,000 characters apply to a request that states no limit: only the language is wrong
    errors = run("requests", "validate", "zh.jsonl", "--track", "neuclir24", code=1).stdout.splitlines()
    assert [line.split(": ")[1] for line in errors] == ["language"]
    assert run("requests", "validate", "zh.jsonl", "--track", "nope", code=2).stderr.count("'nope' is not one of")
