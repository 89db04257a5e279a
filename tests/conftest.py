"""Shared test fixtures. Keep this file small: fixtures that only one test module needs live in that module."""
from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def fixtures() -> Path:
    """Directory of small hand-made files shipped with the tests (one subfolder per format family)."""
    return FIXTURES


@pytest.fixture
def repo() -> Path:
    """The repository root (for the shipped sample track under topics/, nuggets/, runs/, qrels/)."""
    return REPO
