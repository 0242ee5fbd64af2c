package dev.idempotency.internal.token;

import dev.idempotency.CheckedSupplier;
import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.InvalidTokenException;
import dev.idempotency.Strategy;
import dev.idempotency.TokenAlreadyUsedException;
import dev.idempotency.internal.StrategyRunner;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.spi.Admission;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.ProtectedCall;
import dev.idempotency.token.IssueQuota;
import dev.idempotency.token.IssuedToken;
import dev.idempotency.token.TokenExecutor;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.springframework.util.Assert;

/**
 * The {@code TOKEN} strategy: one-time tokens issued by the server and consumed atomically by the first submit. The
 * {@link TokenStore} (Redis, or the application's database) holds only a digest of each token and its scope (the key)
 * and a short state: valid, or used by the mark of the submit that consumed it. A token is bound to the scope and to
 * the operation (or named group of operations) it was issued for: elsewhere it is unknown. Consuming is one script (one
 * round trip) that marks a valid token, and the used state stays until the token's TTL ends so that a replay is told
 * apart from a forgery. A submit whose work failed, or whose consume failed without an answer (a lost reply, a
 * timeout), gives the token back, retrying while the store is unreachable, for at most a minute. A caller that waits
 * for the store anyway lets it answer on the caller's own thread ({@link TokenStore#onWaitingThread}). Usable without
 * annotations:
 *
 * <pre>{@code
 * IssuedToken token = tokens.issue(userId, "feedback", Duration.ofMinutes(10)); // hand token.token() to the client
 * Feedback saved = tokens.execute(userId, "feedback", submittedToken, () -> feedback.save(form));
 * }</pre>
 */
public final class TokenStrategy implements TokenExecutor {

    private static final int TOKEN_BYTES = 24;
    /** Suggested to a submit that met its token still being given back: the store is retried within a second. */
    private static final Duration RETRY_WHILE_GIVEN_BACK = Duration.ofSeconds(1);

    private final TokenStore store;
    private final RedisKeys keys;
    private final TokensGivenBack givenBack = new TokensGivenBack();
    /**
     * DRBG: seeded once from the platform, then generated in memory. The platform default on Linux reads
     * /dev/urandom for every token, a file read that must not happen on the event loops reactive callers issue on.
     */
    private final SecureRandom random = drbg();

    private final Base64.Encoder encoder = Base64.getUrlEncoder().withoutPadding();

    /**
     * Creates the strategy; {@link dev.idempotency.redis.RedisIdempotency} builds it.
     *
     * @param store where its tokens live
     * @param keys how their keys are named
     */
    public TokenStrategy(TokenStore store, RedisKeys keys) {
        Assert.notNull(store, "store must not be null");
        Assert.notNull(keys, "keys must not be null");
        this.store = store;
        this.keys = keys;
    }

    @Override
    public Strategy strategy() {
        return Strategy.TOKEN;
    }

    @Override
    public IssuedToken issue(String scope, String operation, Duration ttl) {
        return Futures.join(issue(store.onWaitingThread(), scope, operation, ttl));
    }

    @Override
    public CompletableFuture<IssuedToken> issueAsync(String scope, String operation, Duration ttl) {
        return issue(store, scope, operation, ttl);
    }

    private CompletableFuture<IssuedToken> issue(TokenStore on, String scope, String operation, Duration ttl) {
        String token = newToken();
        return on.issue(key(scope, operation, token), ttl).thenApply(ok -> new IssuedToken(token, ttl));
    }

    @Override
    public CompletableFuture<IssuedToken> issueAsync(
            String scope, String operation, Duration ttl, IssueQuota quota, String caller) {
        String token = newToken();
        return store.issue(key(scope, operation, token), ttl, quota, caller)
                .thenApply(ok -> new IssuedToken(token, ttl));
    }

    private String newToken() {
        byte[] bytes = new byte[TOKEN_BYTES];
        random.nextBytes(bytes);
        return encoder.encodeToString(bytes);
    }

    @Override
    public <T, E extends Throwable> T execute(
            String scope, String operation, @Nullable String token, CheckedSupplier<T, E> work) throws E {
        String key = key(scope, operation, TokenFormat.requireWellFormed(token));
        return StrategyRunner.run(() -> Futures.join(admit(store.onWaitingThread(), key)), work, ResultCodec.none());
    }

    @Override
    public void consume(String scope, String operation, @Nullable String token) {
        Futures.join(consume(
                store.onWaitingThread(),
                key(scope, operation, TokenFormat.requireWellFormed(token)),
                TokenStore.newMark()));
    }

    @Override
    public void restore(String scope, String operation, String token) {
        Futures.join(store.restore(key(scope, operation, token)));
    }

    /** Consumes on the calling thread where the store can: it waits anyway. */
    @Override
    public Admission admit(ProtectedCall call) {
        return Futures.join(admit(
                store.onWaitingThread(),
                key(call.scope(), call.operation(), TokenFormat.requireWellFormed(call.key()))));
    }

    @Override
    public CompletableFuture<Admission> admitAsync(ProtectedCall call) {
        String token;
        try {
            token = TokenFormat.requireWellFormed(call.key());
        } catch (InvalidTokenException ex) {
            return CompletableFuture.failedFuture(ex);
        }
        // A caller that gives up cancels the returned future; a token consumed for it after that is restored at once.
        return Futures.handOver(
                admit(store, key(call.scope(), call.operation(), token)),
                new CompletableFuture<>(),
                unclaimed -> ((Admission.Proceed) unclaimed).permit().fail());
    }

    /** Consumes through {@code on} (the store, or its view for a waiting caller); gives back through the store. */
    private CompletableFuture<Admission> admit(TokenStore on, String key) {
        String mark = TokenStore.newMark();
        return consume(on, key, mark)
                .thenApply(consumed ->
                        new Admission.Proceed(new ConsumedToken(() -> givenBack.giveBack(store, key, mark))));
    }

    private CompletableFuture<Void> consume(TokenStore on, String key, String mark) {
        return on.consume(key, mark)
                .whenComplete((use, failure) -> {
                    if (failure != null) {
                        givenBack.giveBack(store, key, mark);
                    }
                })
                .thenApply(use -> switch (use) {
                    case CONSUMED -> null;
                    case USED_BEFORE ->
                        throw givenBack.isUnderWay(key)
                                ? new IdempotencyStoreUnavailableException(
                                        "The token's earlier submit failed here and its token is being given back; retry"
                                                + " shortly",
                                        RETRY_WHILE_GIVEN_BACK)
                                : new TokenAlreadyUsedException("The token was used already");
                    case UNKNOWN -> throw new InvalidTokenException("The token is unknown or expired");
                });
    }

    private String key(String scope, String operation, String token) {
        return keys.token(scope, operation, token);
    }

    private static SecureRandom drbg() {
        try {
            SecureRandom drbg = SecureRandom.getInstance("DRBG");
            drbg.nextBytes(new byte[1]); // seeds now, on the thread that builds the executor
            return drbg;
        } catch (java.security.NoSuchAlgorithmException ex) {
            return new SecureRandom(); // every Java 9+ platform has DRBG; stay usable on one that does not
        }
    }
}
