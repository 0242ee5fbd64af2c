package dev.idempotency.sample.shop;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/** Stock per SKU, in memory; a SKU not seen before starts with {@value #INITIAL_STOCK} units. */
@Component
public class Inventory {

    static final int INITIAL_STOCK = 100;

    private final Map<String, Integer> stock = new ConcurrentHashMap<>();

    public int available(String sku) {
        return stock.getOrDefault(sku, INITIAL_STOCK);
    }

    /**
     * Takes {@code quantity} units and returns what is left. A plain read-check-write on purpose: callers hold the
     * SKU's Redis lock, which serializes reservations across every instance of the app, as a shared database row
     * would need; the map only stands in for that database.
     *
     * @throws OutOfStockException when fewer than {@code quantity} units are left
     */
    public int reserve(String sku, int quantity) {
        int available = available(sku);
        if (quantity > available) {
            throw new OutOfStockException(sku, quantity, available);
        }
        int left = available - quantity;
        stock.put(sku, left);
        return left;
    }
}
