package dev.idempotency.sample.shop;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Stock reservations, protected by {@code LOCK} on the SKU: one reservation per SKU at a time, and a concurrent one
 * gets 409 with {@code Retry-After} instead of racing it. Running out of stock is a different 409 ({@code out-of-stock}).
 */
@RestController
@RequestMapping("/api/inventory")
public class InventoryController {

    private final Inventory inventory;

    public InventoryController(Inventory inventory) {
        this.inventory = inventory;
    }

    /** The optional body of a reservation; {@code quantity} defaults to 1. */
    public record ReserveRequest(@Nullable Integer quantity) {}

    /** What a reservation took and what is left. */
    public record Reservation(String sku, int reserved, int available) {}

    /** The units left of one SKU. */
    public record Stock(String sku, int available) {}

    @PostMapping("/{sku}/reserve")
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public Reservation reserve(
            @PathVariable String sku, @RequestBody(required = false) @Nullable ReserveRequest request) {
        Integer requested = request == null ? null : request.quantity();
        int quantity = requested == null ? 1 : requested;
        InvalidRequestException.check(quantity >= 1, "quantity must be at least 1");
        int left = inventory.reserve(sku, quantity);
        return new Reservation(sku, quantity, left);
    }

    @GetMapping("/{sku}")
    public Stock stock(@PathVariable String sku) {
        return new Stock(sku, inventory.available(sku));
    }
}
