package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.requestid.RequestIdCall;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.testsupport.Dedicated;
import dev.idempotency.testsupport.RedisCluster;
import dev.idempotency.testsupport.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Scenario 9e: what Redis {@code WAIT} confirms on a Cluster whose every replica is frozen, after each master's
 * connections made confirmed writes (so a {@code WAIT} on another connection than the write's would find an old offset
 * acknowledged and confirm a write no replica has).
 */
@ReliabilityTest
class ClusterReplicaWaitTests {

    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final int CALLS = 10;
    private static final int WARM_CALLS = 30;

    @Test
    @Scenario(
            id = "9e",
            title = "Cluster (3 masters, 1 replica each), wait-for-replicas = 1 (timeout 300 ms): confirmed traffic on"
                    + " every shard, then every replica frozen (SIGSTOP), then 10 new claims, 10 locks and 10 token"
                    + " submits",
            expected = "no write is confirmed by a replica that cannot have it: all 30 answered 503 and undone,"
                    + " executions 0; after resume each key runs once")
    void frozenReplicasConfirmNothing(@Dedicated(clusterReplicas = 1) RedisCluster cluster) {
        ReliabilityReport.redisVersion(cluster.nodes().get(0).version());
        String prefix = "frozen-replicas:" + UUID.randomUUID() + ":";
        try (CoreStack app = CoreStack.on(cluster.newConnectionFactory(), prefix, 1, Duration.ofMillis(300))) {
            AtomicInteger runs = new AtomicInteger();
            Map<String, Integer> warm = new TreeMap<>();
            for (int i = 0; i < WARM_CALLS; i++) { // enough keys to reach every master
                warm.merge(order(app, "warm-" + i, runs, true), 1, Integer::sum);
            }
            List<String> tokens = java.util.stream.IntStream.range(0, CALLS)
                    .mapToObj(i -> app.tokens
                            .issue("user-" + i, "submit", Duration.ofMinutes(5))
                            .token())
                    .toList();
            int runsBefore = runs.get();
            Map<String, Integer> frozen = new TreeMap<>();
            List<RedisServer> replicas = cluster.replicas();
            replicas.forEach(RedisServer::pause);
            try {
                for (int i = 0; i < CALLS; i++) {
                    frozen.merge("claim " + order(app, "new-" + i, runs, false), 1, Integer::sum);
                    String sku = "sku-" + i;
                    frozen.merge(
                            "lock "
                                    + CallOutcome.of(() -> app.locks.callLocked(sku, LEASE, Duration.ZERO, () -> {
                                        runs.incrementAndGet();
                                        return "reserved";
                                    })),
                            1,
                            Integer::sum);
                    String token = tokens.get(i);
                    int user = i;
                    frozen.merge(
                            "token "
                                    + CallOutcome.of(() -> app.tokens.execute("user-" + user, "submit", token, () -> {
                                        runs.incrementAndGet();
                                        return "submitted";
                                    })),
                            1,
                            Integer::sum);
                }
            } finally {
                replicas.forEach(RedisServer::resume);
            }
            int ranWhileFrozen = runs.get() - runsBefore;
            Map<String, Integer> resumed = new TreeMap<>();
            for (int i = 0; i < CALLS; i++) {
                resumed.merge("claim " + order(app, "new-" + i, runs, true), 1, Integer::sum);
                int user = i;
                resumed.merge(
                        "token "
                                + CallOutcome.confirmed(() ->
                                        app.tokens.execute("user-" + user, "submit", tokens.get(user), () -> "ok")),
                        1,
                        Integer::sum);
            }
            ReliabilityReport.measured(
                    "9e",
                    "warm-up on every shard: " + warm + "; every replica frozen: " + frozen + ", executions "
                            + ranWhileFrozen + "; after resume, the same keys and tokens: " + resumed);
            assertThat(warm).containsOnlyKeys("ok");
            assertThat(frozen)
                    .as("DEFECT if any ok: a write no replica had was confirmed")
                    .containsOnlyKeys("claim 503", "lock 503", "token 503");
            assertThat(ranWhileFrozen).isZero();
            assertThat(resumed).as("unconfirmed writes were undone").containsOnlyKeys("claim ok", "token ok");
        }
    }

    /** @param confirmed whether the claim should be confirmed, so that a 503 under load is retried */
    private static String order(CoreStack app, String key, AtomicInteger runs, boolean confirmed) {
        Supplier<String> call = () -> app.executor.execute(
                new RequestIdCall(
                        app.keys.requestId("", "orders", key), null, Duration.ofHours(1), LEASE, Duration.ZERO),
                () -> "run-" + runs.incrementAndGet(),
                ResultCodec.utf8());
        return confirmed ? CallOutcome.confirmed(call) : CallOutcome.of(call);
    }
}
