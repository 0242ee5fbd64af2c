/** The {@code TOKEN} strategy: one-time tokens issued by the server and consumed atomically. */
@NullMarked
package dev.idempotency.token;

import org.jspecify.annotations.NullMarked;
