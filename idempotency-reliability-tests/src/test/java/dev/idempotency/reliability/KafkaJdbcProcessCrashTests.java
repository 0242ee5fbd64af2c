package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.testsupport.Database;
import dev.idempotency.testsupport.Dedicated;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RedisServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * The idempotent Kafka consumer on the JDBC record store, its JVM killed (SIGKILL) between the listener's database
 * write and the container's offset commit: once with the write's transaction still open, once after it committed. A
 * consumer in this JVM then takes the partitions over and is redelivered every record the dead one had not committed:
 * each shipment exists exactly once, the record whose transaction committed never runs again, and no record is
 * dead-lettered.
 *
 * <p>On PostgreSQL only, for the build's time (15 s a database): the store's statements in this leg (the claim, the
 * committed mark in the listener's own transaction, the takeover once the lease is up) are those of
 * {@link JdbcProcessCrashTests}, which runs on MariaDB too; what this leg adds, Kafka's redelivery of the offsets that
 * were not committed, does not depend on the database. {@link #killAndRedeliver} takes the database all the same.
 */
@ReliabilityTest
class KafkaJdbcProcessCrashTests {

    private static final Duration LEASE = Duration.ofSeconds(5);

    private static final String KILLED = "Kafka consumer: JVM killed (kill -9) between the listener's database write"
            + " and the offset commit, before and after the write's transaction committed (lease 5 s)";
    private static final String EXPECTED = "the uncommitted record runs once on the surviving consumer after the lease,"
            + " the committed one never again; one shipment each; none dead-lettered";

    @Test
    @Scenario(id = "5m", title = "JDBC store, " + KILLED, expected = EXPECTED)
    void aKilledConsumerShipsEachRecordOnce(@Dedicated RedisServer redis) throws Exception {
        killAndRedeliver(redis, Database.POSTGRESQL, "5m");
    }

    /** Kills the consumer on {@code database} at both points, lets a survivor take over, and reports row {@code row}. */
    private static void killAndRedeliver(RedisServer redis, Database database, String row) throws Exception {
        String suffix = UUID.randomUUID().toString();
        String beforeCommit = "before-commit-" + suffix;
        String afterCommit = "after-commit-" + suffix;
        String answered = "answered-" + suffix;
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 2, KafkaJdbcCrashApp.TOPIC);
        broker.afterPropertiesSet();
        Path log = Files.createTempFile("reliability-kafka-jdbc-crashing-app-", ".log");
        Process crashing = null;
        try {
            // Partition 0: a record answered in full, then one that stops with its transaction open; partition 1: one
            // that stops after its commit. Each partition has a consumer of its own, which stops on it.
            KafkaJdbcCrashApp.createTables(database);
            send(broker, 0, answered);
            send(broker, 0, beforeCommit);
            send(broker, 1, afterCommit);
            crashing = ChildJvm.start(
                    KafkaJdbcCrashApp.class,
                    App.arguments(redis.host(), redis.port(), arguments(database, broker, "crash.stops=true")),
                    log);
            JdbcTemplate signals = new JdbcTemplate(database.dataSource());
            Process child = crashing;
            assertThat(Race.await(
                            Duration.ofSeconds(120),
                            200,
                            () -> !child.isAlive() || reached(signals, beforeCommit) && reached(signals, afterCommit)))
                    .isTrue();
            assertThat(reached(signals, beforeCommit) && reached(signals, afterCommit))
                    .as("both records stopped where they were told to; log:%n%s", ChildJvm.tail(log))
                    .isTrue();
            crashing.destroyForcibly(); // SIGKILL: no rollback, no release, no offset commit
            assertThat(crashing.waitFor(10, TimeUnit.SECONDS)).isTrue();
            long killed = System.nanoTime();

            try (ConfigurableApplicationContext survivor = new SpringApplicationBuilder(KafkaJdbcCrashApp.class)
                    .run(App.arguments(redis.host(), redis.port(), arguments(database, broker))
                            .toArray(String[]::new))) {
                assertThat(Race.await(Duration.ofSeconds(120), 200, () -> allCommitted(broker)))
                        .as("the surviving consumer committed every record")
                        .isTrue();
                long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - killed);
                KafkaJdbcCrashApp.Shipments shipments = survivor.getBean(KafkaJdbcCrashApp.Shipments.class);
                KafkaJdbcCrashApp.Ledger ledger = survivor.getBean(KafkaJdbcCrashApp.Ledger.class);
                AtomicInteger recovered = survivor.getBean("recovered", AtomicInteger.class);
                ReliabilityReport.measured(
                        row,
                        "every record committed " + seconds + " s after the kill; runs on the survivor: uncommitted "
                                + shipments.runs(beforeCommit) + ", committed " + shipments.runs(afterCommit)
                                + ", answered " + shipments.runs(answered) + "; shipments "
                                + ledger.shipments(beforeCommit)
                                + "/" + ledger.shipments(afterCommit) + "/" + ledger.shipments(answered)
                                + "; dead-lettered " + recovered.get());

                assertThat(shipments.runs(beforeCommit))
                        .as("the record whose transaction never committed runs on the survivor")
                        .isEqualTo(1);
                assertThat(shipments.runs(afterCommit))
                        .as("the record whose transaction committed never runs again")
                        .isZero();
                assertThat(shipments.runs(answered))
                        .as("the answered record never runs again")
                        .isZero();
                assertThat(ledger.shipments(beforeCommit)).isEqualTo(1);
                assertThat(ledger.shipments(afterCommit)).isEqualTo(1);
                assertThat(ledger.shipments(answered)).isEqualTo(1);
                assertThat(recovered).as("records dead-lettered").hasValue(0);
            }
        } finally {
            if (crashing != null) {
                crashing.destroyForcibly();
            }
            broker.destroy();
            Files.deleteIfExists(log);
        }
    }

    private static void send(EmbeddedKafkaKraftBroker broker, int partition, String key) throws Exception {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString());
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
            ProducerRecord<String, String> record =
                    new ProducerRecord<>(KafkaJdbcCrashApp.TOPIC, partition, key, "{\"shipment\":\"" + key + "\"}");
            record.headers().add("Idempotency-Key", key.getBytes(StandardCharsets.UTF_8));
            producer.send(record).get(30, TimeUnit.SECONDS);
        }
    }

    private static boolean reached(JdbcTemplate database, String key) {
        return database.queryForObject("SELECT count(*) FROM crash_reached WHERE shipment_key = ?", Integer.class, key)
                > 0;
    }

    /** Whether the consumers' group committed every partition up to its end. */
    private static boolean allCommitted(EmbeddedKafkaKraftBroker broker) {
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString()))) {
            List<TopicPartition> partitions = List.of(
                    new TopicPartition(KafkaJdbcCrashApp.TOPIC, 0), new TopicPartition(KafkaJdbcCrashApp.TOPIC, 1));
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(KafkaJdbcCrashApp.TOPIC)
                    .partitionsToOffsetAndMetadata()
                    .get(10, TimeUnit.SECONDS);
            Map<TopicPartition, Long> ends = admin
                    .listOffsets(partitions.stream().collect(Collectors.toMap(p -> p, p -> OffsetSpec.latest())))
                    .all()
                    .get(10, TimeUnit.SECONDS)
                    .entrySet()
                    .stream()
                    .collect(Collectors.toMap(
                            Map.Entry::getKey, end -> end.getValue().offset()));
            return partitions.stream()
                    .allMatch(p -> committed.get(p) != null && committed.get(p).offset() >= ends.get(p));
        } catch (Exception ex) {
            return false;
        }
    }

    private static String[] arguments(Database database, EmbeddedKafkaKraftBroker broker, String... more) {
        String[] common = {
            "spring.main.web-application-type=none",
            "idempotency.store=jdbc",
            "crash.jdbc-url=" + database.jdbcUrl(),
            "idempotency.request-id.lease=" + LEASE,
            "spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
            "spring.kafka.consumer.auto-offset-reset=earliest"
        };
        String[] all = new String[common.length + more.length];
        System.arraycopy(common, 0, all, 0, common.length);
        System.arraycopy(more, 0, all, common.length, more.length);
        return all;
    }
}
