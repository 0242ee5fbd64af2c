package dev.idempotency.internal.token;

import dev.idempotency.InvalidTokenException;
import org.jspecify.annotations.Nullable;

/** What an issued token looks like: 32 characters of URL-safe Base64, checked before Redis is asked. */
final class TokenFormat {

    private static final int TOKEN_LENGTH = 32;

    private TokenFormat() {}

    /** Rejects malformed input before Redis is touched: a forged token costs no round trip. */
    static String requireWellFormed(@Nullable String token) {
        if (token == null || token.isEmpty()) {
            throw new InvalidTokenException("The token is missing");
        }
        if (token.length() != TOKEN_LENGTH || !isBase64Url(token)) {
            throw new InvalidTokenException("The token is malformed");
        }
        return token;
    }

    private static boolean isBase64Url(String token) {
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            boolean ok =
                    (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
