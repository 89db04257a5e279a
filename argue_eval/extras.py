"""The optional extras' two common steps: checking that an extra's modules are installed, and keeping the
Hugging Face libraries offline.

The NLI and semantic judges and dense search load local models with torch, transformers and
sentence-transformers. Each must fail early, with the extra to install, when a module is missing, and
each must make sure those libraries never reach for the network (nothing is downloaded at run time) nor
draw progress bars over the kit's own. Bottom layer: imports only ``errors``.
"""
from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterable

from .errors import MissingDependencyError

__all__ = ["require_modules", "offline_hub"]


def require_modules(feature: str, extra: str, modules: Iterable[str]) -> None:
    """Raise ``MissingDependencyError`` (naming ``feature`` and ``extra``) for the first of ``modules`` that
    is not installed. Looks them up without importing them, so the check costs no torch import."""
    for module in modules:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            raise MissingDependencyError(feature, extra, f"no module named {module!r}")


def offline_hub() -> None:
    """Set the Hugging Face switches that keep its libraries offline and quiet (unless the user set them):
    call it before importing transformers or sentence-transformers, which read them at import time."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
