/**
 * springdoc-openapi documentation of {@code @Idempotent} operations (key header, problem responses, replay header) and
 * of the token endpoint.
 */
@NullMarked
package dev.idempotency.openapi;

import org.jspecify.annotations.NullMarked;
