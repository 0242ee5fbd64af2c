package dev.idempotency.actuate;

import dev.idempotency.Strategy;
import dev.idempotency.aop.IdempotentOperation;
import dev.idempotency.aop.OperationRegistry;
import dev.idempotency.diagnostics.RedisDiagnostics;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.support.RedisGateway;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code idempotency} Actuator endpoint. {@code GET} shows the effective configuration, every {@code @Idempotent}
 * operation found at startup, and Redis diagnostics. {@code DELETE} removes one record to unstick a key, e.g.
 * {@code DELETE /actuator/idempotency?operation=POST /orders&key=abc} (add {@code scope=alice} for a user's key, or
 * {@code strategy=lock&key=sku-1} for a lock).
 */
@Endpoint(id = "idempotency")
public class IdempotencyEndpoint {

    private final OperationRegistry registry;
    private final RedisKeys keys;
    private final RedisGateway redis;
    private final RedisDiagnostics diagnostics;
    private final Map<String, Object> configuration;

    public IdempotencyEndpoint(
            OperationRegistry registry,
            RedisKeys keys,
            RedisGateway redis,
            RedisDiagnostics diagnostics,
            Map<String, Object> configuration) {
        this.registry = registry;
        this.keys = keys;
        this.redis = redis;
        this.diagnostics = diagnostics;
        this.configuration = configuration;
    }

    @ReadOperation
    public Map<String, Object> describe() {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("configuration", configuration);
        description.put(
                "operations",
                registry.operations().stream()
                        .sorted(Comparator.comparing(IdempotentOperation::name))
                        .map(IdempotencyEndpoint::describe)
                        .toList());
        try {
            description.put("redis", diagnostics.read().describe());
        } catch (RuntimeException ex) {
            description.put("redis", Map.of("error", String.valueOf(ex.getMessage())));
        }
        return description;
    }

    /**
     * Deletes the record of a key.
     *
     * @param key the client key ({@code REQUEST_ID}) or the resource ({@code LOCK})
     * @param operation the operation the key is scoped by: {@code "POST /orders"} or {@code "Service#method"}
     * @param scope the user the key belongs to with {@code scope: principal}; absent for anonymous or shared keys
     * @param strategy {@code request_id} (default) or {@code lock}
     */
    @DeleteOperation
    public Map<String, Object> delete(
            String key, @Nullable String operation, @Nullable String scope, @Nullable String strategy) {
        Strategy kind = strategy == null ? Strategy.REQUEST_ID : Strategy.valueOf(strategy.toUpperCase(Locale.ROOT));
        String redisKey = switch (kind) {
            case LOCK -> keys.lock(key);
            case REQUEST_ID -> {
                if (operation == null) {
                    throw new IllegalArgumentException("operation is required for REQUEST_ID records");
                }
                yield keys.requestId(scope == null ? "" : "user:" + scope, operation, key);
            }
            case TOKEN -> throw new IllegalArgumentException("tokens expire by themselves; nothing to unstick");
        };
        Long deleted =
                redis.command("delete", connection -> connection.keyCommands().del(RedisGateway.key(redisKey)));
        return Map.of("redisKey", redisKey, "deleted", deleted != null && deleted > 0);
    }

    private static Map<String, Object> describe(IdempotentOperation operation) {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("name", operation.name());
        description.put("strategy", operation.strategy());
        description.put("routes", HttpRoutes.of(operation.method()));
        description.put("keySource", operation.keySource());
        if (operation.strategy() == Strategy.REQUEST_ID) {
            description.put("ttl", operation.ttl().toString());
            description.put("fingerprint", operation.fingerprint());
        }
        if (operation.strategy() != Strategy.TOKEN) {
            description.put("lease", operation.lease().toString());
            description.put("wait", operation.maxWait().toString());
        }
        description.put("policy", operation.policy());
        description.put("onStoreFailure", operation.proceedOnStoreFailure() ? "proceed" : "reject");
        return description;
    }

    /** HTTP routes of a handler method ({@code POST /orders}), the operation names its keys are scoped by. */
    static final class HttpRoutes {

        private static final boolean WEB_PRESENT = org.springframework.util.ClassUtils.isPresent(
                "org.springframework.web.bind.annotation.RequestMapping", HttpRoutes.class.getClassLoader());

        private HttpRoutes() {}

        static List<String> of(java.lang.reflect.Method method) {
            return WEB_PRESENT ? WebRoutes.of(method) : List.of();
        }
    }
}
