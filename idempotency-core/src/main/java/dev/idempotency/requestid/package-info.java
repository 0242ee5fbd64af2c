/** The {@code REQUEST_ID} strategy: claim a client key, store the result, replay it to duplicates. */
@NullMarked
package dev.idempotency.requestid;

import org.jspecify.annotations.NullMarked;
