"""``--quiet`` / ``--verbose`` on every command: one decorator, the same meaning everywhere."""
from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from argue_eval.cli import COMMANDS, cli

REPO = Path(__file__).resolve().parent.parent
REQUESTS = str(REPO / "topics" / "sample" / "requests.jsonl")
NUGGETS = str(REPO / "nuggets" / "sample" / "nuggets.jsonl")
RUN = str(REPO / "runs" / "sample" / "careful.jsonl")


def leaves(command: click.Command, path: str):
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from leaves(sub, f"{path} {name}")
    else:
        yield path, command


def test_every_command_and_subcommand_has_quiet_and_verbose():
    missing = []
    for name in COMMANDS:
        for path, command in leaves(cli.get_command(click.Context(cli), name), name):
            flags = {flag for param in command.params for flag in param.opts}
            if not {"--quiet", "--verbose"} <= flags:
                missing.append(path)
    assert missing == []


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_quiet_drops_notes_but_keeps_the_results(tmp_path):
    out = tmp_path / "n.jsonl"
    normal = run("convert", NUGGETS, "--to", "argue", "-o", str(out))
    assert normal.exit_code == 0
    assert re.search(r"-> .*n\.jsonl \(argue\): 8 records", normal.stderr)
    out.unlink()
    quiet = run("convert", NUGGETS, "--to", "argue", "-o", str(out), "--quiet")
    assert quiet.exit_code == 0 and quiet.stderr == ""
    assert out.read_text() == Path(NUGGETS).read_text()


def test_quiet_keeps_warnings_and_errors(tmp_path):
    result = run("nuggets", "validate", NUGGETS, "--requests", str(tmp_path / "absent.jsonl"), "-q")
    assert result.exit_code == 2
    assert "absent.jsonl" in result.stderr


def test_verbose_adds_timing_and_stays_off_stdout():
    result = run("inspect", RUN, "--verbose")
    assert result.exit_code == 0
    assert re.fullmatch(r"done in \d+\.\d\d s \(CPU \d+\.\d\d s, peak memory \d+ MiB\)\n", result.stderr)
    plain = run("inspect", RUN)
    assert result.stdout == plain.stdout and plain.stderr == ""


def test_quiet_and_verbose_together_are_a_usage_error():
    result = run("validate", RUN, "--quiet", "--verbose")
    assert result.exit_code == 2 and "exclude each other" in result.output


def test_score_keeps_its_own_meaning_of_quiet_and_verbose(tmp_path):
    judgments = str(REPO / "qrels" / "sample" / "judgments.jsonl")
    args = ["score", "--run", RUN, "--nuggets", NUGGETS, "--judgments", judgments, "-o", str(tmp_path / "s.tsv")]
    loud = run(*args, "--verbose")
    assert loud.exit_code == 0
    assert "careful" in loud.stdout and "done in" in loud.stderr
    quiet = run(*args, "--quiet")
    assert quiet.exit_code == 0 and quiet.stdout == "" and quiet.stderr == ""


@pytest.mark.parametrize("name", ["search"])
def test_a_command_whose_q_is_taken_keeps_it(name):
    command = cli.get_command(click.Context(cli), name)
    by_flag = {flag: param.name for param in command.params for flag in param.opts}
    assert by_flag["-q"] == "queries" and by_flag["--quiet"] == "quiet"


def test_validate_verbose_counts_per_file_and_names_the_preset():
    formats = REPO / "tests" / "fixtures" / "formats"
    rag24, rag25 = str(formats / "run.rag24.jsonl"), str(formats / "run.rag25.jsonl")
    result = run("validate", rag24, rag25, "--track", "rag24", "--verbose")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0] == ("track rag24 (TREC RAG 2024): format rag24, length limit 400 words unless a request states "
                        "one, at most 20 references, 6 required fields")
    assert lines[1:3] == [f"{rag24}: 0 error(s), 1 warning(s)", f"{rag25}: 1 error(s), 0 warning(s)"]
    assert lines[3].startswith("done in ")
    quiet = run("validate", rag24, rag25, "--track", "rag24", "--quiet")
    assert quiet.stderr == "" and quiet.stdout == result.stdout  # the problems and the summary are the results
