#!/usr/bin/env bash
# The JDBC store's purge on a table of expired records (issue 36): builds the benchmarks module and the modules it
# uses, then runs dev.idempotency.bench.jdbc.PurgeCost on the embedded PostgreSQL and on Debian's MariaDB (mariadbd,
# started by the test harness on a free port): the plan of one batch of the store's purge statement, and the time per
# batch while it deletes every expired record. Figures only; docs/BENCHMARKS.md quotes one run.
#
# Usage: benchmarks/purge.sh [ROWS] [BATCH]   (defaults: 1000000 expired records, batches of 1000)
#        SKIP_BUILD=1 reuses the last build; DATABASES="postgresql" runs one.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
rows=${1:-1000000}
batch=${2:-1000}
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  (cd "$ROOT" && ./mvnw -B -q -pl benchmarks -am package -Dmaven.test.skip=true -Dspotless.check.skip=true)
fi
cp="$HERE/target/classes:$(cat "$HERE/target/classpath.txt")"
for database in ${DATABASES:-postgresql mariadb}; do
  java -cp "$cp" dev.idempotency.bench.jdbc.PurgeCost "$database" "$rows" "$batch"
done
