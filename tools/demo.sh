#!/usr/bin/env bash
# Quick start, command 1: create .venv if absent, install argue-eval, and evaluate the shipped sample track:
# validate the six sample runs, score them with ARGUE from the sample assessors' judgments, and print a
# leaderboard with bootstrap intervals and significance tests. Outputs go to demo-output/.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/_venv.sh
ensure_venv ""
ARGUE=.venv/bin/argue-eval
OUT=demo-output
mkdir -p "$OUT"
RUNS=(runs/sample/*.jsonl)

echo "== argue-eval $($ARGUE --version | awk '{print $NF}') on the sample track: 8 requests, ${#RUNS[@]} runs (topics/sample/README.md)"
echo
echo "== 1/3 validate the runs against the requests and the document collection"
set +e
$ARGUE validate "${RUNS[@]}" --requests topics/sample/requests.jsonl \
    --collection topics/sample/collection.jsonl > "$OUT/validate.txt" 2>&1
status=$?
set -e
cat "$OUT/validate.txt"
if [ "$status" -gt 1 ]; then
    echo "validate could not read its input (exit $status)" >&2
    exit "$status"
fi
echo "(expected: too-long is over the length limits and misses-topics lacks three topics; both are still scored)"
echo
echo "== 2/3 score with the ARGUE flowchart from the sample assessors' judgments"
$ARGUE score --run "${RUNS[@]}" --nuggets nuggets/sample/nuggets.jsonl \
    --requests topics/sample/requests.jsonl --judgments qrels/sample/judgments.jsonl \
    -o "$OUT/scores.tsv" --details "$OUT/details.jsonl"
echo
echo "== 3/3 compare F1 against the careful run (95% BCa intervals, paired randomization tests, Holm)"
$ARGUE compare "$OUT/scores.tsv" --metric f1 --baseline careful
echo
$ARGUE report --scores "$OUT/scores.tsv" --details "$OUT/details.jsonl" --nuggets nuggets/sample/nuggets.jsonl \
    --requests topics/sample/requests.jsonl --judgments qrels/sample/judgments.jsonl \
    --collection topics/sample/collection.jsonl --title "argue-eval sample track" -o "$OUT/report.html" --quiet
echo "Per-topic scores: $OUT/scores.tsv; per-sentence outcomes and the judgments behind them: $OUT/details.jsonl"
echo "All of it in one HTML page (open it in a browser, offline): $OUT/report.html"
