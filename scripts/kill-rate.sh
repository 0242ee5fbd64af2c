#!/usr/bin/env bash
# The promise checker's kill rate: re-introduces each known defect kept under scripts/mutations/ (one small patch of
# the production code each), one at a time, on a throwaway copy of the committed tree, runs the checker on it in soak
# mode, and reports which defects it caught. Prints a table and the line `mutations killed: N of M`.
#
# A patch names what to run in its header lines (git apply skips them):
#   # defect: what it re-introduces (which wave or issue)
#   # checker: the properties, as surefire's -Dtest (e.g. PromiseTests#mvcRender)
#   # history: a kept history to replay as well (KeptHistoryTests -Dpromise.history=...), optional
#   # tries: histories per property for this patch, optional (a defect that few histories reach needs more)
# A patch is caught when the checker's tests fail on it, survived when they pass, and an error when it does not
# apply or the build fails before any test ran (not counted as killed).
#
# Usage: scripts/kill-rate.sh [--tries N] [--baseline] [PATCH...]
#   --tries N     histories per property where a patch names none (default 10; a build draws 1, soak.sh --long 100)
#   --baseline    instead, run the union of the patches' properties and kept histories on the unpatched tree once:
#                 the checker must pass there, or a kill means nothing
#   PATCH...      only these patches (default: every scripts/mutations/*.patch)
# Environment:
#   KILL_RATE_LOCK  a file to hold with flock around each Maven run (a shared machine's build lock), e.g. /tmp/mvn.lock
#   KILL_RATE_BASE  the commit to patch (default HEAD): uncommitted changes are not part of the copy
# The copy is a detached git worktree under target/kill-rate/tree, reset between patches and removed at the end; the
# working tree is never touched. Logs: target/kill-rate/NN-name.log; results: target/kill-rate/results.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

tries=10
baseline=false
patches=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --tries) tries=$2; shift 2 ;;
    --baseline) baseline=true; shift ;;
    -h | --help) sed -n '2,24p' "$0"; exit 0 ;;
    *) patches+=("$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"); shift ;;
  esac
done
if [[ ${#patches[@]} -eq 0 ]]; then
  patches=("$root"/scripts/mutations/*.patch)
fi
if [[ ! "$tries" =~ ^[1-9][0-9]*$ ]]; then
  echo "--tries needs a positive number" >&2
  exit 2
fi

out=$root/target/kill-rate
tree=$out/tree
mkdir -p "$out"
git worktree remove --force "$tree" 2>/dev/null || rm -rf "$tree"
git worktree prune
git worktree add -q --detach "$tree" "${KILL_RATE_BASE:-HEAD}"
trap 'git -C "$root" worktree remove --force "$tree" 2>/dev/null || true' EXIT

header() { sed -n "s/^# $1: //p" "$2" | head -n 1; }

# Runs the checker in the copy: $1 the -Dtest selection, $2 a kept history or empty, $3 the log, $4 the tries.
checker() {
  local args=(-B -pl idempotency-reliability-tests -am -DskipUpstreamTests -Dsurefire.failIfNoSpecifiedTests=false
    "-Dtest=$1" "-Djqwik.tries.default=$4" -Dpromise.shrink-seconds=0 -Dspotless.check.skip=true verify)
  if [[ -n "$2" ]]; then
    args+=("-Dpromise.history=$2")
  fi
  local lock=()
  if [[ -n "${KILL_RATE_LOCK:-}" ]]; then
    lock=(flock "$KILL_RATE_LOCK")
  fi
  (cd "$tree" && "${lock[@]}" ./mvnw "${args[@]}") >"$3" 2>&1
}

# The build's own time from a log (Maven's "Total time"), without the wait for the lock.
build_time() { sed -n 's/^\[INFO\] Total time: *//p' "$1" | tail -n 1; }

# caught, survived or error, from a run's exit status ($1) and log ($2).
verdict() {
  if [[ $1 -eq 0 ]]; then
    echo survived
  elif grep -qE 'Tests run: [0-9]+, Failures: ([1-9]|[0-9]+, Errors: [1-9])' "$2"; then
    echo caught
  else
    echo error
  fi
}

started=$SECONDS
if $baseline; then
  selection=() histories=()
  for patch in "${patches[@]}"; do
    IFS=',' read -ra tests <<<"$(header checker "$patch")"
    selection+=("${tests[@]}")
    [[ -n "$(header history "$patch")" ]] && histories+=("$(header history "$patch")")
  done
  [[ ${#histories[@]} -gt 0 ]] && selection+=(KeptHistoryTests)
  dtest=$(printf '%s\n' "${selection[@]}" | sort -u | paste -sd, -)
  log=$out/baseline.log
  echo "Baseline (unpatched $(git -C "$tree" rev-parse --short HEAD)): -Dtest=$dtest, $tries tries, every kept history"
  set +e
  checker "$dtest" "" "$log" "$tries"
  status=$?
  set -e
  result=$(verdict $status "$log")
  [[ $result == survived ]] && result=passed # nothing to kill here: the checker must pass
  echo "baseline: $result (build $(build_time "$log"), $((SECONDS - started)) s with the lock's wait; $log)"
  [[ $result == passed ]]
  exit
fi

printf '%-42s %-8s %5s %10s  %s\n' patch result tries build checker | tee "$out/results.txt"
: >"$out/results.tsv"
killed=0 errors=0 total=0
for patch in "${patches[@]}"; do
  name=$(basename "$patch" .patch)
  tests=$(header checker "$patch")
  history=$(header history "$patch")
  n=$(header tries "$patch")
  n=${n:-$tries}
  dtest=$tests${history:+,KeptHistoryTests}
  log=$out/$name.log
  git -C "$tree" reset -q --hard
  # Each patch from fresh seeds: jqwik would first replay the history that failed on the patch before.
  rm -rf "$tree/idempotency-reliability-tests/target/jqwik-database"
  if ! git -C "$tree" apply "$patch" 2>"$log"; then
    result=error
  else
    set +e
    checker "$dtest" "$history" "$log" "$n"
    status=$?
    set -e
    result=$(verdict $status "$log")
  fi
  git -C "$tree" reset -q --hard
  total=$((total + 1))
  [[ $result == caught ]] && killed=$((killed + 1))
  [[ $result == error ]] && errors=$((errors + 1))
  took=$(build_time "$log")
  printf '%-42s %-8s %5s %10s  %s%s\n' "$name" "$result" "$n" "${took:--}" "$tests" \
    "${history:+ + $(basename "$history")}" | tee -a "$out/results.txt"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$result" "$n" "${took:--}" "$tests" "$history" >>"$out/results.tsv"
done

echo "total time: $((SECONDS - started)) s (with the lock's waits); errors (not applied or not built): $errors" \
  | tee -a "$out/results.txt"
echo "mutations killed: $killed of $total" | tee -a "$out/results.txt"
