package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.testsupport.Database;
import dev.idempotency.testsupport.Dedicated;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RedisServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The JDBC record store when the application JVM is killed (SIGKILL) at each point of a call: after its claim with the
 * payment written but not committed, after the payment committed but before the answer, and after the answer. A
 * second instance (this JVM) then serves retries with the same keys: the payment exists exactly once in every case,
 * and each retry gets what the Stores page's crash table says. On PostgreSQL and on MariaDB.
 */
@ReliabilityTest
class JdbcProcessCrashTests {

    private static final Duration LEASE = Duration.ofSeconds(5);
    /** Retries after the kill go on at most this long. */
    private static final Duration RETRY_WINDOW = Duration.ofSeconds(30);

    private static final String BEFORE_COMMIT =
            "application JVM killed (kill -9) after its claim, the payment written but not committed (lease 5 s)";
    private static final String BEFORE_COMMIT_EXPECTED =
            "409 until the lease ends, then exactly one run on the surviving instance; one payment";
    private static final String AFTER_COMMIT =
            "application JVM killed (kill -9) after the payment committed, before the answer";
    private static final String AFTER_COMMIT_EXPECTED =
            "409 until the lease ends, then 409 result-not-stored; never run again; one payment";
    private static final String ANSWERED = "application JVM killed (kill -9) after the answer was stored";
    private static final String ANSWERED_EXPECTED = "the replay; one payment";

    @Test
    @Scenario(id = "5j", title = "JDBC store: " + BEFORE_COMMIT, expected = BEFORE_COMMIT_EXPECTED)
    @Scenario(id = "5k", title = "JDBC store: " + AFTER_COMMIT, expected = AFTER_COMMIT_EXPECTED)
    @Scenario(id = "5l", title = "JDBC store: " + ANSWERED, expected = ANSWERED_EXPECTED)
    void aKilledApplicationNeverPaysTwice(@Dedicated RedisServer redis) throws Exception {
        killAndRetry(redis, Database.POSTGRESQL, "5j", "5k", "5l");
    }

    @Test
    @Scenario(id = "5n", title = "JDBC store on MariaDB: " + BEFORE_COMMIT, expected = BEFORE_COMMIT_EXPECTED)
    @Scenario(id = "5o", title = "JDBC store on MariaDB: " + AFTER_COMMIT, expected = AFTER_COMMIT_EXPECTED)
    @Scenario(id = "5p", title = "JDBC store on MariaDB: " + ANSWERED, expected = ANSWERED_EXPECTED)
    void aKilledApplicationOnMariaDbNeverPaysTwice(@Dedicated RedisServer redis) throws Exception {
        killAndRetry(redis, Database.MARIADB, "5n", "5o", "5p");
    }

    /**
     * Kills the app on {@code database} at each point, retries on the survivor, and reports the rows
     * {@code beforeCommitRow}, {@code afterCommitRow} and {@code answeredRow}.
     */
    private static void killAndRetry(
            RedisServer redis, Database database, String beforeCommitRow, String afterCommitRow, String answeredRow)
            throws Exception {
        String beforeCommit = "before-commit-" + UUID.randomUUID();
        String afterCommit = "after-commit-" + UUID.randomUUID();
        String answered = "answered-" + UUID.randomUUID();
        Path log = Files.createTempFile("reliability-jdbc-crashing-app-", ".log");
        int port = ChildJvm.freePort();
        Process crashing = ChildJvm.start(
                JdbcCrashApp.class,
                App.arguments(
                        redis.host(), redis.port(), arguments(database, "server.port=" + port, "crash.stops=true")),
                log);
        try (ConfigurableApplicationContext survivor = new SpringApplicationBuilder(JdbcCrashApp.class)
                .run(App.arguments(redis.host(), redis.port(), arguments(database))
                        .toArray(String[]::new))) {
            Http child = new Http(port);
            assertThat(Race.await(
                            Duration.ofSeconds(90),
                            200,
                            () -> !crashing.isAlive()
                                    || child.get("/reached/none").status() != Http.NO_RESPONSE))
                    .isTrue();
            assertThat(child.get("/reached/none").status())
                    .as("the app to kill started; log:%n%s", ChildJvm.tail(log))
                    .isEqualTo(404);

            assertThat(child.post("/payments", "{}", "Idempotency-Key", answered)
                            .status())
                    .isEqualTo(201);
            CompletableFuture<Http.Response> first =
                    CompletableFuture.supplyAsync(() -> child.post("/payments", "{}", "Idempotency-Key", beforeCommit));
            CompletableFuture<Http.Response> second =
                    CompletableFuture.supplyAsync(() -> child.post("/payments", "{}", "Idempotency-Key", afterCommit));
            assertThat(Race.await(
                            Duration.ofSeconds(20),
                            20,
                            () -> child.get("/reached/" + beforeCommit).status() == 200
                                    && child.get("/reached/" + afterCommit).status() == 200))
                    .as("both calls stopped where they were told to")
                    .isTrue();

            Http http = new Http(survivor.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
            // Paid before the kill, so that the survivor's first retry is answered well within the lease.
            assertThat(http.post("/payments", "{}", "Idempotency-Key", "warm-up-" + UUID.randomUUID())
                            .status())
                    .isEqualTo(201);
            crashing.destroyForcibly(); // SIGKILL: no shutdown hook, no rollback, no release
            assertThat(crashing.waitFor(10, TimeUnit.SECONDS)).isTrue();
            long killed = System.nanoTime();
            assertThat(first.get(10, TimeUnit.SECONDS).status()).isEqualTo(Http.NO_RESPONSE);
            assertThat(second.get(10, TimeUnit.SECONDS).status()).isEqualTo(Http.NO_RESPONSE);

            ProcessCrashTests.Attempts rerun = new ProcessCrashTests.Attempts();
            ProcessCrashTests.Attempts committed = new ProcessCrashTests.Attempts();
            Http.Response lastOfCommitted = null;
            long deadline = killed + RETRY_WINDOW.toNanos();
            while (System.nanoTime() < deadline && !(rerun.succeeded() && notKept(lastOfCommitted))) {
                if (!rerun.succeeded()) {
                    rerun.add(killed, http.post("/payments", "{}", "Idempotency-Key", beforeCommit));
                }
                if (!notKept(lastOfCommitted)) {
                    lastOfCommitted = http.post("/payments", "{}", "Idempotency-Key", afterCommit);
                    committed.add(killed, lastOfCommitted);
                }
                Race.sleep(100);
            }
            Http.Response replay = http.post("/payments", "{}", "Idempotency-Key", answered);
            Http.Response rerunReplay = http.post("/payments", "{}", "Idempotency-Key", beforeCommit);
            JdbcCrashApp.Payments payments = survivor.getBean(JdbcCrashApp.Payments.class);
            JdbcCrashApp.Ledger ledger = survivor.getBean(JdbcCrashApp.Ledger.class);

            ReliabilityReport.measured(
                    beforeCommitRow,
                    "after the kill: " + rerun + "; runs on the survivor " + payments.runs(beforeCommit) + "; payments "
                            + ledger.payments(beforeCommit));
            ReliabilityReport.measured(
                    afterCommitRow,
                    "after the kill: " + committed + "; last "
                            + (lastOfCommitted == null ? "none" : lastOfCommitted.body())
                            + "; runs on the survivor " + payments.runs(afterCommit) + "; payments "
                            + ledger.payments(afterCommit));
            ReliabilityReport.measured(
                    answeredRow,
                    "retry: " + replay.status() + (replay.replayed() ? " replayed" : " not replayed") + "; payments "
                            + ledger.payments(answered));

            assertThat(rerun.first())
                    .as("right after the kill the claim still blocks")
                    .isEqualTo(409);
            assertThat(rerun.succeeded())
                    .as("the uncommitted call runs again once its lease is up")
                    .isTrue();
            assertThat(payments.runs(beforeCommit)).as("runs on the survivor").isEqualTo(1);
            assertThat(rerunReplay.replayed()).as("and is replayed after that").isTrue();
            assertThat(ledger.payments(beforeCommit))
                    .as("payments of the uncommitted call")
                    .isEqualTo(1);

            assertThat(committed.first())
                    .as("right after the kill the committed call still blocks")
                    .isEqualTo(409);
            assertThat(notKept(lastOfCommitted))
                    .as("the committed call is reported as run, its answer lost: %s", committed)
                    .isTrue();
            assertThat(payments.runs(afterCommit))
                    .as("the committed call never runs again")
                    .isZero();
            assertThat(ledger.payments(afterCommit))
                    .as("payments of the committed call")
                    .isEqualTo(1);

            assertThat(replay.status()).isEqualTo(201);
            assertThat(replay.replayed()).as("the answered call is replayed").isTrue();
            assertThat(payments.runs(answered)).isZero();
            assertThat(ledger.payments(answered))
                    .as("payments of the answered call")
                    .isEqualTo(1);
        } finally {
            crashing.destroyForcibly();
            Files.deleteIfExists(log);
        }
    }

    private static String[] arguments(Database database, String... more) {
        String[] common = {
            "idempotency.store=jdbc", "crash.jdbc-url=" + database.jdbcUrl(), "idempotency.request-id.lease=" + LEASE
        };
        String[] all = new String[common.length + more.length];
        System.arraycopy(common, 0, all, 0, common.length);
        System.arraycopy(more, 0, all, common.length, more.length);
        return all;
    }

    private static boolean notKept(Http.Response response) {
        return response != null && response.status() == 409 && response.body().contains("result-not-stored");
    }
}
