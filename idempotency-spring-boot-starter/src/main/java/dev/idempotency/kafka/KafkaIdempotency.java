package dev.idempotency.kafka;

import dev.idempotency.CheckedSupplier;
import dev.idempotency.ResultNotStoredException;
import dev.idempotency.Strategy;
import dev.idempotency.internal.StrategyRunner;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.spi.IdempotencyStrategy;
import dev.idempotency.spi.ProtectedCall;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.util.Assert;

/**
 * Processes Kafka records once per idempotency key without annotations, for batch listeners and any code that holds a
 * {@link ConsumerRecord}. The key is the record's {@code idempotency.kafka.header} header, the payload its value, and
 * the records live as {@code idempotency.request-id.*} says. An operation named here shares its records with an
 * {@code @Idempotent(operation = "...")} listener of the same name.
 *
 * <pre>{@code
 * @KafkaListener(topics = "payments", batch = "true")
 * void onPayments(List<ConsumerRecord<String, String>> records) {
 *     kafkaIdempotency.processEach("payments", records, record -> payments.charge(record.value()));
 * }
 * }</pre>
 */
public final class KafkaIdempotency {

    /** Remembers only that the work ran: a duplicate decodes it as "did not run now". */
    private static final ResultCodec<Boolean> RAN = new ResultCodec<>() {
        @Override
        public byte[] encode(Boolean result) {
            return new byte[] {1};
        }

        @Override
        public Boolean decode(byte[] stored) {
            return Boolean.FALSE;
        }
    };

    private final IdempotencyStrategy requestIds;
    private final RecordKeys keys;
    private final RecordPayload payload;
    private final Settings settings;

    KafkaIdempotency(IdempotencyStrategy requestIds, RecordKeys keys, RecordPayload payload, Settings settings) {
        Assert.isTrue(requestIds.strategy() == Strategy.REQUEST_ID, "requestIds must be the REQUEST_ID strategy");
        this.requestIds = requestIds;
        this.keys = keys;
        this.payload = payload;
        this.settings = settings;
    }

    /**
     * Runs {@code work} for each record whose key was not processed yet within {@code operation}, in order, and
     * returns how many ran. When a record fails, the records before it are done and a
     * {@link BatchListenerFailedException} names the failed one, so that the container's error handler commits those
     * and redelivers from the failed record. With {@link KafkaErrorHandling}, a record whose key is still in progress
     * elsewhere, or that met Redis unavailable, is redelivered until it succeeds, and those deliveries do not count
     * toward the attempts its other failures are allowed.
     */
    public <K, V> int processEach(
            String operation, List<ConsumerRecord<K, V>> records, Consumer<ConsumerRecord<K, V>> work) {
        int ran = 0;
        for (int i = 0; i < records.size(); i++) {
            ConsumerRecord<K, V> record = records.get(i);
            try {
                ran += runOnce(operation, record, () -> work.accept(record)) ? 1 : 0;
            } catch (RuntimeException ex) {
                throw new BatchListenerFailedException("Record " + i + " of the batch failed", ex, i);
            }
        }
        return ran;
    }

    /**
     * Runs {@code work} unless {@code record}'s key was processed within {@code operation}; whether it ran. A key
     * processed whose record of it was not kept (the consumer died after the work's transaction committed, with the
     * JDBC store) counts as processed.
     */
    public boolean runOnce(String operation, ConsumerRecord<?, ?> record, Runnable work) {
        try {
            return execute(
                    operation,
                    record,
                    () -> {
                        work.run();
                        return Boolean.TRUE;
                    },
                    RAN);
        } catch (ResultNotStoredException ranBefore) {
            return false;
        }
    }

    /**
     * Runs {@code work} if {@code record}'s key is new within {@code operation} and stores its result with
     * {@code codec}; for a key that was processed, returns the stored result without running it.
     *
     * @throws dev.idempotency.RequestInProgressException when another consumer is still processing the key
     * @throws dev.idempotency.PayloadMismatchException when the key was used with another value
     * @throws dev.idempotency.MissingIdempotencyKeyException when the record has no key header
     * @throws E whatever the work throws, after the claim was released so that a redelivery runs it again
     */
    public <T, E extends Throwable> T execute(
            String operation, ConsumerRecord<?, ?> record, CheckedSupplier<T, E> work, ResultCodec<T> codec) throws E {
        return StrategyRunner.run(requestIds, call(operation, record), work, codec);
    }

    /**
     * The call the {@code REQUEST_ID} strategy admits for {@code record} within {@code operation}: the shared scope
     * (messages have no user), the record's key, and a digest of its value.
     */
    public ProtectedCall call(String operation, ConsumerRecord<?, ?> record) {
        Assert.hasText(operation, "operation must not be empty");
        return new ProtectedCall(
                "",
                operation,
                key(record),
                settings.fingerprint() ? payload.fingerprint(record) : null,
                settings.ttl(),
                settings.lease(),
                settings.maxWait());
    }

    /**
     * The validated idempotency key of {@code record}.
     *
     * @throws dev.idempotency.MissingIdempotencyKeyException when the record has no key header
     * @throws dev.idempotency.InvalidIdempotencyKeyException when the key is empty, too long or not visible ASCII
     */
    public String key(ConsumerRecord<?, ?> record) {
        return keys.of(record);
    }

    /** The {@code REQUEST_ID} settings records are processed with. */
    record Settings(Duration ttl, Duration lease, Duration maxWait, boolean fingerprint) {}
}
