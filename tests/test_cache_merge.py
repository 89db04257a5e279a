"""One round across many machines (issue 35, item 6): ``judge --shard K/N`` judges a share of the round into its
own cache, ``cache merge`` joins the shards' caches, and ``judge`` over the merged cache asks nothing and writes the
judgments a single machine writes. The shards run as separate processes, at once, as on a cluster."""
from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import copy_sample_track

from argue_eval.api import merge_caches
from argue_eval.cli import cli
from argue_eval.errors import InputError
from argue_eval.judges.base import Verdict
from argue_eval.judges.cache import JudgmentCache
from argue_eval.model import JudgmentKey

CLI = [sys.executable, "-m", "argue_eval.cli"]
SAMPLE = ["--run", "runs/sample/careful.jsonl", "--nuggets", "nuggets/sample/nuggets.jsonl",
          "--requests", "topics/sample/requests.jsonl", "--collection", "topics/sample/collection.jsonl",
          "--judge", "lexical"]


def sample_args(folder: Path) -> list[str]:
    runs = sorted(str(p.relative_to(folder)) for p in (folder / "runs" / "sample").glob("*.jsonl"))
    return [arg for run in runs for arg in ("--run", run)] + SAMPLE[2:]


def run_cli(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], cwd=folder, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)})


def answers_in(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT count(*) FROM answers").fetchone()[0]


SUMMARY = re.compile(r"judged with lexical: (\d+) judgment\(s\): (\d+) from the cache, (\d+) new, 0 failed")


def files_in(folder: Path) -> list[str]:
    """The files of ``folder`` but for the ``-wal``/``-shm`` files SQLite keeps beside a database it read."""
    return sorted(p.name for p in folder.iterdir() if not re.search(r"\.sqlite-(wal|shm)$", p.name))


def test_three_shard_processes_merged_write_a_single_machines_judgments(tmp_path):
    folder = copy_sample_track(tmp_path)
    args = sample_args(folder)
    shards = [subprocess.Popen([*CLI, "judge", *args, "--shard", f"{k}/3", "--cache", f"shard{k}.sqlite"],
                               cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)})
              for k in (1, 2, 3)]
    answered = []
    for k, shard in enumerate(shards, 1):
        out, err = shard.communicate(timeout=300)
        assert shard.returncode == 0, err
        new = SUMMARY.search(err)
        assert new is not None and new.group(2) == "0", err  # a fresh cache: every answer computed here
        message = re.search(rf"shard {k}/3: (\d+) questions answered into shard{k}\.sqlite; merge the shards' caches "
                            r"with `argue-eval cache merge` and rerun judge without --shard", err)
        assert message is not None, err
        assert int(message.group(1)) == int(new.group(3)) == answers_in(folder / f"shard{k}.sqlite") > 0
        answered.append(int(message.group(1)))
    assert sorted(p.name for p in folder.glob("*.jsonl*")) == []  # a shard writes no judgments, no manifest

    merged = run_cli(folder, "cache", "merge", "merged.sqlite", "shard1.sqlite", "shard2.sqlite", "shard3.sqlite")
    assert merged.returncode == 0, merged.stderr
    for k, count in enumerate(answered, 1):  # the shares are disjoint: each shard's answers all added
        assert f"shard{k}.sqlite: {count} answer(s), {count} added, 0 already there" in merged.stderr
    assert f"merged 3 cache(s) into merged.sqlite: {sum(answered)} answer(s)" in merged.stderr
    assert answers_in(folder / "merged.sqlite") == sum(answered)

    whole = run_cli(folder, "judge", *args, "--cache", "merged.sqlite", "-o", "merged.jsonl")
    assert whole.returncode == 0, whole.stderr
    counts = SUMMARY.search(whole.stderr)
    assert counts is not None, whole.stderr
    assert (int(counts.group(1)), int(counts.group(2)), int(counts.group(3))) == (sum(answered), sum(answered), 0)
    assert answers_in(folder / "merged.sqlite") == sum(answered)  # nothing new was asked or stored

    single = run_cli(folder, "judge", *args, "--cache", "single.sqlite", "-o", "single.jsonl")
    assert single.returncode == 0, single.stderr
    assert SUMMARY.search(single.stderr).group(1) == str(sum(answered))  # type: ignore[union-attr]
    assert (folder / "merged.jsonl").read_bytes() == (folder / "single.jsonl").read_bytes()
    assert (folder / "merged.jsonl").stat().st_size > 0


def key(sentence: str) -> JudgmentKey:
    return JudgmentKey("attested", "t1", sentence, "d1", None, None, None, None)


def cache_with(path: Path, answers: dict[str, bool], judge: str = "fp") -> Path:
    with JudgmentCache(path) as cache:
        cache.put_many(judge, [(key(s), Verdict(v, "lexical")) for s, v in answers.items()])
    return path


def test_merge_counts_an_answer_in_two_caches_once(tmp_path):
    a = cache_with(tmp_path / "a.sqlite", {"one": True, "two": False})
    b = cache_with(tmp_path / "b.sqlite", {"two": False, "three": True})
    result = merge_caches(tmp_path / "out.sqlite", [a, b])
    assert [(c.answers, c.added, c.same) for c in result.inputs] == [(2, 2, 0), (2, 1, 1)]
    assert (result.answers, result.same) == (3, 1)
    with JudgmentCache(tmp_path / "out.sqlite") as merged:
        found = merged.get_many("fp", [key("one"), key("two"), key("three")])
    assert {k.sentence: v.value for k, v in found.items()} == {"one": True, "two": False, "three": True}
    assert files_in(tmp_path) == ["a.sqlite", "b.sqlite", "out.sqlite"]  # no temporary file left


def test_two_answers_to_one_key_are_refused_naming_the_key_and_both_files(tmp_path):
    a = cache_with(tmp_path / "a.sqlite", {"one": True})
    b = cache_with(tmp_path / "b.sqlite", {"two": True})
    c = cache_with(tmp_path / "c.sqlite", {"one": False})
    done = CliRunner().invoke(cli, ["cache", "merge", str(tmp_path / "out.sqlite"), str(a), str(b), str(c)])
    assert done.exit_code == 2
    line = done.output.strip()
    assert line.startswith(f"{c}: answers the key ") and f"otherwise than {a}:" in line, line
    assert '["attested","t1","one","d1",null,null,null,null]' in line and "(judge fp)" in line
    assert '"value":false' in line and '"value":true' in line
    assert "Traceback" not in done.output
    assert files_in(tmp_path) == ["a.sqlite", "b.sqlite", "c.sqlite"]  # nothing half-written
    assert not list(tmp_path.glob("*out.sqlite*"))


def test_the_same_key_under_two_judges_is_no_clash(tmp_path):
    a = cache_with(tmp_path / "a.sqlite", {"one": True}, judge="fp1")
    b = cache_with(tmp_path / "b.sqlite", {"one": False}, judge="fp2")
    assert merge_caches(tmp_path / "out.sqlite", [a, b]).answers == 2


def test_merge_refuses_an_existing_output_and_inputs_that_are_not_caches(tmp_path):
    a = cache_with(tmp_path / "a.sqlite", {"one": True})
    out = tmp_path / "out.sqlite"
    out.write_bytes(b"keep me")
    with pytest.raises(InputError, match="exists: cache merge writes a new cache file"):
        merge_caches(out, [a])
    assert out.read_bytes() == b"keep me"
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n")
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE people (name TEXT)")
    for bad, message in ((text, "cannot be read as a judgment cache"), (other, "is not a judgment cache"),
                         (tmp_path / "gone.sqlite", "no such judgment cache")):
        done = CliRunner().invoke(cli, ["cache", "merge", str(tmp_path / "new.sqlite"), str(a), str(bad)])
        assert done.exit_code == 2 and message in done.output and "Traceback" not in done.output, done.output
        assert not (tmp_path / "new.sqlite").exists()
    assert answers_in(a) == 1  # an input is only read


@pytest.mark.parametrize("value", ["0/3", "4/3", "x/y", "3", "1/0"])
def test_a_bad_shard_is_an_error_at_the_flag(value):
    done = CliRunner().invoke(cli, ["judge", *SAMPLE, "--shard", value, "--no-cache"])
    assert done.exit_code == 2
    assert "Invalid value for '--shard': expected K/N" in done.output and repr(value) in done.output


@pytest.mark.parametrize(("extra", "message"), [
    (["--no-cache"], "--shard: needs a --cache"),
    (["--cache", "c.sqlite", "-o", "j.jsonl"], "-o: a shard (2/3) writes no judgments"),
    (["--cache", "c.sqlite", "--dry-run"], "--shard: not with --dry-run"),
])
def test_a_shard_refuses_what_it_would_not_do(tmp_path, extra, message):
    folder = copy_sample_track(tmp_path)
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        done = CliRunner().invoke(cli, ["judge", *SAMPLE, "--shard", "2/3", *extra])
    finally:
        os.chdir(cwd)
    assert done.exit_code == 2 and message in done.output, done.output
    assert not (folder / "j.jsonl").exists() and not (folder / "c.sqlite").exists()


def test_shard_1_of_1_is_the_whole_round_and_writes_the_judgments(tmp_path):
    folder = copy_sample_track(tmp_path)
    whole = run_cli(folder, "judge", *SAMPLE, "--shard", "1/1", "--cache", "c.sqlite", "-o", "j.jsonl")
    plain = run_cli(folder, "judge", *SAMPLE, "--cache", "d.sqlite", "-o", "k.jsonl")
    assert whole.returncode == plain.returncode == 0, whole.stderr
    assert (folder / "j.jsonl").read_bytes() == (folder / "k.jsonl").read_bytes()


def test_sentence_embeddings_are_merged_and_the_first_vector_of_a_text_is_kept(tmp_path):
    a = cache_with(tmp_path / "a.sqlite", {"one": True})
    b = cache_with(tmp_path / "b.sqlite", {"two": True})
    with JudgmentCache(a) as cache:
        cache.embeddings().put_many("minilm", [("h1", [1.0, 0.0]), ("h2", [0.0, 1.0])])
    with JudgmentCache(b) as cache:  # h2 again, its last bits another machine's
        cache.embeddings().put_many("minilm", [("h2", [0.0, 0.999]), ("h3", [0.5, 0.5])])
    result = merge_caches(tmp_path / "out.sqlite", [a, b])
    assert [c.embeddings for c in result.inputs] == [2, 1]
    with JudgmentCache(tmp_path / "out.sqlite") as merged:
        found = merged.embeddings().get_many("minilm", ["h1", "h2", "h3"], 2)
    assert {k: v.tolist() for k, v in found.items()} == {"h1": [1.0, 0.0], "h2": [0.0, 1.0], "h3": [0.5, 0.5]}


def test_cache_alone_names_its_subcommand():
    done = CliRunner().invoke(cli, ["cache"])
    assert done.exit_code == 2 and "'cache' needs a subcommand: argue-eval cache merge" in done.output


def test_merge_json_holds_the_counts_the_text_prints(tmp_path):
    import json

    a = cache_with(tmp_path / "a.sqlite", {"one": True, "two": False})
    b = cache_with(tmp_path / "b.sqlite", {"two": False})
    done = CliRunner().invoke(cli, ["cache", "merge", str(tmp_path / "out.sqlite"), str(a), str(b), "--json"])
    assert done.exit_code == 0, done.output
    document = json.loads(done.stdout)
    assert (document["answers"], document["same"]) == (2, 1)
    assert [(i["answers"], i["added"], i["same"]) for i in document["inputs"]] == [(2, 2, 0), (1, 0, 1)]
