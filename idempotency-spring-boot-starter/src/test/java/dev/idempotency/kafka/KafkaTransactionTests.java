package dev.idempotency.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.Idempotent;
import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.RedisServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * A listener in a Kafka transaction ({@code spring.kafka.producer.transaction-id-prefix}): its record is completed
 * only after the transaction commits. When the commit is aborted (as when a rebalance fences the producer), the claim
 * is released, the redelivery runs the work again, and the receipt it sends is committed once.
 */
@SpringBootTest(
        classes = KafkaTransactionTests.App.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {
            "spring.kafka.consumer.auto-offset-reset=earliest",
            "spring.kafka.consumer.isolation-level=read-committed",
            "spring.kafka.producer.transaction-id-prefix=idempotency-tx-",
            "spring.data.redis.timeout=2s"
        })
@EmbeddedKafka(
        partitions = 1,
        bootstrapServersProperty = "spring.kafka.bootstrap-servers",
        topics = {KafkaTransactionTests.PAYMENTS, KafkaTransactionTests.RECEIPTS},
        brokerProperties = {"transaction.state.log.replication.factor=1", "transaction.state.log.min.isr=1"})
@Tag("embedded-kafka")
class KafkaTransactionTests {

    static final String PAYMENTS = "tx-payments";
    static final String RECEIPTS = "tx-receipts";
    private static final RedisServer REDIS = RedisServer.start();
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.host", REDIS::host);
        registry.add("spring.data.redis.port", REDIS::port);
        registry.add("idempotency.key-prefix", () -> "kafka-tx-" + UUID.randomUUID() + ":");
    }

    @Autowired
    KafkaTemplate<String, String> template;

    @Autowired
    Payments payments;

    @Autowired
    EmbeddedKafkaBroker broker;

    @Test
    void anAbortedCommitReleasesTheClaimSoTheRedeliveryRunsAndItsReceiptIsCommittedOnce() throws Exception {
        String payment = "payment-" + UUID.randomUUID();
        payments.abortCommitOf(payment);
        send(payment, "key-" + payment);

        Await.until(DEADLINE, "the receipt of " + payment + " committed", () -> receipts(payment) == 1);
        assertThat(payments.executions(payment))
                .as("DEFECT if 1: the redelivery was answered from a result whose transaction aborted")
                .isEqualTo(2);
        assertThat(receipts(payment)).isEqualTo(1);
    }

    @Test
    void aCommittedRecordSentTwiceRunsOnce() throws Exception {
        String payment = "payment-" + UUID.randomUUID();
        send(payment, "key-" + payment);
        Await.until(DEADLINE, "the receipt of " + payment + " committed", () -> receipts(payment) == 1);
        String marker = "payment-" + UUID.randomUUID();
        send(payment, "key-" + payment); // the duplicate, then a marker behind it on the one partition
        send(marker, "key-" + marker);
        Await.until(DEADLINE, "the marker's receipt committed", () -> receipts(marker) == 1);
        assertThat(payments.executions(payment)).isEqualTo(1);
        assertThat(receipts(payment)).isEqualTo(1);
    }

    private void send(String payment, String key) throws Exception {
        ProducerRecord<String, String> record = new ProducerRecord<>(
                PAYMENTS,
                null,
                (String) null,
                payment,
                List.of(new RecordHeader("Idempotency-Key", key.getBytes(StandardCharsets.UTF_8))));
        template.executeInTransaction(operations -> operations.send(record)).get(10, TimeUnit.SECONDS);
    }

    /** How many committed receipts of {@code payment} the receipts topic holds, read to its last stable offset. */
    private int receipts(String payment) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.getBrokersAsString(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class))) {
            TopicPartition partition = new TopicPartition(RECEIPTS, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            int found = 0;
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            while (consumer.position(partition) < end) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("the receipts were not read to offset " + end);
                }
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.value().equals(payment)) {
                        found++;
                    }
                }
            }
            return found;
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        Payments payments(KafkaTemplate<String, String> template) {
            return new Payments(template);
        }
    }

    /** Takes payments and sends a receipt for each in the listener's Kafka transaction. */
    static class Payments {

        private final KafkaTemplate<String, String> template;
        private final Map<String, Integer> executions = new ConcurrentHashMap<>();
        private final Set<String> abortCommitOf = ConcurrentHashMap.newKeySet();

        Payments(KafkaTemplate<String, String> template) {
            this.template = template;
        }

        @KafkaListener(id = "tx-payments", topics = PAYMENTS)
        @Idempotent
        public void pay(String payment) {
            executions.merge(payment, 1, Integer::sum);
            template.send(RECEIPTS, payment);
            if (abortCommitOf.remove(payment)) {
                // Fails the commit after the listener returned, as a fenced producer's commit fails.
                TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                    @Override
                    public void beforeCommit(boolean readOnly) {
                        throw new IllegalStateException("the commit of " + payment + " was aborted");
                    }
                });
            }
        }

        void abortCommitOf(String payment) {
            abortCommitOf.add(payment);
        }

        int executions(String payment) {
            return executions.getOrDefault(payment, 0);
        }
    }
}
