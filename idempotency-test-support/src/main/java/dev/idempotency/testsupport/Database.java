package dev.idempotency.testsupport;

import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The databases the JDBC store's tests run on, each a real server of the test JVM: test classes are parameterized
 * over these, so that the same contract, race and transaction tests run on every one.
 */
public enum Database {

    /** The embedded PostgreSQL ({@link Postgres}). */
    POSTGRESQL("postgresql") {
        @Override
        public DataSource dataSource() {
            return Postgres.dataSource();
        }

        @Override
        public String jdbcUrl() {
            return Postgres.jdbcUrl();
        }

        @Override
        public DataSource inSchema(String schema) {
            PGSimpleDataSource inSchema = new PGSimpleDataSource();
            inSchema.setURL(Postgres.jdbcUrl() + "&currentSchema=" + schema);
            return inSchema;
        }
    },

    /** Debian's MariaDB server, started by the harness ({@link MariaDb}). */
    MARIADB("mariadb") {
        @Override
        public DataSource dataSource() {
            return MariaDb.dataSource();
        }

        @Override
        public String jdbcUrl() {
            return MariaDb.jdbcUrl();
        }

        @Override
        public DataSource inSchema(String schema) {
            return MariaDb.dataSource(schema);
        }
    };

    private final String id;

    Database(String id) {
        this.id = id;
    }

    /** The server's test database; started with the first call. */
    public abstract DataSource dataSource();

    /** The JDBC URL of {@link #dataSource()}, with its user, e.g. for an application in another JVM. */
    public abstract String jdbcUrl();

    /** Connections whose unqualified table names are in {@code schema} (a database, on MariaDB), which must exist. */
    public abstract DataSource inSchema(String schema);

    /** Spring Boot's and Flyway's name of the vendor: {@code postgresql}, {@code mariadb}. */
    public String id() {
        return id;
    }

    /** The class path of the JDBC store's shipped schema for this database. */
    public String schemaScript() {
        return "dev/idempotency/jdbc/schema-" + id + ".sql";
    }
}
