package dev.idempotency.requestid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.Scheduling;
import dev.idempotency.internal.lease.LeaseRenewer;
import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.internal.redis.ReplicaConfirmations;
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
 * wait-for-replicas on Redis Cluster: a claim or a lock is confirmed only by the replicas of the master that owns its
 * key, whatever the other connections did before, and a shard whose replicas lag holds up only its own keys.
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
        RequestIdStore store = new RequestIdStore(redis, confirmations, RequestIdStore.ClaimCommand.AUTO);
        LeaseLockManager locks = new LeaseLockManager(
                redis, keys, new LeaseRenewer(scheduling, StoreListener.NONE), scheduling, confirmations);
        TokenExecutor tokens = new TokenExecutor(redis, keys, confirmations);
        String token = tokens.issue("user-1", "submit", LEASE).token();
        for (int i = 0; i < 20; i++) { // every master's connections have made confirmed writes
            assertThat(claim(store, keys.requestId("", "op", "warm" + i))).isInstanceOf(ClaimOutcome.Acquired.class);
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
        assertThat(claim(store, keys.requestId("", "op", "frozen0")))
                .as("the unconfirmed claim was released")
                .isInstanceOf(ClaimOutcome.Acquired.class);
        locks.acquire("sku-1", LEASE, Duration.ZERO).close(); // the unconfirmed lock was released
        assertThat(tokens.execute("user-1", "submit", token, () -> "charged"))
                .as("the token whose use was not confirmed was given back")
                .isEqualTo("charged");
        confirmations.close();
    }

    @Test
    void aShardWhoseReplicaIsFrozenHoldsUpOnlyItsOwnKeys(@Dedicated(clusterReplicas = 1) RedisCluster cluster) {
        LettuceConnectionFactory factory = cluster.newConnectionFactory();
        RedisGateway redis = new RedisGateway(factory, StoreListener.NONE);
        ReplicaConfirmations confirmations = new ReplicaConfirmations(redis, 1, Duration.ofSeconds(10), scheduling);
        RequestIdStore store = new RequestIdStore(redis, confirmations, RequestIdStore.ClaimCommand.AUTO);
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

    private static ClaimOutcome claim(RequestIdStore store, String key) {
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
