package dev.idempotency.kafka;

import dev.idempotency.MissingIdempotencyKeyException;
import dev.idempotency.key.ClientKeys;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.jspecify.annotations.Nullable;
import org.springframework.util.Assert;

/**
 * Where a record carries its idempotency key: the {@code idempotency.kafka.header} header. A SpEL key of
 * {@code @Idempotent} is evaluated by the listener's {@code ProtectedInvocation}, which sees the record as
 * {@code #record}.
 */
final class RecordKeys {

    private final String header;

    RecordKeys(String header) {
        Assert.hasText(header, "idempotency.kafka.header must not be empty");
        this.header = header;
    }

    /** The name of the header that carries the key. */
    String header() {
        return header;
    }

    /**
     * The validated key in {@code record}'s header.
     *
     * @throws MissingIdempotencyKeyException when the record has no such header
     * @throws dev.idempotency.InvalidIdempotencyKeyException when the key is empty, too long or not visible ASCII
     */
    String of(ConsumerRecord<?, ?> record) {
        String raw = value(record, header);
        if (raw == null) {
            throw new MissingIdempotencyKeyException("The record has no " + header + " header");
        }
        return ClientKeys.parse(raw);
    }

    /** The last {@code name} header of {@code record} as text, or {@code null} when it has none. */
    static @Nullable String value(ConsumerRecord<?, ?> record, String name) {
        Header last = record.headers().lastHeader(name);
        return last == null || last.value() == null ? null : new String(last.value(), StandardCharsets.UTF_8);
    }
}
