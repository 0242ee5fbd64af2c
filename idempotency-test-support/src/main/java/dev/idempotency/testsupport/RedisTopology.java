package dev.idempotency.testsupport;

import java.time.Duration;
import java.util.Map;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * One way of deploying Redis that a client must work against: a standalone server (plain, TLS or with a restricted ACL
 * user), a cluster, or a master with a replica behind Sentinels. Contract suites run once per topology, e.g. as a
 * JUnit {@code @ParameterizedClass} over {@link Topologies}.
 *
 * <p>Every topology gives connection factories (the same for a Spring app through {@link #springProperties()}) and
 * the command counts of its data nodes. Shared topologies are never flushed, so tests use random key prefixes.
 */
public interface RedisTopology {

    /** A short name for test names and log lines, e.g. {@code standalone}, {@code tls} or {@code sentinel}. */
    String name();

    /** A started connection factory with a 2 s command timeout; destroyed when the topology closes. */
    default LettuceConnectionFactory newConnectionFactory() {
        return newConnectionFactory(RedisServer.DEFAULT_COMMAND_TIMEOUT);
    }

    /**
     * A started Lettuce connection factory with the given command (and connect) timeout, configured the way an
     * application would connect: TLS trusting the test CA, the restricted ACL user, cluster or Sentinel discovery.
     */
    LettuceConnectionFactory newConnectionFactory(Duration commandTimeout);

    /**
     * The {@code spring.data.redis.*} (and, for TLS, {@code spring.ssl.bundle.*}) properties with which a Spring Boot
     * application connects to this topology as {@link #newConnectionFactory(Duration)} does; in a stable order.
     */
    Map<String, String> springProperties();

    /** Calls per command on the data nodes since start or {@link #resetStats()}, from {@code INFO commandstats}. */
    Map<String, Long> commandStats();

    /** Calls of one command on the data nodes, e.g. {@code commandCalls("evalsha")}; 0 if it never ran. */
    default long commandCalls(String command) {
        return commandStats().getOrDefault(command, 0L);
    }

    /** {@code CONFIG RESETSTAT} on every data node. */
    void resetStats();
}
