"""ir_datasets collections through their doc store, on datasets registered locally (nothing is downloaded)."""
from __future__ import annotations

import uuid
from pathlib import Path
from typing import NamedTuple

import pytest

ir_datasets = pytest.importorskip("ir_datasets")
from ir_datasets.datasets.base import Dataset  # noqa: E402
from ir_datasets.formats import JsonlDocs  # noqa: E402
from ir_datasets.util import Download, LocalDownload, RequestsDownload  # noqa: E402

from argue_eval.collection import MissingDocumentError, open_collection  # noqa: E402
from argue_eval.collection.irds import IrdsDocumentStore  # noqa: E402
from argue_eval.errors import ArgueError, InputError  # noqa: E402
from argue_eval.model import Document  # noqa: E402


class NewsDoc(NamedTuple):
    doc_id: str
    title: str
    text: str

    def default_text(self) -> str:
        return f"{self.title}\n{self.text}"


class BodyDoc(NamedTuple):
    doc_id: str
    body: str

    def default_text(self) -> str:
        return self.body


class PassageDoc(NamedTuple):
    doc_id: str
    passage: str

    def default_text(self) -> str:
        return f"passage: {self.passage}"


def register(docs: JsonlDocs) -> str:
    """Register a one-off local dataset; the name is unique because the registry refuses overwrites."""
    name = f"argue-eval-test/{uuid.uuid4().hex[:12]}"
    ir_datasets.registry.register(name, Dataset(docs))
    return name


def local_dataset(tmp_path: Path, lines: list[str], cls: type = NewsDoc) -> str:
    path = tmp_path / "docs.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return register(JsonlDocs(LocalDownload(path), doc_cls=cls))


@pytest.fixture
def news(tmp_path: Path) -> str:
    return local_dataset(
        tmp_path,
        [
            '{"doc_id": "n1", "title": "Toledo", "text": "Do not drink the water."}',
            '{"doc_id": "2024-105741", "title": "Erie", "text": "A bloom covered the basin."}',
        ],
    )


def test_get_through_the_docs_store_with_explicit_prefix(news):
    with open_collection(f"irds:{news}") as store:
        assert isinstance(store, IrdsDocumentStore)
        assert store.get("n1") == Document("n1", "Do not drink the water.", "Toledo")
        assert store.get("2024-105741").title == "Erie"
        assert store.description == f"ir_datasets collection {news}"


def test_a_bare_registered_id_that_is_not_a_path_is_a_dataset(news):
    with open_collection(news) as store:
        assert isinstance(store, IrdsDocumentStore)
        assert "n1" in store and "n2" not in store


def test_misses_get_many_and_len(news):
    with open_collection(f"irds:{news}") as store:
        assert store.lookup("absent") is None
        assert list(store.get_many(["2024-105741", "gone", "n1"])) == ["2024-105741", "n1"]
        assert dict(store.misses) == {"absent": 1, "gone": 1}
        with pytest.raises(MissingDocumentError, match=f"ir_datasets collection {news}: no document with id 'x'"):
            store.get("x")
        assert len(store) == 2  # the doc store was built by the lookups above, so the count is known


def test_body_field_and_default_text_fallbacks(tmp_path):
    body = local_dataset(tmp_path, ['{"doc_id": "b1", "body": "the body"}'], BodyDoc)
    assert open_collection(f"irds:{body}").get("b1") == Document("b1", "the body", "")
    other = tmp_path / "other"
    other.mkdir()
    passage = local_dataset(other, ['{"doc_id": "p1", "passage": "a passage"}'], PassageDoc)
    assert open_collection(f"irds:{passage}").get("p1").text == "passage: a passage"


def test_unknown_dataset_id_with_prefix():
    with pytest.raises(InputError, match="irds:no-such/dataset: not a dataset id known to ir_datasets"):
        open_collection("irds:no-such/dataset")


def test_a_dataset_that_would_download_is_refused_with_advice(tmp_path, monkeypatch):
    monkeypatch.delenv("ARGUE_EVAL_ALLOW_DOWNLOAD", raising=False)
    # The only source is a (local, closed) URL: the guard refuses before any connection is attempted.
    remote = Download([RequestsDownload("http://127.0.0.1:9/docs.jsonl")], cache_path=str(tmp_path / "dl.jsonl"))
    name = register(JsonlDocs(remote, doc_cls=NewsDoc, docstore_path=str(tmp_path / "store.pklz4")))
    store = open_collection(f"irds:{name}")
    with pytest.raises(ArgueError, match="is not on this machine yet and argue-eval does not download") as info:
        store.get("n1")
    assert "ARGUE_EVAL_ALLOW_DOWNLOAD=1" in str(info.value)
    assert not (tmp_path / "dl.jsonl").exists()


def test_the_download_guard_only_acts_inside_our_calls(tmp_path):
    """Outside argue-eval's calls (e.g. the user's own ir_datasets code) download sources are untouched."""
    from argue_eval.collection import irds

    irds._install_download_guard()
    source = RequestsDownload("http://127.0.0.1:9/x")
    assert getattr(irds._STATE, "depth", 0) == 0
    source.stream()  # an unentered context manager: no connection is made, and nothing is refused
    with irds._offline("some/dataset", allowed=False):
        with pytest.raises(irds._DownloadBlocked):
            source.stream()
