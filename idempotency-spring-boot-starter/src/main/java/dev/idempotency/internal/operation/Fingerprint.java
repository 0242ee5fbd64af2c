package dev.idempotency.internal.operation;

import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * Builds a payload fingerprint: a SHA-256 over tagged, length-prefixed parts, so that no two different payloads
 * encode alike ({@code ?a=1,2} and {@code ?a=1&a=2}, a part that ends where the next begins), truncated to 128 bits
 * in 22 base64url characters. Parts stream into the digest; nothing is buffered.
 *
 * <p>A fingerprint reuses its thread's digest and buffers (a new digest allocates about 500 bytes, on every protected
 * call otherwise); one begun while the thread's is still in use (another fingerprint not done yet, or abandoned half-way
 * by an exception) gets a new one, which the thread keeps instead.
 */
public final class Fingerprint {

    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();
    private static final int BYTES = 16;
    private static final ThreadLocal<Digest> DIGESTS = ThreadLocal.withInitial(Digest::new);

    private final Digest digest;

    public Fingerprint() {
        Digest mine = DIGESTS.get();
        if (mine.inUse) { // the thread's is another fingerprint's: this one's becomes the thread's from now on
            mine = new Digest();
            DIGESTS.set(mine);
        }
        mine.inUse = true;
        mine.sha256.reset();
        this.digest = mine;
    }

    /** Adds one part: a one-byte tag naming what it is, its length, and its bytes. */
    public Fingerprint add(char tag, byte[] bytes) {
        return add(tag, bytes, 0, bytes.length);
    }

    public Fingerprint add(char tag, byte[] bytes, int offset, int length) {
        MessageDigest sha256 = digest.sha256;
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

    /** The 22-character digest; the fingerprint is done. */
    public String digest() {
        try {
            digest.sha256.digest(digest.full, 0, digest.full.length);
        } catch (DigestException ex) {
            throw new IllegalStateException("SHA-256 digests are 32 bytes", ex);
        } finally {
            digest.inUse = false;
        }
        System.arraycopy(digest.full, 0, digest.truncated, 0, BYTES);
        int length = BASE64URL.encode(digest.truncated, digest.encoded);
        return new String(digest.encoded, 0, length, StandardCharsets.ISO_8859_1);
    }

    /** A SHA-256 digest and the buffers its result goes through. */
    private static final class Digest {

        final MessageDigest sha256;
        final byte[] full = new byte[32];
        final byte[] truncated = new byte[BYTES];
        final byte[] encoded = new byte[22];
        boolean inUse;

        Digest() {
            try {
                this.sha256 = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException ex) {
                throw new IllegalStateException("SHA-256 is required by every Java platform", ex);
            }
        }
    }
}
