package dev.idempotency.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The producer side: records sent without a key get one stamped ({@code idempotency.kafka.producer.stamp-keys}). */
class KafkaProducerKeyStampingTests extends KafkaTest {

    @Autowired
    StampedListeners stamped;

    @Test
    void aRecordSentWithoutAKeyIsStampedWithARandomOne() throws Exception {
        String first = unique("notice");
        String second = unique("notice");
        send("stamped", null, first);
        send("stamped", null, second);

        await(
                "both notices processed",
                () -> stamped.keys().size() >= 2 && stamped.keys().containsKey(second));
        assertThat(stamped.keys().get(first)).matches("[A-Za-z0-9_-]{22}");
        assertThat(stamped.keys().get(second))
                .matches("[A-Za-z0-9_-]{22}")
                .isNotEqualTo(stamped.keys().get(first));
        assertThat(stamped.executions().of(first)).isEqualTo(1);
    }

    @Test
    void aKeyTheApplicationSetIsKept() throws Exception {
        String notice = unique("notice");
        String key = unique("order-42");
        send("stamped", key, notice);

        await("the notice processed", () -> stamped.keys().containsKey(notice));
        assertThat(stamped.keys().get(notice)).isEqualTo(key);
    }

    @Test
    void anyProducerCanNameTheInterceptorWithItsOwnHeader() throws Exception {
        String notice = unique("notice");
        try (KafkaProducer<String, String> producer = producer(Map.of(
                ProducerConfig.INTERCEPTOR_CLASSES_CONFIG,
                IdempotencyKeyProducerInterceptor.class.getName(),
                IdempotencyKeyProducerInterceptor.HEADER_CONFIG,
                "X-Dedup-Key"))) {
            producer.send(new ProducerRecord<>("stamped-custom", notice)).get(10, TimeUnit.SECONDS);
        }

        await("the notice received", () -> stamped.customKeys().containsKey(notice));
        assertThat(stamped.customKeys().get(notice)).matches("[A-Za-z0-9_-]{22}");
    }
}
