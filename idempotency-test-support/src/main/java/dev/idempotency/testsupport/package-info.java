/**
 * A JUnit Jupiter harness that starts real Redis servers (plain, TLS, with ACL users), replica pairs, clusters and
 * Sentinel topologies for tests, plus the {@link dev.idempotency.testsupport.Race} and
 * {@link dev.idempotency.testsupport.CommandMonitor} helpers.
 */
@org.jspecify.annotations.NullMarked
package dev.idempotency.testsupport;
