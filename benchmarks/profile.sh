#!/usr/bin/env bash
# Where the CPU goes, per request, for some scenarios of the HTTP harness: per-thread CPU of the bench app (user and
# system time, from /proc, threads named with jcmd), Redis's and the machine's CPU, and with JFR=1 a CPU-sample
# summary of the app (dev.idempotency.bench.profile.JfrSummary).
#
#   cd <repo> && flock /tmp/mvn.lock benchmarks/profile.sh [scenario...]     (default: baseline request-id-first)
#
# Scenarios: baseline handwritten-first request-id-first request-id-dup token lock, or (all of them) the WebFlux ones,
# webflux-baseline webflux-request-id-first webflux-request-id-dup webflux-token webflux-lock, or the JDBC store's
# jdbc-baseline jdbc-request-id-first jdbc-request-id-dup (mariadb-* on MariaDB). Options (environment):
# DURATION WARMUP CONNECTIONS THREADS DRIVER JFR=1 SKIP_BUILD=1 PATCH_CLASSPATH KEEP_WORK=1 (see README.md).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
WORK="$(mktemp -d /tmp/idempotency-profile.XXXXXX)"
# shellcheck source=lib.sh
source "$HERE/lib.sh"
trap cleanup EXIT
trap 'exit 130' INT TERM

JFR=${JFR:-0}
if (( $# > 0 )); then SCENARIOS=("$@"); else SCENARIOS=(baseline request-id-first); fi
# One app per run: Spring MVC, or WebFlux when the scenarios are the WebFlux ones.
APP_TYPE=servlet
[[ "${SCENARIOS[0]}" != "$WEBFLUX"* ]] || APP_TYPE=reactive
APP_ARGS="$APP_ARGS $(store_args_of "${SCENARIOS[0]}")" # the JDBC and MariaDB scenarios' store
require_one_app "${SCENARIOS[@]}"

build
start_redis
start_app "$APP_TYPE"

# Thread ids (decimal) to Java thread names, from a thread dump.
thread_names() {
  jcmd "$APP_PID" Thread.print 2>/dev/null | sed -n 's/^"\([^"]*\)".* nid=\(0x[0-9a-fA-F]*\) .*/\2\t\1/p' |
    while IFS=$'\t' read -r nid name; do printf '%d\t%s\n' "$nid" "$name"; done
}

# thread_groups <pid>: per-thread user and system CPU (us) with the thread's group
thread_groups() {
  local names="$WORK/names.tsv" task tid name
  thread_names > "$names"
  for task in /proc/"$1"/task/*; do
    tid=${task##*/}
    name=$(awk -F'\t' -v tid="$tid" '$1 == tid { print $2 }' "$names")
    [[ -n "$name" ]] || name=$(cat "$task/comm" 2>/dev/null || echo '?')
    awk -v hz="$CLK_TCK" -v name="$name" -v tid="$tid" '{ sub(/^.*\) /, "");
      group = name
      if (name ~ /-exec-/) group = "tomcat workers"
      else if (name ~ /^http-nio/) group = "tomcat poller+acceptor"
      else if (name ~ /^reactor-http-/) group = "netty event loops"
      else if (name ~ /^lettuce-/) group = "lettuce event loops"
      else if (name ~ /^(GC Thread|G1 |VM Periodic|VM Thread)/) group = "GC + VM"
      else if (name ~ /CompilerThre/) group = "JIT compilers"
      else if (name ~ /^idempotency-/) group = name
      else group = "other"
      printf "%s\t%s\t%.0f\t%.0f\n", tid, group, $12 * 1e6 / hz, $13 * 1e6 / hz }' "$task/stat" 2>/dev/null || true
  done
}

# tokens_for <scenario> <seconds> <file>: a fresh token file for a token run, /dev/null for the others
tokens_for() {
  if [[ "$(mode_of "$1")" == token ]]; then
    issue_tokens "$2" "$3" 25000
    echo "$3"
  else
    echo /dev/null
  fi
}

log "warming the JIT up: every scenario for ${WARMUP}s"
for scenario in "${SCENARIOS[@]}"; do
  drive "$scenario" "$WARMUP" "pj-$scenario-$RANDOM" "$(tokens_for "$scenario" "$WARMUP" "$WORK/tokens-jit.txt")" > /dev/null
done

for scenario in "${SCENARIOS[@]}"; do
  log "$scenario: warming up ${WARMUP}s"
  drive "$scenario" "$WARMUP" "pw-$scenario-$RANDOM" "$(tokens_for "$scenario" "$WARMUP" "$WORK/tokens-warm.txt")" > /dev/null
  tokens=$(tokens_for "$scenario" "$DURATION" "$WORK/tokens.txt")
  thread_groups "$APP_PID" > "$WORK/before.tsv"
  redis_before=$(cpu_us "$REDIS_PID"); machine_before=$(machine_cpu_us)
  if [[ "$JFR" == 1 ]]; then
    jcmd "$APP_PID" JFR.start name=bench settings=profile filename="$WORK/$scenario.jfr" > /dev/null
  fi
  log "$scenario: measuring ${DURATION}s"
  result=$(drive "$scenario" "$DURATION" "pm-$scenario-$RANDOM" "$tokens")
  if [[ "$JFR" == 1 ]]; then
    jcmd "$APP_PID" JFR.stop name=bench > /dev/null
  fi
  redis_cpu=$(( $(cpu_us "$REDIS_PID") - redis_before )); machine_cpu=$(( $(machine_cpu_us) - machine_before ))
  thread_groups "$APP_PID" > "$WORK/after.tsv"
  requests=$(sed -n 's/.*requests=\([0-9]*\).*/\1/p' <<< "$result")
  echo
  echo "== $scenario: $result"
  awk -F'\t' -v requests="$requests" -v redis="$redis_cpu" -v machine="$machine_cpu" '
    NR == FNR { user[$1] = $3; sys[$1] = $4; next }
    { du = $3 - user[$1]; ds = $4 - sys[$1]; gu[$2] += du; gs[$2] += ds; tu += du; ts += ds }
    END {
      printf "%-28s %10s %10s %10s\n", "CPU per request (us)", "user", "system", "total"
      for (g in gu) if (gu[g] + gs[g] > 0) printf "%-28s %10.1f %10.1f %10.1f\n", "app: " g, gu[g] / requests, gs[g] / requests, (gu[g] + gs[g]) / requests
      printf "%-28s %10.1f %10.1f %10.1f\n", "app total", tu / requests, ts / requests, (tu + ts) / requests
      printf "%-28s %32.1f\n", "redis-server", redis / requests
      printf "%-28s %32.1f\n", "rest (driver, kernel, ...)", (machine - tu - ts - redis) / requests
      printf "%-28s %32.1f\n", "machine", machine / requests
    }' "$WORK/before.tsv" "$WORK/after.tsv"
  if [[ "$JFR" == 1 ]]; then
    echo
    "${JAVA[@]}" dev.idempotency.bench.profile.JfrSummary "$WORK/$scenario.jfr" 30
  fi
done
