/**
 * The client half: an {@code Idempotency-Key} per logical call and safe retries on Boot's {@code RestClient.Builder}
 * and {@code WebClient.Builder}, under {@code idempotency.client.*}.
 */
@NullMarked
package dev.idempotency.client;

import org.jspecify.annotations.NullMarked;
