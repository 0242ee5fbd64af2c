package dev.idempotency.kafka;

import dev.idempotency.internal.operation.Fingerprint;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The payload fingerprint of a record: a digest of its value's bytes. Values that arrive as bytes or text are digested
 * as they are; a value the consumer deserialized into an object is written as JSON with the application's mapper, so
 * that equal values digest alike. The record's key, headers and offset are not payload: a redelivery or a producer
 * retry of the same message must match.
 */
final class RecordPayload {

    private static final Logger log = LoggerFactory.getLogger(RecordPayload.class);

    private final JsonMapper jsonMapper;
    private final AtomicBoolean warned = new AtomicBoolean();

    RecordPayload(JsonMapper jsonMapper) {
        this.jsonMapper = jsonMapper;
    }

    /** The 22-character fingerprint of {@code record}'s value. */
    String fingerprint(ConsumerRecord<?, ?> record) {
        Fingerprint fingerprint = new Fingerprint();
        Object value = record.value();
        if (value == null) {
            return fingerprint.add('n', new byte[0]).digest(); // a tombstone
        }
        if (value instanceof byte[] bytes) {
            return fingerprint.add('v', bytes).digest();
        }
        if (value instanceof String text) {
            return fingerprint.add('v', text).digest();
        }
        if (value instanceof Bytes bytes) {
            return fingerprint.add('v', bytes.get()).digest();
        }
        if (value instanceof ByteBuffer buffer) {
            byte[] bytes = new byte[buffer.remaining()];
            buffer.duplicate().get(bytes);
            return fingerprint.add('v', bytes).digest();
        }
        try {
            return fingerprint.add('j', jsonMapper.writeValueAsBytes(value)).digest();
        } catch (JacksonException ex) {
            if (warned.compareAndSet(false, true)) {
                log.warn(
                        "A {} record value cannot be written as JSON; such values are not compared: {}",
                        value.getClass().getName(),
                        ex.getOriginalMessage());
            }
            return fingerprint.add('-', new byte[0]).digest();
        }
    }
}
