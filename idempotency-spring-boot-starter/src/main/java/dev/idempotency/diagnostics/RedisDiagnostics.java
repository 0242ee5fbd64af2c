package dev.idempotency.diagnostics;

import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.internal.redis.ServerVersion;
import dev.idempotency.redis.RedisIdempotency;
import dev.idempotency.spi.Futures;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * Reads what matters for idempotency records from Redis {@code INFO}: version, mode (standalone, sentinel, cluster),
 * eviction policy and persistence. {@code INFO} works on managed Redis services that forbid {@code CONFIG}.
 */
public final class RedisDiagnostics {

    /** The only eviction policy that never drops idempotency records. */
    public static final String NO_EVICTION = "noeviction";

    private final RedisGateway redis;

    /**
     * Creates the diagnostics.
     *
     * @param idempotency the Redis the strategies use
     */
    public RedisDiagnostics(RedisIdempotency idempotency) {
        this.redis = idempotency.gateway();
    }

    /** A snapshot of the server's state; throws when Redis cannot be reached. */
    public Snapshot read() {
        Properties all = Futures.join(ServerVersion.info(redis, null));
        return new Snapshot(
                value(all, "redis_version"),
                value(all, "redis_mode"),
                value(all, "maxmemory_policy"),
                value(all, "maxmemory"),
                "1".equals(value(all, "aof_enabled")),
                value(all, "rdb_last_save_time"));
    }

    private static @Nullable String value(Properties info, String name) {
        return ServerVersion.find(info, name);
    }

    /**
     * What Redis reported.
     *
     * @param version server version
     * @param mode standalone, sentinel or cluster
     * @param maxmemoryPolicy eviction policy
     * @param maxmemory memory limit in bytes, 0 for none
     * @param aofEnabled whether the append-only file is on
     * @param lastRdbSave epoch seconds of the last RDB snapshot
     */
    public record Snapshot(
            @Nullable String version,
            @Nullable String mode,
            @Nullable String maxmemoryPolicy,
            @Nullable String maxmemory,
            boolean aofEnabled,
            @Nullable String lastRdbSave) {

        /** Whether Redis may evict keys, and so drop idempotency records before their TTL. */
        public boolean mayEvict() {
            return maxmemoryPolicy != null && !NO_EVICTION.equals(maxmemoryPolicy);
        }

        /** The snapshot as the actuator endpoint shows it. */
        public Map<String, Object> describe() {
            Map<String, Object> description = new LinkedHashMap<>();
            description.put("version", version);
            description.put("mode", mode);
            description.put("maxmemoryPolicy", maxmemoryPolicy);
            description.put("maxmemory", maxmemory);
            description.put("appendOnly", aofEnabled);
            description.put("lastRdbSave", lastRdbSave);
            return description;
        }
    }
}
