/**
 * Spring WebFlux: the same contract as Spring MVC (keys from headers, responses recorded as sent and replayed, RFC
 * 9457 problem details, the token endpoint), on the reactive stack and without blocking an event-loop thread.
 */
@NullMarked
package dev.idempotency.web.reactive;

import org.jspecify.annotations.NullMarked;
