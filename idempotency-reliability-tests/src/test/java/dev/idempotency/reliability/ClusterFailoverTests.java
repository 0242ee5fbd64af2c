package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.LockBusyException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.requestid.RequestIdCall;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.testsupport.Dedicated;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RedisCluster;
import dev.idempotency.testsupport.RedisServer;
import dev.idempotency.token.IssuedToken;
import io.lettuce.core.cluster.SlotHash;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Scenario 9: a Redis Cluster of three masters with a replica each (one cluster for the class; 9d starts its own with
 * two replicas each). One shard fails over (CLUSTER FAILOVER) under load from two instances running all three
 * strategies with wait-for-replicas; the other tests check what WAIT really confirms in a cluster, including right
 * after a failover with Spring Boot's default Lettuce settings (no topology refresh).
 */
@ReliabilityTest
class ClusterFailoverTests {

    private static final int THREADS = 6;
    private static final Duration LEASE = Duration.ofSeconds(2);

    private static RedisCluster cluster;

    @BeforeAll
    static void startCluster(@Dedicated(clusterReplicas = 1) RedisCluster dedicated) {
        cluster = dedicated;
        ReliabilityReport.redisVersion(cluster.nodes().get(0).version());
    }

    @Test
    @Scenario(
            id = "9b",
            title = "Cluster, wait-for-replicas = 1 (timeout 200 ms): the replica of the key's shard paused (SIGSTOP)",
            expected = "WAIT runs on the connection that wrote the claim: the unconfirmed claim is released and"
                    + " answered 503; with the replica running the same claim is confirmed")
    void claimUnconfirmedByTheShardsReplicaIsRefused() {
        String prefix = "cluster-wait:" + UUID.randomUUID() + ":";
        try (CoreStack app = CoreStack.on(cluster.newConnectionFactory(), prefix, 1, Duration.ofMillis(200))) {
            String recordKey = app.keys.requestId("", "op", "paused-replica");
            RedisServer replica = replicaServing(recordKey);
            AtomicInteger runs = new AtomicInteger();
            String warm = CallOutcome.confirmed(() -> execute(app, "warm-up", new ConcurrentHashMap<>()));
            String paused;
            boolean leftBehind;
            replica.pause();
            try {
                paused = call(() -> app.executor.execute(
                        new RequestIdCall(recordKey, null, Duration.ofHours(1), LEASE, Duration.ZERO),
                        () -> "run-" + runs.incrementAndGet(),
                        ResultCodec.utf8()));
                leftBehind = app.exists(recordKey);
            } finally {
                replica.resume();
            }
            String resumed = CallOutcome.confirmed(() -> app.executor.execute(
                    new RequestIdCall(recordKey, null, Duration.ofHours(1), LEASE, Duration.ZERO),
                    () -> "run-" + runs.incrementAndGet(),
                    ResultCodec.utf8()));
            ReliabilityReport.measured(
                    "9b",
                    "replica running (warm-up): " + warm + "; replica paused: " + paused + ", claim left in Redis: "
                            + leftBehind + ", executions " + (resumed.equals("ok") ? runs.get() - 1 : runs.get())
                            + "; after resume: " + resumed + "; executions " + runs.get());
            assertThat(warm).isEqualTo("ok");
            assertThat(paused)
                    .as("DEFECT if ok: a claim the shard's replica never acknowledged was confirmed")
                    .startsWith("503");
            assertThat(leftBehind).as("the unconfirmed claim is released").isFalse();
            assertThat(resumed).isEqualTo("ok");
            assertThat(runs.get()).isEqualTo(1);
        }
    }

    @Test
    @Scenario(
            id = "9c",
            title = "Cluster with Spring Boot's default Lettuce settings (no topology refresh), wait-for-replicas = 1:"
                    + " requests after a CLUSTER FAILOVER (HTTP)",
            expected = "every request answers 201 (or 503 while the failover runs), never 500; no key stays blocked")
    void springBootDefaultsAfterAFailover() {
        String nodes = cluster.nodes().stream()
                .map(node -> node.host() + ":" + node.port())
                .collect(Collectors.joining(","));
        RedisServer any = cluster.nodes().get(0);
        try (App app = App.start(
                any.host(),
                any.port(),
                "spring.data.redis.cluster.nodes=" + nodes,
                "spring.data.redis.timeout=2s",
                "idempotency.redis.wait-for-replicas=1",
                "idempotency.redis.wait-for-replicas-timeout=500ms")) {
            String run = UUID.randomUUID().toString();
            Map<Integer, Integer> before = new TreeMap<>();
            for (int i = 0; i < 30; i++) {
                before.merge(post(app, run + "-before-" + i), 1, Integer::sum);
            }
            cluster.failover(cluster.replicas().get(0));
            Map<Integer, Integer> after = new TreeMap<>();
            List<String> failed = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                int status = post(app, run + "-after-" + i);
                after.merge(status, 1, Integer::sum);
                if (status != 201) {
                    failed.add(run + "-after-" + i);
                }
            }
            Map<Integer, Integer> retried = new TreeMap<>();
            for (String key : failed) {
                retried.merge(post(app, key), 1, Integer::sum);
            }
            Race.sleep(3_000); // longer than the 2 s lease, and than Lettuce's topology refresh if it had one
            Map<Integer, Integer> later = new TreeMap<>();
            for (int i = 0; i < 30; i++) {
                later.merge(post(app, run + "-later-" + i), 1, Integer::sum);
            }
            ReliabilityReport.measured(
                    "9c",
                    "30 keys before the failover: " + before + "; 30 new keys after it: " + after
                            + "; the failed keys retried at once: " + retried + "; 30 new keys 3 s later: " + later);
            assertThat(before).isEqualTo(Map.of(201, 30));
            assertThat(after.getOrDefault(500, 0))
                    .as("DEFECT if not 0: 500s after a failover (WAIT sent to the old master, now a replica)")
                    .isZero();
            assertThat(retried.getOrDefault(409, 0))
                    .as("DEFECT if not 0: keys left blocked by a claim that was never released")
                    .isZero();
        }
    }

    private static int post(App app, String key) {
        return app.http()
                .post("/orders", "{\"item\":\"book\"}", "Idempotency-Key", key)
                .status();
    }

    @Test
    @Scenario(
            id = "9d",
            title = "Cluster with 2 replicas per master and Spring Boot's default Lettuce settings, wait-for-replicas"
                    + " = 2: right after a CLUSTER FAILOVER one replica of the new master is paused, then the first"
                    + " claim on that shard (HTTP; the claim follows a MOVED redirect, WAIT a refreshed topology)",
            expected = "only one replica can acknowledge: 503 and the claim released, nothing runs; never a 201"
                    + " that two replicas did not acknowledge")
    void firstClaimAfterAFailoverIsConfirmedByItsOwnReplicas(@Dedicated(clusterReplicas = 2) RedisCluster wide) {
        String nodes = wide.nodes().stream()
                .map(node -> node.host() + ":" + node.port())
                .collect(Collectors.joining(","));
        RedisServer any = wide.nodes().get(0);
        RedisKeys keys = new RedisKeys("idempotency:");
        try (App app = App.start(
                any.host(),
                any.port(),
                "spring.data.redis.cluster.nodes=" + nodes,
                "spring.data.redis.timeout=2s",
                "idempotency.redis.wait-for-replicas=2",
                "idempotency.redis.wait-for-replicas-timeout=300ms")) {
            String run = UUID.randomUUID().toString();
            for (int i = 0; i < 30; i++) {
                assertThat(post(app, run + "-warm-" + i)).isEqualTo(201);
            }
            RedisServer promoted = wide.replicas().get(0);
            RedisServer oldMaster = Shards.read(wide).masterOfReplica(promoted);
            wide.failover(promoted);
            Shards shards = Shards.read(wide);
            RedisServer otherReplica = shards.replicasOf(promoted).stream()
                    .filter(node -> node.port() != oldMaster.port())
                    .findFirst()
                    .orElseThrow();
            String key = null;
            for (int i = 0; i < 1_000 && key == null; i++) {
                String candidate = run + "-" + i;
                if (shards.masterOf(keys.requestId("", "POST /orders", candidate))
                                .port()
                        == promoted.port()) {
                    key = candidate;
                }
            }
            assertThat(key).as("a key on the failed-over shard").isNotNull();
            int status;
            boolean claimLeft;
            otherReplica.pause();
            try {
                status = post(app, key);
                try (RedisAdmin admin = new RedisAdmin(promoted.host(), promoted.port())) {
                    claimLeft = admin.exists(keys.requestId("", "POST /orders", key));
                }
            } finally {
                otherReplica.resume();
            }
            int executions = app.endpoints().executions("orders", key);
            int afterResume = post(app, key);
            ReliabilityReport.measured(
                    "9d",
                    "first claim on the failed-over shard, one of its 2 replicas paused: " + status + ", claim left: "
                            + claimLeft + ", executions " + executions + "; after resume: " + afterResume);
            assertThat(status)
                    .as("DEFECT if 201: WAIT counted acknowledgements for another connection, not for the claim")
                    .isEqualTo(503);
            assertThat(claimLeft).as("the unconfirmed claim is released").isFalse();
            assertThat(executions).isZero();
            assertThat(afterResume).isEqualTo(201);
        }
    }

    /** The replica of the master that owns {@code key}'s slot, from CLUSTER NODES. */
    private static RedisServer replicaServing(String key) {
        Shards shards = Shards.read(cluster);
        return shards.replicasOf(shards.masterOf(key)).get(0);
    }

    /** Who serves what right now, from CLUSTER NODES: master of each slot range, master of each replica (ports). */
    private record Shards(RedisCluster of, Map<Integer, int[][]> slotsByMaster, Map<Integer, Integer> masterByReplica) {

        static Shards read(RedisCluster of) {
            RedisServer any = of.nodes().get(0);
            String nodes;
            try (RedisAdmin admin = new RedisAdmin(any.host(), any.port())) {
                nodes = admin.call(commands -> commands.clusterNodes());
            }
            Map<String, Integer> portById = new java.util.HashMap<>();
            List<String[]> lines = new ArrayList<>();
            for (String line : nodes.split("\n")) {
                String[] fields = line.trim().split(" ");
                if (fields.length > 7) {
                    lines.add(fields);
                    portById.put(
                            fields[0],
                            Integer.parseInt(fields[1].substring(fields[1].indexOf(':') + 1, fields[1].indexOf('@'))));
                }
            }
            Map<Integer, int[][]> slots = new TreeMap<>();
            Map<Integer, Integer> masters = new TreeMap<>();
            for (String[] fields : lines) {
                int port = portById.get(fields[0]);
                if (fields[2].contains("master")) {
                    List<int[]> ranges = new ArrayList<>();
                    for (int i = 8; i < fields.length; i++) {
                        if (!fields[i].startsWith("[")) {
                            String[] range = fields[i].split("-");
                            int low = Integer.parseInt(range[0]);
                            ranges.add(new int[] {low, range.length > 1 ? Integer.parseInt(range[1]) : low});
                        }
                    }
                    slots.put(port, ranges.toArray(int[][]::new));
                } else if (fields[2].contains("slave") && portById.containsKey(fields[3])) {
                    masters.put(port, portById.get(fields[3]));
                }
            }
            return new Shards(of, slots, masters);
        }

        RedisServer masterOf(String key) {
            int slot = SlotHash.getSlot(key);
            for (Map.Entry<Integer, int[][]> master : slotsByMaster.entrySet()) {
                for (int[] range : master.getValue()) {
                    if (slot >= range[0] && slot <= range[1]) {
                        return node(master.getKey());
                    }
                }
            }
            throw new IllegalStateException("No master serves slot " + slot + ": " + this);
        }

        List<RedisServer> replicasOf(RedisServer master) {
            return masterByReplica.entrySet().stream()
                    .filter(entry -> entry.getValue() == master.port())
                    .map(entry -> node(entry.getKey()))
                    .toList();
        }

        RedisServer masterOfReplica(RedisServer replica) {
            return node(masterByReplica.get(replica.port()));
        }

        private RedisServer node(int port) {
            return of.nodes().stream()
                    .filter(node -> node.port() == port)
                    .findFirst()
                    .orElseThrow();
        }
    }

    @Test
    @Scenario(
            id = "9a",
            title = "3-master cluster (+1 replica each), CLUSTER FAILOVER mid-load, 2 instances, wait-for-replicas = 1",
            expected = "CROSSSLOT errors 0; duplicates 0; a call that fails during the failover fails with 503"
                    + " (store unavailable), never another error")
    void clusterFailoverUnderLoad() throws Exception {
        String prefix = "cluster:" + UUID.randomUUID() + ":";
        try (CoreStack first = CoreStack.on(cluster.newConnectionFactory(), prefix, 1, Duration.ofMillis(500));
                CoreStack second = CoreStack.on(cluster.newConnectionFactory(), prefix, 1, Duration.ofMillis(500))) {
            CoreStack[] instances = {first, second};
            Map<String, AtomicInteger> executions = new ConcurrentHashMap<>();
            Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
            List<String> unexpected = new CopyOnWriteArrayList<>();
            AtomicInteger crossSlot = new AtomicInteger();
            AtomicInteger next = new AtomicInteger();
            AtomicBoolean running = new AtomicBoolean(true);

            Thread load = new Thread(() -> {
                try {
                    Race.run(THREADS, THREADS, Duration.ofMinutes(2), thread -> {
                        for (int n = 0; n < 20_000 && running.get(); n++) {
                            int i = next.getAndIncrement();
                            CoreStack instance = instances[i % 2];
                            String key = "k" + (i / 2); // two consecutive calls, from both instances, share a key
                            String outcome = call(() -> execute(instance, key, executions));
                            outcomes.computeIfAbsent("request-id " + label(outcome), o -> new AtomicInteger())
                                    .incrementAndGet();
                            String lock = call(() -> instance.locks.callLocked(
                                    "resource-" + (i % 16), LEASE, Duration.ZERO, () -> "ran"));
                            outcomes.computeIfAbsent("lock " + label(lock), o -> new AtomicInteger())
                                    .incrementAndGet();
                            String token = call(() -> {
                                IssuedToken issued =
                                        instance.tokens.issue("user-" + i, "submit", Duration.ofMinutes(1));
                                instances[(i + 1) % 2].tokens.consume("user-" + i, "submit", issued.token());
                                return "ran";
                            });
                            outcomes.computeIfAbsent("token " + label(token), o -> new AtomicInteger())
                                    .incrementAndGet();
                            for (String o : List.of(outcome, lock, token)) {
                                if (o.contains("CROSSSLOT")) {
                                    crossSlot.incrementAndGet();
                                }
                                if (o.startsWith("unexpected") && unexpected.size() < 5) {
                                    unexpected.add(o);
                                }
                            }
                        }
                    });
                } catch (Exception ex) {
                    unexpected.add("load failed: " + ex);
                }
            });
            load.start();
            Race.sleep(1_000);
            RedisServer replica = cluster.replicas().get(0);
            long failoverStart = System.nanoTime();
            cluster.failover(replica);
            long failoverMillis = (System.nanoTime() - failoverStart) / 1_000_000;
            Race.sleep(1_500);
            running.set(false);
            load.join(60_000);

            // Every key that was refused during the failover is retried until it has run.
            int keys = (next.get() + 1) / 2;
            int retried = 0;
            for (int k = 0; k < keys; k++) {
                String key = "k" + k;
                for (int attempt = 0; attempt < 40 && count(executions, key) == 0; attempt++) {
                    retried++;
                    call(() -> execute(first, key, executions));
                    if (count(executions, key) == 0) {
                        Race.sleep(100);
                    }
                }
            }
            Map<Integer, Integer> keysByExecutions = new TreeMap<>();
            for (int k = 0; k < keys; k++) {
                keysByExecutions.merge(count(executions, "k" + k), 1, Integer::sum);
            }
            Map<String, Integer> byOutcome = new TreeMap<>();
            outcomes.forEach((outcome, count) -> byOutcome.put(outcome, count.get()));

            ReliabilityReport.measured(
                    "9a",
                    next.get() + " iterations (claim + lock + token each) over " + keys
                            + " keys; failover took " + failoverMillis + " ms; outcomes " + byOutcome
                            + "; CROSSSLOT " + crossSlot + "; retries after the load " + retried
                            + "; keys by executions " + keysByExecutions
                            + (unexpected.isEmpty() ? "" : "; unexpected: " + unexpected));
            assertThat(crossSlot.get()).as("CROSSSLOT errors").isZero();
            assertThat(keysByExecutions).as("keys by executions (duplicates 0)").isEqualTo(Map.of(1, keys));
            assertThat(unexpected)
                    .as("DEFECT if not empty: failures other than 503/409 (HTTP would answer 500)")
                    .isEmpty();
        }
    }

    private static String execute(CoreStack instance, String key, Map<String, AtomicInteger> executions) {
        return instance.executor.execute(
                new RequestIdCall(
                        instance.keys.requestId("", "op", key), null, Duration.ofHours(1), LEASE, Duration.ZERO),
                () -> "run-"
                        + executions
                                .computeIfAbsent(key, k -> new AtomicInteger())
                                .incrementAndGet(),
                ResultCodec.utf8());
    }

    private static int count(Map<String, AtomicInteger> executions, String key) {
        AtomicInteger count = executions.get(key);
        return count == null ? 0 : count.get();
    }

    /** "ok", "409", "503: reason" or "unexpected: exception", for the report. */
    private static String call(java.util.function.Supplier<String> body) {
        try {
            body.get();
            return "ok";
        } catch (RequestInProgressException | LockBusyException ex) {
            return "409";
        } catch (IdempotencyStoreUnavailableException ex) {
            return "503" + (chain(ex).contains("CROSSSLOT") ? " CROSSSLOT" : "");
        } catch (RuntimeException ex) {
            return "unexpected " + chain(ex);
        }
    }

    private static String chain(Throwable failure) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = failure; t != null && text.length() < 400; t = t.getCause()) {
            text.append(t.getClass().getSimpleName())
                    .append(": ")
                    .append(t.getMessage())
                    .append(" / ");
        }
        return text.toString();
    }

    /** The outcome without its details: "unexpected RedisCommandExecutionException". */
    private static String label(String outcome) {
        int colon = outcome.indexOf(':');
        return outcome.startsWith("unexpected") && colon > 0 ? outcome.substring(0, colon) : outcome;
    }
}
