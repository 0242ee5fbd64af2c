package dev.idempotency.testsupport;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The Redis deployments every contract suite runs against, each started once per JVM on first use and closed when the
 * JVM exits. Use them as a JUnit parameter source:
 *
 * <pre>{@code
 * @ParameterizedClass
 * @EnumSource(Topologies.class)
 * class LockContractTests {
 *     @Parameter
 *     Topologies topology;
 *
 *     @Test
 *     void ... { ... topology.newConnectionFactory() ... }
 * }
 * }</pre>
 *
 * <p>The topologies are shared by every test in the JVM and never flushed: use random key prefixes under
 * {@code idempotency:} (the only keys the {@link #ACL} user may touch). Fault operations on them are refused; start a
 * topology of your own ({@link RedisServer#builder()}, {@link RedisCluster#start(int)}, {@link RedisSentinel#start()})
 * to kill or fail over. All but {@link #STANDALONE} need the {@link RedisProvider#PROCESS process} provider.
 */
public enum Topologies implements RedisTopology {
    /** A plain standalone server from the configured provider. */
    STANDALONE,
    /** Three masters without replicas. */
    CLUSTER,
    /** A master and a replica behind three Sentinels; clients find the master through the Sentinels. */
    SENTINEL,
    /** A standalone server that accepts only TLS, with a certificate signed by a CA generated at start. */
    TLS,
    /** A standalone server where clients log in as {@link #ACL_USERNAME} restricted by {@link #ACL_RULES}. */
    ACL;

    /** The restricted user of the {@link #ACL} topology. */
    public static final String ACL_USERNAME = "idempotency";

    /** The password of {@link #ACL_USERNAME}; also in {@link #ACL_RULES}. */
    public static final String ACL_PASSWORD = "idempotency-secret";

    /**
     * The least a Redis user needs to run the library with the default key prefix {@code idempotency:}; the
     * documentation mirrors this string. Keys and Pub/Sub channels under {@code idempotency:} only; the commands the
     * library sends (scripts included) plus the ones Lettuce and Spring send when connecting and for health checks.
     *
     * <p>{@code +client|setinfo} is left out: it makes Redis before 7.2 refuse the whole user ("Unknown command or
     * category name in ACL"), and Lettuce carries on when Redis 7.2+ refuses its {@code CLIENT SETINFO}.
     */
    public static final String ACL_RULES = "on >" + ACL_PASSWORD + " resetkeys ~idempotency:* resetchannels"
            + " &idempotency:* -@all +get +set +del +incr +pexpire +pttl +eval +evalsha +script|load +info +wait +publish"
            + " +subscribe +unsubscribe +ping +hello +client|setname +time";

    private @Nullable RedisTopology started;
    private @Nullable RuntimeException startFailure;

    /**
     * The running topology, started on first use. A topology that failed to start fails every later call at once,
     * with the original failure as the cause, instead of trying again for every test.
     */
    public synchronized RedisTopology topology() {
        if (started != null) {
            return started;
        }
        if (startFailure != null) {
            throw new IllegalStateException(
                    "The " + this + " Redis topology failed to start earlier in this JVM", startFailure);
        }
        try {
            started = start();
            return started;
        } catch (RuntimeException e) {
            startFailure = e;
            throw e;
        }
    }

    private RedisTopology start() {
        switch (this) {
            case STANDALONE:
                return Shutdown.closeAtExit(RedisServer.start().markShared());
            case CLUSTER:
                return Shutdown.closeAtExit(RedisCluster.start().markShared());
            case SENTINEL:
                return Shutdown.closeAtExit(RedisSentinel.start().markShared());
            case TLS:
                return Shutdown.closeAtExit(RedisServer.builder().tls().start().markShared());
            case ACL:
                return Shutdown.closeAtExit(RedisServer.builder()
                        .aclUser(ACL_USERNAME, ACL_PASSWORD, ACL_RULES)
                        .start()
                        .markShared());
            default:
                throw new IllegalStateException("Unknown topology " + this);
        }
    }

    @Override
    public LettuceConnectionFactory newConnectionFactory() {
        return topology().newConnectionFactory();
    }

    @Override
    public LettuceConnectionFactory newConnectionFactory(Duration commandTimeout) {
        return topology().newConnectionFactory(commandTimeout);
    }

    @Override
    public Map<String, String> springProperties() {
        return topology().springProperties();
    }

    @Override
    public Map<String, Long> commandStats() {
        return topology().commandStats();
    }

    @Override
    public long commandCalls(String command) {
        return topology().commandCalls(command);
    }

    @Override
    public void resetStats() {
        topology().resetStats();
    }

    /** The lower-case name, e.g. {@code tls}, so parameterized test names read {@code [4] tls}. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Closes the started topologies when the JVM exits, as the root store does for {@link RedisExtension}. */
    private static final class Shutdown {

        private static final List<Runnable> CLOSERS = new CopyOnWriteArrayList<>();

        static {
            Runtime.getRuntime().addShutdownHook(new Thread(Shutdown::closeAll, "redis-harness-topologies"));
        }

        private Shutdown() {}

        static RedisServer closeAtExit(RedisServer server) {
            CLOSERS.add(server::close);
            return server;
        }

        static RedisCluster closeAtExit(RedisCluster cluster) {
            CLOSERS.add(cluster::close);
            return cluster;
        }

        static RedisSentinel closeAtExit(RedisSentinel sentinel) {
            CLOSERS.add(sentinel::close);
            return sentinel;
        }

        private static void closeAll() {
            for (Runnable closer : CLOSERS) {
                try {
                    closer.run();
                } catch (RuntimeException e) {
                    // The JVM is going away; ChildProcesses' own hook kills whatever is left.
                }
            }
        }
    }
}
