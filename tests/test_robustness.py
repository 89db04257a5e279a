"""Regressions of issue 13: output paths, crash safety, spreadsheet safety, resource limits, silent wrong
results and statistics edge cases. Each test names the defect it keeps fixed."""
from __future__ import annotations

import csv
import gzip
import io
import json
import os
import stat
import threading
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from helpers import leaf_commands

from argue_eval import csvsafe, reading, writing
from argue_eval.cli import cli
from argue_eval.errors import InputError
from argue_eval.stats.significance import tukey_hsd, tukey_ranges
from argue_eval.writing import atomic_writer, commit_together, remove_stale_temps, write_jsonl

ROOT = Path(__file__).resolve().parent.parent
RUN = ROOT / "runs" / "sample" / "careful.jsonl"
RANKED = sorted((ROOT / "runs" / "sample" / "ranked").glob("*.trec"))
NUGGETS = ROOT / "nuggets" / "sample" / "nuggets.jsonl"
REQUESTS = ROOT / "topics" / "sample" / "requests.jsonl"
JUDGMENTS = ROOT / "qrels" / "sample" / "judgments.jsonl"


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [str(arg) for arg in args])
    assert "Traceback" not in result.output and not isinstance(result.exception, (AssertionError, TypeError)), result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def temps(folder: Path) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.endswith(".tmp"))


# --- 1. output paths -----------------------------------------------------------------------------------------


def test_a_full_device_is_exit_2_and_stays_a_device():
    code, output = invoke("convert", RUN, "--to", "neuclir24", "-o", "/dev/full")
    assert code == 2 and output.startswith("/dev/full: cannot write the output: No space left on device")
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_dev_null_is_written_not_replaced():
    code, _ = invoke("pool", *RANKED, "--depth", "2", "-o", "/dev/null", "--contributions", "/dev/null",
                     "--sizes", "/dev/null")
    assert code == 0 and stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_fifo_is_written_through_and_stays_a_fifo(tmp_path):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    code, _ = invoke("convert", RUN, "--to", "neuclir24", "-o", fifo)
    reader.join(10)
    assert code == 0 and stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert len(received[0].splitlines()) == 8 and json.loads(received[0].splitlines()[0])["request_id"] == "s01"


def test_a_symlink_is_written_through_atomically_and_stays_a_link(tmp_path):
    real = tmp_path / "real.jsonl"
    real.write_text("old\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(real.name)
    code, _ = invoke("convert", RUN, "--to", "neuclir24", "-o", link)
    assert code == 0 and link.is_symlink() and os.readlink(link) == "real.jsonl"
    assert len(real.read_text().splitlines()) == 8 and temps(tmp_path) == []


def test_dash_is_standard_output_for_convert_compare_qrels_and_pool(tmp_path):
    code, output = invoke("convert", RUN, "--to", "neuclir24", "-o", "-")
    assert code == 0 and output.startswith('{"request_id":"s01"')
    code, output = invoke("pool", *RANKED, "--depth", "1", "-o", "-")
    assert code == 0 and output.splitlines()[0] == "s01 0 nw-0007 -1"
    assert not Path("-").exists() and not Path("-.runs.tsv").exists()
    code, output = invoke("qrels", "stats", ROOT / "qrels" / "sample" / "qrels.trec", "-o", "-")
    assert code == 0 and output.startswith("request_id\tjudged")


@pytest.mark.parametrize(("args", "first"), [
    (["qrels", "build", ROOT / "qrels" / "sample" / "qrels.trec"], "s01 0 "),
    (["qrels", "merge", ROOT / "qrels" / "sample" / "qrels.trec"], "s01 0 "),
    (["qrels", "from-nuggets", NUGGETS], "s01 0 "),
    (["requests", "export", REQUESTS], '{"request_id":"s01"'),
    (["nuggets", "merge", NUGGETS, NUGGETS], '{"request_id":"s01"'),
])
def test_with_dash_the_summary_goes_to_stderr_and_stdout_is_only_data(args, first):
    result = CliRunner().invoke(cli, [*map(str, args), "-o", "-"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith(first) and all(not line.startswith(("wrote", "exported", "merged")) for line in lines)
    assert "-> -" in result.stderr


def test_nothing_written_means_no_temp_file_and_a_failed_block_leaves_the_old_file(tmp_path):
    target = tmp_path / "out.jsonl"
    target.write_text("old\n")
    with pytest.raises(InputError):
        with atomic_writer(target) as handle:
            assert temps(tmp_path) == []  # created only at the first write
            handle.write("new\n")
            assert len(temps(tmp_path)) == 1
            raise InputError(target, 3, None, "bad input half way")
    assert target.read_text() == "old\n" and temps(tmp_path) == []


def test_a_killed_writers_temp_file_is_removed_by_the_next_run_but_a_live_ones_is_not(tmp_path):
    target = tmp_path / "out.jsonl"
    host = writing.temp_tag().rsplit("-", 1)[0]
    dead = tmp_path / f".out.jsonl.{host}-{2**22 + 7}.abcd1234.tmp"  # beyond pid_max on Linux: never alive
    live = tmp_path / f".out.jsonl.{host}-{os.getppid()}.abcd1234.tmp"
    other = tmp_path / ".other.jsonl.x-1.abcd1234.tmp"
    for path in (dead, live, other):
        path.write_text("partial")
    write_jsonl(target, [{"a": 1}])
    assert not dead.exists() and live.exists() and other.exists()
    assert remove_stale_temps(target) == []


def test_a_killed_nuggetbank_v3_writers_staging_directory_is_removed_by_the_next_run(tmp_path):
    host = writing.temp_tag().rsplit("-", 1)[0]
    stale = tmp_path / f".bank.{host}-{2**22 + 7}.abcd1234.tmp"
    stale.mkdir()
    (stale / "s01.json").write_text("{}")
    code, output = invoke("convert", NUGGETS, "--to", "autoargue-v3", "-o", tmp_path / "bank")
    assert code == 0, output
    assert not stale.exists() and len(list((tmp_path / "bank").iterdir())) == 8 and temps(tmp_path) == []


def test_commit_together_replaces_all_outputs_or_none(tmp_path):
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("old a\n")
    second.write_text("old b\n")
    with pytest.raises(RuntimeError):
        with commit_together():
            write_jsonl(first, [{"new": 1}])
            assert first.read_text() == "old a\n"  # held back until the group ends
            raise RuntimeError("killed between the outputs")
    assert (first.read_text(), second.read_text()) == ("old a\n", "old b\n") and temps(tmp_path) == []
    with commit_together():
        write_jsonl(first, [{"new": 1}])
        write_jsonl(second, [{"new": 2}])
    assert first.read_text() == '{"new":1}\n' and second.read_text() == '{"new":2}\n'


def test_pool_failing_on_its_package_keeps_the_old_pool(tmp_path):
    out = tmp_path / "pool.qrels"
    out.write_text("old\n")
    collection = tmp_path / "docs.jsonl"
    collection.write_text('{"doc_id": "other", "text": "t"}\n')
    code, output = invoke("pool", *RANKED, "--depth", "2", "-o", out, "--package", tmp_path / "p.jsonl",
                          "--collection", collection)
    assert code == 2 and "not in" in output  # the fixture collection lacks the pooled documents
    assert out.read_text() == "old\n" and not (tmp_path / "pool.qrels.runs.tsv").exists()
    assert [name for name in temps(tmp_path) if "pool" in name] == []


# --- 3. spreadsheet safety -------------------------------------------------------------------------------------

HOSTILE = ["=HYPERLINK(\"http://evil\")", "@SUM(1+1)", "-2+3", "+1", "\r=1+1", "\t=1", "'=quoted", "a,b\"c\nd"]


def test_csv_guard_round_trips_hostile_text_through_a_csv_reader():
    buffer = io.StringIO()
    csvsafe.writer(buffer).writerow([csvsafe.cell(text) for text in HOSTILE] + [csvsafe.cell(3), csvsafe.cell(None)])
    text = buffer.getvalue()
    row = next(csv.reader(io.StringIO(text, newline="")))
    assert len(row) == len(HOSTILE) + 2 and row[-2:] == ["3", ""]
    assert all(not cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in row)
    assert [csvsafe.unguard(cell) for cell in row[:-2]] == HOSTILE
    assert text.startswith('"\'=HYPERLINK(""http://evil"")","\'@SUM(1+1)","\'-2+3"')


def test_pool_package_csv_guards_participant_doc_ids_and_qrels_build_reads_them_back(tmp_path):
    run = tmp_path / "evil.trec"
    run.write_text("".join(f"s01 Q0 {doc} {rank} {10 - rank} evil\n"
                           for rank, doc in enumerate(["=HYPERLINK(\"x\")", "@SUM(1+1)", "-2+3", "plain"], 1)))
    package = tmp_path / "pool.csv"
    code, output = invoke("pool", run, "--depth", "4", "-o", tmp_path / "pool.qrels", "--package", package)
    assert code == 0, output
    rows = list(csv.reader(package.open(newline="")))
    assert sorted(row[1] for row in rows[1:]) == ["'-2+3", "'=HYPERLINK(\"x\")", "'@SUM(1+1)", "plain"]
    assert package.read_text().splitlines()[0] == '"request_id","doc_id","pool_rank","relevance"'
    with package.open("w", newline="") as handle:  # the assessor fills in relevance
        writer = csvsafe.writer(handle)
        writer.writerow(rows[0])
        writer.writerows([row[:3] + ["1"] for row in rows[1:]])
    code, output = invoke("qrels", "build", "--pool", tmp_path / "pool.qrels", package, "-o", tmp_path / "q.trec")
    assert code == 0, output
    assert sorted((tmp_path / "q.trec").read_text().splitlines()) == [
        's01 0 -2+3 1', 's01 0 =HYPERLINK("x") 1', "s01 0 @SUM(1+1) 1", "s01 0 plain 1"]


def test_assess_export_import_round_trip_with_a_carriage_return_formula(tmp_path):
    from argue_eval.organizer.assessment import read_pool, write_pool

    item = {name: None for name in ("item_id", "kind", "question", "judgment")}
    item.update(sentence="\r=1+1", doc_text="@cmd|' /C calc'!A0", earlier_sentences=["-1", "x"])
    path = tmp_path / "pool.csv"
    write_pool([item], path)
    raw = path.read_bytes().decode()
    assert '"\'\r=1+1"' in raw and '"\'@cmd|\' /C calc\'!A0"' in raw
    (line, back), = list(read_pool(path))
    assert back["sentence"] == "\r=1+1" and back["doc_text"] == "@cmd|' /C calc'!A0" and line == 2


def test_assess_import_refuses_extra_cells_and_warns_on_a_header_only_file(tmp_path):
    from argue_eval.organizer.assessment import CSV_COLUMNS

    path = tmp_path / "pool.csv"
    path.write_text(",".join(CSV_COLUMNS) + "\n")
    code, output = invoke("assess", "import", path, "--assessor", "a", "-o", tmp_path / "h.jsonl")
    assert code == 1 and output.startswith(f"warning: {path}: no assessment items") and not (tmp_path / "h.jsonl").exists()
    path.write_text(",".join(CSV_COLUMNS) + "\n" + ",".join(["x"] * (len(CSV_COLUMNS) + 2)) + "\n")
    code, output = invoke("assess", "import", path, "--assessor", "a", "-o", tmp_path / "h.jsonl")
    assert code == 2 and output.startswith(f"{path}:2: 2 more cell(s) than the header's {len(CSV_COLUMNS)} columns")


# --- 4. resource limits --------------------------------------------------------------------------------------


def test_a_line_over_the_cap_is_a_located_error_from_gzip_and_plain_files(tmp_path):
    bomb = tmp_path / "run.jsonl.gz"
    with gzip.open(bomb, "wb", compresslevel=1) as handle:
        handle.write(RUN.read_bytes().splitlines(keepends=True)[0])
        handle.write(b" " * (3 * 1024 * 1024))
    code, output = invoke("--max-line-mib", "2", "inspect", bomb)
    assert code == 2 and output.startswith(f"{bomb}:2: line longer than 2 MiB")
    ranked = tmp_path / "run.trec"
    ranked.write_bytes(b"q Q0 d 1 1 t\n" + b"x" * (3 * 1024 * 1024))
    code, output = invoke("--max-line-mib", "2", "pool", ranked, "-o", tmp_path / "p.qrels")
    assert code == 2 and output.startswith(f"{ranked}:2: line longer than 2 MiB")
    code, _ = invoke("pool", ranked, "-o", tmp_path / "p.qrels")  # under the default cap: an ordinary column error
    assert code == 2


def test_the_line_cap_counts_bytes_without_the_newline(tmp_path):
    path = tmp_path / "f.jsonl"
    path.write_bytes(b'{"a":"' + b"x" * 92 + b'"}\n' + b"\n")  # 100 bytes + newline
    reading.set_max_line_bytes(100)
    try:
        assert [n for n, _ in reading.iter_jsonl(path)] == [1]
        with path.open("rb") as handle:
            assert reading.read_capped(handle, path).count(b"\n") == 2
        path.write_bytes(b'{"a":"' + b"x" * 93 + b'"}\n')
        with pytest.raises(InputError, match=":1: line longer than 100 bytes"):
            list(reading.iter_jsonl(path))
        with path.open("rb") as handle, pytest.raises(InputError, match=":1: line longer than 100 bytes"):
            reading.read_capped(handle, path)
    finally:
        reading.set_max_line_bytes(reading.MAX_LINE_MIB * 1024 * 1024)


@pytest.mark.parametrize("depth", [1100, 100_000])
def test_deep_nesting_is_a_located_error_not_a_recursion_error(tmp_path, depth):
    path = tmp_path / "deep.jsonl"
    path.write_bytes(b'{"a": 1}\n' + b"[" * depth + b"]" * depth + b"\n")
    with pytest.raises(InputError, match=":2: invalid JSON: arrays or objects nested too deeply"):
        list(reading.iter_jsonl(path))
    path.write_bytes(b"[" * depth + b"]" * depth)
    with pytest.raises(InputError, match=":1: invalid JSON: arrays or objects nested too deeply"):
        reading.read_json(path)


def test_out_of_range_grades_are_refused_when_read(tmp_path):
    qrels = tmp_path / "q.trec"
    qrels.write_text("s01 0 d1 1\ns01 0 d2 99999999999999999999999999\n")
    for args in (["qrels", "stats", qrels], ["qrels", "build", qrels, "-o", tmp_path / "o.trec"],
                 ["retrieval", "--qrels", qrels, "--run", RANKED[0]]):
        code, output = invoke(*args)
        assert code == 2 and output.startswith(f"{qrels}:2: relevance: grade 99999999999999999999999999 is out of range"), args
    qrels.write_text("s01 0 d1 1000\ns01 0 d2 -1000\n")
    assert invoke("qrels", "stats", qrels)[0] == 0


def test_control_characters_in_ids_are_refused(tmp_path):
    ranked = tmp_path / "nul.trec"
    ranked.write_bytes(b"s01 Q0 good 1 2 r\ns01 Q0 ba\x00d 2 1 r\n")
    code, output = invoke("pool", ranked, "-o", tmp_path / "p.qrels")
    assert code == 2 and output.startswith(f"{ranked}:2: control character U+0000 in the line")
    assert not (tmp_path / "p.qrels").exists()
    run = tmp_path / "run.jsonl"
    record = json.loads(RUN.read_text().splitlines()[0])
    record["request_id"] = "s01\x1b[2J"
    run.write_text(json.dumps(record) + "\n")
    code, output = invoke("convert", run, "--to", "neuclir24", "-o", tmp_path / "o.jsonl")
    assert code == 2 and "control character U+001B" in output and f"{run}:1:" in output
    scores = tmp_path / "s.tsv"
    scores.write_bytes(b"run_id\trequest_id\tmetric\tvalue\nsy\x00s\tt1\tf1\t0.5\n")
    code, output = invoke("compare", scores, "-m", "f1")
    assert code == 2 and output.startswith(f"{scores}:2: control character U+0000 in the line")


# --- 5. silent wrong results -----------------------------------------------------------------------------------


def _score(tmp_path: Path, nuggets: Path, requests: Path | None = None) -> tuple[int, str]:
    args = ["score", "--run", RUN, "--nuggets", nuggets, "--judgments", JUDGMENTS, "-o", tmp_path / "s.tsv"]
    return invoke(*args, *(["--requests", requests] if requests else []))


def test_score_refuses_a_repeated_nugget_id_and_a_repeated_request_as_the_validators_do(tmp_path):
    lines = NUGGETS.read_text().splitlines()
    topic = json.loads(lines[0])
    topic["nuggets"].append(dict(topic["nuggets"][0]))
    nuggets = tmp_path / "n.jsonl"
    nuggets.write_text("\n".join([json.dumps(topic)] + lines[1:]) + "\n")
    code, output = _score(tmp_path, nuggets)
    assert code == 2 and f"{nuggets}:1: nuggets[{len(topic['nuggets']) - 1}].nugget_id: nugget" in output
    assert invoke("nuggets", "validate", nuggets)[0] == 1
    requests = tmp_path / "r.jsonl"
    first = REQUESTS.read_text().splitlines()
    requests.write_text("\n".join(first + first[:1]) + "\n")
    code, output = _score(tmp_path, NUGGETS, requests)
    assert code == 2 and output.startswith(f"{requests}:{len(first) + 1}: request_id: request id 's01' is used again")
    assert not (tmp_path / "s.tsv").exists()


def test_qrels_stats_on_a_jsonl_run_is_an_error():
    code, output = invoke("qrels", "stats", RUN)
    assert code == 2 and output.startswith(f"{RUN}:1: expected 4 whitespace-separated columns")


# --- 6. statistics ---------------------------------------------------------------------------------------------


def test_tukey_p_value_is_count_plus_one_over_resamples_plus_one():
    # A beats B by 1 on each of 12 topics: a permutation's range reaches 1 only when every topic keeps (or every
    # topic swaps) its pair, probability 2/2^12, so among 200 permutations almost surely none does
    values = np.array([[1.0] * 12, [0.0] * 12])
    ranges = tukey_ranges(values, resamples=200, seed=3)
    reaching = int((ranges >= 1.0 - 1e-12).sum())
    result = tukey_hsd(values, [(0, 1)], resamples=200, seed=3)
    assert result.p_value[0] == (reaching + 1) / 201 and result.p_value[0] >= 1 / 201


def test_tukey_intervals_are_simultaneous_and_every_format_labels_pair_intervals(tmp_path):
    # ranges of the hand-checked case (test_tukey_hsd_by_hand) are 1.5 (p 2/3) and 3 (p 1/3): the 95% quantile is
    # 3, so pair (2, 0), diff 3, gets the simultaneous interval [0, 6]
    values = np.array([[0.0, 0.0], [0.0, 0.0], [3.0, 3.0]])
    assert tukey_hsd(values, [(2, 0)], resamples=3000, seed=2).critical == 3.0
    scores = ROOT / "tests" / "fixtures" / "stats" / "scores.tsv"
    doc = json.loads(invoke("compare", scores, "-m", "f1", "--test", "tukey", "--format", "json", "--resamples", "2000")[1])
    assert doc["pair_intervals"] == "simultaneous"
    widths = {round(pair["ci_high"] - pair["ci_low"], 12) for pair in doc["pairs"]}
    assert len(widths) == 1 and all(pair["ci_method"] == "tukey-simultaneous" for pair in doc["pairs"])
    assert all(abs((pair["ci_low"] + pair["ci_high"]) / 2 - pair["diff"]) < 1e-12 for pair in doc["pairs"])
    holm = json.loads(invoke("compare", scores, "-m", "f1", "--test", "randomization", "--format", "json",
                             "--resamples", "200")[1])
    assert holm["pair_intervals"] == "unadjusted" and any("not adjusted for the 3 comparisons" in n for n in holm["notes"])
    for fmt in ("text", "markdown", "latex", "tsv"):
        text = invoke("compare", scores, "-m", "f1", "--test", "randomization", "--format", fmt, "--table", "pairs",
                      "--resamples", "200")[1]
        assert "not adjusted for the 3 comparisons" in text, fmt
        text = invoke("compare", scores, "-m", "f1", "--test", "tukey", "--format", fmt, "--table", "pairs",
                      "--resamples", "200")[1]
        assert "simultaneous 95% Tukey HSD intervals" in text, fmt


# === issue 23: outputs and edges =================================================================================

QRELS = ROOT / "qrels" / "sample" / "qrels.trec"
SCORES = ROOT / "tests" / "fixtures" / "stats" / "scores.tsv"
COLLECTION = ROOT / "topics" / "sample" / "collection.jsonl"
ROOTED = os.geteuid() == 0  # only root can give a file to another user, or plant another user's link


# --- 2. a rewritten output keeps its mode and owner -----------------------------------------------------------

# every writer of the kit, each given an output to replace (OUT); the table's name says which writer it is
WRITERS: dict[str, list[object]] = {
    "convert": ["convert", RUN, "--to", "neuclir24", "-o", "OUT"],
    "score": ["score", "--run", RUN, "--nuggets", NUGGETS, "--judgments", JUDGMENTS, "-q", "-o", "OUT"],
    "score --details": ["score", "--run", RUN, "--nuggets", NUGGETS, "--judgments", JUDGMENTS, "-q",
                        "-o", "/dev/null", "--details", "OUT"],
    "judge": ["judge", "--run", RUN, "--nuggets", NUGGETS, "--collection", COLLECTION, "--no-cache", "-q",
              "-o", "OUT"],
    "judge calibrate": ["judge", "calibrate", "--run", RUN, "--nuggets", NUGGETS, "--collection", COLLECTION,
                        "--human", JUDGMENTS, "--no-cache", "-q", "-o", "OUT"],
    "pool": ["pool", *RANKED, "--depth", "2", "-o", "OUT"],
    "pool --package": ["pool", *RANKED, "--depth", "2", "-o", "/dev/null", "--contributions", "/dev/null",
                       "--sizes", "/dev/null", "--package", "OUT"],
    "qrels merge": ["qrels", "merge", QRELS, "-o", "OUT"],
    "qrels from-nuggets": ["qrels", "from-nuggets", NUGGETS, "-o", "OUT"],
    "qrels stats": ["qrels", "stats", QRELS, "-o", "OUT"],
    "requests export": ["requests", "export", REQUESTS, "-o", "OUT"],
    "nuggets merge": ["nuggets", "merge", NUGGETS, NUGGETS, "-o", "OUT"],
    "nuggets stats": ["nuggets", "stats", NUGGETS, "-o", "OUT"],
    "nuggets compare": ["nuggets", "compare", NUGGETS, NUGGETS, "--no-cache", "-o", "OUT"],
    "compare": ["compare", SCORES, "-m", "f1", "--resamples", "20", "-o", "OUT"],
    "agree": ["agree", SCORES, SCORES, "-m", "f1", "--resamples", "20", "-o", "OUT"],
    "agree-judgments": ["agree-judgments", JUDGMENTS, JUDGMENTS, "-o", "OUT"],
    "report": ["report", "--scores", SCORES, "--resamples", "20", "-q", "-o", "OUT"],
}


@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_rewritten_output_keeps_its_mode_and_owner(tmp_path, writer):
    # the temporary file renamed over the output got the umask's 0644 and root's ownership: a private 0600
    # output became readable by all, another user's file became root's
    out = tmp_path / "out"
    out.write_text("old\n")
    os.chmod(out, 0o600)
    if ROOTED:
        os.chown(out, 4321, 4322)
    code, output = invoke(*[out if arg == "OUT" else arg for arg in WRITERS[writer]])
    assert code == 0, output
    assert out.read_text() != "old\n"
    info = os.stat(out)
    assert stat.S_IMODE(info.st_mode) == 0o600
    if ROOTED:
        assert (info.st_uid, info.st_gid) == (4321, 4322)


def test_a_new_output_gets_the_umasks_mode_and_a_v3_bank_keeps_its_directorys(tmp_path):
    umask = os.umask(0o027)
    try:
        code, _ = invoke("convert", RUN, "--to", "neuclir24", "-o", tmp_path / "new.jsonl")
        assert code == 0 and stat.S_IMODE(os.stat(tmp_path / "new.jsonl").st_mode) == 0o640  # 0666 & ~0027
    finally:
        os.umask(umask)
    bank = tmp_path / "bank"
    bank.mkdir()
    os.chmod(bank, 0o700)
    code, output = invoke("convert", NUGGETS, "--to", "autoargue-v3", "-o", bank)
    assert code == 0, output
    assert stat.S_IMODE(os.stat(bank).st_mode) == 0o700 and len(list(bank.iterdir())) == 8


# --- 3. symbolic links at the output ----------------------------------------------------------------------------


def test_a_dangling_symlink_output_is_refused_and_no_directory_is_made_through_it(tmp_path):
    # before: the link's target and its missing parent directories were created wherever the link pointed
    link = tmp_path / "out.jsonl"
    link.symlink_to(tmp_path / "elsewhere" / "deep" / "file.jsonl")
    code, output = invoke("convert", RUN, "--to", "neuclir24", "-o", link)
    assert code == 2 and output.startswith(f"{link}: the output ({link}) is a dangling symbolic link (to ")
    assert not (tmp_path / "elsewhere").exists()
    folder = tmp_path / "dir-link"
    folder.symlink_to(tmp_path / "missing")
    code, output = invoke("convert", RUN, "--to", "neuclir24", "-o", folder / "sub" / "out.jsonl")
    assert code == 2 and f"a directory of the output's path ({folder}) is a dangling symbolic link" in output
    assert not (tmp_path / "missing").exists()
    loop = tmp_path / "loop.jsonl"
    loop.symlink_to(loop)
    code, output = invoke("score", "--run", RUN, "--nuggets", NUGGETS, "--judgments", JUDGMENTS, "-o", loop)
    assert code == 2 and "is a symbolic link that loops back on itself" in output


def test_the_protected_symlinks_rule_by_hand():
    # fs.protected_symlinks: in a world-writable sticky folder a link may be followed only by its owner, or when
    # the folder's owner also owns the link. /tmp is 1777, owned by root (0); user 1000 runs the kit
    shared = stat.S_IFDIR | 0o1777
    assert writing.planted_link(shared, 0, link_owner=2000, user=1000)  # another user's link: refused
    assert not writing.planted_link(shared, 0, link_owner=1000, user=1000)  # our own link
    assert not writing.planted_link(shared, 0, link_owner=0, user=1000)  # the folder owner's link
    assert not writing.planted_link(stat.S_IFDIR | 0o0777, 0, link_owner=2000, user=1000)  # not sticky
    assert not writing.planted_link(stat.S_IFDIR | 0o1775, 0, link_owner=2000, user=1000)  # not world-writable


@pytest.mark.skipif(not ROOTED, reason="planting another user's symbolic link needs root")
def test_another_users_link_in_a_sticky_world_writable_directory_is_refused(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o1777)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    planted = shared / "out.jsonl"
    planted.symlink_to(victim)
    os.lchown(planted, 4321, 4321)
    code, output = invoke("convert", RUN, "--to", "neuclir24", "-o", planted)
    assert code == 2 and "fs.protected_symlinks" in output and "(uid 4321)" in output
    assert victim.read_text() == "precious\n"
    os.lchown(planted, os.geteuid(), os.getegid())  # our own link there is followed as before
    assert invoke("convert", RUN, "--to", "neuclir24", "-o", planted)[0] == 0 and victim.read_text() != "precious\n"


# --- 1. an output never destroys an input ----------------------------------------------------------------------

IN = "IN"  # the input file the output must not replace; the check runs before any file is read, so any file does
# every command of `argue-eval --help`: arguments that name the input IN as an output, or None for a command
# without an output option (it writes to stdout, or in place: `requests new`, `collection index`)
CLOBBER: dict[str, list[object] | None] = {
    "agree": ["agree", IN, SCORES, "-m", "f1", "-o", IN],
    "agree-judgments": ["agree-judgments", IN, JUDGMENTS, "-o", IN],
    "analyze power": ["analyze", "power", SCORES, IN, "-m", "f1", "--curve", IN],
    "analyze swaps": ["analyze", "swaps", IN, "-m", "f1", "-o", IN],
    "analyze topic-set-size": ["analyze", "topic-set-size", IN, "-m", "f1", "--delta", "0.1", "-o", IN],
    "analyze reusability": ["analyze", "reusability", "--run", RUN, "--nuggets", NUGGETS, "--judgments", IN,
                            "--details", IN],
    "analyze circularity": ["analyze", "circularity", "--run", IN, "-o", IN],
    "assess export": ["assess", "export", "--run", IN, "--nuggets", NUGGETS, "-o", IN],
    "assess import": ["assess", "import", IN, "--assessor", "a", "-o", IN],
    "assess init": None,  # its one written file, --db, is read and written in place (no other input or output)
    "assess users add": None,
    "assess users reset": None,
    "assess users list": None,
    "assess assign": None,
    "assess serve": None,
    "assess status": None,
    "assess export-db": ["assess", "export-db", "--db", IN, "--nuggets-out", "/dev/null", "--judgments-out", IN],
    "collection get": None,
    "collection index": None,
    "collection info": None,
    "compare": ["compare", IN, "-m", "f1", "-o", IN],
    "comprehensiveness": ["comprehensiveness", "--run", RUN, "--context", IN, "-o", IN],
    "convert": ["convert", IN, "--to", "argue", "-o", IN],
    "evaluate": ["evaluate", "--run", RUN, "--nuggets", NUGGETS, "--judgments", IN, "--collection", COLLECTION,
                 "-o", "/dev/null", "--html", IN],
    "icat": ["icat", "--run", RUN, "--nuggets", NUGGETS, "--collection", IN, "-o", IN],
    "inspect": None,
    "judge": ["judge", "--run", RUN, "--nuggets", NUGGETS, "--requests", IN, "--collection", COLLECTION, "-o", IN],
    "judge calibrate": ["judge", "calibrate", "--run", RUN, "--nuggets", NUGGETS, "--collection", COLLECTION,
                        "--human", IN, "-o", IN],
    "longrecall": ["longrecall", "--run", RUN, "--reference", IN, "--details", IN, "-o", "-"],
    "nuggetizer": ["nuggetizer", IN, "-o", IN],
    "nuggets bind": ["nuggets", "bind", NUGGETS, IN, "-o", IN],
    "nuggets compare": ["nuggets", "compare", IN, NUGGETS, "--no-cache", "-o", IN],
    "nuggets create": ["nuggets", "create", "--requests", IN, "--pool", QRELS, "--collection", COLLECTION,
                       "--llm-model", "m", "--no-cache", "-o", IN],
    "nuggets merge": ["nuggets", "merge", IN, NUGGETS, "-o", IN],
    "nuggets stats": ["nuggets", "stats", IN, "-o", IN],
    "nuggets validate": None,
    "pool": ["pool", IN, "-o", "/dev/null", "--package", IN],
    "qrels build": ["qrels", "build", IN, "-o", IN],
    "qrels from-nuggets": ["qrels", "from-nuggets", IN, "-o", IN],
    "qrels merge": ["qrels", "merge", QRELS, IN, "-o", IN],
    "qrels stats": ["qrels", "stats", IN, "-o", IN],
    "report": ["report", "--scores", SCORES, "--details", IN, "-o", IN],
    "requests export": ["requests", "export", IN, "-o", IN],
    "requests new": None,
    "requests validate": None,
    "retrieval": ["retrieval", "--qrels", IN, RANKED[0], "-o", IN],
    "score": ["score", "--judgments", IN, "--run", RUN, "--nuggets", NUGGETS, "-o", IN],
    "search": ["search", "-c", COLLECTION, "--requests", IN, "-o", IN],
    "validate": ["validate", IN, "--fix", "-o", IN],
    "doctor": None,
    "schema": None,  # writes a schema, reads no file: nothing to overwrite
    "cache merge": ["cache", "merge", IN, IN],  # OUT.sqlite first, then the caches it joins
}
OUTPUT_FIRST = {"cache merge"}
"""Commands whose output is their first IN (a positional argument before the inputs), not their last."""
NO_INPUT = {"schema"}
"""Commands with an output but no input file (a clobber test has nothing to try)."""


def test_the_clobber_table_covers_every_command_of_the_help():
    from argue_eval.commands._paths import file_role

    commands = dict(leaf_commands())
    assert set(CLOBBER) == set(commands)
    for name, command in commands.items():  # a command listed without an output really has no output option
        outputs = [param.name for param in command.params if file_role(param) == "output"]
        assert bool(outputs) == (CLOBBER[name] is not None or name in NO_INPUT), (name, outputs)


@pytest.mark.parametrize("name", [name for name, argv in CLOBBER.items() if argv is not None])
@pytest.mark.parametrize("through", ["name", "symlink", "hardlink"])
def test_no_command_writes_an_output_over_one_of_its_inputs(tmp_path, name, through):
    # before: `score --judgments j.jsonl -o j.jsonl` turned the judgments into a score table and exited 0, and
    # convert, pool, report, compare, assess import and requests export did the same, also through a link
    source = tmp_path / "input.jsonl"
    source.write_bytes(JUDGMENTS.read_bytes())
    before = source.read_bytes()
    output = source
    if through == "symlink":
        output = tmp_path / "link.out"
        output.symlink_to(source.name)
    elif through == "hardlink":
        output = tmp_path / "hard.out"
        os.link(source, output)
    argv = [source if arg == IN else arg for arg in CLOBBER[name]]  # type: ignore[union-attr]
    at = argv.index(source) if name in OUTPUT_FIRST else len(argv) - 1 - argv[::-1].index(source)
    argv[at] = output  # the last IN is the output (the first, for OUTPUT_FIRST)
    code, text = invoke(*argv)
    assert code == 2, text
    assert text.startswith(f"{output}: is also an input (") and "would destroy it" in text, text
    assert source.read_bytes() == before and temps(tmp_path) == []


@pytest.mark.parametrize(("argv", "message"), [
    (["score", "--run", RUN, "--nuggets", NUGGETS, "--judgments", JUDGMENTS, "-o", "OUT", "--details", "OUT"],
     "OUT: -o and --details name the same file"),
    (["evaluate", "--run", RUN, "--nuggets", NUGGETS, "--collection", COLLECTION, "--no-cache", "-o", "OUT",
      "--html", "OUT"], "OUT: -o and --html name the same file"),
    (["evaluate", "--run", RUN, "--nuggets", NUGGETS, "--collection", COLLECTION, "--no-cache", "-o", "x.tsv",
      "--judgments-out", "OUT", "--details", "OUT.manifest.json"],
     "OUT.manifest.json: --judgments-out's manifest.json file and --details name the same file"),
    (["pool", *RANKED, "-o", "OUT", "--package", "OUT"], "OUT: -o and --package name the same file"),
    (["pool", *RANKED, "-o", "OUT", "--sizes", "OUT.runs.tsv"],
     "OUT.runs.tsv: -o's runs.tsv file and --sizes name the same file"),
    (["icat", "--run", RUN, "--nuggets", NUGGETS, "--collection", COLLECTION, "-o", "OUT", "--details", "OUT"],
     "OUT: -o and --details name the same file"),
    (["icat", "--run", RUN, "--nuggets", NUGGETS, "--collection", COLLECTION, "-o", "OUT", "--cache", "OUT"],
     "OUT: is also an input (--cache); -o would destroy it"),
    (["nuggetizer", RUN, "-o", "x.tsv", "--details", "OUT", "--cache", "OUT"],
     "OUT: is also an input (--cache); --details would destroy it"),
    (["judge", "--run", RUN, "--nuggets", NUGGETS, "--judgments", "OUT", "--cache", "OUT", "--dry-run"],
     "OUT: is also an input (--judgments); --cache is read and written in place"),
    (["score", "--run", RUN, "--nuggets", NUGGETS, "--judgments", JUDGMENTS, "-o", "-", "--details", "-"],
     "-o, --details: only one output can go to standard output ('-')"),
])
def test_two_outputs_on_one_file_and_the_cache_as_an_input_or_output_are_refused(tmp_path, monkeypatch, argv, message):
    out = tmp_path / "out"
    if "--judgments" in argv and argv[argv.index("--judgments") + 1] == "OUT":
        out.write_bytes(JUDGMENTS.read_bytes())
    argv = [str(arg).replace("OUT", str(out)) if str(arg).startswith("OUT") else arg for arg in argv]
    monkeypatch.chdir(tmp_path)  # x.tsv and friends land here
    code, text = invoke(*argv)
    assert code == 2 and text.startswith(message.replace("OUT", str(out))), text
    assert sorted(os.listdir(tmp_path)) == (["out"] if out.exists() else [])


def test_the_check_runs_before_any_input_is_read(tmp_path):
    # a missing run would be the first error of a command that read its inputs first
    code, text = invoke("score", "--run", tmp_path / "missing.jsonl", "--nuggets", NUGGETS, "-o", tmp_path / "x",
                        "--details", tmp_path / "x")
    assert code == 2 and "-o and --details name the same file" in text


def test_a_directory_output_holding_an_input_and_an_output_inside_an_input_bank_are_refused(tmp_path):
    bank = tmp_path / "bank"
    assert invoke("convert", NUGGETS, "--to", "autoargue-v3", "-o", bank)[0] == 0
    files = sorted(bank.iterdir())
    code, text = invoke("convert", files[0], "--to", "autoargue-v3", "-o", bank)
    assert code == 2 and "-o is a directory that holds the input PATH" in text
    code, text = invoke("convert", bank, "--to", "argue", "-o", files[1])
    assert code == 2 and "-o lies inside the input directory PATH" in text
    assert sorted(bank.iterdir()) == files
    # a stream is never replaced, so two of them may share a device
    assert invoke("pool", *RANKED, "--depth", "1", "-o", "/dev/null", "--sizes", "/dev/null",
                  "--contributions", "/dev/null")[0] == 0


# Every option of every command is a file the command reads or writes (typed so the check above sees it) or one of
# these values that are not files; a new file option must be typed, a new text option listed here.
NOT_FILES = {"--metric", "--metric-b", "--scores-format", "--weights", "--assessor", "DOC_IDS", "--baseline",
             "--judge", "--judge-option", "--to", "--format", "--llm-base-url", "--llm-model", "--llm-api-key-env",
             "--measure", "--title", "--request-id", "--background", "--problem-statement", "--language", "--aspect",
             "--collections", "--requests-format", "--measures", "--query", "--query-fields", "--run-id",
             # a model directory only read by the library; index and cache directories the kit keeps itself;
             # ids read from a stream (collection get has no output)
             "--nli-model", "--cache-dir", "--index-dir", "--ids-from",
             # a torch device spec (auto, cpu, cuda:N, mps), checked by search.devices.parse_device
             "--device",
             "report --runs",  # run ids, comma-separated
             # the workbench's names: topic ids, an assessor's name, the address the server listens on
             "assess assign --topics", "assess assign --to", "assess users add NAME", "assess users reset NAME",
             "assess serve --host", "assess serve --host-name", "judge --shard",  # the names a browser may use for the server
             "requests new --collection",  # collection ids
             "judge calibrate --kinds",  # question kinds
             # model names and words looked for in run metadata; run=team pairs; a regular expression on run ids
             "analyze circularity --judge-model", "analyze circularity --term", "analyze reusability --team",
             "analyze reusability --team-pattern", "compare --system", "report --team", "report --team-pattern",
             # doctor only checks that the cache's folder can be written; --need names extras; schema KIND a kind
             "doctor --cache", "doctor --need", "schema KIND"}


def test_every_file_option_has_a_role():
    import click

    from argue_eval.commands._paths import file_role

    untyped = []
    for name, command in dict(leaf_commands()).items():
        for param in command.params:  # type: ignore[attr-defined]
            flag = param.opts[0] if isinstance(param, click.Option) else (param.name or "").upper()
            if file_role(param) or flag in NOT_FILES or f"{name} {flag}" in NOT_FILES:
                continue
            if (isinstance(param, click.Option) and param.is_flag) or isinstance(
                    param.type, (click.Choice, click.types._NumberParamTypeBase, click.types.BoolParamType)):
                continue
            untyped.append(f"{name} {flag}")
    assert untyped == []


# --- 5. round trips: what the kit writes, the kit reads -----------------------------------------------------------


def _fill_package(package: Path, grade: str = "1") -> None:
    with csvsafe.long_cells():
        rows = list(csv.reader(package.open(newline="")))
    relevance = rows[0].index("relevance")
    with package.open("w", newline="") as handle:
        csvsafe.writer(handle).writerows([rows[0]] + [row[:relevance] + [grade] + row[relevance + 1:] for row in rows[1:]])


def test_a_package_with_a_long_document_text_goes_back_through_qrels_build(tmp_path):
    # before: pool wrote the 200,000-character text in one cell, and qrels build refused its own package
    # ("field larger than field limit (131072)", and at line 2, the short row before the long one)
    collection = tmp_path / "docs.jsonl"
    collection.write_text(json.dumps({"doc_id": "short", "text": "a few words"}) + "\n"
                          + json.dumps({"doc_id": "long", "text": "word " * 40_000}) + "\n")
    run = tmp_path / "run.trec"
    run.write_text("s1 Q0 short 1 2 r\ns1 Q0 long 2 1 r\n")
    package = tmp_path / "pool.csv"
    code, output = invoke("pool", run, "-o", tmp_path / "pool.qrels", "--package", package, "--collection", collection)
    assert code == 0, output
    _fill_package(package)
    code, output = invoke("qrels", "build", "--pool", tmp_path / "pool.qrels", package, "-o", tmp_path / "q.trec")
    assert code == 0, output
    assert (tmp_path / "q.trec").read_text() == "s1 0 long 1\ns1 0 short 1\n"


def test_a_csv_error_names_the_line_its_row_starts_on(tmp_path, monkeypatch):
    # the header is line 1 and the short row line 2; the long cell is on line 3, where the error must point
    package = tmp_path / "pool.csv"
    package.write_text('"request_id","doc_id","relevance","text"\n"s1","a","1","short"\n"s1","b","1","'
                       + "x" * 500 + '"\n')
    monkeypatch.setattr(csvsafe, "LONGEST_CELL", 100)
    code, output = invoke("qrels", "build", package, "-o", tmp_path / "q.trec")
    assert code == 2 and output.startswith(f"{package}:3: not readable as CSV: field larger than field limit (100)")


def test_qrels_build_refuses_a_header_only_package_and_a_row_cut_short(tmp_path):
    # before: the header alone wrote an empty qrels file, and a row cut short read as a document not yet judged
    package = tmp_path / "pool.csv"
    header = '"request_id","doc_id","pool_rank","relevance"\n'
    package.write_text(header)
    code, output = invoke("qrels", "build", package, "-o", tmp_path / "q.trec")
    assert code == 2 and output.startswith(f"{package}: no assessment rows (only a header?)")
    package.write_text(header + '"s1","a","1","2"\n"s1","b","2"\n')
    code, output = invoke("qrels", "build", package, "-o", tmp_path / "q.trec")
    assert code == 2 and output.startswith(f"{package}:3: 1 cell(s) fewer than the header's 4 columns")
    assert not (tmp_path / "q.trec").exists()


# --- 6. no traceback from any option value -----------------------------------------------------------------------
# (tests/test_fault_injection.py feeds every number and file option of every command nan, inf, -1, 0, 30 digits, a
# 300-byte name, a directory, a FIFO and dangling or looping links; these are the values the probe of issue 23 found)

THIRTY = "9" * 30


@pytest.mark.parametrize(("args", "message"), [
    (["convert", RUN, "--to", "argue", "-o", "a" * 300], "the name is too long for the file system (a part of 300 bytes"),
    (["score", "--run", "a" * 300, "--nuggets", NUGGETS, "-o", "x"], "the name is too long for the file system"),
    (["compare", SCORES, "-m", "f1", "--seed", "-1"], "Invalid value for '--seed': -1 is not in the range 0<=x<=4294967295."),
    (["--max-line-mib", THIRTY, "inspect", RUN], f"'--max-line-mib': {THIRTY} is not in the range 1<=x<=1048576."),
    (["compare", SCORES, "-m", "f1", "--resamples", THIRTY], "'--resamples': 9999"),
    (["compare", SCORES, "-m", "f1", "--confidence", "nan"], "Invalid value for '--confidence': 'nan' is not a finite number."),
    (["judge", "--run", RUN, "--nuggets", NUGGETS, "--judge", "llm", "--llm-model", "m", "--concurrency", THIRTY,
      "--dry-run"], "'--concurrency': 9999"),
    (["judge", "--run", RUN, "--nuggets", NUGGETS, "--judge", "llm", "--llm-model", "m", "--llm-max-doc-tokens",
      THIRTY, "--dry-run"], "'--llm-max-doc-tokens': 9999"),
    (["judge", "--run", RUN, "--nuggets", NUGGETS, "--judge-option", f"lexical.passage_words={THIRTY}", "--dry-run"],
     "lexical.passage_words: expected a whole number of at most 1000000000"),
    (["judge", "--run", RUN, "--nuggets", NUGGETS, "--judge", "llm", "--judge-option", "llm.model=m",
      "--judge-option", f"llm.seed={THIRTY}", "--dry-run"], "llm.seed: expected a whole number"),
    (["requests", "new", "NEW", "--request-id", "z", "--title", "t", "--background", "b", "--problem-statement", "p",
      "--limit", THIRTY], "'--limit': 9999"),
    (["retrieval", "-m", "ndcg@99999999999", "--qrels", QRELS, RANKED[0]],
     "--measures: measure 'ndcg@99999999999': the cutoff must be between 1 and 1000000000"),
    (["nuggetizer", RUN, "--okay-weight", "nan", "-o", "x"], "'--okay-weight': 'nan' is not a finite number."),
    (["validate", RUN, "--citation-score-range", "nan", "inf"], "'--citation-score-range': 'nan' is not a finite number."),
    (["judge", "--run", RUN, "--nuggets", NUGGETS, "--judge", "llm", "--llm-model", "m", "--llm-base-url",
      "http://127.0.0.1:9/v1", "--requests-per-minute", "1e-300", "--dry-run"],
     "'--requests-per-minute': 1e-300 is not in the range x>=1."),
])
def test_an_option_value_is_a_one_line_error_at_its_flag(tmp_path, monkeypatch, args, message):
    # before: an OSError (name too long), numpy's ValueError (--seed -1, --resamples), an OverflowError
    # (--max-line-mib), an IndexError (--confidence nan), orjson's "Integer exceeds 64-bit range", a KeyError from
    # trec_eval, or, for --requests-per-minute 1e-300, a wait of 10^300 minutes before each call
    monkeypatch.chdir(tmp_path)
    code, output = invoke(*[tmp_path / "new.jsonl" if arg == "NEW" else arg for arg in args])
    assert code == 2 and message in output, output


def test_a_self_looping_symlink_as_input_is_named_as_one(tmp_path):
    loop = tmp_path / "loop.jsonl"
    loop.symlink_to(loop)
    for args in (["inspect", loop], ["score", "--run", loop, "--nuggets", NUGGETS, "-o", tmp_path / "s.tsv"],
                 ["qrels", "stats", loop]):
        code, output = invoke(*args)
        assert code == 2 and "is a symbolic link that loops back on itself" in output, output


def test_requests_new_refuses_a_gzip_file_and_validate_reads_a_wrong_format_as_a_problem(tmp_path):
    gz = tmp_path / "requests.jsonl.gz"
    gz.write_bytes(gzip.compress(REQUESTS.read_bytes()))
    code, output = invoke("requests", "new", gz, "--request-id", "z9", "--title", "t", "--background", "b",
                          "--problem-statement", "p", "--limit", "100")
    assert code == 2 and output.startswith(f"{gz}: requests new appends a line to a plain JSON Lines file, and this "
                                           "one is gzip")
    assert gzip.decompress(gz.read_bytes()) == REQUESTS.read_bytes()  # before: a UnicodeDecodeError traceback
    # the XML reader given a JSON Lines file: its one problem, located (before: read line by line as JSON and
    # refused as an unknown JSON format, though web-xml is a known one)
    code, output = invoke("requests", "validate", REQUESTS, "--format", "web-xml")
    assert code == 1 and output.startswith(f"{REQUESTS}:1: invalid XML: not well-formed")


def test_runs_from_a_pipe_are_read_whole_and_a_collection_from_a_pipe_must_be_a_file(tmp_path):
    import subprocess
    import sys

    # the shell's <(...) is /dev/fd/N, a pipe: format detection read its first line, and the reader found the rest
    # (a line cut in the middle: "invalid JSON") or nothing
    script = (f"{sys.executable} -m argue_eval.cli score --run <(cat {RUN}) --nuggets <(cat {NUGGETS}) "
              f"--judgments <(gzip -c {JUDGMENTS}) -q -o {tmp_path}/pipe.tsv; echo rc=$?; "
              f"cat {RUN} | {sys.executable} -m argue_eval.cli score --run /dev/stdin --nuggets {NUGGETS} "
              f"--judgments {JUDGMENTS} -q -o {tmp_path}/stdin.tsv; echo rc=$?; "
              f"{sys.executable} -m argue_eval.cli judge --run {RUN} --nuggets {NUGGETS} --collection "
              f"<(cat {COLLECTION}) --no-cache -q -o {tmp_path}/j.jsonl; echo rc=$?")
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.stdout.split() == ["rc=0", "rc=0", "rc=2"], done.stderr
    assert "Traceback" not in done.stderr
    assert "is a pipe or device, not a file: a JSONL collection is looked up by byte offset" in done.stderr
    code, _ = invoke("score", "--run", RUN, "--nuggets", NUGGETS, "--judgments", JUDGMENTS, "-q",
                     "-o", tmp_path / "file.tsv")
    assert code == 0
    assert (tmp_path / "pipe.tsv").read_bytes() == (tmp_path / "file.tsv").read_bytes()
    assert (tmp_path / "stdin.tsv").read_bytes() == (tmp_path / "file.tsv").read_bytes()


# --- 7. secrets and terminal safety ---------------------------------------------------------------------------


def test_redact_url_by_hand():
    from argue_eval.redact import redact_text, redact_url

    for plain in ("http://gpu01:8000/v1", "https://api.example.org/v1?model=x&stream=false", "http://[::1]:9/v1",
                  "http://host/v1#frag", "gpu01:8000/v1"):
        assert redact_url(plain) == plain  # no credentials: the very same string (what identities hash)
    assert redact_url("https://alice:pa55@host:8000/v1") == "https://REDACTED@host:8000/v1"
    assert redact_url("https://sk-abc@host/v1") == "https://REDACTED@host/v1"
    assert redact_url("https://host/v1?api_key=sk-1&model=m&access_token=t0k") == \
        "https://host/v1?api_key=REDACTED&model=m&access_token=REDACTED"
    assert redact_text("Incorrect API key provided: sk-proj-abcdefgh1234. See https://u:p@h/x", ["abcdefgh"]) == \
        "Incorrect API key provided: REDACTED. See https://REDACTED@h/x"
    assert redact_text("got Bearer abc.def-ghi from x") == "got Bearer REDACTED from x"


def test_url_credentials_reach_the_server_and_nothing_the_kit_writes(tmp_path, monkeypatch):
    # before: --llm-base-url https://user:password@host/v1 was written verbatim into the manifest's judge options
    pytest.importorskip("aiohttp", reason="needs the llm extra (aiohttp)")
    import base64

    from llm_server import MockChatServer

    from argue_eval.judges.cache import judge_fingerprint
    from argue_eval.judges.llm import LLMJudge

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with MockChatServer() as server:
        url = server.base_url.replace("http://", "http://alice:pa55-SECRET@")
        out = tmp_path / "j.jsonl"
        code, output = invoke("judge", "--run", RUN, "--nuggets", NUGGETS, "--collection", COLLECTION,
                              "--judge", "llm", "--llm-base-url", url, "--llm-model", "mock", "--concurrency", "1",
                              "--cache", tmp_path / "cache.sqlite", "-o", out)
    assert code == 0, output
    assert server.headers[0]["Authorization"] == "Basic " + base64.b64encode(b"alice:pa55-SECRET").decode()
    manifest = json.loads((tmp_path / "j.jsonl.manifest.json").read_text())
    assert manifest["judge_options"]["llm"]["base_url"] == server.base_url.replace("http://", "http://REDACTED@")
    for path in tmp_path.iterdir():
        assert b"SECRET" not in path.read_bytes(), path
    assert "SECRET" not in output
    # the cache is keyed by what changes answers, never by the URL: the same with or without credentials
    assert judge_fingerprint(LLMJudge(base_url=url, model="mock").identity()) == \
        judge_fingerprint(LLMJudge(base_url=server.base_url, model="mock").identity())
    assert "SECRET" not in repr(LLMJudge(base_url=url, model="mock"))


def test_a_refused_key_says_authentication_failed_on_stderr(tmp_path, monkeypatch):
    pytest.importorskip("aiohttp", reason="needs the llm extra (aiohttp)")
    from llm_server import MockChatServer

    monkeypatch.setenv("MOCK_KEY", "sk-mock-SECRET-99")
    with MockChatServer(lambda n, body: ("error", 401, "invalid key sk-mock-SECRET-99")) as server:
        result = CliRunner().invoke(cli, [str(a) for a in (
            "judge", "--run", RUN, "--nuggets", NUGGETS, "--collection", COLLECTION, "--judge", "llm",
            "--llm-base-url", server.base_url, "--llm-model", "mock", "--llm-api-key-env", "MOCK_KEY",
            "--no-cache", "-o", tmp_path / "j.jsonl")])
    assert result.exit_code == 2, result.output
    assert any(line.startswith("authentication failed: the server answered HTTP 401 (invalid key REDACTED)")
               for line in result.stderr.splitlines())
    assert "SECRET" not in result.output and not (tmp_path / "j.jsonl").exists()


OSC = "\x1b]0;pwned\x07"  # an escape sequence that retitles a terminal window


def _with_first(path: Path, edit) -> str:
    """The first line of a JSONL file, edited (``edit(record)``), as text."""
    record = json.loads(path.read_text().splitlines()[0])
    edit(record)
    return json.dumps(record) + "\n"


def test_a_control_character_in_any_id_field_is_refused(tmp_path):
    # before: judgments' request_id, a collection's doc_id, nuggetizer's qid, nugget bindings and citations took
    # any character, and an id with an escape sequence reached the terminal in notes
    judgments = tmp_path / "judgments.jsonl"
    judgments.write_text(_with_first(JUDGMENTS, lambda r: r.update(request_id="s01" + OSC)))
    code, output = invoke("score", "--run", RUN, "--nuggets", NUGGETS, "--judgments", judgments, "-o", tmp_path / "s")
    assert code == 2 and output.startswith(f"{judgments}:1: request_id: id contains the control character U+001B")
    collection = tmp_path / "docs.jsonl"
    collection.write_text('{"doc_id": "nw-0001", "text": "a"}\n{"doc_id": "nw\\u001b[2J", "text": "b"}\n')
    code, output = invoke("collection", "info", collection)
    assert code == 2 and output.startswith(f"{collection}:2: doc_id: id contains the control character U+001B")
    code, output = invoke("icat", "--run", RUN, "--nuggets", NUGGETS, "--collection", collection, "--no-cache",
                          "-o", tmp_path / "i.tsv")
    assert code == 2 and output.startswith(f"{collection}:2: doc_id: id contains the control character U+001B")
    assignments = tmp_path / "a.jsonl"
    assignments.write_text(json.dumps({"qid": "q\x07", "nuggets": []}) + "\n")
    code, output = invoke("nuggetizer", assignments, "-o", tmp_path / "n.tsv")
    assert code == 2 and output.startswith(f"{assignments}:1: qid: id contains the control character U+0007")
    bank = tmp_path / "nuggets.jsonl"
    bank.write_text(_with_first(NUGGETS, lambda r: r["nuggets"][0]["answers"][0]["doc_ids"].append("nw\x9b1m")))
    code, output = invoke("nuggets", "validate", bank)
    assert code == 1 and "nuggets[0].answers[0].doc_ids[5]: id contains the control character U+009B" in output
    run = tmp_path / "run.jsonl"
    run.write_text(_with_first(RUN, lambda r: r["sentences"][0].update(citations=["nw-0001\x1b"])))
    code, output = invoke("score", "--run", run, "--nuggets", NUGGETS, "--judgments", JUDGMENTS, "-o", tmp_path / "s")
    assert code == 2 and output.startswith(f"{run}:1: sentences[0].citations[0]: id contains the control character")


def test_validate_refuses_the_run_ids_score_cannot_write(tmp_path):
    # before: validate said 0 errors for a run id with a tab, and score refused the run when writing its table
    run = tmp_path / "run.jsonl"
    run.write_text(_with_first(RUN, lambda r: r.update(run_id="care\tful")))
    code, output = invoke("validate", run, "--requests", REQUESTS)
    assert code == 1 and output.startswith(f"{run}:1: run_id: id contains the control character U+0009")
    code, output = invoke("score", "--run", run, "--nuggets", NUGGETS, "--judgments", JUDGMENTS, "-o", tmp_path / "s")
    assert code == 2 and output.startswith(f"{run}:1: run_id: id contains the control character U+0009")


def test_nothing_echoed_reaches_the_terminal_as_an_escape_sequence(tmp_path):
    # a file name and an option value are echoed in errors; stderr writes their control characters out
    named = tmp_path / f"run{OSC}.jsonl"
    named.write_text("not json\n")
    for args in (["inspect", named], ["inspect", RUN, "--format", f"x{OSC}"],
                 ["compare", SCORES, "-m", "f1", "--baseline", f"b{OSC}", "--resamples", "10"]):
        result = CliRunner().invoke(cli, [str(arg) for arg in args])
        assert result.exit_code == 2 and "\x1b" not in result.output and "\x07" not in result.output, result.output
        assert "\\x1b]0;pwned\\x07" in result.stderr, result.stderr
    # data on stdout that is not a terminal is left byte for byte (a sentence may hold any character)
    run = tmp_path / "run.jsonl"
    run.write_text(_with_first(RUN, lambda r: r["sentences"][0].update(text="bell \x07 in the text")))
    result = CliRunner().invoke(cli, ["assess", "export", "--run", str(run), "--nuggets", str(NUGGETS), "--csv",
                                      "-o", "-"])
    assert result.exit_code == 0 and "bell \x07 in the text" in result.stdout


# --- 8. degenerate inputs -----------------------------------------------------------------------------------------


def test_an_empty_assignments_context_or_details_file_is_an_error(tmp_path):
    # before: each wrote a score table (or a report) of nothing and exited 0
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n  \n")
    code, output = invoke("nuggetizer", empty, "-o", tmp_path / "n.tsv")
    assert code == 2 and output.startswith(f"{empty}: no assignments (the file is empty)")
    code, output = invoke("comprehensiveness", "--run", RUN, "--context", empty, "-o", tmp_path / "c.tsv")
    assert code == 2 and f"Invalid value for '--context': '{empty}' is empty" in output
    code, output = invoke("report", "--scores", SCORES, "--details", empty, "--resamples", "10", "-o", tmp_path / "r.html")
    assert code == 2 and output.startswith(f"{empty}: no details records (the file is empty)")
    assert sorted(os.listdir(tmp_path)) == ["empty.jsonl"]


def test_icat_refuses_a_collection_with_a_duplicate_doc_id(tmp_path):
    # before: the in-memory index took both texts under one id; the offset index refused the same file
    collection = tmp_path / "docs.jsonl"
    lines = COLLECTION.read_text().splitlines()
    collection.write_text("\n".join(lines + lines[:1]) + "\n")
    code, output = invoke("icat", "--run", RUN, "--nuggets", NUGGETS, "--collection", collection, "--no-cache",
                          "-o", tmp_path / "i.tsv")
    assert code == 2 and output.startswith(f"{collection}:{len(lines) + 1}: duplicate document id 'nw-0001' "
                                           "(first on line 1)")
    assert invoke("collection", "info", collection)[0] == 2  # as every other reader


def test_score_with_qrels_relevance_refuses_conflicting_duplicate_qrels_lines(tmp_path):
    qrels = tmp_path / "q.trec"
    first = QRELS.read_text().splitlines()
    doc = first[0].split()
    qrels.write_text("\n".join(first + [f"{doc[0]} 0 {doc[2]} 0"]) + "\n")  # graded 2 on line 1, 0 here
    args = ["score", "--run", RUN, "--nuggets", NUGGETS, "--judgments", JUDGMENTS, "--relevance", "qrels",
            "--qrels", qrels, "--missing-judgments", "zero", "-q", "-o", tmp_path / "s.tsv"]
    code, output = invoke(*args)
    assert code == 2 and output.startswith(f"{qrels}:{len(first) + 1}: relevance: topic 's01', document 'nw-0001' "
                                           "is judged 0 here and 2 on line 1")
    assert invoke("qrels", "stats", qrels)[0] == 2  # the rule of qrels stats
    qrels.write_text("\n".join(first + first[:1]) + "\n")  # the same grade twice agrees
    assert invoke(*args)[0] == 0


def _judge_with_cache(tmp_path: Path, cache: Path) -> tuple[int, str]:
    return invoke("judge", "--run", RUN, "--nuggets", NUGGETS, "--collection", COLLECTION, "--cache", cache, "-q",
                  "-o", tmp_path / "j.jsonl")


def test_a_locked_judgment_cache_says_so(tmp_path):
    import sqlite3

    cache = tmp_path / "cache.sqlite"
    assert _judge_with_cache(tmp_path, cache)[0] == 0
    holder = sqlite3.connect(cache, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another run in the middle of a write
    try:
        code, output = _judge_with_cache(tmp_path, cache)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    # before: "... (database is locked); is the file damaged?", which sent people to delete a good cache
    assert code == 2 and output.startswith(f"{cache}: the judgment cache is locked by another process")


def test_a_read_only_judgment_cache_says_so(tmp_path):
    import shutil
    import subprocess

    cache = tmp_path / "cache.sqlite"
    assert _judge_with_cache(tmp_path, cache)[0] == 0
    if ROOTED:  # root writes any file whatever its mode: only the immutable attribute stops it
        if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(cache)]).returncode != 0:
            pytest.skip("chattr +i is not available here")
    else:
        os.chmod(cache, 0o444)
    try:
        code, output = _judge_with_cache(tmp_path, cache)
    finally:
        if ROOTED:
            subprocess.run(["chattr", "-i", str(cache)], check=True)
    assert code == 2 and output.startswith(f"{cache}: the judgment cache is read-only here")
