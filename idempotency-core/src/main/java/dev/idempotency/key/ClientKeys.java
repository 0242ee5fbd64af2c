package dev.idempotency.key;

import dev.idempotency.InvalidIdempotencyKeyException;
import dev.idempotency.MissingIdempotencyKeyException;
import org.jspecify.annotations.Nullable;

/**
 * Validates the key a client sends, plain ({@code abc-123}) or as a Structured Field string ({@code "abc-123"}, RFC
 * 8941), before anything reaches Redis.
 */
public final class ClientKeys {

    /** Longest key accepted, as in the IETF {@code Idempotency-Key} draft and Stripe. */
    public static final int MAX_LENGTH = 255;

    private ClientKeys() {}

    /**
     * Returns the key a client meant, unwrapped from Structured Field string form when quoted.
     *
     * @throws MissingIdempotencyKeyException when {@code raw} is {@code null}
     * @throws InvalidIdempotencyKeyException when the key is empty, longer than {@value #MAX_LENGTH} characters or
     *     holds a character outside visible ASCII
     */
    public static String parse(@Nullable String raw) {
        if (raw == null) {
            throw new MissingIdempotencyKeyException("The idempotency key is missing");
        }
        String key = isQuoted(raw) ? unquote(raw) : raw;
        if (key.isEmpty()) {
            throw new InvalidIdempotencyKeyException("The idempotency key is empty");
        }
        if (key.length() > MAX_LENGTH) {
            throw new InvalidIdempotencyKeyException(
                    "The idempotency key is longer than " + MAX_LENGTH + " characters");
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x21 || c > 0x7E) {
                throw new InvalidIdempotencyKeyException(
                        "The idempotency key may hold only visible ASCII characters (position " + i + ")");
            }
        }
        return key;
    }

    private static boolean isQuoted(String raw) {
        return raw.length() >= 2 && raw.charAt(0) == '"' && raw.charAt(raw.length() - 1) == '"';
    }

    /** RFC 8941 section 4.2.5: inside the quotes only {@code \"} and {@code \\} are escapes; a bare quote is an error. */
    private static String unquote(String quoted) {
        StringBuilder key = new StringBuilder(quoted.length() - 2);
        for (int i = 1; i < quoted.length() - 1; i++) {
            char c = quoted.charAt(i);
            if (c == '\\') {
                char next = i + 1 < quoted.length() - 1 ? quoted.charAt(++i) : 0;
                if (next != '"' && next != '\\') {
                    throw new InvalidIdempotencyKeyException("The idempotency key has an invalid escape");
                }
                key.append(next);
            } else if (c == '"') {
                throw new InvalidIdempotencyKeyException("The idempotency key has an unescaped quote");
            } else {
                key.append(c);
            }
        }
        return key.toString();
    }
}
