package dev.idempotency.testsupport;

import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ExtensionContext.Store;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Resolves {@link RedisServer}, {@link RedisCluster}, {@link RedisReplicaPair} and {@link RedisSentinel}
 * parameters with real servers; use it through {@link RealRedis}.
 *
 * <p>By default every test in the JVM shares one standalone server and one three-master cluster, started
 * on first use and closed when the test run ends. They are never flushed between tests, so tests must use
 * their own (e.g. random) key prefixes, and fault operations on them are refused. A {@link Dedicated}
 * parameter gets a fresh server or cluster of its own. {@code RedisReplicaPair} and {@code RedisSentinel}
 * parameters are always dedicated, since a promotion or failover changes them for good; for a shared Sentinel
 * topology use {@link Topologies#SENTINEL}.
 */
public final class RedisExtension implements ParameterResolver {

    private static final Namespace NAMESPACE = Namespace.create(RedisExtension.class);
    private static final Set<Class<?>> TYPES =
            Set.of(RedisServer.class, RedisCluster.class, RedisReplicaPair.class, RedisSentinel.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return TYPES.contains(parameter.getParameter().getType());
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        Optional<Dedicated> dedicated = parameter.findAnnotation(Dedicated.class);
        if (dedicated.isPresent() || type == RedisReplicaPair.class || type == RedisSentinel.class) {
            AutoCloseable resource = startDedicated(
                    type, dedicated.map(Dedicated::clusterReplicas).orElse(0));
            // Stored under a key of its own in the asking context, which closes it when that context ends.
            context.getStore(NAMESPACE).put(new Object(), resource);
            return resource;
        }
        // The root store lives for the whole run and closes AutoCloseable values at its end.
        Store root = context.getRoot().getStore(NAMESPACE);
        if (type == RedisServer.class) {
            return root.computeIfAbsent(
                    RedisServer.class, key -> RedisServer.start().markShared(), RedisServer.class);
        }
        return root.computeIfAbsent(
                RedisCluster.class, key -> RedisCluster.start().markShared(), RedisCluster.class);
    }

    private static AutoCloseable startDedicated(Class<?> type, int clusterReplicas) {
        if (type == RedisServer.class) {
            return RedisServer.start();
        }
        if (type == RedisCluster.class) {
            return RedisCluster.start(clusterReplicas);
        }
        if (type == RedisSentinel.class) {
            return RedisSentinel.start();
        }
        return RedisReplicaPair.start();
    }
}
