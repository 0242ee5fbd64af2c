package dev.idempotency.kafka;

import dev.idempotency.internal.operation.CanonicalJson;
import dev.idempotency.internal.operation.Fingerprint;
import dev.idempotency.internal.operation.PayloadFields;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Bytes;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The payload fingerprint of a record: a digest of its value. A value that arrives as bytes or text is digested as
 * received; a value the consumer deserialized into an object is written as JSON with the application's mapper, so
 * that equal values digest alike (consume bytes or text to compare what the producer sent). With
 * {@code fingerprint-fields}, only the selected members of the value as JSON count ({@link PayloadFields}). The
 * record's key, headers and offset are not payload: a redelivery or a producer retry of the same message must match.
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
        return fingerprint(record, PayloadFields.ALL);
    }

    /** The 22-character fingerprint of the members of {@code record}'s value that {@code fields} selects. */
    String fingerprint(ConsumerRecord<?, ?> record, PayloadFields fields) {
        Fingerprint fingerprint = new Fingerprint();
        Object value = record.value();
        if (value == null) {
            return fingerprint.add('n', new byte[0]).digest(); // a tombstone
        }
        byte[] received = received(value);
        if (received != null) {
            if (fields.selectsAll() || !CanonicalJson.addTo(fingerprint, 's', received, fields)) {
                fingerprint.add('v', received);
            }
            return fingerprint.digest();
        }
        try {
            return fields.selectsAll()
                    ? fingerprint.add('j', jsonMapper.writeValueAsBytes(value)).digest()
                    : fingerprint
                            .add('s', CanonicalJson.write(fields.select(jsonMapper.valueToTree(value))))
                            .digest();
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

    /** The value's bytes when it arrived as bytes or text, else {@code null}. */
    private static byte @Nullable [] received(Object value) {
        if (value instanceof byte[] bytes) {
            return bytes;
        }
        if (value instanceof String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        if (value instanceof Bytes bytes) {
            return bytes.get();
        }
        if (value instanceof ByteBuffer buffer) {
            byte[] bytes = new byte[buffer.remaining()];
            buffer.duplicate().get(bytes);
            return bytes;
        }
        return null;
    }
}
