package dev.idempotency.kafka;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A Kafka {@link ProducerInterceptor} that stamps an idempotency key header (a random 128-bit value, 22 base64url
 * characters) on every record sent without one. The key is stamped once per {@code send}, so the producer's own
 * retries of that record carry the same key and an {@code @Idempotent} consumer processes it once. A record that
 * already has the header keeps it: when the application sends one business message again, it should set the key
 * itself (from the business id), since a second {@code send} would be stamped with a new key.
 *
 * <p>Switch it on for Spring Boot's producer with {@code idempotency.kafka.producer.stamp-keys=true}, or name it in
 * {@code spring.kafka.producer.properties.interceptor.classes=dev.idempotency.kafka.IdempotencyKeyProducerInterceptor}
 * (or {@code interceptor.classes} of any producer). The header is {@value #DEFAULT_HEADER} unless the producer
 * property {@value #HEADER_CONFIG} names another.
 */
public final class IdempotencyKeyProducerInterceptor implements ProducerInterceptor<Object, Object> {

    /** Producer property naming the header, for a header other than {@value #DEFAULT_HEADER}. */
    public static final String HEADER_CONFIG = "idempotency.kafka.header";

    static final String DEFAULT_HEADER = "Idempotency-Key";

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    private String header = DEFAULT_HEADER;

    @Override
    public void configure(Map<String, ?> configs) {
        Object configured = configs.get(HEADER_CONFIG);
        if (configured != null && !configured.toString().isBlank()) {
            header = configured.toString().trim();
        }
    }

    @Override
    public ProducerRecord<Object, Object> onSend(ProducerRecord<Object, Object> record) {
        if (record.headers().lastHeader(header) == null) {
            record.headers().add(header, newKey());
        }
        return record;
    }

    static byte[] newKey() {
        byte[] random = new byte[16];
        RANDOM.nextBytes(random);
        return BASE64URL.encodeToString(random).getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public void close() {}
}
