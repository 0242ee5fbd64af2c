package dev.idempotency.stacks;

import dev.idempotency.key.RedisKeys;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One web stack with one record store: the same application, its {@code REQUEST_ID} records and tokens in Redis or in
 * PostgreSQL
 * ({@code idempotency.store: jdbc}). Suites that hold for every store run on all four.
 *
 * @param jdbc whether the records and tokens live in PostgreSQL
 */
public record Deployment(Stack stack, boolean jdbc) {

    /** Both stacks on both stores. */
    public static List<Deployment> all() {
        return List.of(
                new Deployment(Stack.MVC, false),
                new Deployment(Stack.WEBFLUX, false),
                new Deployment(Stack.MVC, true),
                new Deployment(Stack.WEBFLUX, true));
    }

    public ConfigurableApplicationContext app() {
        return jdbc ? stack.appOnJdbc() : stack.app();
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
        if (!jdbc) {
            Long ttl = bean(StringRedisTemplate.class).getExpire(recordKey, unit);
            return ttl == null ? -2 : ttl;
        }
        List<Long> millis = new JdbcTemplate(ContractApplication.JdbcRecords.postgres())
                .queryForList(
                        "SELECT (EXTRACT(EPOCH FROM expires_at - clock_timestamp()) * 1000)::bigint"
                                + " FROM idempotency_request WHERE record_key = ?",
                        Long.class,
                        recordKey);
        return millis.isEmpty() ? -2 : unit.convert(millis.get(0), TimeUnit.MILLISECONDS);
    }

    /**
     * The state of a one-time token in this deployment's store: {@code V} valid, {@code U} used, or {@code absent};
     * fails when the other store holds it.
     */
    public String tokenState(String scope, String operation, String token) {
        return tokenState(app(), jdbc, scope, operation, token);
    }

    /** {@link #tokenState(String, String, String)} in {@code app}, whose tokens are in PostgreSQL when {@code jdbc}. */
    public static String tokenState(
            ConfigurableApplicationContext app, boolean jdbc, String scope, String operation, String token) {
        String key = app.getBean(RedisKeys.class).token(scope, operation, token);
        String inRedis = app.getBean(StringRedisTemplate.class).opsForValue().get(key);
        List<String> inTable = new JdbcTemplate(ContractApplication.JdbcRecords.postgres())
                .queryForList("SELECT state FROM idempotency_request WHERE record_key = ?", String.class, key);
        if (jdbc ? inRedis != null : !inTable.isEmpty()) {
            throw new AssertionError("The token is in " + (jdbc ? "Redis" : "PostgreSQL") + ", the wrong store");
        }
        String state = jdbc ? (inTable.isEmpty() ? null : inTable.get(0)) : inRedis;
        return state == null ? "absent" : state.substring(0, 1);
    }

    @Override
    public String toString() {
        return stack + (jdbc ? " on the JDBC store" : "");
    }
}
