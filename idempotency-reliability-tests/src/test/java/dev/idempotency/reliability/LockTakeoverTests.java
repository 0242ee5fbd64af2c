package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.idempotency.LockBusyException;
import dev.idempotency.LockLostException;
import dev.idempotency.internal.lease.LeaseRenewer;
import dev.idempotency.lock.LockHandle;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Scenario 6: the lock holder's process keeps working but its connection stalls (the fault proxy holds every byte) for
 * longer than the lease, so its watchdog cannot renew; the lock expires and someone else takes it.
 */
@ReliabilityTest
class LockTakeoverTests {

    private static final Duration LEASE = Duration.ofSeconds(1);

    @Test
    @Scenario(
            id = "6",
            title = "Lock holder stalled (its connection paused by the proxy) longer than its 1 s lease",
            expected = "the next holder gets a higher fencing token; the stale holder's release does not remove the"
                    + " new lock; the loss is reported (LockLostException + WARN log)")
    void stalledHolderLosesItsLockToAHigherFencingToken(RedisServer redis) {
        ReliabilityReport.redisVersion(redis.version());
        String prefix = "takeover:" + UUID.randomUUID() + ":";
        String resource = "account-1";
        try (FaultProxy proxy = FaultProxy.start(redis.host(), redis.port());
                CoreStack stalled = CoreStack.connect(proxy.host(), proxy.port(), Duration.ofMillis(300), prefix);
                CoreStack next = CoreStack.connect(redis.host(), redis.port(), Duration.ofMillis(500), prefix);
                RedisAdmin admin = new RedisAdmin(redis.host(), redis.port());
                LogCapture log =
                        new LogCapture(LeaseRenewer.class.getName(), "dev.idempotency.internal.lock.RedisLockHandle")) {
            String lockKey = stalled.keys.lock(resource);
            LockHandle stale = stalled.locks.acquire(resource, LEASE, Duration.ZERO);

            proxy.pause();
            boolean expired = Race.await(Duration.ofSeconds(10), 20, () -> !admin.exists(lockKey));
            LockHandle fresh = next.locks.acquire(resource, LEASE, Duration.ZERO);
            proxy.pass();

            boolean lossNoticed = Race.await(Duration.ofSeconds(10), 20, stale::isLost);
            Throwable staleRelease = catchThrowable(stale::close);
            boolean freshStillHeld = admin.exists(lockKey) && !fresh.isLost();
            Throwable third = catchThrowable(() -> stalled.locks.acquire(resource, LEASE, Duration.ZERO));
            Throwable freshRelease = catchThrowable(fresh::close);
            List<String> warnings = log.warnings();

            ReliabilityReport.measured(
                    "6",
                    "lease expired while stalled: " + expired + "; fencing token stale " + stale.fencingToken()
                            + " -> next " + fresh.fencingToken() + "; stale holder's watchdog noticed the loss: "
                            + lossNoticed + "; stale release threw " + name(staleRelease)
                            + "; new lock intact after it: " + freshStillHeld + " (a third caller got "
                            + name(third) + "); new holder released cleanly: " + (freshRelease == null)
                            + "; WARN logs: " + warnings);
            assertThat(expired).as("the stalled holder's lease ran out").isTrue();
            assertThat(fresh.fencingToken()).as("fencing token").isGreaterThan(stale.fencingToken());
            assertThat(lossNoticed)
                    .as("the watchdog marks the stale handle lost")
                    .isTrue();
            assertThat(staleRelease).as("stale release").isInstanceOf(LockLostException.class);
            assertThat(freshStillHeld)
                    .as("the new holder's lock survives the stale release")
                    .isTrue();
            assertThat(third).as("a third caller").isInstanceOf(LockBusyException.class);
            assertThat(freshRelease).as("the new holder releases normally").isNull();
            assertThat(warnings)
                    .as("WARN logs")
                    .anyMatch(line -> line.contains("expired while held"))
                    .anyMatch(line -> line.contains("lost before its release"));
        }
    }

    private static String name(Throwable thrown) {
        return thrown == null ? "nothing" : thrown.getClass().getSimpleName();
    }
}
