package dev.idempotency.key;

import dev.idempotency.internal.KeyDigests;
import java.util.regex.Pattern;
import org.springframework.util.Assert;

/**
 * Builds the Redis key of every record: {@code <prefix>[<namespace>:]<strategy>:<digest>}. The digest covers scope,
 * operation and the client's key, so the same client key on two endpoints or from two users never shares a record;
 * the namespace (the application) keeps two applications on one Redis apart. Locks have no namespace: a lock guards
 * a resource, which applications sharing a Redis may share on purpose (one stock item, deducted by two services).
 */
public final class RedisKeys {

    private static final Pattern NAMESPACE = Pattern.compile("[A-Za-z0-9._-]*");

    private final String requestIdPrefix;
    private final String tokenPrefix;
    private final String lockPrefix;

    /** @param prefix prepended to every key, e.g. {@code "idempotency:"} */
    public RedisKeys(String prefix) {
        this(prefix, "");
    }

    /**
     * @param prefix prepended to every key, e.g. {@code "idempotency:"}
     * @param namespace the application's records apart from other applications', e.g. {@code "orders-svc"}; empty for
     *     none
     * @throws IllegalArgumentException when the namespace has characters other than letters, digits, {@code .},
     *     {@code _} and {@code -}
     */
    public RedisKeys(String prefix, String namespace) {
        Assert.notNull(prefix, "prefix must not be null");
        Assert.notNull(namespace, "namespace must not be null");
        Assert.isTrue(
                isValidNamespace(namespace),
                () -> "The namespace '" + namespace + "' may contain only letters, digits, '.', '_' and '-'");
        String records = namespace.isEmpty() ? prefix : prefix + namespace + ":";
        this.requestIdPrefix = records + "request-id:";
        this.tokenPrefix = records + "token:";
        this.lockPrefix = prefix + "lock:";
    }

    /** Whether {@code namespace} may name an application: letters, digits, {@code .}, {@code _} and {@code -} only. */
    public static boolean isValidNamespace(String namespace) {
        return NAMESPACE.matcher(namespace).matches();
    }

    /** Record key of a {@code REQUEST_ID} claim for one client key within a scope and an operation. */
    public String requestId(String scope, String operation, String clientKey) {
        return requestIdPrefix + KeyDigests.digest(scope, operation, clientKey);
    }

    /**
     * Key of a one-time token issued within a scope for an operation (or a named group of operations), so that it is
     * valid there only. The token itself is never stored.
     */
    public String token(String scope, String operation, String token) {
        return tokenPrefix + KeyDigests.digest(scope, operation, token);
    }

    /** Key of the counter of tokens issued to {@code caller} in the current window (see {@code IssueQuota}). */
    public String tokenIssues(String caller) {
        return tokenPrefix + "issued:" + KeyDigests.digest(caller);
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
