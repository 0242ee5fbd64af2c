/**
 * What Spring MVC and WebFlux share: the RFC 9457 problem details of the HTTP contract and the outcomes that
 * {@code idempotency.request-id.release-on} names.
 */
@NullMarked
package dev.idempotency.web;

import org.jspecify.annotations.NullMarked;
