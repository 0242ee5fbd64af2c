package dev.idempotency.internal.http;

import dev.idempotency.AnonymousCallerException;
import dev.idempotency.IdempotencyException;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.InvalidIdempotencyKeyException;
import dev.idempotency.InvalidTokenException;
import dev.idempotency.LockBusyException;
import dev.idempotency.LockLostException;
import dev.idempotency.MissingIdempotencyKeyException;
import dev.idempotency.MissingTenantException;
import dev.idempotency.PayloadMismatchException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.ResultNotStoredException;
import dev.idempotency.RetryableIdempotencyException;
import dev.idempotency.TokenAlreadyUsedException;
import dev.idempotency.TokenLimitExceededException;
import dev.idempotency.UnknownOperationException;
import dev.idempotency.web.StreamNotReplayableException;
import java.net.URI;
import java.util.OptionalLong;

/**
 * The HTTP contract for every idempotency outcome: status, RFC 9457 problem type and title, the detail shown to
 * clients, and {@code Retry-After} where a later attempt may succeed. Spring MVC and WebFlux answer alike.
 */
public enum Problem {
    MISSING_KEY(400, "missing-key", "Idempotency key missing"),
    INVALID_KEY(400, "invalid-key", "Invalid idempotency key"),
    ANONYMOUS(400, "anonymous-not-allowed", "Anonymous caller not allowed"),
    TENANT_MISSING(403, "tenant-missing", "Caller without a tenant"),
    IN_PROGRESS(409, "request-in-progress", "Request in progress"),
    MISMATCH(422, "payload-mismatch", "Idempotency key reused with another payload"),
    TOKEN_USED(409, "token-used", "Token already used"),
    TOKEN_INVALID(400, "token-invalid", "Invalid token"),
    UNKNOWN_OPERATION(400, "unknown-operation", "Token for an unknown operation"),
    TOO_MANY_TOKENS(429, "too-many-tokens", "Too many tokens"),
    LOCK_BUSY(409, "lock-busy", "Resource busy"),
    LOCK_LOST(409, "lock-lost", "Lock lost while working"),
    RESULT_NOT_STORED(409, "result-not-stored", "Request ran, result not stored"),
    STREAM_NOT_REPLAYABLE(406, "stream-not-replayable", "Streamed response not replayable"),
    STORE_UNAVAILABLE(503, "store-unavailable", "Idempotency store unavailable");

    /** What clients read on a 503; the Redis error itself is server detail and goes to the log. */
    private static final String STORE_UNAVAILABLE_DETAIL =
            "The idempotency store is unavailable, so the request was not run; retry later";

    private final int status;
    private final String slug;
    private final String title;

    Problem(int status, String slug, String title) {
        this.status = status;
        this.slug = slug;
        this.title = title;
    }

    public static Problem of(IdempotencyException ex) {
        if (ex instanceof MissingIdempotencyKeyException) return MISSING_KEY;
        if (ex instanceof InvalidIdempotencyKeyException) return INVALID_KEY;
        if (ex instanceof AnonymousCallerException) return ANONYMOUS;
        if (ex instanceof MissingTenantException) return TENANT_MISSING;
        if (ex instanceof RequestInProgressException) return IN_PROGRESS;
        if (ex instanceof PayloadMismatchException) return MISMATCH;
        if (ex instanceof TokenAlreadyUsedException) return TOKEN_USED;
        if (ex instanceof InvalidTokenException) return TOKEN_INVALID;
        if (ex instanceof TokenLimitExceededException) return TOO_MANY_TOKENS;
        if (ex instanceof UnknownOperationException) return UNKNOWN_OPERATION;
        if (ex instanceof LockBusyException) return LOCK_BUSY;
        if (ex instanceof LockLostException) return LOCK_LOST;
        if (ex instanceof ResultNotStoredException) return RESULT_NOT_STORED;
        if (ex instanceof StreamNotReplayableException) return STREAM_NOT_REPLAYABLE;
        if (ex instanceof IdempotencyStoreUnavailableException) return STORE_UNAVAILABLE;
        throw new IllegalStateException("No HTTP mapping for " + ex.getClass().getName());
    }

    public int status() {
        return status;
    }

    /** The problem {@code type}, e.g. {@code urn:idempotency:problem:request-in-progress}. */
    public URI type() {
        return URI.create("urn:idempotency:problem:" + slug);
    }

    public String slug() {
        return slug;
    }

    public String title() {
        return title;
    }

    /** The {@code detail} for clients: the exception's message, except for Redis failures. */
    public String detail(IdempotencyException ex) {
        return this == STORE_UNAVAILABLE ? STORE_UNAVAILABLE_DETAIL : String.valueOf(ex.getMessage());
    }

    /** {@code Retry-After} in seconds, for outcomes that may change on a later attempt. */
    public static OptionalLong retryAfterSeconds(IdempotencyException ex) {
        return ex instanceof RetryableIdempotencyException retryable
                ? OptionalLong.of(Math.max(1, retryable.retryAfter().toSeconds()))
                : OptionalLong.empty();
    }
}
