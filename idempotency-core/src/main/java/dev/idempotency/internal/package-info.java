/**
 * Internals shared by the strategies: Redis access, leases, digests and futures. Public only so the other packages and
 * modules of this library can reach them; not an API, and subject to change without notice.
 */
@NullMarked
package dev.idempotency.internal;

import org.jspecify.annotations.NullMarked;
