package dev.idempotency.kafka;

import dev.idempotency.ResultNotStoredException;
import dev.idempotency.UndecodableResultException;
import dev.idempotency.internal.aop.BlockingCallFlow;
import dev.idempotency.internal.operation.ProtectedInvocation;
import dev.idempotency.scope.ScopeResolver;
import dev.idempotency.spi.ProtectedCall;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A listener method invoked for one record: the key comes from the record (the key header, or a SpEL key that sees the
 * listener's arguments and the record as {@code #record}), the payload is the record's value, and a duplicate gets the
 * stored result, which a {@code @SendTo} listener then sends as its reply. The work runs on the consumer thread; a
 * failure releases the claim, so the container's redelivery runs it again. A record whose key was processed but whose
 * result was not kept (too large, or lost when the consumer died after its transaction committed, with the JDBC store)
 * is done: it is skipped without running again, and without a reply.
 *
 * <p>Keys are scoped by the operation, the method's ({@code @Idempotent(operation)}, else its signature), not by the
 * consumer group: a method that listens in two groups processes each key once across both.
 */
final class KafkaRecordFlow {

    /** The SpEL variable that holds the record; it wins over a listener parameter named {@code record}. */
    private static final String RECORD_VARIABLE = "record";

    private static final Logger log = LoggerFactory.getLogger(KafkaRecordFlow.class);

    private final RecordKeys keys;
    private final RecordPayload payload;
    private final ScopeResolver scopes;

    KafkaRecordFlow(RecordKeys keys, RecordPayload payload, ScopeResolver scopes) {
        this.keys = keys;
        this.payload = payload;
        this.scopes = scopes;
    }

    @Nullable
    Object run(ProtectedInvocation call, ConsumerRecord<?, ?> record) throws Throwable {
        try {
            return BlockingCallFlow.run(call, () -> protectedCall(call, record));
        } catch (ResultNotStoredException ex) {
            if (ex instanceof UndecodableResultException) {
                throw ex; // kept, but this version cannot read it: the error handler recovers it, as documented
            }
            // It ran once; running it again would do its work twice, and failing would dead-letter a processed record.
            log.info(
                    "Skipping the record at {}-{}@{}: {}",
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    ex.getMessage());
            return null;
        }
    }

    private ProtectedCall protectedCall(ProtectedInvocation call, ConsumerRecord<?, ?> record) {
        return call.call(
                scope(),
                keys.header(),
                name -> RecordKeys.value(record, name),
                call.spec().id(),
                () -> payload.fingerprint(record, call.spec().fingerprintFields()),
                Map.of(RECORD_VARIABLE, record));
    }

    /**
     * A message has no user: one shared scope, unless the application's {@link ScopeResolver} names one (a tenant its
     * own record interceptor bound, say). Never refused as anonymous.
     */
    private String scope() {
        String scope = scopes.currentScope();
        return scope == null ? "" : scope;
    }
}
