package dev.idempotency.requestid;

import dev.idempotency.support.Owners;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The value of a {@code REQUEST_ID} record, one Redis string: a state byte ({@code P} in progress, {@code C}
 * completed), the owner id, the payload fingerprint, then (once completed) the stored result. Fixed-width headers let
 * the scripts check the owner with one {@code string.sub}, and a duplicate reads everything in one reply.
 */
record RequestRecord(boolean completed, String owner, String fingerprint, byte[] result) {

    private static final String STATE_IN_PROGRESS = "P";
    private static final String STATE_COMPLETED = "C";

    /** Stands for "no fingerprint" (fingerprinting switched off); the same width as a real one. */
    static final String NO_FINGERPRINT = "-".repeat(22);

    private static final int HEADER = 1 + Owners.LENGTH + NO_FINGERPRINT.length();

    static byte[] inProgress(String owner, String fingerprint) {
        return (STATE_IN_PROGRESS + owner + fingerprint).getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] completed(String owner, String fingerprint, byte[] result) {
        byte[] value = Arrays.copyOf(
                (STATE_COMPLETED + owner + fingerprint).getBytes(StandardCharsets.US_ASCII), HEADER + result.length);
        System.arraycopy(result, 0, value, HEADER, result.length);
        return value;
    }

    /** What the guarded scripts compare the stored value's beginning with: in progress and owned by {@code owner}. */
    static byte[] ownedPrefix(String owner) {
        return (STATE_IN_PROGRESS + owner).getBytes(StandardCharsets.US_ASCII);
    }

    static RequestRecord decode(byte[] value) {
        if (value.length < HEADER || (value[0] != 'P' && value[0] != 'C')) {
            throw new IllegalStateException("Not an idempotency record (" + value.length + " bytes)");
        }
        String header = new String(value, 0, HEADER, StandardCharsets.US_ASCII);
        return new RequestRecord(
                value[0] == 'C',
                header.substring(1, 1 + Owners.LENGTH),
                header.substring(1 + Owners.LENGTH),
                Arrays.copyOfRange(value, HEADER, value.length));
    }

    /** Whether a request with {@code otherFingerprint} carries a different payload than the one that made this record. */
    boolean mismatches(String otherFingerprint) {
        return !fingerprint.equals(NO_FINGERPRINT)
                && !otherFingerprint.equals(NO_FINGERPRINT)
                && !fingerprint.equals(otherFingerprint);
    }
}
