package dev.idempotency.requestid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.support.RedisGateway;
import dev.idempotency.testsupport.Dedicated;
import dev.idempotency.testsupport.RealRedis;
import dev.idempotency.testsupport.RedisCluster;
import dev.idempotency.testsupport.RedisReplicaPair;
import dev.idempotency.testsupport.RedisServer;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** With wait-for-replicas, a claim runs only once a replica has it; an unconfirmed claim is released and refused. */
@RealRedis
class ReplicaAcknowledgementTests {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private final RedisKeys keys = new RedisKeys("replicas:" + UUID.randomUUID() + ":");

    @Test
    void claimConfirmedByTheReplicaIsAcquired(RedisReplicaPair pair) {
        RedisGateway redis = new RedisGateway(pair.master().newConnectionFactory());
        RequestIdStore store = new RequestIdStore(redis, 1, Duration.ofSeconds(2));
        String key = keys.requestId("", "op", "k");
        assertThat(store.claim(key, null, LEASE)).isInstanceOf(ClaimOutcome.Acquired.class);
        Boolean onReplica = new RedisGateway(pair.replica().newConnectionFactory())
                .command("test", connection -> connection.keyCommands().exists(RedisGateway.key(key)));
        assertThat(onReplica).isTrue();
    }

    @Test
    void completionReachesTheReplicaBeforeItReturns(RedisReplicaPair pair) {
        RedisGateway redis = new RedisGateway(pair.master().newConnectionFactory());
        RequestIdStore store = new RequestIdStore(redis, 1, Duration.ofSeconds(2));
        String key = keys.requestId("", "op", "done");
        Claim claim = ((ClaimOutcome.Acquired) store.claim(key, null, LEASE)).claim();
        assertThat(store.complete(claim, new byte[] {'r'}, Duration.ofMinutes(1)))
                .isTrue();
        pair.promoteReplica(); // a failover right after the response
        RequestIdStore promoted =
                new RequestIdStore(new RedisGateway(pair.replica().newConnectionFactory()));
        assertThat(promoted.claim(key, null, LEASE)).isInstanceOf(ClaimOutcome.Replay.class);
    }

    @Test
    void inAClusterTheWaitReachesTheMasterOwningTheKey(@Dedicated(clusterReplicas = 1) RedisCluster cluster) {
        RequestIdStore store =
                new RequestIdStore(new RedisGateway(cluster.newConnectionFactory()), 1, Duration.ofSeconds(2));
        for (int i = 0; i < 20; i++) { // keys spread over the three masters
            assertThat(store.claim(keys.requestId("", "op", "k" + i), null, LEASE))
                    .isInstanceOf(ClaimOutcome.Acquired.class);
        }
    }

    @Test
    void claimWithoutEnoughReplicasIsReleasedAndRefused(RedisServer standalone) {
        RedisGateway redis = new RedisGateway(standalone.newConnectionFactory());
        RequestIdStore store = new RequestIdStore(redis, 1, Duration.ofMillis(50));
        String key = keys.requestId("", "op", "k");
        assertThatThrownBy(() -> store.claim(key, null, LEASE))
                .isInstanceOf(IdempotencyStoreUnavailableException.class)
                .hasMessageContaining("0 of 1 required replicas");
        assertThat(new RequestIdStore(redis).claim(key, null, LEASE))
                .as("the unconfirmed claim was released")
                .isInstanceOf(ClaimOutcome.Acquired.class);
    }
}
