/** The {@code LOCK} strategy: lease locks with watchdog renewal, fencing tokens and prompt wake-up of waiters. */
@NullMarked
package dev.idempotency.lock;

import org.jspecify.annotations.NullMarked;
