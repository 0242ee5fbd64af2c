/** What Redis reports about itself, and the startup warnings drawn from it. */
@NullMarked
package dev.idempotency.diagnostics;

import org.jspecify.annotations.NullMarked;
