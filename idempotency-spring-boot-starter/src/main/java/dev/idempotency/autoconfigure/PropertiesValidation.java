package dev.idempotency.autoconfigure;

import dev.idempotency.internal.operation.PayloadFields;
import dev.idempotency.jdbc.JdbcStore;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Fails startup on settings that would fail every request later: durations that must be positive (TTLs, leases) or
 * not negative (waits), and counts below zero. The message names the property, as Spring Boot's failure report shows.
 */
final class PropertiesValidation {

    private PropertiesValidation() {}

    static void validate(IdempotencyProperties properties) {
        IdempotencyProperties.RequestId requestId = properties.getRequestId();
        positive("idempotency.request-id.ttl", requestId.getTtl());
        positive("idempotency.request-id.lease", requestId.getLease());
        notNegative("idempotency.request-id.wait", requestId.getWait());
        if (requestId.getMaxResponseSize().toBytes() <= 0) {
            throw invalid("idempotency.request-id.max-response-size", requestId.getMaxResponseSize(), "positive");
        }
        String namespace = properties.getNamespace();
        if (namespace != null && !Namespace.isValid(namespace)) {
            throw invalid("idempotency.namespace", namespace, "letters, digits, '.', '_' and '-' only");
        }
        positive("idempotency.detached-renewal", properties.getDetachedRenewal());
        if (properties.getMaxHeldBytes().toBytes() <= 0) {
            throw invalid("idempotency.max-held-bytes", properties.getMaxHeldBytes(), "positive");
        }
        positive("idempotency.token.ttl", properties.getToken().getTtl());
        IdempotencyProperties.Token.Endpoint endpoint = properties.getToken().getEndpoint();
        if (endpoint.getMaxPerCaller() < 0) {
            throw invalid("idempotency.token.endpoint.max-per-caller", endpoint.getMaxPerCaller(), "zero or more");
        }
        if (endpoint.getMaxTotal() < 0) {
            throw invalid("idempotency.token.endpoint.max-total", endpoint.getMaxTotal(), "zero or more");
        }
        positive("idempotency.lock.lease", properties.getLock().getLease());
        notNegative("idempotency.lock.wait", properties.getLock().getWait());
        IdempotencyProperties.Redis redis = properties.getRedis();
        if (redis.getWaitForReplicas() < 0) {
            throw invalid("idempotency.redis.wait-for-replicas", redis.getWaitForReplicas(), "zero or more");
        }
        if (redis.getWaitForReplicas() > 0) {
            positive("idempotency.redis.wait-for-replicas-timeout", redis.getWaitForReplicasTimeout());
        }
        IdempotencyProperties.Jdbc jdbc = properties.getJdbc();
        if (!JdbcStore.isValidTable(jdbc.getTable())) {
            throw invalid("idempotency.jdbc.table", jdbc.getTable(), "letters, digits and '_' (schema.table) only");
        }
        if (jdbc.getThreads() <= 0) {
            throw invalid("idempotency.jdbc.threads", jdbc.getThreads(), "positive");
        }
        if (jdbc.getQueryTimeout().toSeconds() < 1) {
            throw invalid("idempotency.jdbc.query-timeout", jdbc.getQueryTimeout(), "at least one second");
        }
        notNegative("idempotency.jdbc.purge-interval", jdbc.getPurgeInterval());
        properties.getPolicies().forEach((name, policy) -> {
            String prefix = "idempotency.policies." + name + ".";
            positive(prefix + "ttl", policy.getTtl());
            positive(prefix + "lease", policy.getLease());
            notNegative(prefix + "wait", policy.getWait());
            try {
                PayloadFields.of(policy.getFingerprintFields());
            } catch (IllegalArgumentException ex) {
                throw new InvalidConfigurationPropertyValueException(
                        prefix + "fingerprint-fields", policy.getFingerprintFields(), ex.getMessage());
            }
        });
    }

    private static void positive(String name, @Nullable Duration value) {
        if (value != null && (value.isZero() || value.isNegative())) {
            throw invalid(name, value, "positive");
        }
    }

    private static void notNegative(String name, @Nullable Duration value) {
        if (value != null && value.isNegative()) {
            throw invalid(name, value, "zero or more");
        }
    }

    private static InvalidConfigurationPropertyValueException invalid(String name, Object value, String expected) {
        return new InvalidConfigurationPropertyValueException(
                name, value, expected.endsWith("only") ? "must have " + expected : "must be " + expected);
    }
}
