/** The {@code LOCK} strategy over its stores (Redis, memory); internal, built by the entry points (RedisIdempotency, InMemoryIdempotency). */
@NullMarked
package dev.idempotency.internal.lock;

import org.jspecify.annotations.NullMarked;
