/** Internal: the machinery behind {@code @Idempotent} in Spring (aop). Public only for this library's own packages. */
@NullMarked
package dev.idempotency.internal.aop;

import org.jspecify.annotations.NullMarked;
