package dev.idempotency.reliability;

import dev.idempotency.Idempotent;
import dev.idempotency.kafka.KafkaErrorHandling;
import dev.idempotency.testsupport.Database;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.annotation.TopicPartition;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.util.backoff.FixedBackOff;

/**
 * A Kafka consumer that writes shipments to the database (PostgreSQL or MariaDB) that holds its {@code REQUEST_ID} records
 * ({@code idempotency.store: jdbc}): the listener's transaction writes the shipment and marks the record's key done
 * together. With {@code crash.stops=true} (the JVM to be killed), a key that starts with {@code before-commit} holds its
 * record with the shipment written and its transaction open, one that starts with {@code after-commit} holds it once
 * the shipment committed, before the listener returns and the container commits the offset. Where it stopped is written
 * to {@code crash_reached} on a connection of its own, for {@link KafkaJdbcProcessCrashTests} to kill it there.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableTransactionManagement
@Import({CrashDatabase.class, KafkaJdbcCrashApp.Ledger.class, KafkaJdbcCrashApp.Shipments.class})
public class KafkaJdbcCrashApp {

    static final String TOPIC = "crash-shipments";

    private static final String[] TABLES = {
        "CREATE TABLE IF NOT EXISTS crash_shipments (shipment_key text)",
        "CREATE TABLE IF NOT EXISTS crash_reached (shipment_key text)"
    };

    public static void main(String[] args) {
        new SpringApplicationBuilder(KafkaJdbcCrashApp.class).run(args);
    }

    @Bean
    DataSource dataSource(@Value("${crash.jdbc-url}") String url) {
        return CrashDatabase.open(url, TABLES);
    }

    /** The records' table, the shipments, and where calls note that they stopped, in {@code database}. */
    static void createTables(Database database) {
        CrashDatabase.createTables(database, database.dataSource(), TABLES);
    }

    /** Records that would be dead-lettered: none may be, a processed record is skipped, never recovered. */
    @Bean
    AtomicInteger recovered() {
        return new AtomicInteger();
    }

    @Bean
    CommonErrorHandler kafkaErrorHandler(AtomicInteger recovered) {
        return KafkaErrorHandling.retryInProgress(
                new DefaultErrorHandler((record, failure) -> recovered.incrementAndGet(), new FixedBackOff(100, 2)),
                Duration.ofMillis(200));
    }

    /** Writes shipments, each in a transaction of its own, and stops where it is told to. */
    public static class Ledger {

        private final JdbcTemplate jdbc;
        /** Outside every transaction: the test must see where a call stopped while its transaction is open. */
        private final JdbcTemplate signals;

        private final boolean stops;

        public Ledger(
                JdbcTemplate jdbc,
                @Value("${crash.jdbc-url}") String url,
                @Value("${crash.stops:false}") boolean stops) {
            this.jdbc = jdbc;
            this.signals = new JdbcTemplate(CrashDatabase.connect(url));
            this.stops = stops;
        }

        @Transactional
        public void ship(String key) throws InterruptedException {
            jdbc.update("INSERT INTO crash_shipments VALUES (?)", key);
            stopIfTold(key, "before-commit");
        }

        /** In this JVM, the call with {@code key} stops at {@code point} until the JVM is killed. */
        public void stopIfTold(String key, String point) throws InterruptedException {
            if (stops && key.startsWith(point)) {
                signals.update("INSERT INTO crash_reached VALUES (?)", key);
                JdbcCrashApp.NEVER.await();
            }
        }

        public int shipments(String key) {
            return jdbc.queryForObject(
                    "SELECT count(*) FROM crash_shipments WHERE shipment_key = ?", Integer.class, key);
        }
    }

    /**
     * The idempotent listener (its key in the record's {@code Idempotency-Key} header), counting runs per key: one
     * container per partition, assigned by hand, so that each stops on its own partition and the survivor takes both
     * over at once (no group rebalance waiting for the dead consumer's session to end).
     */
    public static class Shipments {

        private final Ledger ledger;
        private final Map<String, Integer> runs = new ConcurrentHashMap<>();

        public Shipments(Ledger ledger) {
            this.ledger = ledger;
        }

        @KafkaListener(
                id = TOPIC + "-0",
                groupId = TOPIC,
                topicPartitions = @TopicPartition(topic = TOPIC, partitions = "0"))
        @KafkaListener(
                id = TOPIC + "-1",
                groupId = TOPIC,
                topicPartitions = @TopicPartition(topic = TOPIC, partitions = "1"))
        @Idempotent
        public void ship(ConsumerRecord<String, String> record) throws InterruptedException {
            runs.merge(record.key(), 1, Integer::sum);
            ledger.ship(record.key());
            ledger.stopIfTold(record.key(), "after-commit");
        }

        int runs(String key) {
            return runs.getOrDefault(key, 0);
        }
    }
}
