/** The Redis implementation of the {@code TOKEN} strategy; internal, built by {@link dev.idempotency.redis.RedisIdempotency}. */
@NullMarked
package dev.idempotency.internal.token;

import org.jspecify.annotations.NullMarked;
