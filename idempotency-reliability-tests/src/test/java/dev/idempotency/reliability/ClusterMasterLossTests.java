package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.requestid.RequestIdCall;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.Dedicated;
import dev.idempotency.testsupport.RedisCluster;
import dev.idempotency.testsupport.RedisServer;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Scenarios 9f and 9g: a Cluster master killed (SIGKILL) right after claims, locks and token submits on its keys, with
 * wait-for-replicas = 1. When its replica had them (they were confirmed), the replica is elected and no work runs a
 * second time; when its replica was frozen and did not have them, none was confirmed, so no work ran, and after the
 * failover each runs once. The killed master is restarted (it rejoins as the new master's replica) before the work
 * ends, so that completions can be confirmed again.
 */
@ReliabilityTest
class ClusterMasterLossTests {

    private static final int PER_KIND = 10;
    private static final Duration LEASE = Duration.ofSeconds(30); // longer than the failover, so leases live through it
    private static final Duration WAIT_TIMEOUT = Duration.ofMillis(300);
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @Test
    @Scenario(
            id = "9f",
            title = "Cluster (3 masters, 1 replica each), wait-for-replicas = 1: 10 claims, 10 locks and 10 token"
                    + " submits on one master's keys confirmed and their work running, then that master killed"
                    + " (SIGKILL) and its replica elected; the killed master restarted as its replica",
            expected = "no second execution: retries during the work get 409 (in progress, lock busy, token used),"
                    + " after it the replay or 409 token used; executions 30")
    void confirmedWritesSurviveTheirMaster(@Dedicated(clusterReplicas = 1) RedisCluster cluster) throws Exception {
        ReliabilityReport.redisVersion(cluster.nodes().get(0).version());
        RedisServer master = cluster.masters().get(0);
        RedisServer replica = cluster.replicaOf(master);
        try (CoreStack app = stack(cluster);
                Keys keys = Keys.on(app, master)) {
            AtomicInteger runs = new AtomicInteger();
            CountDownLatch started = new CountDownLatch(3 * PER_KIND);
            CountDownLatch release = new CountDownLatch(1);
            Supplier<String> work = () -> {
                runs.incrementAndGet();
                started.countDown();
                Await.latch(release, "release");
                return "done";
            };
            List<CompletableFuture<String>> first = keys.callAll(app, work);
            assertThat(started.await(DEADLINE.toSeconds(), TimeUnit.SECONDS))
                    .as("all 30 confirmed and running")
                    .isTrue();

            master.kill();
            cluster.awaitTakeover(master, replica);
            master.restart(); // rejoins as the new master's replica, so that writes can be confirmed again
            cluster.awaitHealthy();
            Map<String, Integer> during = keys.outcomes(app, () -> "again", true);
            release.countDown();
            Map<String, Integer> firstOutcomes = collect(first);
            Map<String, Integer> after = keys.outcomes(app, () -> "again", true);
            int executions = runs.get();
            ReliabilityReport.measured(
                    "9f",
                    "master " + master.port() + " killed with 30 confirmed writes whose work was running; replica "
                            + replica.port() + " elected; retries during the work: " + during
                            + "; the first calls ended: " + firstOutcomes + "; retries after: " + after
                            + "; executions " + executions);
            keys.close();
            assertThat(during)
                    .as("DEFECT if ok: a confirmed write was lost with its master, and its work ran again")
                    .containsOnlyKeys("claim 409 in progress", "lock 409 busy", "token 409 used");
            assertThat(firstOutcomes).containsOnlyKeys("claim ok", "lock ok", "token ok");
            assertThat(after)
                    .as("the replay, a free lock, a used token")
                    .containsOnlyKeys("claim ok", "lock ok", "token 409 used");
            assertThat(executions).as("executions").isEqualTo(3 * PER_KIND);
        }
    }

    @Test
    @Scenario(
            id = "9g",
            title = "Cluster (3 masters, 1 replica each), wait-for-replicas = 1: one master's replica frozen"
                    + " (SIGSTOP), 10 claims, 10 locks and 10 token submits on that master's keys, then the master"
                    + " killed and the replica resumed and elected",
            expected = "none was confirmed, so no work ran (all 503, undone); after the failover each runs once:"
                    + " executions 30")
    void unconfirmedWritesRanNothing(@Dedicated(clusterReplicas = 1) RedisCluster cluster) throws Exception {
        ReliabilityReport.redisVersion(cluster.nodes().get(0).version());
        RedisServer master = cluster.masters().get(0);
        RedisServer replica = cluster.replicaOf(master);
        try (CoreStack app = stack(cluster);
                Keys keys = Keys.on(app, master)) {
            AtomicInteger runs = new AtomicInteger();
            Supplier<String> work = () -> {
                runs.incrementAndGet();
                return "done";
            };
            Map<String, Integer> frozen;
            replica.pause();
            try {
                frozen = keys.outcomes(app, work, false);
            } finally {
                master.kill();
                replica.resume();
            }
            int ranWhileFrozen = runs.get();
            cluster.awaitTakeover(master, replica);
            master.restart();
            cluster.awaitHealthy();
            Map<String, Integer> after = keys.outcomes(app, work, true);
            ReliabilityReport.measured(
                    "9g",
                    "replica " + replica.port() + " frozen: " + frozen + ", executions " + ranWhileFrozen
                            + "; master " + master.port() + " killed, replica resumed and elected; the same calls: "
                            + after + "; executions " + runs.get());
            keys.close();
            assertThat(frozen)
                    .as("DEFECT if ok: a write its replica never had was confirmed")
                    .containsOnlyKeys("claim 503", "lock 503", "token 503");
            assertThat(ranWhileFrozen).isZero();
            assertThat(after).containsOnlyKeys("claim ok", "lock ok", "token ok");
            assertThat(runs.get()).isEqualTo(3 * PER_KIND);
        }
    }

    private static CoreStack stack(RedisCluster cluster) {
        return CoreStack.on(cluster.newConnectionFactory(), "master-loss:" + UUID.randomUUID() + ":", 1, WAIT_TIMEOUT);
    }

    /** The outcomes of calls, counted. */
    private static Map<String, Integer> collect(List<CompletableFuture<String>> calls) {
        Map<String, Integer> outcomes = new TreeMap<>();
        calls.forEach(call -> outcomes.merge(call.join(), 1, Integer::sum));
        return outcomes;
    }

    /** Record keys, lock resources and tokens whose keys live on one master, and calls of each. */
    private record Keys(List<String> orders, List<String> skus, List<String> tokens, ExecutorService pool)
            implements AutoCloseable {

        static Keys on(CoreStack app, RedisServer master) {
            RedisClusterClient client =
                    (RedisClusterClient) ((LettuceConnectionFactory) app.factory).getRequiredNativeClient();
            Function<String, Boolean> onMaster = key -> client.getPartitions()
                            .getPartitionBySlot(SlotHash.getSlot(key.getBytes(StandardCharsets.UTF_8)))
                            .getUri()
                            .getPort()
                    == master.port();
            List<String> orders = new ArrayList<>();
            List<String> skus = new ArrayList<>();
            List<String> tokens = new ArrayList<>();
            for (int i = 0; orders.size() < PER_KIND || skus.size() < PER_KIND; i++) {
                String order = app.keys.requestId("", "orders", "order-" + i);
                if (orders.size() < PER_KIND && onMaster.apply(order)) {
                    orders.add(order);
                }
                if (skus.size() < PER_KIND && onMaster.apply(app.keys.lock("sku-" + i))) {
                    skus.add("sku-" + i);
                }
            }
            while (tokens.size() < PER_KIND) {
                String token = app.tokens
                        .issue("user", "submit", Duration.ofMinutes(5))
                        .token();
                if (onMaster.apply(app.keys.token("user", "submit", token))) {
                    tokens.add(token);
                }
            }
            Keys keys = new Keys(orders, skus, tokens, Executors.newFixedThreadPool(3 * PER_KIND));
            // A confirmed write after the issues: the master's replica has the tokens before anything is frozen.
            for (int i = 0; ; i++) {
                String warm = app.keys.requestId("", "warm-up", "warm-" + i);
                if (onMaster.apply(warm)) {
                    String warmed = CallOutcome.confirmed(() -> order(app, warm, () -> "warm"));
                    if (!warmed.equals("ok")) {
                        throw new IllegalStateException("No confirmed write on " + master.port() + ": " + warmed);
                    }
                    return keys;
                }
            }
        }

        /** Every call at once, on threads of its own; each future has the call's outcome. */
        List<CompletableFuture<String>> callAll(CoreStack app, Supplier<String> work) {
            List<CompletableFuture<String>> calls = new ArrayList<>();
            for (int i = 0; i < PER_KIND; i++) {
                String order = orders.get(i);
                String sku = skus.get(i);
                String token = tokens.get(i);
                calls.add(CompletableFuture.supplyAsync(
                        () -> "claim " + CallOutcome.confirmed(() -> order(app, order, work)), pool));
                calls.add(CompletableFuture.supplyAsync(
                        () -> "lock "
                                + CallOutcome.confirmed(
                                        () -> app.locks.callLocked(sku, LEASE, Duration.ZERO, work::get)),
                        pool));
                calls.add(CompletableFuture.supplyAsync(
                        () -> "token "
                                + CallOutcome.confirmed(() -> app.tokens.execute("user", "submit", token, work::get)),
                        pool));
            }
            return calls;
        }

        /**
         * Every call, one after the other; outcomes counted.
         *
         * @param confirmed whether the calls should be confirmed, so that a 503 under load is retried
         */
        Map<String, Integer> outcomes(CoreStack app, Supplier<String> work, boolean confirmed) {
            Function<Supplier<?>, String> outcome = confirmed ? CallOutcome::confirmed : CallOutcome::of;
            Map<String, Integer> outcomes = new TreeMap<>();
            for (int i = 0; i < PER_KIND; i++) {
                String order = orders.get(i);
                String sku = skus.get(i);
                String token = tokens.get(i);
                outcomes.merge("claim " + outcome.apply(() -> order(app, order, work)), 1, Integer::sum);
                outcomes.merge(
                        "lock " + outcome.apply(() -> app.locks.callLocked(sku, LEASE, Duration.ZERO, work::get)),
                        1,
                        Integer::sum);
                outcomes.merge(
                        "token " + outcome.apply(() -> app.tokens.execute("user", "submit", token, work::get)),
                        1,
                        Integer::sum);
            }
            return outcomes;
        }

        private static String order(CoreStack app, String recordKey, Supplier<String> work) {
            return app.executor.execute(
                    new RequestIdCall(recordKey, null, Duration.ofHours(1), LEASE, Duration.ZERO),
                    work::get,
                    ResultCodec.utf8());
        }

        @Override
        public void close() {
            pool.shutdownNow();
        }
    }
}
