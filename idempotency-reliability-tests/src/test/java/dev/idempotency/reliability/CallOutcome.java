package dev.idempotency.reliability;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.InvalidTokenException;
import dev.idempotency.LockBusyException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.TokenAlreadyUsedException;
import java.time.Duration;
import java.util.function.Supplier;

/** How a call through the programmatic API ended, as the scenarios count it: its HTTP answer, in short. */
final class CallOutcome {

    /** How long {@link #confirmed} keeps retrying a call that replicas did not confirm in time. */
    private static final Duration CONFIRMATION_DEADLINE = Duration.ofSeconds(20);

    private CallOutcome() {}

    /**
     * {@link #of} a call that should be confirmed, retried while it is answered 503, as a client retries: on a loaded
     * machine a replica may miss a short {@code WAIT} timeout now and then, and an unconfirmed write is undone, so the
     * retry is a fresh attempt. Still 503 after 20 s is what is returned.
     */
    static String confirmed(Supplier<?> call) {
        long deadline = System.nanoTime() + CONFIRMATION_DEADLINE.toNanos();
        String outcome = of(call);
        while (outcome.equals("503") && System.nanoTime() - deadline < 0) {
            outcome = of(call);
        }
        return outcome;
    }

    /** "ok", "503", "409 in progress", "409 busy", "409 used", "400 token invalid" or "unexpected ...". */
    static String of(Supplier<?> call) {
        try {
            call.get();
            return "ok";
        } catch (IdempotencyStoreUnavailableException ex) {
            return "503";
        } catch (RequestInProgressException ex) {
            return "409 in progress";
        } catch (LockBusyException ex) {
            return "409 busy";
        } catch (TokenAlreadyUsedException ex) {
            return "409 used";
        } catch (InvalidTokenException ex) {
            return "400 token invalid";
        } catch (RuntimeException ex) {
            return "unexpected " + ex;
        }
    }
}
