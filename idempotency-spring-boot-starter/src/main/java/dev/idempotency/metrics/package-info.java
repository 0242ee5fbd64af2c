/** Micrometer metrics and Observations for protected calls and their Redis calls, each under its own auto-configuration. */
@NullMarked
package dev.idempotency.metrics;

import org.jspecify.annotations.NullMarked;
