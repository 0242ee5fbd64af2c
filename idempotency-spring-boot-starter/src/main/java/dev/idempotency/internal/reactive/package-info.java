/** Reactive calls: {@code Mono} and {@code Flux} methods protected for the whole subscription, without blocking. */
@NullMarked
package dev.idempotency.internal.reactive;

import org.jspecify.annotations.NullMarked;
