/** Internal: the machinery behind {@code @Idempotent} in Spring (operation). Public only for this library's own packages. */
@NullMarked
package dev.idempotency.internal.operation;

import org.jspecify.annotations.NullMarked;
