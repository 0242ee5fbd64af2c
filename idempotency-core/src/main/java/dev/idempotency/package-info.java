/** Idempotent operations on Redis: the {@link dev.idempotency.Idempotent} annotation, its strategies and exceptions. */
@NullMarked
package dev.idempotency;

import org.jspecify.annotations.NullMarked;
