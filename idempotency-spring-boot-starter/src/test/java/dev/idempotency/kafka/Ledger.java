package dev.idempotency.kafka;

import dev.idempotency.Idempotent;
import org.springframework.kafka.annotation.KafkaListener;

/**
 * Two consumers of one group: the second starts only when the test says so, and its joining makes the group
 * rebalance. Both protect the same operation, so an entry is booked once whichever consumer gets its records.
 */
class Ledger {

    static final String TOPIC = "ledger";

    private final Executions bookings = new Executions();

    // Fields are read through these methods: the test holds the AOP proxy, whose own fields are never set.
    public Executions bookings() {
        return bookings;
    }

    @KafkaListener(id = "ledger-1", topics = TOPIC, groupId = "ledger", properties = "max.poll.records=20")
    @Idempotent(operation = "ledger-entry")
    public void first(String entry) {
        bookings.increment(entry);
    }

    @KafkaListener(
            id = "ledger-2",
            topics = TOPIC,
            groupId = "ledger",
            autoStartup = "false",
            properties = "max.poll.records=20")
    @Idempotent(operation = "ledger-entry")
    public void second(String entry) {
        bookings.increment(entry);
    }
}
