package dev.idempotency.kafka;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.listener.RecordInterceptor;

/**
 * Binds the record a listener container is delivering to the consumer thread, from just before the listener is invoked
 * until it returned or threw, so that an {@code @Idempotent} listener method can read its key and payload whatever
 * parameters it declares. Every exit clears it: success, failure, the end of the record, the end of the thread.
 */
final class RecordBinding implements RecordInterceptor<Object, Object> {

    private static final ThreadLocal<ConsumerRecord<?, ?>> CURRENT = new ThreadLocal<>();

    /** The record being delivered on this thread, or {@code null} outside a record listener's invocation. */
    static @Nullable ConsumerRecord<?, ?> current() {
        return CURRENT.get();
    }

    @Override
    public ConsumerRecord<Object, Object> intercept(
            ConsumerRecord<Object, Object> record, Consumer<Object, Object> consumer) {
        CURRENT.set(record);
        return record;
    }

    @Override
    public void success(ConsumerRecord<Object, Object> record, Consumer<Object, Object> consumer) {
        CURRENT.remove();
    }

    @Override
    public void failure(ConsumerRecord<Object, Object> record, Exception exception, Consumer<Object, Object> consumer) {
        CURRENT.remove();
    }

    @Override
    public void afterRecord(ConsumerRecord<Object, Object> record, Consumer<Object, Object> consumer) {
        CURRENT.remove(); // also when an interceptor after this one filtered the record out
    }

    @Override
    public void clearThreadState(Consumer<?, ?> consumer) {
        CURRENT.remove();
    }
}
