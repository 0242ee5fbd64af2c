#!/usr/bin/env bash
# Runs the full build, ./mvnw -B verify, N times in a row from the repository root to flush out flaky tests, then
# prints how many runs passed and, for each failed run, the tests that failed in it. Exit status 0 only if all N
# runs passed.
#
# It runs Maven itself (and each run starts many Redis servers), so no other Maven build should run on this machine
# at the same time; this script takes no lock, wrap it in one if you need to. Do not run `mvn clean` meanwhile either:
# the logs live under target/.
#
# Usage: scripts/soak.sh N
#        scripts/soak.sh --long N [TRIES]
#   Each run's output goes to target/soak/run-K.log (K = 1..N), replacing the logs of an earlier soak.
#   --long runs only the promise checker (PromiseTests), N times, with TRIES histories per property (default 100)
#   instead of the build's 1: the long randomized search, about 22 s per try of the 18 properties it had then (34 now; mvcSyncRequestIdAppKilled starts a JVM a try, some 4 s); from 20 tries the
#   properties also check their coverage thresholds (PromiseStatistics).
#   SOAK_MAVEN overrides the Maven command (default ./mvnw), e.g. to try the script on a fake build.
set -euo pipefail
cd "$(dirname "$0")/.."

goals=(-B verify)
if [[ "${1:-}" == "--long" ]]; then
  shift
  tries=${2:-100}
  goals=(-B -pl idempotency-reliability-tests -am -DskipUpstreamTests -Dtest=PromiseTests
    -Dsurefire.failIfNoSpecifiedTests=false "-Djqwik.tries.default=$tries" verify)
  set -- "${1:-}"
fi
if [[ $# -ne 1 || ! "$1" =~ ^[1-9][0-9]*$ ]]; then
  echo "Usage: $0 N   (N >= 1: how many times to run ./mvnw -B verify)" >&2
  echo "       $0 --long N [TRIES]   (the promise checker only, TRIES histories per property)" >&2
  exit 2
fi
runs=$1
maven=${SOAK_MAVEN:-./mvnw}
logs=target/soak
mkdir -p "$logs"

# The tests that failed in one run's log, one "module: Class.method" per line. Surefire and failsafe end a module
# with a summary such as
#   [ERROR] Failures:
#   [ERROR]   RedisClusterTests.failover:80 expected ...
#   [ERROR] Errors:
#   [ERROR]   RedisSentinelTests.kill:74->lambda$kill$4:78 » IllegalState Timed out ...
#   [ERROR] Tests run: 21, Failures: 1, Errors: 1, Skipped: 0
# Assertion messages may continue on unprefixed lines, which are skipped. Flakes (passed on a rerun) are not failures.
failed_tests() {
  awk '
    /--- (maven-)?(surefire|failsafe)[^ ]* .*@ [^ ]+ ---/ {
      match($0, /@ [^ ]+ ---/)
      module = substr($0, RSTART + 2, RLENGTH - 6)
    }
    /^\[ERROR\] (Failures|Errors):/ { listing = 1; next }
    /^\[(ERROR|WARNING)\] (Flakes|Tests run):/ || /^\[INFO\]/ { listing = 0; next }
    listing && /^\[ERROR\]   [^ ]/ {
      test = $2
      sub(/:[0-9].*$/, "", test)
      sub(/->.*$/, "", test)
      print (module == "" ? "" : module ": ") test
    }
  ' "$1" | sort -u
}

passed=0
failed_runs=()
for ((k = 1; k <= runs; k++)); do
  log="$logs/run-$k.log"
  started=$SECONDS
  echo "Soak run $k/$runs: $maven ${goals[*]} > $log"
  if "$maven" "${goals[@]}" >"$log" 2>&1; then
    passed=$((passed + 1))
    echo "Soak run $k/$runs passed in $((SECONDS - started)) s"
  else
    failed_runs+=("$k")
    echo "Soak run $k/$runs FAILED in $((SECONDS - started)) s"
  fi
done

echo
echo "Soak: $passed of $runs runs passed"
for k in "${failed_runs[@]+"${failed_runs[@]}"}"; do
  log="$logs/run-$k.log"
  tests=$(failed_tests "$log")
  echo
  if [[ -n "$tests" ]]; then
    echo "Run $k failed ($log); failing tests:"
    sed 's/^/  /' <<<"$tests"
  else
    # Not a test failure (compilation, formatting check, a crashed fork...): show what Maven reported.
    echo "Run $k failed ($log) without a test failure summary; first errors:"
    { grep -E '^\[ERROR\]' "$log" || true; } | head -n 15 | sed 's/^/  /'
  fi
done

[[ $passed -eq $runs ]]
