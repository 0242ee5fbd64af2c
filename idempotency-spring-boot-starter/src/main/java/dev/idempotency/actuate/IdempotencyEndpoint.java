package dev.idempotency.actuate;

import dev.idempotency.IdempotencyStore;
import dev.idempotency.Strategy;
import dev.idempotency.diagnostics.RedisDiagnostics;
import dev.idempotency.internal.operation.OperationRegistry;
import dev.idempotency.internal.operation.OperationSpec;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.spi.Futures;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code idempotency} Actuator endpoint. {@code GET} shows the effective configuration, every {@code @Idempotent}
 * operation found at startup, and Redis diagnostics (on Redis). {@code DELETE} removes one record to unstick a key, e.g.
 * {@code DELETE /actuator/idempotency?operation=POST /orders&key=abc} (add {@code scope=alice} for a user's key, or
 * {@code strategy=lock&key=sku-1} for a lock). It can remove any user's record, so it is read-only unless
 * {@code management.endpoint.idempotency.access=unrestricted}; secure it like any write endpoint.
 */
@Endpoint(id = "idempotency", defaultAccess = Access.READ_ONLY)
public class IdempotencyEndpoint {

    private final OperationRegistry registry;
    private final IdempotencyStore idempotency;
    private final RedisKeys keys;
    private final @Nullable RedisDiagnostics diagnostics;
    private final Map<String, Object> configuration;

    /**
     * Creates the endpoint; the auto-configuration does.
     *
     * @param registry the operations found at startup
     * @param idempotency the strategies and their stores
     * @param diagnostics the Redis server checks; {@code null} without Redis ({@code store: in-memory})
     * @param configuration the effective configuration to show
     */
    IdempotencyEndpoint(
            OperationRegistry registry,
            IdempotencyStore idempotency,
            @Nullable RedisDiagnostics diagnostics,
            Map<String, Object> configuration) {
        this.registry = registry;
        this.idempotency = idempotency;
        this.keys = idempotency.keys();
        this.diagnostics = diagnostics;
        this.configuration = configuration;
    }

    /**
     * The effective configuration, every {@code @Idempotent} operation and the state of Redis.
     *
     * @return the description, as JSON
     */
    @ReadOperation
    public Map<String, Object> describe() {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("configuration", configuration);
        description.put(
                "operations",
                registry.operations().stream()
                        .sorted(Comparator.comparing(OperationSpec::name).thenComparing(OperationSpec::id))
                        .map(IdempotencyEndpoint::describe)
                        .toList());
        if (diagnostics != null) {
            try {
                description.put("redis", diagnostics.read().describe());
            } catch (RuntimeException ex) {
                description.put("redis", Map.of("error", String.valueOf(ex.getMessage())));
            }
        }
        return description;
    }

    /**
     * Deletes the record of a key.
     *
     * @param key the client key ({@code REQUEST_ID}) or the resource ({@code LOCK})
     * @param operation the operation the key is scoped by, as {@code GET} lists it: {@code "POST /orders"} for a
     *     handler, the bean operation (class and method signature) otherwise
     * @param user the user the key belongs to with {@code scope: principal} ({@code alice}; any characters)
     * @param tenant the tenant the key belongs to with {@code scope: tenant} ({@code acme})
     * @param scope the scope exactly as the resolver names it (an application's own {@code ScopeResolver}); absent, with
     *     {@code user} and {@code tenant}, for anonymous or shared keys. At most one of the three.
     * @param strategy {@code request_id} (default) or {@code lock}
     */
    @DeleteOperation
    public Map<String, Object> delete(
            String key,
            @Nullable String operation,
            @Nullable String user,
            @Nullable String tenant,
            @Nullable String scope,
            @Nullable String strategy) {
        Strategy kind = strategy == null ? Strategy.REQUEST_ID : Strategy.valueOf(strategy.toUpperCase(Locale.ROOT));
        String redisKey = switch (kind) {
            case LOCK -> keys.lock(key);
            case REQUEST_ID -> {
                if (operation == null) {
                    throw new IllegalArgumentException("operation is required for REQUEST_ID records");
                }
                yield keys.requestId(scopeOf(user, tenant, scope), operation, key);
            }
            case TOKEN -> throw new IllegalArgumentException("tokens expire by themselves; nothing to unstick");
        };
        boolean deleted = kind == Strategy.LOCK
                ? Futures.join(idempotency.deleteLock(redisKey))
                : Futures.join(idempotency.deleteRequestIdRecord(redisKey)); // wherever the records live
        return Map.of("redisKey", redisKey, "deleted", deleted);
    }

    private static Map<String, Object> describe(OperationSpec operation) {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("name", operation.name());
        description.put("strategy", operation.strategy());
        description.put("routes", HttpRoutes.of(operation.method()));
        description.put(
                "operation",
                operation.explicitId() || HttpRoutes.of(operation.method()).isEmpty() ? operation.id() : "the route");
        description.put("keySource", operation.keySource());
        if (operation.strategy() == Strategy.REQUEST_ID) {
            description.put("ttl", operation.ttl().toString());
            description.put("fingerprint", operation.fingerprint());
            description.put("missingKey", operation.proceedWithoutKey() ? "proceed" : "reject");
        }
        if (operation.strategy() != Strategy.TOKEN) {
            description.put("lease", operation.lease().toString());
            description.put("wait", operation.maxWait().toString());
        }
        description.put("policy", operation.policy());
        description.put("onStoreFailure", operation.proceedOnStoreFailure() ? "proceed" : "reject");
        return description;
    }

    /** A bare name is a user ({@code scope: principal}); a name with a colon is a resolved scope, e.g. a tenant. */
    /** The scope named by exactly one of the parameters, unambiguously: a user's name may hold any character. */
    private static String scopeOf(@Nullable String user, @Nullable String tenant, @Nullable String scope) {
        int named = (user != null ? 1 : 0) + (tenant != null ? 1 : 0) + (scope != null ? 1 : 0);
        if (named > 1) {
            throw new IllegalArgumentException("name the scope once: user, tenant or scope");
        }
        if (user != null) {
            return "user:" + user;
        }
        if (tenant != null) {
            return "tenant:" + tenant;
        }
        return scope != null ? scope : "";
    }
}
