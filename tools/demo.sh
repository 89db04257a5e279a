#!/usr/bin/env bash
# Quick start, command 1: create .venv if absent, install argue-eval, and evaluate the shipped sample track:
# validate the six sample runs, score them with ARGUE from the sample assessors' judgments, print a
# leaderboard with bootstrap intervals and significance tests, then evaluate the same runs with the offline
# default judge (no model) and show how far it is from the assessors. Outputs go to demo-output/.
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
echo "== 1/5 validate the runs against the requests and the document collection"
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
echo "== 2/5 score with the ARGUE flowchart from the sample assessors' judgments"
$ARGUE score --run "${RUNS[@]}" --nuggets nuggets/sample/nuggets.jsonl \
    --requests topics/sample/requests.jsonl --judgments qrels/sample/judgments.jsonl \
    -o "$OUT/scores.tsv" --details "$OUT/details.jsonl"
echo
echo "== 3/5 compare F1 against the careful run (95% BCa intervals, paired randomization tests, Holm)"
$ARGUE compare "$OUT/scores.tsv" --metric f1 --baseline careful
echo
echo "== 4/5 evaluate the same runs with the offline default judge (lexical: no model, no network)"
rm -f "$OUT"/judge-cache.sqlite*
$ARGUE evaluate --run "${RUNS[@]}" --nuggets nuggets/sample/nuggets.jsonl \
    --requests topics/sample/requests.jsonl --collection topics/sample/collection.jsonl \
    --cache "$OUT/judge-cache.sqlite" -o "$OUT/scores.lexical.tsv" --judgments-out "$OUT/judgments.lexical.jsonl"
echo
echo "== 5/5 how far is the offline judge from the assessors?"
echo "-- run ranking by F1 (A = assessors' judgments, B = lexical judge)"
$ARGUE agree "$OUT/scores.tsv" "$OUT/scores.lexical.tsv" --metric f1 --resamples 1000 --systems
echo
echo "-- judgment by judgment, where both answered the same question"
$ARGUE agree-judgments qrels/sample/judgments.jsonl "$OUT/judgments.lexical.jsonl"
echo
echo "Per-topic scores: $OUT/scores.tsv (assessors), $OUT/scores.lexical.tsv (lexical judge);"
echo "per-sentence outcomes and the judgments behind them: $OUT/details.jsonl; the judge's answers: $OUT/judgments.lexical.jsonl"
$ARGUE report --scores "$OUT/scores.tsv" --details "$OUT/details.jsonl" --nuggets nuggets/sample/nuggets.jsonl \
    --requests topics/sample/requests.jsonl --judgments qrels/sample/judgments.jsonl \
    --collection topics/sample/collection.jsonl --title "argue-eval sample track" -o "$OUT/report.html" --quiet
echo "All of it in one HTML page (open it in a browser, offline): $OUT/report.html"
