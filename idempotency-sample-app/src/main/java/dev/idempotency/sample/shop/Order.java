package dev.idempotency.sample.shop;

import java.time.Instant;

/** An order as the API returns it. */
public record Order(String id, String item, int quantity, Instant createdAt) {}
