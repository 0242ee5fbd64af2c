/** Micrometer metrics and Observation spans for protected calls and their Redis calls. */
@NullMarked
package dev.idempotency.metrics;

import org.jspecify.annotations.NullMarked;
