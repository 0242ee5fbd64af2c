package dev.idempotency.reliability.promise;

import static java.util.Objects.requireNonNull;

import dev.idempotency.reliability.FailoverPair;
import dev.idempotency.reliability.FaultProxy;
import dev.idempotency.testsupport.RedisServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;

/**
 * The Redis an application of the checker talks to, and the faults a history can inject into it: either one durable
 * server behind a {@link FaultProxy} (stopped, killed and restarted, replies dropped or held back), or a master with a replica (the
 * replica frozen under {@code wait-for-replicas}, or cut off and promoted: {@link FailoverPair}); and, on the JDBC
 * store, its claims taken over by another instance ({@link OtherInstance}). The harness reads Redis directly, never
 * through the proxy.
 */
final class Backend implements Faults, AutoCloseable {

    private final @Nullable RedisServer redis;
    private final @Nullable FaultProxy proxy;
    private final @Nullable LettuceConnectionFactory durableDirect;
    private final @Nullable FailoverPair pair;
    private volatile History.Fault.@Nullable Kind active;

    private Backend(RedisServer redis, FaultProxy proxy) {
        this.redis = redis;
        this.proxy = proxy;
        this.durableDirect = redis.newConnectionFactory();
        this.pair = null;
    }

    private Backend(FailoverPair pair) {
        this.redis = null;
        this.proxy = null;
        this.durableDirect = null;
        this.pair = pair;
    }

    /** One server that keeps what it acknowledged across a kill, reached through a fault proxy. */
    static Backend durable() {
        RedisServer redis = RedisServer.builder().durable().start();
        return new Backend(redis, FaultProxy.start(redis.host(), redis.port()));
    }

    /** A master and its replica; the application talks to the master through a proxy that follows a failover. */
    static Backend replicated() {
        return new Backend(FailoverPair.start("promise:"));
    }

    /** Where the application connects: {@code spring.data.redis.*} properties. */
    List<String> springProperties() {
        return List.of(
                "spring.data.redis.host=127.0.0.1",
                "spring.data.redis.port=" + (pair != null ? pair.port() : proxy().port()));
    }

    @Override
    public void begin(History.Fault.Kind kind) {
        active = kind;
        switch (kind) {
            case SIGSTOP -> redis().pause();
            case KILL -> redis().kill();
            case DROP_REPLIES -> proxy().dropAllReplies(true);
            case HOLD_REPLIES -> proxy().holdReplies(true);
            case REPLICA_FROZEN -> replicaPair().replica().pause();
            case FAILOVER -> replicaPair().cut();
            case TAKEN_OVER -> OtherInstance.takeOver();
            case APP_KILLED -> throw new IllegalStateException("the application's own fault: ChildApp's");
        }
    }

    @Override
    public void end(History.Fault.Kind kind) {
        switch (kind) {
            case SIGSTOP -> redis().resume();
            case KILL -> redis().restart();
            case DROP_REPLIES -> proxy().dropAllReplies(false);
            case HOLD_REPLIES -> proxy().holdReplies(false);
            case REPLICA_FROZEN -> replicaPair().replica().resume();
            case FAILOVER -> replicaPair().failOver();
            case TAKEN_OVER -> OtherInstance.stop();
            case APP_KILLED -> throw new IllegalStateException("the application's own fault: ChildApp's");
        }
        active = null;
    }

    /** The Redis keys this history's failover lost or changed (none without a failover). */
    Set<String> lostInFailover() {
        return pair != null ? pair.lostAtLastFailover() : Set.of();
    }

    @Override
    public void endFaults() {
        History.Fault.Kind kind = active;
        if (kind != null) {
            end(kind);
        }
    }

    /** Locks and in-progress claims in Redis: after every history, none may be left. */
    List<String> leftovers() {
        List<String> left = new ArrayList<>();
        try (RedisConnection connection = direct().getConnection();
                Cursor<byte[]> keys = connection
                        .keyCommands()
                        .scan(ScanOptions.scanOptions()
                                .match("promise:*")
                                .count(1000)
                                .build())) {
            while (keys.hasNext()) {
                String key = new String(keys.next(), StandardCharsets.UTF_8);
                if (key.startsWith("promise:lock:") && !key.endsWith(":fence")) {
                    left.add("the lock " + key);
                } else if (key.startsWith("promise:request-id:")) {
                    byte[] value = connection.stringCommands().get(key.getBytes(StandardCharsets.UTF_8));
                    if (value != null && value.length > 0 && value[0] == 'P') {
                        left.add("the in-progress claim " + key);
                    }
                }
            }
        }
        return left;
    }

    /** Deletes what {@link #leftovers()} found: reported already, a history that follows must not inherit it. */
    void clearLeftovers() {
        List<String> keys = leftovers().stream()
                .map(leftover -> leftover.substring(leftover.lastIndexOf(' ') + 1))
                .toList();
        try (RedisConnection connection = direct().getConnection()) {
            for (String key : keys) {
                connection.keyCommands().del(key.getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    /** The master as the harness reads it: after a failover, the promoted replica. */
    private LettuceConnectionFactory direct() {
        return pair != null ? pair.master() : requireNonNull(durableDirect);
    }

    private RedisServer redis() {
        if (redis == null) {
            throw new IllegalStateException("this backend's faults are its replica's");
        }
        return redis;
    }

    private FaultProxy proxy() {
        if (proxy == null) {
            throw new IllegalStateException("this backend has no fault proxy");
        }
        return proxy;
    }

    private FailoverPair replicaPair() {
        if (pair == null) {
            throw new IllegalStateException("this backend has no replica");
        }
        return pair;
    }

    @Override
    public void close() {
        if (pair != null) {
            pair.close();
        } else {
            requireNonNull(durableDirect).destroy();
            proxy().close();
            redis().close();
        }
    }
}
