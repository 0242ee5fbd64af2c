package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.diagnostics.StartupDiagnostics;
import dev.idempotency.requestid.RequestIdCall;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.testsupport.Dedicated;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RedisServer;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** Scenario 10: Redis with a memory limit, evicting (a warning at startup) or refusing writes once full. */
@ReliabilityTest
@ExtendWith(OutputCaptureExtension.class)
class MemoryLimitTests {

    private static final int KEYS = 50;
    private static final int FILLERS = 64;
    private static final String ORDER = "{\"item\":\"book\"}";

    @Test
    @Scenario(
            id = "10a",
            title = "maxmemory-policy volatile-lru when the application starts",
            expected = "a startup WARN names the policy (records may be evicted); startup does not fail")
    @Scenario(
            id = "10b",
            title = "maxmemory-policy noeviction and memory full (HTTP: 50 keys x 2 concurrent, token, lock)",
            expected = "503 for first claims, token issue and lock, and nothing runs; a duplicate of a request"
                    + " completed before gets its replay (a plain GET still works when memory is full); once memory is"
                    + " freed every key runs exactly once (duplicates 0)")
    void memoryLimit(@Dedicated RedisServer redis, CapturedOutput output) throws Exception {
        ReliabilityReport.redisVersion(redis.version());
        try (RedisAdmin admin = new RedisAdmin(redis.host(), redis.port())) {
            admin.configSet("maxmemory-policy", "volatile-lru");
            try (App app = App.start(redis.host(), redis.port())) {
                List<String> warnings = output.getAll()
                        .lines()
                        .filter(line -> line.contains(StartupDiagnostics.class.getSimpleName())
                                && line.contains("maxmemory-policy"))
                        .toList();
                ReliabilityReport.measured("10a", "application started: true; startup warnings: " + warnings);
                assertThat(warnings).as("eviction warning").anyMatch(line -> line.contains("volatile-lru"));

                admin.configSet("maxmemory-policy", "noeviction");
                String run = UUID.randomUUID().toString();
                assertThat(post(app, run + "-completed")).isEqualTo(201);
                int filler = fill(admin);
                Http.Response completedWhileFull =
                        app.http().post("/orders", ORDER, "Idempotency-Key", run + "-completed");
                int beforeFull = app.endpoints().totalExecutions();
                Map<Integer, AtomicInteger> full = new ConcurrentHashMap<>();
                Race.run(
                        16,
                        2 * KEYS,
                        Duration.ofMinutes(1),
                        i -> full.computeIfAbsent(post(app, run + "-" + (i / 2)), s -> new AtomicInteger())
                                .incrementAndGet());
                int token = app.http()
                        .post("/idempotency/tokens?operation=POST%20/feedback", "")
                        .status();
                int lock = app.http().post("/stock/sku-" + run, "{}").status();
                int executionsWhileFull = app.endpoints().totalExecutions() - beforeFull;

                free(admin, filler);
                Map<Integer, AtomicInteger> freed = new ConcurrentHashMap<>();
                Race.run(16, 2 * KEYS, Duration.ofMinutes(1), i -> {
                    String key = run + "-" + (i / 2);
                    for (int attempt = 0; attempt < 30; attempt++) {
                        int status = post(app, key);
                        freed.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
                        if (status == 201) {
                            return;
                        }
                        Race.sleep(100);
                    }
                });
                Map<Integer, Integer> keysByExecutions = new TreeMap<>();
                for (int k = 0; k < KEYS; k++) {
                    keysByExecutions.merge(app.endpoints().executions("orders", run + "-" + k), 1, Integer::sum);
                }
                ReliabilityReport.measured(
                        "10b",
                        "memory full (" + filler + " x 16 KB fillers, maxmemory below used_memory); while full: orders "
                                + StatusCounts.of(full) + ", token issue "
                                + token + ", lock " + lock + ", executions " + executionsWhileFull
                                + "; duplicate of a request completed before: " + completedWhileFull.status()
                                + (completedWhileFull.replayed() ? " replayed" : "")
                                + "; after freeing memory: " + StatusCounts.of(freed) + ", keys by executions "
                                + keysByExecutions);
                assertThat(StatusCounts.of(full).keySet())
                        .as("order statuses while full")
                        .containsOnly(503);
                assertThat(completedWhileFull.status())
                        .as("a completed request's duplicate while memory is full")
                        .isEqualTo(201);
                assertThat(completedWhileFull.replayed()).as("replayed").isTrue();
                assertThat(token).as("token issue while full").isEqualTo(503);
                assertThat(lock).as("lock while full").isEqualTo(503);
                assertThat(executionsWhileFull).isZero();
                assertThat(app.endpoints().executions("orders", run + "-completed"))
                        .as("the completed request does not run again")
                        .isEqualTo(1);
                assertThat(keysByExecutions).as("keys by executions").isEqualTo(Map.of(1, KEYS));
            }
        }
    }

    @Test
    @Scenario(
            id = "10c",
            title = "noeviction: memory fills up while the work runs, so storing its result fails, then is freed"
                    + " (lease 10 s)",
            expected = "the caller gets its result at once; the completion is retried while the claim's lease lasts,"
                    + " so once memory is freed it is stored and a retry gets the replay (executions 1)")
    void memoryFillsWhileTheWorkRuns(@Dedicated RedisServer redis) {
        ReliabilityReport.redisVersion(redis.version());
        Duration lease = Duration.ofSeconds(10);
        try (RedisAdmin admin = new RedisAdmin(redis.host(), redis.port());
                CoreStack app = CoreStack.connect(redis.host(), redis.port(), Duration.ofMillis(500), "oom:");
                LogCapture log = new LogCapture("dev.idempotency.internal.requestid.ClaimPermit")) {
            admin.configSet("maxmemory-policy", "noeviction");
            AtomicInteger runs = new AtomicInteger();
            RequestIdCall call = new RequestIdCall(
                    app.keys.requestId("", "op", "k"), null, Duration.ofHours(1), lease, Duration.ZERO);
            int[] fillers = {0};
            long start = System.nanoTime();
            String first = app.executor.execute(
                    call,
                    () -> {
                        fillers[0] = fill(admin);
                        return "result-" + runs.incrementAndGet();
                    },
                    ResultCodec.utf8());
            long returnedMillis = (System.nanoTime() - start) / 1_000_000;
            String whileFull = attempt(app, call, runs);
            free(admin, fillers[0]);
            String[] afterFree = {""};
            boolean replayed = Race.await(Duration.ofSeconds(10), 20, () -> {
                afterFree[0] = attempt(app, call, runs);
                return afterFree[0].equals("result-1");
            });
            ReliabilityReport.measured(
                    "10c",
                    "caller got " + first + " after " + returnedMillis + " ms (the completion failed with OOM);"
                            + " a retry while memory was full: " + whileFull + "; after freeing memory: "
                            + afterFree[0] + (replayed ? " (the retried completion landed)" : "") + "; executions "
                            + runs.get() + "; log: " + log.warnings());
            assertThat(first).isEqualTo("result-1");
            assertThat(log.warnings()).anyMatch(line -> line.contains("retrying while its lease lasts"));
            assertThat(whileFull)
                    .as("the unfinished record blocks duplicates while the completion is retried")
                    .isEqualTo("409");
            assertThat(replayed)
                    .as("a retry after memory was freed gets the replay")
                    .isTrue();
            assertThat(runs).as("executions").hasValue(1);
        }
    }

    private static String attempt(CoreStack app, RequestIdCall call, AtomicInteger runs) {
        try {
            return app.executor.execute(call, () -> "result-" + runs.incrementAndGet(), ResultCodec.utf8());
        } catch (RequestInProgressException ex) {
            return "409";
        } catch (IdempotencyStoreUnavailableException ex) {
            return "503";
        } catch (RuntimeException ex) {
            return ex.getClass().getSimpleName();
        }
    }

    /**
     * Writes 1 MB of filler values, then sets maxmemory below what Redis now uses: with noeviction every command that
     * may grow memory is refused from then on. (Filling up to a limit instead is fragile: a connection's transient
     * query buffer counts too, so Redis looks full only while the filling connection is open.)
     */
    private static int fill(RedisAdmin admin) {
        String value = "x".repeat(16 * 1024);
        try (StatefulRedisConnection<String, String> connection = admin.connect()) {
            for (int i = 0; i < FILLERS; i++) {
                connection.sync().set("filler:" + i, value);
            }
        }
        admin.configSet("maxmemory", Long.toString(admin.usedMemory() - 512 * 1024));
        if (!refusesWrites(admin)) {
            throw new IllegalStateException("Redis does not refuse writes: " + admin.info("memory"));
        }
        return FILLERS;
    }

    private static boolean refusesWrites(RedisAdmin admin) {
        try {
            admin.call(commands -> commands.set("probe", "x"));
            return false;
        } catch (RuntimeException ex) {
            return String.valueOf(ex.getMessage()).contains("OOM");
        }
    }

    /** Lifts the limit and deletes the fillers, leaving the idempotency records alone. */
    private static void free(RedisAdmin admin, int fillers) {
        admin.configSet("maxmemory", "0");
        try (StatefulRedisConnection<String, String> connection = admin.connect()) {
            for (int i = 0; i < fillers; i++) {
                connection.sync().del("filler:" + i);
            }
        }
    }

    private static int post(App app, String key) {
        return app.http().post("/orders", ORDER, "Idempotency-Key", key).status();
    }
}
