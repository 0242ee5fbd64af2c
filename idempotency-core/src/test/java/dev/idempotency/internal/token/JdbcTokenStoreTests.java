package dev.idempotency.internal.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.InvalidTokenException;
import dev.idempotency.TokenAlreadyUsedException;
import dev.idempotency.internal.jdbc.JdbcConnections;
import dev.idempotency.internal.requestid.JdbcRequestIdStore;
import dev.idempotency.jdbc.JdbcStore;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.redis.RedisIdempotency;
import dev.idempotency.spi.Admission;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.ProtectedCall;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.Database;
import dev.idempotency.testsupport.OnEveryDatabase;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.Topologies;
import dev.idempotency.token.TokenExecutor;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The {@code TOKEN} contract on the JDBC record store, on every database (the shipped schema): a token is used by
 * one submit however many race for it, is unknown elsewhere and after its time, comes back when the work fails or its
 * transaction rolls back, and is purged with the records.
 */
class JdbcTokenStoreTests extends OnEveryDatabase {

    private static final Duration TTL = Duration.ofMinutes(10);

    private DataSource dataSource;
    private JdbcTemplate jdbc;
    private TransactionTemplate transactions;
    private final RedisKeys keys = new RedisKeys("jdbc-token-test:" + UUID.randomUUID() + ":");
    private JdbcRequestIdStore records;
    private TokenExecutor tokens;

    @Override
    protected void open(Database database) {
        dataSource = database.dataSource();
        jdbc = new JdbcTemplate(dataSource);
        transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        new ResourceDatabasePopulator(new ClassPathResource(database.schemaScript())).execute(dataSource);
        jdbc.execute("CREATE TABLE IF NOT EXISTS jdbc_token_feedback (token_scope text, body text)");
        records = JdbcRequestIdStore.open(JdbcStore.of(dataSource), StoreListener.NONE);
        tokens = new TokenStrategy(new JdbcTokenStore(records.connections(), records.table()), keys);
    }

    @AfterParameterizedClassInvocation(injectArguments = false)
    void close() {
        records.close();
    }

    private String state(String scope, String token) {
        List<String> states = jdbc.queryForList(
                "SELECT state FROM idempotency_request WHERE record_key = ?",
                String.class,
                keys.token(scope, "feedback", token));
        return states.isEmpty() ? "absent" : states.get(0);
    }

    private int feedback(String scope) {
        return jdbc.queryForObject(
                "SELECT count(*) FROM jdbc_token_feedback WHERE token_scope = ?", Integer.class, scope);
    }

    @Test
    void aTokenIsARowUsedByOneSubmitAndThenReportedAsUsed() {
        String token = tokens.issue("alice", "feedback", TTL).token();
        assertThat(state("alice", token)).isEqualTo("V");
        assertThat(jdbc.queryForObject(
                        "SELECT count(*) FROM idempotency_request WHERE record_key LIKE ?",
                        Integer.class,
                        "%" + token + "%"))
                .as("only a digest of the token is stored")
                .isZero();
        assertThat(tokens.execute("alice", "feedback", token, () -> "saved")).isEqualTo("saved");
        assertThat(state("alice", token)).isEqualTo("U");
        assertThatThrownBy(() -> tokens.execute("alice", "feedback", token, () -> "again"))
                .isInstanceOf(TokenAlreadyUsedException.class);
    }

    @Test
    void concurrentSubmitsOfOneTokenRunTheWorkOnce() throws Exception {
        String token = tokens.issue("bob", "feedback", TTL).token();
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        Race.run(8, 32, i -> {
            try {
                tokens.execute("bob", "feedback", token, runs::incrementAndGet);
            } catch (TokenAlreadyUsedException ex) {
                refused.incrementAndGet();
            }
        });
        assertThat(runs).hasValue(1);
        assertThat(refused).hasValue(31);
    }

    @Test
    void aTokenIsUnknownInAnotherScopeOrOperationAndAfterItsTime() {
        String token = tokens.issue("carol", "feedback", TTL).token();
        assertThatThrownBy(() -> tokens.consume("mallory", "feedback", token))
                .isInstanceOf(InvalidTokenException.class);
        assertThatThrownBy(() -> tokens.consume("carol", "checkout", token)).isInstanceOf(InvalidTokenException.class);
        tokens.consume("carol", "feedback", token); // the attempts elsewhere did not use it up

        String shortLived =
                tokens.issue("carol", "feedback", Duration.ofMillis(1)).token();
        Await.until(Duration.ofSeconds(30), "the token's time to end", () -> {
            try {
                tokens.consume("carol", "feedback", shortLived);
                return false;
            } catch (InvalidTokenException expected) {
                return true;
            }
        });
    }

    @Test
    void workThatFailsGivesTheTokenBackAndTheNextSubmitRuns() {
        String token = tokens.issue("dave", "feedback", TTL).token();
        assertThatThrownBy(() -> tokens.execute("dave", "feedback", token, () -> {
                    throw new IllegalStateException("payment declined");
                }))
                .hasMessage("payment declined");
        assertThat(state("dave", token)).isEqualTo("V");
        assertThat(tokens.execute("dave", "feedback", token, () -> "second")).isEqualTo("second");
        tokens.restore("dave", "feedback", token);
        assertThat(state("dave", token)).as("restored by hand").isEqualTo("V");
    }

    @Test
    void aTransactionThatRollsBackGivesTheTokenBackAndOneThatCommitsKeepsItUsed() {
        String scope = UUID.randomUUID().toString();
        String token = tokens.issue(scope, "feedback", TTL).token();
        transactions.executeWithoutResult(status -> tokens.execute(scope, "feedback", token, () -> {
            jdbc.update("INSERT INTO jdbc_token_feedback VALUES (?, 'first')", scope);
            status.setRollbackOnly();
            return null;
        }));
        assertThat(feedback(scope)).isZero();
        assertThat(state(scope, token)).as("given back after the rollback").isEqualTo("V");

        transactions.executeWithoutResult(status -> tokens.execute(
                scope,
                "feedback",
                token,
                () -> jdbc.update("INSERT INTO jdbc_token_feedback VALUES (?, 'second')", scope)));
        assertThat(feedback(scope)).isEqualTo(1);
        assertThat(state(scope, token)).isEqualTo("U");
    }

    @Test
    void expiredTokensArePurgedWithTheRecords() {
        String token = tokens.issue("erin", "feedback", Duration.ofMillis(1)).token();
        Await.until(Duration.ofSeconds(30), "the expired token to be purged", () -> {
            records.purgeExpired(1000);
            return "absent".equals(state("erin", token));
        });
    }

    @Test
    void theEntryPointKeepsTokensInTheDatabaseWithTheRecordStore() {
        LettuceConnectionFactory redis = Topologies.STANDALONE.newConnectionFactory();
        String prefix = "jdbc-token-entry:" + UUID.randomUUID() + ":";
        try (RedisIdempotency idempotency = RedisIdempotency.builder(redis)
                .keyPrefix(prefix)
                .recordStore(JdbcStore.of(dataSource))
                .build()) {
            String token = idempotency.tokens().issue("frank", "feedback", TTL).token();
            String key = idempotency.keys().token("frank", "feedback", token);
            assertThat(jdbc.queryForObject(
                            "SELECT state FROM idempotency_request WHERE record_key = ?", String.class, key))
                    .isEqualTo("V");
            StringRedisTemplate template = new StringRedisTemplate(redis);
            assertThat(template.hasKey(key)).as("no token in Redis").isFalse();
            idempotency.tokens().consume("frank", "feedback", token);
            assertThatThrownBy(() -> idempotency.tokens().consume("frank", "feedback", token))
                    .isInstanceOf(TokenAlreadyUsedException.class);
        } finally {
            redis.destroy();
        }
    }

    @Test
    void anUnreachableDatabaseIsAStoreFailureBeforeTheWorkRuns() {
        org.postgresql.ds.PGSimpleDataSource nowhere = new org.postgresql.ds.PGSimpleDataSource();
        nowhere.setURL("jdbc:postgresql://127.0.0.1:1/none?connectTimeout=2");
        try (JdbcConnections down = new JdbcConnections(nowhere, 1, Duration.ofSeconds(2), StoreListener.NONE)) {
            TokenExecutor unreachable = new TokenStrategy(new JdbcTokenStore(down, "idempotency_request"), keys);
            AtomicInteger runs = new AtomicInteger();
            assertThatThrownBy(() -> unreachable.execute("gina", "feedback", "A".repeat(32), runs::incrementAndGet))
                    .isInstanceOf(IdempotencyStoreUnavailableException.class);
            assertThat(runs).hasValue(0);
        }
    }

    @Test
    void aCallerThatWaitsIssuesAndConsumesOnItsOwnThreadAndAnAsynchronousOneOnTheStoresThreads() {
        List<String> ranOn = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        StoreListener threads = new StoreListener() {
            @Override
            public void onCall(String store, String kind, long nanos, boolean failed) {
                ranOn.add(kind + " " + Thread.currentThread().getName());
            }
        };
        String caller = Thread.currentThread().getName();
        try (JdbcConnections watched = new JdbcConnections(dataSource, 2, Duration.ofSeconds(5), threads)) {
            TokenStrategy blocking = new TokenStrategy(new JdbcTokenStore(watched, records.table()), keys);
            String token = blocking.issue("hana", "feedback", TTL).token();
            assertThat(blocking.execute("hana", "feedback", token, () -> "saved"))
                    .isEqualTo("saved");
            Admission admitted = blocking.admit(new ProtectedCall(
                    "hana",
                    "feedback",
                    blocking.issue("hana", "feedback", TTL).token(),
                    null,
                    TTL,
                    TTL,
                    Duration.ZERO));
            assertThat(admitted).isInstanceOf(Admission.Proceed.class);
            Futures.join(((Admission.Proceed) admitted).permit().succeed(null));
            assertThat(ranOn)
                    .containsExactly("issue " + caller, "consume " + caller, "issue " + caller, "consume " + caller);
            ranOn.clear();
            String later = blocking.issue("hana", "feedback", TTL).token();
            ranOn.clear();
            Admission admittedAsync = Futures.join(
                    blocking.admitAsync(new ProtectedCall("hana", "feedback", later, null, TTL, TTL, Duration.ZERO)));
            assertThat(admittedAsync).isInstanceOf(Admission.Proceed.class);
            Futures.join(((Admission.Proceed) admittedAsync).permit().succeed(null));
            assertThat(ranOn).singleElement().asString().startsWith("consume idempotency-jdbc-");
            // In a transaction, a connection asked for may be the transaction's (TransactionAwareDataSourceProxy).
            String inTransaction = blocking.issue("hana", "feedback", TTL).token();
            ranOn.clear();
            transactions.executeWithoutResult(
                    status -> assertThat(blocking.execute("hana", "feedback", inTransaction, () -> "saved"))
                            .isEqualTo("saved"));
            assertThat(ranOn).first().asString().startsWith("consume idempotency-jdbc-");
        }
    }
}
