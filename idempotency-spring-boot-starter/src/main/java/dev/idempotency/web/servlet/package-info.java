/** Spring MVC: keys from headers, responses recorded as sent and replayed, RFC 9457 problem details, the token endpoint. */
@NullMarked
package dev.idempotency.web.servlet;

import org.jspecify.annotations.NullMarked;
