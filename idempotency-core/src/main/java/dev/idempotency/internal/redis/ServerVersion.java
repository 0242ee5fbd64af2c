package dev.idempotency.internal.redis;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/** Reads what Redis {@code INFO} says about the server, to use commands newer servers offer. */
public final class ServerVersion {

    private ServerVersion() {}

    /** Whether the server runs Redis 7.0 or newer, where {@code SET ... NX GET} is allowed. */
    public static CompletableFuture<Boolean> atLeast7(RedisGateway redis) {
        return info(redis, "server").thenApply(info -> majorVersion(find(info, "redis_version")) >= 7);
    }

    /** {@code INFO} (of one {@code section}, or all when {@code null}) as properties. */
    public static CompletableFuture<Properties> info(RedisGateway redis, @Nullable String section) {
        return redis.call("read", commands -> section == null ? commands.info() : commands.info(section))
                .thenApply(ServerVersion::parse);
    }

    static int majorVersion(@Nullable String version) {
        if (version == null) {
            return 0;
        }
        int dot = version.indexOf('.');
        try {
            return Integer.parseInt(
                    version.substring(0, dot < 0 ? version.length() : dot).trim());
        } catch (NumberFormatException ex) {
            return 0;
        }
    }

    /**
     * An entry of Redis {@code INFO}. A cluster-wide reply prefixes every entry with its node
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

    private static Properties parse(String info) {
        Properties properties = new Properties();
        try {
            // INFO lines are "name:value"; Properties reads ':' as a separator too.
            properties.load(new StringReader(info));
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return properties;
    }
}
