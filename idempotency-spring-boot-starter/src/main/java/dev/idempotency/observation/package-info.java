/** Observing protected calls: the {@link dev.idempotency.observation.InvocationObserver} SPI and the outcomes. */
@NullMarked
package dev.idempotency.observation;

import org.jspecify.annotations.NullMarked;
