package dev.idempotency.testsupport;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A master, one replica and three Sentinels (quorum 2) watching them, all {@code redis-server} processes on
 * 127.0.0.1, for clients that find the master through Sentinel. Needs the {@link RedisProvider#PROCESS process}
 * provider. Closing it destroys its connection factories and every process.
 *
 * <p>Sentinels declare a silent master down after 3 s, so killing the master leads to an automatic failover within
 * seconds too.
 */
public final class RedisSentinel implements RedisTopology, AutoCloseable {

    private static final String MASTER_NAME = "harness-master";
    private static final int SENTINELS = 3;
    private static final int QUORUM = 2;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(30);
    // Not 1 s: Sentinel pings every second and reconnects at most once a second, so right after a failover its first
    // PING to the new master can take over a second to be answered; with 1 s it then declares the new master down,
    // counts the other Sentinels' "down" votes left over from the failover, and fails over again.
    private static final long DOWN_AFTER_MILLIS = 3_000;
    private static final long FAILOVER_TIMEOUT_MILLIS = 5_000;

    private final RedisServer first;
    private final RedisServer second;
    private final List<RedisServer> sentinels;
    private final ConnectionFactories factories = new ConnectionFactories();
    private volatile boolean shared;

    private RedisSentinel(RedisServer first, RedisServer second, List<RedisServer> sentinels) {
        this.first = first;
        this.second = second;
        this.sentinels = List.copyOf(sentinels);
    }

    /**
     * Starts the master, the replica (waiting for its link), then the Sentinels, and waits until every Sentinel
     * reports the master {@code ok} with one replica and three Sentinels.
     */
    public static RedisSentinel start() {
        Launcher.requireProcessProvider("RedisSentinel");
        List<RedisServer> started = new ArrayList<>();
        try {
            RedisServer master = Launcher.process(port -> List.of(), false);
            started.add(master);
            RedisServer replica = Launcher.process(
                    port -> List.of("--replicaof", master.host(), Integer.toString(master.port())), false);
            started.add(replica);
            // Started after the replica is linked, so the Sentinels' first INFO of the master already lists it.
            awaitLinkedTo(replica, master, READY_TIMEOUT);
            List<RedisServer> sentinels = new ArrayList<>();
            for (int i = 0; i < SENTINELS; i++) {
                RedisServer sentinel = Launcher.sentinel(port -> config(master));
                started.add(sentinel);
                sentinels.add(sentinel);
                speedUp(sentinel);
            }
            RedisSentinel topology = new RedisSentinel(master, replica, sentinels);
            topology.awaitSentinelsAgree(master, READY_TIMEOUT);
            topology.awaitSentinelsTrust(replica, master, READY_TIMEOUT);
            Launcher.announce(
                    RedisProvider.PROCESS,
                    master.version(),
                    "sentinel: master at " + master.address() + ", replica at " + replica.address() + ", sentinels at "
                            + topology.sentinelAddresses());
            return topology;
        } catch (RuntimeException e) {
            started.forEach(RedisServer::close);
            throw e;
        }
    }

    private static String config(RedisServer master) {
        return String.join(
                "\n",
                "sentinel monitor " + MASTER_NAME + " " + master.host() + " " + master.port() + " " + QUORUM,
                "sentinel down-after-milliseconds " + MASTER_NAME + " " + DOWN_AFTER_MILLIS,
                "sentinel failover-timeout " + MASTER_NAME + " " + FAILOVER_TIMEOUT_MILLIS,
                "sentinel parallel-syncs " + MASTER_NAME + " 1",
                "");
    }

    /**
     * Sentinel polls a replica's INFO every 10 s and turns a demoted master into a replica four hello periods (8 s)
     * after it noticed, so a failover takes some 12 s. Redis 7 has SENTINEL DEBUG, meant for tests, to shorten those
     * periods (and the 30 s TILT pause after a stalled timer, which a loaded test machine can cause). The hello period
     * stays at 1 s: a Sentinel that sees a replica report role master before it has heard of the failover waits four
     * of them before it "corrects" the promoted node back into a replica, which would abort the failover. Older
     * Sentinels lack the command and keep their defaults, which the bounded waits allow for; a restarted Sentinel
     * forgets them too.
     */
    private static void speedUp(RedisServer sentinel) {
        try {
            sentinel.admin()
                    .sentinel(commands -> commands.dispatch(
                            CommandType.SENTINEL,
                            new StatusOutput<>(StringCodec.UTF8),
                            new CommandArgs<>(StringCodec.UTF8)
                                    .add("DEBUG")
                                    .add("info-period")
                                    .add(1_000)
                                    .add("publish-period")
                                    .add(1_000)
                                    .add("tilt-period")
                                    .add(5_000)));
        } catch (RedisCommandExecutionException e) {
            // Not a Redis 7 Sentinel: default timing.
        }
    }

    /** The name the Sentinels monitor the master by ({@code spring.data.redis.sentinel.master}). */
    public String masterName() {
        return MASTER_NAME;
    }

    /** The data node the Sentinels name as master right now; changes with {@link #failover()}. */
    public RedisServer master() {
        String address = masterAddress();
        if (first.address().equals(address)) {
            return first;
        }
        if (second.address().equals(address)) {
            return second;
        }
        throw new IllegalStateException("The Sentinels name " + address + " as master, which is neither "
                + first.address() + " nor " + second.address());
    }

    /** The data node that is not {@link #master()}. */
    public RedisServer replica() {
        return master() == first ? second : first;
    }

    /**
     * The three Sentinel processes. PING, INFO and the fault operations ({@link RedisServer#kill()}, ...) work on them;
     * data commands and connection factories do not, since a Sentinel holds no data.
     */
    public List<RedisServer> sentinels() {
        return sentinels;
    }

    /** {@code sentinel}. */
    @Override
    public String name() {
        return "sentinel";
    }

    /**
     * A planned failover: waits until the replica has caught up with the master (so writes made before the call
     * survive, as with a manual Cluster failover; {@code SENTINEL FAILOVER} alone promotes the replica as it is), sends
     * {@code SENTINEL FAILOVER}, then waits until every Sentinel names the former replica as master ({@code SENTINEL
     * GET-MASTER-ADDR-BY-NAME}), it reports {@code role:master}, the former master reports it replicates the new one
     * with {@code master_link_status:up}, and every Sentinel has seen the former master as that healthy replica, so
     * the next failover can follow at once. Sentinel kills the clients of both nodes when it reconfigures them, so
     * connections through Sentinel then find the new master. A failover that Sentinel aborts is requested again.
     */
    public void failover() {
        requireDedicated("failover()");
        RedisServer oldMaster = master();
        RedisServer promoted = replica();
        awaitLinkedTo(promoted, oldMaster, FAILOVER_TIMEOUT);
        long written = Long.parseLong(RedisInfo.field(oldMaster.admin().info("replication"), "master_repl_offset"));
        Await.until(
                FAILOVER_TIMEOUT,
                "replica " + promoted.address() + " to catch up with offset " + written + " of " + oldMaster.address(),
                () -> reachable(
                        () -> Long.parseLong(RedisInfo.field(promoted.admin().info("replication"), "slave_repl_offset"))
                                >= written),
                () -> replication(promoted));
        // A Sentinel with a stale view of the replica would turn it back into one when it reports role master.
        awaitSentinelsTrust(promoted, oldMaster, FAILOVER_TIMEOUT);

        FailoverRequests requests = new FailoverRequests();
        Await.until(
                FAILOVER_TIMEOUT,
                "a Sentinel to accept SENTINEL FAILOVER " + MASTER_NAME,
                requests::send,
                () -> requests + "\n" + sentinelView());
        Await.until(
                FAILOVER_TIMEOUT,
                "all Sentinels to name " + promoted.address() + " as master, it to report role:master and "
                        + oldMaster.address() + " to replicate it with the link up",
                () -> reachable(() -> {
                    if (sentinelsAgreeOn(promoted) && promoted.admin().isMaster() && linkedTo(oldMaster, promoted)) {
                        return true;
                    }
                    if (aborted(oldMaster)) {
                        requests.sendAgainAfterAbort();
                    }
                    return false;
                }),
                () -> requests + "\n" + sentinelView() + "\n" + oldMaster.address() + " INFO replication:\n"
                        + replication(oldMaster) + "\n" + promoted.address() + " INFO replication:\n"
                        + replication(promoted));
        awaitSentinelsTrust(oldMaster, promoted, FAILOVER_TIMEOUT);
    }

    /** Sends SENTINEL FAILOVER and remembers every refusal and retry for the timeout message. */
    private final class FailoverRequests {

        private static final long RETRY_MILLIS = 1_000;

        private final Set<String> refusals = new LinkedHashSet<>();
        private int aborted;
        private long lastSent;

        /**
         * Right after a previous failover a Sentinel may still be finishing (INPROG) or not yet trust the replica
         * (NOGOODSLAVE); both pass shortly, so a refusal means "try again".
         */
        boolean send() {
            try {
                lastSent = System.nanoTime();
                sentinels.get(0).admin().sentinel(commands -> commands.failover(MASTER_NAME));
                return true;
            } catch (RedisCommandExecutionException e) {
                refusals.add(e.getMessage());
                return false;
            }
        }

        void sendAgainAfterAbort() {
            if (System.nanoTime() - lastSent > TimeUnit.MILLISECONDS.toNanos(RETRY_MILLIS)) {
                aborted++;
                send();
            }
        }

        @Override
        public String toString() {
            return "SENTINEL FAILOVER refusals: " + refusals + ", requested again after an abort: " + aborted;
        }
    }

    /** Every Sentinel still names {@code oldMaster} and none is failing over: Sentinel gave the failover up. */
    private boolean aborted(RedisServer oldMaster) {
        return sentinels.stream()
                .allMatch(sentinel -> oldMaster.address().equals(masterAddressFrom(sentinel))
                        && !sentinel.admin()
                                .sentinel(commands -> commands.master(MASTER_NAME))
                                .getOrDefault("flags", "")
                                .contains("failover_in_progress"));
    }

    /**
     * Waits until every Sentinel lists {@code replica} as a replica of {@code master} that it can fail over to: last
     * seen reporting role slave, link to the master ok, not down or disconnected ({@code SENTINEL REPLICAS}).
     */
    private void awaitSentinelsTrust(RedisServer replica, RedisServer master, Duration timeout) {
        for (RedisServer sentinel : sentinels) {
            Await.until(
                    timeout,
                    "Sentinel " + sentinel.address() + " to see " + replica.address() + " as a healthy replica of "
                            + master.address(),
                    () -> reachable(() -> trusts(sentinel, replica, master)),
                    () -> "SENTINEL REPLICAS: " + describe(() -> replicasSeenBy(sentinel)) + "\n" + sentinelView());
        }
    }

    private static boolean trusts(RedisServer sentinel, RedisServer replica, RedisServer master) {
        return replicasSeenBy(sentinel).stream()
                .filter(entry -> replica.address().equals(entry.get("ip") + ":" + entry.get("port")))
                .anyMatch(entry -> {
                    List<String> flags = List.of(entry.getOrDefault("flags", "").split(","));
                    return flags.contains("slave")
                            && !flags.contains("s_down")
                            && !flags.contains("o_down")
                            && !flags.contains("disconnected")
                            && "slave".equals(entry.get("role-reported"))
                            && "ok".equals(entry.get("master-link-status"))
                            && Integer.toString(master.port()).equals(entry.get("master-port"));
                });
    }

    /** For timeout messages, which must not fail themselves. */
    private static String describe(Supplier<?> answer) {
        try {
            return String.valueOf(answer.get());
        } catch (RuntimeException e) {
            return "(failed: " + e + ")";
        }
    }

    private static List<Map<String, String>> replicasSeenBy(RedisServer sentinel) {
        return sentinel.admin().sentinel(commands -> commands.replicas(MASTER_NAME));
    }

    /** A started connection factory that finds the master through the Sentinels, with the given command timeout. */
    @Override
    public LettuceConnectionFactory newConnectionFactory(Duration commandTimeout) {
        return factories.sentinel(MASTER_NAME, sentinelAddresses(), commandTimeout);
    }

    /** {@code spring.data.redis.sentinel.master} and {@code spring.data.redis.sentinel.nodes} (all three). */
    @Override
    public Map<String, String> springProperties() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("spring.data.redis.sentinel.master", MASTER_NAME);
        properties.put("spring.data.redis.sentinel.nodes", String.join(",", sentinelAddresses()));
        return Collections.unmodifiableMap(properties);
    }

    /**
     * {@link RedisServer#commandStats()} of the current {@link #master()}, which serves every client command. The
     * replica is left out: it executes each replicated write again, which would count every write twice.
     */
    @Override
    public Map<String, Long> commandStats() {
        return master().commandStats();
    }

    /** {@code CONFIG RESETSTAT} on the master and the replica. */
    @Override
    public void resetStats() {
        first.resetStats();
        second.resetStats();
    }

    @Override
    public void close() {
        try {
            factories.destroyAll();
        } finally {
            // Sentinels first, so they do not start a failover while the data nodes go down.
            sentinels.forEach(RedisServer::close);
            second.close();
            first.close();
        }
    }

    @Override
    public String toString() {
        return "RedisSentinel[" + MASTER_NAME + ": " + first.address() + ", " + second.address() + "; sentinels "
                + sentinelAddresses() + "]";
    }

    RedisSentinel markShared() {
        shared = true;
        first.markShared();
        second.markShared();
        sentinels.forEach(RedisServer::markShared);
        return this;
    }

    private List<String> sentinelAddresses() {
        return sentinels.stream().map(RedisServer::address).collect(Collectors.toList());
    }

    /** The master address from the first Sentinel that answers. */
    private String masterAddress() {
        List<String> failures = new ArrayList<>();
        for (RedisServer sentinel : sentinels) {
            try {
                return masterAddressFrom(sentinel);
            } catch (RuntimeException e) {
                failures.add(sentinel.address() + ": " + e.getMessage());
            }
        }
        throw new IllegalStateException("No Sentinel names a master for " + MASTER_NAME + ": " + failures);
    }

    private static String masterAddressFrom(RedisServer sentinel) {
        SocketAddress address = sentinel.admin().sentinel(commands -> commands.getMasterAddrByName(MASTER_NAME));
        if (!(address instanceof InetSocketAddress)) {
            throw new IllegalStateException(sentinel.address() + " does not know " + MASTER_NAME + ": " + address);
        }
        InetSocketAddress inet = (InetSocketAddress) address;
        return inet.getHostString() + ":" + inet.getPort();
    }

    private boolean sentinelsAgreeOn(RedisServer master) {
        return sentinels.stream().allMatch(sentinel -> master.address().equals(masterAddressFrom(sentinel)));
    }

    /**
     * Every Sentinel reports the master {@code ok} with one replica and all three Sentinels, from {@code INFO
     * sentinel}: {@code master0:name=...,status=ok,address=host:port,slaves=1,sentinels=3}.
     */
    private void awaitSentinelsAgree(RedisServer master, Duration timeout) {
        String expected = "status=ok,address=" + master.address() + ",slaves=1,sentinels=" + SENTINELS;
        for (RedisServer sentinel : sentinels) {
            Await.until(
                    timeout,
                    "Sentinel " + sentinel.address() + " to report " + expected,
                    () -> RedisInfo.field(sentinel.admin().info("sentinel"), "master0")
                            .endsWith(expected),
                    () -> sentinelView() + "\n" + sentinel.diagnostics());
        }
    }

    private static void awaitLinkedTo(RedisServer replica, RedisServer master, Duration timeout) {
        Await.until(
                timeout,
                "replica " + replica.address() + " to report master_link_status:up to " + master.address(),
                () -> reachable(() -> linkedTo(replica, master)),
                () -> replication(replica) + "\n" + replica.diagnostics());
    }

    /**
     * Evaluates a condition that asks the data nodes; a failed call counts as "not yet". Sentinel reconfigures a node
     * with REPLICAOF plus CLIENT KILL, which also cuts the harness's own connection, and a killed node is expected to
     * be unreachable for a while; the caller's bounded wait still ends with the state of every node.
     */
    private static boolean reachable(BooleanSupplier condition) {
        try {
            return condition.getAsBoolean();
        } catch (RedisException e) {
            return false;
        }
    }

    private static boolean linkedTo(RedisServer replica, RedisServer master) {
        String replication = replica.admin().info("replication");
        return "slave".equals(RedisInfo.field(replication, "role"))
                && Integer.toString(master.port()).equals(RedisInfo.field(replication, "master_port"))
                && "up".equals(RedisInfo.field(replication, "master_link_status"));
    }

    private static String replication(RedisServer node) {
        try {
            return node.admin().info("replication").trim();
        } catch (RuntimeException e) {
            return "(INFO failed: " + e + ")\n" + node.diagnostics();
        }
    }

    /** What each Sentinel says, with the tail of its log, for timeout messages. */
    private String sentinelView() {
        StringBuilder view = new StringBuilder();
        for (RedisServer sentinel : sentinels) {
            view.append("Sentinel ").append(sentinel.address()).append(": ");
            try {
                view.append(RedisInfo.field(sentinel.admin().info("sentinel"), "master0"));
            } catch (RuntimeException e) {
                view.append("(INFO failed: ").append(e).append(")");
            }
            view.append("\n").append(sentinel.diagnostics()).append("\n");
        }
        return view.toString();
    }

    private void requireDedicated(String operation) {
        if (shared) {
            throw new IllegalStateException(operation + " on the shared Sentinel topology would break other tests; "
                    + "start a RedisSentinel of your own");
        }
    }
}
