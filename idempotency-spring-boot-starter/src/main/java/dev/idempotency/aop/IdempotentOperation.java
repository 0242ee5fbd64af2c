package dev.idempotency.aop;

import dev.idempotency.Strategy;
import java.lang.reflect.Method;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The settings of one {@code @Idempotent} method, resolved and validated once at startup from the annotation, its
 * policy and the strategy defaults.
 *
 * @param method the annotated method (most specific, on the target class)
 * @param name the method as logs and metrics name it, e.g. {@code OrderController#create}
 * @param strategy the protection
 * @param key parsed SpEL key, or {@code null} when the key comes from {@code header}
 * @param header HTTP header that carries the key or token
 * @param ttl how long a completed result is kept ({@code REQUEST_ID})
 * @param lease claim or lock lease
 * @param maxWait how long a duplicate or a lock caller waits
 * @param fingerprint whether payloads are compared ({@code REQUEST_ID})
 * @param proceedOnStoreFailure whether the method runs unprotected when Redis fails
 * @param policy the policy name, empty when none
 */
public record IdempotentOperation(
        Method method,
        String name,
        Strategy strategy,
        @Nullable KeyExpression key,
        String header,
        Duration ttl,
        Duration lease,
        Duration maxWait,
        boolean fingerprint,
        boolean proceedOnStoreFailure,
        String policy) {

    /** Where the key comes from, as shown to operators: the SpEL expression or the header name. */
    public String keySource() {
        return key != null ? "spel:" + key.source() : "header:" + header;
    }
}
