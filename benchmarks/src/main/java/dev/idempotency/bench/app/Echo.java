package dev.idempotency.bench.app;

/**
 * The request and response body of every bench endpoint: about 200 bytes of JSON.
 *
 * @param id unique per request (the lock key of {@code /lock}), fixed for duplicates
 * @param item an item name
 * @param quantity a quantity
 * @param amountCents an amount
 * @param currency a currency code
 * @param note padding that brings the body to a typical API response size
 */
public record Echo(String id, String item, int quantity, long amountCents, String currency, String note) {}
