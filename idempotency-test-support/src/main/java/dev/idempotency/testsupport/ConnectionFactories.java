package dev.idempotency.testsupport;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslVerifyMode;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration.LettuceClientConfigurationBuilder;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** Creates started Spring {@link LettuceConnectionFactory} instances and destroys them with their server. */
final class ConnectionFactories {

    private static final Duration TOPOLOGY_REFRESH = Duration.ofSeconds(1);

    private final List<LettuceConnectionFactory> live = new CopyOnWriteArrayList<>();

    LettuceConnectionFactory standalone(String host, int port, Duration commandTimeout) {
        return standalone(host, port, commandTimeout, null, null);
    }

    /** With {@code tls}, TLS trusting only the harness's CA and checking the host name; with {@code user}, ACL login. */
    LettuceConnectionFactory standalone(
            String host, int port, Duration commandTimeout, @Nullable TlsCertificates tls, @Nullable AclUser user) {
        RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(host, port);
        if (user != null) {
            server.setUsername(user.username());
            server.setPassword(RedisPassword.of(user.password()));
        }
        ClientOptions.Builder options = ClientOptions.builder().socketOptions(socketOptions(commandTimeout));
        LettuceClientConfigurationBuilder client = LettuceClientConfiguration.builder();
        if (tls != null) {
            options.sslOptions(tls.sslOptions());
            client.useSsl().verifyPeer(SslVerifyMode.FULL);
        }
        return track(new LettuceConnectionFactory(
                server,
                client.commandTimeout(commandTimeout)
                        .clientOptions(options.build())
                        .build()));
    }

    /**
     * A factory that asks the Sentinels for the current master. Lettuce asks again on every reconnect, and Sentinel
     * kills the clients of both nodes when it reconfigures them, so the factory follows a failover by itself.
     */
    LettuceConnectionFactory sentinel(String masterName, List<String> sentinels, Duration commandTimeout) {
        LettuceClientConfiguration client = LettuceClientConfiguration.builder()
                .commandTimeout(commandTimeout)
                .clientOptions(ClientOptions.builder()
                        .socketOptions(socketOptions(commandTimeout))
                        .build())
                .build();
        return track(new LettuceConnectionFactory(
                new RedisSentinelConfiguration(masterName, new LinkedHashSet<>(sentinels)), client));
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
