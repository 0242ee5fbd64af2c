package dev.idempotency.it;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Endpoints for every row of the HTTP contract; each counts how often its body really ran. */
@RestController
public class ShopController {

    final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    private volatile CountDownLatch gate = new CountDownLatch(0);
    private volatile CountDownLatch entered = new CountDownLatch(1);

    record OrderRequest(String item, int quantity) {}

    record Order(String id, String item, int quantity) {}

    record Payment(String paymentId, long amountCents) {}

    /** Makes the next gated call wait inside its method until {@link #release()}. Methods, not fields: this is a proxy. */
    public void hold() {
        hold(1);
    }

    /** Makes gated calls wait inside their methods; {@link #awaitEntered()} returns once {@code entrants} are in. */
    public void hold(int entrants) {
        gate = new CountDownLatch(1);
        entered = new CountDownLatch(entrants);
    }

    public void release() {
        gate.countDown();
    }

    public boolean awaitEntered() throws InterruptedException {
        return entered.await(10, TimeUnit.SECONDS);
    }

    public int runs(String endpoint) {
        return runs.computeIfAbsent(endpoint, k -> new AtomicInteger()).get();
    }

    private int count(String endpoint) {
        return runs.computeIfAbsent(endpoint, k -> new AtomicInteger()).incrementAndGet();
    }

    private void passGate() {
        entered.countDown();
        try {
            gate.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    @PostMapping("/orders")
    @Idempotent
    public ResponseEntity<Order> create(@RequestBody OrderRequest request) {
        int n = count("orders");
        passGate();
        Order order = new Order("o-" + n, request.item(), request.quantity());
        return ResponseEntity.created(URI.create("/orders/" + order.id()))
                .eTag("\"v" + n + "\"")
                .body(order);
    }

    @PostMapping("/carts/{cartId}/items")
    @Idempotent
    @ResponseStatus(HttpStatus.CREATED)
    public Order addItem(@PathVariable String cartId, @RequestBody OrderRequest request) {
        return new Order(cartId + "-" + count("carts"), request.item(), request.quantity());
    }

    @PostMapping("/payments")
    @Idempotent(key = "#payment.paymentId", policy = "payments")
    @ResponseStatus(HttpStatus.CREATED)
    public Payment pay(@RequestBody Payment payment) {
        count("payments");
        return payment;
    }

    @PostMapping("/patient")
    @Idempotent(policy = "patient")
    public Map<String, Object> patient() {
        int n = count("patient");
        passGate();
        return Map.of("run", n);
    }

    @PostMapping("/lenient")
    @Idempotent(policy = "lenient")
    public Map<String, Object> lenient() {
        return Map.of("run", count("lenient"));
    }

    /** Under policy rollout ({@code missing-key: proceed}): a request without a key runs unprotected. */
    @PostMapping("/rollout")
    @Idempotent(policy = "rollout")
    public Map<String, Object> rollout(@RequestBody OrderRequest request) {
        return Map.of("run", count("rollout"), "item", request.item());
    }

    @PostMapping("/failing")
    @Idempotent
    public String failing() {
        count("failing");
        throw new IllegalStateException("downstream failed");
    }

    @PostMapping("/unavailable")
    @Idempotent
    public ResponseEntity<String> unavailable() {
        count("unavailable");
        return ResponseEntity.status(HttpStatus.BAD_GATEWAY).body("upstream down");
    }

    @PostMapping("/feedback")
    @Idempotent(strategy = Strategy.TOKEN)
    @ResponseStatus(HttpStatus.CREATED)
    public Map<String, Object> feedback(@RequestBody Map<String, Object> feedback) {
        if (Boolean.TRUE.equals(feedback.get("fail"))) {
            count("feedback-failed");
            throw new IllegalStateException("could not save");
        }
        return Map.of("saved", count("feedback"));
    }

    @PostMapping("/inventory/{sku}/reserve")
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public Map<String, Object> reserve(@PathVariable String sku) {
        count("reserve");
        passGate();
        return Map.of("sku", sku, "reserved", 1);
    }

    /** A text answer: Spring MVC's string converter flushes it, so only the response filter can hold it back. */
    @PostMapping("/inventory/{sku}/hold")
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public String holdStock(@PathVariable String sku) {
        count("hold");
        return "held " + sku;
    }

    @PostMapping("/reports/{id}")
    public List<ReportService.Report> report(@PathVariable String id) {
        return reports.generate(id);
    }

    private final ReportService reports;

    ShopController(ReportService reports) {
        this.reports = reports;
    }
}
