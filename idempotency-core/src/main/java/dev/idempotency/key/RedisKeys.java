package dev.idempotency.key;

import dev.idempotency.internal.KeyDigests;
import org.springframework.util.Assert;

/**
 * Builds the Redis key of every record: {@code <prefix><strategy>:<digest>}. The digest covers scope, operation and the
 * client's key, so the same client key on two endpoints or from two users never shares a record.
 */
public final class RedisKeys {

    private final String requestIdPrefix;
    private final String tokenPrefix;
    private final String lockPrefix;

    /** @param prefix prepended to every key, e.g. {@code "idempotency:"} */
    public RedisKeys(String prefix) {
        Assert.notNull(prefix, "prefix must not be null");
        this.requestIdPrefix = prefix + "request-id:";
        this.tokenPrefix = prefix + "token:";
        this.lockPrefix = prefix + "lock:";
    }

    /** Record key of a {@code REQUEST_ID} claim for one client key within a scope and an operation. */
    public String requestId(String scope, String operation, String clientKey) {
        return requestIdPrefix + KeyDigests.digest(scope, operation, clientKey);
    }

    /** Key of a one-time token issued within a scope (the token itself is never stored). */
    public String token(String scope, String token) {
        return tokenPrefix + KeyDigests.digest(scope, token);
    }

    /**
     * Key of the lock on a resource. The digest sits in a hash tag so that the fencing counter ({@link #fence}) lands in
     * the same Redis Cluster slot.
     */
    public String lock(String resource) {
        return lockPrefix + "{" + KeyDigests.digest(resource) + "}";
    }

    /** Fencing counter of the lock {@code lockKey}. */
    public static String fence(String lockKey) {
        return lockKey + ":fence";
    }
}
