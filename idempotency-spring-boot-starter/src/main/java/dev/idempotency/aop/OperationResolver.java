package dev.idempotency.aop;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import dev.idempotency.support.Durations;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringValueResolver;

/**
 * Resolves an {@code @Idempotent} method's settings: annotation first, then its policy, then the strategy defaults. Every
 * problem is reported as {@link InvalidIdempotentMethodException} naming the method.
 */
public final class OperationResolver {

    private final OperationDefaults defaults;
    private final Map<String, OperationDefaults.Policy> policies;
    private final StringValueResolver placeholders;

    public OperationResolver(
            OperationDefaults defaults,
            Map<String, OperationDefaults.Policy> policies,
            StringValueResolver placeholders) {
        this.defaults = defaults;
        this.policies = policies;
        this.placeholders = placeholders;
    }

    /** The operation of {@code method}, or {@code null} when it carries no {@code @Idempotent}. */
    public @Nullable IdempotentOperation resolve(Method method) {
        Idempotent annotation = AnnotatedElementUtils.findMergedAnnotation(method, Idempotent.class);
        if (annotation == null) {
            return null;
        }
        String name = ClassUtils.getUserClass(method.getDeclaringClass()).getSimpleName() + "#" + method.getName();
        try {
            return resolve(method, name, annotation);
        } catch (IllegalArgumentException ex) {
            throw new InvalidIdempotentMethodException(method, ex.getMessage());
        }
    }

    private IdempotentOperation resolve(Method method, String name, Idempotent annotation) {
        Strategy strategy = annotation.strategy();
        OperationDefaults.Policy policy = policy(annotation.policy());
        OperationDefaults.StrategyDefaults base = defaults.of(strategy);
        KeyExpression key = annotation.key().isBlank() ? null : KeyExpression.parse(annotation.key());
        if (strategy == Strategy.LOCK && key == null) {
            throw new IllegalArgumentException("LOCK needs a key naming the resource, e.g. key = \"#sku\"");
        }
        Duration ttl = base.ttl();
        if (!annotation.ttl().isBlank()) {
            if (strategy != Strategy.REQUEST_ID) {
                throw new IllegalArgumentException("ttl applies to REQUEST_ID only; " + strategy
                        + (strategy == Strategy.TOKEN ? " tokens live for idempotency.token.ttl" : " uses a lease"));
            }
            ttl = parseDuration("ttl", annotation.ttl());
        } else if (policy.ttl() != null) {
            ttl = policy.ttl();
        }
        return new IdempotentOperation(
                method,
                name,
                strategy,
                key,
                policy.header() != null ? policy.header() : base.header(),
                ttl,
                positive("lease", policy.lease() != null ? policy.lease() : base.lease()),
                policy.maxWait() != null ? policy.maxWait() : base.maxWait(),
                policy.fingerprint() != null ? policy.fingerprint() : base.fingerprint(),
                policy.proceedOnStoreFailure() != null
                        ? policy.proceedOnStoreFailure()
                        : defaults.proceedOnStoreFailure(),
                annotation.policy());
    }

    private OperationDefaults.Policy policy(String name) {
        if (name.isBlank()) {
            return OperationDefaults.Policy.NONE;
        }
        OperationDefaults.Policy policy = policies.get(name);
        if (policy == null) {
            throw new IllegalArgumentException("unknown policy \"" + name + "\"; idempotency.policies defines "
                    + (policies.isEmpty() ? "none" : policies.keySet()));
        }
        return policy;
    }

    private Duration parseDuration(String attribute, String value) {
        String resolved;
        try {
            resolved = placeholders.resolveStringValue(value);
        } catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException(attribute + " \"" + value + "\": " + ex.getMessage(), ex);
        }
        try {
            return positive(attribute, DurationStyle.detectAndParse(resolved == null ? "" : resolved.trim()));
        } catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException(
                    attribute + " \"" + value + "\" is not a duration such as 24h, 10m or PT30S", ex);
        }
    }

    private static Duration positive(String attribute, Duration value) {
        if (!Durations.isPositive(value)) {
            throw new IllegalArgumentException(attribute + " must be positive, was " + value);
        }
        return value;
    }
}
