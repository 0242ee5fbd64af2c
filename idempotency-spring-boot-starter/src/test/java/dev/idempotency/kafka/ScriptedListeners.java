package dev.idempotency.kafka;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import org.springframework.kafka.annotation.KafkaListener;

/**
 * Listeners whose failures the tests choose: one that fails as scripted, and a {@code LOCK} listener that reserves the
 * stock of the record's key, busy while the test holds that lock.
 */
class ScriptedListeners {

    static final String SCRIPTED = "scripted";
    static final String STOCK = "stock";

    private final Failures failures = new Failures();
    private final Executions reservations = new Executions();

    // Fields are read through these methods: the test holds the AOP proxy, whose own fields are never set.
    public Failures failures() {
        return failures;
    }

    public Executions reservations() {
        return reservations;
    }

    @KafkaListener(id = SCRIPTED, topics = SCRIPTED)
    public void scripted(String value) {
        failures.attempt(value);
    }

    @KafkaListener(id = STOCK, topics = STOCK)
    @Idempotent(strategy = Strategy.LOCK, key = "'stock-' + #record.key()")
    public void reserve(String sku) {
        reservations.increment(sku);
    }

    /** The resource {@link #reserve} locks for a record with {@code recordKey}. */
    static String stock(String recordKey) {
        return "stock-" + recordKey;
    }
}
