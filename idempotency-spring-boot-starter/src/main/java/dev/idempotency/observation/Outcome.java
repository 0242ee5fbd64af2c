package dev.idempotency.observation;

import dev.idempotency.AnonymousCallerException;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.InvalidIdempotencyKeyException;
import dev.idempotency.InvalidTokenException;
import dev.idempotency.LockBusyException;
import dev.idempotency.MissingIdempotencyKeyException;
import dev.idempotency.MissingTenantException;
import dev.idempotency.PayloadMismatchException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.ResultNotStoredException;
import dev.idempotency.TokenAlreadyUsedException;
import java.util.Locale;
import java.util.concurrent.CancellationException;

/** How one protected call ended, as metrics and traces tag it. */
public enum Outcome {
    /** The method ran under protection (first request, valid token, lock acquired), whether it returned or threw. */
    EXECUTED,
    /** A duplicate got the stored result; the method did not run. */
    REPLAYED,
    /** A request with the same key was still running ({@link RequestInProgressException}). */
    IN_PROGRESS,
    /** The key was used before with a different payload ({@link PayloadMismatchException}). */
    MISMATCH,
    /** The request carried no key ({@link MissingIdempotencyKeyException}). */
    MISSING_KEY,
    /** The key was malformed ({@link InvalidIdempotencyKeyException}). */
    INVALID_KEY,
    /** The token had been consumed already ({@link TokenAlreadyUsedException}). */
    TOKEN_USED,
    /** The token was missing, unknown, expired or someone else's ({@link InvalidTokenException}). */
    TOKEN_INVALID,
    /** Someone else held the lock ({@link LockBusyException}). */
    LOCK_BUSY,
    /** A duplicate of a call that ran but whose result was not kept ({@link ResultNotStoredException}). */
    NOT_STORED,
    /** The caller went away before its call was admitted; the method did not run. */
    ABANDONED,
    /** The caller was anonymous and {@code idempotency.anonymous: reject} refused it. */
    ANONYMOUS,
    /** The caller was authenticated but named no tenant ({@link MissingTenantException}). */
    TENANT_MISSING,
    /** Redis failed and the policy said reject ({@link IdempotencyStoreUnavailableException}). */
    STORE_UNAVAILABLE,
    /** Redis failed and the policy said proceed: the method ran without protection. */
    UNPROTECTED,
    /** The call carried no key and {@code missing-key: proceed} let the method run without protection. */
    NO_KEY,
    /** The call failed before the method ran for a reason of its own (e.g. a key expression that threw). */
    ERROR;

    private final String tag = name().toLowerCase(Locale.ROOT);

    /** The value of the {@code outcome} tag. */
    public String tag() {
        return tag;
    }

    /** The outcome of a call that threw {@code failure} before its method ran. */
    public static Outcome ofRejection(Throwable failure) {
        if (failure instanceof RequestInProgressException) return IN_PROGRESS;
        if (failure instanceof PayloadMismatchException) return MISMATCH;
        if (failure instanceof MissingIdempotencyKeyException) return MISSING_KEY;
        if (failure instanceof InvalidIdempotencyKeyException) return INVALID_KEY;
        if (failure instanceof TokenAlreadyUsedException) return TOKEN_USED;
        if (failure instanceof InvalidTokenException) return TOKEN_INVALID;
        if (failure instanceof LockBusyException) return LOCK_BUSY;
        if (failure instanceof ResultNotStoredException) return NOT_STORED;
        if (failure instanceof CancellationException) return ABANDONED;
        if (failure instanceof AnonymousCallerException) return ANONYMOUS;
        if (failure instanceof MissingTenantException) return TENANT_MISSING;
        if (failure instanceof IdempotencyStoreUnavailableException) return STORE_UNAVAILABLE;
        return ERROR;
    }
}
