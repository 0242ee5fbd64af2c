package dev.idempotency.web;

/**
 * The body of the token endpoint's {@code 201} response, on Spring MVC and WebFlux alike.
 *
 * @param token the one-time token
 * @param header the header to send it in
 * @param expiresInSeconds its lifetime
 */
public record TokenResponse(String token, String header, long expiresInSeconds) {}
