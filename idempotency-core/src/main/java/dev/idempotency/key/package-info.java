/** Validation of client keys and the hashing that turns them into fixed-length Redis keys. */
@NullMarked
package dev.idempotency.key;

import org.jspecify.annotations.NullMarked;
