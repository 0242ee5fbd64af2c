package dev.idempotency.sample.shop;

import org.springframework.http.HttpStatus;

/** A request body the shop cannot accept: 400. */
public class InvalidRequestException extends ShopException {

    public InvalidRequestException(String detail) {
        super(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request", detail);
    }

    /** Throws with {@code detail} unless {@code valid}. */
    static void check(boolean valid, String detail) {
        if (!valid) {
            throw new InvalidRequestException(detail);
        }
    }
}
