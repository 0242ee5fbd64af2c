package dev.idempotency.edges;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.it.TestRedis;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.stacks.Deployment;
import dev.idempotency.stacks.Stack;
import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.CommandMonitor;
import dev.idempotency.testsupport.TestHttp;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * How a call ends: a client that goes away mid-work, a lock waiter that gives up, an answer too large to keep. The
 * promise is judged by the executions counted on the server, on a real port and real Redis, on both stacks; the
 * records and tokens also on the JDBC store (real PostgreSQL and MariaDB servers).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CallEndTests {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private final Map<Deployment, ConfigurableApplicationContext> apps = new HashMap<>();

    @BeforeAll
    void start() {
        for (Deployment deployment : Deployment.all()) {
            List<String> properties = new ArrayList<>(List.of(deployment.storeProperties()));
            properties.add("idempotency.lock.wait=5s");
            apps.put(deployment, EdgeApplication.start(deployment.stack(), properties.toArray(String[]::new)));
        }
    }

    /** The application of {@code stack} on the Redis store (locks live in Redis on both). */
    private ConfigurableApplicationContext app(Stack stack) {
        return apps.get(new Deployment(stack, null));
    }

    @AfterAll
    void stop() {
        apps.values().forEach(ConfigurableApplicationContext::close);
    }

    @ParameterizedTest
    @MethodSource("dev.idempotency.stacks.Deployment#all")
    void aClientThatDisconnectsMidWorkLeavesItRunningAndItsRetryGets409ThenTheReplay(Deployment deployment)
            throws Exception {
        ConfigurableApplicationContext app = apps.get(deployment);
        Work work = app.getBean(Work.class);
        TestHttp http = new TestHttp(EdgeApplication.port(app));
        String id = newId();
        String key = newId();
        try (Disconnecting client = Disconnecting.post(EdgeApplication.port(app), "/edge/orders/" + id, key)) {
            Await.until(DEADLINE, "the handler started its work", () -> work.isParked(id));
        }
        HttpResponse<String> meanwhile = http.post("/edge/orders/" + id, "{}", "Idempotency-Key", key);
        assertThat(meanwhile.statusCode()).as(meanwhile.body()).isEqualTo(409);
        assertThat(meanwhile.body()).contains("request-in-progress");
        work.finish(id, "order " + id);
        HttpResponse<String> replay = Duplicates.afterTheWork(http, "/edge/orders/" + id, key);
        assertThat(replay.statusCode()).isEqualTo(200);
        assertThat(replay.body()).isEqualTo("order " + id);
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(work.executions(id)).isEqualTo(1);
        assertThat(work.thread(id))
                .as("user code never runs on the Redis client's I/O thread")
                .doesNotStartWith("lettuce");
    }

    @ParameterizedTest
    @CsvSource({"MVC, stock", "MVC, stock-entity", "WEBFLUX, stock", "WEBFLUX, stock-entity"})
    void aLockHolderWhoseClientDisconnectsKeepsTheLockUntilItsWorkEndsThenReleasesIt(Stack stack, String path)
            throws Exception {
        ConfigurableApplicationContext app = app(stack);
        Work work = app.getBean(Work.class);
        TestHttp http = new TestHttp(EdgeApplication.port(app));
        String sku = newId();
        try (Disconnecting client = Disconnecting.post(EdgeApplication.port(app), "/edge/" + path + "/" + sku, null)) {
            Await.until(DEADLINE, "the holder started its work", () -> work.isParked(sku));
        }
        work.finish(sku, "deducted");
        CompletableFuture<HttpResponse<String>> next =
                CompletableFuture.supplyAsync(() -> http.post("/edge/" + path + "/" + sku, "{}"));
        Await.until(DEADLINE, "the next caller got the lock", () -> work.executions(sku) == 2);
        work.finish(sku, "deducted again");
        assertThat(next.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(work.mostAtOnce()).isEqualTo(1);
    }

    /**
     * The work fails after its client went away: the error is answered all the same, so a server error releases the
     * claim and the lock (the retry runs the work), and an error with a 4xx status that {@code release-on} keeps is
     * kept (the retry does not). On Spring MVC the container renders no error page for a connection that is gone, so
     * the kept error has no body to replay: its duplicates get {@code 409 result-not-stored}, and the work still ran
     * once.
     */
    @ParameterizedTest
    @CsvSource({
        "MVC, redis, stock, 500, ran-again",
        "MVC, redis, stock-entity, 409, ran-again",
        "MVC, redis, orders, 500, ran-again",
        "MVC, redis, orders, 409, ran-again",
        "MVC, redis, orders-kept, 409, result-not-stored",
        "MVC, postgresql, orders, 500, ran-again",
        "MVC, postgresql, orders-kept, 409, result-not-stored",
        "MVC, mariadb, orders, 500, ran-again",
        "MVC, mariadb, orders-kept, 409, result-not-stored",
        "WEBFLUX, redis, stock, 500, ran-again",
        "WEBFLUX, redis, stock-entity, 409, ran-again",
        "WEBFLUX, redis, orders, 500, ran-again",
        "WEBFLUX, redis, orders, 409, ran-again",
        "WEBFLUX, redis, orders-kept, 409, replayed",
        "WEBFLUX, postgresql, orders, 500, ran-again",
        "WEBFLUX, postgresql, orders-kept, 409, replayed"
    })
    void workThatFailsAfterItsClientDisconnectedIsSettledByItsError(
            Stack stack, String store, String path, int status, String retry) throws Exception {
        ConfigurableApplicationContext app = apps.get(Deployment.of(stack, store));
        Work work = app.getBean(Work.class);
        TestHttp http = new TestHttp(EdgeApplication.port(app));
        String id = newId();
        String key = newId();
        try (Disconnecting client = Disconnecting.post(EdgeApplication.port(app), "/edge/" + path + "/" + id, key)) {
            Await.until(DEADLINE, "the first call started its work", () -> work.isParked(id));
        }
        work.fail(
                id,
                status == 409
                        ? new ResponseStatusException(HttpStatus.CONFLICT, "out of stock")
                        : new IllegalStateException("the warehouse is down"));
        CompletableFuture<HttpResponse<String>> next =
                CompletableFuture.supplyAsync(() -> Duplicates.afterTheWork(http, "/edge/" + path + "/" + id, key));
        if (retry.equals("ran-again")) {
            Await.until(DEADLINE, "the retry ran the work again", () -> work.executions(id) == 2);
            work.finish(id, "done " + id);
            assertThat(next.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            assertThat(work.executions(id)).isEqualTo(2);
            return;
        }
        HttpResponse<String> duplicate = next.get(30, TimeUnit.SECONDS);
        assertThat(duplicate.statusCode()).as(duplicate.body()).isEqualTo(409);
        if (retry.equals("replayed")) {
            assertThat(duplicate.headers().firstValue("Idempotent-Replayed")).hasValue("true");
            assertThat(duplicate.body()).contains("\"status\":409");
        } else {
            assertThat(duplicate.body()).contains("result-not-stored");
        }
        assertThat(work.executions(id)).isEqualTo(1);
    }

    /**
     * A {@code TOKEN} submit whose client went away: its token stays used while the work runs on, so the same token
     * sent again meanwhile does not run the work; work that succeeds keeps the token used, work that fails gives it
     * back, and then the token runs the work once more. On both stores.
     */
    @ParameterizedTest
    @MethodSource("tokenSubmitEnds")
    void aTokenSubmitWhoseClientDisconnectsIsSettledByItsWork(Deployment deployment, boolean workFails)
            throws Exception {
        ConfigurableApplicationContext app = apps.get(deployment);
        Work work = app.getBean(Work.class);
        TestHttp http = new TestHttp(EdgeApplication.port(app));
        String id = newId();
        String path = "/edge/notes-parked/" + id;
        String token = http.token("POST /edge/notes-parked/{id}");
        try (Disconnecting client = Disconnecting.post(EdgeApplication.port(app), path, "Idempotency-Token", token)) {
            Await.until(DEADLINE, "the submit started its work", () -> work.isParked(id));
        }
        HttpResponse<String> meanwhile = http.post(path, "", "Idempotency-Token", token);
        assertThat(meanwhile.statusCode()).as(meanwhile.body()).isEqualTo(409);
        assertThat(meanwhile.body()).contains("token-used");
        String settled = workFails ? "V" : "U";
        double executed = EdgeApplication.outcomes(app, "executed");
        if (workFails) {
            work.fail(id, new IllegalStateException("the mail server is down"));
        } else {
            work.finish(id, "noted");
        }
        Await.until(
                DEADLINE,
                "the detached work was settled",
                () -> EdgeApplication.outcomes(app, "executed") > executed
                        && settled.equals(deployment.tokenState(app, "", "POST /edge/notes-parked/{id}", token)));
        CompletableFuture<HttpResponse<String>> again =
                CompletableFuture.supplyAsync(() -> http.post(path, "", "Idempotency-Token", token));
        if (workFails) {
            Await.until(DEADLINE, "the given-back token ran the work again", () -> work.executions(id) == 2);
            work.finish(id, "noted");
            assertThat(again.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            assertThat(work.executions(id)).isEqualTo(2);
        } else {
            HttpResponse<String> used = again.get(20, TimeUnit.SECONDS);
            assertThat(used.statusCode()).as(used.body()).isEqualTo(409);
            assertThat(used.body()).contains("token-used");
            assertThat(work.executions(id)).isEqualTo(1);
        }
    }

    static Stream<Arguments> tokenSubmitEnds() {
        return Deployment.all().stream()
                .flatMap(deployment -> Stream.of(Arguments.of(deployment, false), Arguments.of(deployment, true)));
    }

    @Test
    void aLockHolderOnATimedMonoWhoseClientDisconnectsReleasesTheLockWhenItsWorkEnds() throws Exception {
        ConfigurableApplicationContext app = app(Stack.WEBFLUX);
        Work work = app.getBean(Work.class);
        TestHttp http = new TestHttp(EdgeApplication.port(app));
        String sku = newId();
        try (Disconnecting client = Disconnecting.post(EdgeApplication.port(app), "/edge/stock-timed/" + sku, null)) {
            Await.until(DEADLINE, "the holder started its work", () -> work.executions(sku) == 1);
        }
        HttpResponse<String> next = http.post("/edge/stock-timed/" + sku, "{}");
        assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
        assertThat(work.executions(sku)).isEqualTo(2);
    }

    @Test
    void aStreamCutOffByItsClientReleasesItsLock() throws Exception {
        ConfigurableApplicationContext app = app(Stack.WEBFLUX);
        Work work = app.getBean(Work.class);
        int port = EdgeApplication.port(app);
        String sku = newId();
        try (Disconnecting first = Disconnecting.post(port, "/edge/feed/" + sku, null)) {
            Await.until(DEADLINE, "the first stream started", () -> work.executions(sku) == 1);
        }
        try (Disconnecting second = Disconnecting.post(port, "/edge/feed/" + sku, null)) {
            Await.until(DEADLINE, "the next caller got the lock", () -> work.executions(sku) == 2);
        }
    }

    @Test
    void aLockWaiterThatGivesUpTakesNoLockAndTheNextCallerGetsItAfterTheHolder() throws Exception {
        ConfigurableApplicationContext app = app(Stack.WEBFLUX);
        Work work = app.getBean(Work.class);
        int port = EdgeApplication.port(app);
        TestHttp http = new TestHttp(port);
        String sku = newId();
        String lockKey = new RedisKeys(app.getEnvironment().getRequiredProperty("idempotency.key-prefix")).lock(sku);
        CompletableFuture<HttpResponse<String>> holder =
                CompletableFuture.supplyAsync(() -> http.post("/edge/stock/" + sku, "{}"));
        Await.until(DEADLINE, "the holder started its work", () -> work.isParked(sku));
        double abandoned = EdgeApplication.outcomes(app, "abandoned");
        try (CommandMonitor monitor = new CommandMonitor(TestRedis.SERVER);
                Disconnecting waiter = Disconnecting.post(port, "/edge/stock/" + sku, null)) {
            Await.until(DEADLINE, "the waiter found the lock busy", () -> acquireAttempts(monitor, lockKey) >= 1);
        }
        Await.until(
                DEADLINE, "the server saw the waiter go", () -> EdgeApplication.outcomes(app, "abandoned") > abandoned);
        work.finish(sku, "deducted");
        assertThat(holder.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        CompletableFuture<HttpResponse<String>> next =
                CompletableFuture.supplyAsync(() -> http.post("/edge/stock/" + sku, "{}"));
        Await.until(DEADLINE, "the next caller got the lock", () -> work.isParked(sku));
        work.finish(sku, "deducted again");
        assertThat(next.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(work.executions(sku)).isEqualTo(2);
    }

    @ParameterizedTest
    @MethodSource("dev.idempotency.stacks.Deployment#all")
    void anAnswerTooLargeToKeepCompletesItsKeyAndADuplicateDoesNotRunAgain(Deployment deployment) {
        ConfigurableApplicationContext app = apps.get(deployment);
        Work work = app.getBean(Work.class);
        TestHttp http = new TestHttp(EdgeApplication.port(app));
        String id = newId();
        String key = newId();
        HttpResponse<String> first = http.post("/edge/large/" + id, "{}", "Idempotency-Key", key);
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.body()).hasSize(4096);
        HttpResponse<String> duplicate = Duplicates.afterTheWork(http, "/edge/large/" + id, key);
        assertThat(duplicate.statusCode()).isEqualTo(409);
        assertThat(duplicate.body()).contains("result-not-stored");
        assertThat(work.executions(id)).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/x-ndjson", "text/event-stream"})
    void aStreamNegotiatedByTheRequestIsRefusedBeforeTheWorkRunsAndTheWholeBodyIsStored(String streaming) {
        ConfigurableApplicationContext app = app(Stack.WEBFLUX);
        Work work = app.getBean(Work.class);
        TestHttp http = new TestHttp(EdgeApplication.port(app));
        String id = newId();
        String key = newId();
        HttpResponse<String> refused =
                http.post("/edge/items/" + id, "{}", "Idempotency-Key", key, "Accept", streaming);
        assertThat(refused.statusCode()).isEqualTo(406);
        assertThat(refused.body()).contains("stream-not-replayable");
        assertThat(work.executions(id)).isZero();
        HttpResponse<String> whole =
                http.post("/edge/items/" + id, "{}", "Idempotency-Key", key, "Accept", "application/json");
        HttpResponse<String> replay =
                http.post("/edge/items/" + id, "{}", "Idempotency-Key", key, "Accept", "application/json");
        assertThat(whole.statusCode()).isEqualTo(200);
        assertThat(whole.body()).startsWith("[").contains("\"line\":2");
        assertThat(replay.body()).isEqualTo(whole.body());
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(work.executions(id)).isEqualTo(1);
    }

    /** Acquisitions of {@code lockKey} that Redis ran (inside the acquire script), the first one included. */
    private static long acquireAttempts(CommandMonitor monitor, String lockKey) {
        return monitor.lines().stream()
                .filter(line -> line.contains("lua]") && line.contains("\"SET\"") && line.contains("\"NX\""))
                .filter(line -> line.contains(lockKey))
                .count();
    }

    private static String newId() {
        return UUID.randomUUID().toString();
    }
}
