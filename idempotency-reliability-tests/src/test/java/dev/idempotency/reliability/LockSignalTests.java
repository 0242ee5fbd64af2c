package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.lock.LockHandle;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RedisServer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Scenario 15: the release signals that wake lock waiters. Every release anywhere in the fleet publishes a message to
 * every subscribed instance; handling one must cost no thread.
 */
@ReliabilityTest
class LockSignalTests {

    private static final Duration LEASE = Duration.ofSeconds(30);

    @Test
    @Scenario(
            id = "15a",
            title = "10,000 lock releases by one instance while another has its release subscription open",
            expected = "messages are handled on Lettuce's I/O thread: the threads the JVM started stay constant"
                    + " (at most 10 over the run, not one per message)")
    void releasesStartNoThreadPerMessage(RedisServer redis) throws Exception {
        ReliabilityReport.redisVersion(redis.version());
        String prefix = "signals:" + UUID.randomUUID() + ":";
        ExecutorService waiterThread = Executors.newSingleThreadExecutor();
        try (CoreStack waiter = CoreStack.connect(redis.host(), redis.port(), Duration.ofSeconds(2), prefix);
                CoreStack releaser = CoreStack.connect(redis.host(), redis.port(), Duration.ofSeconds(2), prefix)) {
            waitThroughARelease(waiter, releaser, waiterThread, redis, "warm-up"); // opens the waiter's subscription
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long startedBefore = threads.getTotalStartedThreadCount();
            for (int i = 0; i < 10_000; i++) {
                try (LockHandle lock = releaser.locks.acquire("sku-" + (i % 64), LEASE, Duration.ZERO)) {
                    lock.fencingToken();
                }
            }
            long started = threads.getTotalStartedThreadCount() - startedBefore;
            ReliabilityReport.measured(
                    "15a",
                    "threads started during 10,000 releases: " + started + " (live threads now "
                            + threads.getThreadCount() + ")");
            assertThat(started).as("threads started during 10,000 releases").isLessThanOrEqualTo(10);
        } finally {
            waiterThread.shutdownNow();
        }
    }

    /** The waiter waits for a lock the releaser holds, and gets it when the releaser lets go. */
    private static void waitThroughARelease(
            CoreStack waiter, CoreStack releaser, ExecutorService waiterThread, RedisServer redis, String resource)
            throws Exception {
        LockHandle held = releaser.locks.acquire(resource, LEASE, Duration.ZERO);
        CompletableFuture<Long> waiting = CompletableFuture.supplyAsync(
                () -> {
                    try (LockHandle lock = waiter.locks.acquire(resource, LEASE, Duration.ofSeconds(30))) {
                        return lock.fencingToken();
                    }
                },
                waiterThread);
        String channel = waiter.keys.lock("") + ":released";
        try (RedisAdmin admin = new RedisAdmin(redis.host(), redis.port())) {
            assertThat(Race.await(Duration.ofSeconds(10), 10, () -> subscribers(admin, channel) > 0))
                    .as("the waiter subscribed to release messages")
                    .isTrue();
        }
        held.close();
        assertThat(waiting.get(30, TimeUnit.SECONDS)).isGreaterThan(held.fencingToken());
    }

    private static long subscribers(RedisAdmin admin, String channel) {
        return admin.call(commands -> commands.pubsubNumsub(channel)).getOrDefault(channel, 0L);
    }
}
