package dev.idempotency.internal.requestid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.Scheduling;
import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.internal.redis.ReplicaConfirmations;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.testsupport.Dedicated;
import dev.idempotency.testsupport.RealRedis;
import dev.idempotency.testsupport.RedisCluster;
import dev.idempotency.testsupport.RedisReplicaPair;
import dev.idempotency.testsupport.RedisSentinel;
import dev.idempotency.testsupport.RedisServer;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/** With wait-for-replicas, a claim runs only once a replica has it; an unconfirmed claim is released and refused. */
@RealRedis
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReplicaAcknowledgementTests {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private final RedisKeys keys = new RedisKeys("replicas:" + UUID.randomUUID() + ":");
    private final Scheduling scheduling = new Scheduling();

    @AfterAll
    void close() {
        scheduling.close();
    }

    private RedisRequestIdStore store(RedisConnectionFactory connectionFactory, int replicas, Duration timeout) {
        RedisGateway redis = new RedisGateway(connectionFactory, StoreListener.NONE);
        ReplicaConfirmations confirmations =
                replicas == 0 ? null : new ReplicaConfirmations(redis, replicas, timeout, scheduling);
        return new RedisRequestIdStore(redis, confirmations, RedisRequestIdStore.ClaimCommand.AUTO);
    }

    private static ClaimOutcome claim(RedisRequestIdStore store, String key) {
        return Futures.join(store.claim(key, RequestRecord.NO_FINGERPRINT, LEASE));
    }

    @Test
    void claimConfirmedByTheReplicaIsAcquired(RedisReplicaPair pair) {
        RedisRequestIdStore store = store(pair.master().newConnectionFactory(), 1, Duration.ofSeconds(2));
        String key = keys.requestId("", "op", "k");
        assertThat(claim(store, key)).isInstanceOf(ClaimOutcome.Acquired.class);
        RedisGateway replica = new RedisGateway(pair.replica().newConnectionFactory(), StoreListener.NONE);
        Long onReplica = Futures.join(replica.call("test", commands -> commands.exists(RedisGateway.bytes(key))));
        assertThat(onReplica).as("the replica has the claim").isEqualTo(1L);
    }

    @Test
    void completionReachesTheReplicaBeforeItReturns(RedisReplicaPair pair) {
        RedisRequestIdStore store = store(pair.master().newConnectionFactory(), 1, Duration.ofSeconds(2));
        String key = keys.requestId("", "op", "done");
        Claim claim = ((ClaimOutcome.Acquired) claim(store, key)).claim();
        assertThat(Futures.join(store.complete(claim, new byte[] {'r'}, Duration.ofMinutes(1))))
                .isTrue();
        pair.promoteReplica(); // a failover right after the response
        RedisRequestIdStore promoted = store(pair.replica().newConnectionFactory(), 0, Duration.ZERO);
        assertThat(claim(promoted, key)).isInstanceOf(ClaimOutcome.Replay.class);
    }

    @Test
    void inAClusterTheWaitReachesTheMasterOwningTheKey(@Dedicated(clusterReplicas = 1) RedisCluster cluster) {
        RedisRequestIdStore store = store(cluster.newConnectionFactory(), 1, Duration.ofSeconds(2));
        for (int i = 0; i < 20; i++) { // keys spread over the three masters
            assertThat(claim(store, keys.requestId("", "op", "k" + i))).isInstanceOf(ClaimOutcome.Acquired.class);
        }
    }

    @Test
    void behindSentinelAClaimWhileTheReplicaIsFrozenIsRefused(RedisSentinel sentinel) {
        RedisRequestIdStore store = store(sentinel.newConnectionFactory(), 1, Duration.ofMillis(300));
        assertThat(claim(store, keys.requestId("", "op", "warm"))).isInstanceOf(ClaimOutcome.Acquired.class);
        String key = keys.requestId("", "op", "frozen");
        sentinel.replica().pause();
        try {
            assertThatThrownBy(() -> claim(store, key))
                    .isInstanceOf(IdempotencyStoreUnavailableException.class)
                    .hasMessageContaining("0 of 1 required replicas");
        } finally {
            sentinel.replica().resume();
        }
        assertThat(claim(store, key))
                .as("the unconfirmed claim was released")
                .isInstanceOf(ClaimOutcome.Acquired.class);
    }

    @Test
    void claimWithoutEnoughReplicasIsReleasedAndRefused(RedisServer standalone) {
        RedisRequestIdStore store = store(standalone.newConnectionFactory(), 1, Duration.ofMillis(50));
        String key = keys.requestId("", "op", "k");
        assertThatThrownBy(() -> claim(store, key))
                .isInstanceOf(IdempotencyStoreUnavailableException.class)
                .hasMessageContaining("0 of 1 required replicas");
        assertThat(claim(store(standalone.newConnectionFactory(), 0, Duration.ZERO), key))
                .as("the unconfirmed claim was released")
                .isInstanceOf(ClaimOutcome.Acquired.class);
    }
}
