package dev.idempotency.reliability;

import dev.idempotency.testsupport.RedisInfo;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.time.Duration;
import java.util.function.Function;

/**
 * The tests' own Redis client for what the harness does not offer (INFO fields, CONFIG SET, REPLICAOF, filling memory),
 * kept apart from the connection factories under test. Each call opens a fresh connection, so a killed or restarted
 * server never leaves it stuck.
 */
final class RedisAdmin implements AutoCloseable {

    private static final ClientResources RESOURCES = DefaultClientResources.builder()
            .ioThreadPoolSize(2)
            .computationThreadPoolSize(2)
            .build();

    private final RedisClient client;
    private final String address;

    RedisAdmin(String host, int port) {
        this.address = host + ":" + port;
        client = RedisClient.create(
                RESOURCES,
                RedisURI.builder()
                        .withHost(host)
                        .withPort(port)
                        .withTimeout(Duration.ofSeconds(2))
                        .build());
        client.setOptions(ClientOptions.builder()
                .autoReconnect(false)
                .socketOptions(SocketOptions.builder()
                        .connectTimeout(Duration.ofSeconds(1))
                        .build())
                .build());
    }

    <T> T call(Function<RedisCommands<String, String>, T> command) {
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return command.apply(connection.sync());
        }
    }

    /** A connection of its own, for a burst of commands; the caller closes it. */
    StatefulRedisConnection<String, String> connect() {
        return client.connect();
    }

    String info(String section) {
        return call(commands -> commands.info(section));
    }

    /** Whether this server replicates {@code master}: its link is up and the master lists it, online, as its one replica. */
    boolean isOnlineReplicaOf(RedisAdmin master) {
        String replicaInfo = info("replication");
        String masterInfo = master.info("replication");
        return "up".equals(RedisInfo.field(replicaInfo, "master_link_status"))
                && "1".equals(RedisInfo.field(masterInfo, "connected_slaves"))
                && RedisInfo.field(masterInfo, "slave0").contains("state=online");
    }

    long usedMemory() {
        return Long.parseLong(RedisInfo.field(info("memory"), "used_memory"));
    }

    String get(String key) {
        return call(commands -> commands.get(key));
    }

    boolean exists(String key) {
        return call(commands -> commands.exists(key)) > 0;
    }

    void configSet(String name, String value) {
        call(commands -> commands.configSet(name, value));
    }

    @Override
    public void close() {
        client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
    }

    @Override
    public String toString() {
        return "RedisAdmin[" + address + "]";
    }
}
