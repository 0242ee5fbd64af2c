package dev.idempotency.internal.operation;

import dev.idempotency.Strategy;
import dev.idempotency.web.ReleaseOutcome;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The settings of one {@code @Idempotent} method on one target class, resolved and validated once at startup from the
 * annotation, its policy and the strategy defaults; the interceptor only reads it.
 *
 * @param method the annotated method, most specific on the target class
 * @param targetClass the class of the bean the method is called on
 * @param id the operation keys are scoped by outside HTTP: {@code @Idempotent(operation)}, else the target class's
 *     fully qualified name and the method signature
 * @param explicitId whether {@code id} was named with {@code @Idempotent(operation)}, which HTTP calls then use too
 * @param name the short name logs, metrics and the Actuator endpoint show, e.g. {@code OrderController#create}
 * @param strategy the protection
 * @param key parsed SpEL key, or {@code null} when the key comes from {@code header}
 * @param header HTTP header that carries the key or token
 * @param ttl how long a completed result is kept ({@code REQUEST_ID})
 * @param lease claim or lock lease
 * @param maxWait how long a duplicate or a lock caller waits
 * @param fingerprint whether payloads are compared ({@code REQUEST_ID})
 * @param fingerprintFields the part of a JSON payload that is compared
 * @param proceedOnStoreFailure whether the method runs unprotected when Redis fails
 * @param releaseOn the HTTP outcomes that release a {@code REQUEST_ID} claim instead of storing the response
 * @param policy the policy name, empty when none
 * @param beanCall how a call outside HTTP runs, by the method's return type
 * @param proceedWithoutKey whether a call without a key runs unprotected ({@code missing-key: proceed},
 *     {@code REQUEST_ID} only) instead of being refused
 * @param suspending whether the method is a Kotlin {@code suspend fun}, which runs as a {@code Mono}
 *     ({@link SuspendingFunctions})
 */
public record OperationSpec(
        Method method,
        Class<?> targetClass,
        String id,
        boolean explicitId,
        String name,
        Strategy strategy,
        @Nullable KeyExpression key,
        String header,
        Duration ttl,
        Duration lease,
        Duration maxWait,
        boolean fingerprint,
        PayloadFields fingerprintFields,
        boolean proceedOnStoreFailure,
        Set<ReleaseOutcome> releaseOn,
        String policy,
        BeanCall beanCall,
        boolean proceedWithoutKey,
        boolean suspending) {

    /**
     * Whether a duplicate's payload is compared with the first call's: {@code REQUEST_ID} with fingerprinting on (the
     * other strategies store no payload to compare with).
     */
    public boolean comparesPayloads() {
        return strategy == Strategy.REQUEST_ID && fingerprint;
    }

    /** Where the key comes from, as shown to operators: the SpEL expression or the header name. */
    public String keySource() {
        return key != null ? "spel:" + key.source() : "header:" + header;
    }

    /**
     * How a call outside HTTP is protected: its flow, how its result is stored, and how its arguments are
     * fingerprinted.
     *
     * @param flow the flow by return type (blocking, future, reactive)
     * @param codec stores the method's (or its future's) value as JSON and decodes it for duplicates
     * @param arguments the fingerprint of the arguments
     */
    public record BeanCall(InvocationFlow flow, JsonResultCodec codec, ArgumentFingerprint arguments) {}
}
