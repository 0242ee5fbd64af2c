# Shared by run.sh and profile.sh (sourced, not run). Expects HERE (this folder), ROOT (the repository) and WORK (a
# scratch folder) to be set, and the caller to have `set -euo pipefail`.

DURATION=${DURATION:-10}
WARMUP=${WARMUP:-3}
CONNECTIONS=${CONNECTIONS:-16}
THREADS=${THREADS:-2}
DRIVER=${DRIVER:-auto}
SKIP_BUILD=${SKIP_BUILD:-0}
KEEP_WORK=${KEEP_WORK:-0}
# Class path entries put before the module's own, e.g. the target/classes of a patched core and starter: measures a
# change without installing it.
PATCH_CLASSPATH=${PATCH_CLASSPATH:-}
# More arguments for the bench app, e.g. "--spring.data.redis.client-type=jedis" (with Jedis on PATCH_CLASSPATH).
APP_ARGS=${APP_ARGS:-}
MAX_SECONDS=${MAX_SECONDS:-1800}
(( DURATION <= 60 && WARMUP <= 30 )) || { echo "DURATION <= 60 and WARMUP <= 30, please" >&2; exit 2; }

REDIS_PID=""
APP_PID=""
REDIS_PORT=""
APP_URL=""
CLK_TCK=$(getconf CLK_TCK)

log() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

stop() {
  local pid=$1
  [[ -n "$pid" ]] || return 0
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}

cleanup() {
  stop "$APP_PID"
  stop "$REDIS_PID"
  if [[ "$KEEP_WORK" == 1 ]]; then
    log "work files kept in $WORK"
  else
    rm -rf "$WORK"
  fi
}

check_deadline() {
  (( SECONDS < MAX_SECONDS )) || { log "over ${MAX_SECONDS}s, giving up"; exit 3; }
}

# A loopback port nobody listens on, below Linux's ephemeral range (32768 and up): a port there can be the local end of
# an outgoing connection (the load driver's, the app's to Redis or its database), which a listener cannot bind while
# that connection lasts, though nothing listens on it.
free_port() {
  local port
  for _ in $(seq 1 100); do
    port=$(( 20000 + RANDOM % 12000 ))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  return 1
}

# The modules whose src/jmh/java holds JMH benchmarks (compiled with their tests).
JMH_MODULES=(idempotency-core idempotency-spring-boot-starter)

# build [jmh]: builds this module and what it uses (unless SKIP_BUILD=1); sets CP and JAVA. With "jmh", also compiles
# the tests of those modules, which include their JMH benchmarks, and writes each module's test class path to
# target/test-classpath.txt, for jmh_classpath.
build() {
  if [[ "$SKIP_BUILD" != 1 ]]; then
    if [[ "${1:-}" == jmh ]]; then
      log "building benchmarks, the modules they use and their JMH benchmarks"
      (cd "$ROOT" && timeout 900 ./mvnw -B -q -pl benchmarks -am package -DskipTests -Dspotless.check.skip=true \
        org.apache.maven.plugins:maven-dependency-plugin:3.9.0:build-classpath -Dmdep.includeScope=test \
        -Dmdep.outputFile=target/test-classpath.txt >&2)
    else
      log "building benchmarks and the modules they use"
      (cd "$ROOT" && timeout 600 ./mvnw -B -q -pl benchmarks -am package -Dmaven.test.skip=true \
        -Dspotless.check.skip=true >&2)
    fi
  fi
  CP="$HERE/target/classes:$(cat "$HERE/target/classpath.txt")"
  if [[ -n "$PATCH_CLASSPATH" ]]; then
    CP="$PATCH_CLASSPATH:$CP"
    log "patched class path first: $PATCH_CLASSPATH"
  fi
  JAVA=(java -cp "$CP")
  if [[ "$DRIVER" == auto ]]; then
    if command -v wrk >/dev/null 2>&1; then DRIVER=wrk; else DRIVER=java; fi
  fi
  command -v redis-server >/dev/null 2>&1 || { log "redis-server is not on the PATH"; exit 2; }
}

# jmh_classpath <module>: the module's JMH benchmarks (its test classes), its classes and its test class path, with
# PATCH_CLASSPATH first. Needs `build jmh`.
jmh_classpath() {
  local module="$ROOT/$1"
  [[ -f "$module/target/test-classpath.txt" ]] || { log "no $1/target/test-classpath.txt: build jmh first"; exit 2; }
  local cp="$module/target/test-classes:$module/target/classes:$(cat "$module/target/test-classpath.txt")"
  [[ -z "$PATCH_CLASSPATH" ]] || cp="$PATCH_CLASSPATH:$cp"
  echo "$cp"
}

# jmh_version: the version of JMH the benchmarks run with, from the core's test class path
jmh_version() {
  local file="$ROOT/${JMH_MODULES[0]}/target/test-classpath.txt"
  [[ -f "$file" ]] && tr ':' '\n' < "$file" | sed -n 's:.*/jmh-core-\([^/]*\)\.jar$:\1:p' | head -1 || true
}

start_redis() {
  REDIS_PORT=$(free_port)
  log "starting redis-server on 127.0.0.1:$REDIS_PORT"
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --daemonize no \
    --logfile "$WORK/redis.log" &
  REDIS_PID=$!
}

# start_app [servlet|reactive]: starts the bench app on a free port and waits until it answers. servlet (the default)
# is Spring MVC on Tomcat, reactive WebFlux on Netty; the log goes to $WORK/app-<type>.log.
start_app() {
  local type=${1:-servlet} port
  port=$(free_port)
  APP_URL="http://127.0.0.1:$port"
  log "starting the bench app ($type) on $APP_URL"
  # shellcheck disable=SC2086
  java -Xms1g -Xmx1g -cp "$CP" dev.idempotency.bench.app.BenchApplication \
    --spring.main.web-application-type="$type" --server.port="$port" --spring.data.redis.port="$REDIS_PORT" \
    $APP_ARGS > "$WORK/app-$type.log" 2>&1 &
  APP_PID=$!
  timeout 120 "${JAVA[@]}" dev.idempotency.bench.load.BenchClient await --url "$APP_URL" --seconds 90 \
    || { tail -40 "$WORK/app-$type.log" >&2; exit 1; }
  timeout 30 "${JAVA[@]}" dev.idempotency.bench.load.BenchClient prime-duplicate --url "$APP_URL" \
    || { tail -40 "$WORK/app-$type.log" >&2; exit 1; }
}

# A scenario named webflux-<name> drives the same endpoint as <name>, against the WebFlux app, and is compared with
# webflux-baseline.
WEBFLUX=webflux-

# A scenario named jdbc-<name> drives the same endpoint as <name>, against the Spring MVC app whose REQUEST_ID records
# live in PostgreSQL (idempotency.store=jdbc), and is compared with jdbc-baseline.
JDBC=jdbc-

# A scenario named mariadb-<name> is the same against the app whose records live in MariaDB
# (--bench.database=mariadb), compared with mariadb-baseline.
MARIADB=mariadb-

# store_args_of <scenario>: the bench app's arguments that put its REQUEST_ID records where the scenario needs them
# (none for Redis). MariaDB's driver logs each duplicate's expected duplicate-key error at WARN; quieted as
# docs/guide/stores.md advises.
store_args_of() {
  case "$1" in
    "$JDBC"*) echo "--idempotency.store=jdbc" ;;
    "$MARIADB"*) echo "--idempotency.store=jdbc --bench.database=mariadb \
--logging.level.org.mariadb.jdbc.message.server.ErrorPacket=error" ;;
    *) echo "" ;;
  esac
}

# require_one_app <scenario...>: exits unless every scenario runs against the same app as the first (one baseline)
require_one_app() {
  local scenario
  for scenario in "$@"; do
    [[ "$(baseline_of "$scenario")" == "$(baseline_of "$1")" ]] \
      || { log "the scenarios of one app (Spring MVC, WebFlux, JDBC or MariaDB), please, not several"; exit 2; }
  done
}

# baseline_of <scenario>: the baseline of the scenario's app
baseline_of() {
  case "$1" in
    "$WEBFLUX"*) echo "${WEBFLUX}baseline" ;;
    "$JDBC"*) echo "${JDBC}baseline" ;;
    "$MARIADB"*) echo "${MARIADB}baseline" ;;
    *) echo baseline ;;
  esac
}

# endpoint_of <scenario>: the scenario without its app's prefix
endpoint_of() {
  local name=${1#"$WEBFLUX"}
  name=${name#"$JDBC"}
  echo "${name#"$MARIADB"}"
}

path_of() {
  case "$(endpoint_of "$1")" in
    baseline) echo /baseline ;;
    handwritten-first) echo /handwritten ;;
    request-id-first | request-id-dup) echo /request-id ;;
    token) echo /token ;;
    lock) echo /lock ;;
    *) log "unknown scenario $1"; exit 2 ;;
  esac
}

mode_of() {
  case "$(endpoint_of "$1")" in
    request-id-dup) echo duplicate ;;
    token) echo token ;;
    *) echo unique ;;
  esac
}

# drive <scenario> <seconds> <tag> [token file]: prints the WRK_RESULT line
drive() {
  local scenario=$1 seconds=$2 tag=$3 tokens=${4:-/dev/null} path mode output
  path=$(path_of "$scenario")
  mode=$(mode_of "$scenario")
  check_deadline
  if [[ "$DRIVER" == wrk ]]; then
    output=$(timeout $(( seconds + 30 )) wrk -t"$THREADS" -c"$CONNECTIONS" -d"${seconds}s" --timeout 5s \
      -s "$HERE/wrk/bench.lua" "$APP_URL" -- "$path" "$mode" "$tag" "$tokens" "$THREADS")
  else
    output=$(timeout $(( seconds + 60 )) "${JAVA[@]}" dev.idempotency.bench.load.LoadDriver --url "$APP_URL" \
      --path "$path" --mode "$mode" --tag "$tag" --duration "$seconds" --connections "$CONNECTIONS" \
      --tokens "$tokens")
  fi
  grep '^WRK_RESULT ' <<< "$output" || { echo "$output" >&2; log "no result from $scenario"; exit 1; }
}

# requests_per_second <results tsv> <scenario> <repetition>: from a recorded run, 20000 when there is none
requests_per_second() {
  awk -F'\t' -v scenario="$2" -v rep="$3" '$1 == scenario && $2 == rep {
      n = split($3, f, /[ =]/)
      for (i = 1; i < n; i++) { if (f[i] == "requests") r = f[i + 1]; if (f[i] == "duration_us") d = f[i + 1] }
    } END { print (d > 0 ? r * 1e6 / d : 20000) }' "$1"
}

# issue_tokens <seconds> <file> <rate>: enough fresh tokens for a run at that rate (req/s), with a wide margin: the rate
# is its baseline's, and a protected token call has run faster than a disturbed baseline (a reused token is an error)
issue_tokens() {
  local count
  count=$(awk -v r="$3" -v s="$1" 'BEGIN { c = int(r * s * 2.5) + 2000; print (c > 1500000 ? 1500000 : c) }')
  timeout 120 "${JAVA[@]}" dev.idempotency.bench.load.BenchClient tokens --url "$APP_URL" --count "$count" --out "$2"
}

# cpu_us <pid>: user + system CPU time of a process so far, in microseconds
cpu_us() { awk -v hz="$CLK_TCK" '{ printf "%.0f", ($14 + $15) * 1000000 / hz }' "/proc/$1/stat"; }

# app_allocated: bytes the bench app's threads allocated on the heap so far (its /bench/allocated), -1 when unknown
# (no curl, or the JVM does not count): the report then shows no allocation for the run
app_allocated() {
  command -v curl > /dev/null 2>&1 && curl -fsS --max-time 5 "$APP_URL/bench/allocated" 2>/dev/null || echo -1
}

# machine_cpu_us: busy CPU time of the whole machine (all cores), in microseconds
machine_cpu_us() {
  awk -v hz="$CLK_TCK" '/^cpu / { printf "%.0f", ($2 + $3 + $4 + $7 + $8 + $9) * 1000000 / hz }' /proc/stat
}

# thread_cpu <pid>: one line per thread: name<TAB>user us<TAB>system us
thread_cpu() {
  local task name
  for task in /proc/"$1"/task/*; do
    name=$(cat "$task/comm" 2>/dev/null) || continue
    awk -v hz="$CLK_TCK" -v name="$name" '{ sub(/^.*\) /, ""); printf "%s\t%.0f\t%.0f\n", name, $12 * 1e6 / hz, $13 * 1e6 / hz }' \
      "$task/stat" 2>/dev/null || true
  done
}
