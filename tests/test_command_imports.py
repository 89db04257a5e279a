"""A command parses its options, calls the API and renders what it returns: below ``api/`` it imports only what
renders (``tables``, ``views``, the HTML ``report``, ``progress`` bars) and the errors it raises for a bad option
(``errors``). Everything else below ``api/`` (file formats, the organizers' tools, the engines, the inputs) is the
API's to call. The commands' own option helpers name the vocabularies their options offer, each allowed below by
name and reason (``HELPERS``).

``below_api_imports`` reads the import statements of every module under ``argue_eval/commands/`` (at run time and
under ``TYPE_CHECKING``), resolves them as Python does, and names each import below ``api/`` that no rule allows.
"""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "argue_eval"

ABOVE = ("commands", "api", "cli", "workbench", "__init__", "click")
"""What a command may import whatever it is for: the API, the other commands, the CLI, the workbench it serves."""

ALLOWED: dict[str, str] = {
    "tables": "renders tables (text, TSV, Markdown, LaTeX, JSON)",
    "views": "renders score rows, comparisons and summaries for the terminal, and writes rendered text",
    "report": "renders the HTML report",
    "progress": "renders progress bars",
    "errors": "raises the error of a bad option (OptionError, InputError)",
}
"""Below ``api/``: what every command may import, and why."""

HELPERS: dict[str, dict[str, str]] = {
    "_options": {
        "argue.policies": "the policies' choices and defaults (DEFAULTS) of --relevance, --weights, ...",
        "judges.registry": "--judge checked before anything runs (parse_judge_spec)",
        "redact": "an endpoint's credentials held out of the option values (hold_credentials)",
        "inputs.profiles": "--judge-option profile=P.json: the option's name, the profile checked before anything runs",
        "judges.shards": "--shard K/N checked at the flag (parse_shard)",
        "search.devices": "--device checked at the flag (parse_device) and its default (DEFAULT_DEVICE)",
    },
    "_paths": {
        "reading": "what an input path option accepts (a pipe read once, gzip)",
        "writing": "what an output path option refuses (an unsafe or planted path)",
        "judges.cache": "the --cache default (DEFAULT_CACHE_PATH)",
    },
    "_choices": {
        "formats.base": "--kind (KINDS)",
        "validate": "validate's --warn/--error (CHECKS)",
        "tracks": "--track and its preset (TRACKS, get_track)",
        "model": "the question kinds, in their order (JUDGMENT_KINDS)",
        "formats.judgments": "--judgments-format (the judgment formats)",
        "organizer.nugget_tools": "the checks nuggets validate lists in its help (NUGGET_CHECKS)",
        "formats.scores": "score's --table-format (SCORE_TABLE_LAYOUTS)",
    },
}
"""Option helper module -> the modules below ``api/`` it may import, each with what for."""

PENDING: dict[tuple[str, str], str] = {}
"""(command module, imported module) -> who moves that import behind the API, and why it is not done here."""


def _resolve(package: str, module: str | None, level: int, name: str, root: Path) -> str:
    """The module ``from <module> import <name>`` (``level`` dots) imports, relative to ``root``'s package: the
    submodule ``module.name`` when there is one, else ``module`` (``__init__`` for the package itself)."""
    if level:
        parts = package.split(".")[: len(package.split(".")) - (level - 1)] if package else []
        base = ".".join([*parts, module] if module else parts)
    else:
        base = (module or "")[len("argue_eval."):] if (module or "").startswith("argue_eval.") else ""
    candidate = f"{base}.{name}" if base else name
    path = root.joinpath(*candidate.split("."))
    if path.with_suffix(".py").is_file() or (path / "__init__.py").is_file():
        return candidate
    return base or "__init__"


def imports_of(path: Path, root: Path) -> list[tuple[int, str]]:
    """``(line, module)`` of every import of ours (and of click) in ``path``."""
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "click" or alias.name.startswith("click."):
                    found.append((node.lineno, "click"))
                elif alias.name == "argue_eval" or alias.name.startswith("argue_eval."):
                    found.append((node.lineno, alias.name[len("argue_eval."):] or "__init__"))
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and (node.module or "").split(".")[0] == "click":
                found.append((node.lineno, "click"))
            elif node.level or (node.module or "").split(".")[0] == "argue_eval":
                found += [(node.lineno, _resolve(package, node.module, node.level, alias.name, root))
                          for alias in node.names]
    return found


def below_api_imports(root: Path = PACKAGE, pending: dict[tuple[str, str], str] | None = None) -> list[str]:
    """``commands/FILE:LINE: imports MODULE`` for each import below ``api/`` that no rule allows."""
    pending = PENDING if pending is None else pending
    found = []
    for path in sorted((root / "commands").rglob("*.py")):
        module = path.stem
        helper = HELPERS.get(module, {})
        for line, target in imports_of(path, root):
            layer = target.split(".")[0]
            if layer in ABOVE or layer in ALLOWED or target in helper or (module, target) in pending:
                continue
            found.append(f"commands/{path.relative_to(root / 'commands')}:{line}: imports {target}")
    return found


def test_commands_import_below_the_api_only_to_render_and_to_offer_options():
    assert below_api_imports() == []


def test_the_check_sees_each_import_below_the_api(tmp_path):
    """A command that reads a score table itself (absolute and relative imports, one under TYPE_CHECKING), one that
    uses an option helper's vocabulary through the helper (allowed), and a helper that imports past its rule."""
    fake = tmp_path / "argue_eval"
    for package in ("commands", "formats", "api", "organizer"):
        (fake / package).mkdir(parents=True)
        (fake / package / "__init__.py").write_text("")
    for name in ("formats/scores.py", "formats/base.py", "api/score.py", "organizer/qrels.py", "tables.py",
                 "errors.py"):
        (fake / name).write_text("")
    (fake / "commands" / "bad.py").write_text(
        "import click\nfrom typing import TYPE_CHECKING\nfrom ..api import score\nfrom ..tables import Table\n"
        "from ..formats.scores import read_scores\nimport argue_eval.organizer.qrels\n"
        "if TYPE_CHECKING:\n    from ..formats import read_runs\nfrom ..errors import OptionError\n"
        "from . import _choices\n")
    (fake / "commands" / "_choices.py").write_text("from ..formats.base import KINDS\nfrom ..organizer import qrels\n")
    assert below_api_imports(fake, pending={}) == [
        "commands/_choices.py:2: imports organizer.qrels",  # formats.base is the helper's to import; this is not
        "commands/bad.py:5: imports formats.scores",
        "commands/bad.py:6: imports organizer.qrels",
        "commands/bad.py:8: imports formats",
    ]
    assert below_api_imports(fake, pending={("bad", "formats.scores"): "", ("bad", "organizer.qrels"): "",
                                            ("bad", "formats"): "", ("_choices", "organizer.qrels"): ""}) == []


def test_every_pending_import_is_still_there():
    """An entry of ``PENDING`` whose import has moved behind the API must go, so the list only shrinks."""
    still = {(line.split("/")[1].split(".py")[0], line.rsplit(" ", 1)[1]) for line in below_api_imports(pending={})}
    assert sorted(set(PENDING) - still) == []


def test_every_helper_rule_is_used():
    """A helper's rule that no import needs any more is too wide: it must go."""
    used = {(path.stem, target) for path in (PACKAGE / "commands").glob("_*.py")
            for _, target in imports_of(path, PACKAGE)}
    assert sorted((helper, target) for helper, rules in HELPERS.items() for target in rules
                  if (helper, target) not in used) == []
