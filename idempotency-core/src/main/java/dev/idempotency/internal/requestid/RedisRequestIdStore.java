package dev.idempotency.internal.requestid;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.internal.lease.Owners;
import dev.idempotency.internal.redis.LuaScript;
import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.internal.redis.ReplicaConfirmations;
import dev.idempotency.internal.redis.ServerVersion;
import dev.idempotency.spi.Futures;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code REQUEST_ID} records in Redis: claim, complete, renew and release, each one round trip (one command or one
 * script on one key), the last three guarded by the claim's owner so a stale execution never overwrites another's
 * record. With wait-for-replicas, claims and completions travel with their {@code WAIT} on dedicated connections.
 */
public final class RedisRequestIdStore implements RequestIdStore {

    /**
     * For Redis before 7.0, where {@code SET NX GET} is refused. KEYS[1] record; ARGV[1] in-progress value, ARGV[2]
     * lease ms. Returns the existing value, or nil once claimed.
     */
    private static final LuaScript CLAIM = LuaScript.of("""
            local existing = redis.call('GET', KEYS[1])
            if existing then return existing end
            redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
            return false
            """);

    /**
     * KEYS[1] record; ARGV[1] owned prefix ("P" + owner), ARGV[2] the completed record's head ("C" or "N" and
     * the fingerprint), ARGV[3] ttl ms, ARGV[4] the result (empty for "N"); the head and the result travel apart so
     * that the JVM never copies a large result into one value (Redis joins them). Stores the result
     * when the claim is still this owner's, or when the record is gone (its lease ran out, or Redis restarted empty,
     * while the work finished): the work did run, and the result tells duplicates so. 1 when stored, also when the
     * record already is this result (an earlier attempt stored it and only its replicas' confirmation failed), 0 when
     * another execution holds the key now.
     */
    private static final byte[] NOTHING = new byte[0];

    private static final LuaScript COMPLETE = LuaScript.of("""
            local v = redis.call('GET', KEYS[1])
            if not v or string.sub(v, 1, #ARGV[1]) == ARGV[1] then
              redis.call('SET', KEYS[1], ARGV[2] .. ARGV[4], 'PX', ARGV[3])
              return 1
            end
            if v == ARGV[2] .. ARGV[4] then
              return 1
            end
            return 0
            """);

    /** KEYS[1] record; ARGV[1] owned prefix, ARGV[2] lease ms. 1 when extended, 0 when not this owner's claim. */
    private static final LuaScript RENEW = LuaScript.of("""
            local v = redis.call('GET', KEYS[1])
            if v and string.sub(v, 1, #ARGV[1]) == ARGV[1] then
              return redis.call('PEXPIRE', KEYS[1], ARGV[2])
            end
            return 0
            """);

    /** KEYS[1] record; ARGV[1] owned prefix. 1 when deleted, 0 when not this owner's claim. */
    private static final LuaScript RELEASE = LuaScript.of("""
            local v = redis.call('GET', KEYS[1])
            if v and string.sub(v, 1, #ARGV[1]) == ARGV[1] then
              return redis.call('DEL', KEYS[1])
            end
            return 0
            """);

    /** KEYS[1] record; ARGV[1] the exact value read. Deletes the record only if it still holds that value. */
    private static final LuaScript DISCARD = LuaScript.of("""
            if redis.call('GET', KEYS[1]) == ARGV[1] then
              return redis.call('DEL', KEYS[1])
            end
            return 0
            """);

    private static final Logger log = LoggerFactory.getLogger(RedisRequestIdStore.class);

    private final RedisGateway redis;
    private final ClaimCommand claimCommand;
    private final @Nullable ReplicaConfirmations confirmations;
    private volatile @Nullable CompletableFuture<Boolean> setNxGet;

    public RedisRequestIdStore(
            RedisGateway redis, @Nullable ReplicaConfirmations confirmations, ClaimCommand claimCommand) {
        this.redis = redis;
        this.confirmations = confirmations;
        this.claimCommand = claimCommand;
    }

    /** How claims are written: chosen by the server version, or always one way (Redis 6.2, and tests). */
    public enum ClaimCommand {
        AUTO,
        SCRIPT,
        SET_NX_GET
    }

    @Override
    public CompletableFuture<ClaimOutcome> claim(String recordKey, String fingerprint, Duration lease) {
        String owner = Owners.next();
        long sentAt = System.nanoTime();
        byte[] inProgress = RequestRecord.inProgress(owner, fingerprint);
        return claimCommand()
                .thenCompose(setNxGet -> write(recordKey, owner, inProgress, lease, setNxGet)
                        .exceptionallyCompose(failure -> setNxGet && isSyntaxError(failure)
                                ? write(recordKey, owner, inProgress, lease, scriptFromNowOn())
                                : CompletableFuture.failedFuture(failure)))
                .exceptionallyCompose(failure -> RedisGateway.isOutOfMemory(failure)
                        ? readWhenFull(recordKey, failure)
                        : CompletableFuture.failedFuture(failure))
                .thenApply(existing -> existing == null
                        ? new ClaimOutcome.Acquired(new Claim(recordKey, owner, fingerprint, sentAt))
                        : RequestRecord.outcomeOf(existing, fingerprint));
    }

    /** The claim's write; with wait-for-replicas, a claim made is released unless enough replicas acknowledged it. */
    private CompletableFuture<byte @Nullable []> write(
            String recordKey, String owner, byte[] inProgress, Duration lease, boolean setNxGet) {
        byte[] key = RedisGateway.bytes(recordKey);
        if (confirmations == null) {
            return redis.call("claim", commands -> claimOn(commands, key, inProgress, lease, setNxGet));
        }
        return confirmations
                .writeAndWait("claim", key, commands -> claimOn(commands, key, inProgress, lease, setNxGet))
                .thenCompose(confirmed -> {
                    if (confirmed.result() != null || confirmed.acknowledged() >= confirmations.replicas()) {
                        return CompletableFuture.completedFuture(confirmed.result());
                    }
                    IdempotencyStoreUnavailableException unconfirmed = new IdempotencyStoreUnavailableException(
                            "The claim reached " + confirmed.acknowledged() + " of " + confirmations.replicas()
                                    + " required replicas within "
                                    + confirmations.timeout().toMillis() + " ms",
                            RedisGateway.STORE_RETRY_AFTER);
                    // An unconfirmed claim must not block its key; if even this fails it ends with its lease.
                    return ownedScript("release", RELEASE, recordKey, RequestRecord.ownedPrefix(owner))
                            .handle((released, failure) -> {
                                throw unconfirmed;
                            });
                });
    }

    private static CompletionStage<byte @Nullable []> claimOn(
            RedisClusterAsyncCommands<byte[], byte[]> commands,
            byte[] key,
            byte[] inProgress,
            Duration lease,
            boolean setNxGet) {
        if (setNxGet) {
            return commands.setGet(key, inProgress, SetArgs.Builder.nx().px(millis(lease)));
        }
        return RedisGateway.eval(
                commands, CLAIM, ScriptOutputType.VALUE, new byte[][] {key}, inProgress, millisArg(lease));
    }

    private CompletableFuture<byte @Nullable []> readWhenFull(String recordKey, Throwable outOfMemory) {
        return redis.<byte @Nullable []>call("read", commands -> commands.get(RedisGateway.bytes(recordKey)))
                .thenCompose(existing -> existing != null
                        ? CompletableFuture.completedFuture(existing)
                        : CompletableFuture.failedFuture(outOfMemory));
    }

    private CompletableFuture<Boolean> claimCommand() {
        if (claimCommand != ClaimCommand.AUTO) {
            return CompletableFuture.completedFuture(claimCommand == ClaimCommand.SET_NX_GET);
        }
        CompletableFuture<Boolean> known = setNxGet;
        if (known == null || known.isCompletedExceptionally()) {
            known = ServerVersion.atLeast7(redis); // once per store: one INFO before the first claim
            setNxGet = known;
        }
        return known;
    }

    /**
     * A node refused {@code SET NX GET}: it runs Redis 6.2, as one node of a cluster may in the middle of a rolling
     * upgrade while the version probe found 7. Nothing was written; this store claims by script from now on, which
     * every version runs. Returns {@code false}: the claim is written by script.
     */
    private boolean scriptFromNowOn() {
        if (setNxGet == null || Boolean.TRUE.equals(setNxGet.getNow(false))) {
            log.info("A Redis node does not support SET NX GET (Redis before 7); claims are written by script");
        }
        setNxGet = CompletableFuture.completedFuture(false);
        return false;
    }

    private static boolean isSyntaxError(Throwable failure) {
        return String.valueOf(Futures.unwrap(failure).getMessage()).contains("ERR syntax error");
    }

    @Override
    public CompletableFuture<Boolean> complete(Claim claim, byte @Nullable [] result, Duration ttl) {
        byte[] head = result == null
                ? RequestRecord.notKept(claim.fingerprint())
                : RequestRecord.completedHead(claim.fingerprint());
        byte[] value = result == null ? NOTHING : result;
        byte[] owned = RequestRecord.ownedPrefix(claim.owner());
        if (confirmations == null) {
            return ownedScript("complete", COMPLETE, claim.recordKey(), owned, head, millisArg(ttl), value);
        }
        // With wait-for-replicas a result is stored once replicas hold it too: otherwise a failover could bring back
        // the in-progress claim and the work would run again when its lease ends. An unconfirmed result fails the
        // completion, so the permit sends it again while its lease lasts (after a failover, to the new master).
        byte[] key = RedisGateway.bytes(claim.recordKey());
        return confirmations
                .writeAndWait(
                        "complete",
                        key,
                        commands -> RedisGateway.<Long>eval(
                                commands,
                                COMPLETE,
                                ScriptOutputType.INTEGER,
                                new byte[][] {key},
                                owned,
                                head,
                                millisArg(ttl),
                                value))
                .thenApply(confirmed -> {
                    boolean stored = confirmed.result() == 1L;
                    if (stored && confirmed.acknowledged() < confirmations.replicas()) {
                        throw new UnconfirmedResultException(
                                confirmed.acknowledged(),
                                confirmations.replicas(),
                                confirmations.timeout(),
                                RedisGateway.STORE_RETRY_AFTER);
                    }
                    return stored;
                });
    }

    @Override
    public CompletableFuture<Boolean> renew(Claim claim, Duration lease) {
        return ownedScript(
                "renew", RENEW, claim.recordKey(), RequestRecord.ownedPrefix(claim.owner()), millisArg(lease));
    }

    @Override
    public CompletableFuture<Boolean> release(Claim claim) {
        return ownedScript("release", RELEASE, claim.recordKey(), RequestRecord.ownedPrefix(claim.owner()));
    }

    @Override
    public CompletableFuture<Boolean> discard(String recordKey, byte[] value) {
        return ownedScript("release", DISCARD, recordKey, value);
    }

    @Override
    public CompletableFuture<Boolean> delete(String recordKey) {
        return redis.delete(recordKey);
    }

    private CompletableFuture<Boolean> ownedScript(String kind, LuaScript script, String recordKey, byte[]... args) {
        return redis.<Long>eval(
                        kind, script, ScriptOutputType.INTEGER, new byte[][] {RedisGateway.bytes(recordKey)}, args)
                .thenApply(result -> result != null && result == 1L);
    }

    private static long millis(Duration duration) {
        return Math.max(1, duration.toMillis());
    }

    static byte[] millisArg(Duration duration) {
        Millis last = lastMillis;
        if (last == null || !last.duration().equals(duration)) {
            last = new Millis(duration, Long.toString(millis(duration)).getBytes(StandardCharsets.US_ASCII));
            lastMillis = last;
        }
        return last.bytes();
    }

    /**
     * The last duration sent as a script argument and its bytes: an application's calls use a handful of TTLs and
     * leases, mostly one, so most calls find theirs here instead of printing it again. Scripts only read arguments.
     */
    private record Millis(Duration duration, byte[] bytes) {}

    private static volatile @Nullable Millis lastMillis;
}
