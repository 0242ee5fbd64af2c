package dev.idempotency.internal.token;

import dev.idempotency.internal.lease.Owners;
import dev.idempotency.spi.Futures;
import dev.idempotency.token.IssueQuota;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where one-time tokens live, beside {@code RequestIdStore} and {@code LockStore}: Redis ({@link RedisTokenStore}) or
 * the application's database ({@link JdbcTokenStore}). A token is valid until a submit consumes it; the used token then
 * keeps that submit's mark until its time to live ends, so that exactly that submit can give it back (when its work
 * failed, or when it cannot know whether its consume took effect) and a replay is told apart from a forgery.
 */
public interface TokenStore {

    /** How long a submit that does not know whether its consume took effect keeps trying to give the token back. */
    Duration GIVE_BACK_DEADLINE = Duration.ofMinutes(1);

    /** What a consume found. */
    enum Use {
        /** The token was valid, and this submit used it (or had used it, when it sent the consume again). */
        CONSUMED,
        /** Another submit used it. */
        USED_BEFORE,
        /** No such token: never issued here, issued for another scope or operation, or expired. */
        UNKNOWN
    }

    /** A mark for one submit: 64 random bits, unique among the submits of one token. */
    static String newMark() {
        return Owners.random(8);
    }

    /**
     * This store for a caller that waits for each answer on its own thread anyway: a store whose statements block (the
     * JDBC one) may run them there, with no hand-off to its own threads. The store itself by default.
     */
    default TokenStore onWaitingThread() {
        return this;
    }

    /** Stores a new valid token under {@code key} for {@code ttl}. */
    CompletableFuture<Void> issue(String key, Duration ttl);

    /**
     * Stores a new valid token once {@code quota} counted it for {@code caller}; past a bound, completes exceptionally
     * with {@code TokenLimitExceededException} and stores nothing. A store that can count and store together in one
     * round trip does.
     */
    default CompletableFuture<Void> issue(String key, Duration ttl, IssueQuota quota, String caller) {
        return quota.take(caller).thenCompose(counted -> issue(key, ttl));
    }

    /** Uses a valid token for the submit with {@code mark}, in one atomic step. */
    CompletableFuture<Use> consume(String key, String mark);

    /** Makes a used token valid again, whoever used it; an expired token stays expired. */
    CompletableFuture<Void> restore(String key);

    /** Makes the token valid again if {@code mark}'s submit is the one that used it; answers whether it did. */
    CompletableFuture<Boolean> restore(String key, String mark);

    /**
     * Gives the token back if {@code mark}'s submit is the one that used it: when its work failed, and when its consume
     * failed without an answer (the reply was lost, or came too late: the submit is answered as not run, so the token
     * must not stay used). Completes after the first attempt; while the store cannot be reached it keeps trying, soon
     * at first (a broken connection is replaced within moments), then every second, for at most
     * {@link #GIVE_BACK_DEADLINE}. Never completes exceptionally.
     */
    default CompletableFuture<Void> giveBack(String key, String mark) {
        return giveBack(key, mark, () -> {});
    }

    /** {@link #giveBack(String, String)}, running {@code settled} once the token is back or the retries gave up. */
    default CompletableFuture<Void> giveBack(String key, String mark, Runnable settled) {
        return GiveBack.attempt(
                this, key, mark, System.nanoTime() + GIVE_BACK_DEADLINE.toNanos(), GiveBack.FIRST_RETRY, settled);
    }

    /** The retries of {@link #giveBack}, the same for every store. */
    final class GiveBack {

        private static final Logger log = LoggerFactory.getLogger(TokenStore.class);
        private static final Duration FIRST_RETRY = Duration.ofMillis(50);
        private static final Duration LAST_RETRY = Duration.ofSeconds(1);

        private GiveBack() {}

        private static CompletableFuture<Void> attempt(
                TokenStore store, String key, String mark, long deadline, Duration retryAfter, Runnable settled) {
            return store.restore(key, mark).handle((restored, failure) -> {
                if (failure == null) {
                    settled.run();
                    return null;
                }
                if (System.nanoTime() - deadline < 0) {
                    Executor later = CompletableFuture.delayedExecutor(retryAfter.toMillis(), TimeUnit.MILLISECONDS);
                    Duration next = retryAfter.multipliedBy(2);
                    Duration capped = next.compareTo(LAST_RETRY) < 0 ? next : LAST_RETRY;
                    later.execute(() -> attempt(store, key, mark, deadline, capped, settled));
                } else {
                    settled.run();
                    log.warn(
                            "Could not give a token back; it stays used: {}",
                            Futures.unwrap(failure).getMessage());
                }
                return null;
            });
        }
    }
}
