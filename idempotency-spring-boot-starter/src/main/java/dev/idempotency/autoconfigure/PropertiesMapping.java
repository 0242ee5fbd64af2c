package dev.idempotency.autoconfigure;

import dev.idempotency.internal.operation.OperationDefaults;
import dev.idempotency.internal.operation.OperationDefaults.StrategyDefaults;
import dev.idempotency.internal.operation.PayloadFields;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

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
                properties.getOnStoreFailure() == IdempotencyProperties.StoreFailureMode.PROCEED,
                requestId.getReleaseOn(),
                requestId.getMissingKey() == IdempotencyProperties.MissingKey.PROCEED);
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
                                policy.getFingerprintFields().isEmpty()
                                        ? null
                                        : PayloadFields.of(policy.getFingerprintFields()),
                                policy.getOnStoreFailure() == null
                                        ? null
                                        : policy.getOnStoreFailure() == IdempotencyProperties.StoreFailureMode.PROCEED,
                                policy.getReleaseOn(),
                                policy.getMissingKey() == null
                                        ? null
                                        : policy.getMissingKey() == IdempotencyProperties.MissingKey.PROCEED)));
        return policies;
    }
}
