package dev.idempotency.requestid;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.support.Durations;
import dev.idempotency.support.Owners;
import dev.idempotency.support.RedisGateway;
import dev.idempotency.support.ServerVersion;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisStringCommands.SetOption;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.core.types.Expiration;
import org.springframework.util.Assert;

/**
 * {@code REQUEST_ID} records in Redis: claim, complete, renew and release, each one round trip (one script on one key)
 * and the last three guarded by the claim's owner, so a stale execution can never overwrite another's record.
 */
public final class RequestIdStore {

    /**
     * For Redis before 7.0, where {@code SET NX GET} is refused. KEYS[1] record; ARGV[1] in-progress value, ARGV[2]
     * lease ms. Returns the existing value, or nil once claimed.
     */
    private static final RedisScript<byte[]> CLAIM = RedisScript.of("""
            local existing = redis.call('GET', KEYS[1])
            if existing then return existing end
            redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
            return false
            """, byte[].class);

    /**
     * KEYS[1] record; ARGV[1] owned prefix ("P" + owner), ARGV[2] completed value, ARGV[3] ttl ms. 1 when stored, 0
     * when the claim is no longer this owner's.
     */
    private static final RedisScript<Long> COMPLETE = RedisScript.of("""
            local v = redis.call('GET', KEYS[1])
            if v and string.sub(v, 1, #ARGV[1]) == ARGV[1] then
              redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
              return 1
            end
            return 0
            """, Long.class);

    /** KEYS[1] record; ARGV[1] owned prefix, ARGV[2] lease ms. 1 when extended, 0 when not this owner's claim. */
    private static final RedisScript<Long> RENEW = RedisScript.of("""
            local v = redis.call('GET', KEYS[1])
            if v and string.sub(v, 1, #ARGV[1]) == ARGV[1] then
              return redis.call('PEXPIRE', KEYS[1], ARGV[2])
            end
            return 0
            """, Long.class);

    /** KEYS[1] record; ARGV[1] owned prefix. 1 when deleted, 0 when not this owner's claim. */
    private static final RedisScript<Long> RELEASE = RedisScript.of("""
            local v = redis.call('GET', KEYS[1])
            if v and string.sub(v, 1, #ARGV[1]) == ARGV[1] then
              return redis.call('DEL', KEYS[1])
            end
            return 0
            """, Long.class);

    private static final Logger log = LoggerFactory.getLogger(RequestIdStore.class);

    private final RedisGateway redis;
    private final ClaimCommand claimCommand;
    private volatile @Nullable Boolean setNxGet;
    private final int waitForReplicas;
    private final Duration waitForReplicasTimeout;

    /** A store that trusts asynchronous replication. */
    public RequestIdStore(RedisGateway redis) {
        this(redis, 0, Duration.ZERO);
    }

    /**
     * A store whose claims must reach replicas before the work runs: after each claim it sends {@code WAIT}, and a
     * claim that fewer than {@code waitForReplicas} replicas acknowledged within the timeout is released and reported
     * as {@link IdempotencyStoreUnavailableException}, so a failover cannot lose it and let a duplicate run. Completions
     * wait for the replicas too, so a failover after the response cannot bring the claim back.
     *
     * @param waitForReplicas replicas that must acknowledge each claim; 0 switches the check off
     * @param waitForReplicasTimeout how long to wait for them
     */
    public RequestIdStore(RedisGateway redis, int waitForReplicas, Duration waitForReplicasTimeout) {
        this(redis, waitForReplicas, waitForReplicasTimeout, ClaimCommand.AUTO);
    }

    RequestIdStore(
            RedisGateway redis, int waitForReplicas, Duration waitForReplicasTimeout, ClaimCommand claimCommand) {
        Assert.notNull(redis, "redis must not be null");
        this.claimCommand = claimCommand;
        Assert.isTrue(waitForReplicas >= 0, "waitForReplicas must not be negative");
        Assert.isTrue(
                waitForReplicas == 0 || Durations.isPositive(waitForReplicasTimeout),
                "waitForReplicasTimeout must be positive");
        this.redis = redis;
        this.waitForReplicas = waitForReplicas;
        this.waitForReplicasTimeout = waitForReplicasTimeout;
    }

    /**
     * Claims {@code recordKey} for a new execution, or reports what holds it.
     *
     * @param fingerprint digest of the payload (22 characters), or {@code null} to skip the payload check
     * @param lease how long the claim lives unless renewed or completed
     */
    public ClaimOutcome claim(String recordKey, @Nullable String fingerprint, Duration lease) {
        String owner = Owners.next();
        String print = fingerprint == null ? RequestRecord.NO_FINGERPRINT : fingerprint;
        byte[] existing = claimOrRead(recordKey, RequestRecord.inProgress(owner, print), lease);
        if (existing == null) {
            Claim claim = new Claim(recordKey, owner, print);
            confirmByReplicas(claim);
            return new ClaimOutcome.Acquired(claim);
        }
        RequestRecord record = RequestRecord.decode(existing);
        if (record.mismatches(print)) {
            return new ClaimOutcome.Mismatch();
        }
        return record.completed() ? new ClaimOutcome.Replay(record.result()) : new ClaimOutcome.InProgress();
    }

    /**
     * Writes the in-progress record unless the key exists, and returns the existing value (null once claimed). Redis
     * 7 does it in one plain command, {@code SET key value PX lease NX GET}; older servers run the script.
     */
    private byte @Nullable [] claimOrRead(String recordKey, byte[] inProgress, Duration lease) {
        if (usesSetNxGet()) {
            byte[] key = RedisGateway.key(recordKey);
            return redis.command(
                    "claim",
                    connection -> connection
                            .stringCommands()
                            .setGet(key, inProgress, Expiration.milliseconds(lease.toMillis()), SetOption.ifAbsent()));
        }
        return redis.script("claim", CLAIM, List.of(recordKey), inProgress, millis(lease));
    }

    private boolean usesSetNxGet() {
        if (claimCommand == ClaimCommand.SCRIPT) {
            return false;
        }
        Boolean known = setNxGet;
        if (known == null) {
            known = ServerVersion.atLeast7(redis); // once per store: one INFO on the first claim
            setNxGet = known;
        }
        return known;
    }

    /** How claims are written: chosen by the server version, or always by script (Redis 6.2, and tests). */
    enum ClaimCommand {
        AUTO,
        SCRIPT
    }

    private void confirmByReplicas(Claim claim) {
        if (waitForReplicas == 0) {
            return;
        }
        long acknowledged;
        try {
            acknowledged = redis.waitForReplicas(claim.recordKey(), waitForReplicas, waitForReplicasTimeout);
        } catch (IdempotencyStoreUnavailableException ex) {
            releaseQuietly(claim, ex);
            throw ex;
        }
        if (acknowledged < waitForReplicas) {
            releaseQuietly(claim, null);
            throw new IdempotencyStoreUnavailableException(
                    "The claim reached " + acknowledged + " of " + waitForReplicas + " required replicas within "
                            + waitForReplicasTimeout.toMillis() + " ms",
                    RedisGateway.STORE_RETRY_AFTER);
        }
    }

    /** An unconfirmed claim must not block its key; if even the release fails, the claim ends with its lease. */
    private void releaseQuietly(Claim claim, @Nullable Exception cause) {
        try {
            release(claim);
        } catch (IdempotencyStoreUnavailableException ex) {
            if (cause != null) {
                cause.addSuppressed(ex);
            }
        }
    }

    /** Stores the result for {@code ttl}; {@code false} when the claim expired or passed to another owner first. */
    public boolean complete(Claim claim, byte[] result, Duration ttl) {
        byte[] value = RequestRecord.completed(claim.fingerprint(), result);
        boolean stored = guarded("complete", COMPLETE, claim, value, millis(ttl));
        if (stored && waitForReplicas > 0) {
            confirmCompletion(claim);
        }
        return stored;
    }

    /**
     * With wait-for-replicas the caller gets its response only once replicas hold the result too: otherwise a
     * failover could bring back the in-progress claim, and the work would run again when its lease ends. The work has
     * run by now, so an unconfirmed completion is only reported.
     */
    private void confirmCompletion(Claim claim) {
        try {
            long acknowledged = redis.waitForReplicas(claim.recordKey(), waitForReplicas, waitForReplicasTimeout);
            if (acknowledged < waitForReplicas) {
                log.warn(
                        "Result of {} reached {} of {} replicas; a failover now could run it again",
                        claim.recordKey(),
                        acknowledged,
                        waitForReplicas);
            }
        } catch (IdempotencyStoreUnavailableException ex) {
            log.warn("Could not confirm the result of {} on replicas: {}", claim.recordKey(), ex.getMessage());
        }
    }

    /** Extends the claim's lease; {@code false} when it is no longer this owner's. */
    public boolean renew(Claim claim, Duration lease) {
        return guarded("renew", RENEW, claim, millis(lease));
    }

    /** Removes the claim so a retry runs the work again; {@code false} when it is no longer this owner's. */
    public boolean release(Claim claim) {
        return guarded("release", RELEASE, claim);
    }

    private boolean guarded(String kind, RedisScript<Long> script, Claim claim, byte[]... args) {
        byte[][] withPrefix = new byte[args.length + 1][];
        withPrefix[0] = RequestRecord.ownedPrefix(claim.owner());
        System.arraycopy(args, 0, withPrefix, 1, args.length);
        Long result = redis.script(kind, script, List.of(claim.recordKey()), withPrefix);
        return result != null && result == 1L;
    }

    static byte[] millis(Duration duration) {
        return Long.toString(Math.max(1, duration.toMillis())).getBytes(StandardCharsets.US_ASCII);
    }
}
