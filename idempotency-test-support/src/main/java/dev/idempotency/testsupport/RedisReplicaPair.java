package dev.idempotency.testsupport;

import java.time.Duration;
import java.util.List;

/**
 * A master and one replica ({@code --replicaof}), both {@code redis-server} processes, for failover
 * tests. Needs the {@link RedisProvider#PROCESS process} provider; every pair is the caller's own.
 */
public final class RedisReplicaPair implements AutoCloseable {

    private static final Duration LINK_TIMEOUT = Duration.ofSeconds(10);

    private final RedisServer master;
    private final RedisServer replica;

    private RedisReplicaPair(RedisServer master, RedisServer replica) {
        this.master = master;
        this.replica = replica;
    }

    /** Starts both servers and waits until the replica reports {@code master_link_status:up}. */
    public static RedisReplicaPair start() {
        Launcher.requireProcessProvider("RedisReplicaPair");
        RedisServer master = Launcher.process(port -> List.of(), false);
        RedisServer replica = null;
        try {
            replica = Launcher.process(
                    port -> List.of("--replicaof", master.host(), Integer.toString(master.port())), false);
            RedisReplicaPair pair = new RedisReplicaPair(master, replica);
            pair.awaitLinkUp();
            Launcher.announce(
                    RedisProvider.PROCESS,
                    master.version(),
                    "replica pair: master at " + master.address() + ", replica at " + replica.address());
            return pair;
        } catch (RuntimeException e) {
            if (replica != null) {
                replica.close();
            }
            master.close();
            throw e;
        }
    }

    /** The server that was started as master. */
    public RedisServer master() {
        return master;
    }

    /** The server that was started with {@code --replicaof} the master. */
    public RedisServer replica() {
        return replica;
    }

    /** {@code REPLICAOF NO ONE} on the replica, then waits until it reports {@code role:master}. */
    public void promoteReplica() {
        replica.admin().call(commands -> commands.replicaofNoOne());
        Await.until(LINK_TIMEOUT, "replica " + replica.address() + " to become a master", replica.admin()::isMaster);
    }

    @Override
    public void close() {
        try {
            replica.close();
        } finally {
            master.close();
        }
    }

    @Override
    public String toString() {
        return "RedisReplicaPair[master=" + master.address() + ", replica=" + replica.address() + "]";
    }

    private void awaitLinkUp() {
        Await.until(
                LINK_TIMEOUT,
                "replica " + replica.address() + " to report master_link_status:up",
                () -> "up".equals(RedisInfo.field(replica.admin().info("replication"), "master_link_status")));
    }
}
