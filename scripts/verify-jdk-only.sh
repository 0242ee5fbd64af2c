#!/usr/bin/env bash
# Runs the README's test command, ./mvnw -B verify, as on a machine with only a JDK and the Maven wrapper: on a PATH
# from which every redis-* program (redis-server, redis-sentinel, redis-cli, ...) and openssl are hidden, so the Redis
# harness runs its bundled binary for every topology and makes TLS certificates with keytool. The browser test still
# uses Chromium when it is installed (Selenium Manager otherwise). Prints the providers and binaries the suites used.
#
# Usage: scripts/verify-jdk-only.sh [more Maven arguments]   (its log: target/jdk-only/verify.log)
set -euo pipefail
cd "$(dirname "$0")/.."

farm="$(mktemp -d /tmp/jdk-only-path.XXXXXX)"
trap 'rm -rf "$farm"' EXIT
# A directory of links to every program on the PATH except the hidden ones; the first on the PATH wins, as in a shell.
IFS=: read -r -a dirs <<< "$PATH"
for dir in "${dirs[@]}"; do
  [[ -d "$dir" ]] || continue
  for program in "$dir"/*; do
    name="$(basename "$program")"
    case "$name" in
      redis-* | openssl) continue ;;
    esac
    [[ -e "$farm/$name" || ! -x "$program" ]] || ln -s "$program" "$farm/$name"
  done
done
for hidden in redis-server redis-sentinel redis-cli openssl; do
  if PATH="$farm" command -v "$hidden" >/dev/null 2>&1; then
    echo "$hidden is still on the PATH" >&2
    exit 1
  fi
done

mkdir -p target/jdk-only
echo "PATH without redis-* and openssl: $farm"
status=0
PATH="$farm" ./mvnw -B verify "$@" > target/jdk-only/verify.log 2>&1 || status=$?
echo "Redis used by the suites:"
grep -hoE '\[redis-harness\] provider=[a-z]+ redis-server [0-9.]+( \([^)]*\))?' target/jdk-only/verify.log \
  | sort | uniq -c || true
grep -h '\[browser\]' target/jdk-only/verify.log | sort | uniq -c || true
echo "Tests, per module:"
grep -E '^\[[A-Z]+\] Tests run: [0-9]+, Failures: [0-9]+, Errors: [0-9]+, Skipped: [0-9]+$|BUILD (SUCCESS|FAILURE)' \
  target/jdk-only/verify.log
exit "$status"
