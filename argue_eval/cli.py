"""The ``argue-eval`` command group: a thin shell over the Python API.

Subcommands live in ``argue_eval.commands.<module>`` and are imported only when run, so ``argue-eval
--help`` stays fast and never loads pandas, ranx, torch or a JVM. Their one-line help in that listing is the
first line of each command's docstring, read from its source without importing it (``Registry.summary``). A
user error anywhere (``ArgueError``) is printed as one line on stderr with exit code 2.

Every command runs within ``stopping.handling_signals()``: Ctrl-C (SIGINT) or SIGTERM stops a long command at
its next step, what was answered committed to the cache, and the command says so and how to resume, with
exit code 130 or 143 (128 + the signal's number, as a shell reports a process killed by it).
"""
from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

import click

from . import __version__, stopping
from .errors import ArgueError, printable
from .registry import Registry

# name -> module:attribute; the one-line help in `argue-eval --help` is the first line of the target's docstring.
COMMANDS: Registry[click.Command] = Registry("command", {
    "inspect": "argue_eval.commands.inspect:command",
    "convert": "argue_eval.commands.convert:command",
    "validate": "argue_eval.commands.validate:command",
    "collection": "argue_eval.commands.collection:command",
    "score": "argue_eval.commands.score:command",
    "judge": "argue_eval.commands.judge:command",
    "judge calibrate": "argue_eval.commands.calibrate:command",
    "cache merge": "argue_eval.commands.cache:merge_command",
    "evaluate": "argue_eval.commands.evaluate:command",
    "icat": "argue_eval.commands.icat:command",
    "longrecall": "argue_eval.commands.longrecall:command",
    "comprehensiveness": "argue_eval.commands.comprehensiveness:command",
    "nuggetizer": "argue_eval.commands.nuggetizer:command",
    "assess": "argue_eval.commands.assess:command",
    "compare": "argue_eval.commands.compare:command",
    "report": "argue_eval.commands.report:command",
    "analyze": "argue_eval.commands.analyze:command",
    "agree": "argue_eval.commands.agree:command",
    "agree-judgments": "argue_eval.commands.agree:judgments_command",
    "requests": "argue_eval.commands.requests:command",
    "nuggets": "argue_eval.commands.nuggets:command",
    "pool": "argue_eval.commands.pool:command",
    "qrels": "argue_eval.commands.qrels:command",
    "retrieval": "argue_eval.commands.retrieval:command",
    "search": "argue_eval.commands.search:command",
    "doctor": "argue_eval.commands.doctor:command",
    "schema": "argue_eval.commands.schema:command",
}, option="COMMAND")


def _set_lenient(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        from .reading import set_lenient

        set_lenient(True)


def add_lenient_option(command: click.Command) -> None:
    """Give every reading command (and subcommand) ``--lenient``. The validators (``validate``, ``requests
    validate``, ``nuggets validate``) take it too, so that the advice their messages give can be followed: they
    then check a repaired file's content and report the repair itself as a problem of the file."""
    if any(p.name == "lenient" for p in command.params):
        return
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            add_lenient_option(sub)
        return
    command.params.append(click.Option(
        ["--lenient"], is_flag=True, expose_value=False, is_eager=True, callback=_set_lenient,
        help="Read JSON that is not JSON Lines: pretty-printed objects, objects concatenated without newlines, "
             "a JSON array of records (one warning per file says what was repaired).",
    ))


class _TerminalSafe:
    """A text stream that writes control characters out as ``\\xNN`` (``errors.printable``): an id, a file name
    or a server's message echoed in a note, a warning or an error never reaches the terminal as an escape
    sequence. Everything else (encoding, fileno, the binary ``buffer``) is the wrapped stream's."""

    def __init__(self, stream: Any):
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(printable(text) if isinstance(text, str) else text)
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextmanager
def terminal_safe_streams() -> Iterator[None]:
    """Within the block, stderr (messages only, always) and stdout when it is a terminal escape control
    characters; stdout into a pipe or file carries data and is left byte for byte."""
    saved = sys.stdout, sys.stderr
    sys.stderr = _TerminalSafe(sys.stderr)
    try:
        if sys.stdout.isatty():
            sys.stdout = _TerminalSafe(sys.stdout)
    except (AttributeError, ValueError):  # a closed or unusual stdout: left as it is
        pass
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


class LazyGroup(click.Group):
    """A click group that imports a subcommand's module only when that subcommand runs."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        with terminal_safe_streams():  # click's own usage errors, printed after the command, included
            return super().main(*args, **kwargs)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.commands:
            return self.commands[name]
        if name not in COMMANDS:
            return None
        command = COMMANDS.get(name)
        add_lenient_option(command)
        from .commands import add_path_check

        add_path_check(command)  # every command: no output on an input, no two outputs on one file
        self.commands[name] = command
        return command

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        """``judge calibrate ...`` is the command named by two words (``COMMANDS``' ``"judge calibrate"``) before it
        is ``judge`` with the arguments ``calibrate ...``: a command with run-file arguments cannot also be a
        group of subcommands, and ``judge --run ...`` stays as it was."""
        if len(args) >= 2 and f"{args[0]} {args[1]}" in COMMANDS:
            name = f"{args[0]} {args[1]}"
            return name, self.get_command(ctx, name), args[2:]
        if args and args[0] not in COMMANDS:  # "cache" alone: only its two-word commands exist
            named = sorted(name for name in COMMANDS if name.startswith(f"{args[0]} "))
            if named:
                ctx.fail(f"'{args[0]}' needs a subcommand: {', '.join(f'argue-eval {name}' for name in named)}")
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS.summary(name) if name in COMMANDS else self.commands[name].get_short_help_str())
                for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def invoke(self, ctx: click.Context):
        try:
            with stopping.handling_signals():
                return super().invoke(ctx)
        except stopping.Stopped as stop:
            click.echo(f"{stop}" if stop.detail else f"{stop}: {_GENERIC_RESUME}", err=True)
            _stopped.append(stop.exit_code)
            ctx.exit(stop.exit_code)
        except KeyboardInterrupt:  # Ctrl-C outside the loops that stop at their next step: reading, writing
            click.echo(f"\nstopped by SIGINT: {_GENERIC_RESUME}", err=True)
            _stopped.append(128 + int(signal.SIGINT))
            ctx.exit(128 + int(signal.SIGINT))
        except ArgueError as error:
            click.echo(str(error), err=True)
            ctx.exit(error.exit_code)


_stopped: list[int] = []
"""The exit code of a command a signal stopped in this process (``main`` then ends it at once)."""

_GENERIC_RESUME = ("no output was written (an output file is replaced whole or not at all); the answers committed "
                   "to the judgment cache, if there is one, are kept: run the same command again to resume")


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="argue-eval")
@click.option("--max-line-mib", type=click.IntRange(1, 1_048_576), default=64, show_default=True, metavar="N",
              help="Refuse input lines longer than N MiB (a file without line breaks, a decompression bomb).")
def cli(max_line_mib: int) -> None:
    """Evaluate report-generation runs (NeuCLIR, RAGTIME, TREC RAG) with ARGUE and friends.

    \b
    Typical session on the shipped sample track:
      argue-eval inspect runs/sample/careful.jsonl
      argue-eval validate runs/sample/careful.jsonl --requests topics/sample/requests.jsonl
    Run "argue-eval COMMAND --help" for a command's options and a worked example.
    """
    from .reading import forget_spooled, set_lenient, set_max_line_bytes

    set_max_line_bytes(max_line_mib * 1024 * 1024)
    set_lenient(False)  # a subcommand's --lenient turns it on (parsed after this)
    forget_spooled()  # pipes read by an earlier command in this process (tests) are not this command's
    _show_lossy_writes_as_warnings()


def _show_lossy_writes_as_warnings() -> None:
    """A writer's ``LossyWriteWarning`` ("the format cannot hold ...") reads ``warning: ...`` on stderr, like
    every other warning of the kit, from any command (not Python's ``file:line: Category: ...`` form), each
    time it is raised."""
    import warnings

    from .formats import LossyWriteWarning

    warnings.simplefilter("always", LossyWriteWarning)
    shown = warnings.showwarning
    if getattr(shown, "argue_eval", False):
        return

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int, file: TextIO | None = None,
             line: str | None = None) -> None:
        if issubclass(category, LossyWriteWarning):
            click.echo(f"warning: {message}", err=True)
        else:
            shown(message, category, filename, lineno, file, line)

    show.argue_eval = True  # type: ignore[attr-defined]
    warnings.showwarning = show


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point.

    A command that a signal stopped has committed and closed everything when it returns: the process then ends
    at once (``os._exit``), without the interpreter's teardown, which takes seconds once a model is loaded
    (4 s with torch and sentence-transformers on a loaded machine): stopping when asked means within 2 s."""
    try:
        cli.main(args=argv, prog_name="argue-eval")
    except BrokenPipeError:  # e.g. "argue-eval inspect ... | head"
        sys.stderr.close()
        sys.exit(0)
    except SystemExit:
        if _stopped:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):  # a closed or broken stream: nothing more to say on it
                    pass
            os._exit(_stopped[-1])
        raise


if __name__ == "__main__":  # ``python -m argue_eval.cli ...`` (e.g. with -X importtime to audit start-up imports)
    main()
