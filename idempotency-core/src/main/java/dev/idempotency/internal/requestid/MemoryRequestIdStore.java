package dev.idempotency.internal.requestid;

import dev.idempotency.internal.lease.Owners;
import dev.idempotency.internal.memory.Keyspace;
import dev.idempotency.internal.memory.Keyspace.Change;
import dev.idempotency.internal.memory.Keyspace.Value;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * {@code REQUEST_ID} records in this JVM's memory: the Redis store's records ({@link RequestRecord}) and scripts, each
 * one atomic change of one key in a {@link Keyspace}. Answers at once, on the caller's thread. It protects nothing
 * across instances: for tests and local runs.
 */
public final class MemoryRequestIdStore implements RequestIdStore {

    private final Keyspace keyspace;

    public MemoryRequestIdStore(Keyspace keyspace) {
        this.keyspace = keyspace;
    }

    @Override
    public CompletableFuture<ClaimOutcome> claim(String recordKey, String fingerprint, Duration lease) {
        String owner = Owners.next();
        long sentAt = System.nanoTime();
        return done(keyspace.change(
                "claim",
                recordKey,
                live -> live == null
                        ? new Change<>(
                                Value.expiringIn(RequestRecord.inProgress(owner, fingerprint), lease),
                                new ClaimOutcome.Acquired(new Claim(recordKey, owner, fingerprint, sentAt)))
                        : new Change<>(live, RequestRecord.outcomeOf(live.bytes(), fingerprint))));
    }

    /** Stores the result when the claim is still this owner's, or when the record is gone (the work did run). */
    @Override
    public CompletableFuture<Boolean> complete(Claim claim, byte @Nullable [] result, Duration ttl) {
        byte[] completed = result == null
                ? RequestRecord.notKept(claim.fingerprint())
                : RequestRecord.completed(claim.fingerprint(), result);
        return done(keyspace.change(
                "complete",
                claim.recordKey(),
                live -> live == null || owns(live, claim)
                        ? new Change<>(Value.expiringIn(completed, ttl), true)
                        : new Change<>(live, false)));
    }

    @Override
    public CompletableFuture<Boolean> renew(Claim claim, Duration lease) {
        return done(keyspace.change(
                "renew",
                claim.recordKey(),
                live -> live != null && owns(live, claim)
                        ? new Change<>(live.expiringIn(lease), true)
                        : new Change<>(live, false)));
    }

    @Override
    public CompletableFuture<Boolean> release(Claim claim) {
        return done(keyspace.change(
                "release",
                claim.recordKey(),
                live -> live != null && owns(live, claim) ? new Change<>(null, true) : new Change<>(live, false)));
    }

    @Override
    public CompletableFuture<Boolean> discard(String recordKey, byte[] value) {
        return done(keyspace.change(
                "release",
                recordKey,
                live -> live != null && Arrays.equals(live.bytes(), value)
                        ? new Change<>(null, true)
                        : new Change<>(live, false)));
    }

    @Override
    public CompletableFuture<Boolean> delete(String recordKey) {
        return done(keyspace.delete("delete", recordKey));
    }

    /** Whether {@code live} is the in-progress record of {@code claim}'s owner. */
    private static boolean owns(Value live, Claim claim) {
        byte[] prefix = RequestRecord.ownedPrefix(claim.owner());
        byte[] bytes = live.bytes();
        return bytes.length >= prefix.length && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
    }

    private static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }
}
