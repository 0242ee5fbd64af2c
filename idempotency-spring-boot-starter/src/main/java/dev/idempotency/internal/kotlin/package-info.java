/** Internal: Kotlin coroutines under {@code @Idempotent}, loaded only when a protected {@code suspend fun} runs. */
@NullMarked
package dev.idempotency.internal.kotlin;

import org.jspecify.annotations.NullMarked;
