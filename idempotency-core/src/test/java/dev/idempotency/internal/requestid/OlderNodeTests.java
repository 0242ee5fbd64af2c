package dev.idempotency.internal.requestid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.TokenAlreadyUsedException;
import dev.idempotency.internal.Scheduling;
import dev.idempotency.internal.lease.LeaseRenewer;
import dev.idempotency.internal.lock.LeaseLocks;
import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.internal.token.RedisTokenStore;
import dev.idempotency.internal.token.TokenStrategy;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.lock.LeaseLockManager;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.testsupport.RedisCluster;
import dev.idempotency.testsupport.RedisProvider;
import dev.idempotency.testsupport.RedisServer;
import dev.idempotency.token.TokenExecutor;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A node that runs Redis 6.2 while the store writes claims with {@code SET NX GET} (Redis 7), as one node of a cluster
 * in the middle of a rolling upgrade does after the version probe found 7: claims go on by script, never 503. And a
 * whole cluster caught midway, one master on 6.2 and two on 7: every strategy works on every node.
 */
class OlderNodeTests {

    private static final Duration LEASE = Duration.ofSeconds(30);

    @Test
    void aNodeWithoutSetNxGetIsClaimedByScript() {
        try (RedisServer older = RedisServer.start(RedisProvider.EMBEDDED)) {
            assertThat(older.version()).startsWith("6.2");
            RedisRequestIdStore store = new RedisRequestIdStore(
                    new RedisGateway(older.newConnectionFactory(), StoreListener.NONE),
                    null,
                    RedisRequestIdStore.ClaimCommand.SET_NX_GET);
            assertThat(claim(store, "older:k1")).isInstanceOf(ClaimOutcome.Acquired.class);
            assertThat(claim(store, "older:k1")).isInstanceOf(ClaimOutcome.InProgress.class);
            assertThat(claim(store, "older:k2")).isInstanceOf(ClaimOutcome.Acquired.class);
        }
    }

    @Test
    void aClusterOfRedis62And7MastersServesClaimsLocksAndTokensOnEveryNode() {
        try (RedisCluster cluster = RedisCluster.startMixedVersions();
                Scheduling scheduling = new Scheduling()) {
            assertThat(cluster.masters())
                    .extracting(RedisServer::version)
                    .anyMatch(version -> version.startsWith("6.2"))
                    .anyMatch(version -> version.startsWith("7."));
            LettuceConnectionFactory factory = cluster.newConnectionFactory();
            RedisGateway redis = new RedisGateway(factory, StoreListener.NONE);
            RedisClusterClient client = (RedisClusterClient) factory.getRequiredNativeClient();
            RedisKeys keys = new RedisKeys("mixed:");
            RedisRequestIdStore store = new RedisRequestIdStore(redis, null, RedisRequestIdStore.ClaimCommand.AUTO);
            LeaseLockManager locks =
                    LeaseLocks.inRedis(redis, keys, new LeaseRenewer(scheduling, StoreListener.NONE), scheduling, null);
            TokenExecutor tokens = new TokenStrategy(new RedisTokenStore(redis, null), keys);

            Map<Integer, Integer> claims = new TreeMap<>();
            Map<Integer, Integer> locked = new TreeMap<>();
            for (int i = 0; !servedByEveryMaster(claims) || !servedByEveryMaster(locked); i++) {
                String key = keys.requestId("", "op", "key-" + i);
                if (claims.merge(ownerPort(client, key), 1, Integer::sum) <= 5) {
                    assertThat(claim(store, key)).as("claim %s", key).isInstanceOf(ClaimOutcome.Acquired.class);
                    assertThat(claim(store, key)).isInstanceOf(ClaimOutcome.InProgress.class);
                }
                String resource = "sku-" + i;
                if (locked.merge(ownerPort(client, keys.lock(resource)), 1, Integer::sum) <= 5) {
                    locks.acquire(resource, LEASE, Duration.ZERO).close();
                    locks.acquire(resource, LEASE, Duration.ZERO).close(); // released, so free again
                }
            }
            for (int i = 0; i < 30; i++) {
                String token = tokens.issue("user", "submit", LEASE).token();
                tokens.consume("user", "submit", token);
                assertThatThrownBy(() -> tokens.consume("user", "submit", token))
                        .isInstanceOf(TokenAlreadyUsedException.class);
            }
            factory.destroy();
        }
    }

    /** Whether each of the three masters (by port) was counted at least five times. */
    private static boolean servedByEveryMaster(Map<Integer, Integer> byPort) {
        return byPort.size() == 3 && byPort.values().stream().allMatch(count -> count >= 5);
    }

    private static int ownerPort(RedisClusterClient client, String key) {
        return client.getPartitions()
                .getPartitionBySlot(SlotHash.getSlot(key.getBytes(StandardCharsets.UTF_8)))
                .getUri()
                .getPort();
    }

    private static ClaimOutcome claim(RedisRequestIdStore store, String key) {
        return Futures.join(store.claim(key, RequestRecord.NO_FINGERPRINT, LEASE));
    }
}
