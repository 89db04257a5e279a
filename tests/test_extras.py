"""The optional extras' shared steps (argue_eval.extras): the installed-module check and the offline switches."""
from __future__ import annotations

import os

import pytest

from argue_eval.errors import MissingDependencyError
from argue_eval.extras import offline_hub, require_modules


def test_require_modules_names_the_first_missing_module_and_the_extra():
    require_modules("json reading", "none", ["json"])  # present: nothing happens
    with pytest.raises(MissingDependencyError, match=r"pip install 'argue-eval\[dense\]'.*argue_eval_no_such_module"):
        require_modules("a feature", "dense", ["json", "argue_eval_no_such_module", "another_missing_one"])


def test_offline_hub_sets_the_switches_and_keeps_a_users_own(monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("HF_HUB_DISABLE_PROGRESS_BARS", raising=False)
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "0")
    offline_hub()
    assert os.environ["HF_HUB_OFFLINE"] == "1" and os.environ["HF_HUB_DISABLE_PROGRESS_BARS"] == "1"
    assert os.environ["TRANSFORMERS_OFFLINE"] == "0"
