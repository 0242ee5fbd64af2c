package dev.idempotency.internal.operation;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import dev.idempotency.internal.Durations;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.format.datetime.standard.DurationFormatterUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringValueResolver;
import tools.jackson.databind.json.JsonMapper;

/**
 * Resolves an {@code @Idempotent} method's settings: annotation first, then its policy, then the strategy defaults.
 * Every problem is reported as {@link InvalidIdempotentMethodException} naming the method.
 */
public final class OperationResolver {

    private final OperationDefaults defaults;
    private final Map<String, OperationDefaults.Policy> policies;
    private final StringValueResolver placeholders;
    private final JsonMapper jsonMapper;
    private final List<ReturnTypeFlow> returnTypeFlows;
    private final InvocationFlow blockingFlow;
    private final List<OperationCheck> checks;

    public OperationResolver(
            OperationDefaults defaults,
            Map<String, OperationDefaults.Policy> policies,
            StringValueResolver placeholders,
            JsonMapper jsonMapper,
            InvocationFlow blockingFlow,
            List<ReturnTypeFlow> returnTypeFlows,
            List<OperationCheck> checks) {
        this.defaults = defaults;
        this.policies = policies;
        this.placeholders = placeholders;
        this.jsonMapper = jsonMapper;
        this.blockingFlow = blockingFlow;
        this.returnTypeFlows = List.copyOf(returnTypeFlows);
        this.checks = List.copyOf(checks);
    }

    /** The operation of {@code method} called on {@code targetClass}, or {@code null} without {@code @Idempotent}. */
    public @Nullable OperationSpec resolve(Method method, Class<?> targetClass) {
        Idempotent annotation = AnnotatedElementUtils.findMergedAnnotation(method, Idempotent.class);
        if (annotation == null) {
            return null;
        }
        try {
            return resolve(method, ClassUtils.getUserClass(targetClass), annotation);
        } catch (IllegalArgumentException ex) {
            throw new InvalidIdempotentMethodException(method, ex.getMessage());
        }
    }

    private OperationSpec resolve(Method method, Class<?> targetClass, Idempotent annotation) {
        Strategy strategy = annotation.strategy();
        OperationDefaults.Policy policy = policy(annotation.policy());
        OperationDefaults.StrategyDefaults base = defaults.of(strategy);
        KeyExpression key = annotation.key().isBlank() ? null : KeyExpression.parse(annotation.key());
        if (strategy == Strategy.LOCK && key == null) {
            throw new IllegalArgumentException("LOCK needs a key naming the resource, e.g. key = \"#sku\"");
        }
        checks.forEach(check -> check.check(method, strategy));
        boolean explicitId = !annotation.operation().isBlank();
        String id = explicitId ? annotation.operation().trim() : signature(targetClass, method);
        String name = targetClass.getSimpleName() + "#" + method.getName();
        PayloadFields fields = policy.fingerprintFields() != null ? policy.fingerprintFields() : PayloadFields.ALL;
        return new OperationSpec(
                method,
                targetClass,
                id,
                explicitId,
                name,
                strategy,
                key,
                policy.header() != null ? policy.header() : base.header(),
                ttl(strategy, annotation, policy, base),
                positive("lease", policy.lease() != null ? policy.lease() : base.lease()),
                notNegative("wait", policy.maxWait() != null ? policy.maxWait() : base.maxWait()),
                policy.fingerprint() != null ? policy.fingerprint() : base.fingerprint(),
                fields,
                policy.proceedOnStoreFailure() != null
                        ? policy.proceedOnStoreFailure()
                        : defaults.proceedOnStoreFailure(),
                Set.copyOf(policy.releaseOn() != null ? policy.releaseOn() : defaults.releaseOn()),
                annotation.policy(),
                beanCall(method, id, strategy, fields),
                strategy == Strategy.REQUEST_ID
                        && (policy.proceedWithoutKey() != null
                                ? policy.proceedWithoutKey()
                                : defaults.proceedWithoutKey()),
                SuspendingFunctions.isSuspending(method));
    }

    private Duration ttl(
            Strategy strategy,
            Idempotent annotation,
            OperationDefaults.Policy policy,
            OperationDefaults.StrategyDefaults base) {
        if (!annotation.ttl().isBlank()) {
            if (strategy != Strategy.REQUEST_ID) {
                throw new IllegalArgumentException("ttl applies to REQUEST_ID only; " + strategy
                        + (strategy == Strategy.TOKEN ? " tokens live for idempotency.token.ttl" : " uses a lease"));
            }
            return parseDuration("ttl", annotation.ttl());
        }
        return positive("ttl", policy.ttl() != null ? policy.ttl() : base.ttl());
    }

    /** How calls outside HTTP run: the flow of the return type, and a codec for the value it produces. */
    private OperationSpec.BeanCall beanCall(Method method, String id, Strategy strategy, PayloadFields fields) {
        SuspendingFunctions.check(method);
        boolean suspending = SuspendingFunctions.isSuspending(method);
        // A suspend fun runs as the Mono Spring AOP turns it into, and its value is the Continuation's type argument.
        Class<?> runsAs = suspending ? SuspendingFunctions.runsAs(method) : method.getReturnType();
        ReturnTypeFlow special = returnTypeFlows.stream()
                .filter(flow -> flow.supports(runsAs))
                .findFirst()
                .orElse(null);
        if (suspending && special == null) {
            throw new IllegalArgumentException(
                    "a suspend fun runs as a Mono, but the starter's Reactor support is off");
        }
        Type valueType = suspending
                ? SuspendingFunctions.valueType(method)
                : special != null ? special.valueType(method) : method.getGenericReturnType();
        JsonResultCodec codec = new JsonResultCodec(jsonMapper, jsonMapper.constructType(valueType));
        if (strategy == Strategy.REQUEST_ID && !isHttpHandler(method)) {
            ResultTypes.requireDecodable(jsonMapper.constructType(valueType));
        }
        return new OperationSpec.BeanCall(
                special != null ? special.flow() : blockingFlow,
                codec,
                ArgumentFingerprint.of(method, id, fields, jsonMapper));
    }

    /** A handler's replay is its HTTP response; only results of other methods must be decoded to their type. */
    private static boolean isHttpHandler(Method method) {
        return MergedAnnotations.from(method, MergedAnnotations.SearchStrategy.TYPE_HIERARCHY)
                .isPresent("org.springframework.web.bind.annotation.RequestMapping");
    }

    /** {@code com.shop.OrderService#charge(java.lang.String,int)}: per target class, per overload. */
    static String signature(Class<?> targetClass, Method method) {
        return targetClass.getName() + "#" + method.getName() + "("
                + Arrays.stream(method.getParameterTypes())
                        .map(Class::getTypeName)
                        .collect(Collectors.joining(","))
                + ")";
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
        Duration parsed;
        try {
            parsed = DurationFormatterUtils.detectAndParse(resolved == null ? "" : resolved.trim());
        } catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException(
                    attribute + " \"" + value + "\" is not a duration such as 24h, 10m or PT30S", ex);
        }
        return positive(attribute, parsed);
    }

    private static Duration positive(String attribute, Duration value) {
        if (!Durations.isPositive(value)) {
            throw new IllegalArgumentException(attribute + " must be positive, was " + value);
        }
        return value;
    }

    private static Duration notNegative(String attribute, Duration value) {
        if (value.isNegative()) {
            throw new IllegalArgumentException(attribute + " must not be negative, was " + value);
        }
        return value;
    }
}
