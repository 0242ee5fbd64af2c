package dev.idempotency.requestid;

import java.time.Duration;

/**
 * Benchmark access to the package-private record encoding of {@link RequestIdStore}: the byte arrays the claim and
 * complete scripts receive, and the decoding a duplicate performs. Lives in the benchmarks module under the core's
 * package name (a split package on the class path), so the core exposes nothing for it.
 */
public final class RequestRecords {

    private RequestRecords() {}

    /** The claim script's in-progress value. */
    public static byte[] inProgress(String owner, String fingerprint) {
        return RequestRecord.inProgress(owner, fingerprint);
    }

    /** The complete script's value: header plus the encoded result (a completed record keeps no owner). */
    public static byte[] completed(String fingerprint, byte[] result) {
        return RequestRecord.completed(fingerprint, result);
    }

    /** The owned prefix the guarded scripts compare. */
    public static byte[] ownedPrefix(String owner) {
        return RequestRecord.ownedPrefix(owner);
    }

    /** A duration as the scripts receive it (milliseconds in ASCII). */
    public static byte[] millis(Duration duration) {
        return RequestIdStore.millis(duration);
    }

    /**
     * What a duplicate does with the value the claim script returned: decode it, compare fingerprints, and hand back the
     * stored result.
     *
     * @throws IllegalStateException when the fingerprints differ or the record is not completed
     */
    public static byte[] replayedResult(byte[] value, String fingerprint) {
        RequestRecord record = RequestRecord.decode(value);
        if (record.mismatches(fingerprint) || !record.completed()) {
            throw new IllegalStateException("not a replayable record");
        }
        return record.result();
    }

    /** The fingerprint that stands for "none". */
    public static String noFingerprint() {
        return RequestRecord.NO_FINGERPRINT;
    }
}
