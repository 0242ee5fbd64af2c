package dev.idempotency.reliability.promise;

import dev.idempotency.reliability.FaultProxy;
import dev.idempotency.testsupport.RedisReplicaPair;
import dev.idempotency.testsupport.RedisServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;

/**
 * The Redis an application of the checker talks to, and the faults a history can inject into it: either one durable
 * server behind a {@link FaultProxy} (stopped, killed and restarted, replies dropped), or a master with a replica (the
 * replica frozen under {@code wait-for-replicas}); and, on the JDBC store, its claims taken over by another instance
 * ({@link OtherInstance}). The harness reads Redis directly, never through the proxy.
 */
final class Backend implements AutoCloseable {

    private final RedisServer redis;
    private final @Nullable FaultProxy proxy;
    private final @Nullable RedisReplicaPair pair;
    private final LettuceConnectionFactory direct;
    private volatile History.Fault.@Nullable Kind active;

    private Backend(RedisServer redis, @Nullable FaultProxy proxy, @Nullable RedisReplicaPair pair) {
        this.redis = redis;
        this.proxy = proxy;
        this.pair = pair;
        this.direct = redis.newConnectionFactory();
    }

    /** One server that keeps what it acknowledged across a kill, reached through a fault proxy. */
    static Backend durable() {
        RedisServer redis = RedisServer.builder().durable().start();
        return new Backend(redis, FaultProxy.start(redis.host(), redis.port()), null);
    }

    /** A master and its replica; the application talks to the master directly. */
    static Backend replicated() {
        RedisReplicaPair pair = RedisReplicaPair.start();
        return new Backend(pair.master(), null, pair);
    }

    /** Where the application connects: {@code spring.data.redis.*} properties. */
    List<String> springProperties() {
        return List.of(
                "spring.data.redis.host=127.0.0.1",
                "spring.data.redis.port=" + (proxy != null ? proxy.port() : redis.port()));
    }

    void begin(History.Fault.Kind kind) {
        active = kind;
        switch (kind) {
            case SIGSTOP -> redis.pause();
            case KILL -> redis.kill();
            case DROP_REPLIES -> proxy().dropAllReplies(true);
            case REPLICA_FROZEN -> replicaPair().replica().pause();
            case TAKEN_OVER -> OtherInstance.takeOver();
        }
    }

    void end(History.Fault.Kind kind) {
        switch (kind) {
            case SIGSTOP -> redis.resume();
            case KILL -> redis.restart();
            case DROP_REPLIES -> proxy().dropAllReplies(false);
            case REPLICA_FROZEN -> replicaPair().replica().resume();
            case TAKEN_OVER -> OtherInstance.stop();
        }
        active = null;
    }

    /** Ends the fault that may still be on (after a failure in the middle of a history). */
    void endFaults() {
        History.Fault.Kind kind = active;
        if (kind != null) {
            end(kind);
        }
    }

    /** Locks and in-progress claims in Redis: after every history, none may be left. */
    List<String> leftovers() {
        List<String> left = new ArrayList<>();
        try (RedisConnection connection = direct.getConnection();
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
        try (RedisConnection connection = direct.getConnection()) {
            for (String key : keys) {
                connection.keyCommands().del(key.getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    private FaultProxy proxy() {
        if (proxy == null) {
            throw new IllegalStateException("this backend has no fault proxy");
        }
        return proxy;
    }

    private RedisReplicaPair replicaPair() {
        if (pair == null) {
            throw new IllegalStateException("this backend has no replica");
        }
        return pair;
    }

    @Override
    public void close() {
        direct.destroy();
        if (proxy != null) {
            proxy.close();
        }
        if (pair != null) {
            pair.close();
        } else {
            redis.close();
        }
    }
}
