package dev.idempotency.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyContext;
import dev.idempotency.LockBusyException;
import dev.idempotency.LockLostException;
import dev.idempotency.Strategy;
import dev.idempotency.internal.lease.LeaseRenewer;
import dev.idempotency.internal.lock.LeaseLocks;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.spi.Admission;
import dev.idempotency.spi.ContextHolder;
import dev.idempotency.spi.Permit;
import dev.idempotency.spi.ProtectedCall;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.support.StoreContract;
import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.Race;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@code LOCK} contract, run against every Redis topology users run and against memory. */
@ParameterizedClass
@MethodSource("dev.idempotency.support.StoreContract#stores")
class LockContractTests extends StoreContract {

    private static final Duration LEASE = Duration.ofSeconds(30);

    private LeaseLocks locks;

    @Override
    protected void setUp() {
        locks = lockManager();
    }

    @AfterEach
    void closeLocks() {
        locks.close();
    }

    private static String newResource() {
        return "sku-" + UUID.randomUUID();
    }

    @Test
    void acquireReleaseAndAcquireAgainWithAHigherFencingToken() {
        String sku = newResource();
        long first;
        try (LockHandle handle = locks.acquire(sku, LEASE, Duration.ZERO)) {
            first = handle.fencingToken();
            assertThat(pttl(keys.lock(sku))).isBetween(1L, LEASE.toMillis());
        }
        assertThat(exists(keys.lock(sku))).isFalse();
        try (LockHandle handle = locks.acquire(sku, LEASE, Duration.ZERO)) {
            assertThat(handle.fencingToken()).isGreaterThan(first);
        }
    }

    @Test
    void fencingTokensKeepIncreasingAfterTheCounterExpired() {
        String sku = newResource();
        long first;
        try (LockHandle handle = locks.acquire(sku, LEASE, Duration.ZERO)) {
            first = handle.fencingToken();
        }
        delete(RedisKeys.fence(keys.lock(sku))); // the counter's retention ran out
        try (LockHandle handle = locks.acquire(sku, LEASE, Duration.ZERO)) {
            assertThat(handle.fencingToken()).isGreaterThan(first);
        }
    }

    @Test
    void busyLockIsRefusedToAnotherThreadWithARetryAfter() throws Exception {
        String sku = newResource();
        try (LockHandle ignored = locks.acquire(sku, LEASE, Duration.ZERO)) {
            CompletableFuture<Throwable> other = CompletableFuture.supplyAsync(() -> {
                try {
                    locks.acquire(sku, LEASE, Duration.ZERO).close();
                    return null;
                } catch (RuntimeException ex) {
                    return ex;
                }
            });
            assertThat(other.get(10, TimeUnit.SECONDS))
                    .isInstanceOfSatisfying(
                            LockBusyException.class,
                            ex -> assertThat(ex.retryAfter()).isPositive());
        }
    }

    @Test
    void holdingThreadReentersWithoutRedisAndReleasesAtTheOutermostClose() {
        String sku = newResource();
        try (LockHandle outer = locks.acquire(sku, LEASE, Duration.ZERO)) {
            try (LockHandle inner = locks.acquire(sku, LEASE, Duration.ZERO)) {
                assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());
                assertThat(locks.heldByCurrentThread(sku)).containsSame(outer);
            }
            assertThat(exists(keys.lock(sku)))
                    .as("still held after the inner close")
                    .isTrue();
        }
        assertThat(exists(keys.lock(sku))).isFalse();
    }

    @Test
    void staleHolderDoesNotRemoveTheNewHoldersLockAndLearnsOfTheLoss() throws Exception {
        String sku = newResource();
        LockHandle stale = locks.acquire(sku, LEASE, Duration.ZERO);
        delete(keys.lock(sku)); // the stale holder's lease ran out while it was paused
        CountDownLatch newHolderIn = new CountDownLatch(1);
        CountDownLatch staleReleased = new CountDownLatch(1);
        CompletableFuture<Long> newHolder = CompletableFuture.supplyAsync(() -> {
            try (LockHandle handle = locks.acquire(sku, LEASE, Duration.ZERO)) {
                newHolderIn.countDown();
                staleReleased.await(10, TimeUnit.SECONDS);
                assertThat(exists(keys.lock(sku)))
                        .as("new holder's lock survives the stale release")
                        .isTrue();
                return handle.fencingToken();
            } catch (InterruptedException ex) {
                throw new IllegalStateException(ex);
            }
        });
        assertThat(newHolderIn.await(10, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(stale::close).isInstanceOf(LockLostException.class);
        staleReleased.countDown();
        assertThat(newHolder.get(10, TimeUnit.SECONDS)).isGreaterThan(stale.fencingToken());
    }

    @Test
    void waiterIsWokenWhenTheHolderReleases() throws Exception {
        String sku = newResource();
        LockHandle holder = locks.acquire(sku, LEASE, Duration.ZERO);
        CompletableFuture<Long> waiter = CompletableFuture.supplyAsync(() -> {
            try (LockHandle handle = locks.acquire(sku, LEASE, Duration.ofSeconds(20))) {
                return handle.fencingToken();
            }
        });
        Await.until(Duration.ofSeconds(10), "the waiter to wait for the release", () -> locks.waitersFor(sku) == 1);
        assertThat(waiter).isNotDone();
        holder.close();
        assertThat(waiter.get(15, TimeUnit.SECONDS)).isGreaterThan(holder.fencingToken());
    }

    @Test
    void watchdogKeepsTheLockThroughWorkLongerThanTheLease() throws Exception {
        String sku = newResource();
        Duration shortLease = Duration.ofMillis(1500);
        String result = locks.callLocked(sku, shortLease, Duration.ZERO, () -> {
            IdempotencyContext context = IdempotencyContext.current().orElseThrow();
            assertThat(context.fencingToken())
                    .hasValue(locks.heldByCurrentThread(sku).orElseThrow().fencingToken());
            for (int i = 0; i < 9; i++) {
                Thread.sleep(500); // three leases in all
                assertThat(exists(keys.lock(sku))).as("lock still held").isTrue();
                assertThat(context.isLeaseHeld()).isTrue();
            }
            return "done";
        });
        assertThat(result).isEqualTo("done");
        assertThat(exists(keys.lock(sku))).isFalse();
    }

    @Test
    void callLockedReturnsTheResultEvenWhenTheLockWasLost() {
        String sku = newResource();
        String result = locks.callLocked(sku, LEASE, Duration.ZERO, () -> {
            delete(keys.lock(sku)); // taken over while the work ran
            return "ran";
        });
        assertThat(result).isEqualTo("ran");
    }

    @Test
    void asynchronousAdmissionsAreNotReentrantAndWaitWithoutBlocking() throws Exception {
        String sku = newResource();
        ProtectedCall call = new ProtectedCall("", "", sku, null, LEASE, LEASE, Duration.ZERO);
        Admission held = locks.admitAsync(call).get(10, TimeUnit.SECONDS);
        assertThatThrownBy(() -> join(locks.admitAsync(call))).isInstanceOf(LockBusyException.class);
        CompletableFuture<Admission> waiting =
                locks.admitAsync(new ProtectedCall("", "", sku, null, LEASE, LEASE, Duration.ofSeconds(20)));
        assertThat(waiting).isNotDone();
        ((Admission.Proceed) held).permit().succeed(null).get(10, TimeUnit.SECONDS);
        Admission next = waiting.get(15, TimeUnit.SECONDS);
        assertThat(((Admission.Proceed) next).permit().context().fencingToken().orElseThrow())
                .isGreaterThan(((Admission.Proceed) held)
                        .permit()
                        .context()
                        .fencingToken()
                        .orElseThrow());
        ((Admission.Proceed) next).permit().fail().get(10, TimeUnit.SECONDS);
        assertThat(exists(keys.lock(sku))).isFalse();
    }

    @Test
    void aLockHeldByAsynchronousWorkIsNotReenteredByTheNextCallOnTheSameThread() throws Exception {
        String sku = newResource();
        ProtectedCall call = new ProtectedCall("", "", sku, null, LEASE, LEASE, Duration.ZERO);
        // A request thread admits an async handler's call, hands the work to another thread and goes back to its pool.
        Admission first = locks.admit(call);
        // The next request on that very thread, for the same resource, is another call: busy, not a second holder.
        assertThatThrownBy(() -> locks.admit(call)).isInstanceOf(LockBusyException.class);
        assertThat(locks.heldByCurrentThread(sku)).isEmpty();
        ((Admission.Proceed) first).permit().succeed(null).get(10, TimeUnit.SECONDS);
        assertThat(exists(keys.lock(sku))).isFalse();
    }

    @Test
    void aCallNestedInTheHoldingCallReentersOnWhateverThreadItRuns() throws Exception {
        String sku = newResource();
        ProtectedCall call = new ProtectedCall("", "", sku, null, LEASE, LEASE, Duration.ZERO);
        Permit outer = ((Admission.Proceed) locks.admitAsync(call).get(10, TimeUnit.SECONDS)).permit();
        long nested = CompletableFuture.supplyAsync(() -> ContextHolder.callWith(
                        outer.context(),
                        () -> locks.callLocked(
                                sku,
                                LEASE,
                                Duration.ZERO,
                                () -> locks.heldByCurrentThread(sku)
                                        .orElseThrow()
                                        .fencingToken())))
                .get(10, TimeUnit.SECONDS);
        assertThat(nested).isEqualTo(outer.context().fencingToken().orElseThrow());
        assertThat(exists(keys.lock(sku))).as("held until the outer call ends").isTrue();
        outer.succeed(null).get(10, TimeUnit.SECONDS);
        assertThat(exists(keys.lock(sku))).isFalse();
        assertThat(outer.context().isLeaseHeld()).isFalse();
    }

    /**
     * A detached holder's work runs past {@code detached-renewal}: its lock is no longer renewed, and once its lease
     * is over it is reported lost (the work can tell, the listener counts it) while a second holder may take it.
     */
    @Test
    void aDetachedLockPastItsRenewalBoundIsReportedLostAndFreeForTheNextHolder() throws Exception {
        AtomicInteger lost = new AtomicInteger();
        LeaseRenewer counting = new LeaseRenewer(scheduling, new StoreListener() {
            @Override
            public void onLeaseLost(Strategy strategy) {
                lost.incrementAndGet();
            }
        });
        try (LeaseLocks counted = lockManager(counting)) {
            String sku = newResource();
            Duration lease = Duration.ofMillis(600);
            ProtectedCall call = new ProtectedCall("", "", sku, null, lease, lease, Duration.ZERO);
            Permit holder = ((Admission.Proceed) counted.admitAsync(call).get(10, TimeUnit.SECONDS)).permit();
            holder.detach(Duration.ofMillis(100));
            Await.until(Duration.ofSeconds(20), "the lease was reported lost", () -> lost.get() == 1);
            assertThat(holder.context().isLeaseHeld()).isFalse();
            Admission next = counted.admitAsync(call).get(10, TimeUnit.SECONDS);
            assertThat(next).as("the lock expired with its lease").isInstanceOf(Admission.Proceed.class);
            ((Admission.Proceed) next).permit().succeed(null).get(10, TimeUnit.SECONDS);
            holder.succeed(null).get(10, TimeUnit.SECONDS);
            assertThat(lost.get()).isEqualTo(1);
        } finally {
            counting.close();
        }
    }

    @Test
    void aWaiterWhoseCallerGivesUpStopsWaitingAndTakesNoLock() throws Exception {
        String sku = newResource();
        ProtectedCall call = new ProtectedCall("", "", sku, null, LEASE, LEASE, Duration.ZERO);
        Permit holder = ((Admission.Proceed) locks.admitAsync(call).get(10, TimeUnit.SECONDS)).permit();
        CompletableFuture<Admission> waiting =
                locks.admitAsync(new ProtectedCall("", "", sku, null, LEASE, LEASE, Duration.ofSeconds(30)));
        assertThat(waiting).isNotDone();
        waiting.cancel(false);
        holder.succeed(null).get(10, TimeUnit.SECONDS);
        // Had the waiter gone on, it would be woken by this release and hold the lock for nobody.
        Admission next = locks.admitAsync(call).get(10, TimeUnit.SECONDS);
        assertThat(next).isInstanceOf(Admission.Proceed.class);
        ((Admission.Proceed) next).permit().succeed(null).get(10, TimeUnit.SECONDS);
    }

    @Test
    void callLockedReleasesWhenTheWorkFails() {
        String sku = newResource();
        assertThatThrownBy(() -> locks.callLocked(sku, LEASE, Duration.ZERO, () -> {
                    throw new IllegalStateException("boom");
                }))
                .hasMessage("boom");
        assertThat(exists(keys.lock(sku))).isFalse();
    }

    @Test
    void neverTwoHoldersAtOnceUnderSixtyFourRacingThreads() throws Exception {
        int resources = 20;
        String[] skus = new String[resources];
        for (int i = 0; i < resources; i++) {
            skus[i] = newResource();
        }
        AtomicIntegerArray inside = new AtomicIntegerArray(resources);
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger acquired = new AtomicInteger();
        long[] lastFence = new long[resources];
        AtomicInteger fenceRegressions = new AtomicInteger();
        Race.run(64, resources * 64, i -> {
            int r = i % resources;
            locks.callLocked(skus[r], LEASE, Duration.ofSeconds(30), () -> {
                if (inside.incrementAndGet(r) != 1) {
                    overlaps.incrementAndGet();
                }
                long fence = locks.heldByCurrentThread(skus[r]).orElseThrow().fencingToken();
                if (fence <= lastFence[r]) {
                    fenceRegressions.incrementAndGet();
                }
                lastFence[r] = fence;
                acquired.incrementAndGet();
                inside.decrementAndGet(r);
                return null;
            });
        });
        assertThat(overlaps).hasValue(0);
        assertThat(fenceRegressions).hasValue(0);
        assertThat(acquired).hasValue(resources * 64);
        System.out.printf(
                "[race] lock: %d acquisitions on %d resources by 64 threads, overlapping holders=%d, fence regressions=%d%n",
                acquired.get(), resources, overlaps.get(), fenceRegressions.get());
    }
}
