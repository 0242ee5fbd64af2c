package dev.idempotency.reliability;

import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RedisInfo;
import dev.idempotency.testsupport.RedisServer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A master and its replica whose roles swap at every failover, for the promise checker: the application reaches the
 * master through a {@link FaultProxy} that follows it across a failover, and the replica reaches it through the
 * master's raw link proxy, whose replication stream a fault can hold back ({@link #cut()}), so that the promoted
 * replica lacks every write the master acknowledged since ({@link #failOver()}).
 */
public final class FailoverPair implements AutoCloseable {

    private static final Duration LINK_TIMEOUT = Duration.ofSeconds(10);

    private final FaultProxy app;
    private final String prefix;
    private Node master;
    private Node replica;
    private Set<String> lostAtLastFailover = Set.of();

    private FailoverPair(String prefix, Node master, Node replica) {
        this.prefix = prefix;
        this.master = master;
        this.replica = replica;
        this.app = FaultProxy.start(master.server.host(), master.server.port());
    }

    /**
     * Two fresh servers, the second replicating the first, and the application's proxy to the first; a failover
     * compares the keys under {@code prefix}.
     */
    public static FailoverPair start(String prefix) {
        FailoverPair pair = new FailoverPair(
                prefix,
                new Node(RedisServer.builder().start()),
                new Node(RedisServer.builder().start()));
        pair.attachReplica();
        return pair;
    }

    /** The port the application connects to: always the current master's. */
    public int port() {
        return app.port();
    }

    /** The current master, as the harness reads it (never through the application's proxy). */
    public LettuceConnectionFactory master() {
        return master.factory;
    }

    /** The current replica's process (to freeze it with SIGSTOP). */
    public RedisServer replica() {
        return replica.server;
    }

    /** Holds back the replication stream: the replica gets none of the master's writes from now on. */
    public synchronized void cut() {
        lostAtLastFailover = Set.of();
        master.link.holdReplies(true);
    }

    /**
     * The keys under the pair's prefix that the last failover lost or changed: those whose value on the old master
     * (with every write it acknowledged to the application) differs from the promoted replica's.
     */
    public synchronized Set<String> lostAtLastFailover() {
        return lostAtLastFailover;
    }

    /**
     * Promotes the replica, as Sentinel or an operator would, with what it had at the cut: the application's
     * connections are closed and go to it from now on; the old master becomes its replica and drops what was not
     * replicated (acknowledged writes lost, unless {@code wait-for-replicas} confirmed them).
     */
    public synchronized void failOver() {
        app.pause(); // from here on no reply reaches the application: what it saw acknowledged is on the old master
        replica.admin.call(commands -> commands.replicaofNoOne());
        awaitOrFail(() -> "master".equals(RedisInfo.field(replica.admin.info("replication"), "role")), "promoted");
        lostAtLastFailover = differences(master, replica);
        app.retarget(replica.server.host(), replica.server.port());
        app.pass();
        Node promoted = replica;
        replica = master;
        master = promoted;
        replica.link.resetConnections(); // the stream held back goes nowhere
        replica.link.holdReplies(false);
        attachReplica();
    }

    private Set<String> differences(Node old, Node promoted) {
        Set<String> keys = new TreeSet<>();
        keys.addAll(old.admin.<List<String>>call(commands -> commands.keys(prefix + "*")));
        keys.addAll(promoted.admin.<List<String>>call(commands -> commands.keys(prefix + "*")));
        Set<String> lost = new TreeSet<>();
        for (String key : keys) {
            byte[] before = old.admin.call(commands -> commands.dump(key));
            byte[] after = promoted.admin.call(commands -> commands.dump(key));
            if (!Arrays.equals(before, after)) {
                lost.add(key);
            }
        }
        return Set.copyOf(lost);
    }

    private void attachReplica() {
        replica.admin.call(commands -> commands.replicaof("127.0.0.1", master.link.port()));
        awaitOrFail(() -> replica.admin.isOnlineReplicaOf(master.admin), "linked up");
    }

    private void awaitOrFail(java.util.function.BooleanSupplier condition, String what) {
        if (!Race.await(LINK_TIMEOUT, 2, condition)) {
            throw new IllegalStateException("The replica was not " + what + " within " + LINK_TIMEOUT + ": "
                    + replica.admin.info("replication"));
        }
    }

    @Override
    public void close() {
        app.close();
        master.close();
        replica.close();
    }

    /** One server, its raw link proxy (its replica connects through it) and the harness's connections to it. */
    private static final class Node implements AutoCloseable {

        final RedisServer server;
        final FaultProxy link;
        final RedisAdmin admin;
        final LettuceConnectionFactory factory;

        Node(RedisServer server) {
            this.server = server;
            this.link = FaultProxy.startRaw(server.host(), server.port());
            this.admin = new RedisAdmin(server.host(), server.port());
            this.factory = server.newConnectionFactory();
        }

        @Override
        public void close() {
            factory.destroy();
            admin.close();
            link.close();
            server.close();
        }
    }
}
