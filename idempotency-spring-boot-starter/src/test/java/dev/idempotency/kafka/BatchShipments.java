package dev.idempotency.kafka;

import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;

/** A batch listener that dedups each record with {@link KafkaIdempotency}; its shipments fail as the test scripts. */
class BatchShipments {

    static final String TOPIC = "batch-shipments";

    final Executions shipped = new Executions();
    final Failures failures = new Failures();
    private final KafkaIdempotency idempotency;

    BatchShipments(KafkaIdempotency idempotency) {
        this.idempotency = idempotency;
    }

    @KafkaListener(id = "batch-shipments", topics = TOPIC, batch = "true")
    public void ship(List<ConsumerRecord<String, String>> records) {
        idempotency.processEach("shipments", records, record -> {
            failures.attempt(record.value());
            shipped.increment(record.value());
        });
    }
}
