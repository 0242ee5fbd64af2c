package dev.idempotency.reliability;

import dev.idempotency.Idempotent;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import javax.sql.DataSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * A payment service whose {@code REQUEST_ID} records live in the same database as its payments (PostgreSQL or MariaDB)
 * ({@code idempotency.store: jdbc}). With {@code crash.stops=true} (the JVM to be killed), a key that starts with
 * {@code before-commit} holds its call with the payment written and its transaction open, one that starts with
 * {@code after-commit} holds it once the payment committed, before the answer, so that {@link JdbcProcessCrashTests}
 * can kill the JVM there. The key decides, not a header: retries must carry the same payload.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableTransactionManagement
@Import({CrashDatabase.class, JdbcCrashApp.Ledger.class, JdbcCrashApp.Payments.class})
public class JdbcCrashApp {

    public static void main(String[] args) {
        new SpringApplicationBuilder(JdbcCrashApp.class).run(args);
    }

    @Bean
    DataSource dataSource(@Value("${crash.jdbc-url}") String url) {
        return CrashDatabase.open(url, "CREATE TABLE IF NOT EXISTS crash_payments (payment_key text)");
    }

    /** Where the calls that were told to stop wait for the kill. */
    static final CountDownLatch NEVER = new CountDownLatch(1);

    /** Writes payments, each in a transaction of its own. */
    public static class Ledger {

        private final JdbcTemplate jdbc;
        private final boolean stops;
        private final Set<String> reached = ConcurrentHashMap.newKeySet();

        public Ledger(JdbcTemplate jdbc, @Value("${crash.stops:false}") boolean stops) {
            this.jdbc = jdbc;
            this.stops = stops;
        }

        /** Whether the call with {@code key} stops at {@code point} in this JVM. */
        public boolean stopsAt(String key, String point) {
            return stops && key.startsWith(point);
        }

        @Transactional
        public void charge(String key) throws InterruptedException {
            jdbc.update("INSERT INTO crash_payments VALUES (?)", key);
            if (stopsAt(key, "before-commit")) {
                reach(key);
                NEVER.await();
            }
        }

        /** Notes that the call with {@code key} stopped where it was told to (a method: this bean is a proxy). */
        public void reach(String key) {
            reached.add(key);
        }

        public boolean reached(String key) {
            return reached.contains(key);
        }

        public int payments(String key) {
            return jdbc.queryForObject("SELECT count(*) FROM crash_payments WHERE payment_key = ?", Integer.class, key);
        }
    }

    /** The protected endpoint, counting how often its body ran per key in this JVM. */
    @RestController
    public static class Payments {

        private final Ledger ledger;
        private final Map<String, Integer> runs = new ConcurrentHashMap<>();

        public Payments(Ledger ledger) {
            this.ledger = ledger;
        }

        @PostMapping("/payments")
        @Idempotent
        public ResponseEntity<String> pay(@RequestHeader("Idempotency-Key") String key) throws InterruptedException {
            runs.merge(key, 1, Integer::sum);
            ledger.charge(key);
            if (ledger.stopsAt(key, "after-commit")) {
                ledger.reach(key);
                NEVER.await();
            }
            return ResponseEntity.status(HttpStatus.CREATED).body("paid " + key);
        }

        /** 200 once the call with {@code key} stopped where it was told to. */
        @GetMapping("/reached/{key}")
        public ResponseEntity<Void> reached(@PathVariable String key) {
            return ledger.reached(key)
                    ? ResponseEntity.ok().build()
                    : ResponseEntity.notFound().build();
        }

        int runs(String key) {
            return runs.getOrDefault(key, 0);
        }
    }
}
