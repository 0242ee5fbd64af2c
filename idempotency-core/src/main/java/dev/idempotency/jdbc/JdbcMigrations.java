package dev.idempotency.jdbc;

/**
 * Where the JDBC record store's table comes from, besides {@link JdbcStore#POSTGRESQL_SCHEMA} and
 * {@link JdbcStore#MARIADB_SCHEMA} themselves: Flyway locations and a Liquibase changelog (a change set per database)
 * shipped in this jar. Both are opt-in, so that an application on the Redis store
 * gets no table it does not use, and neither takes a version number from the application's own migrations: the
 * Flyway script is repeatable ({@code R__}), the Liquibase change set runs again on change, and the script is safe to
 * run again.
 */
public final class JdbcMigrations {

    /**
     * For {@code spring.flyway.locations}, beside the application's own: {@code classpath:db/migration,}
     * {@code classpath:db/idempotency/flyway/{vendor}}; Spring Boot puts the database's vendor in ({@code postgresql},
     * {@code mariadb} or {@code mysql}, after the JDBC URL).
     */
    public static final String FLYWAY_VENDOR_LOCATION = "classpath:db/idempotency/flyway/{vendor}";

    /** The Flyway location on PostgreSQL, for Flyway without Spring Boot. */
    public static final String FLYWAY_LOCATION = "classpath:db/idempotency/flyway/postgresql";

    /** The Flyway location on MariaDB, for Flyway without Spring Boot ({@code mysql} holds the same script). */
    public static final String FLYWAY_MARIADB_LOCATION = "classpath:db/idempotency/flyway/mariadb";

    /** For {@code <include file="..."/>} in the application's Liquibase changelog. */
    public static final String LIQUIBASE_CHANGELOG = "db/changelog/idempotency/idempotency-changelog.xml";

    private JdbcMigrations() {}
}
