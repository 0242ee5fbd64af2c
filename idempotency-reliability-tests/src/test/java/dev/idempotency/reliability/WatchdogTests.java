package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.LockBusyException;
import dev.idempotency.LockLostException;
import dev.idempotency.lock.LockHandle;
import dev.idempotency.testsupport.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Scenario 7 (the killed holder is in {@link ProcessCrashTests}): the watchdog keeps locks alive through work longer than
 * their lease, also when Redis is slow.
 */
@ReliabilityTest
class WatchdogTests {

    private static final Duration LEASE = Duration.ofSeconds(1);

    @Test
    @Scenario(
            id = "7a",
            title = "Work lasting 3x the lock lease (lease 1 s, work 3 s), a competitor retrying every 50 ms",
            expected = "the holder keeps the lock throughout (competitor acquisitions 0), is never marked lost and"
                    + " releases cleanly; the competitor gets the lock right after")
    void watchdogKeepsTheLockThroughLongWork(RedisServer redis) throws Exception {
        ReliabilityReport.redisVersion(redis.version());
        String prefix = "watchdog:" + UUID.randomUUID() + ":";
        try (CoreStack holder = CoreStack.connect(redis.host(), redis.port(), Duration.ofMillis(500), prefix);
                CoreStack competitor = CoreStack.connect(redis.host(), redis.port(), Duration.ofMillis(500), prefix)) {
            AtomicBoolean working = new AtomicBoolean(true);
            boolean[] lostDuringWork = {false};
            CompletableFuture<Void> work = CompletableFuture.runAsync(() -> {
                try (LockHandle handle = holder.locks.acquire("report", LEASE, Duration.ZERO)) {
                    Load.sleep(3 * LEASE.toMillis());
                    lostDuringWork[0] = handle.isLost();
                } finally {
                    working.set(false);
                }
            });
            Load.await(Duration.ofSeconds(5), 5, () -> holder.exists(holder.keys.lock("report")));
            int busy = 0;
            int acquired = 0;
            for (int i = 0; i < 200 && working.get(); i++) {
                try (LockHandle stolen = competitor.locks.acquire("report", LEASE, Duration.ZERO)) {
                    acquired += stolen.isLost() ? 0 : 1;
                } catch (LockBusyException ex) {
                    busy++;
                }
                Load.sleep(50);
            }
            Throwable workFailure = null;
            try {
                work.get(10, TimeUnit.SECONDS);
            } catch (Exception ex) {
                workFailure = ex.getCause() == null ? ex : ex.getCause();
            }
            boolean afterwards;
            try (LockHandle next = competitor.locks.acquire("report", LEASE, Duration.ZERO)) {
                afterwards = next.fencingToken() > 0;
            }
            ReliabilityReport.measured(
                    "7a",
                    "competitor attempts during the work: " + busy + " busy, " + acquired + " acquired; holder lost: "
                            + lostDuringWork[0] + "; holder's release: "
                            + (workFailure == null ? "clean" : workFailure.toString()) + "; competitor afterwards: "
                            + (afterwards ? "acquired" : "refused"));
            assertThat(busy).as("competitor attempts refused during the work").isGreaterThan(0);
            assertThat(acquired).as("competitor acquisitions during the work").isZero();
            assertThat(lostDuringWork[0]).as("holder marked lost").isFalse();
            assertThat(workFailure).as("holder's release").isNull();
            assertThat(afterwards).isTrue();
        }
    }

    @Test
    @Scenario(
            id = "7c",
            title = "Locks held through work of 3x the lease (lease 1.2 s) while every Redis command takes 250 ms"
                    + " (proxy delay, under the 1 s command timeout): 1 lock; 8 locks in one application; 8 locks"
                    + " in 8 applications",
            expected = "each renewal answers well within the lease, so every holder keeps its lock: lost 0 and no"
                    + " competitor gets in, however many locks one application holds")
    void slowRedisDoesNotCostLeases(RedisServer redis) throws Exception {
        ReliabilityReport.redisVersion(redis.version());
        String prefix = "slow-watchdog:" + UUID.randomUUID() + ":";
        Duration lease = Duration.ofMillis(1200);
        Duration timeout = Duration.ofSeconds(1);
        List<CoreStack> separate = new ArrayList<>();
        try (FaultProxy proxy = FaultProxy.start(redis.host(), redis.port());
                CoreStack holders = CoreStack.connect(proxy.host(), proxy.port(), timeout, prefix);
                CoreStack competitor = CoreStack.connect(redis.host(), redis.port(), Duration.ofMillis(500), prefix)) {
            for (int i = 0; i < 8; i++) {
                separate.add(CoreStack.connect(proxy.host(), proxy.port(), timeout, prefix));
            }
            int[] one = holdLocks(proxy, i -> holders, competitor, "one", 1, lease);
            int[] shared = holdLocks(proxy, i -> holders, competitor, "shared", 8, lease);
            int[] own = holdLocks(proxy, separate::get, competitor, "own", 8, lease);
            ReliabilityReport.measured(
                    "7c",
                    "1 lock: lost " + one[0] + ", competitor got in " + one[1] + "; 8 locks in one application"
                            + " (one LeaseRenewer): lost " + shared[0] + " of 8, competitor got in " + shared[1]
                            + " of 8; 8 locks in 8 applications (a LeaseRenewer each): lost " + own[0]
                            + " of 8, competitor got in " + own[1] + " of 8");
            assertThat(one[0]).as("a single lock survives the latency").isZero();
            assertThat(own[0])
                    .as("8 locks with a LeaseRenewer each survive the latency")
                    .isZero();
            assertThat(shared[0])
                    .as("DEFECT if not 0: one application's renewals queue behind each other and leases run out")
                    .isZero();
            assertThat(shared[1]).as("competitors that got a held lock").isZero();
        } finally {
            separate.forEach(CoreStack::close);
        }
    }

    /** Holds {@code count} locks for 3 leases with a slow Redis; returns {lost, competitor acquisitions}. */
    private static int[] holdLocks(
            FaultProxy proxy,
            IntFunction<CoreStack> holders,
            CoreStack competitor,
            String name,
            int count,
            Duration lease)
            throws Exception {
        AtomicInteger lost = new AtomicInteger();
        AtomicInteger stolen = new AtomicInteger();
        CountDownLatch acquired = new CountDownLatch(count);
        CountDownLatch slow = new CountDownLatch(1);
        Load.run(count + 1, count + 1, Duration.ofSeconds(60), i -> {
            if (i == count) { // the conductor: slows Redis down once all locks are held, then tries to steal them
                acquired.await(10, TimeUnit.SECONDS);
                proxy.delay(Duration.ofMillis(250));
                slow.countDown();
                Load.sleep(2 * lease.toMillis());
                for (int r = 0; r < count; r++) {
                    try (LockHandle stolenLock = competitor.locks.acquire(name + "-" + r, lease, Duration.ZERO)) {
                        stolen.incrementAndGet();
                    } catch (LockBusyException ex) {
                        // still held, as it should be
                    }
                }
                return;
            }
            LockHandle handle = holders.apply(i).locks.acquire(name + "-" + i, lease, Duration.ZERO);
            acquired.countDown();
            slow.await(10, TimeUnit.SECONDS);
            Load.sleep(3 * lease.toMillis());
            boolean wasLost = handle.isLost();
            try {
                handle.close();
            } catch (LockLostException ex) {
                wasLost = true;
            }
            if (wasLost) {
                lost.incrementAndGet();
            }
        });
        proxy.pass();
        return new int[] {lost.get(), stolen.get()};
    }
}
