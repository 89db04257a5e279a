"""A judgment cache written by older code still answers everything it answered then (stored rows never change).

``fixtures/cache/cache-43807af.sqlite`` was made by main at 43807af, before the runner, the measures' entailment
and the LLM tasks shared one read-through of the cache (``judges/asking.py``); ``fixtures/cache/make_cache.py``
says how. Every command that made it runs again here on a copy with a judge that cannot answer (the lexical judge
raises, the scripted server refuses every call): each answer must come from the file, and the file must not gain
or change a row.
"""
from __future__ import annotations

import importlib.util
import json
import shutil
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli

HERE = Path(__file__).resolve().parent
MAKE = HERE / "fixtures" / "cache" / "make_cache.py"


def rows(path: Path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT judge, key, verdict FROM answers ORDER BY judge, key").fetchall()


def old_cache(tmp_path: Path) -> tuple[Any, Path]:
    """The script that made the fixture (its ``commands``) and a copy of the cache file it made at 43807af."""
    spec = importlib.util.spec_from_file_location("make_cache", MAKE)
    assert spec is not None and spec.loader is not None
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    cache = tmp_path / "cache.sqlite"
    shutil.copy(HERE / "fixtures" / "cache" / "cache-43807af.sqlite", cache)
    return make, cache


def test_every_answer_of_a_cache_made_by_older_code_is_found(tmp_path, monkeypatch):
    pytest.importorskip("aiohttp", reason="the llm judge's and the LLM tasks' rows need the llm extra (aiohttp)")
    from llm_server import MockChatServer

    from argue_eval.judges.lexical import LexicalJudge

    make, cache = old_cache(tmp_path)
    before = rows(cache)
    # 54 lexical rows (the runner's and ask_judge's), 24 of the llm judge, 13 claims calls
    assert len(before) == 91

    def cannot(self, questions):
        raise AssertionError(f"{len(questions)} question(s) not found in the cache: {questions[0].key}")

    monkeypatch.setattr(LexicalJudge, "iter_answer_groups", cannot)
    # the lexical judge's rules changed after 43807af (version 6), and the cache rightly keeps a new version's
    # answers apart; what this test guards is the keying of stored rows, so the judge says it is the version
    # that made the file
    monkeypatch.setattr(LexicalJudge, "version", "5")
    outputs = tmp_path / "out"
    with MockChatServer(lambda n, body: ("status", 400)) as server:
        for args in make.commands(server.base_url, outputs):
            if args[0] == "judge" and "llm" in args:  # the file's answers were made with the llm-v1 prompts
                args = [*args, "--judge-option", "llm.prompts=llm-v1"]
            result = CliRunner().invoke(cli, [*args, "--cache", str(cache), "-q"], catch_exceptions=False)
            assert result.exit_code == 0, (args[0], result.output)
    assert server.requests == []  # not one model call: every llm answer and every claims list was in the file
    assert rows(cache) == before
    # the runner's rows are those keyed with the digest of the texts read (a 9th item): each is one judgment
    with sqlite3.connect(cache) as db:
        backend = {judge: json.loads(identity)["backend"] for judge, identity in db.execute("SELECT * FROM judges")}
    runner_rows = Counter(backend[judge] for judge, key, _ in before if len(json.loads(key)) == 9)
    assert runner_rows == {"lexical": 25, "llm": 24}
    for name in ("lexical", "llm"):
        assert len((outputs / f"{name}.jsonl").read_text().splitlines()) == runner_rows[name]


def test_the_llm_judges_answers_made_with_older_prompts_are_not_served_under_newer_ones(tmp_path):
    """A prompt change is a new template version: the llm judge's 24 answers of that file, made with the llm-v1
    prompts, are found under ``llm.prompts=llm-v1`` (above) but never served by the default (llm-v2) prompts,
    which ask the server again (the scripted server refuses here, so nothing is judged and no row is added)."""
    pytest.importorskip("aiohttp", reason="the llm judge needs the llm extra (aiohttp)")
    from llm_server import MockChatServer

    make, cache = old_cache(tmp_path)
    before = rows(cache)
    with MockChatServer(lambda n, body: ("status", 400)) as server:
        args = next(a for a in make.commands(server.base_url, tmp_path) if a[0] == "judge" and "llm" in a)
        result = CliRunner().invoke(cli, [*args, "--cache", str(cache), "-q"], catch_exceptions=False)
    assert result.exit_code == 1  # nothing could be judged: every call was refused
    assert len(server.requests) > 0 and all("llm-v1" not in json.dumps(r) for r in server.requests)
    assert rows(cache) == before


def test_row_keys_and_verdicts_are_the_bytes_the_json_encoder_wrote_for_every_character():
    """The cache finds a row by its key's text: the faster encoder must write every key exactly as the one the
    older caches were written with (``json``, compact, text as it is), for every code point; a lone surrogate,
    which it refuses, goes through ``json`` itself."""
    from argue_eval.judges.base import Verdict
    from argue_eval.judges.cache import _COMPACT, _key_text, _verdict_text
    from argue_eval.model import JudgmentKey

    texts = ["".join(chr(c) for c in range(start, min(start + 512, 0x110000)) if not 0xD800 <= c <= 0xDFFF)
             for start in range(0, 0x110000, 512)]
    for text in [*texts, "a\ud800b"]:
        key = JudgmentKey("answers", text, text, "d1", "n1", text[:3], None, None)
        assert _key_text(key) == _COMPACT.encode(list(key))
        assert _key_text(key, "0f" * 8) == _COMPACT.encode([*key, "0f" * 8])
        verdict = Verdict(True, "lexical", 0.8123, text, provenance={"backend": "lexical"})
        assert json.loads(_verdict_text(verdict, {})) == {"value": True, "judge": "lexical", "confidence": 0.8123,
                                                          "rationale": text, "provenance": {"backend": "lexical"}}
