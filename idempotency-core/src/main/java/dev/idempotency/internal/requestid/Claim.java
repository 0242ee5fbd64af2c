package dev.idempotency.internal.requestid;

/**
 * Proof that this execution owns a {@code REQUEST_ID} record: only the owner can complete, renew or release it.
 *
 * @param recordKey the key of the record
 * @param owner the owner id written into the record
 * @param fingerprint the payload fingerprint written into the record
 * @param sentAt {@link System#nanoTime()} when the claim was sent, from which its lease surely runs
 */
public record Claim(String recordKey, String owner, String fingerprint, long sentAt) {}
