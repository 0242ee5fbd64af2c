package dev.idempotency.testsupport;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** Creates started Spring {@link LettuceConnectionFactory} instances and destroys them with their server. */
final class ConnectionFactories {

    private static final Duration TOPOLOGY_REFRESH = Duration.ofSeconds(1);

    private final List<LettuceConnectionFactory> live = new CopyOnWriteArrayList<>();

    LettuceConnectionFactory standalone(String host, int port, Duration commandTimeout) {
        LettuceClientConfiguration client = LettuceClientConfiguration.builder()
                .commandTimeout(commandTimeout)
                .clientOptions(ClientOptions.builder()
                        .socketOptions(socketOptions(commandTimeout))
                        .build())
                .build();
        return track(new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port), client));
    }

    LettuceConnectionFactory cluster(List<String> nodes, Duration commandTimeout) {
        // Failover tests need the client to notice a promoted replica quickly rather than after minutes.
        ClusterTopologyRefreshOptions refresh = ClusterTopologyRefreshOptions.builder()
                .enableAllAdaptiveRefreshTriggers()
                .enablePeriodicRefresh(TOPOLOGY_REFRESH)
                .build();
        LettuceClientConfiguration client = LettuceClientConfiguration.builder()
                .commandTimeout(commandTimeout)
                .clientOptions(ClusterClientOptions.builder()
                        .socketOptions(socketOptions(commandTimeout))
                        .topologyRefreshOptions(refresh)
                        .build())
                .build();
        return track(new LettuceConnectionFactory(new RedisClusterConfiguration(nodes), client));
    }

    private static SocketOptions socketOptions(Duration commandTimeout) {
        return SocketOptions.builder().connectTimeout(commandTimeout).build();
    }

    private LettuceConnectionFactory track(LettuceConnectionFactory factory) {
        factory.afterPropertiesSet();
        factory.start();
        live.add(factory);
        return factory;
    }

    void destroyAll() {
        for (LettuceConnectionFactory factory : live) {
            try {
                factory.destroy();
            } catch (RuntimeException e) {
                // Keep going: the remaining factories and the server itself must still be released.
            }
        }
        live.clear();
    }
}
