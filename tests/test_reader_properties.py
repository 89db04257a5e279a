"""Property tests of the readers (issue 13): any bytes give records or a located error, never a traceback.

Every reader that takes a participant's or assessor's file is fed random byte strings and near-valid text built
from the tokens of real files; what comes out must be records, or an ``ArgueError`` whose message starts with
the file's name. Anything else (``KeyError``, ``RecursionError``, ``OverflowError``, ``UnicodeDecodeError`` ...)
is a bug a hostile file could trigger.
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from argue_eval import formats
from argue_eval.errors import ArgueError
from argue_eval.formats.qrels import read_trec_qrels
from argue_eval.formats.ranked import read_ranked_columns, read_trec_run
from argue_eval.formats.scores import read_scores
from argue_eval.organizer.assessment import read_pool
from argue_eval.organizer.qrels import read_assessments
from argue_eval.reading import iter_jsonl, read_json

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Pieces of real files: JSON syntax, field names, TREC columns, CSV cells, and the bytes that break readers.
TOKENS = [b"{", b"}", b"[", b"]", b",", b":", b'"', b"\n", b"\r\n", b" ", b"\t", b"\\", b"\\u0000", b"\x00", b"\xff",
          b"\xef\xbb\xbf", b"NaN", b"-Infinity", b"1e400", b"99999999999999999999999999", b"-1", b"0", b"3.5",
          b'"request_id"', b'"run_id"', b'"sentences"', b'"text"', b'"citations"', b'"doc_id"', b'"nuggets"',
          b'"kind"', b'"value"', b"true", b"null", b'"s01"', b"s01", b"Q0", b"d1", b"run", b"f1", b"item_id", b"=1+1"]
near_valid = st.lists(st.sampled_from(TOKENS), max_size=60).map(b"".join)
any_bytes = st.one_of(st.binary(max_size=400), near_valid)


def _readers() -> dict[str, tuple[str, Callable[[Path], Iterable]]]:
    def detect_and_read(kind: str) -> Callable[[Path], Iterable]:
        return lambda path: formats.read(path, kind)[1]

    return {
        "iter_jsonl": (".jsonl", iter_jsonl),
        "read_json": (".json", lambda path: [read_json(path)]),
        "trec run": (".trec", read_trec_run),
        "trec run columns": (".trec", lambda path: [read_ranked_columns(path)]),
        "trec qrels": (".qrels", read_trec_qrels),
        "score table": (".tsv", read_scores),
        "assessment pool csv": (".csv", read_pool),
        "assessment pool jsonl": (".jsonl", read_pool),
        "assessor package csv": (".csv", lambda path: [read_assessments(path)]),
        **{f"detect {kind}": (".jsonl", detect_and_read(kind))
           for kind in ("runs", "requests", "nuggets", "judgments", "qrels", "ranked")},
    }


READERS = _readers()


def _check(name: str, data: bytes) -> None:
    suffix, reader = READERS[name]
    handle, raw_path = tempfile.mkstemp(suffix=suffix)
    path = Path(raw_path)
    try:
        os.write(handle, data)
        os.close(handle)
        try:
            for _ in reader(path):
                pass
        except ArgueError as error:
            assert str(error).startswith(str(path)), f"{name}: message does not name the file: {error}"
    finally:
        path.unlink(missing_ok=True)


@pytest.mark.parametrize("name", list(READERS))
@SETTINGS
@given(data=any_bytes)
def test_any_bytes_give_records_or_a_located_error(name: str, data: bytes):
    _check(name, data)
