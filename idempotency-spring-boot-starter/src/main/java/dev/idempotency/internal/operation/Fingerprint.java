package dev.idempotency.internal.operation;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;

/**
 * Builds a payload fingerprint: a SHA-256 over tagged, length-prefixed parts, so that no two different payloads
 * encode alike ({@code ?a=1,2} and {@code ?a=1&a=2}, a part that ends where the next begins), truncated to 128 bits
 * in 22 base64url characters. Parts stream into the digest; nothing is buffered.
 */
public final class Fingerprint {

    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    private final MessageDigest sha256;

    public Fingerprint() {
        try {
            this.sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", ex);
        }
    }

    /** Adds one part: a one-byte tag naming what it is, its length, and its bytes. */
    public Fingerprint add(char tag, byte[] bytes) {
        return add(tag, bytes, 0, bytes.length);
    }

    public Fingerprint add(char tag, byte[] bytes, int offset, int length) {
        sha256.update((byte) tag);
        sha256.update((byte) (length >>> 24));
        sha256.update((byte) (length >>> 16));
        sha256.update((byte) (length >>> 8));
        sha256.update((byte) length);
        sha256.update(bytes, offset, length);
        return this;
    }

    public Fingerprint add(char tag, String text) {
        return add(tag, text.getBytes(StandardCharsets.UTF_8));
    }

    /** The 22-character digest. */
    public String digest() {
        return BASE64URL.encodeToString(Arrays.copyOf(sha256.digest(), 16));
    }
}
