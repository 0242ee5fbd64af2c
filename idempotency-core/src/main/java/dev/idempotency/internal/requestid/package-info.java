/** The Redis implementation of the {@code REQUEST_ID} strategy; internal, built by {@link dev.idempotency.redis.RedisIdempotency}. */
@NullMarked
package dev.idempotency.internal.requestid;

import org.jspecify.annotations.NullMarked;
