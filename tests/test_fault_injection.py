"""Fault injection: every command x every hostile input class (issue 13), and every option x hostile values (issue 23).

Each case puts one hostile file in one input slot of one command, runs it in-process (click's CliRunner) and
asserts what a user must get: exit status 1 or 2, no traceback, no escape sequence echoed, and a message that
names the file (with the line, for faults that sit on a line). A few classes describe input that is still valid
(CRLF line ends, duplicate JSON keys, numeric ids, a BOM where the format tolerates one): there, exit 0 is
allowed too, but never a traceback, and a refusal must still name the file.
"""
from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_RUN = ROOT / "runs" / "sample" / "careful.jsonl"
SAMPLE_RANKED = ROOT / "runs" / "sample" / "ranked" / "bm25.trec"
NUGGETS = ROOT / "nuggets" / "sample" / "nuggets.jsonl"
REQUESTS = ROOT / "topics" / "sample" / "requests.jsonl"
JUDGMENTS = ROOT / "qrels" / "sample" / "judgments.jsonl"
QRELS = ROOT / "qrels" / "sample" / "qrels.trec"
SCORES = ROOT / "tests" / "fixtures" / "stats" / "scores.tsv"
COLLECTION = ROOT / "topics" / "sample" / "collection.jsonl"


def _head(path: Path, lines: int) -> bytes:
    return b"".join(path.read_bytes().splitlines(keepends=True)[:lines])


# Base content of each input slot: small valid files of each kind (what the hostile classes then break).
BASES: dict[str, tuple[str, Callable[[], bytes]]] = {
    "run": (".jsonl", lambda: _head(SAMPLE_RUN, 2)),
    "requests": (".jsonl", lambda: REQUESTS.read_bytes()),
    "nuggets": (".jsonl", lambda: _head(NUGGETS, 2)),
    "judgments": (".jsonl", lambda: _head(JUDGMENTS, 40)),
    "ranked": (".trec", lambda: _head(SAMPLE_RANKED, 20)),
    "qrels": (".trec", lambda: _head(QRELS, 20)),
    "scores": (".tsv", lambda: SCORES.read_bytes()),
    "collection": (".jsonl", lambda: _head(ROOT / "topics" / "sample" / "collection.jsonl", 3)),
    "assignments": (".jsonl", lambda: b'{"qid": "s01", "run_id": "A", "nuggets": [{"text": "t", "importance": '
                                      b'"vital", "assignment": "support"}]}\n'),
    "context": (".jsonl", lambda: b'{"request_id": "s01", "statements": ["Ridgefield water was contaminated."]}\n'),
}
JSON_SLOTS = {"run", "requests", "nuggets", "judgments", "collection", "assignments", "context"}

# A line each text (non-JSON) slot reads as one record, with a number the class can spoil.
TEXT_LINE = {"ranked": "s01 Q0 nw-0001 1 {} bm25", "qrels": "s01 0 nw-0001 {}", "scores": "sysA\tt1\tf1\t{}"}


def _insert_mid_first_line(data: bytes, insert: bytes) -> bytes:
    cut = data.index(b"\n") // 2
    return data[:cut] + insert + data[cut:]


def _replace_first_id(slot: str, data: bytes) -> bytes:
    for pattern in (rb'"(request_id|topic_id|doc_id|run_id|qid)": ?"([^"]+)"',):
        match = re.search(pattern, data)
        if match:
            return data[: match.start()] + b'"' + match.group(1) + b'": 101' + data[match.end():]
    return data  # text formats have no id types: the file stays valid


def _escape_in_first_id(slot: str, data: bytes) -> bytes:
    """The first id with a terminal escape sequence (OSC: retitle the window) in it: JSON-escaped in JSON files,
    raw in text ones."""
    if slot in JSON_SLOTS:
        match = re.search(rb'"(request_id|topic_id|doc_id|run_id|qid)": ?"([^"]+)"', data)
        assert match is not None
        return data[: match.end() - 1] + b"\\u001b]0;pwned\\u0007" + data[match.end() - 1:]
    lines = data.split(b"\n")
    row = 1 if slot == "scores" else 0  # a score table's first line is its header
    first, *others = lines[row].split(b"\t" if slot == "scores" else b" ")
    lines[row] = (b"\t" if slot == "scores" else b" ").join([first + b"\x1b]0;pwned\x07", *others])
    return b"\n".join(lines)


def _spoiled_number(slot: str, data: bytes, value: str) -> bytes:
    if slot in JSON_SLOTS:
        first = data.split(b"\n", 1)[0]
        return first[:-1] + f', "x_number": {value}}}'.encode() + b"\n" + data
    return data + TEXT_LINE[slot].format(value).encode() + b"\n"


# class -> (how to make the file's content from the slot and its base content; must it be refused?; located?)
CLASSES: dict[str, tuple[Callable[[str, bytes], bytes] | None, bool, bool]] = {
    "truncated": (lambda slot, data: data[: data.index(b"\n") // 2], True, True),
    "bom": (lambda slot, data: b"\xef\xbb\xbf" + data, False, True),
    "invalid_utf8": (lambda slot, data: _insert_mid_first_line(data, b"\xff\xfe"), True, True),
    "nul": (lambda slot, data: _insert_mid_first_line(data, b"\x00"), True, True),
    "crlf": (lambda slot, data: data.replace(b"\n", b"\r\n"), False, True),
    "huge_line": (lambda slot, data: data + b"y" * (1024 * 1024 + 10), True, True),
    "deep_nesting": (lambda slot, data: data + b"[" * 5000 + b"]" * 5000 + b"\n", True, True),
    "duplicate_keys": (lambda slot, data: (data.replace(b"{", b'{"request_id": "s99", ', 1) if slot in JSON_SLOTS
                                          else data + data.split(b"\n", 1)[0] + b"\n"), False, True),
    "numeric_ids": (_replace_first_id, False, True),
    "escape_in_id": (_escape_in_first_id, True, True),
    "nan_infinity": (lambda slot, data: _spoiled_number(slot, data, "NaN" if slot in JSON_SLOTS else "nan"), True, True),
    "out_of_range": (lambda slot, data: _spoiled_number(slot, data, "1e400" if slot != "qrels" else "9" * 26), True, True),
    "empty": (lambda slot, data: b"", True, False),
    "directory": (None, True, False),
    "dangling_symlink": (None, True, False),
    "corrupt_gzip": (None, True, False),
    "wrong_format": (None, True, False),
}


def _out(tmp: Path, name: str = "out") -> str:
    return str(tmp / name)


# command -> (slot, argument builder(hostile path, tmp dir, format option or None), takes --format?)
Builder = Callable[[str, Path, "list[str]"], list[str]]
COMMANDS: dict[str, tuple[str, Builder, str | None]] = {
    "inspect": ("run", lambda p, t, f: ["inspect", p, *f], "--format"),
    "convert": ("run", lambda p, t, f: ["convert", p, "--to", "argue", "-o", _out(t), *f], "--format"),
    "validate": ("run", lambda p, t, f: ["validate", p, "--requests", str(REQUESTS), *f], "--format"),
    "validate --requests": ("requests", lambda p, t, f: ["validate", str(SAMPLE_RUN), "--requests", p, *f],
                            "--requests-format"),
    "score --run": ("run", lambda p, t, f: ["score", "--run", p, "--nuggets", str(NUGGETS), "--judgments",
                                            str(JUDGMENTS), "-o", _out(t)], None),
    "score --nuggets": ("nuggets", lambda p, t, f: ["score", "--run", str(SAMPLE_RUN), "--nuggets", p, "--judgments",
                                                    str(JUDGMENTS), "-o", _out(t)], None),
    "score --judgments": ("judgments", lambda p, t, f: ["score", "--run", str(SAMPLE_RUN), "--nuggets", str(NUGGETS),
                                                        "--judgments", p, "-o", _out(t)], None),
    "score --requests": ("requests", lambda p, t, f: ["score", "--run", str(SAMPLE_RUN), "--nuggets", str(NUGGETS),
                                                      "--judgments", str(JUDGMENTS), "--requests", p, "-o", _out(t)], None),
    "assess export": ("run", lambda p, t, f: ["assess", "export", "--run", p, "--nuggets", str(NUGGETS),
                                              "-o", _out(t, "pool.csv")], None),
    "compare": ("scores", lambda p, t, f: ["compare", p, "-m", "f1", "--resamples", "50", *f], "--scores-format"),
    "agree": ("scores", lambda p, t, f: ["agree", p, str(SCORES), "--metric", "f1"], None),
    "agree-judgments": ("judgments", lambda p, t, f: ["agree-judgments", p, str(JUDGMENTS)], None),
    "requests validate": ("requests", lambda p, t, f: ["requests", "validate", p, *f], "--format"),
    "requests export": ("requests", lambda p, t, f: ["requests", "export", p, "-o", _out(t), *f], "--format"),
    "nuggets validate": ("nuggets", lambda p, t, f: ["nuggets", "validate", p, *f], "--format"),
    "nuggets stats": ("nuggets", lambda p, t, f: ["nuggets", "stats", p, *f], "--format"),
    "pool": ("ranked", lambda p, t, f: ["pool", p, "-o", _out(t), *f], "--format"),
    "pool --qrels": ("qrels", lambda p, t, f: ["pool", str(SAMPLE_RANKED), "--strategy", "mtf", "--budget", "5",
                                                "--qrels", p, "-o", _out(t)], None),
    "qrels build": ("qrels", lambda p, t, f: ["qrels", "build", p, "-o", _out(t)], None),
    "qrels stats": ("qrels", lambda p, t, f: ["qrels", "stats", p], None),
    "qrels merge": ("qrels", lambda p, t, f: ["qrels", "merge", p, str(QRELS), "-o", _out(t)], None),
    "qrels from-nuggets": ("nuggets", lambda p, t, f: ["qrels", "from-nuggets", p, "-o", _out(t), *f], "--format"),
    "retrieval --qrels": ("qrels", lambda p, t, f: ["retrieval", "--qrels", p, str(SAMPLE_RANKED)], None),
    "retrieval --run": ("ranked", lambda p, t, f: ["retrieval", "--qrels", str(QRELS), p], None),
    "collection info": ("collection", lambda p, t, f: ["collection", "info", p], None),
    "judge --run": ("run", lambda p, t, f: ["judge", "--run", p, "--nuggets", str(NUGGETS), "--collection",
                                            str(COLLECTION), "--no-cache", "-q", "-o", _out(t)], None),
    "judge --collection": ("collection", lambda p, t, f: ["judge", "--run", str(SAMPLE_RUN), "--nuggets", str(NUGGETS),
                                                          "--collection", p, "--no-cache", "-q", "-o", _out(t)], None),
    "icat --run": ("run", lambda p, t, f: ["icat", "--run", p, "--nuggets", str(NUGGETS), "--collection",
                                           str(COLLECTION), "-o", _out(t)], None),
    "longrecall --nuggets": ("nuggets", lambda p, t, f: ["longrecall", "--run", str(SAMPLE_RUN), "--nuggets", p,
                                                         "-o", _out(t)], None),
    "report --scores": ("scores", lambda p, t, f: ["report", "--scores", p, "-o", _out(t, "r.html")], None),
    "evaluate --nuggets": ("nuggets", lambda p, t, f: ["evaluate", "--run", str(SAMPLE_RUN), "--nuggets", p,
                                                       "--collection", str(COLLECTION), "--no-cache", "-q",
                                                       "-o", _out(t)], None),
    "nuggetizer": ("assignments", lambda p, t, f: ["nuggetizer", p, "-q", "-o", _out(t)], None),
    "comprehensiveness --context": ("context", lambda p, t, f: ["comprehensiveness", "--run", str(SAMPLE_RUN),
                                                               "--context", p, "--no-cache", "-q", "-o", _out(t)],
                                    None),
    "icat --collection": ("collection", lambda p, t, f: ["icat", "--run", str(SAMPLE_RUN), "--nuggets", str(NUGGETS),
                                                         "--collection", p, "--no-cache", "-q", "-o", _out(t)], None),
}
WRONG_FORMAT = {"run": "rag24", "requests": "rag24", "nuggets": "nuggetizer", "scores": "trec_eval", "ranked": "trec-qrels"}


def _make(slot: str, fault: str, folder: Path) -> Path:
    suffix, base = BASES[slot]
    path = folder / f"hostile-{fault}{suffix}"
    if fault == "directory":
        path.mkdir()
    elif fault == "dangling_symlink":
        path.symlink_to(folder / "nowhere.jsonl")
    elif fault == "corrupt_gzip":
        path = folder / f"hostile{suffix}.gz"
        path.write_bytes(b"\x1f\x8b\x08\x00" + os.urandom(0) + b"not really gzip data at all\n" * 3)
    elif fault == "wrong_format":
        path.write_bytes(base())
    else:
        make = CLASSES[fault][0]
        assert make is not None
        path.write_bytes(make(slot, base()))
    return path


# Valid input (the tolerated classes) makes these commands compute for real: a JIT-compiled measure library or an
# entailment model, tens of seconds of work that tests/test_retrieval.py and the LongRecall tests already cover.
HEAVY = {"retrieval --qrels", "retrieval --run", "longrecall --nuggets"}
TOLERATED = {fault for fault, (_, refused, _) in CLASSES.items() if not refused}
CASES = [(command, fault) for command in COMMANDS for fault in CLASSES
         if (fault != "wrong_format" or (COMMANDS[command][2] and COMMANDS[command][0] in WRONG_FORMAT))
         and not (command in HEAVY and fault in TOLERATED)]


CASE_IDS = [f"{command}-{fault}".replace(" ", "_") for command, fault in CASES]


@pytest.mark.parametrize(("command", "fault"), CASES, ids=CASE_IDS)
def test_hostile_input(tmp_path: Path, command: str, fault: str):
    slot, build, format_option = COMMANDS[command]
    hostile = _make(slot, fault, tmp_path)
    extra = [format_option, WRONG_FORMAT[slot]] if fault == "wrong_format" else []
    args = build(str(hostile), tmp_path, extra)
    result = CliRunner().invoke(cli, ["--max-line-mib", "1", *args])
    output = result.output
    assert "Traceback" not in output
    assert "\x1b" not in output and "\x07" not in output  # nothing echoed reaches a terminal as an escape sequence
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"uncaught {type(result.exception).__name__}: {result.exception}") from result.exception
    must_refuse, located = CLASSES[fault][1], CLASSES[fault][2]
    if must_refuse:
        assert result.exit_code in (1, 2), output
    else:
        assert result.exit_code in (0, 1, 2), output
    if result.exit_code in (1, 2) and (must_refuse or str(hostile) in output):
        names = {str(hostile), os.path.basename(hostile)}
        assert any(name in output for name in names), output
        if located and must_refuse:
            assert re.search(re.escape(str(hostile)) + r":\d+:", output), output
    assert not [name for name in os.listdir(tmp_path) if name.endswith(".tmp")]


# --- hostile option values (issue 23): every numeric and file option of every command ------------------------------
#
# For each command of `argue-eval --help`, a small valid invocation (BASE); then each of its number options gets
# nan, inf, -1, 0 and a 30-digit number, and each of its file options a 300-byte name, a directory, a FIFO (fed or
# drained by a thread, as a shell's <(...) would be), a dangling and a self-looping symbolic link. Whatever the
# command makes of the value, it must end with exit status 0, 1 or 2 and never a traceback.

RUN_HEAD = "run.jsonl"  # BASE's files, made per test in tmp (small copies: a run with 2 reports, ...)
ASSIGNED = {"qid": "s01", "run_id": "A", "nuggets": [{"text": "t", "importance": "vital", "assignment": "support"}]}


def _probe_files(tmp: Path) -> dict[str, str]:
    files = {
        "RUN": (RUN_HEAD, _head(SAMPLE_RUN, 2)),
        "NUGGETS": ("nuggets.jsonl", _head(NUGGETS, 2)),
        "REQUESTS": ("requests.jsonl", _head(REQUESTS, 2)),
        "JUDGMENTS": ("judgments.jsonl", _head(JUDGMENTS, 40)),
        "RANKED": ("ranked.trec", _head(SAMPLE_RANKED, 20)),
        "QRELS": ("qrels.trec", _head(QRELS, 20)),
        "SCORES": ("scores.tsv", SCORES.read_bytes()),
        "COLLECTION": ("collection.jsonl", COLLECTION.read_bytes()),
        "ASSIGNMENTS": ("a.assignments.jsonl", (json.dumps(ASSIGNED) + "\n").encode()),
        "CONTEXT": ("context.jsonl", b'{"request_id": "s01", "statements": ["Ridgefield water was contaminated."]}\n'),
        "POOL": ("pool.csv", b'"request_id","doc_id","pool_rank","relevance"\n"s01","nw-0001","1","1"\n'),
        "BINDINGS": ("bindings.jsonl", b'{"request_id": "s01", "nugget_id": "s01-n1", "answer": "E. coli", '
                                       b'"doc_id": "nw-0002"}\n'),
    }
    paths = {}
    for key, (name, data) in files.items():
        (tmp / name).write_bytes(data)
        paths[key] = str(tmp / name)
    paths["OUT"] = str(tmp / "out" / "result")
    paths["OUT_DIR"] = str(tmp / "out" / "index")
    return paths


# command -> its small valid invocation (upper-case words are the files above); a positional argument is
# ("@NAME", value) so the probe can replace it
BASE: dict[str, list] = {
    "agree": ["agree", ("@SCORES_A", "SCORES"), ("@SCORES_B", "SCORES"), "-m", "f1", "--resamples", "20",
              "-o", "OUT"],
    "agree-judgments": ["agree-judgments", ("@JUDGMENTS_A", "JUDGMENTS"), ("@JUDGMENTS_B", "JUDGMENTS"), "-o", "OUT"],
    "assess export": ["assess", "export", "--run", "RUN", "--nuggets", "NUGGETS", "--collection", "COLLECTION",
                      "-o", "OUT"],
    "assess import": ["assess", "import", ("@FILLED", "POOL"), "--assessor", "a", "-o", "OUT"],
    "collection get": ["collection", "get", ("@SPEC", "COLLECTION"), "nw-0001"],
    "collection index": ["collection", "index", ("@PATH", "COLLECTION")],
    "collection info": ["collection", "info", ("@SPEC", "COLLECTION")],
    "compare": ["compare", ("@SCORES", "SCORES"), "-m", "f1", "--resamples", "20", "-o", "OUT"],
    "comprehensiveness": ["comprehensiveness", "--run", "RUN", "--context", "CONTEXT", "--no-cache", "-o", "OUT"],
    "convert": ["convert", ("@PATH", "RUN"), "--to", "neuclir24", "-o", "OUT"],
    "evaluate": ["evaluate", "--run", "RUN", "--nuggets", "NUGGETS", "--collection", "COLLECTION", "--no-cache",
                 "-q", "-o", "OUT"],
    "icat": ["icat", "--run", "RUN", "--nuggets", "NUGGETS", "--collection", "COLLECTION", "--no-cache", "-q",
             "-o", "OUT"],
    "inspect": ["inspect", ("@PATH", "RUN")],
    "judge": ["judge", "--run", "RUN", "--nuggets", "NUGGETS", "--collection", "COLLECTION", "--no-cache", "-q",
              "-o", "OUT"],
    "longrecall": ["longrecall", "--run", "RUN", "--nuggets", "NUGGETS", "--semantic", "off", "--no-cache", "-q",
                   "-o", "OUT"],
    "nuggetizer": ["nuggetizer", ("@ASSIGNMENTS", "ASSIGNMENTS"), "-q", "-o", "OUT"],
    "nuggets bind": ["nuggets", "bind", ("@PATH", "NUGGETS"), ("@BINDINGS", "BINDINGS"), "-o", "OUT"],
    "nuggets compare": ["nuggets", "compare", ("@CREATED", "NUGGETS"), ("@HUMAN", "NUGGETS"), "--no-cache", "-o", "OUT"],
    "nuggets create": ["nuggets", "create", "--requests", "REQUESTS", "--pool", "QRELS", "--collection", "COLLECTION",
                       "--llm-model", "m", "--dry-run", "--no-cache", "-o", "OUT"],
    "nuggets merge": ["nuggets", "merge", ("@FIRST", "NUGGETS"), ("@SECOND", "NUGGETS"), "-o", "OUT"],
    "nuggets stats": ["nuggets", "stats", ("@PATH", "NUGGETS"), "-o", "OUT"],
    "nuggets validate": ["nuggets", "validate", ("@PATH", "NUGGETS")],
    "pool": ["pool", ("@RUN_FILES", "RANKED"), "--depth", "5", "-o", "OUT"],
    "qrels build": ["qrels", "build", ("@ASSESSMENTS", "POOL"), "-o", "OUT"],
    "qrels from-nuggets": ["qrels", "from-nuggets", ("@NUGGETS", "NUGGETS"), "-o", "OUT"],
    "qrels merge": ["qrels", "merge", ("@QRELS_FILES", "QRELS"), "-o", "OUT"],
    "qrels stats": ["qrels", "stats", ("@QRELS_FILE", "QRELS"), "-o", "OUT"],
    "report": ["report", "--scores", "SCORES", "--resamples", "20", "-q", "-o", "OUT"],
    "requests export": ["requests", "export", ("@PATH", "REQUESTS"), "-o", "OUT"],
    "requests new": ["requests", "new", ("@PATH", "OUT"), "--request-id", "z9", "--title", "t", "--background", "b",
                     "--problem-statement", "p", "--limit", "100"],
    "requests validate": ["requests", "validate", ("@PATH", "REQUESTS")],
    "retrieval": ["retrieval", "--qrels", "QRELS", ("@RUN_FILES", "RANKED"), "-m", "P@5", "-o", "OUT"],
    "score": ["score", "--run", "RUN", "--nuggets", "NUGGETS", "--judgments", "JUDGMENTS", "-q", "-o", "OUT"],
    "search": ["search", "-c", "COLLECTION", "-q", "water", "-k", "3", "--index-dir", "OUT_DIR"],
    "validate": ["validate", ("@RUNS", "RUN"), "--requests", "REQUESTS"],
}
LLM_DRY_RUN = ["--judge", "llm", "--llm-model", "m", "--llm-base-url", "http://127.0.0.1:9/v1", "--dry-run"]
NUMBERS = ["nan", "inf", "-1", "0", "9" * 30]
FILE_FAULTS = ["long_name", "directory", "fifo", "dangling_symlink", "looping_symlink"]


def _probe_params(name: str) -> list[tuple[str, str, str]]:
    """(parameter name, kind: number or input/output/updated, hostile value) for every probe of a command."""
    import click

    from argue_eval.commands._paths import file_role

    context = click.Context(cli)
    command: click.Command = cli
    for part in name.split():
        command = command.get_command(context, part)  # type: ignore[attr-defined]
    probes = []
    for param in command.params:
        if isinstance(param.type, click.types._NumberParamTypeBase):
            probes += [(param.name, "number", value) for value in NUMBERS]
        elif file_role(param):
            probes += [(param.name, file_role(param), fault) for fault in FILE_FAULTS]
        elif isinstance(param.type, click.File):  # --ids-from: a file click opens itself
            probes += [(param.name, "input", fault) for fault in FILE_FAULTS]
        elif isinstance(param.type, click.Path):  # an index or cache directory the kit keeps
            probes += [(param.name, "path", fault) for fault in FILE_FAULTS]
    return probes


PROBES = [(name, *probe) for name, base in BASE.items() if base is not None for probe in _probe_params(name)]


def _hostile_file(tmp: Path, fault: str) -> Path:
    path = tmp / "hostile"
    if fault == "long_name":
        return tmp / ("a" * 300)
    if fault == "directory":
        path.mkdir()
    elif fault == "fifo":
        os.mkfifo(path)
    elif fault == "dangling_symlink":
        path.symlink_to(tmp / "nowhere" / "file")
    elif fault == "looping_symlink":
        path.symlink_to(path)
    return path


def _argv(name: str, files: dict[str, str], param: str, value: str) -> list[str]:
    import click

    context = click.Context(cli)
    command: click.Command = cli
    for part in name.split():
        command = command.get_command(context, part)  # type: ignore[attr-defined]
    target = next(p for p in command.params if p.name == param)
    argv: list[str] = []
    replaced = False
    tokens = list(BASE[name])
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if isinstance(token, tuple):  # a positional argument
            own = token[0][1:].lower() == param
            argv.append(value if own else files.get(token[1], token[1]))
            replaced = replaced or own
        elif isinstance(target, click.Option) and token in target.opts and not replaced:
            argv += [token, value]
            replaced = True
            index += 1
        else:
            argv.append(files.get(token, token))
        index += 1
    if not replaced:
        flag = target.opts[0]
        argv += [flag, value, *([value] if target.nargs == 2 else [])]
        if name in ("judge", "evaluate") and flag in {opt for opt, *_ in _llm_flags()}:
            argv += LLM_DRY_RUN
    return argv


def _llm_flags():
    from argue_eval.commands._options import LLM_OPTIONS

    return LLM_OPTIONS


def _open_other_end(fifo: str) -> None:
    """Be the FIFO's missing peer for a moment: a command blocked opening it (or a pump) goes on, and reads EOF."""
    descriptor = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
    os.close(descriptor)


@pytest.mark.parametrize(("name", "param", "kind", "value"), PROBES,
                         ids=[f"{n}-{p}-{v[:8]}".replace(" ", "_") for n, p, _, v in PROBES])
def test_hostile_option_values_never_end_in_a_traceback(tmp_path, name, param, kind, value):
    (tmp_path / "out").mkdir()
    files = _probe_files(tmp_path)
    hostile = str(_hostile_file(tmp_path, value)) if kind != "number" else value
    pump = watchdog = None
    stuck: list[bool] = []
    if kind in ("input", "output", "updated") and value == "fifo":
        def feed():  # a writer for an input (once, as a shell's <(...)); a reader draining an output
            try:
                if kind == "input":
                    with open(hostile, "wb") as handle:
                        handle.write(_head(SAMPLE_RUN, 1))
                else:
                    with open(hostile, "rb") as handle:
                        handle.read()
            except BrokenPipeError:  # the command refused the FIFO without reading it: as a shell's cat would
                pass
        pump = threading.Thread(target=feed, daemon=True)
        pump.start()
    if value == "fifo":
        def release():  # a command that opens the FIFO a second time would wait forever for a second writer
            stuck.append(True)
            _open_other_end(hostile)
        watchdog = threading.Timer(120, release)
        watchdog.start()
    try:
        result = CliRunner().invoke(cli, _argv(name, files, param, hostile))
    finally:
        if watchdog is not None:
            watchdog.cancel()
            _open_other_end(hostile)  # the command never opened the FIFO: the pump must not wait for it
        if pump is not None:
            pump.join(10)
    assert not stuck, f"{name} waited on the FIFO {param} after reading it"
    assert "Traceback" not in result.output, result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"uncaught {type(result.exception).__name__}: {result.exception}") from result.exception
    assert result.exit_code in (0, 1, 2), result.output


@pytest.mark.parametrize("value", NUMBERS)
def test_hostile_max_line_mib(value):
    result = CliRunner().invoke(cli, ["--max-line-mib", value, "inspect", str(SAMPLE_RUN)])
    assert "Traceback" not in result.output and isinstance(result.exception, (SystemExit, type(None)))
    assert result.exit_code == 2, result.output
