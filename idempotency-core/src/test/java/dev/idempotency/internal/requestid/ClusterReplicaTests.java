package dev.idempotency.internal.requestid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.Scheduling;
import dev.idempotency.internal.lease.LeaseRenewer;
import dev.idempotency.internal.lock.LeaseLocks;
import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.internal.redis.ReplicaConfirmations;
import dev.idempotency.internal.token.RedisTokenStore;
import dev.idempotency.internal.token.TokenStrategy;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.lock.LeaseLockManager;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.Dedicated;
import dev.idempotency.testsupport.RealRedis;
import dev.idempotency.testsupport.RedisCluster;
import dev.idempotency.testsupport.RedisInfo;
import dev.idempotency.testsupport.RedisServer;
import dev.idempotency.token.TokenExecutor;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * wait-for-replicas on Redis Cluster: a claim or a lock is confirmed only by the replicas of the master that holds its
 * key, whatever the other connections did before and while its slot migrates, and a shard whose replicas lag holds
 * up only its own keys.
 */
@RealRedis
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterReplicaTests {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration WAIT = Duration.ofMillis(300);
    private final RedisKeys keys = new RedisKeys("cluster-replicas:" + UUID.randomUUID() + ":");
    private final Scheduling scheduling = new Scheduling();

    @AfterAll
    void close() {
        scheduling.close();
    }

    @Test
    void frozenReplicasConfirmNoClaimNoLockAndNoTokenEvenAfterEarlierConfirmedWrites(
            @Dedicated(clusterReplicas = 1) RedisCluster cluster) {
        LettuceConnectionFactory factory = cluster.newConnectionFactory();
        RedisGateway redis = new RedisGateway(factory, StoreListener.NONE);
        ReplicaConfirmations confirmations = new ReplicaConfirmations(redis, 1, WAIT, scheduling);
        RedisRequestIdStore store =
                new RedisRequestIdStore(redis, confirmations, RedisRequestIdStore.ClaimCommand.AUTO);
        LeaseLockManager locks = LeaseLocks.inRedis(
                redis, keys, new LeaseRenewer(scheduling, StoreListener.NONE), scheduling, confirmations);
        TokenExecutor tokens = new TokenStrategy(new RedisTokenStore(redis, confirmations), keys);
        String token = tokens.issue("user-1", "submit", LEASE).token();
        for (int i = 0; i < 20; i++) { // every master's connections have made confirmed writes
            assertThat(confirmedClaim(store, keys.requestId("", "op", "warm" + i)))
                    .isInstanceOf(ClaimOutcome.Acquired.class);
        }
        List<RedisServer> replicas = cluster.replicas();
        replicas.forEach(RedisServer::pause);
        try {
            for (int i = 0; i < 10; i++) {
                String key = keys.requestId("", "op", "frozen" + i);
                assertThatThrownBy(() -> claim(store, key))
                        .as("claim %s while every replica is frozen", key)
                        .isInstanceOf(IdempotencyStoreUnavailableException.class)
                        .hasMessageContaining("0 of 1 required replicas");
            }
            assertThatThrownBy(() -> locks.acquire("sku-1", LEASE, Duration.ZERO))
                    .isInstanceOf(IdempotencyStoreUnavailableException.class)
                    .hasMessageContaining("The lock reached 0 of 1 required replicas");
            assertThatThrownBy(() -> tokens.execute("user-1", "submit", token, () -> "charged"))
                    .isInstanceOf(IdempotencyStoreUnavailableException.class)
                    .hasMessageContaining("The token's use reached 0 of 1 required replicas");
        } finally {
            replicas.forEach(RedisServer::resume);
        }
        assertThat(confirmedClaim(store, keys.requestId("", "op", "frozen0")))
                .as("the unconfirmed claim was released")
                .isInstanceOf(ClaimOutcome.Acquired.class);
        confirmed(() -> locks.acquire("sku-1", LEASE, Duration.ZERO)).close(); // the unconfirmed lock was released
        assertThat(confirmed(() -> tokens.execute("user-1", "submit", token, () -> "charged")))
                .as("the token whose use was not confirmed was given back")
                .isEqualTo("charged");
        confirmations.close();
    }

    @Test
    void aShardWhoseReplicaIsFrozenHoldsUpOnlyItsOwnKeys(@Dedicated(clusterReplicas = 1) RedisCluster cluster) {
        LettuceConnectionFactory factory = cluster.newConnectionFactory();
        RedisGateway redis = new RedisGateway(factory, StoreListener.NONE);
        ReplicaConfirmations confirmations = new ReplicaConfirmations(redis, 1, Duration.ofSeconds(10), scheduling);
        RedisRequestIdStore store =
                new RedisRequestIdStore(redis, confirmations, RedisRequestIdStore.ClaimCommand.AUTO);
        RedisServer lagging = cluster.replicas().get(0);
        int laggingMaster = Integer.parseInt(RedisInfo.field(info(admin(lagging), "replication"), "master_port"));
        RedisGateway master = admin(cluster.masters().stream()
                .filter(node -> node.port() == laggingMaster)
                .findFirst()
                .orElseThrow());
        RedisClusterClient client = (RedisClusterClient) factory.getRequiredNativeClient();
        lagging.pause();
        List<CompletableFuture<ClaimOutcome>> heldUp = new ArrayList<>();
        try {
            for (int i = 0; heldUp.size() < 20; i++) {
                String key = keys.requestId("", "op", "slow" + i);
                if (ownerPort(client, key) == laggingMaster) {
                    heldUp.add(store.claim(key, RequestRecord.NO_FINGERPRINT, LEASE));
                }
            }
            Await.until(
                    Duration.ofSeconds(10),
                    "16 WAITs block on the lagging shard's master",
                    () -> Long.parseLong(RedisInfo.field(info(master, "clients"), "blocked_clients")) >= 16);
            int healthy = 0;
            for (int i = 0; healthy < 10; i++) {
                String key = keys.requestId("", "op", "fast" + i);
                if (ownerPort(client, key) != laggingMaster) {
                    assertThat(claim(store, key))
                            .as("a claim on a healthy shard while another shard lags")
                            .isInstanceOf(ClaimOutcome.Acquired.class);
                    healthy++;
                }
            }
            assertThat(heldUp).noneMatch(CompletableFuture::isDone);
        } finally {
            lagging.resume();
        }
        heldUp.forEach(claim -> assertThat(Futures.join(claim)).isInstanceOf(ClaimOutcome.Acquired.class));
        confirmations.close();
    }

    /**
     * A slot moves from master A to master B mid-traffic ({@code CLUSTER SETSLOT ... IMPORTING/MIGRATING},
     * {@code MIGRATE}, {@code SETSLOT ... NODE}). While it moves, a new key is written on B (A answers {@code ASK}) and
     * only B's replica can confirm it: with B's replica frozen it is refused although A's replica is healthy, and with
     * A's replica frozen it is confirmed by B's. Once the slot is B's, the stale view meets {@code MOVED} and the same
     * holds.
     */
    @Test
    void confirmationsComeFromTheNodeThatHoldsTheKeyWhileItsSlotMigrates(
            @Dedicated(clusterReplicas = 1) RedisCluster cluster) {
        LettuceConnectionFactory factory = cluster.newConnectionFactory();
        RedisGateway redis = new RedisGateway(factory, StoreListener.NONE);
        ReplicaConfirmations confirmations = new ReplicaConfirmations(redis, 1, WAIT, scheduling);
        RedisRequestIdStore store =
                new RedisRequestIdStore(redis, confirmations, RedisRequestIdStore.ClaimCommand.AUTO);
        RedisClusterClient client = (RedisClusterClient) factory.getRequiredNativeClient();
        List<String> inSlot = keysOfOneSlot(client, 6);
        int slot = SlotHash.getSlot(inSlot.get(0).getBytes(StandardCharsets.UTF_8));
        RedisServer source = masterOn(cluster, ownerPort(client, inSlot.get(0)));
        RedisServer target = cluster.masters().stream()
                .filter(node -> !node.equals(source))
                .findFirst()
                .orElseThrow();
        RedisGateway sourceAdmin = admin(source);
        RedisGateway targetAdmin = admin(target);
        String sourceId = Futures.join(sourceAdmin.call("myid", commands -> commands.clusterMyId()));
        String targetId = Futures.join(targetAdmin.call("myid", commands -> commands.clusterMyId()));
        assertThat(confirmedClaim(store, inSlot.get(0))).isInstanceOf(ClaimOutcome.Acquired.class); // on A for now

        Futures.join(targetAdmin.call("importing", commands -> commands.clusterSetSlotImporting(slot, sourceId)));
        Futures.join(sourceAdmin.call("migrating", commands -> commands.clusterSetSlotMigrating(slot, targetId)));
        paused(
                replicaOf(cluster, source),
                () -> assertThat(claim(store, inSlot.get(1)))
                        .as("a new key while the slot migrates, confirmed by the importing node's replica")
                        .isInstanceOf(ClaimOutcome.Acquired.class));
        assertThat(keysIn(targetAdmin, slot)).contains(inSlot.get(1));
        paused(
                replicaOf(cluster, target),
                () -> assertThatThrownBy(() -> claim(store, inSlot.get(2)))
                        .as("a new key while the slot migrates, with the importing node's replica frozen")
                        .isInstanceOf(IdempotencyStoreUnavailableException.class)
                        .hasMessageContaining("0 of 1 required replicas"));
        assertThat(claim(store, inSlot.get(0)))
                .as("a key still on the migrating node is answered there")
                .isInstanceOf(ClaimOutcome.InProgress.class);

        List<byte[]> left = keysIn(sourceAdmin, slot).stream()
                .map(key -> key.getBytes(StandardCharsets.UTF_8))
                .toList();
        Futures.join(sourceAdmin.call(
                "migrate",
                commands -> commands.migrate(
                        target.host(), target.port(), 0, 5_000, io.lettuce.core.MigrateArgs.Builder.keys(left))));
        for (RedisGateway node : List.of(targetAdmin, sourceAdmin)) {
            Futures.join(node.call("node", commands -> commands.clusterSetSlotNode(slot, targetId)));
        }
        paused(
                replicaOf(cluster, target),
                () -> assertThatThrownBy(() -> claim(store, inSlot.get(3)))
                        .as("a new key once the slot moved, with its new owner's replica frozen")
                        .isInstanceOf(IdempotencyStoreUnavailableException.class));
        paused(
                replicaOf(cluster, source),
                () -> assertThat(claim(store, inSlot.get(4)))
                        .as("a new key once the slot moved, confirmed by its new owner's replica")
                        .isInstanceOf(ClaimOutcome.Acquired.class));
        assertThat(claim(store, inSlot.get(0)))
                .as("the migrated claim is still in progress on its new owner")
                .isInstanceOf(ClaimOutcome.InProgress.class);
        assertThat(keysIn(targetAdmin, slot)).contains(inSlot.get(0), inSlot.get(4));
        confirmations.close();
    }

    /** {@code count} record keys that hash to one slot. */
    private List<String> keysOfOneSlot(RedisClusterClient client, int count) {
        String first = keys.requestId("", "op", "slot-0");
        int slot = SlotHash.getSlot(first.getBytes(StandardCharsets.UTF_8));
        List<String> found = new ArrayList<>(List.of(first));
        for (int i = 1; found.size() < count; i++) {
            String key = keys.requestId("", "op", "slot-" + i);
            if (SlotHash.getSlot(key.getBytes(StandardCharsets.UTF_8)) == slot) {
                found.add(key);
            }
        }
        return found;
    }

    private static RedisServer masterOn(RedisCluster cluster, int port) {
        return cluster.masters().stream()
                .filter(node -> node.port() == port)
                .findFirst()
                .orElseThrow();
    }

    private static RedisServer replicaOf(RedisCluster cluster, RedisServer master) {
        return cluster.replicas().stream()
                .filter(replica -> RedisInfo.field(info(admin(replica), "replication"), "master_port")
                        .equals(Integer.toString(master.port())))
                .findFirst()
                .orElseThrow();
    }

    private static List<String> keysIn(RedisGateway node, int slot) {
        return Futures.join(node.call("keys", commands -> commands.clusterGetKeysInSlot(slot, 100))).stream()
                .map(key -> new String(key, StandardCharsets.UTF_8))
                .toList();
    }

    /** Runs {@code check} while {@code replica} is frozen (SIGSTOP), then lets it go on. */
    private static void paused(RedisServer replica, Runnable check) {
        replica.pause();
        try {
            check.run();
        } finally {
            replica.resume();
        }
    }

    /**
     * A claim that replicas should confirm, retried while it is refused as unconfirmed: on a loaded machine a replica
     * may miss the short {@code WAIT} timeout now and then (the unconfirmed claim is released, so the retry is fresh).
     */
    private static ClaimOutcome confirmedClaim(RedisRequestIdStore store, String key) {
        return confirmed(() -> claim(store, key));
    }

    private static <T> T confirmed(java.util.function.Supplier<T> write) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            try {
                return write.get();
            } catch (IdempotencyStoreUnavailableException ex) {
                if (System.nanoTime() - deadline > 0) {
                    throw ex;
                }
            }
        }
    }

    private static ClaimOutcome claim(RedisRequestIdStore store, String key) {
        return Futures.join(store.claim(key, RequestRecord.NO_FINGERPRINT, LEASE));
    }

    private static int ownerPort(RedisClusterClient client, String key) {
        return client.getPartitions()
                .getPartitionBySlot(SlotHash.getSlot(key.getBytes(StandardCharsets.UTF_8)))
                .getUri()
                .getPort();
    }

    private static RedisGateway admin(RedisServer node) {
        return new RedisGateway(node.newConnectionFactory(), StoreListener.NONE);
    }

    private static String info(RedisGateway node, String section) {
        return Futures.join(node.call("info", commands -> commands.info(section)));
    }
}
