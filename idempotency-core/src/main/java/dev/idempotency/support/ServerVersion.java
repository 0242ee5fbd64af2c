package dev.idempotency.support;

import java.util.Properties;
import org.jspecify.annotations.Nullable;

/** Reads the Redis server version once, to use commands newer servers offer. */
public final class ServerVersion {

    private ServerVersion() {}

    /**
     * Whether the server runs Redis 7.0 or newer, where {@code SET ... NX GET} is allowed.
     *
     * @throws dev.idempotency.IdempotencyStoreUnavailableException when Redis cannot be asked
     */
    public static boolean atLeast7(RedisGateway redis) {
        Properties info =
                redis.command("info", connection -> connection.serverCommands().info("server"));
        String version = info == null ? null : find(info, "redis_version");
        if (version == null) {
            return false;
        }
        int dot = version.indexOf('.');
        try {
            return Integer.parseInt(version.substring(0, dot < 0 ? version.length() : dot)
                            .trim())
                    >= 7;
        } catch (NumberFormatException ex) {
            return false;
        }
    }

    /**
     * An entry of Redis {@code INFO}. A cluster connection prefixes every entry with its node
     * ({@code host:port.redis_version}); any node's serves.
     */
    public static @Nullable String find(Properties info, String name) {
        String direct = info.getProperty(name);
        if (direct != null) {
            return direct.trim();
        }
        for (String key : info.stringPropertyNames()) {
            if (key.endsWith("." + name)) {
                return info.getProperty(key).trim();
            }
        }
        return null;
    }
}
