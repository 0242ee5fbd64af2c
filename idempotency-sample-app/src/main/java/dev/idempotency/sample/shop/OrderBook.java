package dev.idempotency.sample.shop;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

/** The orders created so far, in memory and in creation order: the sample keeps no database. */
@Component
public class OrderBook {

    private final Map<String, Order> orders = new LinkedHashMap<>();
    private long sequence;

    public synchronized Order create(String item, int quantity) {
        Order order = new Order("ord-" + ++sequence, item, quantity, Instant.now());
        orders.put(order.id(), order);
        return order;
    }

    public synchronized List<Order> all() {
        return List.copyOf(orders.values());
    }

    public synchronized Optional<Order> find(String id) {
        return Optional.ofNullable(orders.get(id));
    }
}
