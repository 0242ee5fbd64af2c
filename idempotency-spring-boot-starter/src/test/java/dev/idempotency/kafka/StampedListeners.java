package dev.idempotency.kafka;

import dev.idempotency.Idempotent;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.messaging.handler.annotation.Header;

/** Listeners that report the idempotency key each record arrived with. */
class StampedListeners {

    private final Executions executions = new Executions();
    private final Map<String, String> keys = new ConcurrentHashMap<>();
    private final Map<String, String> customKeys = new ConcurrentHashMap<>();

    // Fields are read through these methods: the test holds the AOP proxy, whose own fields are never set.
    public Executions executions() {
        return executions;
    }

    public Map<String, String> keys() {
        return keys;
    }

    public Map<String, String> customKeys() {
        return customKeys;
    }

    /** Needs a key header: without the stamping producer, a record sent without one would never be processed. */
    @KafkaListener(id = "stamped", topics = "stamped")
    @Idempotent
    public void notice(String notice, @Header("Idempotency-Key") String key) {
        executions.increment(notice);
        keys.put(notice, key);
    }

    @KafkaListener(id = "stamped-custom", topics = "stamped-custom")
    public void custom(ConsumerRecord<String, String> record) {
        var header = record.headers().lastHeader("X-Dedup-Key");
        customKeys.put(record.value(), header == null ? "" : new String(header.value(), StandardCharsets.UTF_8));
    }
}
