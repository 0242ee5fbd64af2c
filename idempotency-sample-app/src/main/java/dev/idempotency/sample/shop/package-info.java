/** The shop's endpoints (orders, payments, feedback, inventory), each protected by one {@code @Idempotent} strategy. */
@org.jspecify.annotations.NullMarked
package dev.idempotency.sample.shop;
