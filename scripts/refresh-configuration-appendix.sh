#!/usr/bin/env bash
# Writes the configuration appendix of the guide (docs/guide/configuration.md) from the starter's configuration
# metadata: runs the appendix test, which writes the page as it should be under the starter's target/, and copies it.
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -pl idempotency-spring-boot-starter -am install -DskipTests
./mvnw -q -B -pl idempotency-spring-boot-starter surefire:test -Dtest=ConfigurationAppendixTests \
  -Dsurefire.failIfNoSpecifiedTests=false -Dmaven.test.failure.ignore=true
cp idempotency-spring-boot-starter/target/generated-docs/configuration.md docs/guide/configuration.md
git --no-pager diff --stat -- docs/guide/configuration.md
