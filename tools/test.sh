#!/usr/bin/env bash
# Quick start, command 2: create .venv if absent, install argue-eval with its test extras, run the tests.
# Extra pytest arguments pass through: bash tools/test.sh -k formats -x
# Optional backends' tests run when their extras are installed: ARGUE_EVAL_EXTRAS=all,test bash tools/test.sh
# The suite runs on every core (pytest-xdist, -n auto); tests that share a costly setup (a browser, a model, the
# llama.cpp server, ranx's compiled kernels) keep to one worker (tests/scheduling.py). In one process instead:
# bash tools/test.sh -n 0
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/_venv.sh
ensure_venv "${ARGUE_EVAL_EXTRAS:-test}"
# Bytecode is cached (Python's default) even where the environment says otherwise (PYTHONDONTWRITEBYTECODE=1, as
# in many container images): without it every command a help example runs recompiles argue_eval, and every
# worker rewrites the assertions of every test file again (a quarter of the help examples' CPU time). The
# __pycache__ folders are git-ignored.
unset PYTHONDONTWRITEBYTECODE
exec .venv/bin/python -m pytest -n auto "$@"
