#!/usr/bin/env bash
# Paired comparison of two builds on this machine: their bench apps (library included) take turns, one repetition
# each per round, each on a fresh Redis and app process, driven by this checkout's load driver. On a noisy machine,
# where two whole runs of one build differ by ±0.15 in a ratio, the per-round figures of A and B are what to compare.
#
#   cd <repo> && flock /tmp/mvn.lock benchmarks/pair.sh <checkout A> <checkout B> [scenario...]
#
# Each checkout must have been built (benchmarks/run.sh, or ./mvnw -pl benchmarks -am package -DskipTests; add
# -Pboot-4.1 to an older checkout whose default Boot differs). Scenarios are those of one app (default: the WebFlux
# ones; jdbc-* and mariadb-* start the app on that store). Options (environment): ROUNDS (default 4), DURATION WARMUP
# CONNECTIONS THREADS DRIVER (see README.md).
# Prints, per scenario, each round's req/s and app CPU per request for A and B, and their medians.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
WORK="$(mktemp -d /tmp/idempotency-pair.XXXXXX)"
# shellcheck source=lib.sh
source "$HERE/lib.sh"
trap cleanup EXIT
trap 'exit 130' INT TERM

(( $# >= 2 )) || { log "usage: benchmarks/pair.sh <checkout A> <checkout B> [scenario...]"; exit 2; }
A=$(cd "$1" && pwd)
B=$(cd "$2" && pwd)
shift 2
if (( $# > 0 )); then SCENARIOS=("$@"); else
  SCENARIOS=(webflux-baseline webflux-request-id-first webflux-request-id-dup webflux-token webflux-lock)
fi
ROUNDS=${ROUNDS:-4}
APP_TYPE=servlet
[[ "${SCENARIOS[0]}" != "$WEBFLUX"* ]] || APP_TYPE=reactive
APP_ARGS="$APP_ARGS $(store_args_of "${SCENARIOS[0]}")" # the JDBC and MariaDB scenarios' store
require_one_app "${SCENARIOS[@]}"

SKIP_BUILD=1
build # this checkout's class path, for the load driver
app_classpath() { echo "$1/benchmarks/target/classes:$(cat "$1/benchmarks/target/classpath.txt")"; }
CP_A=$(app_classpath "$A")
CP_B=$(app_classpath "$B")

# rate_of <WRK_RESULT line>: its requests per second
rate_of() { sed 's/.*requests=\([0-9]*\) duration_us=\([0-9]*\).*/\1 \2/' <<< "$1" | awk '{ printf "%.0f", $1 * 1e6 / $2 }'; }

# One round of one side: warm-up of every scenario, then each once; appends "side round scenario req/s cpu/req".
run_side() {
  local side=$1 round=$2 scenario tokens result app_before requests app_us rate=5000
  CP=$([[ "$side" == A ]] && echo "$CP_A" || echo "$CP_B")
  start_redis
  start_app "$APP_TYPE"
  for scenario in "${SCENARIOS[@]}"; do
    tokens=/dev/null
    if [[ "$(mode_of "$scenario")" == token ]]; then
      tokens="$WORK/tokens-warm.txt"
      issue_tokens "$WARMUP" "$tokens" "$rate"
    fi
    result=$(drive "$scenario" "$WARMUP" "w$side$round-$scenario" "$tokens")
    # The baseline runs first: no protected scenario goes faster, so its rate bounds the tokens a run needs.
    [[ "$(endpoint_of "$scenario")" != baseline ]] || rate=$(rate_of "$result")
    rm -f -- "$WORK"/tokens*.txt
  done
  for scenario in "${SCENARIOS[@]}"; do
    tokens=/dev/null
    if [[ "$(mode_of "$scenario")" == token ]]; then
      tokens="$WORK/tokens.txt"
      issue_tokens "$DURATION" "$tokens" "$rate"
    fi
    app_before=$(cpu_us "$APP_PID")
    result=$(drive "$scenario" "$DURATION" "r$side$round-$scenario" "$tokens")
    app_us=$(( $(cpu_us "$APP_PID") - app_before ))
    requests=$(sed 's/.*requests=\([0-9]*\).*/\1/' <<< "$result")
    [[ "$(endpoint_of "$scenario")" != baseline ]] || rate=$(rate_of "$result")
    printf '%s\t%s\t%s\t%s\t%s\n' "$side" "$round" "$scenario" "$(rate_of "$result")" \
      "$(( app_us / (requests > 0 ? requests : 1) ))" >> "$WORK/pair.tsv"
    log "round $round $side $scenario: $result app_cpu_us=$app_us"
    rm -f -- "$WORK"/tokens*.txt
  done
  stop "$APP_PID"; APP_PID=""
  stop "$REDIS_PID"; REDIS_PID=""
}

: > "$WORK/pair.tsv"
for round in $(seq 1 "$ROUNDS"); do
  run_side A "$round"
  run_side B "$round"
done

# Per scenario: every round's figures, then the medians.
awk -F'\t' '
  { key = $3; rps[$1, key] = rps[$1, key] " " $4; cpu[$1, key] = cpu[$1, key] " " $5; seen[key] = 1 }
  function median(list,   n, v, i, j, t) {
    n = split(list, v, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
  }
  END {
    printf "%-26s %-6s %-34s %8s   %-34s %8s\n", "scenario", "side", "req/s per round", "median", "app CPU us/req per round", "median"
    for (key in seen) for (s = 1; s <= 2; s++) {
      side = s == 1 ? "A" : "B"
      printf "%-26s %-6s %-34s %8.0f   %-34s %8.0f\n", key, side, rps[side, key], median(rps[side, key]), cpu[side, key], median(cpu[side, key])
    }
  }' "$WORK/pair.tsv" | { read -r header; echo "$header"; sort; }
log "A: $A"
log "B: $B"
