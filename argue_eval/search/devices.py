"""Which torch device the local models run on (``--device auto|cpu|cuda[:N]|mps``), and their batch sizes there.

The semantic judge, the NLI judge, dense search and ICAT's dense retrieval each take a device spec:

- ``auto`` (the default, ``DEFAULT_DEVICE``): the first CUDA GPU when torch sees one, else Apple's ``mps``
  when torch sees it, else the CPU;
- ``cpu``; ``cuda`` (the first GPU, ``cuda:0``) or ``cuda:N``; ``mps``.

``parse_device`` checks a spec's spelling without importing torch (a command checks its flag before any
input is read, and a dry run loads no model); ``resolve_device`` imports torch and says which device the spec
names on this machine: a GPU asked for that torch does not see is a user error (one line, exit 2), never a
silent fall back to the CPU.

The device is *how* answers are computed, not *what* they are: it is never part of a judge's identity (the
cache key) nor of an embedding's, and every score is rounded to four decimals before it is compared, so a GPU
and a CPU run give the same judgments. What a run used is recorded in its manifest (``runtime``).

Batch sizes: each kind of work (``embed``: MiniLM sentence embeddings; ``nli``: NLI pairs) has a default per
device kind (``BATCH_SIZES``), which an explicit ``batch_size`` overrides. A batch size changes speed and
memory only.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..errors import OptionError

__all__ = ["DEFAULT_DEVICE", "DEVICE_SPECS", "BATCH_SIZES", "Device", "parse_device", "resolve_device", "batch_size"]

DEFAULT_DEVICE = "auto"
"""The device every model-backed piece takes when none is given (the CLI's ``--device`` default too)."""
DEVICE_SPECS = "auto, cpu, cuda, cuda:N or mps"
"""What a device spec may be, as messages and help texts say it."""
FLAG = "--device"

BATCH_SIZES: dict[str, dict[str, int]] = {
    "embed": {"cpu": 64, "cuda": 256, "mps": 128},
    "nli": {"cpu": 16, "cuda": 64, "mps": 32},
}
"""Default batch size per kind of work and device kind: on the CPU, what measured fastest on the sample track
(larger batches only pad more); on a GPU, batches large enough to keep it busy with the small models here
(MiniLM, a base-size NLI model) within a few GiB of memory."""

_SPEC = re.compile(r"(auto|cpu|mps|cuda)(?::(\d{1,4}))?")


@dataclass(frozen=True)
class Device:
    """A resolved device: ``name`` as torch takes it (``cpu``, ``cuda:0``, ``mps``) and its ``kind``."""

    name: str
    kind: str

    def __str__(self) -> str:
        return self.name


def parse_device(spec: Any, flag: str = FLAG) -> str:
    """``spec`` checked and normalized (``" CUDA "`` -> ``cuda``; ``cuda:1`` stays), without importing torch;
    anything else is an ``OptionError`` naming ``flag`` and what a spec may be."""
    text = str(spec).strip().lower() if isinstance(spec, str) else None
    match = _SPEC.fullmatch(text) if text else None
    if text is None or match is None or (match.group(2) is not None and match.group(1) != "cuda"):
        raise OptionError(flag, f"expected {DEVICE_SPECS}, found {spec!r}")
    return text


def resolve_device(spec: Any = DEFAULT_DEVICE, flag: str = FLAG) -> Device:
    """The device ``spec`` names on this machine (imports torch). ``auto``: ``cuda:0`` when torch sees a CUDA GPU,
    else ``mps`` when it sees one, else ``cpu``. A GPU asked for that torch does not see (no CUDA build, no driver,
    ``cuda:3`` on a two-GPU node, ``mps`` off a Mac) is an ``OptionError`` saying so."""
    text = parse_device(spec, flag)
    if text == "cpu":
        return Device("cpu", "cpu")
    import torch

    if text == "auto":
        if torch.cuda.is_available():
            return Device("cuda:0", "cuda")
        if _mps_available(torch):
            return Device("mps", "mps")
        return Device("cpu", "cpu")
    if text == "mps":
        if not _mps_available(torch):
            raise OptionError(flag, "mps asked for, but torch sees no MPS device (Apple silicon with a torch built "
                                    "for it); use --device cpu or auto")
        return Device("mps", "mps")
    index = int(text.partition(":")[2] or 0)
    if not torch.cuda.is_available():
        raise OptionError(flag, f"{text} asked for, but torch sees no CUDA GPU (torch {torch.__version__}, "
                                f"CUDA build: {torch.version.cuda or 'none'}); use --device cpu or auto")
    count = torch.cuda.device_count()
    if index >= count:
        raise OptionError(flag, f"{text} asked for, but torch sees {count} CUDA GPU(s): cuda:0 to cuda:{count - 1}")
    return Device(f"cuda:{index}", "cuda")


def _mps_available(torch: Any) -> bool:
    backend = getattr(getattr(torch, "backends", None), "mps", None)
    return bool(backend is not None and backend.is_available())


def batch_size(work: str, device: Device, given: int | None = None) -> int:
    """``given`` when set, else ``work``'s default batch size on ``device``'s kind (``BATCH_SIZES``)."""
    return int(given) if given is not None else BATCH_SIZES[work][device.kind]
