package dev.idempotency.autoconfigure;

import dev.idempotency.IdempotencyStore;
import dev.idempotency.diagnostics.RedisDiagnostics;
import dev.idempotency.diagnostics.StartupDiagnostics;
import dev.idempotency.memory.InMemoryIdempotency;
import dev.idempotency.redis.RedisIdempotency;
import dev.idempotency.spi.StoreListener;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.boot.thread.Threading;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The {@link IdempotencyStore} that {@code idempotency.store} names: {@code redis} and {@code jdbc} on the application's
 * single {@code RedisConnectionFactory} ({@link OnRedis}), {@code in-memory} without Redis at all ({@link InMemory}).
 */
final class StoreConfigurations {

    private static final String STORE = "idempotency.store";
    private static final String IN_MEMORY = "in-memory";
    private static final String REDIS_CONNECTION_FACTORY =
            "org.springframework.data.redis.connection.RedisConnectionFactory";

    private StoreConfigurations() {}

    /** Redis and its records, optionally in the application's database ({@code store: jdbc}). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = REDIS_CONNECTION_FACTORY)
    @ConditionalOnSingleCandidate(type = REDIS_CONNECTION_FACTORY)
    @Conditional(NotInMemory.class)
    static class OnRedis {

        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean(IdempotencyStore.class)
        @DependsOnDatabaseInitialization
        RedisIdempotency idempotencyStore(
                RedisConnectionFactory connectionFactory,
                IdempotencyProperties properties,
                ObjectProvider<StoreListener> listeners,
                ObjectProvider<DataSource> dataSources,
                Environment environment) {
            // The timers run on threads of their own, never on the application's scheduler: a scheduler kept busy by
            // the application (one thread by default) would delay renewals until leases end.
            RedisIdempotency.Builder builder = RedisIdempotency.builder(connectionFactory);
            if (properties.getStore() == IdempotencyProperties.RecordStore.JDBC) {
                builder.recordStore(JdbcRecordStore.settings(properties.getJdbc(), dataSources));
            }
            return builder.virtualThreads(Threading.VIRTUAL.isActive(environment))
                    .keyPrefix(properties.getKeyPrefix())
                    .namespace(Namespace.resolve(properties, environment))
                    .listener(StoreListeners.composite(listeners.orderedStream().toList()))
                    .maxResultSize(
                            properties.getRequestId().getMaxResponseSize().toBytes())
                    .undecodableResults(properties.getRequestId().getUndecodableResults())
                    .waitForReplicas(
                            properties.getRedis().getWaitForReplicas(),
                            properties.getRedis().getWaitForReplicasTimeout())
                    .build();
        }

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnBean(RedisIdempotency.class)
        RedisDiagnostics idempotencyRedisDiagnostics(RedisIdempotency idempotency) {
            return new RedisDiagnostics(idempotency);
        }

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnBean(RedisDiagnostics.class)
        StartupDiagnostics idempotencyStartupDiagnostics(RedisDiagnostics diagnostics, Environment environment) {
            return new StartupDiagnostics(diagnostics, environment);
        }
    }

    /** Records, tokens and locks in this JVM's memory: no Redis is touched, and it warns so at startup. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = STORE, havingValue = IN_MEMORY)
    static class InMemory {

        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean(IdempotencyStore.class)
        InMemoryIdempotency idempotencyStore(
                IdempotencyProperties properties, ObjectProvider<StoreListener> listeners, Environment environment) {
            return InMemoryIdempotency.builder()
                    .virtualThreads(Threading.VIRTUAL.isActive(environment))
                    .keyPrefix(properties.getKeyPrefix())
                    .namespace(Namespace.resolve(properties, environment))
                    .listener(StoreListeners.composite(listeners.orderedStream().toList()))
                    .maxResultSize(
                            properties.getRequestId().getMaxResponseSize().toBytes())
                    .undecodableResults(properties.getRequestId().getUndecodableResults())
                    .build();
        }
    }

    /** A store can be set up: in memory, or on Redis with one connection factory. */
    static final class Available extends AnyNestedCondition {

        Available() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty(name = STORE, havingValue = IN_MEMORY)
        static class InMemory {}

        @ConditionalOnClass(name = REDIS_CONNECTION_FACTORY)
        @ConditionalOnSingleCandidate(type = REDIS_CONNECTION_FACTORY)
        static class OnRedis {}
    }

    /** {@code idempotency.store} is not {@code in-memory}. */
    static final class NotInMemory extends NoneNestedConditions {

        NotInMemory() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty(name = STORE, havingValue = IN_MEMORY)
        static class InMemory {}
    }
}
