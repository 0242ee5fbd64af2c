package dev.idempotency.bench.jdbc;

import dev.idempotency.internal.jdbc.SqlDialect;
import dev.idempotency.testsupport.Database;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * The JDBC store's purge on a table of expired records: fills the shipped table with {@code rows} expired records (and
 * 1 % live ones, which must stay), prints the plan of one batch of the store's own purge statement
 * ({@link SqlDialect#purge}), then deletes them batch by batch as the store does and prints the time per batch.
 * Figures only, on a real server of the test harness (the embedded PostgreSQL, Debian's MariaDB).
 *
 * <p>Usage: {@code PurgeCost [postgresql|mariadb] [rows] [batch]} (defaults: postgresql, 1000000, 1000, the batch of
 * {@code RedisIdempotency.purgeExpiredRecords}).
 */
public final class PurgeCost {

    private static final String TABLE = "idempotency_request";

    private PurgeCost() {}

    public static void main(String[] args) throws Exception {
        Database database = Database.valueOf(args.length > 0 ? args[0].toUpperCase(Locale.ROOT) : "POSTGRESQL");
        int rows = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        int batch = args.length > 2 ? Integer.parseInt(args[2]) : 1000;
        DataSource dataSource = database.dataSource();
        new ResourceDatabasePopulator(new ClassPathResource(database.schemaScript())).execute(dataSource);
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        jdbc.update("DELETE FROM " + TABLE);
        long filling = System.nanoTime();
        fill(jdbc, database, rows);
        System.out.printf(
                Locale.ROOT,
                "%s: %,d expired and %,d live records written in %.1f s%n",
                database.id(),
                rows,
                rows / 100,
                (System.nanoTime() - filling) / 1e9);
        try (Connection connection = dataSource.getConnection()) {
            SqlDialect dialect = SqlDialect.of(connection);
            String purge = dialect.purge(TABLE);
            Object cutoff = now(connection, dialect);
            System.out.println("purge statement: " + purge);
            plan(connection, database, purge, cutoff, batch).forEach(line -> System.out.println("  plan: " + line));
            long[] millis = purgeAll(connection, purge, cutoff, batch);
            report(millis, batch);
        }
        Integer live = jdbc.queryForObject("SELECT count(*) FROM " + TABLE, Integer.class);
        System.out.printf(Locale.ROOT, "left after the purge: %,d records (the live ones: %,d)%n", live, rows / 100);
    }

    /** Expired records, and 1 % live ones, written by the database itself in one statement each. */
    private static void fill(JdbcTemplate jdbc, Database database, int rows) {
        String numbers = database == Database.POSTGRESQL ? "generate_series(1, %d) AS n(seq)" : "seq_1_to_%d AS n";
        String key = database == Database.POSTGRESQL ? "'key-' || n.seq" : "CONCAT('key-', n.seq)";
        String expired = database == Database.POSTGRESQL
                ? "clock_timestamp() - INTERVAL '1 hour'"
                : "UTC_TIMESTAMP(6) - INTERVAL 1 HOUR";
        String live = database == Database.POSTGRESQL
                ? "clock_timestamp() + INTERVAL '1 day'"
                : "UTC_TIMESTAMP(6) + INTERVAL 1 DAY";
        String insert = "INSERT INTO " + TABLE + " (record_key, state, fingerprint, result, expires_at) SELECT %s, 'C',"
                + " 'f', NULL, %s FROM " + numbers;
        jdbc.update(String.format(Locale.ROOT, insert, key, expired, rows));
        jdbc.update(
                String.format(Locale.ROOT, insert, key.replace("'key-'", "'live-'"), live, Math.max(1, rows / 100)));
        jdbc.execute(database == Database.POSTGRESQL ? "ANALYZE " + TABLE : "ANALYZE TABLE " + TABLE);
    }

    private static Object now(Connection connection, SqlDialect dialect) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT " + dialect.now());
                ResultSet row = statement.executeQuery()) {
            row.next();
            return row.getObject(1, dialect.timeType());
        }
    }

    /** The database's plan of one batch; on PostgreSQL run (ANALYZE) inside a transaction that is rolled back. */
    private static List<String> plan(Connection connection, Database database, String purge, Object cutoff, int batch)
            throws SQLException {
        String explain = database == Database.POSTGRESQL ? "EXPLAIN (ANALYZE, BUFFERS) " : "EXPLAIN ";
        List<String> lines = new ArrayList<>();
        connection.setAutoCommit(false);
        try (PreparedStatement statement = connection.prepareStatement(explain + purge)) {
            bind(statement, cutoff, batch);
            try (ResultSet plan = statement.executeQuery()) {
                int columns = plan.getMetaData().getColumnCount();
                while (plan.next()) {
                    StringBuilder line = new StringBuilder();
                    for (int column = 1; column <= columns; column++) {
                        line.append(column > 1 ? " | " : "").append(plan.getString(column));
                    }
                    lines.add(line.toString());
                }
            }
        } finally {
            connection.rollback();
            connection.setAutoCommit(true);
        }
        return lines;
    }

    /** Deletes every expired record as the store does, one batch per statement; the time of each batch, in µs. */
    private static long[] purgeAll(Connection connection, String purge, Object cutoff, int batch) throws SQLException {
        List<Long> times = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(purge)) {
            int deleted;
            do {
                bind(statement, cutoff, batch);
                long start = System.nanoTime();
                deleted = statement.executeUpdate();
                times.add((System.nanoTime() - start) / 1000);
            } while (deleted == batch);
        }
        return times.stream().mapToLong(Long::longValue).toArray();
    }

    private static void bind(PreparedStatement statement, Object cutoff, int batch) throws SQLException {
        statement.setObject(1, cutoff);
        statement.setInt(2, batch);
        statement.setObject(3, cutoff);
    }

    private static void report(long[] micros, int batch) {
        long[] sorted = micros.clone();
        Arrays.sort(sorted);
        long total = Arrays.stream(micros).sum();
        System.out.printf(
                Locale.ROOT,
                "purge: %d batches of %d in %.1f s; per batch median %.2f ms, p90 %.2f ms, max %.2f ms;"
                        + " first %.2f ms, last %.2f ms%n",
                micros.length,
                batch,
                total / 1e6,
                sorted[sorted.length / 2] / 1e3,
                sorted[(int) (sorted.length * 0.9)] / 1e3,
                sorted[sorted.length - 1] / 1e3,
                micros[0] / 1e3,
                micros[micros.length - 1] / 1e3);
    }
}
