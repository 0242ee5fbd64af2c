package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.LockBusyException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.lock.LockHandle;
import dev.idempotency.spi.Admission;
import dev.idempotency.spi.IdempotencyStrategy;
import dev.idempotency.spi.Permit;
import dev.idempotency.spi.ProtectedCall;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
                    Race.sleep(3 * LEASE.toMillis());
                    lostDuringWork[0] = handle.isLost();
                } finally {
                    working.set(false);
                }
            });
            Race.await(Duration.ofSeconds(5), 5, () -> holder.exists(holder.keys.lock("report")));
            int busy = 0;
            int acquired = 0;
            for (int i = 0; i < 200 && working.get(); i++) {
                try (LockHandle stolen = competitor.locks.acquire("report", LEASE, Duration.ZERO)) {
                    acquired += stolen.isLost() ? 0 : 1;
                } catch (LockBusyException ex) {
                    busy++;
                }
                Race.sleep(50);
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
            title = "500 locks and 500 request-id claims held in one application for 3 leases (lease 1.2 s) while every"
                    + " Redis command takes 250 ms (per-command proxy delay, 1 s command timeout)",
            expected = "renewals are asynchronous and pipelined, none waits for another: leases lost 0 of 1000, and no"
                    + " competitor gets a lock or a claim")
    void slowRedisDoesNotCostLeases(RedisServer redis) {
        ReliabilityReport.redisVersion(redis.version());
        String prefix = "slow-watchdog:" + UUID.randomUUID() + ":";
        Duration lease = Duration.ofMillis(1200);
        int count = 500;
        try (FaultProxy proxy = FaultProxy.start(redis.host(), redis.port());
                CoreStack holder = CoreStack.connect(proxy.host(), proxy.port(), Duration.ofSeconds(1), prefix);
                CoreStack competitor = CoreStack.connect(redis.host(), redis.port(), Duration.ofSeconds(1), prefix)) {
            List<Permit> locks = admitAll(holder.locks, "sku-", count, lease);
            List<Permit> claims = admitAll(holder.executor, "order-", count, lease);
            proxy.delay(Duration.ofMillis(250));
            long start = System.nanoTime();
            Race.sleep(3 * lease.toMillis()); // the work: three leases long, while Redis answers slowly
            int locksLost = lost(locks);
            int claimsLost = lost(claims);
            long heldMillis = (System.nanoTime() - start) / 1_000_000;
            int locksTaken = stolen(competitor.locks, "sku-", count, lease);
            int claimsTaken = stolen(competitor.executor, "order-", count, lease);
            proxy.pass();
            settle(locks);
            settle(claims);
            ReliabilityReport.measured(
                    "7c",
                    count + " locks and " + count + " claims held " + heldMillis + " ms with 250 ms per command:"
                            + " leases lost " + (locksLost + claimsLost) + " of " + (2 * count) + " (locks "
                            + locksLost + ", claims " + claimsLost + "); competitors got " + locksTaken + " locks and "
                            + claimsTaken + " claims");
            assertThat(locksLost + claimsLost).as("leases lost").isZero();
            assertThat(locksTaken + claimsTaken)
                    .as("competitors that got a held lock or claim")
                    .isZero();
        }
    }

    /** Admits {@code count} calls without a thread each, as asynchronous callers hold them. */
    private static List<Permit> admitAll(IdempotencyStrategy strategy, String prefix, int count, Duration lease) {
        List<CompletableFuture<Admission>> admissions = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            admissions.add(strategy.admitAsync(call(prefix + i, lease)));
        }
        return admissions.stream()
                .map(admission -> ((Admission.Proceed) admission.join()).permit())
                .toList();
    }

    private static int lost(List<Permit> permits) {
        return (int) permits.stream()
                .filter(permit -> !permit.context().isLeaseHeld())
                .count();
    }

    /** How many of the held locks or claims another application got. */
    private static int stolen(IdempotencyStrategy strategy, String prefix, int count, Duration lease) {
        int taken = 0;
        for (int i = 0; i < count; i++) {
            try {
                ((Admission.Proceed) strategy.admit(call(prefix + i, lease)))
                        .permit()
                        .fail()
                        .join();
                taken++;
            } catch (LockBusyException | RequestInProgressException expected) {
                // still held, as it should be
            }
        }
        return taken;
    }

    private static void settle(List<Permit> permits) {
        permits.forEach(permit -> permit.fail().join());
    }

    private static ProtectedCall call(String key, Duration lease) {
        return new ProtectedCall("", "watchdog", key, null, Duration.ofMinutes(5), lease, Duration.ZERO);
    }
}
