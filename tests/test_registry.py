"""The one registry helper (argue_eval/registry.py) and the four registries it serves: commands, judges, measure
families and format modules."""
from __future__ import annotations

import subprocess
import sys

import pytest

from argue_eval.errors import OptionError
from argue_eval.registry import Registry, docstring_first_line


def test_names_in_order_targets_summaries_and_lazy_get():
    """A summary is the first line of the target's docstring (``OptionError``'s, ``read_scores``'); a constant
    has none, nor a module that is not there."""
    registry: Registry[object] = Registry("widget", {
        "b": "argue_eval.model:ALL_TOPICS",
        "a": "argue_eval.errors:OptionError",
        "s": "argue_eval.formats.scores:read_scores",
        "gone": "argue_eval.not_a_module:thing",
    }, option="--widget")
    assert list(registry) == registry.names() == ["b", "a", "s", "gone"] and len(registry) == 4
    assert "a" in registry and "c" not in registry
    assert registry.target("b") == "argue_eval.model:ALL_TOPICS"
    assert [registry.summary(name) for name in registry] == [
        "", "A bad value for an option, or a name that no registry knows (a judge, a measure family, a test, a track).",
        "Records of one score table, its format detected from its content unless ``format`` names it.", ""]
    assert registry.get("a") is OptionError


SOURCE = '''import click


@click.command()
@click.option("--x", callback=lambda c, p, v: v)
def command(
    x: dict[str, int] = {"a": 1},
    y=lambda: 2,
) -> None:
    # a comment first
    """Score things:
    the rest.

    More."""


class Thing(Base):
    \'\'\'  One line.  \'\'\'


async def fetch():
    r"""
    Fetch it.
    """


def bare():
    return 1


class Outer:
    def inner(self):
        """Inner."""
'''


def test_a_summary_is_read_from_the_source_without_importing_it():
    """The docstring's first line after a signature over several lines (colons, brackets and a lambda inside the
    parentheses), of a class, of an async function; none for a body that starts with code, or a name not defined
    at the top level. ``COMMANDS.summary`` leaves the command's module unimported."""
    assert [docstring_first_line(SOURCE, name) for name in ("command", "Thing", "fetch", "bare", "inner", "nope")] \
        == ["Score things:", "One line.", "Fetch it.", "", "", ""]
    code = ("import sys; from argue_eval.cli import COMMANDS; "
            "print(COMMANDS.summary('score'), 'argue_eval.commands.score' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "Score runs with the ARGUE flowchart from existing judgments. False"


def test_an_unknown_name_is_an_option_error_listing_the_known_ones():
    registry: Registry[object] = Registry("widget", {"b": "argue_eval.model:Report", "a": "argue_eval.model:Request"},
                                          option="--widget")
    with pytest.raises(OptionError) as caught:
        registry.get("c")
    assert str(caught.value) == "--widget: unknown widget 'c'; known: b, a"
    with pytest.raises(OptionError, match="unknown widget 'c'"):
        registry.summary("c")


def test_available_names_the_present_modules_without_importing_them():
    targets = {"here": "argue_eval.measures.icat:family", "gone": "argue_eval.measures.not_a_module:family"}
    code = ("import sys; from argue_eval.registry import Registry; "
            f"r = Registry('widget', {targets!r}, option='--widget'); "
            "print(r.available(), 'argue_eval.measures.icat' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["['here']", "False"]


@pytest.mark.parametrize("target", ["argue_eval.model", "argue_eval.model:", ":Report", "argue_eval.model:not-a-name"])
def test_a_target_that_is_not_module_colon_attribute_is_refused_when_registered(target):
    with pytest.raises(ValueError, match=f"widget 'x': target {target!r} is not 'module:attribute'"):
        Registry("widget", {"x": target}, option="--widget")


def test_the_four_registries_are_registries_and_their_errors_name_their_option():
    from argue_eval.cli import COMMANDS
    from argue_eval.formats import MODULES
    from argue_eval.judges.registry import BACKENDS
    from argue_eval.measures import FAMILIES, get_family

    assert all(isinstance(registry, Registry) for registry in (COMMANDS, MODULES, BACKENDS, FAMILIES))
    assert COMMANDS.summary("score") == "Score runs with the ARGUE flowchart from existing judgments."
    assert BACKENDS.get("lexical").__name__ == "LexicalJudge"
    assert [spec.name for spec in MODULES.get("qrels")] == ["trec-qrels"]
    with pytest.raises(OptionError, match=r"^measure: unknown measure family 'bleu'; known: argue, icat, longrecall, "
                                          r"nuggetizer, comprehensiveness, retrieval$"):
        get_family("bleu")
