package dev.idempotency.sample.shop;

import dev.idempotency.Idempotent;
import java.net.URI;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Orders, protected by {@code REQUEST_ID}: the client sends an {@code Idempotency-Key} header, and a retry with the
 * same key and body gets the first response again (with {@code Idempotent-Replayed: true}) instead of a second order.
 */
@RestController
@RequestMapping("/api/orders")
public class OrderController {

    private final OrderBook orders;

    public OrderController(OrderBook orders) {
        this.orders = orders;
    }

    /** The body of {@code POST /api/orders}; fields are nullable so a missing one gets a clear 400. */
    public record OrderRequest(
            @Nullable String item, @Nullable Integer quantity) {}

    @PostMapping
    @Idempotent
    public ResponseEntity<Order> create(@RequestBody OrderRequest request) {
        String item = request.item();
        Integer quantity = request.quantity();
        InvalidRequestException.check(item != null && !item.isBlank(), "item must not be blank");
        InvalidRequestException.check(quantity != null && quantity >= 1, "quantity must be at least 1");
        Order order = orders.create(item.strip(), quantity);
        // Status, body and Location are stored with the key, so a replay answers exactly this.
        return ResponseEntity.created(URI.create("/api/orders/" + order.id())).body(order);
    }

    @GetMapping
    public List<Order> list() {
        return orders.all();
    }

    @GetMapping("/{id}")
    public Order get(@PathVariable String id) {
        return orders.find(id).orElseThrow(() -> new NotFoundException("No order " + id));
    }
}
