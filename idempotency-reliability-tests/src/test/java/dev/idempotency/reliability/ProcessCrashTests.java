package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.key.RedisKeys;
import dev.idempotency.testsupport.Dedicated;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RedisServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Scenarios 5 and 7 (second half): an application JVM is killed with SIGKILL while it holds a REQUEST_ID claim and a
 * lock mid-request. A second instance (this JVM) then serves the same keys.
 */
@ReliabilityTest
class ProcessCrashTests {

    private static final Duration LEASE = Duration.ofSeconds(2);
    /** Retries after the kill go on at most this long. */
    private static final Duration RETRY_WINDOW = Duration.ofSeconds(10);
    /** A retry this long after the kill must find the claim and the lock gone. */
    private static final long FREE_BY_MILLIS = LEASE.toMillis() + 500;

    @Test
    @Scenario(
            id = "5",
            title = "Application JVM killed (kill -9) after its claim, mid-request (claim lease 2 s)",
            expected = "409 until the lease ends, then exactly one re-execution on the surviving instance; replays"
                    + " after that")
    @Scenario(
            id = "7b",
            title = "Lock holder's JVM killed (kill -9) mid-work (lock lease 2 s)",
            expected = "the lock is free within one lease; the next holder gets a higher fencing token")
    void killedProcessLeavesClaimsThatExpireWithTheirLease(@Dedicated RedisServer redis) throws Exception {
        ReliabilityReport.redisVersion(redis.version());
        RedisKeys keys = new RedisKeys("idempotency:");
        String key = UUID.randomUUID().toString();
        String sku = "sku-" + key;
        String recordKey = keys.requestId("", "POST /slow", key);
        String lockKey = keys.lock(sku);
        Path log = Files.createTempFile("reliability-crashing-app-", ".log");
        int port = ChildJvm.freePort();
        Process crashing = ChildJvm.start(
                ReliabilityApp.class,
                App.arguments(redis.host(), redis.port(), "server.port=" + port, "reliability.block=true"),
                log);
        try (App survivor = App.start(redis.host(), redis.port());
                RedisAdmin admin = new RedisAdmin(redis.host(), redis.port())) {
            Http child = new Http(port);
            assertThat(Race.await(
                            Duration.ofSeconds(90),
                            200,
                            () -> !crashing.isAlive() || child.get("/ping").status() == 200))
                    .isTrue();
            assertThat(crashing.isAlive())
                    .as("the app to kill started; log:%n%s", ChildJvm.tail(log))
                    .isTrue();

            CompletableFuture<Http.Response> slow =
                    CompletableFuture.supplyAsync(() -> child.post("/slow", "{}", "Idempotency-Key", key));
            CompletableFuture<Http.Response> stock =
                    CompletableFuture.supplyAsync(() -> child.post("/stock/" + sku, "{}"));
            assertThat(Race.await(Duration.ofSeconds(10), 20, () -> admin.exists(recordKey) && admin.exists(lockKey)))
                    .as("the app to kill holds the claim and the lock")
                    .isTrue();
            Race.sleep(LEASE.toMillis() + 500);
            boolean renewedWhileAlive = admin.exists(recordKey) && admin.exists(lockKey);
            long fenceBefore = Long.parseLong(admin.get(RedisKeys.fence(lockKey)));

            crashing.destroyForcibly(); // SIGKILL: no shutdown hook, no release
            assertThat(crashing.waitFor(10, TimeUnit.SECONDS)).isTrue();
            long killed = System.nanoTime();
            assertThat(slow.get(10, TimeUnit.SECONDS).status()).isEqualTo(Http.NO_RESPONSE);
            assertThat(stock.get(10, TimeUnit.SECONDS).status()).isEqualTo(Http.NO_RESPONSE);

            Attempts claim = new Attempts();
            Attempts lock = new Attempts();
            long deadline = killed + RETRY_WINDOW.toNanos();
            while (System.nanoTime() < deadline && !(claim.succeeded() && lock.succeeded())) {
                if (!claim.succeeded()) {
                    claim.add(killed, survivor.http().post("/slow", "{}", "Idempotency-Key", key));
                }
                if (!lock.succeeded()) {
                    lock.add(killed, survivor.http().post("/stock/" + sku, "{}"));
                }
                Race.sleep(100);
            }
            Http.Response replay = survivor.http().post("/slow", "{}", "Idempotency-Key", key);
            int reExecutions = survivor.endpoints().executions("slow", key);
            long fenceAfter = Long.parseLong(admin.get(RedisKeys.fence(lockKey)));

            ReliabilityReport.measured(
                    "5",
                    "claim renewed while the JVM lived: " + renewedWhileAlive + "; after the kill: " + claim
                            + "; re-executions " + reExecutions + "; next duplicate: " + replay.status()
                            + (replay.replayed() ? " replayed" : " not replayed"));
            ReliabilityReport.measured(
                    "7b",
                    "lock renewed while the JVM lived: " + renewedWhileAlive + "; after the kill: " + lock
                            + "; fencing token " + fenceBefore + " -> " + fenceAfter);
            assertThat(renewedWhileAlive)
                    .as("the claim and lock outlive their lease while renewed")
                    .isTrue();
            assertThat(claim.first())
                    .as("right after the kill the claim still blocks")
                    .isEqualTo(409);
            assertThat(claim.succeeded()).as("the claim expires").isTrue();
            assertThat(claim.blockedAfter(FREE_BY_MILLIS))
                    .as("409s later than one lease after the kill")
                    .isZero();
            assertThat(reExecutions)
                    .as("re-executions on the surviving instance")
                    .isEqualTo(1);
            assertThat(replay.replayed())
                    .as("the next duplicate gets the replay")
                    .isTrue();
            assertThat(lock.first())
                    .as("right after the kill the lock is still held")
                    .isEqualTo(409);
            assertThat(lock.succeeded()).as("the lock is freed").isTrue();
            assertThat(lock.blockedAfter(FREE_BY_MILLIS))
                    .as("409s later than one lease after the kill")
                    .isZero();
            assertThat(fenceAfter).as("fencing token").isGreaterThan(fenceBefore);
        } finally {
            crashing.destroyForcibly();
            Files.deleteIfExists(log);
        }
    }

    /** Statuses of the retries after the kill, with when they were answered. */
    static final class Attempts {

        private final List<Integer> statuses = new ArrayList<>();
        private final List<Long> millisAfterKill = new ArrayList<>();

        void add(long killed, Http.Response response) {
            statuses.add(response.status());
            millisAfterKill.add((System.nanoTime() - killed) / 1_000_000);
        }

        boolean succeeded() {
            return !statuses.isEmpty() && statuses.get(statuses.size() - 1) / 100 == 2;
        }

        int first() {
            return statuses.isEmpty() ? 0 : statuses.get(0);
        }

        long blockedAfter(long millis) {
            long count = 0;
            for (int i = 0; i < statuses.size(); i++) {
                if (statuses.get(i) == 409 && millisAfterKill.get(i) > millis) {
                    count++;
                }
            }
            return count;
        }

        @Override
        public String toString() {
            long blocked = statuses.stream().filter(status -> status == 409).count();
            int last = statuses.size() - 1;
            return blocked + " x 409, then " + (last < 0 ? "nothing" : statuses.get(last)) + " at "
                    + (last < 0 ? "-" : millisAfterKill.get(last)) + " ms after the kill";
        }
    }
}
