package dev.idempotency.internal;

import dev.idempotency.CheckedSupplier;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.Strategy;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.spi.Admission;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.IdempotencyStrategy;
import dev.idempotency.spi.Permit;
import dev.idempotency.spi.ProtectedCall;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs blocking work under a strategy on the calling thread: admit, then replay or run the work with its
 * {@link dev.idempotency.IdempotencyContext} bound, then settle the permit, or, inside a Spring-managed transaction,
 * have the transaction's end settle it ({@link TransactionCompletion}). The programmatic APIs and the AOP interceptor
 * both run synchronous work through here.
 */
public final class StrategyRunner {

    private static final Logger log = LoggerFactory.getLogger(StrategyRunner.class);

    /** A stored result that cannot be decoded is discarded once; a second one in a row is a real error. */
    private static final int MAX_ADMISSIONS = 2;

    /** Suggested to a caller whose permit came after its lease: by then its claim or lock was given back. */
    private static final Duration RETRY_AFTER_LAPSED = Duration.ofSeconds(1);

    private StrategyRunner() {}

    /** Runs {@code work} under {@code strategy}; see {@link #run(Supplier, CheckedSupplier, ResultCodec)}. */
    public static <T, E extends Throwable> T run(
            IdempotencyStrategy strategy, ProtectedCall call, CheckedSupplier<T, E> work, ResultCodec<T> codec)
            throws E {
        return run(() -> strategy.admit(call), work, codec);
    }

    /**
     * Admits the call, then returns the replayed result or runs {@code work}; see {@link #admit}.
     *
     * @throws E whatever the work throws, after the permit was settled as failed
     */
    public static <T, E extends Throwable> T run(
            Supplier<Admission> admission, CheckedSupplier<T, E> work, ResultCodec<T> codec) throws E {
        Admitted<T> admitted = admit(admission, codec::decode);
        if (admitted.isReplay()) {
            return admitted.replayed();
        }
        Permit permit = admitted.permit();
        T result;
        try {
            result = permit.callWithin(work);
        } catch (Throwable failure) {
            Futures.join(permit.fail());
            throw failure;
        }
        if (!TransactionCompletion.deferred(permit, codec, result)) {
            Futures.join(succeed(permit, codec, result));
        }
        return result;
    }

    /**
     * Admits a call and decodes a replay with {@code decode}. A stored result that cannot be decoded is handed to the
     * replay's {@code discard}: it fails the call ({@link dev.idempotency.UndecodableResultException}), or discards
     * the result and the call is admitted again, so that it runs.
     */
    public static <T> Admitted<T> admit(Supplier<Admission> admission, Function<byte[], T> decode) {
        // Not a join of admitAsync: a second, blocking admission must not run on the thread that completes a discard.
        for (int attempt = 1; ; attempt++) {
            Admission admitted = admission.get();
            if (admitted instanceof Admission.Proceed proceed) {
                Permit permit = proceed.permit();
                if (!permit.context().isLeaseHeld()) {
                    Futures.join(permit.fail());
                    throw lapsed(permit);
                }
                return new Admitted<>(permit, null);
            }
            Admission.Replay replay = (Admission.Replay) admitted;
            try {
                return new Admitted<>(null, decode.apply(replay.result()));
            } catch (RuntimeException undecodable) {
                if (attempt == MAX_ADMISSIONS) {
                    throw undecodable;
                }
                Futures.join(replay.discard().get());
            }
        }
    }

    /**
     * The non-blocking form of {@link #admit}: completes when Redis answered, with a decoded replay or the permit.
     * Completes exceptionally as the admission does, or when a second stored result in a row cannot be decoded.
     * Cancelling the returned future stops a wait for a running duplicate or a busy lock, and a permit granted after
     * that is settled as failed at once (claim released, token restored, lock released): nobody runs its work.
     */
    public static <T> CompletableFuture<Admitted<T>> admitAsync(
            Supplier<CompletableFuture<Admission>> admission, Function<byte[], T> decode) {
        CompletableFuture<Admitted<T>> admitted = new CompletableFuture<>();
        admitAsync(admission, decode, 1, admitted);
        return admitted;
    }

    private static <T> void admitAsync(
            Supplier<CompletableFuture<Admission>> admission,
            Function<byte[], T> decode,
            int attempt,
            CompletableFuture<Admitted<T>> admitted) {
        CompletableFuture<Admission> source = admission.get();
        source.whenComplete((answer, failure) -> {
            if (failure != null) {
                admitted.completeExceptionally(Futures.unwrap(failure));
            } else if (answer instanceof Admission.Proceed proceed) {
                Permit permit = proceed.permit();
                if (!permit.context().isLeaseHeld()) {
                    permit.fail();
                    admitted.completeExceptionally(lapsed(permit));
                } else if (!admitted.complete(new Admitted<>(permit, null))) {
                    permit.fail(); // the caller gave up while Redis answered: nobody runs the work
                }
            } else {
                replayOrRetry((Admission.Replay) answer, admission, decode, attempt, admitted);
            }
        });
        admitted.whenComplete((done, failure) -> {
            if (admitted.isCancelled()) {
                source.cancel(false);
            }
        });
    }

    /**
     * Why a permit that came after its lease ran out does not run its work: the store's answer arrived more than a lease
     * after the claim or lock was sent (a reply held up on the network, a pause of this JVM), so the key may be another
     * caller's by now. The permit was settled as failed (a claim or lock still this owner's is given back, by owner),
     * so the caller is told to retry, as when the store cannot be reached. A {@code TOKEN} holds no lease.
     */
    public static IdempotencyStoreUnavailableException lapsed(Permit permit) {
        Strategy strategy = permit.context().strategy();
        String what = strategy == Strategy.LOCK ? "lock" : strategy + " claim";
        log.warn(
                "The store confirmed a {} after its lease had run out; the work did not run, answered as store"
                        + " unavailable",
                what);
        return new IdempotencyStoreUnavailableException(
                "The store confirmed the " + what + " after its lease had run out, so another caller may hold it"
                        + " now; the work did not run",
                RETRY_AFTER_LAPSED);
    }

    private static <T> void replayOrRetry(
            Admission.Replay replay,
            Supplier<CompletableFuture<Admission>> admission,
            Function<byte[], T> decode,
            int attempt,
            CompletableFuture<Admitted<T>> admitted) {
        try {
            admitted.complete(new Admitted<>(null, decode.apply(replay.result())));
        } catch (RuntimeException undecodable) {
            if (attempt == MAX_ADMISSIONS) {
                admitted.completeExceptionally(undecodable);
            } else {
                replay.discard().get().whenComplete((discarded, failure) -> {
                    if (failure != null) {
                        admitted.completeExceptionally(Futures.unwrap(failure));
                    } else if (!admitted.isDone()) {
                        admitAsync(admission, decode, attempt + 1, admitted);
                    }
                });
            }
        }
    }

    /**
     * An admitted call: either a decoded replay, or the permit to run the work.
     *
     * @param permit the permit when the work is to run, else {@code null}
     * @param replayed the decoded replay when the work is not to run
     */
    public record Admitted<T>(
            @Nullable Permit permit, @Nullable T replayed) {

        /** Whether this is a replay (the work does not run). */
        public boolean isReplay() {
            return permit == null;
        }

        @Override
        @SuppressWarnings("NullAway")
        public Permit permit() {
            if (permit == null) {
                throw new IllegalStateException("a replay holds no permit");
            }
            return permit;
        }
    }

    /**
     * Settles a call whose work succeeded with {@code result}: stores it; releases the key when the codec keeps nothing
     * of it ({@link ResultCodec#shouldStore}); completes the key without a result when it cannot be encoded, since the
     * work has run: its caller gets the result, and duplicates are told it was not kept rather than run it again.
     */
    public static <T> CompletableFuture<Void> succeed(Permit permit, ResultCodec<T> codec, T result) {
        byte[] encoded;
        try {
            if (!codec.shouldStore(result)) {
                return permit.succeed(null);
            }
            encoded = codec.encode(result);
        } catch (RuntimeException ex) {
            log.error(
                    "Could not encode a result for storage; it is returned, and duplicates are told it was not kept",
                    ex);
            return permit.succeedWithoutResult();
        }
        return permit.succeed(encoded);
    }
}
