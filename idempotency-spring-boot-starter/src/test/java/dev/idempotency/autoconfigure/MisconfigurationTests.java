package dev.idempotency.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import dev.idempotency.internal.operation.InvalidIdempotentMethodException;
import dev.idempotency.stacks.ContractApplication;
import dev.idempotency.testsupport.Postgres;
import dev.idempotency.testsupport.RedisServer;
import dev.idempotency.web.servlet.IdempotencyWebMvcAutoConfiguration;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.jdbc.datasource.AbstractDataSource;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;
import reactor.core.publisher.Flux;

/** Each kind of misconfiguration stops startup with a message naming the method and the problem. */
class MisconfigurationTests {

    private static final RedisServer REDIS = RedisServer.start();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(DataRedisAutoConfiguration.class, IdempotencyAutoConfiguration.class))
            .withPropertyValues(
                    "spring.data.redis.host=" + REDIS.host(),
                    "spring.data.redis.port=" + REDIS.port(),
                    "idempotency.policies.payments.ttl=48h");

    static class BadSpel {
        @Idempotent(key = "#order.(")
        public String create(String order) {
            return order;
        }
    }

    static class UnknownPolicy {
        @Idempotent(key = "#id", policy = "paymnets")
        public String create(String id) {
            return id;
        }
    }

    static class LockWithoutKey {
        @Idempotent(strategy = Strategy.LOCK)
        public void reserve(String sku) {}
    }

    static class MalformedTtl {
        @Idempotent(key = "#id", ttl = "24 hours")
        public String create(String id) {
            return id;
        }
    }

    static class UnresolvedPlaceholder {
        @Idempotent(key = "#id", ttl = "${orders.ttl}")
        public String create(String id) {
            return id;
        }
    }

    static class TtlOnLock {
        @Idempotent(strategy = Strategy.LOCK, key = "#sku", ttl = "1m")
        public void reserve(String sku) {}
    }

    static class ObjectResult {
        @Idempotent(key = "#id")
        public Object create(String id) {
            return id;
        }
    }

    interface Shape {}

    static class AbstractResult {
        @Idempotent(key = "#id")
        public Shape create(String id) {
            return new Shape() {};
        }
    }

    static class NegativeWait {
        @Idempotent(key = "#id", policy = "impatient")
        public String create(String id) {
            return id;
        }
    }

    static class Valid {
        @Idempotent(key = "#id", ttl = "${orders.ttl:2h}", policy = "payments")
        public String create(String id) {
            return id;
        }
    }

    @Test
    void unparsableSpelKey() {
        assertStartupFails(BadSpel.class, "BadSpel.create", "is not valid SpEL");
    }

    @Test
    void unknownPolicyNamesTheKnownOnes() {
        assertStartupFails(UnknownPolicy.class, "UnknownPolicy.create", "unknown policy \"paymnets\"", "[payments]");
    }

    @Test
    void lockWithoutAKey() {
        assertStartupFails(LockWithoutKey.class, "LockWithoutKey.reserve", "LOCK needs a key");
    }

    @Test
    void malformedDuration() {
        assertStartupFails(MalformedTtl.class, "MalformedTtl.create", "ttl \"24 hours\" is not a duration");
    }

    @Test
    void unresolvablePlaceholder() {
        assertStartupFails(UnresolvedPlaceholder.class, "UnresolvedPlaceholder.create", "orders.ttl");
    }

    @Test
    void ttlOnALock() {
        assertStartupFails(TtlOnLock.class, "TtlOnLock.reserve", "ttl applies to REQUEST_ID only");
    }

    @Test
    void resultsThatCannotBeDecodedForDuplicates() {
        assertStartupFails(ObjectResult.class, "ObjectResult.create", "declared as Object cannot be decoded");
        assertStartupFails(AbstractResult.class, "AbstractResult.create", "Shape is abstract");
    }

    @Test
    void negativeWaitInAPolicy() {
        runner.withPropertyValues("idempotency.policies.impatient.wait=-1s")
                .withBean(NegativeWait.class)
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("idempotency.policies.impatient.wait"));
    }

    @Test
    void fingerprintFieldsThatAreNotJsonPointers() {
        runner.withPropertyValues("idempotency.policies.amounts.fingerprint-fields=amount")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("idempotency.policies.amounts.fingerprint-fields")
                        .hasMessageContaining("'amount' is not a JSON Pointer; write it as /field"));
    }

    @Test
    void theJdbcStoreWithoutADataSource() {
        runner.withPropertyValues("idempotency.store=jdbc")
                .withBean(Valid.class)
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("idempotency.store")
                        .hasMessageContaining("needs exactly one DataSource bean")
                        .hasMessageContaining("found 0"));
    }

    @Test
    void theJdbcStoreWithoutItsTableNamesTheSchemaToRun() {
        runner.withPropertyValues("idempotency.store=jdbc", "idempotency.jdbc.table=missing_records")
                .withBean(DataSource.class, Postgres::dataSource)
                .withBean(Valid.class)
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .rootCause()
                            .hasMessageContaining("relation \"missing_records\" does not exist");
                    assertThat(context.getStartupFailure())
                            .hasStackTraceContaining("The JDBC record store cannot read its table")
                            .hasStackTraceContaining("classpath:dev/idempotency/jdbc/schema-postgresql.sql");
                });
    }

    @Test
    void aPoolOfTheJdbcStoresOwnThatCannotBeDerivedNamesTheFix() {
        runner.withPropertyValues("idempotency.store=jdbc", "idempotency.jdbc.pool=own")
                .withBean(DataSource.class, () -> new OpaqueDataSource(Postgres.dataSource()))
                .withBean(Valid.class)
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("idempotency.jdbc.pool")
                        .hasMessageContaining("set idempotency.jdbc.pool=shared"));
    }

    @Test
    void aPoolOfTheJdbcStoresOwnIsDerivedFromTheApplicationsDataSource() {
        runner.withPropertyValues("idempotency.store=jdbc", "idempotency.jdbc.pool=own")
                .withBean(DataSource.class, ContractApplication.JdbcRecords::postgres)
                .withBean(Valid.class)
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void aJdbcTableNameThatIsNotOne() {
        runner.withPropertyValues("idempotency.store=jdbc", "idempotency.jdbc.table=records; DROP TABLE orders")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("idempotency.jdbc.table"));
    }

    @Test
    void failureReportNamesTheMethodAndSaysWhatToDo() {
        runner.withBean(UnknownPolicy.class).run(context -> {
            FailureAnalysis analysis = new IdempotencyFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).contains("UnknownPolicy.create", "unknown policy \"paymnets\"");
            assertThat(analysis.getAction()).contains("idempotency.policies");
        });
    }

    @RestController
    static class Streams {
        @PostMapping("/export")
        @Idempotent
        public StreamingResponseBody export() {
            return out -> out.write(1);
        }
    }

    @RestController
    static class LockedStream {
        @PostMapping("/export/{id}")
        @Idempotent(strategy = Strategy.LOCK, key = "#id")
        public StreamingResponseBody export(@PathVariable String id) {
            return out -> out.write(1);
        }
    }

    /** A bean method's Flux is no response: stored as the list of its elements, also in a Spring MVC application. */
    static class FluxService {
        @Idempotent(key = "#id")
        public Flux<String> lines(String id) {
            return Flux.just(id);
        }
    }

    @Test
    void requestIdOnAStreamingResponseFailsStartupNamingTheMethod() {
        WebApplicationContextRunner web = new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataRedisAutoConfiguration.class,
                        IdempotencyAutoConfiguration.class,
                        IdempotencyWebMvcAutoConfiguration.class))
                .withPropertyValues("spring.data.redis.host=" + REDIS.host(), "spring.data.redis.port=" + REDIS.port());
        web.withBean(Streams.class)
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .hasStackTraceContaining("Streams.export")
                        .hasStackTraceContaining("StreamingResponseBody is a stream that cannot be replayed"));
        web.withBean(LockedStream.class).run(context -> assertThat(context).hasNotFailed());
        web.withBean(FluxService.class).run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void validMethodStarts() {
        runner.withBean(Valid.class).run(context -> assertThat(context).hasNotFailed());
    }

    private void assertStartupFails(Class<?> bean, String... messageParts) {
        runner.withBean(bean).run(context -> {
            assertThat(context).hasFailed();
            Throwable failure = context.getStartupFailure();
            while (failure.getCause() != null && !(failure instanceof InvalidIdempotentMethodException)) {
                failure = failure.getCause();
            }
            assertThat(failure).hasMessageContainingAll(messageParts);
        });
    }

    /** A DataSource that tells nothing of its URL or credentials: no pool can be derived from it. */
    static final class OpaqueDataSource extends AbstractDataSource {

        private final DataSource target;

        OpaqueDataSource(DataSource target) {
            this.target = target;
        }

        @Override
        public Connection getConnection() throws SQLException {
            return target.getConnection();
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            return getConnection();
        }
    }
}
