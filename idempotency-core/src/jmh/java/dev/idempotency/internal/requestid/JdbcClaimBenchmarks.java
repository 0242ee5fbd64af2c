package dev.idempotency.internal.requestid;

import dev.idempotency.jdbc.JdbcStore;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.testsupport.Database;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * The JDBC record store's claim, single thread, on a real database (the test harness's embedded PostgreSQL or
 * MariaDB server): run on one of the store's threads and joined ({@link JdbcRequestIdStore#claim}, what an event loop
 * gets), against run on the caller's thread ({@link JdbcRequestIdStore#onWaitingThread}, what a blocking caller gets).
 * The store's statements use one connection of their own, so the difference is the hand-off to the store's thread and
 * back. A first call inserts a new key; a duplicate finds the key taken and reads it.
 *
 * <p>Not part of the database-free set: {@code -p database=postgresql,mariadb} picks the servers (started by the
 * harness; MariaDB needs Debian's {@code mariadb-server}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class JdbcClaimBenchmarks {

    private static final Duration LEASE = Duration.ofMinutes(5);

    @Param({"postgresql", "mariadb"})
    public String database;

    private SingleConnectionDataSource connection;
    private JdbcRequestIdStore store;
    private final String prefix = "bench:" + UUID.randomUUID() + ":";
    private long next;

    @Setup(Level.Trial)
    public void open() throws SQLException {
        Database kind = Database.valueOf(database.toUpperCase(Locale.ROOT));
        JdbcFixture.createSchema(kind);
        connection = new SingleConnectionDataSource(kind.dataSource().getConnection(), true);
        store = JdbcRequestIdStore.open(
                JdbcStore.of(kind.dataSource()).withThreads(1).withOwnConnections(connection), StoreListener.NONE);
        Futures.join(store.claim(prefix + "taken", "f", LEASE));
    }

    @TearDown(Level.Trial)
    public void close() {
        store.close();
        connection.destroy();
    }

    @Benchmark
    public ClaimOutcome firstOnStoreThread() {
        return Futures.join(store.claim(prefix + next++, "f", LEASE));
    }

    @Benchmark
    public ClaimOutcome firstHere() {
        return Futures.join(store.onWaitingThread().claim(prefix + next++, "f", LEASE));
    }

    @Benchmark
    public ClaimOutcome duplicateOnStoreThread() {
        return Futures.join(store.claim(prefix + "taken", "f", LEASE));
    }

    @Benchmark
    public ClaimOutcome duplicateHere() {
        return Futures.join(store.onWaitingThread().claim(prefix + "taken", "f", LEASE));
    }
}
