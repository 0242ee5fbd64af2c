/**
 * The strategy SPI, self-standing (it depends on the public API of {@code dev.idempotency} only):
 * {@link dev.idempotency.spi.IdempotencyStrategy} admits a call, the work runs under a
 * {@link dev.idempotency.spi.Permit} ({@link dev.idempotency.spi.Permit#callWithin} binds its context around the work),
 * {@link dev.idempotency.spi.Futures} hands a late admission back to be undone, and
 * {@link dev.idempotency.spi.ContextHolder} keeps the contexts of nested calls.
 */
@NullMarked
package dev.idempotency.spi;

import org.jspecify.annotations.NullMarked;
