package dev.idempotency.internal;

import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * SHA-256 digests in base64url, used so that client input never chooses a Redis key's length, characters or cluster
 * slot.
 */
public final class KeyDigests {

    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    /**
     * MessageDigest instances are not thread-safe and costly to look up; one per thread keeps the fast path cheap, with
     * the buffers a digest goes through, so that a key costs its String and nothing else.
     */
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private KeyDigests() {}

    /**
     * Digest of the parts, each length-prefixed so that {@code ("ab", "c")} and {@code ("a", "bc")} differ; 43
     * base64url characters.
     */
    public static String digest(String... parts) {
        Scratch scratch = SCRATCH.get();
        MessageDigest sha = scratch.sha256;
        sha.reset();
        for (String part : parts) {
            scratch.update(part);
        }
        return scratch.encode(32);
    }

    /** The first 128 bits of {@link #digest(String...)}: 22 base64url characters, used for payload fingerprints. */
    public static String shortDigest(byte[] data) {
        Scratch scratch = SCRATCH.get();
        scratch.sha256.reset();
        scratch.sha256.update(data);
        return scratch.encode(16);
    }

    /** A thread's digest and the buffers around it. */
    private static final class Scratch {

        final MessageDigest sha256 = newSha256();
        final byte[] digest = new byte[32];
        final byte[] encoded = new byte[44];
        final byte[] truncated = new byte[16];
        byte[] text = new byte[64];

        /** Adds one part, its UTF-8 length first; ASCII text (keys, scopes, operations mostly) without a copy. */
        void update(String part) {
            int length = part.length();
            boolean ascii = true;
            for (int i = 0; i < length && ascii; i++) {
                ascii = part.charAt(i) < 0x80;
            }
            byte[] bytes;
            if (ascii) {
                if (text.length < length) {
                    text = new byte[Math.max(length, text.length * 2)];
                }
                for (int i = 0; i < length; i++) {
                    text[i] = (byte) part.charAt(i); // ASCII: each char is its byte
                }
                bytes = text;
            } else {
                bytes = part.getBytes(StandardCharsets.UTF_8);
                length = bytes.length;
            }
            sha256.update((byte) (length >>> 24));
            sha256.update((byte) (length >>> 16));
            sha256.update((byte) (length >>> 8));
            sha256.update((byte) length);
            sha256.update(bytes, 0, length);
        }

        /** The digest's first {@code bytes} bytes in base64url. */
        String encode(int bytes) {
            try {
                sha256.digest(digest, 0, digest.length);
            } catch (DigestException ex) {
                throw new IllegalStateException("SHA-256 digests are 32 bytes", ex);
            }
            byte[] source = digest;
            if (bytes < digest.length) {
                System.arraycopy(digest, 0, truncated, 0, bytes);
                source = truncated;
            }
            int length = BASE64URL.encode(source, encoded);
            return new String(encoded, 0, length, StandardCharsets.ISO_8859_1);
        }
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", ex);
        }
    }
}
