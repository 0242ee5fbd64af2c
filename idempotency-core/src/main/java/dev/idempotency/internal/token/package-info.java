/** The {@code TOKEN} strategy and its stores (Redis, JDBC); internal, built by {@link dev.idempotency.redis.RedisIdempotency}. */
@NullMarked
package dev.idempotency.internal.token;

import org.jspecify.annotations.NullMarked;
