/**
 * The in-memory store: one map of keys to values with expiry, like one Redis database in this JVM, under the stores of
 * the three strategies. Public only so the other packages of this library can reach it; not an API.
 */
@NullMarked
package dev.idempotency.internal.memory;

import org.jspecify.annotations.NullMarked;
