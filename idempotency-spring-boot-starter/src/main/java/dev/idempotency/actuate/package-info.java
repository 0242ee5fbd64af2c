/** The {@code idempotency} Actuator endpoint and Redis diagnostics. */
@NullMarked
package dev.idempotency.actuate;

import org.jspecify.annotations.NullMarked;
