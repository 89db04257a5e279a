"""Benchmark: judgments/s of the model-backed judges on CPU, as ratios to the lexical judge (issue 8, 8c).

The questions are those of the fidelity benchmark (``bench_judge_fidelity.build_questions``: every question
the flowchart can ask about the reports, cited-document scope, deduplicated), on real text when
``../shared/judge-dev/`` is there (one NeuCLIR 2024 report, full news documents) and on the shipped sample
track otherwise (``--dataset``). Every judge answers the same questions in the same process, one after
the other, with a fresh judge each time; the lexical judge is the baseline of every ratio.

  lexical            the default judge, all kinds (its caches cold)
  lexical cold/warm  the lexical judge on the kinds the model judge answers, first with the process-wide
                     text caches (tokens, stems, passages) cleared, then again with them filled: the
                     baselines of the cold and the warm model-judge rows
  semantic cold      a fresh semantic judge: every sentence and passage embedded (the model loaded before
                     timing; its load time is printed apart); ratio to "lexical cold"
  semantic warm      the same judge asked again: every embedding cached, what a document cited by many
                     runs costs after the first time; ratio to "lexical warm"
  nli (--nli)        the NLI judge on ``attested`` and ``answers`` with a randomly initialized model of
                     BERT-base shape (12 layers, hidden 768; the compute of a base-size NLI model such as
                     DeBERTa-v3-base, which has more parameters in its embeddings only) and a word-level
                     tokenizer built here, saved under bench/out/. Its answers are meaningless; its speed is
                     that of a real base model on the same passages, give or take the tokenizer (whole
                     words here, word pieces in a real model: real inputs are somewhat longer).

    python bench/bench_judge_speed.py                      # dev set if present, semantic only
    python bench/bench_judge_speed.py --nli --nli-limit 60 # also the NLI judge on 60 questions
    python bench/bench_judge_speed.py --dataset sample
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
os.environ.setdefault("ARGUE_EVAL_PROGRESS", "0")

import bench_judge_fidelity as fidelity  # noqa: E402

OUT = REPO / "bench" / "out"


def clear_text_caches() -> None:
    """Empty every process-wide cache of the text layer and the lexical judge (tokens, stems, passages), so
    that a lexical baseline starts as cold as a fresh semantic judge does."""
    from argue_eval import model, passages
    from argue_eval.judges import lexical, lexical_tokens

    for module in (lexical_tokens, lexical, passages):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
    model.natural_key.cache_clear()


def timed(judge: Any, questions: list[Any]) -> tuple[float, int]:
    """Seconds to answer ``questions`` in one ``answer_many`` call, and how many got a verdict."""
    started = time.perf_counter()
    verdicts = judge.answer_many(questions)
    return time.perf_counter() - started, sum(verdict is not None for verdict in verdicts)


def build_base_nli(path: Path, words: list[str], seed: int = 5) -> Path:
    """A random BERT-base-shaped NLI classifier with a word-level tokenizer over ``words`` (once)."""
    if (path / "config.json").is_file():
        return path
    import torch
    import transformers
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

    path.mkdir(parents=True, exist_ok=True)
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *sorted(set(words))[:30000]]
    tokenizer = Tokenizer(models.WordLevel({word: index for index, word in enumerate(vocab)}, unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    transformers.PreTrainedTokenizerFast(
        tokenizer_object=tokenizer, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]",
        mask_token="[MASK]", model_max_length=512,
    ).save_pretrained(str(path))
    config = transformers.BertConfig(vocab_size=len(vocab), num_labels=3,
                                     id2label={0: "entailment", 1: "neutral", 2: "contradiction"},
                                     label2id={"entailment": 0, "neutral": 1, "contradiction": 2})
    torch.manual_seed(seed)
    transformers.BertForSequenceClassification(config).save_pretrained(str(path))
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dataset", choices=("dev", "sample"), default=None,
                        help="dev (../shared/judge-dev, the default when present) or sample")
    parser.add_argument("--nli", action="store_true", help="also time the NLI judge with a BERT-base-shaped model")
    parser.add_argument("--nli-limit", type=int, default=60, help="NLI questions to time (default 60)")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON to this file")
    args = parser.parse_args(argv)

    name = args.dataset or ("dev" if fidelity.DEV.is_dir() else "sample")
    dataset = fidelity.load_dev() if name == "dev" else fidelity.load_sample()
    topics = {topic.request_id: topic for topic in dataset.topics}
    questions = fidelity.build_questions(dataset.reports, topics, dataset.requests, dataset.documents)
    kinds = Counter(question.kind for question in questions)
    words = sum(len(document.text.split()) for document in dataset.documents.values())
    print(f"dataset {name}: {len(questions)} questions ({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))}), "
          f"{len(dataset.documents)} documents, {words} document words")

    from argue_eval.judges.lexical import LexicalJudge
    from argue_eval.judges.semantic import SemanticJudge
    from argue_eval.search.dense import load_model

    rows: list[dict[str, Any]] = []

    def row(label: str, seconds: float, answered: int, baseline: float | None) -> None:
        rate = answered / seconds if seconds > 0 else float("inf")
        rows.append({"judge": label, "answered": answered, "seconds": round(seconds, 3),
                     "judgments_per_s": round(rate, 1),
                     "ratio_to_lexical": None if baseline is None else round(rate / baseline, 4)})

    clear_text_caches()
    seconds, answered = timed(LexicalJudge(), questions)
    row("lexical", seconds, answered, None)

    started = time.perf_counter()
    load_model()
    load_seconds = time.perf_counter() - started
    semantic_questions = [q for q in questions if q.kind in SemanticJudge.kinds]
    clear_text_caches()
    seconds, answered = timed(LexicalJudge(), semantic_questions)
    cold_rate = answered / seconds
    row("lexical cold (semantic's kinds)", seconds, answered, cold_rate)
    seconds, answered = timed(LexicalJudge(), semantic_questions)
    warm_rate = answered / seconds
    row("lexical warm (semantic's kinds)", seconds, answered, warm_rate)
    semantic = SemanticJudge()
    seconds, answered = timed(semantic, semantic_questions)
    row("semantic cold / lexical cold", seconds, answered, cold_rate)
    seconds, answered = timed(semantic, semantic_questions)
    row("semantic warm / lexical warm", seconds, answered, warm_rate)
    semantic.close()

    if args.nli:
        from argue_eval.judges.nli import NLIJudge

        vocabulary = [w.lower() for d in dataset.documents.values() for w in (d.title + " " + d.text).split()]
        vocabulary += [w.lower() for q in questions for w in q.sentence.split()]
        model = build_base_nli(OUT / "nli-bert-base-random", vocabulary)
        subset = [q for q in questions if q.kind in NLIJudge.kinds][: args.nli_limit]
        clear_text_caches()
        seconds, answered = timed(LexicalJudge(), subset)
        nli_baseline = answered / seconds
        row(f"lexical cold (nli's {len(subset)} questions)", seconds, answered, nli_baseline)
        nli = NLIJudge(model_path=model, batch_size=16)
        pairs = sum(nli.plan_calls(subset).values())
        seconds, answered = timed(nli, subset)
        row(f"nli base-size ({pairs} pairs) / lexical cold", seconds, answered, nli_baseline)
        nli.close()

    print(f"semantic model load: {load_seconds:.2f} s (once per process, not in the rates)")
    print(f"{'judge':<44} {'answered':>8} {'seconds':>9} {'judg/s':>10} {'x lexical':>10}")
    for item in rows:
        ratio = "" if item["ratio_to_lexical"] is None else f"{item['ratio_to_lexical']:.4f}"
        print(f"{item['judge']:<44} {item['answered']:>8} {item['seconds']:>9.3f} {item['judgments_per_s']:>10.1f} "
              f"{ratio:>10}")
    if args.json:
        args.json.write_text(json.dumps({"dataset": name, "questions": dict(kinds), "model_load_s": load_seconds,
                                         "rows": rows}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
