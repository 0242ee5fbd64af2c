/** Auto-configuration and properties of the idempotency starter. */
@NullMarked
package dev.idempotency.autoconfigure;

import org.jspecify.annotations.NullMarked;
