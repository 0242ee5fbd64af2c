package dev.idempotency.openapi;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** One handler per way an operation can be protected, for the documentation tests. */
@RestController
class DocumentedController {

    /** The body of a payment. */
    record Payment(String paymentId) {}

    @PostMapping("/orders")
    @Idempotent
    public Map<String, Object> order(@RequestBody Map<String, Object> order) {
        return order;
    }

    @PostMapping("/payments")
    @Idempotent(key = "#payment.paymentId", policy = "relaxed")
    public Payment pay(@RequestBody Payment payment) {
        return payment;
    }

    @PostMapping("/feedback")
    @Idempotent(strategy = Strategy.TOKEN)
    public String feedback(@RequestBody String message) {
        return message;
    }

    @PostMapping("/stock/{sku}")
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public String reserve(@PathVariable String sku) {
        return sku;
    }

    @GetMapping("/orders")
    public String list() {
        return "[]";
    }
}
