package dev.idempotency.internal.requestid;

import dev.idempotency.internal.lease.Owners;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The value of a {@code REQUEST_ID} record, one Redis string. In progress: {@code P}, the owner id and the payload
 * fingerprint; fixed widths let the scripts check the owner with one {@code string.sub}. Completed: {@code C}, the
 * fingerprint and the stored result; no script guards a completed record, so it keeps no owner, which saves memory.
 * Completed without a result ({@code N} and the fingerprint): the work ran but its result was too large to keep, so
 * duplicates are told so rather than run it again. A duplicate reads everything in one reply.
 *
 * @param kept whether a completed record holds its result
 */
record RequestRecord(boolean completed, boolean kept, String fingerprint, byte[] result) {

    private static final String STATE_IN_PROGRESS = "P";
    private static final String STATE_COMPLETED = "C";
    private static final String STATE_NOT_KEPT = "N";

    /** Stands for "no fingerprint" (fingerprinting switched off); the same width as a real one. */
    static final String NO_FINGERPRINT = "-".repeat(22);

    private static final int IN_PROGRESS_LENGTH = 1 + Owners.LENGTH + NO_FINGERPRINT.length();
    private static final int COMPLETED_HEADER = 1 + NO_FINGERPRINT.length();

    static byte[] inProgress(String owner, String fingerprint) {
        return ascii(STATE_IN_PROGRESS, owner, fingerprint);
    }

    static byte[] completed(String fingerprint, byte[] result) {
        byte[] value = Arrays.copyOf(completedHead(fingerprint), COMPLETED_HEADER + result.length);
        System.arraycopy(result, 0, value, COMPLETED_HEADER, result.length);
        return value;
    }

    private static boolean isAscii(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /** What a completed record holds before its result; the complete script appends the result in Redis. */
    static byte[] completedHead(String fingerprint) {
        return ascii(STATE_COMPLETED, fingerprint, "");
    }

    static byte[] notKept(String fingerprint) {
        return ascii(STATE_NOT_KEPT, fingerprint, "");
    }

    /** What the guarded scripts compare the stored value's beginning with: in progress and owned by {@code owner}. */
    static byte[] ownedPrefix(String owner) {
        return ascii(STATE_IN_PROGRESS, owner, "");
    }

    /**
     * The state letter and the parts, ASCII (owner ids and fingerprints are base64url), written straight into the
     * value: no String joined first and encoded after, on every claim and completion.
     */
    private static byte[] ascii(String state, String first, String second) {
        if (!isAscii(first) || !isAscii(second)) { // a fingerprint given through the API may be anything
            return (state + first + second).getBytes(StandardCharsets.US_ASCII);
        }
        byte[] value = new byte[1 + first.length() + second.length()];
        value[0] = (byte) state.charAt(0);
        for (int i = 0; i < first.length(); i++) {
            value[1 + i] = (byte) first.charAt(i);
        }
        for (int i = 0, at = 1 + first.length(); i < second.length(); i++) {
            value[at + i] = (byte) second.charAt(i);
        }
        return value;
    }

    static RequestRecord decode(byte[] value) {
        if (value.length >= COMPLETED_HEADER && value[0] == 'C') {
            return new RequestRecord(
                    true,
                    true,
                    new String(value, 1, NO_FINGERPRINT.length(), StandardCharsets.US_ASCII),
                    Arrays.copyOfRange(value, COMPLETED_HEADER, value.length));
        }
        if (value.length == COMPLETED_HEADER && value[0] == 'N') {
            return new RequestRecord(
                    true, false, new String(value, 1, NO_FINGERPRINT.length(), StandardCharsets.US_ASCII), value);
        }
        if (value.length == IN_PROGRESS_LENGTH && value[0] == 'P') {
            return new RequestRecord(
                    false,
                    false,
                    new String(value, 1 + Owners.LENGTH, NO_FINGERPRINT.length(), StandardCharsets.US_ASCII),
                    new byte[0]);
        }
        throw new IllegalStateException("Not an idempotency record (" + value.length + " bytes)");
    }

    /** What a claim with {@code fingerprint} finds in the record {@code existing}, which it did not write. */
    static ClaimOutcome outcomeOf(byte[] existing, String fingerprint) {
        RequestRecord record = decode(existing);
        if (record.mismatches(fingerprint)) {
            return new ClaimOutcome.Mismatch();
        }
        if (!record.completed()) {
            return new ClaimOutcome.InProgress();
        }
        return record.kept() ? new ClaimOutcome.Replay(record.result(), existing) : new ClaimOutcome.NotKept();
    }

    /** Whether a request with {@code otherFingerprint} carries a different payload than the one that made this record. */
    boolean mismatches(String otherFingerprint) {
        return !fingerprint.equals(NO_FINGERPRINT)
                && !otherFingerprint.equals(NO_FINGERPRINT)
                && !fingerprint.equals(otherFingerprint);
    }
}
