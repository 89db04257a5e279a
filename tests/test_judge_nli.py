"""The NLI judge with tiny models built inside the test (no NLI model ships on PyPI).

Each model is a one-layer BERT with random (seeded) weights and a word-level tokenizer built here with the
``tokenizers`` library, saved with ``save_pretrained``: enough to prove loading from a local path, the label
mapping read from the config, batching, and the maximum over passages, against probabilities computed with
transformers directly.
"""
from __future__ import annotations

import functools
import math
from pathlib import Path

import pytest

from argue_eval.errors import InputError
from argue_eval.judges.base import Question, make_key
from argue_eval.model import Document, Nugget, normalize_text
from argue_eval.passages import PassageSplitter

pytestmark = pytest.mark.nli

WORDS = ("the council approved a budget of 20 million dollars for public parks on monday residents packed hall "
         "work playgrounds starts in spring snow is expected mountains this weekend answer to question how much "
         "money did what when will . , ? \" $").split()
NLI_LABELS = {0: "ENTAILMENT", 1: "neutral", 2: "contradiction"}


def build_model(path: Path, id2label: dict[int, str], seed: int = 0, bias: tuple[float, ...] | None = None) -> Path:
    """Save a tiny random BERT sequence classifier and its tokenizer under ``path``."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors
    path.mkdir(parents=True, exist_ok=True)
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *dict.fromkeys(WORDS)]
    tokenizer = Tokenizer(models.WordLevel({word: index for index, word in enumerate(vocab)}, unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    transformers.PreTrainedTokenizerFast(
        tokenizer_object=tokenizer, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]",
        mask_token="[MASK]", model_max_length=64,
    ).save_pretrained(str(path))
    config = transformers.BertConfig(
        vocab_size=len(vocab), hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32,
        max_position_embeddings=64, num_labels=len(id2label), id2label=dict(id2label),
        label2id={label: index for index, label in id2label.items()},
        initializer_range=0.5,  # BERT's 0.02 makes a tiny random model say 1/3 to everything
    )
    torch.manual_seed(seed)
    model = transformers.BertForSequenceClassification(config)
    if bias is not None:  # a classifier that ignores its input: every pair gets softmax(bias)
        with torch.no_grad():
            model.classifier.weight.zero_()
            model.classifier.bias.copy_(torch.tensor(bias))
    model.save_pretrained(str(path))
    return path


@functools.lru_cache(maxsize=4)
def raw_model(path: str):
    import transformers

    tokenizer = transformers.AutoTokenizer.from_pretrained(path, local_files_only=True)
    model = transformers.AutoModelForSequenceClassification.from_pretrained(path, local_files_only=True).eval()
    return tokenizer, model


def raw_probability(path: Path, premise: str, hypothesis: str, index: int) -> float:
    """P(label ``index``) for one pair, straight from transformers (independent of the judge's batching)."""
    import torch

    tokenizer, model = raw_model(str(path))
    with torch.no_grad():
        logits = model(**tokenizer(premise, hypothesis, truncation="only_first", max_length=64,
                                   return_tensors="pt")).logits
    return float(torch.softmax(logits, dim=-1)[0, index])


@pytest.fixture(scope="module")
def random_model(tmp_path_factory) -> Path:
    return build_model(tmp_path_factory.mktemp("nli") / "tiny-nli", NLI_LABELS, seed=1)


def judge(path: Path, **options):
    from argue_eval.judges.nli import NLIJudge

    return NLIJudge(model_path=path, **options)


def attested(sentence: str, document: Document) -> Question:
    return Question(make_key("attested", "t1", normalize_text(sentence), document.doc_id), sentence, document=document)


DOC = Document("d1", "residents packed the hall on monday . the council approved a budget of 20 million dollars "
                     "for public parks . work on the playgrounds starts in spring .")
SENTENCE = "the council approved 20 million dollars for parks ."


def test_the_entailment_label_is_read_from_the_config_wherever_it_is(tmp_path):
    # The classifier ignores its input and always outputs logits (5, 0, 0): softmax gives
    # e^5 / (e^5 + 2) = 0.98670 to label 0 and 1 / (e^5 + 2) = 0.00665 to each other label.
    first = build_model(tmp_path / "first", {0: "ENTAILMENT", 1: "NEUTRAL", 2: "CONTRADICTION"}, bias=(5.0, 0.0, 0.0))
    last = build_model(tmp_path / "last", {0: "contradiction", 1: "neutral", 2: "Entailment"}, bias=(5.0, 0.0, 0.0))
    assert round(math.exp(5) / (math.exp(5) + 2), 4) == 0.9867
    yes = judge(first).answer(attested(SENTENCE, DOC))
    no = judge(last).answer(attested(SENTENCE, DOC))
    assert (yes.value, no.value) == (True, False)
    assert "entailment 0.987" in yes.rationale and "entailment 0.007" in no.rationale
    assert yes.confidence == pytest.approx(0.9867, abs=1e-4)  # 0.5 + |0.9867 - 0.5|, capped at 1
    assert judge(first).params()["entailment_label"] == 0 and judge(last).params()["entailment_label"] == 2


def test_a_config_without_an_entailment_label_is_a_clear_error(tmp_path):
    plain = build_model(tmp_path / "plain", {0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"})
    with pytest.raises(InputError) as error:
        judge(plain)
    message = str(error.value)
    assert message.startswith(f"{plain / 'config.json'}: id2label: no entailment label")
    assert "0=LABEL_0, 1=LABEL_1, 2=LABEL_2" in message


def test_a_missing_or_non_model_path_is_a_clear_error_and_nothing_is_downloaded(tmp_path):
    from argue_eval.judges.nli import NLIJudge

    with pytest.raises(InputError, match="--nli-model PATH"):
        NLIJudge()
    with pytest.raises(InputError, match="no such model directory"):
        judge(tmp_path / "roberta-large-mnli")  # a hub name is not a local directory: no download is tried
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no config.json"):
        judge(tmp_path / "empty")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "config.json").write_text('{"model_type": "bert", "id2label": {"0": "entailment", "1": "other"}}')
    import importlib.util

    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("transformers") is None:
        from argue_eval.errors import MissingDependencyError

        with pytest.raises(MissingDependencyError, match=r"argue-eval\[nli\]"):
            judge(broken)  # a plain install: the missing extra is named, nothing is downloaded
    else:
        with pytest.raises(InputError, match="cannot load a sequence-classification model"):
            judge(broken)  # a config but no weights or tokenizer


def test_batch_sizes_give_the_same_probabilities(random_model):
    sentences = [SENTENCE, "snow is expected in the mountains this weekend .", "the hall was packed on monday .",
                 "work starts in spring .", "the council approved a budget ."]
    questions = [attested(sentence, DOC) for sentence in sentences]
    runs = [[v.rationale for v in judge(random_model, batch_size=size).answer_many(questions)] for size in (1, 3, 64)]
    assert runs[0] == runs[1] == runs[2]
    one = judge(random_model, batch_size=2)
    pairs = [(DOC.text, sentence) for sentence in sentences]
    assert one.entailment_probabilities(pairs) == pytest.approx(
        [raw_probability(random_model, p, h, 0) for p, h in pairs], abs=1e-4)


def test_attested_takes_the_maximum_over_the_passages_of_the_document(random_model):
    document = Document("d2", "residents packed the hall on monday . the council approved a budget of 20 million "
                              "dollars . work on the playgrounds starts in spring .")
    passages = PassageSplitter(6, 3).document(document)
    assert passages[0] == "residents packed the hall on monday"
    assert passages[1] == "hall on monday . the council"
    assert len(passages) == 8
    each = [raw_probability(random_model, passage, SENTENCE, 0) for passage in passages]
    best = max(range(len(each)), key=each.__getitem__)
    assert len({round(p, 4) for p in each}) > 1  # the passages really differ, so taking the max matters

    verdict = judge(random_model, passage_words=6, passage_stride=3).answer(attested(SENTENCE, document))
    assert f"entailment {each[best]:.3f} from passage {best + 1}/8" in verdict.rationale
    just_below = judge(random_model, passage_words=6, passage_stride=3, attested_threshold=round(each[best], 4) - 0.0002)
    just_above = judge(random_model, passage_words=6, passage_stride=3, attested_threshold=round(each[best], 4) + 0.0002)
    assert just_below.answer(attested(SENTENCE, document)).value is True
    assert just_above.answer(attested(SENTENCE, document)).value is False


def test_answers_asks_whether_the_sentence_entails_the_answer_statement(random_model):
    from argue_eval.judges.nli import answer_statement

    nugget = Nugget("n1", "t1", "How much money did the council approve?")
    statement = answer_statement(nugget.question, "20 million dollars")
    assert statement == 'The answer to the question "How much money did the council approve?" is 20 million dollars.'
    key = make_key("answers", "t1", normalize_text(SENTENCE), "d1", "n1", "20 million dollars")
    question = Question(key, SENTENCE, nugget=nugget, answer="20 million dollars", document=DOC)
    expected = raw_probability(random_model, SENTENCE, statement, 0)
    verdict = judge(random_model, answers_threshold=0.0).answer(question)
    assert verdict.value is True
    assert f"entailment {expected:.3f}" in verdict.rationale
    assert judge(random_model, answers_threshold=1.0).answer(question).value is False


def test_identity_changes_with_thresholds_and_with_the_model(random_model, tmp_path):
    base = judge(random_model).identity()
    assert base["backend"] == "nli" and base["model"] == "tiny-nli" and len(base["model_sha256"]) == 64
    assert judge(random_model).identity() == base
    assert judge(random_model, attested_threshold=0.7).identity() != base
    other = build_model(tmp_path / "tiny-nli", NLI_LABELS, seed=2)  # same name, other weights
    assert judge(other).identity()["model_sha256"] != base["model_sha256"]
    assert judge(random_model, batch_size=7).identity() == base  # speed settings are not part of it


def test_kinds_it_does_not_answer_and_questions_without_text_are_none(random_model):
    nli = judge(random_model)
    negative = Question(make_key("negative", "t1", "no one was hurt ."), "no one was hurt .")
    no_document = Question(make_key("attested", "t1", "a claim", "gone"), "a claim")
    assert nli.answer_many([negative, no_document]) == [None, None]
    assert nli.kinds == {"attested", "answers"}


def test_the_registry_builds_it_from_a_model_path_option(random_model):
    from argue_eval.judges.nli import NLIJudge
    from argue_eval.judges.registry import make_judge

    built = make_judge("nli", {"nli": {"model_path": str(random_model), "attested_threshold": 0.8}})
    assert isinstance(built, NLIJudge) and built.params()["attested_threshold"] == 0.8
    with pytest.raises(InputError, match="--nli-model PATH"):
        make_judge("nli")
    with pytest.raises(InputError, match="nli.answers_threshold: expected a probability between 0 and 1"):
        make_judge("nli", {"nli": {"model_path": str(random_model), "answers_threshold": "high"}})


def test_plan_calls_counts_the_pairs_the_model_would_read(random_model):
    nugget = Nugget("n1", "t1", "How much money did the council approve?")
    key = make_key("answers", "t1", normalize_text(SENTENCE), "d1", "n1", "20 million dollars")
    questions = [attested(SENTENCE, DOC), attested(SENTENCE, DOC),  # the same pair twice: read once
                 Question(make_key("attested", "t1", "a claim", "gone"), "a claim"),  # no document yet: at least one
                 Question(key, SENTENCE, nugget=nugget, answer="20 million dollars", document=DOC)]
    nli = judge(random_model, passage_words=6, passage_stride=3)
    passages = len(PassageSplitter(6, 3).document(DOC))
    assert nli.plan_calls(questions) == {"attested": passages + 1, "answers": 1}


def _break(path: Path, how: str) -> Path:
    """Damage a saved model in one way a user's copy can be damaged."""
    import json

    config = path / "config.json"
    if how == "garbage safetensors":
        (path / "model.safetensors").write_bytes(b"not a safetensors file" * 4)
    elif how == "garbage pytorch_model.bin":
        (path / "model.safetensors").unlink()
        (path / "pytorch_model.bin").write_bytes(b"not a torch checkpoint")
    elif how == "id2label a list":
        data = json.loads(config.read_text())
        data["id2label"] = ["entailment", "neutral", "contradiction"]
        config.write_text(json.dumps(data))
    elif how == "more labels than weights":
        data = json.loads(config.read_text())
        data.pop("label2id")
        data["id2label"] = {"0": "entailment", "1": "neutral", "2": "contradiction", "3": "other"}
        config.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("how", ["garbage safetensors", "garbage pytorch_model.bin", "id2label a list",
                                 "more labels than weights"])
def test_a_damaged_model_directory_is_a_one_line_error_not_a_traceback(tmp_path, capfd, how):
    # transformers raises SafetensorError, UnpicklingError, AttributeError and RuntimeError for these:
    # each must reach the user as the located one-line InputError, like a missing config does, and
    # transformers' own report (a table of mismatched weights) must not be printed before it.
    damaged = _break(build_model(tmp_path / "damaged", NLI_LABELS), how)
    capfd.readouterr()
    with pytest.raises(InputError) as error:
        judge(damaged)
    message = str(error.value)
    assert message.startswith(str(damaged)) and "--nli-model: cannot" in message
    assert "\n" not in message
    assert capfd.readouterr().err == ""


def test_a_sentence_longer_than_the_model_window_is_judged_without_transformers_warnings(random_model, capfd):
    # The judge cuts pairs to the window itself; transformers' "Token indices sequence length is longer than
    # the specified maximum ... will result in indexing errors" would tell the user something false.
    long_sentence = " ".join(["the council approved a budget of 20 million dollars for public parks ."] * 6)
    assert len(long_sentence.split()) > 64
    nli = judge(random_model)
    capfd.readouterr()
    verdict = nli.answer(attested(long_sentence, DOC))
    assert verdict is not None and "entailment" in verdict.rationale
    assert capfd.readouterr().err == ""


def test_a_model_directory_without_its_tokenizer_is_refused(tmp_path):
    # transformers builds an empty BERT tokenizer when vocab.txt / tokenizer.json are missing: every word
    # becomes [UNK], every pair the same probability, and the judge would answer at random without a word.
    bare = build_model(tmp_path / "bare", NLI_LABELS)
    for file in bare.iterdir():
        if file.name.startswith(("tokenizer", "special_tokens", "vocab")):
            file.unlink()
    assert sorted(file.name for file in bare.iterdir()) == ["config.json", "model.safetensors"]
    with pytest.raises(InputError, match=r"--nli-model: the tokenizer knows none of the words"):
        judge(bare)


def test_a_file_given_as_the_model_directory_says_so(tmp_path):
    weights = tmp_path / "model.safetensors"
    weights.write_bytes(b"x")
    with pytest.raises(InputError, match=r"model.safetensors: --nli-model: a file, not a model directory"):
        judge(weights)


def test_the_cli_reports_a_damaged_model_in_one_line_with_status_2(tmp_path):
    from click.testing import CliRunner

    from argue_eval.cli import cli

    repo = Path(__file__).resolve().parent.parent
    damaged = _break(build_model(tmp_path / "damaged", NLI_LABELS), "garbage safetensors")
    result = CliRunner().invoke(cli, [
        "judge", "--run", str(repo / "runs/sample/careful.jsonl"), "--nuggets", str(repo / "nuggets/sample/nuggets.jsonl"),
        "--collection", str(repo / "topics/sample/collection.jsonl"), "--judge", "nli", "--nli-model", str(damaged),
        "--no-cache", "-o", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{damaged}: --nli-model: cannot load"), result.output
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize("option", ["attested_threshold", "answers_threshold", "batch_size"])
def test_a_yes_or_no_is_not_a_number_option(random_model, option):
    # --judge-option nli.attested_threshold=yes parses as True, which Python would take for 1
    with pytest.raises(InputError, match=f"nli.{option}: expected"):
        judge(random_model, **{option: True})


def test_a_model_folder_named_like_a_number_loads_through_judge_option(tmp_path, monkeypatch):
    # --judge-option values that look like numbers become numbers; a model folder called 2024 is still a path
    from argue_eval.commands._options import parse_judge_options
    from argue_eval.judges.registry import make_judge

    build_model(tmp_path / "2024", NLI_LABELS, seed=1)
    monkeypatch.chdir(tmp_path)
    options = parse_judge_options(("nli.model_path=2024",), None)
    assert options == {"nli": {"model_path": 2024}}
    built = make_judge("nli", options)
    assert built.params()["model"] == "2024"


def test_an_empty_cited_document_attests_nothing_and_costs_no_model_call(random_model):
    # as the lexical judge says: a document in the collection without text is evidence of nothing (a "no",
    # surely), not a question left open that every rerun fails again
    empty = Document("blank", "", "")
    nli = judge(random_model)
    verdict = nli.answer(attested(SENTENCE, empty))
    assert verdict is not None
    assert (verdict.value, verdict.confidence, verdict.rationale) == (False, 1.0, "cited document is empty")
    assert nli.plan_calls([attested(SENTENCE, empty)]) == {"attested": 0}


def test_a_new_tokenizer_in_the_same_folder_is_a_new_judge_for_the_cache(tmp_path):
    # the tokenizer decides what the model reads as much as the weights do: answers cached with one tokenizer
    # must not be reused after it is replaced (same weights, same config, same folder name)
    import json

    folder = build_model(tmp_path / "tiny-nli", NLI_LABELS, seed=1)
    before = judge(folder).identity()
    spec = json.loads((folder / "tokenizer.json").read_text())
    spec["model"]["vocab"]["spring"], spec["model"]["vocab"]["snow"] = (spec["model"]["vocab"]["snow"],
                                                                      spec["model"]["vocab"]["spring"])
    (folder / "tokenizer.json").write_text(json.dumps(spec))
    after = judge(folder).identity()
    assert after["model"] == before["model"] and after != before


def test_the_device_changes_neither_the_answers_nor_the_identity(random_model, monkeypatch):
    # The machine has no GPU: cpu and auto both run on the CPU, and must give what no option gives, under one
    # identity; what the judge ran on and its batch (the device kind's default unless given) is its runtime.
    questions = [attested(SENTENCE, DOC), attested("snow is expected in the mountains this weekend .", DOC)]
    base = judge(random_model)
    expected = [(v.value, v.confidence, v.rationale) for v in base.answer_many(questions)]
    for device in ("cpu", "auto"):
        other = judge(random_model, device=device)
        assert [(v.value, v.confidence, v.rationale) for v in other.answer_many(questions)] == expected
        assert other.identity() == base.identity()
        assert other.runtime() == {"device": "cpu", "batch_size": 16}
    assert judge(random_model, device="cpu", batch_size=3).runtime() == {"device": "cpu", "batch_size": 3}
    assert base.runtimes() == {"nli": {"device": "cpu", "batch_size": 16}}
    with pytest.raises(InputError, match=r"^--judge-option: nli.device: expected auto, cpu, cuda, cuda:N or mps, "
                                         r"found 'cuda:x'$"):
        judge(random_model, device="cuda:x")
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)  # as on this machine, whatever torch says
    with pytest.raises(InputError, match=r"^--device: cuda asked for, but torch sees no CUDA GPU"):
        judge(random_model, device="cuda")
