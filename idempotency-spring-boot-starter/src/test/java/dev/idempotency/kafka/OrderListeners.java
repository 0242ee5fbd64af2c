package dev.idempotency.kafka;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.support.Acknowledgment;

/** Idempotent record listeners keyed by the record header (or by SpEL over the record), counting the work they do. */
class OrderListeners {

    private final Executions executions = new Executions();
    private final Executions attempts = new Executions();

    // Fields are read through these methods: the test holds the AOP proxy, whose own fields are never set.
    public Executions executions() {
        return executions;
    }

    public Executions attempts() {
        return attempts;
    }

    @KafkaListener(id = "orders", topics = "orders")
    @Idempotent
    public void order(String order) {
        executions.increment(order);
    }

    /**
     * In the manual acknowledgment mode of its factory, a listener that never acknowledges never has its offset
     * committed: its record comes back whenever its container starts again, exactly as after a consumer that crashed
     * after the work and before the commit.
     */
    @KafkaListener(id = "uncommitted", topics = "uncommitted", containerFactory = KafkaTestApplication.MANUAL_ACK)
    @Idempotent
    public void payment(String payment, Acknowledgment acknowledgment) {
        executions.increment(payment);
    }

    @KafkaListener(id = "flaky", topics = "flaky")
    @Idempotent
    public void shipment(String shipment) {
        if (attempts.increment(shipment) == 1) {
            throw new IllegalStateException("The carrier's API is down");
        }
        executions.increment(shipment);
    }

    /** The key comes from the record (its Kafka key) and the payload argument together. */
    @KafkaListener(id = "keyed", topics = "keyed")
    @Idempotent(key = "#record.key() + '/' + #event")
    public void keyed(String event) {
        executions.increment(event);
    }

    /** Only the amount of a transfer counts for its fingerprint (policy {@code amounts-only}). */
    @KafkaListener(id = "transfers", topics = "transfers")
    @Idempotent(policy = "amounts-only")
    public void transfer(String transfer) {
        executions.increment(transfer);
    }

    /** Policy {@code rollout} ({@code missing-key: proceed}): a record without a key header runs unprotected. */
    @KafkaListener(id = "rollout", topics = "rollout")
    @Idempotent(policy = "rollout")
    public void rollout(String order) {
        executions.increment(order);
    }

    /** A one-time token, in the record's key header, guards the notice. */
    @KafkaListener(id = "notices", topics = "notices")
    @Idempotent(strategy = Strategy.TOKEN, operation = "notices")
    public void notice(String notice) {
        executions.increment(notice);
    }
}
