package dev.idempotency.sample.shop;

import org.springframework.http.HttpStatus;

/** A reservation asking for more than is left: 409, as the request conflicts with the current stock. */
public class OutOfStockException extends ShopException {

    public OutOfStockException(String sku, int requested, int available) {
        super(
                HttpStatus.CONFLICT,
                "out-of-stock",
                "Out of stock",
                "Cannot reserve " + requested + " of " + sku + ": " + available + " available");
    }
}
