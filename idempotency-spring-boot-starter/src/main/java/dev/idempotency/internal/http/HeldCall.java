package dev.idempotency.internal.http;

import dev.idempotency.Strategy;
import dev.idempotency.internal.operation.OperationSpec;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.observation.Outcome;
import dev.idempotency.spi.Permit;
import dev.idempotency.web.ReleaseOutcome;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An admitted HTTP call, held until its response is complete and then settled by that response: Spring MVC and
 * WebFlux decide alike what is stored, what is released and why.
 */
public final class HeldCall {

    private static final Logger log = LoggerFactory.getLogger(HeldCall.class);

    private final Permit permit;
    private final OperationSpec spec;
    private final InvocationObserver.Scope observation;
    private final Duration detachedRenewal;

    /** @param detachedRenewal how long the permit is still renewed once its caller went away */
    public HeldCall(Permit permit, OperationSpec spec, InvocationObserver.Scope observation, Duration detachedRenewal) {
        this.permit = permit;
        this.spec = spec;
        this.observation = observation;
        this.detachedRenewal = detachedRenewal;
    }

    public Permit permit() {
        return permit;
    }

    public OperationSpec spec() {
        return spec;
    }

    public Duration detachedRenewal() {
        return detachedRenewal;
    }

    /** The caller went away while the work runs on: see {@link Permit#detach}. */
    public void detach() {
        permit.detach(detachedRenewal);
    }

    /**
     * Stores or releases the claim, keeps or restores the token, releases the lock. Never completes exceptionally.
     *
     * @param failure what the handler threw, or {@code null}
     * @param response the response as sent; with a failure that no exception handler answered, {@code null}
     */
    public CompletableFuture<Void> settle(@Nullable Throwable failure, @Nullable SentResponse response) {
        return settle(failure, response, null);
    }

    /**
     * Settles the call as {@link #settle(Throwable, SentResponse)} does, unless its work returned and only writing the
     * answer failed ({@code deliveryFailure}: it could not be serialized, the client accepts none of its
     * representations, or the client left in the middle of it). Writing the answer is not the work: the work ran, so
     * its key completes without a result (duplicates get {@code 409 result-not-stored}, never a second run), a token
     * stays used and a lock is released.
     *
     * @param failure what the work threw, or {@code null} when it returned
     * @param deliveryFailure what went wrong writing the answer after the work returned, or {@code null}
     */
    public CompletableFuture<Void> settle(
            @Nullable Throwable failure, @Nullable SentResponse response, @Nullable Throwable deliveryFailure) {
        if (failure == null && deliveryFailure != null) {
            if (spec.strategy() != Strategy.REQUEST_ID) {
                return permit.succeed(null);
            }
            log.warn(
                    "The answer of {} could not be written after its work ran ({}); duplicates get 409"
                            + " result-not-stored",
                    spec.name(),
                    deliveryFailure.toString());
            return permit.succeedWithoutResult();
        }
        if (spec.strategy() != Strategy.REQUEST_ID) {
            return failure != null ? permit.fail() : permit.succeed(null);
        }
        int status = response == null ? 500 : response.status();
        ReleaseOutcome outcome = ReleaseOutcome.of(failure != null, status);
        if (response == null || (outcome != null && spec.releaseOn().contains(outcome))) {
            return permit.fail();
        }
        HeldBody body = response.body();
        if (body == null) {
            // The work ran: never again for this key. Duplicates are told that its response was not kept.
            log.warn(
                    "Response of {} not stored ({}); duplicates get 409 result-not-stored",
                    spec.name(),
                    response.whyNotCaptured());
            return permit.succeedWithoutResult();
        }
        return permit.succeed(StoredResponse.encode(status, response.headers(), body));
    }

    /**
     * Whether a response with {@code status} (after {@code failure}, if any) is stored rather than released, so that
     * its body is needed.
     */
    public boolean stores(@Nullable Throwable failure, int status) {
        ReleaseOutcome outcome = ReleaseOutcome.of(failure != null, status);
        return spec.strategy() == Strategy.REQUEST_ID
                && (outcome == null || !spec.releaseOn().contains(outcome));
    }

    /** Ends the observation; call on the thread that ends the call. */
    public void end(@Nullable Throwable failure) {
        observation.end(Outcome.EXECUTED, failure);
    }

    /** A response as it was sent, as far as a store needs it. */
    public interface SentResponse {

        int status();

        /** The headers a replay repeats. */
        List<StoredResponse.Header> headers();

        /** The body bytes as sent, or {@code null} when they were not captured. */
        @Nullable
        HeldBody body();

        /** Why the body was not captured, for the log. */
        String whyNotCaptured();
    }
}
