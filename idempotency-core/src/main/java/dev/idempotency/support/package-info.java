/** Shared plumbing of the strategies: Redis access with one failure type, lease renewal and owner ids. */
@NullMarked
package dev.idempotency.support;

import org.jspecify.annotations.NullMarked;
