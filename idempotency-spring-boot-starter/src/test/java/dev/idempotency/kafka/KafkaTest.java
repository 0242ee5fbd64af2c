package dev.idempotency.kafka;

import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.RedisServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Tag;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Base of the full-stack Kafka tests: {@link KafkaTestApplication} on an embedded KRaft broker in this JVM and a real
 * Redis server, one context for every test class. Every test uses its own topic (or partition key) and values.
 */
@SpringBootTest(
        classes = KafkaTestApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {
            "spring.kafka.consumer.auto-offset-reset=earliest",
            "idempotency.kafka.in-progress-retry-interval=100ms",
            "idempotency.kafka.producer.stamp-keys=true",
            "spring.data.redis.timeout=2s"
        })
@EmbeddedKafka(
        partitions = 4,
        bootstrapServersProperty = "spring.kafka.bootstrap-servers",
        topics = {
            "orders",
            "rollout",
            "uncommitted",
            "flaky",
            "keyed",
            "notices",
            "transfers",
            "quotes",
            "quote-replies",
            "slow",
            Ledger.TOPIC,
            BatchShipments.TOPIC,
            "stamped",
            "stamped-custom",
            ScriptedListeners.SCRIPTED,
            ScriptedListeners.STOCK
        })
@Tag("embedded-kafka")
abstract class KafkaTest {

    static final RedisServer REDIS = RedisServer.start();

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.host", REDIS::host);
        registry.add("spring.data.redis.port", REDIS::port);
    }

    @Autowired
    KafkaTemplate<String, String> template;

    @Autowired
    KafkaListenerEndpointRegistry containers;

    @Autowired
    Deliveries deliveries;

    @Autowired
    EmbeddedKafkaBroker broker;

    @Autowired
    KafkaAdmin kafkaAdmin;

    static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID();
    }

    /** Sends through the application's producer, with an idempotency key header unless {@code key} is null. */
    void send(String topic, @Nullable Integer partition, @Nullable String recordKey, @Nullable String key, String value)
            throws Exception {
        List<Header> headers = new ArrayList<>();
        if (key != null) {
            headers.add(new RecordHeader("Idempotency-Key", key.getBytes(StandardCharsets.UTF_8)));
        }
        template.send(new ProducerRecord<>(topic, partition, recordKey, value, headers))
                .get(10, TimeUnit.SECONDS);
    }

    void send(String topic, String key, String value) throws Exception {
        send(topic, null, null, key, value);
    }

    /** A producer of its own, configured by {@code overrides}: without the application's key stamping. */
    KafkaProducer<String, String> producer(Map<String, Object> overrides) {
        Map<String, Object> configs = new HashMap<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class));
        configs.putAll(overrides);
        return new KafkaProducer<>(configs);
    }

    /** Waits until the consumer group {@code group} has committed every record of {@code topic}. */
    void awaitCommitted(String group, String topic) {
        try (Admin admin = Admin.create(kafkaAdmin.getConfigurationProperties())) {
            await(
                    "every record of " + topic + " committed by " + group,
                    () -> committedEverything(admin, group, topic));
        }
    }

    private boolean committedEverything(Admin admin, String group, String topic) {
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata()
                    .get(10, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int partition = 0; partition < broker.getPartitionsPerTopic(); partition++) {
                latest.put(new TopicPartition(topic, partition), OffsetSpec.latest());
            }
            return admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS).entrySet().stream()
                    .allMatch(end -> {
                        OffsetAndMetadata offset = committed.get(end.getKey());
                        return end.getValue().offset() == (offset == null ? 0 : offset.offset());
                    });
        } catch (Exception ex) {
            throw new IllegalStateException("Could not read the offsets of " + topic, ex);
        }
    }

    /** Polls {@code condition} until it holds, failing after a bound with what never happened. */
    static void await(String what, BooleanSupplier condition) {
        await(what, condition, () -> "");
    }

    static void await(String what, BooleanSupplier condition, Supplier<String> state) {
        Await.until(TIMEOUT, what, condition, state);
    }
}
