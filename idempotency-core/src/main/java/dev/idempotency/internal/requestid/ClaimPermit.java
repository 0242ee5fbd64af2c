package dev.idempotency.internal.requestid;

import dev.idempotency.CheckedSupplier;
import dev.idempotency.ClaimTakenOverException;
import dev.idempotency.IdempotencyContext;
import dev.idempotency.Strategy;
import dev.idempotency.internal.Scheduling;
import dev.idempotency.internal.TransactionJoin;
import dev.idempotency.internal.TransactionalPermit;
import dev.idempotency.internal.lease.Lease;
import dev.idempotency.internal.lease.LeaseRenewer;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.Permit;
import dev.idempotency.spi.StoreListener;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A claimed {@code REQUEST_ID} record while its work runs: renewed until the work ends, then completed with the result
 * or released. A completion that fails (a store blip right after the work) is retried in the background while the
 * claim's lease lasts, so the work is not run again by the next retry; the caller does not wait for those retries. A
 * completion that joined the work's transaction is not retried: its failure fails the commit, and the claim is then
 * released.
 */
final class ClaimPermit implements Permit, TransactionalPermit {

    private static final Logger log = LoggerFactory.getLogger(ClaimPermit.class);

    private static final Duration FIRST_RETRY = Duration.ofMillis(100);
    private static final Duration MAX_RETRY = Duration.ofSeconds(1);
    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private final RequestIdStore store;
    private final Claim claim;
    private final @Nullable Thread waiting;
    private final Duration ttl;
    private final Duration lease;
    private final Lease held;
    private final LeaseRenewer renewer;
    private final Scheduling scheduling;
    private final long maxResultSize;
    private final StoreListener listener;
    private volatile boolean inTransaction;
    private volatile boolean workCommitted;

    /**
     * @param waiting the thread that waited for the claim and may block, where the store may settle it too; {@code null}
     *     when the claim was asked for without waiting
     */
    ClaimPermit(
            RequestIdStore store,
            Claim claim,
            @Nullable Thread waiting,
            Duration ttl,
            Duration lease,
            LeaseRenewer renewer,
            Scheduling scheduling,
            long maxResultSize,
            StoreListener listener) {
        this.store = store;
        this.claim = claim;
        this.waiting = waiting;
        this.ttl = ttl;
        this.lease = lease;
        this.renewer = renewer;
        this.scheduling = scheduling;
        this.maxResultSize = maxResultSize;
        this.listener = listener;
        this.held = renewer.start(
                Strategy.REQUEST_ID,
                claim.recordKey(),
                lease,
                claim.sentAt(),
                OptionalLong.empty(),
                () -> store.renew(claim, lease),
                () -> {});
    }

    @Override
    public IdempotencyContext context() {
        return held;
    }

    @Override
    public CompletableFuture<Void> succeed(byte @Nullable [] result) {
        if (result == null) {
            return release();
        }
        if (result.length > maxResultSize) {
            log.warn(
                    "Result for {} is {} bytes, above the {} byte limit; returned but not stored, and duplicates are"
                            + " told so",
                    claim.recordKey(),
                    result.length,
                    maxResultSize);
            return succeedWithoutResult();
        }
        return store(result);
    }

    @Override
    public CompletableFuture<Void> succeedWithoutResult() {
        listener.onResultNotStored();
        return store(null);
    }

    @Override
    public boolean joinsCurrentTransaction() {
        return store.joinsCurrentTransaction();
    }

    @Override
    public void joinTransaction() {
        inTransaction = true;
    }

    @Override
    public void markCommitted() {
        if (!Futures.join(store.markCommittedInTransaction(claim, ttl))) {
            throw takenOver();
        }
    }

    /** Fails the commit of the work's transaction: another execution owns the key now and may be doing the work. */
    private ClaimTakenOverException takenOver() {
        return new ClaimTakenOverException(
                "The claim of " + claim.recordKey() + " was taken over before its transaction committed (its lease"
                        + " ran out); the transaction is rolled back so that the work is not done twice",
                RETRY_AFTER);
    }

    @Override
    public void workTransactionBegan() {
        if (store.currentTransactionKeepsSnapshot()) {
            renewer.end(held);
        }
    }

    @Override
    public void workCommitted() {
        workCommitted = true;
    }

    @Override
    public boolean isWorkCommitted() {
        return workCommitted;
    }

    @Override
    public <T, E extends Throwable> T callWithin(CheckedSupplier<T, E> work) throws E {
        if (!store.joinsTransactions()) {
            return Permit.super.callWithin(work);
        }
        return TransactionJoin.callWith(this, () -> Permit.super.callWithin(work));
    }

    private CompletableFuture<Void> store(byte @Nullable [] result) {
        if (inTransaction) {
            // Renewals would wait on the row this transaction now writes; the commit follows at once.
            renewer.end(held);
            return store.completeInTransaction(claim, result, ttl).thenAccept(stored -> {
                if (!stored) {
                    // The completion fails the commit: the work's writes must not commit beside another owner's.
                    throw takenOver();
                }
            });
        }
        CompletableFuture<Void> firstAttempt = new CompletableFuture<>();
        complete(result, System.nanoTime() + lease.toNanos(), FIRST_RETRY, firstAttempt);
        return firstAttempt;
    }

    @Override
    public void detach(Duration bound) {
        held.renewAtMostFor(bound);
    }

    @Override
    public CompletableFuture<Void> fail() {
        return release();
    }

    private void complete(
            byte @Nullable [] result, long deadline, Duration backoff, CompletableFuture<Void> firstAttempt) {
        settling().complete(claim, result, ttl).whenComplete((stored, failure) -> {
            if (failure == null) {
                renewer.end(held); // before the caller hears of it: the work's context then says the lease is over
                firstAttempt.complete(null);
                if (!stored) {
                    log.warn("Claim {} passed to another execution before its result was stored", claim.recordKey());
                }
                return;
            }
            firstAttempt.complete(null); // the caller does not wait for the retries
            Throwable cause = Futures.unwrap(failure);
            String why = cause.getMessage();
            boolean unconfirmed = cause instanceof UnconfirmedResultException;
            if (unconfirmed) {
                // The master holds the result: renewing the claim there would only report it lost. After a failover
                // the claim the new master holds lasts its lease, within which a retry stores the result there.
                renewer.end(held);
            }
            if (System.nanoTime() + backoff.toNanos() - deadline > 0) {
                renewer.end(held);
                if (unconfirmed) {
                    log.warn(
                            "The result of {} was stored, but no replica confirmed it within its lease: {}",
                            claim.recordKey(),
                            why);
                } else {
                    log.error(
                            "Could not store the result of {} within its lease; a retry runs the work again: {}",
                            claim.recordKey(),
                            why);
                }
                return;
            }
            if (backoff.equals(FIRST_RETRY)) {
                log.warn(
                        "Could not store the result of {}; retrying while its lease lasts: {}", claim.recordKey(), why);
            }
            Duration next = backoff.multipliedBy(2).compareTo(MAX_RETRY) > 0 ? MAX_RETRY : backoff.multipliedBy(2);
            scheduling.delay(backoff).thenRun(() -> complete(result, deadline, next, firstAttempt));
        });
    }

    private CompletableFuture<Void> release() {
        return settling().release(claim).handle((released, failure) -> {
            renewer.end(held);
            if (failure != null) {
                // The claim expires with its lease; the caller must see its own outcome, not this one.
                log.warn(
                        "Could not release claim {}; it expires with its lease: {}",
                        claim.recordKey(),
                        Futures.unwrap(failure).getMessage());
            }
            return null;
        });
    }

    /** The store, run on this thread if it is the one that waited for the claim: it waits for the settlement too. */
    private RequestIdStore settling() {
        return Thread.currentThread() == waiting ? store.onWaitingThread() : store;
    }
}
