"""The document store: JSONL offset index (build, reuse, staleness, bad lines), ir_datasets, Lucene delegation."""
from __future__ import annotations

import gzip
import os
import shutil
import sqlite3
import sys
import types
from pathlib import Path

import pytest

from argue_eval.collection import MissingDocumentError, open_collection
from argue_eval.collection import jsonl as jsonl_module
from argue_eval.collection.base import BaseDocumentStore, DocumentStore
from argue_eval.collection.jsonl import JsonlDocumentStore, cache_root, ensure_index, index_locations
from argue_eval.errors import ArgueError, InputError, MissingDependencyError
from argue_eval.model import Document

TOLEDO = "a1f3c2e0-1111-4a2b-9c3d-000000000001"
BLOOM = "a1f3c2e0-2222-4a2b-9c3d-000000000002"
SEGMENT = "msmarco_v2.1_doc_11_1042#3_2265"


def write(tmp_path: Path, text: str, name: str = "c.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def bad_line_error(path: Path) -> InputError:
    with pytest.raises(InputError) as info:
        ensure_index(path)
    return info.value


# --- lookups -----------------------------------------------------------------------------------------


def test_get_returns_title_and_text_by_id(docs):
    with open_collection(docs) as store:
        assert isinstance(store, JsonlDocumentStore)
        assert isinstance(store, DocumentStore)
        assert store.get(TOLEDO) == Document(
            TOLEDO,
            "On 2 August 2014 the city of Toledo told its 400,000 residents not to drink tap water after "
            "microcystin was found at the treatment plant.",
            "Toledo water ban",
        )
        assert store.get(SEGMENT).text == "Segment ids keep their hash sign and underscores."
        assert store.get("2024-105741").title == ""  # no title field
        assert len(store) == 5


def test_get_of_a_missing_id_raises_a_keyerror_that_names_collection_and_id(docs):
    with open_collection(docs) as store:
        with pytest.raises(MissingDocumentError) as info:
            store.get("no-such-doc")
    error = info.value
    assert isinstance(error, KeyError) and isinstance(error, ArgueError)
    assert str(error) == f"JSONL collection {docs}: no document with id 'no-such-doc'"
    assert error.doc_id == "no-such-doc"


def test_lookup_records_misses_and_get_does_not(docs):
    with open_collection(docs) as store:
        assert store.lookup("x1") is None
        assert store.lookup("x1") is None
        assert store.lookup(BLOOM).title == "Algal bloom on Lake Erie"
        with pytest.raises(KeyError):
            store.get("x2")
        assert dict(store.misses) == {"x1": 2}


def test_contains(docs):
    with open_collection(docs) as store:
        assert SEGMENT in store
        assert "2024-105741" in store
        assert "2024-10574" not in store
        assert 2024 not in store  # ids are strings
        assert not store.misses  # membership tests are not misses


def test_get_many_keeps_request_order_dedupes_and_records_misses(docs):
    with open_collection(docs) as store:
        found = store.get_many([SEGMENT, "gone", TOLEDO, SEGMENT])
        assert list(found) == [SEGMENT, TOLEDO]
        assert found[TOLEDO].title == "Toledo water ban"
        assert dict(store.misses) == {"gone": 1}


def test_field_aliases_and_integer_ids(tmp_path, fixtures):
    path = tmp_path / "aliases.jsonl"
    shutil.copy(fixtures / "collection" / "aliases.jsonl", path)
    with open_collection(path) as store:
        assert store.get("d1") == Document("d1", "first document", "")
        assert store.get("2") == Document("2", "an integer id becomes the string '2'", "two")
        assert store.index.id_field == "docid" and store.index.text_field == "contents"


@pytest.mark.parametrize(
    ("line", "doc_id", "text"),
    [('{"id": "x", "body": "b"}', "x", "b"), ('{"_id": "y", "text": "t", "contents": "c"}', "y", "t")],
)
def test_other_id_and_text_fields(tmp_path, line, doc_id, text):
    with open_collection(write(tmp_path, line + "\n")) as store:
        assert store.get(doc_id).text == text  # "text" is preferred over "contents"


def test_blank_lines_crlf_and_no_final_newline(tmp_path):
    path = write(tmp_path, '{"doc_id": "a", "text": "A"}\r\n\r\n{"doc_id": "b", "text": "B"}')
    with open_collection(path) as store:
        assert [store.get("a").text, store.get("b").text] == ["A", "B"]
        assert len(store) == 2


def test_lookups_from_several_threads(docs):
    from concurrent.futures import ThreadPoolExecutor

    ids = [TOLEDO, BLOOM, SEGMENT, "2024-105741", "absent"] * 40
    with open_collection(docs) as store, ThreadPoolExecutor(max_workers=8) as pool:
        found = list(pool.map(store.lookup, ids))
    assert [doc.doc_id if doc else None for doc in found] == [i if i != "absent" else None for i in ids]
    assert store.misses["absent"] == 40


def test_closed_store_refuses_lookups(docs):
    store = open_collection(docs)
    store.close()
    with pytest.raises(ArgueError, match="closed"):
        store.get(TOLEDO)
    store.close()  # closing twice is harmless


# --- the persistent index --------------------------------------------------------------------------


def test_index_is_built_once_in_the_cache_never_in_the_collections_folder_and_reused(docs):
    first = ensure_index(docs)
    assert first.built and first.count == 5
    assert first.index_path == index_locations(docs)[1] and first.index_path.parent == cache_root() / "collections"
    assert sorted(p.name for p in docs.parent.iterdir()) == ["docs.jsonl"]  # nothing written beside the data
    second = ensure_index(docs)
    assert not second.built and second.count == 5 and second.index_path == first.index_path


def test_an_index_beside_the_file_when_asked_is_found_first(docs):
    shipped = ensure_index(docs, beside=True)
    assert shipped.index_path == docs.resolve().with_name("docs.jsonl.argue-idx")
    again = ensure_index(docs)
    assert not again.built and again.index_path == shipped.index_path


def test_index_gets_the_usual_file_mode(docs):
    import stat

    umask = os.umask(0o022)
    try:
        info = ensure_index(docs)
    finally:
        os.umask(umask)
    assert stat.S_IMODE(info.index_path.stat().st_mode) == 0o644  # 0o666 minus the umask, not mkstemp's 0o600


def test_index_holds_offsets_not_text(docs):
    connection = sqlite3.connect(ensure_index(docs).index_path)
    rows = connection.execute("SELECT doc_id, offset, length FROM docs ORDER BY offset").fetchall()
    connection.close()
    lines = docs.read_bytes().splitlines(keepends=True)
    # Offsets are cumulative line lengths: line 2 starts where line 1 ends, and so on.
    assert [row[1] for row in rows] == [sum(len(line) for line in lines[:k]) for k in range(5)]
    assert [row[2] for row in rows] == [len(line) for line in lines]
    assert rows[3][0] == SEGMENT


def test_appending_a_document_rebuilds_the_index(docs):
    ensure_index(docs)
    with open(docs, "ab") as handle:
        handle.write(b'{"doc_id": "new", "text": "appended later"}\n')
    with open_collection(docs) as store:
        assert store.index.built
        assert store.get("new").text == "appended later"
        assert len(store) == 6


def test_same_size_edit_with_restored_mtime_is_caught_by_the_fingerprint(docs):
    ensure_index(docs)
    stat = docs.stat()
    data = docs.read_bytes().replace(b"Toledo water ban", b"Toledo water BAN")
    docs.write_bytes(data)
    os.utime(docs, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert docs.stat().st_size == stat.st_size and docs.stat().st_mtime_ns == stat.st_mtime_ns
    with open_collection(docs) as store:
        assert store.index.built
        assert store.get(TOLEDO).title == "Toledo water BAN"


def test_touching_the_file_rebuilds(docs):
    ensure_index(docs)
    stat = docs.stat()
    os.utime(docs, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert ensure_index(docs).built


def test_a_lookup_that_lands_on_another_document_asks_for_a_rebuild(docs):
    connection = sqlite3.connect(ensure_index(docs).index_path)
    connection.execute("UPDATE docs SET offset = 0 WHERE doc_id = ?", (BLOOM,))  # now points at line 1
    connection.commit()
    connection.close()
    with open_collection(docs) as store:
        with pytest.raises(ArgueError, match="changed since it was indexed.*collection index --rebuild"):
            store.get(BLOOM)


def test_corrupt_index_file_is_rebuilt(docs):
    docs.with_name("docs.jsonl.argue-idx").write_bytes(b"not an sqlite file")
    info = ensure_index(docs)
    assert info.built and info.count == 5


def test_an_index_asked_beside_goes_to_the_cache_when_the_directory_is_not_writable(docs, tmp_path, monkeypatch):
    beside, cached = index_locations(docs, tmp_path / "cache")
    real_build = jsonl_module._build

    def refuse_beside(path, index_path, state, on_bad_line):
        if index_path == beside:
            raise PermissionError(13, "Permission denied")
        return real_build(path, index_path, state, on_bad_line)

    monkeypatch.setattr(jsonl_module, "_build", refuse_beside)
    info = ensure_index(docs, tmp_path / "cache", beside=True)
    assert info.built and info.index_path == cached
    assert cached.parent == tmp_path / "cache" / "collections"
    assert not beside.exists()
    # A later open finds the cached index instead of rebuilding.
    with open_collection(docs, tmp_path / "cache") as store:
        assert not store.index.built and store.get(BLOOM).doc_id == BLOOM


def test_cache_root_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("ARGUE_EVAL_CACHE", str(tmp_path / "c"))
    assert cache_root() == tmp_path / "c"
    assert cache_root(tmp_path / "explicit") == tmp_path / "explicit"
    monkeypatch.delenv("ARGUE_EVAL_CACHE")
    assert cache_root() == Path.home() / ".cache" / "argue-eval"


def test_rebuild_forces_a_new_index(docs):
    ensure_index(docs)
    assert ensure_index(docs, rebuild=True).built


# --- bad collections ---------------------------------------------------------------------------------


def test_duplicate_id_names_both_lines(tmp_path):
    path = write(tmp_path, '{"doc_id": "a", "text": "1"}\n{"doc_id": "b", "text": "2"}\n{"doc_id": "a", "text": "3"}\n')
    error = bad_line_error(path)
    assert str(error) == f"{path}:3: duplicate document id 'a' (first on line 1)"
    assert not path.with_name("c.jsonl.argue-idx").exists()  # no half-built index left behind
    assert [p.name for p in tmp_path.iterdir()] == ["c.jsonl"]


def test_line_without_the_id_field(tmp_path):
    path = write(tmp_path, '{"doc_id": "a", "text": "1"}\n{"id": "b", "text": "2"}\n')
    assert str(bad_line_error(path)) == (
        f"{path}:2: doc_id: missing document id (this collection's id field is 'doc_id', as on line 1)"
    )


def test_first_line_without_any_id_field(tmp_path):
    path = write(tmp_path, '\n{"name": "a", "text": "1"}\n')
    assert str(bad_line_error(path)) == f"{path}:2: no document id field (expected one of doc_id, docid, id, _id)"


def test_line_without_text(tmp_path):
    path = write(tmp_path, '{"doc_id": "a", "text": "1"}\n{"doc_id": "b", "text": null}\n{"doc_id": "c", "text": 3}\n')
    assert str(bad_line_error(path)) == f"{path}:2: text: missing (this collection's text field is 'text', as on line 1)"


def test_non_string_and_empty_ids(tmp_path):
    path = write(tmp_path, '{"doc_id": ["a"], "text": "1"}\n')
    assert str(bad_line_error(path)) == f"{path}:1: doc_id: expected a string document id, found list"
    path = write(tmp_path, '{"doc_id": " ", "text": "1"}\n', "e.jsonl")
    assert str(bad_line_error(path)) == f"{path}:1: doc_id: empty document id"


@pytest.mark.parametrize(
    ("data", "line", "message"),
    [
        (b'{"doc_id": "a", "text": "1"}\n{\n  "doc_id": "b"\n}\n', 2, "pretty-printed"),
        (b'{"doc_id": "a", "text": "1"}{"doc_id": "b", "text": "2"}\n', 1, "concatenated without newlines"),
        (b'{"doc_id": "a", "text": "1"}\n{"doc_id": "b", "text": "2"', 2, "truncated last line"),
        (b'\xef\xbb\xbf{"doc_id": "a", "text": "1"}\n', 1, "byte-order mark"),
        (b'{"doc_id": "a", "text": "caf\xe9"}\n', 1, "invalid UTF-8"),
        (b'["a", "b"]\n', 1, "expected a JSON object"),
    ],
)
def test_malformed_lines_are_located(tmp_path, data, line, message):
    path = tmp_path / "c.jsonl"
    path.write_bytes(data)
    error = bad_line_error(path)
    assert error.line == line and message in str(error)


def test_empty_collection(tmp_path):
    path = write(tmp_path, "\n\n")
    assert str(bad_line_error(path)) == f"{path}: the collection has no documents"


def test_gzipped_collection_explains_how_to_decompress(tmp_path):
    path = tmp_path / "c.jsonl.gz"
    with gzip.open(path, "wb") as handle:
        handle.write(b'{"doc_id": "a", "text": "1"}\n')
    with pytest.raises(InputError) as info:
        open_collection(path)
    assert str(info.value) == (
        f"{path}: gzip-compressed collections cannot be read by seeking; decompress it once "
        f"(gunzip -k {path}) and use the uncompressed .jsonl file"
    )


def test_skip_bad_lines_keeps_the_rest_and_records_warnings(tmp_path):
    path = write(
        tmp_path,
        '{"doc_id": "a", "text": "first a"}\n'
        "not json\n"
        '{"doc_id": "b", "text": "b"}\n'
        '{"doc_id": "a", "text": "second a"}\n'
        '{"text": "no id"}\n',
    )
    with open_collection(path, on_bad_line="skip") as store:
        assert len(store) == 2
        assert store.get("a").text == "first a"  # the first of repeated ids wins
        assert [str(w) for w in store.warnings] == [
            f"{path}:2: warning: invalid JSON: this line is not a JSON object ('not json')",
            f"{path}:4: warning: duplicate document id 'a' (first on line 1)",
            f"{path}:5: doc_id: warning: missing document id (this collection's id field is 'doc_id', as on line 1)",
        ]
        assert store.index.skipped_count == 3
    # Reopening reads the warnings back from the index instead of rescanning.
    with open_collection(path, on_bad_line="skip") as store:
        assert not store.index.built and len(store.warnings) == 3
    # Asking for strict checking later rebuilds, and then fails on the first bad line.
    with pytest.raises(InputError, match=":2: invalid JSON"):
        open_collection(path)


# --- what open_collection accepts ---------------------------------------------------------------------


def test_unknown_spec_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="no such file or directory, and not an ir_datasets dataset id"):
        open_collection(str(tmp_path / "absent.jsonl"))


def test_directory_that_is_not_a_lucene_index(tmp_path):
    with pytest.raises(InputError, match="not a Lucene index"):
        open_collection(tmp_path)


def test_lucene_index_is_delegated_to_the_lucene_store(tmp_path, monkeypatch):
    (tmp_path / "segments_3").write_bytes(b"")
    opened = []

    class FakeLuceneStore(BaseDocumentStore):
        def __init__(self, index_dir: str):
            super().__init__()
            opened.append(index_dir)
            self.description = f"Lucene index {index_dir}"

        def _fetch(self, doc_id: str) -> Document | None:
            return Document(doc_id, "from lucene") if doc_id == "L1" else None

    fake = types.ModuleType("argue_eval.collection.lucene")
    fake.LuceneDocumentStore = FakeLuceneStore  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "argue_eval.collection.lucene", fake)
    store = open_collection(tmp_path)
    assert opened == [str(tmp_path)]
    assert store.get("L1").text == "from lucene"


def test_lucene_index_without_the_search_backend_names_the_extra(tmp_path, monkeypatch):
    (tmp_path / "segments_1").write_bytes(b"")
    monkeypatch.setitem(sys.modules, "argue_eval.collection.lucene", None)  # import fails
    with pytest.raises(MissingDependencyError, match=r"pip install 'argue-eval\[search\]'"):
        open_collection(tmp_path)


@pytest.mark.search
def test_a_real_lucene_index_opens_through_open_collection(tmp_path, docs):
    """End to end with the search extra: our fixture indexed by Anserini, then read back by id."""
    pytest.importorskip("pyserini")
    from argue_eval.collection.lucene import LuceneDocumentStore
    from argue_eval.search.lucene import ensure_index as ensure_lucene_index

    try:
        ensure_lucene_index(docs, tmp_path / "lucene")
    except MissingDependencyError as error:  # no Java 21+ on this machine
        pytest.skip(str(error))
    with open_collection(tmp_path / "lucene") as store:
        assert isinstance(store, LuceneDocumentStore)
        assert store.get(SEGMENT) == Document(SEGMENT, "Segment ids keep their hash sign and underscores.", "")
        assert store.get(TOLEDO).title == "Toledo water ban"
        assert store.lookup("absent") is None and dict(store.misses) == {"absent": 1}
