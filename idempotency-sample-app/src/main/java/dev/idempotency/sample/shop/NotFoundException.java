package dev.idempotency.sample.shop;

import org.springframework.http.HttpStatus;

/** An id the shop does not know: 404. */
public class NotFoundException extends ShopException {

    public NotFoundException(String detail) {
        super(HttpStatus.NOT_FOUND, "not-found", "Not found", detail);
    }
}
