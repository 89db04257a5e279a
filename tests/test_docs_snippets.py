"""Every ```python snippet of docs/*.md and README.md runs, as written, on the shipped sample track.

Each snippet runs in a fresh folder holding a copy of the sample track (``runs/``, ``nuggets/``, ``topics/``,
``qrels/``: the folder a reader who cloned the repository is in), in this process, and must not raise. What
cannot run as written says so in an HTML comment on the lines right above its fence, and this test checks that
what the comment claims holds:

* ``<!-- snippet setup: argue-eval ... -->``: a file the snippet reads (a score table, a judge's judgments) is
  written by that command first (run here before the snippet; it must exit 0, and each file it writes must be
  one the snippet names).
* ``<!-- snippet extra NAME (MODULE): why -->``: the snippet needs the optional extra NAME; it is skipped where
  MODULE is missing (CI installs every extra and fails on a skip). NAME must be an extra of setup.cfg that
  installs MODULE.
* ``<!-- snippet excerpt [PATH] -->``: the snippet quotes the code (architecture.md's "where to add"); it is not
  run, but its lines must be in the file they say they are from, in order (``...`` leaves lines out, and a line
  ending in ``...`` is the beginning of the file's line). A comment line ``# argue_eval/x.py[, NAME]`` starts the
  part quoted from that file (NAME must be defined there); ``# tests/test_x.py::test_y`` names a test that must
  exist.
* ``<!-- snippet sketch: why -->``: code the docs imagine (a page, a stage the code does not have); it must
  compile, every name it uses must be defined in the package it sketches for, and it must not be in the code
  (once it is, it is an excerpt).
"""
from __future__ import annotations

import ast
import builtins
import configparser
import importlib.util
import re
import shlex
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import copy_sample_track, names_defined_in

REPO = Path(__file__).resolve().parent.parent
DOCS = (*sorted((REPO / "docs").glob("*.md")), REPO / "README.md")
FENCE = re.compile(r"^(?P<indent> *)```python[ \t]*\n(?P<code>.*?)^(?P=indent)```[ \t]*$", re.S | re.M)
MARKER = re.compile(r"^\s*<!-- snippet (?P<kind>[a-z]+)(?P<detail>.*?) -->\s*$")
KINDS = ("setup", "extra", "excerpt", "sketch")
OUTPUT_OPTIONS = ("-o", "--output", "--details", "--judgments-out", "--html")


@dataclass(frozen=True)
class Snippet:
    """One ```python fence: where it is, its code (dedented), and the markers above it as (kind, detail)."""

    doc: Path
    line: int
    code: str
    markers: tuple[tuple[str, str], ...]

    @property
    def id(self) -> str:
        return f"{self.doc.name}:{self.line}"

    def details(self, kind: str) -> list[str]:
        return [detail for marker, detail in self.markers if marker == kind]

    @property
    def runs(self) -> bool:
        return not self.details("excerpt") and not self.details("sketch")


def snippets_of(doc: Path) -> list[Snippet]:
    """The snippets of one Markdown file. A marker is a ``<!-- snippet ... -->`` line directly above the fence
    (or above another marker); a line that starts a marker but is not one is kept as kind ``?``."""
    text = doc.read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        markers: list[tuple[str, str]] = []
        for above in reversed(text[:match.start()].splitlines()):
            if not above.strip().startswith("<!-- snippet"):
                break
            parsed = MARKER.match(above)
            markers.insert(0, (parsed["kind"], parsed["detail"].lstrip(" :")) if parsed else ("?", above.strip()))
        found.append(Snippet(doc, line, textwrap.dedent(match["code"]), tuple(markers)))
    return found


def all_snippets() -> list[Snippet]:
    return [snippet for doc in DOCS for snippet in snippets_of(doc)]


def params(keep) -> list:
    return [pytest.param(snippet, id=snippet.id) for snippet in all_snippets() if keep(snippet)]


# --- what the markers claim -----------------------------------------------------------------------------------


def setup_outputs(command: str) -> list[str]:
    """The files a setup command writes: the values of its output options."""
    words = shlex.split(command)
    return [words[index + 1] for index, word in enumerate(words[:-1]) if word in OUTPUT_OPTIONS]


def marker_problems(snippet: Snippet, extras: dict[str, list[str]]) -> list[str]:
    """What is wrong with a snippet's markers: an unknown kind, a setup that is no command or writes a file the
    snippet does not name, an extra setup.cfg does not define (or that does not install the module named), an
    excerpt or a sketch marked as anything else too."""
    problems = []
    for kind, detail in snippet.markers:
        if kind not in KINDS:
            problems.append(f"unknown marker {kind!r} ({detail}); known: {', '.join(KINDS)}")
        elif kind == "setup":
            outputs = setup_outputs(detail) if detail.startswith("argue-eval ") else []
            if not outputs:
                problems.append(f"setup {detail!r} is no argue-eval command writing a file")
            problems += [f"setup writes {name}, which the snippet does not read" for name in outputs
                         if name not in snippet.code]
        elif kind == "extra":
            parsed = re.fullmatch(r"(?P<extra>[a-z]+) \((?P<module>[\w.]+)\): .+", detail)
            if parsed is None:
                problems.append(f"extra {detail!r} is not 'NAME (MODULE): why'")
            elif parsed["module"].split(".")[0] not in extras.get(parsed["extra"], ()):
                problems.append(f"setup.cfg has no extra {parsed['extra']!r} installing {parsed['module']}")
    if not snippet.runs and len(snippet.markers) > 1:
        problems.append("an excerpt or a sketch is not run: it takes no other marker")
    return problems


def setup_cfg_extras() -> dict[str, list[str]]:
    """Extra -> the modules its requirements install (a distribution's name with ``_`` for ``-``)."""
    config = configparser.ConfigParser()
    config.read(REPO / "setup.cfg")
    section = config["options.extras_require"]
    return {name: [re.split(r"[<>=!~\[; ]", line.strip())[0].replace("-", "_").lower()
                   for line in section[name].splitlines() if line.strip() and not line.strip().startswith("#")]
            for name in section}


def test_every_python_fence_is_a_snippet_and_every_marker_holds():
    """No fence escapes the test (one counted by a plain scan of the lines is one parsed), and each marker is a
    known kind whose claim holds."""
    for doc in DOCS:
        opened = sum(1 for line in doc.read_text(encoding="utf-8").splitlines() if re.fullmatch(r" *```python\s*", line))
        assert len(snippets_of(doc)) == opened, doc.name
    extras = setup_cfg_extras()
    problems = {snippet.id: found for snippet in all_snippets() if (found := marker_problems(snippet, extras))}
    assert problems == {}


def test_the_marker_checks_can_fail(tmp_path):
    doc = tmp_path / "x.md"
    doc.write_text(
        "Text.\n<!-- snippet setup: argue-eval score -o scores.tsv --details unread.jsonl -->\n"
        "<!-- snippet extra graph (networkx): the entailment graph -->\n```python\nread('scores.tsv')\n```\n\n"
        "<!-- snippet extra graf (networkx): a typo -->\n<!-- snippet exerpt -->\n<!-- snippet setup: ls -->\n"
        "```python\npass\n```\n\n<!-- snippet excerpt argue_eval/x.py -->\n<!-- snippet setup: argue-eval a -o b -->\n"
        "  ```python\n  b = 1\n  ```\n<!-- snippet broken\n```python\nx\n```\n",
        encoding="utf-8")
    first, second, third, fourth = snippets_of(doc)
    assert (first.line, first.code, second.line, third.line, third.code) == (4, "read('scores.tsv')\n", 11, 17, "b = 1\n")
    assert third.markers == (("excerpt", "argue_eval/x.py"), ("setup", "argue-eval a -o b"))
    assert fourth.markers == (("?", "<!-- snippet broken"),)
    extras = {"graph": ["networkx"]}
    assert [marker_problems(snippet, extras) for snippet in (first, second, third, fourth)] == [
        ["setup writes unread.jsonl, which the snippet does not read"],
        ["setup.cfg has no extra 'graf' installing networkx", "unknown marker 'exerpt' (); known: setup, extra, "
         "excerpt, sketch", "setup 'ls' is no argue-eval command writing a file"],
        ["an excerpt or a sketch is not run: it takes no other marker"],
        ["unknown marker '?' (<!-- snippet broken); known: setup, extra, excerpt, sketch"],
    ]
    assert setup_cfg_extras()["graph"] == ["networkx"] and "faiss_cpu" in setup_cfg_extras()["dense"]


# --- running ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("snippet", params(lambda snippet: snippet.runs))
def test_snippet_runs(snippet: Snippet, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    for detail in snippet.details("extra"):
        extra, module = re.match(r"(\S+) \(([\w.]+)\)", detail).groups()
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"needs the {extra} extra ({module} is not installed)")
    copy_sample_track(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))  # nothing a snippet writes lands in the user's home
    monkeypatch.setenv("ARGUE_EVAL_PROGRESS", "0")
    from argue_eval.cli import cli

    for command in snippet.details("setup"):
        result = CliRunner().invoke(cli, shlex.split(command)[1:], catch_exceptions=False)
        assert result.exit_code == 0, f"{snippet.id}: setup `{command}` exited {result.exit_code}:\n{result.output}"
    exec(compile(snippet.code, snippet.id, "exec"), {"__name__": "__snippet__"})  # noqa: S102  (our own docs)


# --- excerpts and sketches -----------------------------------------------------------------------------------------

HEADER = re.compile(r"#\s*(?:\d+\.\s*)?(?P<path>[\w/.-]+\.(?:py|md))(?:::(?P<test>\w+)|, (?P<name>\w+)(?:\(\))?|:.*)?")


def _normalized(line: str) -> str:
    return " ".join(line.split())


def parts(code: str, path: str | None = None) -> list[tuple[str | None, str, list[str]]]:
    """``(path, what, lines)`` per part, its lines as written: a header comment starts a part (``what`` is the
    test or the name it names)."""
    found: list[tuple[str | None, str, list[str]]] = [(path, "", [])]
    for line in code.splitlines():
        header = HEADER.fullmatch(line.strip())
        if header:
            found.append((header["path"], header["test"] or header["name"] or "", []))
        elif line.strip():
            found[-1][2].append(line)
    return [part for part in found if part[0] or part[2]]


def excerpt_problems(code: str, path: str | None = None, root: Path = REPO) -> list[str]:
    """Why the excerpt is not the code: a file that is not there, a name or test it does not define, a run of
    lines (between ``...``) not found contiguous and in order after the previous run."""
    problems = []
    for name, what, lines in parts(code, path):
        if name is None:
            problems.append(f"no file named for {lines[0].strip()!r}")
            continue
        file = root / name
        if not file.is_file():
            problems.append(f"{name}: no such file")
            continue
        if what and file.suffix == ".py" and what not in names_defined_in(file):
            problems.append(f"{name}: defines no {what}")
        text = [_normalized(line) for line in file.read_text(encoding="utf-8").splitlines() if line.strip()]
        runs: list[list[str]] = [[]]
        for line in map(_normalized, lines):
            if line == "...":
                runs.append([])
            else:
                runs[-1].append(line)
        start = 0
        for run in (run for run in runs if run):
            at = next((at for at in range(start, len(text) - len(run) + 1)
                       if all(_matches(want, text[at + offset]) for offset, want in enumerate(run))), None)
            if at is None:
                problems.append(f"{name}: not in the file (or not in this order):\n" + "\n".join(run))
                break
            start = at + len(run)
    return problems


def _matches(want: str, line: str) -> bool:
    """A quoted line is the file's line; one that ends in ``...`` (or ``...)``) is its beginning."""
    head, dots, _ = want.partition("...")
    return line == want or bool(dots and want.rstrip(")]} ").endswith("...") and line.startswith(head.rstrip()))


@pytest.mark.parametrize("snippet", params(lambda snippet: bool(snippet.details("excerpt"))))
def test_excerpt_is_the_code(snippet: Snippet):
    path = snippet.details("excerpt")[0] or None
    assert excerpt_problems(snippet.code, path) == []


def test_the_excerpt_check_can_fail(tmp_path):
    """Runs between ``...`` contiguous (blank lines aside) and in order; a line's beginning with ``...``; the named
    definition and test; a changed line, a missing file and a missing name are reported."""
    (tmp_path / "m.py").write_text("A = [\n    1,\n\n    2,\n]\n\n\ndef f(x, y):\n    return x\n", encoding="utf-8")
    (tmp_path / "test_m.py").write_text("def test_it():\n    pass\n", encoding="utf-8")
    good = "# m.py, A\nA = [\n  1,\n  2,\n...\ndef f(x, ...)\n# test_m.py::test_it\n"
    assert excerpt_problems(good, root=tmp_path) == []
    assert excerpt_problems("A = [\n    2,\n", "m.py", tmp_path) == ["m.py: not in the file (or not in this order):\nA = [\n2,"]
    assert excerpt_problems("def f(x, y):\n...\nA = [\n", "m.py", tmp_path) == [
        "m.py: not in the file (or not in this order):\nA = ["]
    assert excerpt_problems("# m.py, B\n# gone.py\nx\n# test_m.py::test_other\n", root=tmp_path) == [
        "m.py: defines no B", "gone.py: no such file", "test_m.py: defines no test_other"]


def sketch_problems(code: str, package: Path) -> list[str]:
    """Why the sketch is not a sketch: a part that does not compile, a name it uses that ``package`` (or Python)
    does not define, or every line of it already in the code."""
    known = set(dir(builtins)) | {name for path in package.rglob("*.py") for name in names_defined_in(path)}
    problems, trees = [], []
    for _, _, lines in parts(code):
        source = textwrap.dedent("\n".join(lines))
        try:
            trees.append(ast.parse(source))
        except SyntaxError as error:
            problems.append(f"does not compile: {error.msg} in\n{source}")
    bound = {node.name for tree in trees for node in ast.walk(tree)
             if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    bound |= {node.arg for tree in trees for node in ast.walk(tree) if isinstance(node, ast.arg)}
    used = {node.id for tree in trees for node in ast.walk(tree) if isinstance(node, ast.Name)}
    problems += [f"{package.name} defines no {name}" for name in sorted(used - bound - known)]
    if not excerpt_problems(code):
        problems.append("every line of it is in the code: make it an excerpt")
    return problems


@pytest.mark.parametrize("snippet", params(lambda snippet: bool(snippet.details("sketch"))))
def test_sketch_compiles_uses_real_names_and_is_not_the_code(snippet: Snippet):
    files = {name for name, _, _ in parts(snippet.code) if name}
    packages = {Path(name).parts[:2] for name in files}
    assert len(packages) == 1, f"{snippet.id}: a sketch names the files of one package ({sorted(files)})"
    assert sketch_problems(snippet.code, REPO.joinpath(*packages.pop())) == []


def test_the_sketch_check_can_fail(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "web.py").write_text("class View:\n    pass\n", encoding="utf-8")
    sketch = "# pkg/pages.py\nclass Page(View):\n    def get(self, visit):\n        return render(visit)\n"
    assert sketch_problems(sketch, tmp_path / "pkg") == ["pkg defines no render"]
    assert sketch_problems("# pkg/web.py\nclass View:\n", tmp_path / "pkg")[0].startswith("does not compile")
