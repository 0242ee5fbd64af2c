#!/usr/bin/env bash
# Keeps the promise checker's shrunk failing histories as regression cases: copies each history PromiseTests wrote to
# idempotency-reliability-tests/target/shrunk-histories/ (one per failed property, named <path>-<guard>.history) into
# idempotency-reliability-tests/src/test/resources/histories/, where KeptHistoryTests replays them in every build.
# A kept file is named after the property and the day (<path>-<guard>-YYYYMMDD[-N].history) and never overwritten.
# Edit its leading '#' lines to say what it shows, then commit it (after the fix it found, so that the build is green).
#
# Usage: scripts/keep-histories.sh [FILE...]   (default: every file under target/shrunk-histories)
set -euo pipefail
cd "$(dirname "$0")/.."

from=idempotency-reliability-tests/target/shrunk-histories
to=idempotency-reliability-tests/src/test/resources/histories
if [[ $# -eq 0 ]]; then
  shopt -s nullglob
  set -- "$from"/*.history
fi
if [[ $# -eq 0 ]]; then
  echo "No shrunk histories under $from (run PromiseTests first; only failing properties write one)." >&2
  exit 1
fi
mkdir -p "$to"
day=$(date -u +%Y%m%d)
for file in "$@"; do
  base=$(basename "$file" .history)
  target="$to/$base-$day.history"
  n=1
  while [[ -e "$target" ]]; do
    n=$((n + 1))
    target="$to/$base-$day-$n.history"
  done
  cp "$file" "$target"
  echo "kept $file as $target"
done
