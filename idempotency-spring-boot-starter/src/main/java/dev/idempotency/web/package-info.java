/** Spring MVC binding: keys from headers, response capture and replay, RFC 9457 problem details, the token endpoint. */
@NullMarked
package dev.idempotency.web;

import org.jspecify.annotations.NullMarked;
