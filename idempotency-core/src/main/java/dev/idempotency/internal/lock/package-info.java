/** The Redis implementation of the {@code LOCK} strategy; internal, built by {@link dev.idempotency.redis.RedisIdempotency}. */
@NullMarked
package dev.idempotency.internal.lock;

import org.jspecify.annotations.NullMarked;
