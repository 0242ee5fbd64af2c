/** The three strategies on one Redis, built together: {@link dev.idempotency.redis.RedisIdempotency}. */
@NullMarked
package dev.idempotency.redis;

import org.jspecify.annotations.NullMarked;
