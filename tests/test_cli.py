"""The command group itself: fast help that imports nothing heavy, and user errors as one line with exit 2."""
from __future__ import annotations

import inspect
import subprocess
import sys

from click.testing import CliRunner

from argue_eval.cli import COMMANDS, LazyGroup, cli
from argue_eval.errors import InputError


def test_help_lists_every_command():
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    for name in COMMANDS:
        assert name in result.output


def test_each_commands_short_help_is_its_docstrings_first_line():
    """One source of truth: the line ``argue-eval --help`` lists for a command is the first line of the help the
    command itself shows (its docstring), a whole sentence followed by a blank line, and the listing shows it."""
    listing = "".join(CliRunner().invoke(cli, ["--help"]).output.split())  # wrapped anywhere, even at a hyphen
    for name in COMMANDS:
        help_text = inspect.cleandoc(COMMANDS.get(name).help or "")
        first, _, rest = help_text.partition("\n")
        assert COMMANDS.summary(name) == first, name
        assert first.endswith(".") and (not rest or rest.startswith("\n")), f"{name}: {first!r} runs on"
        assert "".join(f"{name} {first}".split()) in listing, name


def test_help_does_not_import_heavy_modules():
    code = (
        "import sys; from argue_eval.cli import cli; from click.testing import CliRunner;"
        "CliRunner().invoke(cli, ['--help']);"
        "heavy = [m for m in ('torch', 'ranx', 'pyserini', 'pandas', 'numba', 'transformers') if m in sys.modules];"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


def test_user_error_is_one_line_with_exit_code_2():
    group = LazyGroup()

    @group.command()
    def broken() -> None:
        raise InputError("runs/x.jsonl", 3, "sentences[0].citations", "expected a list of document ids")

    result = CliRunner().invoke(group, ["broken"])
    assert result.exit_code == 2
    assert result.output.strip() == "runs/x.jsonl:3: sentences[0].citations: expected a list of document ids"
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_unknown_command_is_a_usage_error():
    result = CliRunner().invoke(cli, ["no-such-command"])
    assert result.exit_code == 2
    assert "No such command 'no-such-command'" in result.output
