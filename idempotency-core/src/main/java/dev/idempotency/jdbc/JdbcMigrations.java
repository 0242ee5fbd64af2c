package dev.idempotency.jdbc;

/**
 * Where the JDBC record store's table comes from, besides {@link JdbcStore#POSTGRESQL_SCHEMA} itself: a Flyway
 * location and a Liquibase changelog shipped in this jar. Both are opt-in, so that an application on the Redis store
 * gets no table it does not use, and neither takes a version number from the application's own migrations: the
 * Flyway script is repeatable ({@code R__}), the Liquibase change set runs again on change, and the script is safe to
 * run again.
 */
public final class JdbcMigrations {

    /**
     * For {@code spring.flyway.locations}, beside the application's own: {@code classpath:db/migration,}
     * {@code classpath:db/idempotency/flyway/{vendor}} ({@code {vendor}} is resolved by Spring Boot).
     */
    public static final String FLYWAY_LOCATION = "classpath:db/idempotency/flyway/postgresql";

    /** For {@code <include file="..."/>} in the application's Liquibase changelog. */
    public static final String LIQUIBASE_CHANGELOG = "db/changelog/idempotency/idempotency-changelog.xml";

    private JdbcMigrations() {}
}
