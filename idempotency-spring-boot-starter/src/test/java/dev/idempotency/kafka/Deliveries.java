package dev.idempotency.kafka;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.kafka.listener.RecordInterceptor;

/**
 * The application's own record interceptor, as Spring Boot applies it to its listener container factory: it counts
 * what the containers delivered, and its presence proves that the record binding is added after it, not instead of it.
 * A delivery succeeded when the listener returned (ran or replayed); it failed when the listener threw.
 */
final class Deliveries implements RecordInterceptor<Object, Object> {

    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> succeededOffsets = new ConcurrentHashMap<>();

    @Override
    public ConsumerRecord<Object, Object> intercept(
            ConsumerRecord<Object, Object> record, Consumer<Object, Object> consumer) {
        return record;
    }

    @Override
    public void success(ConsumerRecord<Object, Object> record, Consumer<Object, Object> consumer) {
        count("success", record.topic(), String.valueOf(record.value()));
        // The listener container's id starts its consumer thread's name ("ledger-2-0-C-1").
        count("success-on", record.topic(), Thread.currentThread().getName().replaceAll("-\\d+-C-\\d+$", ""));
        succeededOffsets
                .computeIfAbsent(record.topic(), topic -> ConcurrentHashMap.newKeySet())
                .add(record.partition() + "@" + record.offset());
    }

    @Override
    public void failure(ConsumerRecord<Object, Object> record, Exception exception, Consumer<Object, Object> consumer) {
        Throwable cause = NestedExceptionUtils.getMostSpecificCause(exception);
        count("failure", record.topic(), record.value() + " " + cause.getClass().getSimpleName());
    }

    private void count(String kind, String topic, String what) {
        counts.computeIfAbsent(kind + " " + topic + " " + what, key -> new AtomicInteger())
                .incrementAndGet();
    }

    private int count(String key) {
        AtomicInteger count = counts.get(key);
        return count == null ? 0 : count.get();
    }

    /** How often a record of {@code value} on {@code topic} was handled without an exception. */
    int succeeded(String topic, String value) {
        return count("success " + topic + " " + value);
    }

    /** How often a record of {@code value} on {@code topic} failed with {@code cause} at the bottom. */
    int failed(String topic, String value, Class<? extends Throwable> cause) {
        return count("failure " + topic + " " + value + " " + cause.getSimpleName());
    }

    /** How many records of {@code topic} the container {@code listenerId} handled without an exception. */
    int succeededOn(String topic, String listenerId) {
        return count("success-on " + topic + " " + listenerId);
    }

    /** How many distinct records (partition and offset) of {@code topic} were handled without an exception. */
    int distinctSucceeded(String topic) {
        Set<String> offsets = succeededOffsets.get(topic);
        return offsets == null ? 0 : offsets.size();
    }
}
