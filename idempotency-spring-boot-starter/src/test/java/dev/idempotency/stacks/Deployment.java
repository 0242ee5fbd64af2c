package dev.idempotency.stacks;

import dev.idempotency.key.RedisKeys;
import dev.idempotency.testsupport.Database;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One web stack with one record store: the same application, its {@code REQUEST_ID} records and tokens in Redis or in a
 * real database ({@code idempotency.store: jdbc}). Suites that hold for every store run on all of them.
 *
 * @param database where the records and tokens live; {@code null}: in Redis
 */
public record Deployment(Stack stack, @Nullable Database database) {

    /**
     * Both stacks on Redis and on the JDBC store in PostgreSQL, and Spring MVC on the JDBC store in MariaDB: what the
     * JDBC store does differently per database does not depend on the web stack, which PostgreSQL already runs with
     * both, so WebFlux on MariaDB would add start-up time and nothing else.
     */
    public static List<Deployment> all() {
        return List.of(
                new Deployment(Stack.MVC, null),
                new Deployment(Stack.WEBFLUX, null),
                new Deployment(Stack.MVC, Database.POSTGRESQL),
                new Deployment(Stack.WEBFLUX, Database.POSTGRESQL),
                new Deployment(Stack.MVC, Database.MARIADB));
    }

    /** {@code stack} on {@code store}: {@code redis}, or a {@link Database}'s name ({@code postgresql}, ...). */
    public static Deployment of(Stack stack, String store) {
        return new Deployment(stack, store.equals("redis") ? null : Database.valueOf(store.toUpperCase()));
    }

    /** Whether the records and tokens live in a database. */
    public boolean jdbc() {
        return database != null;
    }

    /** The properties that put an application's records where this deployment's are. */
    public String[] storeProperties() {
        return database == null
                ? new String[] {"idempotency.store=redis"}
                : ContractApplication.JdbcRecords.on(database);
    }

    public ConfigurableApplicationContext app() {
        return stack.app(this);
    }

    public int port() {
        return app().getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }

    public <T> T bean(Class<T> type) {
        return app().getBean(type);
    }

    /** How long the record of {@code key} (scope, operation, client key) still lives, in {@code unit}; -2 if absent. */
    public long recordTtl(String scope, String operation, String key, TimeUnit unit) {
        String recordKey = bean(RedisKeys.class).requestId(scope, operation, key);
        if (database == null) {
            Long ttl = bean(StringRedisTemplate.class).getExpire(recordKey, unit);
            return ttl == null ? -2 : ttl;
        }
        String millisLeft = database == Database.POSTGRESQL
                ? "(EXTRACT(EPOCH FROM expires_at - clock_timestamp()) * 1000)::bigint"
                : "TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6), expires_at) DIV 1000";
        List<Long> millis = new JdbcTemplate(ContractApplication.JdbcRecords.of(database))
                .queryForList(
                        "SELECT " + millisLeft + " FROM idempotency_request WHERE record_key = ?",
                        Long.class,
                        recordKey);
        return millis.isEmpty() ? -2 : unit.convert(millis.get(0), TimeUnit.MILLISECONDS);
    }

    /**
     * The state of a one-time token in this deployment's store: {@code V} valid, {@code U} used, or {@code absent};
     * fails when the other store holds it.
     */
    public String tokenState(String scope, String operation, String token) {
        return tokenState(app(), scope, operation, token);
    }

    /** {@link #tokenState(String, String, String)} in {@code app}, which runs on this deployment's store. */
    public String tokenState(ConfigurableApplicationContext app, String scope, String operation, String token) {
        String key = app.getBean(RedisKeys.class).token(scope, operation, token);
        String inRedis = app.getBean(StringRedisTemplate.class).opsForValue().get(key);
        List<String> inTable = new JdbcTemplate(
                        ContractApplication.JdbcRecords.of(database == null ? Database.POSTGRESQL : database))
                .queryForList("SELECT state FROM idempotency_request WHERE record_key = ?", String.class, key);
        if (jdbc() ? inRedis != null : !inTable.isEmpty()) {
            throw new AssertionError("The token is in " + (jdbc() ? "Redis" : "the database") + ", the wrong store");
        }
        String state = jdbc() ? (inTable.isEmpty() ? null : inTable.get(0)) : inRedis;
        return state == null ? "absent" : state.substring(0, 1);
    }

    @Override
    public String toString() {
        return stack + (database == null ? "" : " on the JDBC store in " + database);
    }
}
