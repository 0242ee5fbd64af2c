package dev.idempotency.token;

import dev.idempotency.InvalidTokenException;
import dev.idempotency.TokenAlreadyUsedException;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.support.RedisGateway;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisStringCommands.SetOption;
import org.springframework.data.redis.core.types.Expiration;
import org.springframework.util.Assert;

/**
 * One-time tokens. Redis holds only a digest of each token and its scope (the key) and a one-byte state: {@code V}
 * valid, {@code U} used. Consuming is a single {@code SET key U XX KEEPTTL GET}: atomic, one round trip, and the
 * {@code U} marker stays until the token's TTL ends so that a replay is told apart from a forgery.
 */
public final class TokenStore {

    private static final int TOKEN_BYTES = 24;
    private static final int TOKEN_LENGTH = 32;
    private static final byte[] VALID = {'V'};
    private static final byte[] USED = {'U'};

    private final RedisGateway redis;
    private final RedisKeys keys;
    private final SecureRandom random = new SecureRandom();
    private final Base64.Encoder encoder = Base64.getUrlEncoder().withoutPadding();

    public TokenStore(RedisGateway redis, RedisKeys keys) {
        Assert.notNull(redis, "redis must not be null");
        Assert.notNull(keys, "keys must not be null");
        this.redis = redis;
        this.keys = keys;
    }

    /** Issues a token valid within {@code scope} (e.g. the user) for {@code ttl}. */
    public IssuedToken issue(String scope, Duration ttl) {
        byte[] bytes = new byte[TOKEN_BYTES];
        random.nextBytes(bytes);
        String token = encoder.encodeToString(bytes);
        byte[] key = RedisGateway.key(keys.token(scope, token));
        redis.command(
                "issue",
                connection -> connection.stringCommands().set(key, VALID, Expiration.from(ttl), SetOption.upsert()));
        return new IssuedToken(token, ttl);
    }

    /**
     * Consumes the token.
     *
     * @throws InvalidTokenException when the token is missing, malformed, unknown, expired or from another scope
     * @throws TokenAlreadyUsedException when it was consumed before
     */
    public void consume(String scope, @Nullable String token) {
        byte[] key = RedisGateway.key(keys.token(scope, requireWellFormed(token)));
        byte[] previous = redis.command(
                "consume",
                connection ->
                        connection.stringCommands().setGet(key, USED, Expiration.keepTtl(), SetOption.ifPresent()));
        if (previous == null) {
            throw new InvalidTokenException("The token is unknown or expired");
        }
        if (Arrays.equals(previous, USED)) {
            throw new TokenAlreadyUsedException("The token was used already");
        }
    }

    /** Makes a consumed token valid again (the work it guarded failed); an expired token stays expired. */
    public void restore(String scope, String token) {
        byte[] key = RedisGateway.key(keys.token(scope, token));
        redis.command(
                "restore",
                connection -> connection.stringCommands().set(key, VALID, Expiration.keepTtl(), SetOption.ifPresent()));
    }

    /** Rejects malformed input before Redis is touched: a forged token costs no round trip. */
    private static String requireWellFormed(@Nullable String token) {
        if (token == null || token.isEmpty()) {
            throw new InvalidTokenException("The token is missing");
        }
        if (token.length() != TOKEN_LENGTH || !isBase64Url(token)) {
            throw new InvalidTokenException("The token is malformed");
        }
        return token;
    }

    private static boolean isBase64Url(String token) {
        byte[] bytes = token.getBytes(StandardCharsets.US_ASCII);
        for (byte b : bytes) {
            boolean ok =
                    (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') || b == '-' || b == '_';
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
