#!/usr/bin/env bash
# Quick start, command 1: create .venv if absent, install argue-eval, run the main job on the sample track.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/_venv.sh
ensure_venv ""
ARGUE=.venv/bin/argue-eval
echo "== argue-eval $($ARGUE --version | awk '{print $NF}') on the shipped sample track"
$ARGUE --help >/dev/null
echo "(the sample track and its evaluation are added by later work)"
