package dev.idempotency.internal.lease;

import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;

/** Owner ids: 128 random bits in 22 base64url characters, unique per execution, claim or lock acquisition. */
public final class Owners {

    /** Length of every owner id, fixed so that scripts can compare record prefixes. */
    public static final int LENGTH = 22;

    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    private Owners() {}

    /**
     * A fresh owner id. Uniqueness, not secrecy, is what matters here, so the fast thread-local generator serves;
     * tokens use {@link java.security.SecureRandom}.
     */
    public static String next() {
        return random(16);
    }

    /** {@code bytes} random bytes in base64url, from the same fast generator: an id unique among a few. */
    public static String random(int bytes) {
        byte[] random = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(random);
        return BASE64URL.encodeToString(random);
    }
}
