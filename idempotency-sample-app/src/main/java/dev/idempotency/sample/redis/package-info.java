/** Starts a Redis server for the sample on a free loopback port unless {@code spring.data.redis.*} names one. */
@org.jspecify.annotations.NullMarked
package dev.idempotency.sample.redis;
