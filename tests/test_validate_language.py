"""``validate``'s report-language check: RAGTIME and NeuCLIR reports must be in English (``--language`` for others)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.cli import cli
from argue_eval.language import MIN_LETTERS, identify, report_language
from argue_eval.validate import ValidateOptions, validate_runs

ZH = ["新冠疫情期间，日本的自杀率在十多年来首次上升。", "2020年，日本共有20919人自杀，比2019年增加了3.7%。"]  # 23 + 33 characters
EN = ["Women were disproportionately affected.", "In October 2020 alone, 879 women died by suicide."]  # 39 + 49


def run(tmp_path: Path, reports: list[list[str]], name: str = "run.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps({"run_id": "r1", "request_id": f"q{i}", "collection_ids": ["neuclir/1/zho"],
                                        "sentences": [{"text": t, "citations": []} for t in texts]}) + "\n"
                            for i, texts in enumerate(reports)), encoding="utf-8")
    return path


def problems(path: Path, **options) -> list[tuple[int | None, str, str]]:
    return [(p.line, p.severity, p.message) for p in validate_runs([path], options=ValidateOptions(**options)).problems]


def test_sentences_are_identified_and_counted_by_their_characters():
    assert identify(ZH[0]) == "zh" and identify(EN[0]) == "en"
    assert identify("2020-03-14, 3.7%") is None  # no letter: tells nothing
    found = report_language([ZH[0], EN[0], "42."])
    assert found.sentences == ("zh", "en", None)
    assert dict(found.characters) == {"zh": 23, "en": 39}
    assert found.share("en") == pytest.approx(39 / 62)
    assert found.main == "en" and found.judged


def test_a_report_too_short_to_tell_is_not_judged():
    assert MIN_LETTERS == 20
    assert not report_language(["Ok, yes."]).judged  # 5 letters


def test_a_chinese_report_under_the_neuclir_track_is_an_error_naming_its_sentences(tmp_path):
    path = run(tmp_path, [EN, ZH, [ZH[0], *EN]])
    assert problems(path, track="neuclir24") == [
        (2, "error", "report is not in English: 100% in Chinese (sentences[0], sentences[1]), 0% in English; "
                     "NeuCLIR 2024 report generation requires English reports (--language-threshold 0.5 of the text)"),
    ]  # the third report is 88 of 111 characters English (79%): above the threshold


def test_the_threshold_decides_a_mixed_report(tmp_path):
    path = tmp_path / "ragtime.jsonl"
    path.write_text(json.dumps({"metadata": {"team_id": "t", "run_id": "r1", "topic_id": "q0"},
                                "responses": [{"text": t, "citations": []} for t in [ZH[0], *EN]],
                                "references": []}) + "\n", encoding="utf-8")  # 88 / 111 = 0.79 English
    assert problems(path, track="ragtime26", language_threshold=0.8)[0][2].startswith(
        "report is not in English: 21% in Chinese (responses[0]), 79% in English; RAGTIME 2026 requires English reports")
    assert problems(path, track="ragtime26", language_threshold=0.79) == []


def test_language_names_another_language_or_turns_the_check_off(tmp_path):
    path = run(tmp_path, [ZH, EN])
    assert [line for line, _, _ in problems(path, language="zh")] == [2]
    assert problems(path, track="neuclir24", language="any") == []
    assert ValidateOptions(track="rag24").required_language() is None
    assert ValidateOptions(track="ragtime25").required_language() == "en"


def test_the_command_takes_the_options_and_refuses_bad_ones(tmp_path):
    path = run(tmp_path, [ZH])
    result = CliRunner().invoke(cli, ["validate", str(path), "--track", "neuclir24", "--warn", "report-language"])
    assert result.exit_code == 0
    assert result.output.splitlines()[0].startswith(f"{path}:1: sentences: warning: report is not in English")
    result = CliRunner().invoke(cli, ["validate", str(path), "--language", "english"])
    assert result.exit_code == 2 and "--language: expected an ISO 639-1 code such as en (or 'any'), not 'english'" in result.output
    result = CliRunner().invoke(cli, ["validate", str(path), "--language", "en", "--language-threshold", "0"])
    assert result.exit_code == 2 and "--language-threshold" in result.output
