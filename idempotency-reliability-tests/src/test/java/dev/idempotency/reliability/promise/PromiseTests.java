package dev.idempotency.reliability.promise;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.testsupport.RedisServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;

/**
 * The promise checker: randomized histories on every entry path, with {@code REQUEST_ID} and {@code LOCK}, judged by
 * {@link PromiseChecker}. Each try draws a seed; its history has several clients on a few keys, each call ending its
 * own way (waiting, disconnecting, timing out, another payload; Spring MVC's async timeout on futures), work that
 * succeeds, returns 4xx or 5xx, or throws, and maybe Redis stopped (SIGSTOP) for a while or one request thread only.
 * A failing history is shrunk to the calls that matter and printed with its seed; {@code -Dpromise.seed=N} replays it.
 * How many tries: {@code jqwik.tries.default} (junit-platform.properties; {@code scripts/soak.sh --long} raises it).
 */
class PromiseTests {

    private static final Duration SHRINK_BUDGET = Duration.ofSeconds(60);

    private static RedisServer redis;
    private static LettuceConnectionFactory connections;
    private static ConfigurableApplicationContext mvc;
    private static ConfigurableApplicationContext mvcOneThread;
    private static ConfigurableApplicationContext webflux;
    private static final Long FIXED_SEED = Long.getLong("promise.seed");

    @BeforeContainer
    static void start() {
        redis = RedisServer.start();
        connections = redis.newConnectionFactory();
        mvc = PromiseApp.start(WebApplicationType.SERVLET, redis);
        mvcOneThread = PromiseApp.start(
                WebApplicationType.SERVLET, redis, "server.tomcat.threads.max=1", "server.tomcat.threads.min-spare=1");
        webflux = PromiseApp.start(WebApplicationType.REACTIVE, redis);
    }

    @AfterContainer
    static void stop() {
        for (ConfigurableApplicationContext app : new ConfigurableApplicationContext[] {mvc, mvcOneThread, webflux}) {
            if (app != null) {
                app.close();
            }
        }
        if (connections != null) {
            connections.destroy();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Property
    void mvcSyncRequestId(@ForAll long seed) throws Exception {
        promiseHolds("mvc-sync", false, seed, true);
    }

    @Property
    void mvcSyncLock(@ForAll long seed) throws Exception {
        promiseHolds("mvc-sync", true, seed, true);
    }

    @Property
    void mvcFutureRequestId(@ForAll long seed) throws Exception {
        promiseHolds("mvc-future", false, seed, true);
    }

    @Property
    void mvcFutureLock(@ForAll long seed) throws Exception {
        promiseHolds("mvc-future", true, seed, true);
    }

    @Property
    void mvcDeferredRequestId(@ForAll long seed) throws Exception {
        promiseHolds("mvc-deferred", false, seed, true);
    }

    @Property
    void mvcDeferredLock(@ForAll long seed) throws Exception {
        promiseHolds("mvc-deferred", true, seed, true);
    }

    @Property
    void beanMethodRequestId(@ForAll long seed) throws Exception {
        promiseHolds("bean", false, seed, true);
    }

    @Property
    void beanMethodLock(@ForAll long seed) throws Exception {
        promiseHolds("bean", true, seed, true);
    }

    @Property
    void webfluxMonoRequestId(@ForAll long seed) throws Exception {
        promiseHolds("webflux-mono", false, seed, false);
    }

    @Property
    void webfluxMonoLock(@ForAll long seed) throws Exception {
        promiseHolds("webflux-mono", true, seed, false);
    }

    @Property
    void webfluxPlainRequestId(@ForAll long seed) throws Exception {
        promiseHolds("webflux-plain", false, seed, false);
    }

    @Property
    void webfluxPlainLock(@ForAll long seed) throws Exception {
        promiseHolds("webflux-plain", true, seed, false);
    }

    private void promiseHolds(String path, boolean lock, long drawn, boolean servlet) throws Exception {
        long seed = FIXED_SEED != null ? FIXED_SEED : drawn;
        History history = History.random(seed, servlet);
        List<String> violations = play(history, path, lock);
        if (violations.isEmpty()) {
            return;
        }
        History shrunk = shrink(history, path, lock);
        List<String> shrunkViolations = play(shrunk, path, lock);
        assertThat(violations)
                .as(
                        "%s %s: the promise broke.%n  history: %s%n  shrunk:  %s%n  shrunk violations: %s%n"
                                + "  replay: -Dpromise.seed=%d",
                        path,
                        lock ? "LOCK" : "REQUEST_ID",
                        history,
                        shrunk,
                        shrunkViolations.isEmpty() ? "(passed when shrunk: flaky)" : shrunkViolations,
                        seed)
                .isEmpty();
    }

    /** Removes the pause, the one-thread pool and calls, one at a time, as long as the history still fails. */
    private History shrink(History failing, String path, boolean lock) throws Exception {
        long deadline = System.nanoTime() + SHRINK_BUDGET.toNanos();
        History current = failing;
        boolean smaller = true;
        while (smaller && System.nanoTime() < deadline) {
            smaller = false;
            List<Integer> parts = new ArrayList<>(List.of(-1, -2));
            for (int i = current.calls().size() - 1; i >= 0; i--) {
                parts.add(i);
            }
            for (int part : parts) {
                if ((part == -1 && current.pause().span() == 0) || (part == -2 && !current.oneThread())) {
                    continue;
                }
                History candidate = current.without(part);
                if (!candidate.calls().isEmpty() && !play(candidate, path, lock).isEmpty()) {
                    current = candidate;
                    smaller = true;
                    break;
                }
            }
        }
        return current;
    }

    private List<String> play(History history, String path, boolean lock) throws Exception {
        ConfigurableApplicationContext app =
                path.startsWith("webflux") ? webflux : history.oneThread() ? mvcOneThread : mvc;
        HistoryRunner.Played played =
                new HistoryRunner(redis, PromiseTests::leftovers).play(history, PromiseApp.port(app), path, lock);
        Ledger ledger = app.getBean(Ledger.class);
        if (Boolean.getBoolean("promise.verbose")) {
            System.out.println("[promise] " + path + (lock ? " LOCK " : " REQUEST_ID ") + history);
            played.answers().forEach(answer -> System.out.println("[promise]   " + answer));
        }
        List<String> violations = PromiseChecker.check(played, ledger.ended(), ledger.running(), lock);
        clearLeftovers(); // reported above; a history that follows must not inherit them
        return violations;
    }

    private static void clearLeftovers() {
        try (RedisConnection connection = connections.getConnection()) {
            for (String key : leftoverKeys()) {
                connection.keyCommands().del(key.getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    private static List<String> leftoverKeys() {
        return leftovers().stream()
                .map(leftover -> leftover.substring(leftover.lastIndexOf(' ') + 1))
                .toList();
    }

    /** Locks and in-progress claims still in Redis: after every history, none may be left. */
    private static List<String> leftovers() {
        List<String> left = new ArrayList<>();
        try (RedisConnection connection = connections.getConnection();
                Cursor<byte[]> keys = connection
                        .keyCommands()
                        .scan(ScanOptions.scanOptions()
                                .match("promise:*")
                                .count(1000)
                                .build())) {
            while (keys.hasNext()) {
                String key = new String(keys.next(), StandardCharsets.UTF_8);
                if (key.startsWith("promise:lock:") && !key.endsWith(":fence")) {
                    left.add("the lock " + key);
                } else if (key.startsWith("promise:request-id:")) {
                    byte[] value = connection.stringCommands().get(key.getBytes(StandardCharsets.UTF_8));
                    if (value != null && value.length > 0 && value[0] == 'P') {
                        left.add("the in-progress claim " + key);
                    }
                }
            }
        }
        return left;
    }
}
