/** The three strategies in this JVM's memory, for tests and local runs: {@link dev.idempotency.memory.InMemoryIdempotency}. */
@NullMarked
package dev.idempotency.memory;

import org.jspecify.annotations.NullMarked;
