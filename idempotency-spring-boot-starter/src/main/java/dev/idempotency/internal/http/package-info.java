/**
 * What Spring MVC and WebFlux share: the stored response format, which headers a replay repeats, and the problem
 * mapping. Internal; subject to change without notice.
 */
@NullMarked
package dev.idempotency.internal.http;

import org.jspecify.annotations.NullMarked;
