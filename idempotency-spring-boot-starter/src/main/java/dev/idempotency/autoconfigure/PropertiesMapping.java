package dev.idempotency.autoconfigure;

import dev.idempotency.aop.OperationDefaults;
import dev.idempotency.aop.OperationDefaults.StrategyDefaults;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Maps {@link IdempotencyProperties} onto the defaults and policies the operation resolver works with. */
final class PropertiesMapping {

    private PropertiesMapping() {}

    static OperationDefaults defaults(IdempotencyProperties properties) {
        IdempotencyProperties.RequestId requestId = properties.getRequestId();
        IdempotencyProperties.Token token = properties.getToken();
        IdempotencyProperties.Lock lock = properties.getLock();
        return new OperationDefaults(
                new StrategyDefaults(
                        requestId.getHeader(),
                        requestId.getTtl(),
                        requestId.getLease(),
                        requestId.getWait(),
                        requestId.isFingerprint()),
                new StrategyDefaults(token.getHeader(), token.getTtl(), lock.getLease(), Duration.ZERO, false),
                new StrategyDefaults(requestId.getHeader(), lock.getLease(), lock.getLease(), lock.getWait(), false),
                properties.getOnStoreFailure() == IdempotencyProperties.StoreFailureMode.PROCEED);
    }

    /** The effective configuration as the actuator endpoint shows it. */
    static Map<String, Object> describe(IdempotencyProperties properties) {
        IdempotencyProperties.RequestId requestId = properties.getRequestId();
        IdempotencyProperties.Token token = properties.getToken();
        Map<String, Object> policies = new LinkedHashMap<>();
        properties.getPolicies().forEach((name, policy) -> {
            Map<String, Object> values = new LinkedHashMap<>();
            putIfSet(values, "ttl", policy.getTtl());
            putIfSet(values, "lease", policy.getLease());
            putIfSet(values, "wait", policy.getWait());
            putIfSet(values, "header", policy.getHeader());
            putIfSet(values, "fingerprint", policy.getFingerprint());
            putIfSet(values, "onStoreFailure", policy.getOnStoreFailure());
            policies.put(name, values);
        });
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("keyPrefix", properties.getKeyPrefix());
        description.put("onStoreFailure", properties.getOnStoreFailure());
        description.put("scope", properties.getScope());
        description.put(
                "requestId",
                Map.of(
                        "header", requestId.getHeader(),
                        "ttl", requestId.getTtl().toString(),
                        "lease", requestId.getLease().toString(),
                        "wait", requestId.getWait().toString(),
                        "fingerprint", requestId.isFingerprint(),
                        "maxResponseSize", requestId.getMaxResponseSize().toString()));
        description.put(
                "token",
                Map.of(
                        "header", token.getHeader(),
                        "ttl", token.getTtl().toString(),
                        "endpointEnabled", token.getEndpoint().isEnabled(),
                        "endpointPath", token.getEndpoint().getPath()));
        description.put(
                "lock",
                Map.of(
                        "lease", properties.getLock().getLease().toString(),
                        "wait", properties.getLock().getWait().toString()));
        description.put(
                "redis",
                Map.of(
                        "waitForReplicas", properties.getRedis().getWaitForReplicas(),
                        "waitForReplicasTimeout",
                                properties
                                        .getRedis()
                                        .getWaitForReplicasTimeout()
                                        .toString()));
        description.put("policies", policies);
        return description;
    }

    private static void putIfSet(Map<String, Object> values, String name, @Nullable Object value) {
        if (value != null) {
            values.put(name, value.toString());
        }
    }

    static Map<String, OperationDefaults.Policy> policies(IdempotencyProperties properties) {
        Map<String, OperationDefaults.Policy> policies = new LinkedHashMap<>();
        properties
                .getPolicies()
                .forEach((name, policy) -> policies.put(
                        name,
                        new OperationDefaults.Policy(
                                policy.getTtl(),
                                policy.getLease(),
                                policy.getWait(),
                                policy.getHeader(),
                                policy.getFingerprint(),
                                policy.getOnStoreFailure() == null
                                        ? null
                                        : policy.getOnStoreFailure()
                                                == IdempotencyProperties.StoreFailureMode.PROCEED)));
        return policies;
    }
}
