"""The report normalizes each sentence once, whatever the number of questions about it (issue 35, item 7).

A long sentence citing many documents, in a topic with a big nugget bank, has a question per citation and per
nugget answer; normalizing the sentence for each judgment and each flowchart step made `evaluate --html`
cost the sentence's length times its questions. Counted here, not timed.
"""
from __future__ import annotations

import argue_eval.report.data as data
from argue_eval.model import Judgment, make_key, normalize_text
from argue_eval.report import build_report_data

SENTENCE = "Water  </script> flooded\u2028the plant &  pumps failed " * 50


def _round(questions: int) -> tuple[list, list, list]:
    """One report of one sentence with ``questions`` answer steps, each judged with a rationale."""
    steps = [{"question": "answers", "value": True, "judge": "lexical", "doc_id": f"d{k}", "nugget_id": f"n{k}",
              "answer": f"answer {k}"} for k in range(questions)]
    details = [{"run_id": "A", "request_id": "t1", "sentences": [{
        "text": SENTENCE, "index": 0, "outcome": 1, "path": [],
        "citations": [{"doc_id": f"d{k}", "outcome": 1, "path": [step]} for k, step in enumerate(steps)]}]}]
    judgments = [Judgment("answers", "t1", SENTENCE, True, "lexical", f"d{k}", f"n{k}", f"answer {k}",
                          rationale=f"why {k}") for k in range(questions)]
    scores = [("A", "t1", "f1", 0.5), ("B", "t1", "f1", 0.25)]
    return scores, details, judgments


def _normalizations(monkeypatch, questions: int) -> tuple[int, dict]:
    calls = []

    def counting(text: str) -> str:
        calls.append(len(text))
        return normalize_text(text)

    monkeypatch.setattr(data, "normalize_text", counting)
    scores, details, judgments = _round(questions)
    built = build_report_data(scores, details=details, judgments=judgments)
    return sum(1 for length in calls if length >= len(SENTENCE) // 2), built.topics[0]


def test_a_sentence_is_normalized_once_for_all_its_questions(monkeypatch):
    few, _ = _normalizations(monkeypatch, 5)
    many, block = _normalizations(monkeypatch, 200)
    # once for the judgments' keys, once for the report's steps: the same for 5 and for 200 questions
    assert few == many == 2
    # and every step still finds its judgment's rationale (item [.., rationale string position, confidence])
    strings = block["strings"]
    citations = block["reports"]["A"][0][0][2]
    assert [strings[citation[5][0][6]] for citation in citations] == [f"why {k}" for k in range(200)]


def test_the_keys_are_the_judgments_keys():
    judgment = _round(1)[2][0]
    assert judgment.key == make_key("answers", "t1", normalize_text(SENTENCE), "d0", "n0", "answer 0")
