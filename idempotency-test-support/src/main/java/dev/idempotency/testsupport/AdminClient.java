package dev.idempotency.testsupport;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslVerifyMode;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import io.lettuce.core.sentinel.api.sync.RedisSentinelCommands;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Plain Lettuce client for the harness's own commands (PING, INFO, CONFIG, ...), kept apart from the
 * Spring connection factories under test. Every call opens a fresh connection with short timeouts,
 * so a killed, paused or restarted server never leaves it stuck on a dead or half-open connection.
 */
final class AdminClient implements AutoCloseable {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);

    // One small event loop shared by all admin clients (a cluster has up to nine nodes); Lettuce's
    // threads are daemons, so it never needs shutting down.
    private static final ClientResources RESOURCES = DefaultClientResources.builder()
            .ioThreadPoolSize(2)
            .computationThreadPoolSize(2)
            .build();

    private final RedisClient client;

    AdminClient(String host, int port) {
        this(host, port, null);
    }

    /**
     * With {@code tls}, connects over TLS trusting only the harness's CA. It always authenticates as the
     * {@code default} user, which keeps every permission, so stats and flushes work next to a restricted ACL user.
     */
    AdminClient(String host, int port, @Nullable TlsCertificates tls) {
        RedisURI.Builder uri = RedisURI.builder().withHost(host).withPort(port).withTimeout(COMMAND_TIMEOUT);
        ClientOptions.Builder options = ClientOptions.builder()
                .autoReconnect(false)
                .socketOptions(
                        SocketOptions.builder().connectTimeout(CONNECT_TIMEOUT).build());
        if (tls != null) {
            uri.withSsl(true).withVerifyPeer(SslVerifyMode.FULL);
            options.sslOptions(tls.sslOptions());
        }
        client = RedisClient.create(RESOURCES, uri.build());
        client.setOptions(options.build());
    }

    <T> T call(Function<RedisCommands<String, String>, T> command) {
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return command.apply(connection.sync());
        }
    }

    /** A command on a Sentinel process, which answers only the SENTINEL family, INFO, PING and a few more. */
    <T> T sentinel(Function<RedisSentinelCommands<String, String>, T> command) {
        try (StatefulRedisSentinelConnection<String, String> connection = client.connectSentinel()) {
            return command.apply(connection.sync());
        }
    }

    boolean answersPing() {
        try {
            return "PONG".equals(call(RedisCommands::ping));
        } catch (RuntimeException e) {
            return false;
        }
    }

    String info(String section) {
        return call(commands -> commands.info(section));
    }

    boolean isMaster() {
        return "master".equals(RedisInfo.field(info("replication"), "role"));
    }

    Map<String, Long> commandStats() {
        return parseCommandStats(info("commandstats"));
    }

    /** Parses lines such as {@code cmdstat_get:calls=3,usec=12,...} into {@code get -> 3}. */
    static Map<String, Long> parseCommandStats(String info) {
        Map<String, Long> stats = new TreeMap<>();
        info.lines().filter(line -> line.startsWith("cmdstat_")).forEach(line -> {
            int colon = line.indexOf(':');
            String command = line.substring("cmdstat_".length(), colon);
            for (String field : line.substring(colon + 1).split(",")) {
                if (field.startsWith("calls=")) {
                    stats.put(
                            command,
                            Long.parseLong(field.substring("calls=".length()).trim()));
                }
            }
        });
        return Collections.unmodifiableMap(stats);
    }

    @Override
    public void close() {
        client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
    }
}
