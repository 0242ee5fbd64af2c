package dev.idempotency.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;

/**
 * SHA-256 digests in base64url, used so that client input never chooses a Redis key's length, characters or cluster
 * slot.
 */
public final class KeyDigests {

    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    /** MessageDigest instances are not thread-safe and costly to look up; one per thread keeps the fast path cheap. */
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(KeyDigests::newSha256);

    private KeyDigests() {}

    /**
     * Digest of the parts, each length-prefixed so that {@code ("ab", "c")} and {@code ("a", "bc")} differ; 43
     * base64url characters.
     */
    public static String digest(String... parts) {
        return BASE64URL.encodeToString(sha256(parts));
    }

    /** The first 128 bits of {@link #digest(String...)}: 22 base64url characters, used for payload fingerprints. */
    public static String shortDigest(byte[] data) {
        MessageDigest sha = SHA256.get();
        sha.reset();
        return BASE64URL.encodeToString(Arrays.copyOf(sha.digest(data), 16));
    }

    private static byte[] sha256(String... parts) {
        MessageDigest sha = SHA256.get();
        sha.reset();
        for (String part : parts) {
            byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
            sha.update((byte) (bytes.length >>> 24));
            sha.update((byte) (bytes.length >>> 16));
            sha.update((byte) (bytes.length >>> 8));
            sha.update((byte) bytes.length);
            sha.update(bytes);
        }
        return sha.digest();
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", ex);
        }
    }
}
