package dev.idempotency.actuate;

import dev.idempotency.autoconfigure.IdempotencyProperties;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The effective {@code idempotency.*} configuration, as the endpoint shows it. */
final class EndpointConfiguration {

    private EndpointConfiguration() {}

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
            putIfSet(values, "releaseOn", policy.getReleaseOn());
            putIfSet(values, "missingKey", policy.getMissingKey());
            policies.put(name, values);
        });
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("keyPrefix", properties.getKeyPrefix());
        description.put("store", properties.getStore());
        if (properties.getStore() == IdempotencyProperties.RecordStore.JDBC) {
            IdempotencyProperties.Jdbc jdbc = properties.getJdbc();
            description.put(
                    "jdbc",
                    Map.of(
                            "table", jdbc.getTable(),
                            "threads", jdbc.getThreads(),
                            "queryTimeout", jdbc.getQueryTimeout().toString(),
                            "purgeInterval", jdbc.getPurgeInterval().toString()));
        }
        description.put("onStoreFailure", properties.getOnStoreFailure());
        description.put("scope", properties.getScope());
        description.put("tenantClaim", properties.getTenant().getClaim());
        description.put("anonymous", properties.getAnonymous());
        description.put("advisorOrder", properties.getAdvisorOrder());
        description.put(
                "requestId",
                Map.of(
                        "header", requestId.getHeader(),
                        "ttl", requestId.getTtl().toString(),
                        "lease", requestId.getLease().toString(),
                        "wait", requestId.getWait().toString(),
                        "fingerprint", requestId.isFingerprint(),
                        "maxResponseSize", requestId.getMaxResponseSize().toString(),
                        "replayedHeaders", requestId.getReplayedHeaders(),
                        "releaseOn", requestId.getReleaseOn().toString(),
                        "missingKey", requestId.getMissingKey()));
        description.put(
                "token",
                Map.of(
                        "header", token.getHeader(),
                        "ttl", token.getTtl().toString(),
                        "endpointEnabled", String.valueOf(token.getEndpoint().getEnabled()),
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
}
