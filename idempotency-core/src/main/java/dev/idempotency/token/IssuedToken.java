package dev.idempotency.token;

import java.time.Duration;

/**
 * A freshly issued one-time token.
 *
 * @param token the value the client sends back (base64url, 192 random bits)
 * @param expiresIn how long it stays valid
 */
public record IssuedToken(String token, Duration expiresIn) {}
