package dev.idempotency.reliability.promise;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.token.TokenExecutor;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The one-time tokens of a history's keys under {@code TOKEN}: one per key, issued once, before the history, while
 * nothing fails (the token endpoint for HTTP, the application's {@code TokenExecutor} for Kafka records). The store
 * may still be coming back from the previous history's fault: an issue it refuses as unavailable is retried, as its
 * client would, within a bound.
 */
final class TokenSupply {

    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final Duration TTL = Duration.ofMinutes(10);

    /** Issues one token. */
    @FunctionalInterface
    interface Issuer {

        /** A new token, or {@code null} when the store is unavailable for now (worth another try). */
        @Nullable
        String issue() throws Exception;
    }

    private final Map<String, String> tokens = new ConcurrentHashMap<>();
    private final Issuer issuer;

    TokenSupply(Issuer issuer) {
        this.issuer = issuer;
    }

    /**
     * Tokens issued by the application's {@code tokens} for {@code operation}, as a listener outside HTTP consumes
     * them: a message has no user, so in the shared scope.
     */
    static TokenSupply of(TokenExecutor tokens, String operation) {
        return new TokenSupply(() -> {
            try {
                return tokens.issue("", operation, TTL).token();
            } catch (IdempotencyStoreUnavailableException comingBack) {
                return null;
            }
        });
    }

    /** Issues a token for each of {@code keys}, forgetting those of earlier histories. */
    void prepare(Collection<String> keys) {
        tokens.clear();
        keys.forEach(this::of);
    }

    /** The token of {@code key}, issued on first use. */
    String of(String key) {
        return tokens.computeIfAbsent(key, unused -> {
            long deadline = System.nanoTime() + PATIENCE.toNanos();
            try {
                while (true) {
                    String token = issuer.issue();
                    if (token != null) {
                        return token;
                    }
                    if (System.nanoTime() - deadline > 0) {
                        throw new IllegalStateException("no token for " + key + " within " + PATIENCE);
                    }
                    Thread.sleep(100); // the client's back-off
                }
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("no token for " + key, ex);
            } catch (RuntimeException ex) {
                throw ex;
            } catch (Exception ex) {
                throw new IllegalStateException("no token for " + key, ex);
            }
        });
    }
}
