#!/usr/bin/env bash
# Copies the reliability report of the last test run into docs/RELIABILITY.md, but only from a green run: every row
# of idempotency-reliability-tests/target/reliability/RELIABILITY.md must say PASS. Run the suite first, e.g.
#   ./mvnw -B -pl idempotency-reliability-tests -am verify && scripts/refresh-reliability-report.sh
set -euo pipefail
cd "$(dirname "$0")/.."

report=idempotency-reliability-tests/target/reliability/RELIABILITY.md
if [[ ! -f "$report" ]]; then
  echo "No report at $report: run the reliability suite first" >&2
  exit 1
fi
rows=$(grep -cE '^\| [0-9]+[a-z]? \|' "$report" || true)
not_passed=$(grep -E '^\| [0-9]+[a-z]? \|' "$report" | grep -vE '\| PASS \([0-9-]+\) \|' || true)
if [[ "$rows" -eq 0 || -n "$not_passed" ]]; then
  echo "Not copying: the report has $rows rows, and these did not pass:" >&2
  echo "$not_passed" >&2
  exit 1
fi
cp "$report" docs/RELIABILITY.md
echo "docs/RELIABILITY.md refreshed from $report ($rows scenarios, all PASS)"
