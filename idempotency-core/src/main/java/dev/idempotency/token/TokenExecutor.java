package dev.idempotency.token;

import dev.idempotency.CheckedSupplier;
import dev.idempotency.InvalidTokenException;
import dev.idempotency.TokenAlreadyUsedException;
import dev.idempotency.spi.IdempotencyStrategy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The {@code TOKEN} strategy and its programmatic API: one-time tokens issued by the server and consumed atomically by
 * the first submit. A token is bound to the scope and to the operation (or named group of operations) it was issued
 * for: elsewhere it is unknown. Get one from {@link dev.idempotency.redis.RedisIdempotency#tokens()}:
 *
 * <pre>{@code
 * IssuedToken token = tokens.issue(userId, "feedback", Duration.ofMinutes(10)); // hand token.token() to the client
 * Feedback saved = tokens.execute(userId, "feedback", submittedToken, () -> feedback.save(form));
 * }</pre>
 */
public interface TokenExecutor extends IdempotencyStrategy {

    /**
     * Issues a token valid within {@code scope} (e.g. the user) on {@code operation} for {@code ttl}.
     *
     * @param operation the operation, or the named group of operations, whose submits may consume it
     */
    IssuedToken issue(String scope, String operation, Duration ttl);

    /** {@link #issue} without blocking. */
    CompletableFuture<IssuedToken> issueAsync(String scope, String operation, Duration ttl);

    /**
     * {@link #issueAsync(String, String, Duration)}, the token first counted against {@code quota} for
     * {@code caller}: past a bound it completes exceptionally with {@link dev.idempotency.TokenLimitExceededException}
     * and no token is stored. With the quota and the tokens in one Redis, counting and storing take one round trip.
     *
     * @param caller whom the quota counts the token for, e.g. the authenticated user or the client's address
     */
    default CompletableFuture<IssuedToken> issueAsync(
            String scope, String operation, Duration ttl, IssueQuota quota, String caller) {
        return quota.take(caller).thenCompose(counted -> issueAsync(scope, operation, ttl));
    }

    /**
     * Consumes {@code token}, runs {@code work}, and restores the token when the work throws, so the user can submit
     * again.
     *
     * @throws InvalidTokenException when the token is missing, malformed, unknown, expired, or issued within another
     *     scope or for another operation
     * @throws TokenAlreadyUsedException when it was consumed before
     */
    <T, E extends Throwable> T execute(
            String scope, String operation, @Nullable String token, CheckedSupplier<T, E> work) throws E;

    /** Consumes {@code token}; see {@link #execute}. */
    void consume(String scope, String operation, @Nullable String token);

    /** Makes a consumed token valid again, whoever consumed it; an expired token stays expired. */
    void restore(String scope, String operation, String token);
}
