package dev.idempotency.kafka;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** Settings of {@code @Idempotent} Kafka listeners and of the producer-side key stamping. */
@ConfigurationProperties("idempotency.kafka")
public class IdempotencyKafkaProperties {

    /** Record header that carries the idempotency key when @Idempotent names no key. */
    private String header = "Idempotency-Key";

    /**
     * How often the auto-configured error handler redelivers a record that can succeed later: its key is in progress
     * elsewhere, its lock is busy, or Redis is unavailable (then as Redis suggests, if it does). Such records are
     * redelivered without limit, never recovered.
     */
    private Duration inProgressRetryInterval = Duration.ofMillis(500);

    /** Settings of Spring Boot's Kafka producer. */
    private final Producer producer = new Producer();

    public String getHeader() {
        return header;
    }

    public void setHeader(String header) {
        this.header = header;
    }

    public Duration getInProgressRetryInterval() {
        return inProgressRetryInterval;
    }

    public void setInProgressRetryInterval(Duration inProgressRetryInterval) {
        this.inProgressRetryInterval = inProgressRetryInterval;
    }

    public Producer getProducer() {
        return producer;
    }

    /** Settings of Spring Boot's Kafka producer. */
    public static class Producer {

        /**
         * Whether Spring Boot's producer stamps a random idempotency key header on every record sent without one.
         */
        private boolean stampKeys = false;

        public boolean isStampKeys() {
            return stampKeys;
        }

        public void setStampKeys(boolean stampKeys) {
            this.stampKeys = stampKeys;
        }
    }
}
