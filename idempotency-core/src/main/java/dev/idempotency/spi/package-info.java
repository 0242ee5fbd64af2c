/**
 * The strategy SPI: {@link dev.idempotency.spi.IdempotencyStrategy} admits a call, the work runs under a
 * {@link dev.idempotency.spi.Permit}, and {@link dev.idempotency.spi.StrategyRunner} does both for blocking work.
 */
@NullMarked
package dev.idempotency.spi;

import org.jspecify.annotations.NullMarked;
