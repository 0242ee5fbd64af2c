package dev.idempotency.kafka;

import dev.idempotency.internal.operation.CallSource;
import dev.idempotency.internal.operation.InvocationFlow;
import dev.idempotency.internal.operation.ProtectedInvocation;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.support.KafkaUtils;

/**
 * Claims a call when a listener container is delivering a record on this thread and the annotated method is a Kafka
 * listener; an {@code @Idempotent} service method the listener calls in turn stays a bean call. The record binding
 * cannot tell which listener the container invoked, so any {@code @KafkaListener} or {@code @KafkaHandler} method
 * called while a record is bound is claimed with that record: also one of another bean that the listener calls
 * directly, which then shares the record's key within its own operation.
 */
final class KafkaCallSource implements CallSource {

    private final ListenerMethods listeners;
    private final KafkaRecordFlow flow;

    KafkaCallSource(ListenerMethods listeners, KafkaRecordFlow flow) {
        this.listeners = listeners;
        this.flow = flow;
    }

    @Override
    public @Nullable InvocationFlow select(ProtectedInvocation call) {
        ConsumerRecord<?, ?> record = RecordBinding.current();
        if (!listeners.isListener(call.spec().method())) {
            return null;
        }
        if (record == null) {
            // A container thread (it names its group) without a bound record: as a bean call, the listener would
            // fail every record for a missing key; say what is wrong instead.
            if (KafkaUtils.getConsumerGroupId() != null) {
                throw new IllegalStateException(
                        "@Idempotent listener " + call.spec().name() + " was invoked by a"
                                + " listener container that did not bind the record: a batch listener (dedup each record"
                                + " with KafkaIdempotency), or a container factory that is not a Spring bean");
            }
            return null;
        }
        return protectedCall -> flow.run(protectedCall, record);
    }
}
