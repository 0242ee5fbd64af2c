/** A JUnit Jupiter harness that starts real Redis servers, replica pairs and clusters for tests. */
@org.jspecify.annotations.NullMarked
package dev.idempotency.testsupport;
